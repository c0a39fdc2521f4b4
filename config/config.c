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
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cfgfile.h>

#include "vsw_config.h"
#include "vsw_keys.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define KV_MAX_ENTRIES 16
/* rte_cfgfile reads lines into a buffer of this size, '\n' included. */
#define CFG_LINE_MAX (CFG_NAME_LEN + CFG_VALUE_LEN + 4 - 2)
#define CMD_SOURCE "<command>"
#define LIST_MAX 512 /* a list of key names */
#define NAME_RULE "characters of [A-Za-z0-9_] (telemetry keys allow no others)"

/* rte_cfgfile silently cuts values at CFG_VALUE_LEN - 1 characters */
_Static_assert(VSW_DEVARGS_MAX - 2 < CFG_VALUE_LEN - 1, "devargs fit");

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

/* ---- deprecated names ---- */

static void (*warn_fn)(const char *msg, void *arg);
static void *warn_arg;

void vsw_config_on_warning(void (*fn)(const char *msg, void *arg), void *arg)
{
	warn_fn = fn;
	warn_arg = arg;
}

/* FILE: [SECTION] OLD: deprecated; write NEW (the same value) */
static void warn_deprecated(const struct pctx *c, const struct vsw_key *k)
{
	char msg[VSW_ERR_MAX];

	snprintf(msg, sizeof(msg),
		 "%s: [%s] %s: deprecated; write %s (the same value)", c->file,
		 c->section, k->name, vsw_key_canon(k));
	if (warn_fn != NULL)
		warn_fn(msg, warn_arg);
	else
		fprintf(stderr, "vsw: warning: %s\n", msg);
}

/* ---- values, by the kind of their key (config/keys.c) ---- */

static int kind_uint(const struct pctx *c, const struct vsw_key *k,
		     const char *value, void *field)
{
	if (parse_uint(value, k->min, k->max, field) < 0)
		return bad_value(c, k->name, value, "%s in %u..%u%s",
				 k->noun ? k->noun : "an integer", k->min,
				 k->max, k->note ? k->note : "");
	return 0;
}

static int kind_choice(const struct pctx *c, const struct vsw_key *k,
		       const char *value, void *field)
{
	char what[LIST_MAX];

	for (const struct vsw_key_choice *ch = k->choices; ch->word; ch++) {
		if (strcmp(value, ch->word) != 0)
			continue;
		if (k->size == sizeof(bool))
			*(bool *)field = ch->val != 0;
		else
			*(unsigned int *)field = ch->val;
		return 0;
	}
	return bad_value(c, k->name, value, "%s",
			 vsw_key_choices_str(k, what, sizeof(what)));
}

static int check_path(const struct pctx *c, const struct vsw_key *k,
		      const char *value)
{
	if (value[0] != '/' || strnlen(value, k->max) >= k->max)
		return bad_value(c, k->name, value,
				 "an absolute path shorter than %u "
				 "characters%s",
				 k->max, k->note ? k->note : "");
	return 0;
}

static int kind_path(const struct pctx *c, const struct vsw_key *k,
		     const char *value, void *field)
{
	int ret = check_path(c, k, value);

	if (ret == 0)
		snprintf(field, k->size, "%s", value);
	return ret;
}

static int kind_string(const struct pctx *c, const struct vsw_key *k,
		       const char *value, void *field)
{
	size_t n = strlen(value);

	if (n < k->min || n > k->max || n >= k->size ||
	    (k->charset != NULL && strspn(value, k->charset) != n)) {
		if (k->min > 0)
			return bad_value(c, k->name, value,
					 "%s, %u..%u characters", k->what,
					 k->min, k->max);
		return bad_value(c, k->name, value, "%s, at most %u characters",
				 k->what, k->max);
	}
	if (k->account != VSW_ACCT_NONE && n > 0 &&
	    vsw_config_account_id(value, k->account == VSW_ACCT_GROUP,
				  &(unsigned int){0}) < 0)
		return bad_value(
			c, k->name, value, "%s (no %s \"%s\" here)", k->what,
			k->account == VSW_ACCT_GROUP ? "group" : "user", value);
	memcpy(field, value, n + 1);
	return 0;
}

int vsw_config_account_id(const char *name, bool group, unsigned int *id)
{
	char buf[4096];
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;

	if (name[0] == '\0')
		return -EINVAL;
	if (strspn(name, "0123456789") == strlen(name))
		return parse_uint(name, 0, 0xfffffffe, id);
	if (group) {
		if (getgrnam_r(name, &gr, buf, sizeof(buf), &grp) != 0 ||
		    grp == NULL)
			return -ENOENT;
		*id = (unsigned int)grp->gr_gid;
	} else {
		if (getpwnam_r(name, &pw, buf, sizeof(buf), &pwp) != 0 ||
		    pwp == NULL)
			return -ENOENT;
		*id = (unsigned int)pwp->pw_uid;
	}
	return 0;
}

/*
 * Octal, with a leading 0, in min..max and holding every bit of min; or 0
 * on a row without a default (a port's socket-mode: the switch's).
 */
static int kind_octal(const struct pctx *c, const struct vsw_key *k,
		      const char *value, void *field)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(value, &end, 8);
	if (value[0] != '0' || *end != '\0' || errno != 0 || v > k->max ||
	    ((v & k->min) != k->min && (v != 0 || k->dflt != NULL)))
		return bad_value(c, k->name, value, "%s %04o..%04o%s", k->what,
				 k->min, k->max, k->note ? k->note : "");
	*(unsigned int *)field = (unsigned int)v;
	return 0;
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

/* "1,2, 3": lcore ids for vsw_port_conf's lcores[] (the field). */
static int kind_lcores(const struct pctx *c, const struct vsw_key *k,
		       const char *value, void *field)
{
	struct vsw_port_conf *pc =
		(void *)((char *)field -
			 offsetof(struct vsw_port_conf, lcores));
	const char *p = value;
	unsigned int n = 0;
	char item[16];
	size_t len;

	for (;;) {
		len = strcspn(p, ",");
		if (n == ARRAY_SIZE(pc->lcores) ||
		    !copy_trimmed(item, sizeof(item), p, len) ||
		    parse_uint(item, k->min, k->max, &pc->lcores[n]) < 0)
			return bad_value(c, k->name, value,
					 "a comma-separated list of 1..%zu "
					 "lcore ids (%u..%u)",
					 ARRAY_SIZE(pc->lcores), k->min,
					 k->max);
		n++;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	pc->n_lcores = n;
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

/*
 * "any" or "" (no words), or up to k->max (and @cap) words separated by
 * spaces, word i taken by @one into @list; a word @one refuses is a
 * message expecting "any" or @what.  The count goes to *@n.
 */
static int kind_words(const struct pctx *c, const struct vsw_key *k,
		      const char *value, unsigned int cap,
		      bool (*one)(const char *s, size_t len, void *list,
				  unsigned int i),
		      void *list, unsigned int *n, const char *what)
{
	const char *p = value;
	unsigned int i = 0;

	if (strcmp(value, "any") == 0) {
		*n = 0;
		return 0;
	}
	for (;;) {
		size_t len;

		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		len = strcspn(p, " ");
		if (i == k->max || i == cap || !one(p, len, list, i))
			return bad_value(c, k->name, value,
					 "\"any\" or %u..%u %s separated by "
					 "spaces",
					 k->min, k->max, what);
		i++;
		p += len;
	}
	*n = i;
	return 0;
}

/* One VLAN id min..max of @s[0..len) (blanks around it allowed). */
static bool parse_vlan_id(const struct vsw_key *k, const char *s, size_t len,
			  unsigned int *v)
{
	char item[8];

	return copy_trimmed(item, sizeof(item), s, len) &&
	       parse_uint(item, k->min, k->max, v) == 0;
}

static int bad_vlans(const struct pctx *c, const struct vsw_key *k,
		     const char *value)
{
	return bad_value(c, k->name, value,
			 "\"all\", or VLAN ids %u..%u and ranges LOW-HIGH "
			 "separated by commas (e.g. 10,20-30)",
			 k->min, k->max);
}

/*
 * trunks: "all" or "" (every VLAN), or VLAN ids and ranges "10,20-30"
 * separated by commas or spaces, into vsw_port_conf's trunks bitmap.
 */
static int kind_vlans(const struct pctx *c, const struct vsw_key *k,
		      const char *value, void *field)
{
	struct vsw_port_conf *pc =
		(void *)((char *)field -
			 offsetof(struct vsw_port_conf, trunks));
	uint64_t set[VSW_VLAN_WORDS] = {0};
	const char *p = value;
	unsigned int n = 0;
	char all[4];

	if (copy_trimmed(all, sizeof(all), value, strlen(value)) &&
	    (all[0] == '\0' || strcmp(all, "all") == 0)) {
		pc->trunks_set = false;
		memset(pc->trunks, 0, sizeof(pc->trunks));
		return 0;
	}
	while (*p != '\0') {
		size_t len = strcspn(p, ", ");
		const char *dash = memchr(p, '-', len);
		unsigned int lo = 0, hi = 0;
		bool ok;

		if (len == 0) {
			p++;
			continue;
		}
		if (dash == NULL) {
			ok = parse_vlan_id(k, p, len, &lo);
			hi = lo;
		} else {
			size_t l1 = (size_t)(dash - p);

			ok = parse_vlan_id(k, p, l1, &lo) &&
			     parse_vlan_id(k, dash + 1, len - l1 - 1, &hi) &&
			     lo <= hi;
		}
		if (!ok)
			return bad_vlans(c, k, value);
		for (unsigned int v = lo; v <= hi; v++)
			set[v / 64] |= 1ull << (v % 64);
		n++;
		p += len;
	}
	if (n == 0) /* only separators */
		return bad_vlans(c, k, value);
	pc->trunks_set = true;
	memcpy(pc->trunks, set, sizeof(set));
	return 0;
}

static bool one_mac(const char *s, size_t len, void *list, unsigned int i)
{
	return parse_mac(s, len, ((uint8_t(*)[6])list)[i]);
}

/* "any" or "", or up to max unicast MACs separated by spaces. */
static int kind_macs(const struct pctx *c, const struct vsw_key *k,
		     const char *value, void *field)
{
	struct vsw_port_conf *pc =
		(void *)((char *)field -
			 offsetof(struct vsw_port_conf, allowed));

	return kind_words(c, k, value, ARRAY_SIZE(pc->allowed), one_mac,
			  pc->allowed, &pc->n_allowed,
			  "unicast MACs aa:bb:cc:dd:ee:ff");
}

/*
 * One "ADDR" or "ADDR/LEN" (IPv4 or IPv6) of @len characters into @ip;
 * host bits of a prefix are cleared.
 */
static bool parse_ip(const char *s, size_t len, struct vsw_ip_prefix *ip)
{
	char buf[INET6_ADDRSTRLEN + 8];
	const char *slash;
	unsigned int max, plen;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	slash = strchr(buf, '/');
	if (slash != NULL)
		buf[slash - buf] = '\0';
	memset(ip, 0, sizeof(*ip));
	if (inet_pton(AF_INET, buf, ip->addr) == 1)
		ip->family = 4, max = 32;
	else if (inet_pton(AF_INET6, buf, ip->addr) == 1)
		ip->family = 6, max = 128;
	else
		return false;
	plen = max;
	if (slash != NULL && (slash[1] == '\0' || strlen(slash + 1) > 3 ||
			      parse_uint(slash + 1, 0, max, &plen) < 0))
		return false;
	ip->plen = (uint8_t)plen;
	for (unsigned int b = plen; b < max; b++)
		ip->addr[b / 8] &= (uint8_t) ~(0x80u >> (b % 8));
	return true;
}

static bool one_ip(const char *s, size_t len, void *list, unsigned int i)
{
	return parse_ip(s, len, &((struct vsw_ip_prefix *)list)[i]);
}

/* "any" or "", or up to max addresses or prefixes separated by spaces. */
static int kind_ips(const struct pctx *c, const struct vsw_key *k,
		    const char *value, void *field)
{
	struct vsw_port_conf *pc =
		(void *)((char *)field - offsetof(struct vsw_port_conf, ips));

	return kind_words(c, k, value, ARRAY_SIZE(pc->ips), one_ip, pc->ips,
			  &pc->n_ips,
			  "IPv4 or IPv6 addresses or prefixes (ADDR/LEN)");
}

typedef int kind_fn(const struct pctx *c, const struct vsw_key *k,
		    const char *value, void *field);

static kind_fn *const kind_parse[] = {
	[VSW_KIND_UINT] = kind_uint,   [VSW_KIND_CHOICE] = kind_choice,
	[VSW_KIND_PATH] = kind_path,   [VSW_KIND_STRING] = kind_string,
	[VSW_KIND_OCTAL] = kind_octal, [VSW_KIND_LCORES] = kind_lcores,
	[VSW_KIND_MACS] = kind_macs,   [VSW_KIND_VLANS] = kind_vlans,
	[VSW_KIND_IPS] = kind_ips,
};

/* Parse @value of key @k into its field of @conf (switch or port conf). */
static int parse_key(const struct pctx *c, const struct vsw_key *k,
		     const char *value, void *conf)
{
	if (k->deprecated)
		warn_deprecated(c, k);
	return kind_parse[k->kind](c, k, value, (char *)conf + k->off);
}

/* Every key of @sect with a default gets it, as if the file said it. */
static void set_defaults(enum vsw_key_sect sect, void *conf)
{
	struct pctx c = {"<default>", "", NULL, 0};

	for (size_t i = 0; i < vsw_n_keys; i++)
		if (vsw_keys[i].sect == sect && vsw_keys[i].dflt != NULL)
			parse_key(&c, &vsw_keys[i], vsw_keys[i].dflt, conf);
}

/* The name a key given in @sect stands for (rxq: queues). */
static const char *canon_key(enum vsw_key_sect sect, const char *key)
{
	const struct vsw_key *k = vsw_key_find(sect, key, strlen(key));

	return k != NULL ? vsw_key_canon(k) : key;
}

static int check_dup_keys(const struct pctx *c, enum vsw_key_sect sect,
			  const struct rte_cfgfile_entry *e, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		for (j = 0; j < i; j++) {
			if (strcmp(canon_key(sect, e[i].name),
				   canon_key(sect, e[j].name)))
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

/* ---- [switch] ---- */

/*
 * @p[0..len) is an absolute path without "." or ".." components or "//"
 * (a trailing '/' is allowed).
 */
static bool clean_abs_path(const char *p, size_t len)
{
	if (len == 0 || p[0] != '/')
		return false;
	for (size_t i = 0; i < len;) {
		size_t n = 1;

		while (i + n < len && p[i + n] != '/')
			n++;
		/* component p[i+1 .. i+n) */
		if ((n == 1 && i + 1 < len) || (n == 2 && p[i + 1] == '.') ||
		    (n == 3 && p[i + 1] == '.' && p[i + 2] == '.'))
			return false;
		i += n;
	}
	return true;
}

/* Does the port-add list @kv set @key? */
static bool kv_sets(const char *kv, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = kv; *p != '\0'; p += strcspn(p, ",")) {
		p += strspn(p, ", ");
		if (strncmp(p, key, klen) == 0 &&
		    p[klen + strspn(p + klen, " ")] == '=')
			return true;
	}
	return false;
}

/*
 * The socket-watch-profile: port-add keys of a vhost-user client port;
 * vsw chooses type, path and mode itself.
 */
static int check_watch_profile(const struct pctx *c, const struct vsw_key *k,
			       const char *value)
{
	static const char *const own[] = {"type", "path", "mode"};
	char kv[VSW_PATH_MAX + 64], inner[VSW_ERR_MAX];
	struct vsw_port_conf pc;

	for (size_t i = 0; i < ARRAY_SIZE(own); i++)
		if (kv_sets(value, own[i]))
			return bad_value(c, k->name, value,
					 "port-add keys without %s (vsw sets "
					 "type, path and mode)",
					 own[i]);
	snprintf(kv, sizeof(kv), "type=vhost-user,mode=client,%s", value);
	if (vsw_config_port_from_kv("watched", kv, NULL, &pc, inner,
				    sizeof(inner)) < 0)
		return bad_value(c, k->name, value,
				 "port-add keys of a vhost-user client port "
				 "(%s)",
				 inner);
	return 0;
}

/* socket-dirs, socket-watch-dir and socket-watch-profile, once parsed. */
static int check_socket_keys(const struct pctx *c, const struct vsw_key *k,
			     const char *value)
{
	const char *p = value;

	if (k->off == offsetof(struct vsw_switch_conf, socket_watch_profile))
		return check_watch_profile(c, k, value);
	if (k->off != offsetof(struct vsw_switch_conf, socket_dirs) &&
	    k->off != offsetof(struct vsw_switch_conf, socket_watch_dir))
		return 0;
	for (p += strspn(p, " "); *p != '\0'; p += strspn(p, " ")) {
		size_t len = strcspn(p, " ");

		if (!clean_abs_path(p, len))
			return bad_value(c, k->name, value, "%s", k->what);
		p += len;
	}
	return 0;
}

static int parse_switch_entry(const struct pctx *c, const char *key,
			      const char *value, struct vsw_switch_conf *sw)
{
	const struct vsw_key *k =
		vsw_key_find(VSW_SECT_SWITCH, key, strlen(key));
	char list[LIST_MAX];

	if (check_printable(c, key, value) < 0)
		return -EINVAL;
	if (k == NULL)
		return bad_value(c, key, value, "a [switch] key (%s)",
				 vsw_keys_list(list, sizeof(list),
					       VSW_SECT_SWITCH, 0, -1));
	if (parse_key(c, k, value, sw) < 0)
		return -EINVAL;
	return check_socket_keys(c, k, value);
}

static int parse_switch(const struct pctx *c, const struct rte_cfgfile_entry *e,
			int n, struct vsw_switch_conf *sw)
{
	int i, ret;

	ret = check_dup_keys(c, VSW_SECT_SWITCH, e, n);
	for (i = 0; ret == 0 && i < n; i++)
		ret = parse_switch_entry(c, e[i].name, e[i].value, sw);
	return ret;
}

/* ---- [port NAME] ---- */

static const struct vsw_key *port_key(const char *key)
{
	return vsw_key_find(VSW_SECT_PORT, key, strlen(key));
}

static int check_sock_path(const struct pctx *c, const char *path)
{
	return check_path(c, port_key("path"), path);
}

/* "[port NAME]: invalid port name; expected FORM 1..31 characters..." */
static int bad_name(const struct pctx *c, const char *form)
{
	char what[160];

	snprintf(what, sizeof(what), "%s 1..%d " NAME_RULE, form,
		 VSW_PORT_NAME_MAX - 1);
	return bad_section(c, "invalid port name", what);
}

/* The type decides which keys are valid, so it is parsed first. */
static int parse_port_type(const struct pctx *c,
			   const struct rte_cfgfile_entry *e, int n,
			   struct vsw_port_conf *pc)
{
	const struct vsw_key *k = port_key("type");
	char what[LIST_MAX];
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(e[i].name, k->name) == 0)
			return parse_key(c, k, e[i].value, pc);
	return missing_key(c, k->name,
			   vsw_key_choices_str(k, what, sizeof(what)));
}

static int parse_port_entry(const struct pctx *c,
			    const struct rte_cfgfile_entry *e,
			    struct vsw_port_conf *pc)
{
	const struct vsw_key *k = port_key(e->name);
	const char *type = vsw_port_type_str(pc->type);
	char list[LIST_MAX];

	if (check_printable(c, e->name, e->value) < 0)
		return -EINVAL;
	if (k == NULL)
		return bad_value(c, e->name, e->value, "a port key (%s)",
				 vsw_keys_list(list, sizeof(list),
					       VSW_SECT_PORT, VSW_KEY_ANY, -1));
	if (!(k->ports & (1u << pc->type)))
		return bad_value(c, e->name, e->value, "%s %s port key (%s)",
				 strchr("aeiou", type[0]) ? "an" : "a", type,
				 vsw_keys_list(list, sizeof(list),
					       VSW_SECT_PORT, 1u << pc->type,
					       -1));
	return parse_key(c, k, e->value, pc);
}

/* A port's keys with a default, before any key of its section. */
static void port_defaults(struct vsw_port_conf *pc, const char *name)
{
	memset(pc, 0, sizeof(*pc));
	snprintf(pc->name, sizeof(pc->name), "%s", name);
	set_defaults(VSW_SECT_PORT, pc);
}

/* A required key of the port's type that @e does not give, or NULL. */
static const struct vsw_key *missing_port_key(const struct rte_cfgfile_entry *e,
					      int n,
					      const struct vsw_port_conf *pc)
{
	for (size_t i = 0; i < vsw_n_keys; i++) {
		const struct vsw_key *k = &vsw_keys[i];
		int j = 0;

		if (k->sect != VSW_SECT_PORT || !k->required ||
		    !(k->ports & (1u << pc->type)))
			continue;
		while (j < n && strcmp(canon_key(VSW_SECT_PORT, e[j].name),
				       vsw_key_canon(k)) != 0)
			j++;
		if (j == n)
			return k;
	}
	return NULL;
}

/* ---- VLANs (OVS's vlan_mode, tag, trunks) ---- */

enum vsw_vlan_mode vsw_config_vlan_mode(const struct vsw_port_conf *pc)
{
	if (pc->vlan_mode != VSW_VLAN_AUTO)
		return pc->vlan_mode;
	return pc->tag != 0 ? VSW_VLAN_ACCESS : VSW_VLAN_TRUNK;
}

static bool trunks_has(const struct vsw_port_conf *pc, unsigned int v)
{
	return !pc->trunks_set || (pc->trunks[v / 64] >> (v % 64) & 1);
}

/*
 * As OVS: an access port carries its tag; a trunk the trunks VLANs (0 =
 * its untagged frames); a native-* port its tag (its untagged frames)
 * and the trunks VLANs but 0.
 */
bool vsw_config_vlan_member(const struct vsw_port_conf *pc, unsigned int v)
{
	if (v > VSW_VLAN_MAX)
		return false;
	switch (vsw_config_vlan_mode(pc)) {
	case VSW_VLAN_ACCESS:
		return v == pc->tag;
	case VSW_VLAN_TRUNK:
		return trunks_has(pc, v);
	default:
		return v == pc->tag || (v != 0 && trunks_has(pc, v));
	}
}

void vsw_config_trunks_str(const struct vsw_port_conf *pc, char *buf,
			   size_t len)
{
	size_t off = 0;

	snprintf(buf, len, pc->trunks_set ? "" : "all");
	for (unsigned int v = 0; pc->trunks_set && v <= VSW_VLAN_MAX; v++) {
		unsigned int hi = v;

		if (!trunks_has(pc, v))
			continue;
		while (hi < VSW_VLAN_MAX && trunks_has(pc, hi + 1))
			hi++;
		if (off < len)
			off += (size_t)(hi > v ? snprintf(buf + off, len - off,
							  "%s%u-%u",
							  off ? "," : "", v, hi)
					       : snprintf(buf + off, len - off,
							  "%s%u",
							  off ? "," : "", v));
		v = hi;
	}
}

/* The keys together: what a mode needs (a tag) and refuses. */
static int check_vlan(const struct pctx *c, const struct vsw_port_conf *pc)
{
	enum vsw_vlan_mode m = vsw_config_vlan_mode(pc);
	const char *mode = vsw_vlan_mode_str(m);
	char v[16], t[64];

	snprintf(v, sizeof(v), "%u", pc->tag);
	if (m == VSW_VLAN_TRUNK && pc->tag != 0)
		return bad_value(c, "tag", v,
				 "0 on a trunk port (vlan-mode = access, "
				 "native-untagged or native-tagged take a "
				 "tag)");
	if (m != VSW_VLAN_TRUNK && pc->tag == 0)
		return bad_value(c, "vlan-mode", mode,
				 "a tag = 1..%d with it (or vlan-mode = "
				 "trunk)",
				 VSW_VLAN_DEAD);
	if (m == VSW_VLAN_ACCESS && pc->trunks_set)
		return bad_value(c, "trunks",
				 (vsw_config_trunks_str(pc, t, sizeof(t)), t),
				 "all on an access port (trunks apply to "
				 "vlan-mode = trunk and native-*)");
	return 0;
}

/* A client port's socket is QEMU's: vsw never changes its permissions. */
static int check_client_socket(const struct pctx *c,
			       const struct rte_cfgfile_entry *e, int n,
			       const struct vsw_port_conf *pc)
{
	if (pc->type != VSW_PORT_VHOST || pc->mode != VSW_VHOST_CLIENT)
		return 0;
	for (int i = 0; i < n; i++) /* "" and 0 say "the switch's": fine */
		if (strncmp(e[i].name, "socket-", 7) == 0 &&
		    e[i].value[0] != '\0' && strcmp(e[i].value, "0") != 0)
			return bad_value(c, e[i].name, e[i].value,
					 "no %s on a mode = client port (its "
					 "socket is QEMU's)",
					 e[i].name);
	return 0;
}

/* Parse one port's entries; a vhost path left empty gets its default later. */
static int parse_port(const struct pctx *c, const char *name,
		      const struct rte_cfgfile_entry *e, int n,
		      struct vsw_port_conf *pc)
{
	const struct vsw_key *miss;
	int i, ret;

	port_defaults(pc, name);
	ret = check_dup_keys(c, VSW_SECT_PORT, e, n);
	if (ret == 0)
		ret = parse_port_type(c, e, n, pc);
	pc->queues = pc->type == VSW_PORT_VHOST ? VSW_MAX_QUEUES : 1;
	for (i = 0; ret == 0 && i < n; i++)
		ret = parse_port_entry(c, &e[i], pc);
	if (ret == 0 && (miss = missing_port_key(e, n, pc)) != NULL)
		ret = missing_key(c, miss->name, miss->what);
	if (ret == 0)
		ret = check_vlan(c, pc);
	if (ret == 0)
		ret = check_client_socket(c, e, n, pc);
	return ret;
}
/* ---- [fdb]: static MAC entries, MAC[@VLAN] = PORT ---- */

#define FDB_VLAN_MAX 4095 /* as fdb-add: the FDB key holds 12 bits */

static int parse_fdb_entry(const struct pctx *c, const char *key,
			   const char *value, struct vsw_fdb_conf *fc)
{
	size_t mlen = strcspn(key, "@");
	unsigned int vlan = 0;

	memset(fc, 0, sizeof(*fc));
	if (check_printable(c, key, value) < 0)
		return -EINVAL;
	if (!parse_mac(key, mlen, fc->mac) ||
	    (key[mlen] == '@' &&
	     parse_uint(key + mlen + 1, 0, FDB_VLAN_MAX, &vlan) < 0))
		return bad_value(c, key, value,
				 "a key MAC or MAC@VLAN (a unicast MAC "
				 "aa:bb:cc:dd:ee:ff, VLAN 0..%d)",
				 FDB_VLAN_MAX);
	if (!vsw_config_port_name_ok(value))
		return bad_value(c, key, value,
				 "a port name of 1..%d " NAME_RULE,
				 VSW_PORT_NAME_MAX - 1);
	fc->vlan = (uint16_t)vlan;
	snprintf(fc->port, sizeof(fc->port), "%s", value);
	return 0;
}

static int parse_fdb(const struct pctx *c, const struct rte_cfgfile_entry *e,
		     int n, struct vsw_config *cfg)
{
	for (int i = 0; i < n; i++) {
		struct vsw_fdb_conf *fc = &cfg->fdb[cfg->n_fdb];
		int ret;

		if (cfg->n_fdb == VSW_MAX_STATIC_FDB)
			return bad_value(c, e[i].name, e[i].value,
					 "at most %d static entries",
					 VSW_MAX_STATIC_FDB);
		ret = parse_fdb_entry(c, e[i].name, e[i].value, fc);
		if (ret < 0)
			return ret;
		for (unsigned int j = 0; j < cfg->n_fdb; j++)
			if (memcmp(cfg->fdb[j].mac, fc->mac, 6) == 0 &&
			    cfg->fdb[j].vlan == fc->vlan)
				return bad_value(c, e[i].name, e[i].value,
						 "each MAC and VLAN once");
		cfg->n_fdb++;
	}
	return 0;
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
	if (strcmp(name, "fdb") == 0)
		return parse_fdb(c, e, n, cfg);
	if (strncmp(name, "port ", 5) != 0 && strcmp(name, "port") != 0)
		return bad_section(c, "unknown section",
				   "[switch], [port NAME] or [fdb]");
	name += name[4] == ' ' ? 5 : 4;
	if (!vsw_config_port_name_ok(name))
		return bad_name(c, "[port NAME] with NAME");
	if (cfg->n_ports == VSW_MAX_PORTS) {
		set_err(c,
			"%s: [%s]: too many ports; expected at most %d "
			"[port NAME] sections",
			c->file, c->section, VSW_MAX_PORTS);
		return -EINVAL;
	}
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

	const char *what = NULL;
	char buf[64];
	int max = 0;

	if (*p == '[' && strcspn(p + 1, "]") >= CFG_NAME_LEN)
		what = "a section name", max = CFG_NAME_LEN - 1;
	else if (*p != '[' && eq != NULL &&
		 trimmed_len(p, (size_t)(eq - p)) >= CFG_NAME_LEN)
		what = "a key", max = CFG_NAME_LEN - 1;
	else if (*p != '[' && eq != NULL &&
		 trimmed_len(eq + 1, strlen(eq + 1)) >= CFG_VALUE_LEN)
		what = "a value", max = CFG_VALUE_LEN - 1;
	if (what == NULL)
		return 0;
	snprintf(buf, sizeof(buf), "%s of at most %d characters", what, max);
	return syntax_err(c, lineno, *p == '[' ? "[...]" : "...", buf);
}

static int prescan_line(const struct pctx *c, char *line, size_t n,
			unsigned int lineno, bool *in_section)
{
	size_t len = strcspn(line, "\n");
	char *p, *semi;
	int rc;

	if (len > CFG_LINE_MAX) {
		char what[48];

		snprintf(what, sizeof(what), "a line of at most %d characters",
			 CFG_LINE_MAX);
		return syntax_err(c, lineno, "...", what);
	}
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

/* FILE: N ports; expected 1..64 [port NAME] sections */
static int port_count_err(const struct vsw_config *cfg, char *err,
			  size_t errlen)
{
	struct pctx c = {cfg->source, "switch", err, errlen};

	set_err(&c, "%s: %u ports; expected 1..%d [port NAME] sections",
		cfg->source, cfg->n_ports, VSW_MAX_PORTS);
	return -EINVAL;
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

static int config_load(const char *path, struct vsw_config *cfg, char *err,
		       size_t errlen, bool state)
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
	if (ret == 0 && cfg->n_ports == 0 && !state)
		ret = port_count_err(cfg, err, errlen);
	if (ret == 0) {
		set_default_paths(cfg);
		ret = vsw_config_validate(cfg, NULL, NULL, err, errlen);
	}
	if (ret < 0)
		vsw_config_init(cfg);
	return ret;
}

int vsw_config_load(const char *path, struct vsw_config *cfg, char *err,
		    size_t errlen)
{
	return config_load(path, cfg, err, errlen, false);
}

int vsw_config_load_state(const char *path, struct vsw_config *cfg, char *err,
			  size_t errlen)
{
	return config_load(path, cfg, err, errlen, true);
}

/* ---- validation ---- */

/* The length of an ethdev's device name: its devargs up to the first
 * comma (a PCI address, net_memif0, net_af_packet1...). */
static size_t devname_len(const char *devargs)
{
	return strcspn(devargs, ",");
}

enum vsw_clash vsw_config_port_clash(const struct vsw_port_conf *ports,
				     unsigned int n,
				     const struct vsw_port_conf *pc,
				     unsigned int *with)
{
	for (unsigned int j = 0; j < n; j++) {
		const struct vsw_port_conf *o = &ports[j];

		*with = j;
		if (strcmp(pc->name, o->name) == 0)
			return VSW_CLASH_NAME;
		if (pc->type == VSW_PORT_VHOST && o->type == VSW_PORT_VHOST &&
		    strcmp(pc->path, o->path) == 0)
			return VSW_CLASH_PATH;
		/* the same ethdev twice would be configured under the first */
		if (pc->type == VSW_PORT_ETHDEV && o->type == VSW_PORT_ETHDEV &&
		    devname_len(pc->devargs) == devname_len(o->devargs) &&
		    strncmp(pc->devargs, o->devargs,
			    devname_len(pc->devargs)) == 0)
			return VSW_CLASH_DEVICE;
	}
	return VSW_CLASH_NONE;
}

static int check_unique(const struct pctx *c, const struct vsw_config *cfg,
			unsigned int i)
{
	const struct vsw_port_conf *pc = &cfg->ports[i];
	unsigned int j = 0;
	char dev[VSW_DEVARGS_MAX];

	switch (vsw_config_port_clash(cfg->ports, i, pc, &j)) {
	case VSW_CLASH_NAME:
		return bad_section(c, "duplicate port name",
				   "each port name once");
	case VSW_CLASH_PATH:
		return bad_value(c, "path", pc->path,
				 "a socket path no other port uses "
				 "(port %s uses it)",
				 cfg->ports[j].name);
	case VSW_CLASH_DEVICE:
		snprintf(dev, sizeof(dev), "%.*s",
			 (int)devname_len(pc->devargs), pc->devargs);
		return bad_value(c, "devargs", pc->devargs,
				 "a device no other port uses (port %s is "
				 "%s)",
				 cfg->ports[j].name, dev);
	case VSW_CLASH_NONE:
		break;
	}
	return 0;
}

static int check_lcores(const struct pctx *c, const struct vsw_port_conf *pc,
			bool (*lcore_ok)(unsigned int lcore, void *arg),
			void *arg)
{
	char v[16];
	unsigned int k;

	for (k = 0; lcore_ok != NULL && k < pc->n_lcores; k++) {
		if (lcore_ok(pc->lcores[k], arg))
			continue;
		snprintf(v, sizeof(v), "%u", pc->lcores[k]);
		return bad_value(c, "lcores", v,
				 "a worker lcore id (lcore %u is not a worker)",
				 pc->lcores[k]);
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
		return bad_name(&c, "[port NAME] with NAME");
	ret = check_unique(&c, cfg, i);
	if (ret == 0 && pc->type == VSW_PORT_VHOST)
		ret = check_sock_path(&c, pc->path);
	if (ret == 0)
		ret = check_lcores(&c, pc, lcore_ok, arg);
	return ret;
}

/* Every [fdb] entry names a port of the config. */
static int validate_fdb(const struct vsw_config *cfg, char *err, size_t errlen)
{
	struct pctx c = {cfg->source, "fdb", err, errlen};

	for (unsigned int i = 0; i < cfg->n_fdb; i++) {
		const struct vsw_fdb_conf *fc = &cfg->fdb[i];
		const uint8_t *m = fc->mac;
		unsigned int j = 0;
		char key[32];

		while (j < cfg->n_ports &&
		       strcmp(cfg->ports[j].name, fc->port) != 0)
			j++;
		if (j < cfg->n_ports)
			continue;
		snprintf(key, sizeof(key), "%02x:%02x:%02x:%02x:%02x:%02x",
			 m[0], m[1], m[2], m[3], m[4], m[5]);
		if (fc->vlan != 0)
			snprintf(key + 17, sizeof(key) - 17, "@%u", fc->vlan);
		return bad_value(&c, key, fc->port,
				 "the name of a port of the config (no [port "
				 "%s] section)",
				 fc->port);
	}
	return 0;
}

int vsw_config_validate(const struct vsw_config *cfg,
			bool (*lcore_ok)(unsigned int lcore, void *arg),
			void *arg, char *err, size_t errlen)
{
	const char *rd = cfg->sw.run_dir;
	struct pctx c = {cfg->source, "switch", err, errlen};
	unsigned int i;
	int ret;

	ret = check_path(&c, vsw_key_find(VSW_SECT_SWITCH, "run-dir", 7), rd);
	if (ret < 0)
		return ret;
	if (cfg->n_ports > VSW_MAX_PORTS)
		return port_count_err(cfg, err, errlen);
	for (i = 0; i < cfg->n_ports; i++) {
		ret = validate_port(cfg, i, lcore_ok, arg, err, errlen);
		if (ret < 0)
			return ret;
	}
	return validate_fdb(cfg, err, errlen);
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

/* A key whose value is a comma-separated list (lcores, trunks). */
static bool list_key(const char *name)
{
	const struct vsw_key *k = port_key(name);

	return k != NULL &&
	       (k->kind == VSW_KIND_LCORES || k->kind == VSW_KIND_VLANS);
}

static int split_kv(const struct pctx *c, const char *s,
		    struct rte_cfgfile_entry *e, int max)
{
	char empty[1], what[LIST_MAX];
	const struct vsw_key *k;
	const char *eq;
	size_t len;
	int n = 0;

	for (; *s != '\0'; s += len + (s[len] == ',')) {
		len = strcspn(s, ",");
		if (copy_trimmed(empty, sizeof(empty), s, len))
			continue; /* empty item, e.g. a trailing comma */
		eq = memchr(s, '=', len);
		if (eq == NULL && n > 0 && list_key(e[n - 1].name)) {
			/* trunks=10,20-30: one more item of the list */
			size_t have = strlen(e[n - 1].value);

			if (have + 1 + len >= CFG_VALUE_LEN)
				return kv_item_err(c, s, len,
						   "a shorter value");
			e[n - 1].value[have] = ',';
			memcpy(e[n - 1].value + have + 1, s, len);
			e[n - 1].value[have + 1 + len] = '\0';
			continue;
		}
		if (eq == NULL)
			return kv_item_err(c, s, len, "KEY=VALUE");
		if (n == max) {
			snprintf(what, sizeof(what), "at most %d KEY=VALUE",
				 max);
			return kv_item_err(c, s, len, what);
		}
		if (!copy_trimmed(e[n].name, CFG_NAME_LEN, s, eq - s)) {
			char list[LIST_MAX];

			snprintf(what, sizeof(what), "a port key (%s)",
				 vsw_keys_list(list, sizeof(list),
					       VSW_SECT_PORT, VSW_KEY_ANY, -1));
			return kv_item_err(c, s, len, what);
		}
		k = port_key(e[n].name);
		if (k != NULL && k->rest) /* devargs: the rest of @s */
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

bool vsw_config_sock_dir_ok(const struct vsw_switch_conf *sw, const char *path)
{
	char dir[VSW_PATH_MAX];

	if (path_below(path, sw->run_dir) ||
	    (sw->socket_watch_dir[0] != '\0' &&
	     path_below(path, sw->socket_watch_dir)))
		return true;
	for (const char *p = sw->socket_dirs + strspn(sw->socket_dirs, " ");
	     *p != '\0'; p += strspn(p, " ")) {
		size_t len = strcspn(p, " ");

		snprintf(dir, sizeof(dir), "%.*s", (int)len, p);
		if (path_below(path, dir))
			return true;
		p += len;
	}
	return false;
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
		if (!vsw_config_sock_dir_ok(sw, pc->path))
			return bad_value(
				c, "path", pc->path,
				"a socket path below run-dir %s%s%s%s%s "
				"(no '.' or '..' components) for a "
				"port added at run time",
				sw->run_dir,
				sw->socket_dirs[0] ? ", socket-dirs " : "",
				sw->socket_dirs,
				sw->socket_watch_dir[0] ? ", socket-watch-dir "
							: "",
				sw->socket_watch_dir);
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
		return bad_name(&c, "NAME");
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
	ret = check_dup_keys(&c, VSW_SECT_PORT, e, n);
	for (int i = 0; ret == 0 && i < n; i++) {
		const struct vsw_key *k = port_key(e[i].name);
		char list[LIST_MAX];

		if (k == NULL || !k->runtime ||
		    !(k->ports & (1u << tmp.type))) {
			set_err(&c,
				"%s: [%s] %s: fixed when the port is added; "
				"expected a key changeable at run time (%s)",
				CMD_SOURCE, sect, e[i].name,
				vsw_keys_list(list, sizeof(list), VSW_SECT_PORT,
					      1u << tmp.type, 1));
			return -EPERM;
		}
		ret = parse_key(&c, k, e[i].value, &tmp);
	}
	if (ret == 0)
		ret = check_vlan(&c, &tmp);
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

void vsw_config_ip_str(const struct vsw_ip_prefix *ip, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	if (inet_ntop(ip->family == 4 ? AF_INET : AF_INET6, ip->addr, a,
		      sizeof(a)) == NULL)
		snprintf(a, sizeof(a), "?");
	if (ip->plen == (ip->family == 4 ? 32 : 128))
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s/%u", a, ip->plen);
}

bool vsw_config_switch_key_fixed(const char *key)
{
	const struct vsw_key *k =
		vsw_key_find(VSW_SECT_SWITCH, key, strlen(key));

	return k != NULL && !k->runtime;
}

int vsw_config_set_switch_key(struct vsw_switch_conf *sw, const char *key,
			      const char *value, char *err, size_t errlen)
{
	struct pctx c = {CMD_SOURCE, "switch", err, errlen};
	struct vsw_switch_conf tmp = *sw;
	char list[LIST_MAX];
	int ret;

	if (vsw_config_switch_key_fixed(key)) {
		set_err(&c,
			"%s: [switch] %s: fixed at start-up; expected a "
			"key other than %s",
			CMD_SOURCE, key,
			vsw_keys_list(list, sizeof(list), VSW_SECT_SWITCH, 0,
				      0));
		return -EPERM;
	}
	ret = parse_switch_entry(&c, key, value, &tmp);
	if (ret == 0)
		*sw = tmp;
	return ret;
}

/* ---- defaults ---- */

void vsw_config_init(struct vsw_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->source, sizeof(cfg->source), "<default>");
	set_defaults(VSW_SECT_SWITCH, &cfg->sw);
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
		port_defaults(pc, names[i]);
		pc->type = VSW_PORT_VHOST;
		pc->queues = VSW_MAX_QUEUES;
		default_sock_path(pc->path, sizeof(pc->path), cfg->sw.run_dir,
				  pc->name);
	}
}
