/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vsw configuration parser.
 *
 * Turns an INI file (read with DPDK's rte_cfgfile, which needs no EAL), a
 * runtime "k=v,k=v" port list or the embedded default into struct
 * vsw_config, and validates it.  Parsing is strict: unknown sections and
 * keys, keys that do not apply to a port type, duplicates, missing
 * required keys and malformed or out-of-range values are all errors.
 * Every error is one line naming the file, the section, the key, the value
 * found and what was expected:
 *   FILE: [SECTION] KEY = "VALUE": expected WHAT
 *   FILE: [SECTION] KEY: missing; expected WHAT
 *   FILE: [SECTION]: PROBLEM; expected WHAT
 *   FILE: cannot read: REASON
 * On error the config is reset to vsw_config_init() and -errno returned.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cfgfile.h>

#include "vsw_config.h"

#define SUN_PATH_MAX 108 /* sizeof(((struct sockaddr_un *)0)->sun_path) */
#define LCORE_ID_MAX 1023
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define KV_MAX_ENTRIES 16
/* rte_cfgfile reads lines into a buffer of this size, '\n' included. */
#define CFG_LINE_MAX (CFG_NAME_LEN + CFG_VALUE_LEN + 4 - 2)
#define CMD_SOURCE "<command>"
#define SWITCH_KEYS                                                            \
	"burst, tx-flush-interval-us, tx-retries, poll-mode, "                 \
	"kick-suppression, "                                                   \
	"idle-threshold-us, max-sleep-us, fdb-size, fdb-aging-s, mbufs, "      \
	"rebalance-interval-s, rebalance-threshold-pct, run-dir, control, "    \
	"port-add-drivers, socket-mode, socket-group"
#define NAME_RULE                                                              \
	"1..31 characters of [A-Za-z0-9_] (telemetry keys allow no others)"

/* Where an error is: file and section, plus the caller's buffer. */
struct pctx {
	const char *file;
	const char *section;
	char *err;
	size_t errlen;
};

static void set_err(const struct pctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_err(const struct pctx *c, const char *fmt, ...)
{
	char raw[VSW_ERR_MAX];
	size_t o = 0;
	va_list ap;

	if (c->err == NULL || c->errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	/* quoted input is shown, never replayed: \xNN for what is not
	 * printable ASCII (a tab in a value, a terminal escape...) */
	for (const char *r = raw; *r != '\0' && o + 5 < c->errlen; r++) {
		unsigned char b = (unsigned char)*r;

		if (b >= 0x20 && b <= 0x7e)
			c->err[o++] = (char)b;
		else
			o += (size_t)snprintf(c->err + o, c->errlen - o,
					      "\\x%02x", b);
	}
	c->err[o] = '\0';
}

/* FILE: [SECTION] KEY = "VALUE": expected WHAT */
static int bad_value(const struct pctx *c, const char *key, const char *value,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad_value(const struct pctx *c, const char *key, const char *value,
		     const char *fmt, ...)
{
	char what[VSW_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	set_err(c, "%s: [%s] %s = \"%s\": expected %s", c->file, c->section,
		key, value, what);
	return -EINVAL;
}

/* FILE: [SECTION] KEY: missing; expected WHAT */
static int missing_key(const struct pctx *c, const char *key, const char *what)
{
	set_err(c, "%s: [%s] %s: missing; expected %s", c->file, c->section,
		key, what);
	return -EINVAL;
}

/* FILE: [SECTION]: PROBLEM; expected WHAT */
static int bad_section(const struct pctx *c, const char *problem,
		       const char *what)
{
	set_err(c, "%s: [%s]: %s; expected %s", c->file, c->section, problem,
		what);
	return -EINVAL;
}

/* Offset of the first byte that is not printable ASCII, or -1. */
static long unprintable_at(const char *s)
{
	for (long i = 0; s[i] != '\0'; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return i;
	return -1;
}

/*
 * Keys and values are printable ASCII (review L6): a newline in a path
 * would forge log lines, a byte >= 0x80 would reach DPDK 22.11's JSON
 * escaping as a negative index.  The message never echoes such bytes.
 */
static int check_printable(const struct pctx *c, const char *key,
			   const char *value)
{
	long at;

	if (unprintable_at(key) >= 0) {
		set_err(c,
			"%s: [%s]: a key has a control or non-ASCII byte; "
			"expected printable ASCII",
			c->file, c->section);
		return -EINVAL;
	}
	at = unprintable_at(value);
	if (at < 0)
		return 0;
	set_err(c,
		"%s: [%s] %s: byte 0x%02x at offset %ld of the value; "
		"expected printable ASCII",
		c->file, c->section, key,
		(unsigned int)(unsigned char)value[at], at);
	return -EINVAL;
}

/* Strict unsigned decimal: digits only, no sign, no spaces, no suffix. */
static int parse_uint(const char *s, unsigned int min, unsigned int max,
		      unsigned int *out)
{
	unsigned long v;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

bool vsw_config_port_name_ok(const char *name)
{
	size_t i, len = strlen(name);

	if (len == 0 || len >= VSW_PORT_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_')
			return false;
	return true;
}

/*
 * "<run_dir>/<name>.sock", without doubling a trailing '/'.  A result too
 * long for @buf is cut; validation then rejects it as too long a path.
 */
static void default_sock_path(char *buf, size_t len, const char *run_dir,
			      const char *name)
{
	char tmp[VSW_PATH_MAX + VSW_PORT_NAME_MAX + 8];
	size_t n = strnlen(run_dir, VSW_PATH_MAX - 1);
	const char *sep = (n > 0 && run_dir[n - 1] == '/') ? "" : "/";

	snprintf(tmp, sizeof(tmp), "%.*s%s%.*s.sock", (int)n, run_dir, sep,
		 VSW_PORT_NAME_MAX - 1, name);
	n = strlen(tmp);
	if (n >= len)
		n = len - 1;
	memcpy(buf, tmp, n);
	buf[n] = '\0';
}

/* ---- [switch] ---- */

struct uint_key {
	const char *key;
	size_t off;
	unsigned int min;
	unsigned int max;
	const char *note;
};

static const struct uint_key switch_uint_keys[] = {
	{"burst", offsetof(struct vsw_switch_conf, burst), 1, VSW_BURST_MAX,
	 ""},
	{"tx-flush-interval-us",
	 offsetof(struct vsw_switch_conf, tx_flush_interval_us), 0, 1000000,
	 " (0 = flush every iteration)"},
	{"tx-retries", offsetof(struct vsw_switch_conf, tx_retries), 0, 32, ""},
	{"fdb-size", offsetof(struct vsw_switch_conf, fdb_size), 16, 16777216,
	 ""},
	{"fdb-aging-s", offsetof(struct vsw_switch_conf, fdb_aging_s), 0, 86400,
	 " (0 = never)"},
	{"mbufs", offsetof(struct vsw_switch_conf, mbufs), 1024, 4194304, ""},
	{"idle-threshold-us",
	 offsetof(struct vsw_switch_conf, idle_threshold_us), 1, 1000000, ""},
	{"max-sleep-us", offsetof(struct vsw_switch_conf, max_sleep_us), 10,
	 1000000, ""},
	{"rebalance-interval-s",
	 offsetof(struct vsw_switch_conf, rebalance_interval_s), 0, 3600,
	 " (0 = off)"},
	{"rebalance-threshold-pct",
	 offsetof(struct vsw_switch_conf, rebalance_threshold_pct), 1, 100, ""},
};

static int parse_switch_uint(const struct pctx *c, const struct uint_key *k,
			     const char *value, struct vsw_switch_conf *sw)
{
	unsigned int v;

	if (parse_uint(value, k->min, k->max, &v) < 0)
		return bad_value(c, k->key, value, "an integer in %u..%u%s",
				 k->min, k->max, k->note);
	*(unsigned int *)((char *)sw + k->off) = v;
	return 0;
}

/* "pci net_memif ...": driver names of [a-z0-9_] separated by spaces. */
static int parse_drivers(const struct pctx *c, const char *key,
			 const char *value, struct vsw_switch_conf *sw)
{
	if (strlen(value) >= sizeof(sw->port_add_drivers) ||
	    strspn(value, "abcdefghijklmnopqrstuvwxyz0123456789_ ") !=
		    strlen(value))
		return bad_value(c, key, value,
				 "driver names such as \"pci net_memif\" "
				 "separated by spaces (\"\" = none)");
	snprintf(sw->port_add_drivers, sizeof(sw->port_add_drivers), "%s",
		 value);
	return 0;
}

/* Octal permission bits for vhost-user server sockets, 0600..0777. */
static int parse_socket_mode(const struct pctx *c, const char *key,
			     const char *value, struct vsw_switch_conf *sw)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(value, &end, 8);
	if (value[0] != '0' || *end != '\0' || errno != 0 || v > 0777 ||
	    (v & 0600) != 0600)
		return bad_value(c, key, value,
				 "octal permissions 0600..0777 with the "
				 "owner's rw bits set, e.g. 0660");
	sw->socket_mode = (unsigned int)v;
	return 0;
}

static int parse_switch_entry(const struct pctx *c, const char *key,
			      const char *value, struct vsw_switch_conf *sw)
{
	size_t i;

	if (check_printable(c, key, value) < 0)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(switch_uint_keys); i++)
		if (strcmp(key, switch_uint_keys[i].key) == 0)
			return parse_switch_uint(c, &switch_uint_keys[i], value,
						 sw);
	if (strcmp(key, "poll-mode") == 0) {
		if (strcmp(value, "busy") == 0)
			sw->poll_mode = VSW_POLL_BUSY;
		else if (strcmp(value, "adaptive") == 0)
			sw->poll_mode = VSW_POLL_ADAPTIVE;
		else
			return bad_value(c, key, value, "busy or adaptive");
		return 0;
	}
	if (strcmp(key, "kick-suppression") == 0) {
		if (strcmp(value, "on") == 0)
			sw->kicks_allowed = false;
		else if (strcmp(value, "off") == 0)
			sw->kicks_allowed = true;
		else
			return bad_value(c, key, value, "on or off");
		return 0;
	}
	if (strcmp(key, "control") == 0) {
		if (strcmp(value, "read-write") == 0)
			sw->read_only = false;
		else if (strcmp(value, "read-only") == 0)
			sw->read_only = true;
		else
			return bad_value(c, key, value,
					 "read-write or read-only");
		return 0;
	}
	if (strcmp(key, "port-add-drivers") == 0)
		return parse_drivers(c, key, value, sw);
	if (strcmp(key, "socket-mode") == 0)
		return parse_socket_mode(c, key, value, sw);
	if (strcmp(key, "socket-group") == 0) {
		if (strlen(value) >= sizeof(sw->socket_group) ||
		    strspn(value, "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") !=
			    strlen(value))
			return bad_value(c, key, value,
					 "a group name of [A-Za-z0-9_.-], at "
					 "most 63 characters");
		snprintf(sw->socket_group, sizeof(sw->socket_group), "%s",
			 value);
		return 0;
	}
	if (strcmp(key, "run-dir") == 0) {
		if (value[0] != '/' || strlen(value) >= VSW_PATH_MAX)
			return bad_value(c, key, value,
					 "an absolute path shorter than %d "
					 "characters",
					 VSW_PATH_MAX);
		snprintf(sw->run_dir, sizeof(sw->run_dir), "%s", value);
		return 0;
	}
	return bad_value(c, key, value, "a [switch] key (%s)", SWITCH_KEYS);
}

/* Copy @src[0..len) without surrounding blanks; false if it does not fit. */
static bool copy_trimmed(char *dst, size_t size, const char *src, size_t len)
{
	while (len > 0 && isspace((unsigned char)src[0])) {
		src++;
		len--;
	}
	while (len > 0 && isspace((unsigned char)src[len - 1]))
		len--;
	if (len >= size)
		return false;
	memcpy(dst, src, len);
	dst[len] = '\0';
	return true;
}

/* rxq is the ethdev spelling of queues: the two count as one key. */
static const char *canon_key(const char *key)
{
	return strcmp(key, "rxq") == 0 ? "queues" : key;
}

static int check_dup_keys(const struct pctx *c,
			  const struct rte_cfgfile_entry *e, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		for (j = 0; j < i; j++) {
			if (strcmp(canon_key(e[i].name), canon_key(e[j].name)))
				continue;
			if (strcmp(e[i].name, e[j].name) == 0)
				return bad_value(c, e[i].name, e[i].value,
						 "%s only once in a section",
						 e[i].name);
			return bad_value(c, e[i].name, e[i].value,
					 "only one of %s and %s", e[j].name,
					 e[i].name);
		}
	}
	return 0;
}

static int parse_switch(const struct pctx *c, const struct rte_cfgfile_entry *e,
			int n, struct vsw_switch_conf *sw)
{
	int i, ret;

	ret = check_dup_keys(c, e, n);
	for (i = 0; ret == 0 && i < n; i++)
		ret = parse_switch_entry(c, e[i].name, e[i].value, sw);
	return ret;
}

/* ---- [port NAME] ---- */

#define TYPE_VHOST (1u << VSW_PORT_VHOST)
#define TYPE_ETHDEV (1u << VSW_PORT_ETHDEV)
#define TYPE_ANY (TYPE_VHOST | TYPE_ETHDEV)
#define COMMON_KEYS "mtu, max-macs, allowed-macs"
#define PORT_KEYS                                                              \
	"type, path, mode, devargs, queues, rxq, txq, workers, " COMMON_KEYS
#define VHOST_KEYS "type, path, mode, queues, workers, " COMMON_KEYS
#define ETHDEV_KEYS "type, devargs, queues, rxq, txq, workers, " COMMON_KEYS
#define RUNTIME_PORT_KEYS COMMON_KEYS
#define DEVARGS_WHAT "ethdev devargs such as net_memif0,role=server"

static int check_sock_path(const struct pctx *c, const char *path)
{
	if (path[0] != '/' || strnlen(path, VSW_PATH_MAX) >= SUN_PATH_MAX)
		return bad_value(c, "path", path,
				 "an absolute path shorter than %d characters "
				 "(sun_path)",
				 SUN_PATH_MAX);
	return 0;
}

static int pk_type(const struct pctx *c, const char *key, const char *value,
		   struct vsw_port_conf *pc)
{
	if (strcmp(value, "vhost-user") == 0)
		pc->type = VSW_PORT_VHOST;
	else if (strcmp(value, "ethdev") == 0)
		pc->type = VSW_PORT_ETHDEV;
	else
		return bad_value(c, key, value, "vhost-user or ethdev");
	return 0;
}

static int pk_path(const struct pctx *c, const char *key, const char *value,
		   struct vsw_port_conf *pc)
{
	(void)key;
	snprintf(pc->path, sizeof(pc->path), "%s", value);
	return check_sock_path(c, value);
}

static int pk_mode(const struct pctx *c, const char *key, const char *value,
		   struct vsw_port_conf *pc)
{
	if (strcmp(value, "server") == 0)
		pc->mode = VSW_VHOST_SERVER;
	else if (strcmp(value, "client") == 0)
		pc->mode = VSW_VHOST_CLIENT;
	else
		return bad_value(c, key, value, "server or client");
	return 0;
}

static int pk_queues(const struct pctx *c, const char *key, const char *value,
		     struct vsw_port_conf *pc)
{
	if (parse_uint(value, 1, VSW_MAX_QUEUES, &pc->queues) < 0)
		return bad_value(c, key, value, "an integer in 1..%d",
				 VSW_MAX_QUEUES);
	return 0;
}

static int pk_txq(const struct pctx *c, const char *key, const char *value,
		  struct vsw_port_conf *pc)
{
	if (parse_uint(value, 0, VSW_MAX_QUEUES, &pc->txq) < 0)
		return bad_value(c, key, value,
				 "an integer in 0..%d (0 = one per worker)",
				 VSW_MAX_QUEUES);
	return 0;
}

static int pk_devargs(const struct pctx *c, const char *key, const char *value,
		      struct vsw_port_conf *pc)
{
	size_t len = strlen(value);

	/* rte_cfgfile silently cuts values at CFG_VALUE_LEN - 1 characters */
	if (len == 0 || len >= VSW_DEVARGS_MAX - 1 || len >= CFG_VALUE_LEN - 1)
		return bad_value(c, key, value, "%s, 1..%d characters",
				 DEVARGS_WHAT, VSW_DEVARGS_MAX - 2);
	memcpy(pc->devargs, value, len + 1);
	return 0;
}

static int pk_workers(const struct pctx *c, const char *key, const char *value,
		      struct vsw_port_conf *pc)
{
	const char *p = value;
	unsigned int n = 0;
	char item[16];
	size_t len;

	for (;;) {
		len = strcspn(p, ",");
		if (n == VSW_MAX_QUEUES ||
		    !copy_trimmed(item, sizeof(item), p, len) ||
		    parse_uint(item, 0, LCORE_ID_MAX, &pc->workers[n]) < 0)
			return bad_value(c, key, value,
					 "a comma-separated list of 1..%d "
					 "lcore ids (0..%d)",
					 VSW_MAX_QUEUES, LCORE_ID_MAX);
		n++;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	pc->n_workers = n;
	return 0;
}

static int pk_mtu(const struct pctx *c, const char *key, const char *value,
		  struct vsw_port_conf *pc)
{
	if (parse_uint(value, VSW_MTU_MIN, VSW_MTU_MAX, &pc->mtu) < 0)
		return bad_value(c, key, value,
				 "an MTU in %d..%d bytes (frames up to MTU + "
				 "%d)",
				 VSW_MTU_MIN, VSW_MTU_MAX, VSW_FRAME_OVERHEAD);
	return 0;
}

static int pk_max_macs(const struct pctx *c, const char *key, const char *value,
		       struct vsw_port_conf *pc)
{
	if (parse_uint(value, 0, VSW_MAX_MACS_MAX, &pc->max_macs) < 0)
		return bad_value(c, key, value,
				 "an integer in 0..%d (0 = no per-port limit)",
				 VSW_MAX_MACS_MAX);
	return 0;
}

/* One "aa:bb:cc:dd:ee:ff" of exactly 17 characters, unicast. */
static bool parse_mac(const char *s, size_t len, uint8_t mac[6])
{
	if (len != 17)
		return false;
	for (int i = 0; i < 6; i++) {
		const char *h = s + 3 * i;

		if (!isxdigit((unsigned char)h[0]) ||
		    !isxdigit((unsigned char)h[1]) || (i < 5 && h[2] != ':'))
			return false;
		mac[i] = (uint8_t)((isdigit((unsigned char)h[0])
					    ? h[0] - '0'
					    : (tolower((unsigned char)h[0]) -
					       'a' + 10))
					   << 4 |
				   (isdigit((unsigned char)h[1])
					    ? h[1] - '0'
					    : (tolower((unsigned char)h[1]) -
					       'a' + 10)));
	}
	return !(mac[0] & 1);
}

/* "any" or "", or up to 16 unicast MACs separated by spaces. */
static int pk_allowed_macs(const struct pctx *c, const char *key,
			   const char *value, struct vsw_port_conf *pc)
{
	const char *p = value;
	unsigned int n = 0;

	if (strcmp(value, "any") == 0) {
		pc->n_allowed = 0;
		return 0;
	}
	for (;;) {
		size_t len;

		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		len = strcspn(p, " ");
		if (n == VSW_MAX_ALLOWED_MACS ||
		    !parse_mac(p, len, pc->allowed[n]))
			return bad_value(c, key, value,
					 "\"any\" or 1..%d unicast MACs "
					 "aa:bb:cc:dd:ee:ff separated by "
					 "spaces",
					 VSW_MAX_ALLOWED_MACS);
		n++;
		p += len;
	}
	pc->n_allowed = n;
	return 0;
}

struct port_key {
	const char *key;
	unsigned int types;
	int (*parse)(const struct pctx *c, const char *key, const char *value,
		     struct vsw_port_conf *pc);
};

/* clang-format off */
static const struct port_key port_keys[] = {
	{"type", TYPE_ANY, pk_type},
	{"path", TYPE_VHOST, pk_path},
	{"mode", TYPE_VHOST, pk_mode},
	{"devargs", TYPE_ETHDEV, pk_devargs},
	{"queues", TYPE_ANY, pk_queues},
	{"rxq", TYPE_ETHDEV, pk_queues},
	{"txq", TYPE_ETHDEV, pk_txq},
	{"workers", TYPE_ANY, pk_workers},
	{"mtu", TYPE_ANY, pk_mtu},
	{"max-macs", TYPE_ANY, pk_max_macs},
	{"allowed-macs", TYPE_ANY, pk_allowed_macs},
};
/* clang-format on */

static const struct port_key *find_port_key(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(port_keys); i++)
		if (strcmp(key, port_keys[i].key) == 0)
			return &port_keys[i];
	return NULL;
}

/* The type decides which keys are valid, so it is parsed first. */
static int parse_port_type(const struct pctx *c,
			   const struct rte_cfgfile_entry *e, int n,
			   struct vsw_port_conf *pc)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(e[i].name, "type") == 0)
			return pk_type(c, e[i].name, e[i].value, pc);
	return missing_key(c, "type", "vhost-user or ethdev");
}

static int parse_port_entry(const struct pctx *c,
			    const struct rte_cfgfile_entry *e,
			    struct vsw_port_conf *pc)
{
	const struct port_key *k = find_port_key(e->name);

	if (check_printable(c, e->name, e->value) < 0)
		return -EINVAL;
	if (k == NULL)
		return bad_value(c, e->name, e->value, "a port key (%s)",
				 PORT_KEYS);
	if (!(k->types & (1u << pc->type))) {
		if (pc->type == VSW_PORT_VHOST)
			return bad_value(c, e->name, e->value,
					 "a vhost-user port key (%s)",
					 VHOST_KEYS);
		return bad_value(c, e->name, e->value,
				 "an ethdev port key (%s)", ETHDEV_KEYS);
	}
	return k->parse(c, e->name, e->value, pc);
}

/* Parse one port's entries; a vhost path left empty gets its default later. */
static int parse_port(const struct pctx *c, const char *name,
		      const struct rte_cfgfile_entry *e, int n,
		      struct vsw_port_conf *pc)
{
	int i, ret;

	memset(pc, 0, sizeof(*pc));
	snprintf(pc->name, sizeof(pc->name), "%s", name);
	pc->mode = VSW_VHOST_SERVER;
	pc->mtu = VSW_MTU_DEFAULT;
	ret = check_dup_keys(c, e, n);
	if (ret == 0)
		ret = parse_port_type(c, e, n, pc);
	pc->queues = pc->type == VSW_PORT_VHOST ? VSW_MAX_QUEUES : 1;
	for (i = 0; ret == 0 && i < n; i++)
		ret = parse_port_entry(c, &e[i], pc);
	if (ret == 0 && pc->type == VSW_PORT_ETHDEV && pc->devargs[0] == '\0')
		ret = missing_key(c, "devargs", DEVARGS_WHAT);
	return ret;
}

/* ---- file ---- */

static int dispatch_section(const struct pctx *c,
			    const struct rte_cfgfile_entry *e, int n,
			    struct vsw_config *cfg, bool *seen_switch)
{
	const char *name = c->section;
	int ret;

	if (strcmp(name, "switch") == 0) {
		if (*seen_switch)
			return bad_section(c, "duplicate section",
					   "one [switch] section");
		*seen_switch = true;
		return parse_switch(c, e, n, &cfg->sw);
	}
	if (strncmp(name, "port ", 5) != 0 && strcmp(name, "port") != 0)
		return bad_section(c, "unknown section",
				   "[switch] or [port NAME]");
	name += name[4] == ' ' ? 5 : 4;
	if (!vsw_config_port_name_ok(name))
		return bad_section(c, "invalid port name",
				   "[port NAME] with NAME " NAME_RULE);
	if (cfg->n_ports == VSW_MAX_PORTS)
		return bad_section(c, "too many ports",
				   "at most 64 [port NAME] sections");
	ret = parse_port(c, name, e, n, &cfg->ports[cfg->n_ports]);
	if (ret == 0)
		cfg->n_ports++;
	return ret;
}

static int parse_section(struct rte_cfgfile *f, int idx, const char *file,
			 struct vsw_config *cfg, bool *seen_switch, char *err,
			 size_t errlen)
{
	char name[CFG_NAME_LEN] = "";
	struct pctx c = {file, name, err, errlen};
	struct rte_cfgfile_entry *e;
	int n, ret = -EINVAL;

	n = rte_cfgfile_section_num_entries_by_index(f, name, idx);
	if (n < 0) {
		set_err(&c, "%s: cannot read: section %d", file, idx);
		return -EINVAL;
	}
	e = calloc(n > 0 ? n : 1, sizeof(*e));
	if (e == NULL) {
		set_err(&c, "%s: cannot read: %s", file, strerror(ENOMEM));
		return -ENOMEM;
	}
	if (rte_cfgfile_section_entries_by_index(f, idx, name, e, n) == n)
		ret = dispatch_section(&c, e, n, cfg, seen_switch);
	else
		set_err(&c, "%s: cannot read: [%s]", file, name);
	free(e);
	return ret;
}

/* FILE: cannot read: line N "TEXT": expected WHAT */
static int syntax_err(const struct pctx *c, unsigned int lineno,
		      const char *text, const char *what)
{
	set_err(c, "%s: cannot read: line %u \"%s\": expected %s", c->file,
		lineno, text, what);
	return -EINVAL;
}

/*
 * rte_cfgfile skips lines that are neither "[section]" nor "key = value"
 * and fails without saying why on others; find those lines first.
 */
/* Length of @p[0..len) without blanks at either end. */
static size_t trimmed_len(const char *p, size_t len)
{
	while (len > 0 && isspace((unsigned char)p[0])) {
		p++;
		len--;
	}
	while (len > 0 && isspace((unsigned char)p[len - 1]))
		len--;
	return len;
}

/*
 * Bytes rte_cfgfile would take silently: NUL (the rest of the line is
 * lost), control characters and non-ASCII outside comments.  Never quoted
 * back: the message names the line and column instead.
 */
static int check_line_bytes(const struct pctx *c, const char *line, size_t n,
			    unsigned int lineno)
{
	bool comment = false;

	for (size_t i = 0; i < n && line[i] != '\n'; i++) {
		unsigned char b = (unsigned char)line[i];

		if (b == ';' && (i == 0 || line[i - 1] != '\\'))
			comment = true;
		if (b == 0 || (!comment && b != '\t' && b != '\r' &&
			       (b < 0x20 || b > 0x7e))) {
			set_err(c,
				"%s: cannot read: line %u: byte 0x%02x at "
				"column "
				"%zu; expected printable ASCII",
				c->file, lineno, (unsigned int)b, i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Keys, values and section names longer than rte_cfgfile's buffers are
 * cut there without a word; refuse them here.
 */
static int check_lengths(const struct pctx *c, const char *p,
			 unsigned int lineno)
{
	const char *eq = strchr(p, '=');

	if (*p == '[' && strcspn(p + 1, "]") >= CFG_NAME_LEN)
		return syntax_err(c, lineno, "[...]",
				  "a section name of at most 63 characters");
	if (*p == '[' || eq == NULL)
		return 0;
	if (trimmed_len(p, (size_t)(eq - p)) >= CFG_NAME_LEN)
		return syntax_err(c, lineno, "...",
				  "a key of at most 63 characters");
	if (trimmed_len(eq + 1, strlen(eq + 1)) >= CFG_VALUE_LEN)
		return syntax_err(c, lineno, "...",
				  "a value of at most 255 characters");
	return 0;
}

static int prescan_line(const struct pctx *c, char *line, size_t n,
			unsigned int lineno, bool *in_section)
{
	size_t len = strcspn(line, "\n");
	char *p, *semi;
	int rc;

	if (len > CFG_LINE_MAX)
		return syntax_err(c, lineno, "...",
				  "a line of at most 322 characters");
	rc = check_line_bytes(c, line, n, lineno);
	if (rc < 0)
		return rc;
	line[len] = '\0';
	semi = strchr(line, ';'); /* like rte_cfgfile: first ';' unless \; */
	if (semi != NULL && (semi == line || semi[-1] != '\\'))
		*semi = '\0';
	for (p = line; isspace((unsigned char)*p); p++)
		;
	len = strlen(p);
	while (len > 0 && isspace((unsigned char)p[len - 1]))
		p[--len] = '\0';
	if (*p == '\0')
		return 0;
	rc = check_lengths(c, p, lineno);
	if (rc < 0)
		return rc;
	if (*p == '[') {
		*in_section = true;
		if (strchr(p, ']') == NULL)
			return syntax_err(c, lineno, p, "a closing ']'");
		return 0;
	}
	if (strchr(p, '=') == NULL)
		return syntax_err(c, lineno, p, "KEY = VALUE or [SECTION]");
	if (!*in_section)
		return syntax_err(c, lineno, p, "a [SECTION] before any key");
	return 0;
}

static int prescan_file(const struct pctx *c)
{
	unsigned int lineno = 0;
	bool in_section = false;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;
	FILE *fp;

	fp = fopen(c->file, "r");
	if (fp == NULL) {
		ret = -errno;
		set_err(c, "%s: cannot read: %s", c->file, strerror(-ret));
		return ret;
	}
	while (ret == 0 && (n = getline(&line, &cap, fp)) >= 0)
		ret = prescan_line(c, line, (size_t)n, ++lineno, &in_section);
	if (ret == 0 && ferror(fp)) {
		ret = errno ? -errno : -EIO;
		set_err(c, "%s: cannot read: %s", c->file, strerror(-ret));
	}
	free(line);
	fclose(fp);
	return ret;
}

static void set_default_paths(struct vsw_config *cfg)
{
	struct vsw_port_conf *pc;
	unsigned int i;

	for (i = 0; i < cfg->n_ports; i++) {
		pc = &cfg->ports[i];
		if (pc->type == VSW_PORT_VHOST && pc->path[0] == '\0')
			default_sock_path(pc->path, sizeof(pc->path),
					  cfg->sw.run_dir, pc->name);
	}
}

static int parse_file(const char *path, struct vsw_config *cfg, char *err,
		      size_t errlen)
{
	struct pctx c = {path, "", err, errlen};
	bool seen_switch = false;
	struct rte_cfgfile *f;
	int i, n, ret;

	ret = prescan_file(&c);
	if (ret < 0)
		return ret;
	f = rte_cfgfile_load(path, CFG_FLAG_EMPTY_VALUES);
	if (f == NULL) {
		set_err(&c, "%s: cannot read: not a valid INI file", path);
		return -EINVAL;
	}
	n = rte_cfgfile_num_sections(f, NULL, 0);
	for (i = 0; ret == 0 && i < n; i++)
		ret = parse_section(f, i, path, cfg, &seen_switch, err, errlen);
	rte_cfgfile_close(f);
	return ret;
}

int vsw_config_load(const char *path, struct vsw_config *cfg, char *err,
		    size_t errlen)
{
	int ret;

	vsw_config_init(cfg);
	if (path == NULL || path[0] == '\0') {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "<none>: cannot read: %s",
				 strerror(ENOENT));
		return -ENOENT;
	}
	snprintf(cfg->source, sizeof(cfg->source), "%s", path);
	ret = parse_file(path, cfg, err, errlen);
	if (ret == 0) {
		set_default_paths(cfg);
		ret = vsw_config_validate(cfg, NULL, NULL, err, errlen);
	}
	if (ret < 0)
		vsw_config_init(cfg);
	return ret;
}

/* ---- validation ---- */

static int check_unique(const struct pctx *c, const struct vsw_config *cfg,
			unsigned int i)
{
	const struct vsw_port_conf *pc = &cfg->ports[i], *o;
	unsigned int j;

	for (j = 0; j < i; j++) {
		o = &cfg->ports[j];
		if (strcmp(pc->name, o->name) == 0)
			return bad_section(c, "duplicate port name",
					   "each port name once");
		if (pc->type == VSW_PORT_VHOST && o->type == VSW_PORT_VHOST &&
		    strcmp(pc->path, o->path) == 0)
			return bad_value(c, "path", pc->path,
					 "a socket path no other port uses "
					 "(port %s uses it)",
					 o->name);
	}
	return 0;
}

static int check_workers(const struct pctx *c, const struct vsw_port_conf *pc,
			 bool (*lcore_ok)(unsigned int lcore, void *arg),
			 void *arg)
{
	char v[16];
	unsigned int k;

	for (k = 0; lcore_ok != NULL && k < pc->n_workers; k++) {
		if (lcore_ok(pc->workers[k], arg))
			continue;
		snprintf(v, sizeof(v), "%u", pc->workers[k]);
		return bad_value(c, "workers", v,
				 "a worker lcore id (lcore %u is not a worker)",
				 pc->workers[k]);
	}
	return 0;
}

static int validate_port(const struct vsw_config *cfg, unsigned int i,
			 bool (*lcore_ok)(unsigned int lcore, void *arg),
			 void *arg, char *err, size_t errlen)
{
	const struct vsw_port_conf *pc = &cfg->ports[i];
	char sect[VSW_PORT_NAME_MAX + 8];
	struct pctx c = {cfg->source, sect, err, errlen};
	int ret;

	snprintf(sect, sizeof(sect), "port %.*s", VSW_PORT_NAME_MAX - 1,
		 pc->name);
	if (!vsw_config_port_name_ok(pc->name))
		return bad_section(&c, "invalid port name",
				   "[port NAME] with NAME " NAME_RULE);
	ret = check_unique(&c, cfg, i);
	if (ret == 0 && pc->type == VSW_PORT_VHOST)
		ret = check_sock_path(&c, pc->path);
	if (ret == 0)
		ret = check_workers(&c, pc, lcore_ok, arg);
	return ret;
}

int vsw_config_validate(const struct vsw_config *cfg,
			bool (*lcore_ok)(unsigned int lcore, void *arg),
			void *arg, char *err, size_t errlen)
{
	const char *rd = cfg->sw.run_dir;
	struct pctx c = {cfg->source, "switch", err, errlen};
	unsigned int i;
	int ret;

	if (rd[0] != '/' || strnlen(rd, VSW_PATH_MAX) >= VSW_PATH_MAX)
		return bad_value(&c, "run-dir", rd,
				 "an absolute path shorter than %d characters",
				 VSW_PATH_MAX);
	if (cfg->n_ports == 0 || cfg->n_ports > VSW_MAX_PORTS) {
		set_err(&c, "%s: %u ports; expected 1..%d [port NAME] sections",
			cfg->source, cfg->n_ports, VSW_MAX_PORTS);
		return -EINVAL;
	}
	for (i = 0; i < cfg->n_ports; i++) {
		ret = validate_port(cfg, i, lcore_ok, arg, err, errlen);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* ---- runtime port-add ---- */

/*
 * Split "k=v,k=v" into entries.  devargs values contain commas, so the
 * devargs key must come last and takes the rest of the string.
 */
static int kv_item_err(const struct pctx *c, const char *s, size_t len,
		       const char *what)
{
	set_err(c, "%s: [%s] \"%.*s\": expected %s", c->file, c->section,
		(int)len, s, what);
	return -EINVAL;
}

static int split_kv(const struct pctx *c, const char *s,
		    struct rte_cfgfile_entry *e, int max)
{
	const char *eq;
	char empty[1];
	size_t len;
	int n = 0;

	for (; *s != '\0'; s += len + (s[len] == ',')) {
		len = strcspn(s, ",");
		if (copy_trimmed(empty, sizeof(empty), s, len))
			continue; /* empty item, e.g. a trailing comma */
		eq = memchr(s, '=', len);
		if (eq == NULL)
			return kv_item_err(c, s, len, "KEY=VALUE");
		if (n == max)
			return kv_item_err(c, s, len, "at most 16 KEY=VALUE");
		if (!copy_trimmed(e[n].name, CFG_NAME_LEN, s, eq - s))
			return kv_item_err(c, s, len,
					   "a port key (" PORT_KEYS ")");
		if (strcmp(e[n].name, "devargs") == 0)
			len = strlen(s);
		if (!copy_trimmed(e[n].value, CFG_VALUE_LEN, eq + 1,
				  len - (eq + 1 - s)))
			return kv_item_err(c, s, len, "a shorter value");
		n++;
	}
	return n;
}

unsigned int vsw_config_mbufs_needed(const struct vsw_config *cfg,
				     unsigned int n_workers)
{
	unsigned long n = 1024;

	for (unsigned int i = 0; i < cfg->n_ports; i++) {
		const struct vsw_port_conf *pc = &cfg->ports[i];

		if (pc->type != VSW_PORT_ETHDEV)
			continue;
		n += (unsigned long)pc->queues * VSW_ETH_RX_DESC;
		n += (unsigned long)(pc->txq ? pc->txq : n_workers) *
		     VSW_ETH_TX_DESC;
	}
	n += (unsigned long)n_workers *
	     (VSW_MBUF_CACHE * 3 / 2 + cfg->sw.burst * (cfg->n_ports + 1));
	return n > UINT32_MAX ? UINT32_MAX : (unsigned int)n;
}

int vsw_config_check_mbufs(const struct vsw_config *cfg, unsigned int n_workers,
			   char *err, size_t errlen)
{
	struct pctx c = {cfg->source, "switch", err, errlen};
	unsigned int need = vsw_config_mbufs_needed(cfg, n_workers);
	char v[16];

	if (cfg->sw.mbufs >= need)
		return 0;
	snprintf(v, sizeof(v), "%u", cfg->sw.mbufs);
	return bad_value(&c, "mbufs", v,
			 "at least %u for %u port(s) and %u worker(s) (ethdev "
			 "descriptors, pool caches, tx buffers)",
			 need, cfg->n_ports, n_workers);
}

bool vsw_config_devargs_is_pci(const char *devargs)
{
	unsigned int a, b, c, d;
	char end;

	return sscanf(devargs, "%x:%x:%x.%x%c", &a, &b, &c, &d, &end) >= 4 ||
	       sscanf(devargs, "%x:%x.%x%c", &a, &b, &c, &end) == 3 ||
	       (sscanf(devargs, "%x:%x.%x%c", &a, &b, &c, &end) == 4 &&
		end == ',');
}

/* @path names a file below @dir: no empty, "." or ".." component. */
static bool path_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	const char *p;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (strncmp(path, dir, n) != 0 || path[n] != '/')
		return false;
	for (p = path + n; *p == '/';) {
		size_t len = strcspn(p + 1, "/");

		if (len == 0 || (len == 1 && p[1] == '.') ||
		    (len == 2 && p[1] == '.' && p[2] == '.'))
			return false;
		p += 1 + len;
	}
	return *p == '\0';
}

/* Is @name one of the space-separated words of @list? */
static bool in_list(const char *list, const char *name, size_t len)
{
	for (const char *p = list; *p != '\0';) {
		size_t w = strcspn(p, " ");

		if (w == len && strncmp(p, name, len) == 0)
			return true;
		p += w;
		p += strspn(p, " ");
	}
	return false;
}

/*
 * A memif devargs whose socket file would land outside @dir.  memif
 * takes the last of repeated keys and reads any socket-abstract other than
 * "yes" as no, so every occurrence is looked at: a file socket (any
 * socket-abstract value but "yes") needs every socket= below @dir, and
 * an explicit one (memif's default is /run/memif.sock).
 */
static bool memif_escapes(const char *devargs, const char *dir)
{
	bool file = false, named = false, outside = false;

	for (const char *p = strchr(devargs, ','); p != NULL;
	     p = strchr(p + 1, ',')) {
		char v[VSW_DEVARGS_MAX];
		size_t len = strcspn(p + 1, ",");

		snprintf(v, sizeof(v), "%.*s", (int)len, p + 1);
		if (strncmp(v, "socket-abstract=", 16) == 0)
			file |= strcmp(v + 16, "yes") != 0;
		else if (strncmp(v, "socket=", 7) == 0) {
			named = true;
			outside |= !path_below(v + 7, dir);
		}
	}
	return file && (!named || outside);
}

/*
 * What a telemetry client may create at run time (review M7): vhost-user
 * sockets only below run-dir, ethdev drivers only from port-add-drivers,
 * and a memif socket file only below run-dir.
 */
static int check_runtime_port(const struct pctx *c,
			      const struct vsw_port_conf *pc,
			      const struct vsw_switch_conf *sw)
{
	const char *d = pc->devargs;

	if (pc->type == VSW_PORT_VHOST) {
		if (!path_below(pc->path, sw->run_dir))
			return bad_value(c, "path", pc->path,
					 "a socket path below run-dir %s (no "
					 "'.' or '..' components) for a port "
					 "added at run time",
					 sw->run_dir);
		return 0;
	}
	if (vsw_config_devargs_is_pci(d)
		    ? !in_list(sw->port_add_drivers, "pci", 3)
		    : !in_list(sw->port_add_drivers, d,
			       strcspn(d, "0123456789,")))
		return bad_value(c, "devargs", d,
				 "a driver listed in [switch] "
				 "port-add-drivers (\"%s\"); other drivers "
				 "only in the config file",
				 sw->port_add_drivers);
	if (strncmp(d, "net_memif", 9) == 0 && memif_escapes(d, sw->run_dir))
		return bad_value(c, "devargs", d,
				 "a memif socket= path below run-dir %s",
				 sw->run_dir);
	return 0;
}

int vsw_config_port_from_kv(const char *name, const char *kvlist,
			    const struct vsw_switch_conf *sw,
			    struct vsw_port_conf *pc, char *err, size_t errlen)
{
	struct rte_cfgfile_entry e[KV_MAX_ENTRIES];
	char sect[CFG_NAME_LEN];
	struct pctx c = {CMD_SOURCE, sect, err, errlen};
	int n, ret;

	memset(pc, 0, sizeof(*pc));
	snprintf(sect, sizeof(sect), "port %s", name);
	if (!vsw_config_port_name_ok(name))
		return bad_section(&c, "invalid port name", "NAME " NAME_RULE);
	n = split_kv(&c, kvlist, e, KV_MAX_ENTRIES);
	if (n < 0)
		return n;
	ret = parse_port(&c, name, e, n, pc);
	if (ret == 0 && pc->type == VSW_PORT_VHOST && pc->path[0] == '\0') {
		default_sock_path(
			pc->path, sizeof(pc->path),
			sw != NULL ? sw->run_dir : VSW_DEFAULT_RUN_DIR, name);
		ret = check_sock_path(&c, pc->path);
	}
	if (ret == 0 && sw != NULL)
		ret = check_runtime_port(&c, pc, sw);
	return ret;
}

int vsw_config_port_set_kv(struct vsw_port_conf *pc, const char *kvlist,
			   char *err, size_t errlen)
{
	struct rte_cfgfile_entry e[KV_MAX_ENTRIES];
	struct vsw_port_conf tmp = *pc;
	char sect[CFG_NAME_LEN];
	struct pctx c = {CMD_SOURCE, sect, err, errlen};
	int n, ret;

	snprintf(sect, sizeof(sect), "port %s", pc->name);
	n = split_kv(&c, kvlist, e, KV_MAX_ENTRIES);
	if (n < 0)
		return n;
	if (n == 0)
		return bad_section(&c, "nothing to set", "KEY=VALUE,...");
	ret = check_dup_keys(&c, e, n);
	for (int i = 0; ret == 0 && i < n; i++) {
		const struct port_key *k = find_port_key(e[i].name);

		if (k == NULL ||
		    (k->parse != pk_mtu && k->parse != pk_max_macs &&
		     k->parse != pk_allowed_macs)) {
			set_err(&c,
				"%s: [%s] %s: fixed when the port is added; "
				"expected a key changeable at run time (%s)",
				CMD_SOURCE, sect, e[i].name, RUNTIME_PORT_KEYS);
			return -EPERM;
		}
		ret = k->parse(&c, e[i].name, e[i].value, &tmp);
	}
	if (ret == 0)
		*pc = tmp;
	return ret;
}

void vsw_config_allowed_str(const struct vsw_port_conf *pc, char *buf,
			    size_t len)
{
	size_t off = 0;

	snprintf(buf, len, "any");
	for (unsigned int i = 0; i < pc->n_allowed && off < len; i++) {
		const uint8_t *m = pc->allowed[i];

		off += (size_t)snprintf(
			buf + off, len - off, "%s%02x:%02x:%02x:%02x:%02x:%02x",
			i ? " " : "", m[0], m[1], m[2], m[3], m[4], m[5]);
	}
}

#define FIXED_SWITCH_KEYS                                                      \
	"run-dir, fdb-size, mbufs, control, port-add-drivers, socket-mode, "   \
	"socket-group"

bool vsw_config_switch_key_fixed(const char *key)
{
	static const char *const fixed[] = {
		"run-dir",	    "fdb-size",	   "mbufs",	   "control",
		"port-add-drivers", "socket-mode", "socket-group",
	};

	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		if (strcmp(key, fixed[i]) == 0)
			return true;
	return false;
}

int vsw_config_set_switch_key(struct vsw_switch_conf *sw, const char *key,
			      const char *value, char *err, size_t errlen)
{
	struct pctx c = {CMD_SOURCE, "switch", err, errlen};
	struct vsw_switch_conf tmp = *sw;
	int ret;

	if (vsw_config_switch_key_fixed(key)) {
		set_err(&c,
			"%s: [switch] %s: fixed at start-up; expected a "
			"key other than run-dir, fdb-size, mbufs, control, "
			"port-add-drivers, socket-mode, socket-group",
			CMD_SOURCE, key);
		return -EPERM;
	}
	ret = parse_switch_entry(&c, key, value, &tmp);
	if (ret == 0)
		*sw = tmp;
	return ret;
}

/* ---- defaults and names ---- */

void vsw_config_init(struct vsw_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->source, sizeof(cfg->source), "<default>");
	cfg->sw.burst = 32;
	cfg->sw.tx_flush_interval_us = 0;
	cfg->sw.tx_retries = 4;
	cfg->sw.poll_mode = VSW_POLL_BUSY;
	cfg->sw.fdb_size = 65536;
	cfg->sw.fdb_aging_s = 300;
	cfg->sw.mbufs = 32767;
	cfg->sw.idle_threshold_us = 200;
	cfg->sw.max_sleep_us = 1000;
	cfg->sw.rebalance_interval_s = 0;
	cfg->sw.rebalance_threshold_pct = 25;
	snprintf(cfg->sw.run_dir, sizeof(cfg->sw.run_dir), "%s",
		 VSW_DEFAULT_RUN_DIR);
	snprintf(cfg->sw.port_add_drivers, sizeof(cfg->sw.port_add_drivers),
		 "pci net_memif");
	cfg->sw.socket_mode = 0600;
	cfg->n_ports = 0;
}

void vsw_config_default(struct vsw_config *cfg, const char *run_dir)
{
	static const char *const names[] = {"vm0", "vm1"};
	struct vsw_port_conf *pc;
	unsigned int i;

	vsw_config_init(cfg);
	if (run_dir != NULL)
		snprintf(cfg->sw.run_dir, sizeof(cfg->sw.run_dir), "%s",
			 run_dir);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		pc = &cfg->ports[cfg->n_ports++];
		snprintf(pc->name, sizeof(pc->name), "%s", names[i]);
		pc->type = VSW_PORT_VHOST;
		pc->mode = VSW_VHOST_SERVER;
		pc->queues = VSW_MAX_QUEUES;
		pc->mtu = VSW_MTU_DEFAULT;
		default_sock_path(pc->path, sizeof(pc->path), cfg->sw.run_dir,
				  pc->name);
	}
}

const char *vsw_port_type_str(enum vsw_port_type t)
{
	switch (t) {
	case VSW_PORT_VHOST:
		return "vhost-user";
	case VSW_PORT_ETHDEV:
		return "ethdev";
	}
	return "unknown";
}

const char *vsw_vhost_mode_str(enum vsw_vhost_mode m)
{
	switch (m) {
	case VSW_VHOST_SERVER:
		return "server";
	case VSW_VHOST_CLIENT:
		return "client";
	}
	return "unknown";
}

const char *vsw_poll_mode_str(enum vsw_poll_mode m)
{
	switch (m) {
	case VSW_POLL_BUSY:
		return "busy";
	case VSW_POLL_ADAPTIVE:
		return "adaptive";
	}
	return "unknown";
}
