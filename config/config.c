/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vsw configuration parser: errors, validation, defaults.
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
 * This file: the error helpers, the cross-section rules (unique ports,
 * lcores, [fdb] naming ports), the defaults; the rest of the parser is
 * values.c, sections.c, file.c, runtime.c, text.c (config_priv.h).
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

#include "config_priv.h"
#include "ovs_map.h"

void cfg_set_err(const struct pctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void cfg_set_err(const struct pctx *c, const char *fmt, ...)
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
int cfg_bad_value(const struct pctx *c, const char *key, const char *value,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

int cfg_bad_value(const struct pctx *c, const char *key, const char *value,
		  const char *fmt, ...)
{
	char what[VSW_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	cfg_set_err(c, "%s: [%s] %s = \"%s\": expected %s", c->file, c->section,
		    key, value, what);
	return -EINVAL;
}

/* FILE: [SECTION] KEY: missing; expected WHAT */
int cfg_missing_key(const struct pctx *c, const char *key, const char *what)
{
	cfg_set_err(c, "%s: [%s] %s: missing; expected %s", c->file, c->section,
		    key, what);
	return -EINVAL;
}

/* FILE: [SECTION]: PROBLEM; expected WHAT */
int cfg_bad_section(const struct pctx *c, const char *problem, const char *what)
{
	cfg_set_err(c, "%s: [%s]: %s; expected %s", c->file, c->section,
		    problem, what);
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
 * Keys and values are printable ASCII (unit_config, fuzz_config): a newline in a path
 * would forge log lines, a byte >= 0x80 would reach DPDK 22.11's JSON
 * escaping as a negative index.  The message never echoes such bytes.
 */
int cfg_check_printable(const struct pctx *c, const char *key,
			const char *value)
{
	long at;

	if (unprintable_at(key) >= 0) {
		cfg_set_err(c,
			    "%s: [%s]: a key has a control or non-ASCII byte; "
			    "expected printable ASCII",
			    c->file, c->section);
		return -EINVAL;
	}
	at = unprintable_at(value);
	if (at < 0)
		return 0;
	cfg_set_err(c,
		    "%s: [%s] %s: byte 0x%02x at offset %ld of the value; "
		    "expected printable ASCII",
		    c->file, c->section, key,
		    (unsigned int)(unsigned char)value[at], at);
	return -EINVAL;
}

/* Strict unsigned decimal: digits only, no sign, no spaces, no suffix. */
int cfg_parse_uint(const char *s, unsigned int min, unsigned int max,
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
void cfg_default_sock_path(char *buf, size_t len, const char *run_dir,
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
		if (pc->type != VSW_PORT_VHOST && o->type != VSW_PORT_VHOST &&
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
		return cfg_bad_section(c, "duplicate port name",
				       "each port name once");
	case VSW_CLASH_PATH:
		return cfg_bad_value(c, "path", pc->path,
				     "a socket path no other port uses "
				     "(port %s uses it)",
				     cfg->ports[j].name);
	case VSW_CLASH_DEVICE:
		snprintf(dev, sizeof(dev), "%.*s",
			 (int)devname_len(pc->devargs), pc->devargs);
		return cfg_bad_value(c, "devargs", pc->devargs,
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
		return cfg_bad_value(
			c, "lcores", v,
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
		return cfg_bad_name(&c, "[port NAME] with NAME");
	ret = check_unique(&c, cfg, i);
	if (ret == 0 && pc->type == VSW_PORT_VHOST)
		ret = cfg_check_sock_path(&c, pc->path);
	if (ret == 0)
		ret = check_lcores(&c, pc, lcore_ok, arg);
	return ret;
}

/* Every [fdb] entry names a port of the config. */
/* [switch] ovsdb: an address vsw can connect to, or "" (off). */
static int check_ovsdb(const struct pctx *c, const char *v)
{
	struct vsw_ovsdb_remote r;

	if (v[0] == '\0' || vsw_ovsdb_remote_parse(v, &r) == 0)
		return 0;
	return cfg_bad_value(c, "ovsdb", v,
			     "unix:/absolute/path (shorter than 108 "
			     "characters) or tcp:IPv4:PORT or "
			     "tcp:[IPv6]:PORT, PORT 1..65535%s",
			     "");
}

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
		vsw_config_mac_str(m, key);
		if (fc->vlan != 0)
			snprintf(key + 17, sizeof(key) - 17, "@%u", fc->vlan);
		return cfg_bad_value(
			&c, key, fc->port,
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

	ret = cfg_check_path(&c, vsw_key_find(VSW_SECT_SWITCH, "run-dir", 7),
			     rd);
	if (ret < 0)
		return ret;
	if (cfg->n_ports > VSW_MAX_PORTS)
		return cfg_port_count_err(cfg, err, errlen);
	ret = check_ovsdb(&c, cfg->sw.ovsdb);
	if (ret < 0)
		return ret;
	for (i = 0; i < cfg->n_ports; i++) {
		ret = validate_port(cfg, i, lcore_ok, arg, err, errlen);
		if (ret < 0)
			return ret;
	}
	return validate_fdb(cfg, err, errlen);
}

/* ---- defaults ---- */

void vsw_config_init(struct vsw_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->source, sizeof(cfg->source), "<default>");
	cfg_set_defaults(VSW_SECT_SWITCH, &cfg->sw);
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
		cfg_port_defaults(pc, names[i]);
		pc->type = VSW_PORT_VHOST;
		pc->queues = VSW_MAX_QUEUES;
		cfg_default_sock_path(pc->path, sizeof(pc->path),
				      cfg->sw.run_dir, pc->name);
	}
}
