/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Telemetry command parameters: checks and parsers (see ctl_args.h).
 *
 * Plain C on strings, no allocation: the parsers copy what they keep into
 * the caller's struct vsw_args and never look past a NUL.  Numbers are
 * strict decimal (no sign, no spaces, no suffix, no overflow); MAC
 * addresses are six two-digit hex bytes separated by ':'; names follow the
 * config file's rule for port names.  A parameter string that is not
 * printable ASCII, or longer than VSW_ARGS_MAX, is refused before any
 * parser sees it, so error messages may quote it safely.
 */
#include "ctl_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datapath/fdb.h"

#define FIELDS_MAX 4

int vsw_args_check(const char *params, char *err, size_t errlen)
{
	size_t n = 0;

	if (params == NULL)
		return 0;
	for (const char *c = params; *c != '\0'; c++, n++) {
		if (*c < 0x20 || *c > 0x7e) {
			snprintf(err, errlen,
				 "parameters must be printable ASCII (byte "
				 "0x%02x at offset %zu)",
				 (unsigned int)(unsigned char)*c, n);
			return -EINVAL;
		}
		if (n >= VSW_ARGS_MAX) {
			snprintf(err, errlen,
				 "parameters longer than %d characters",
				 VSW_ARGS_MAX);
			return -EINVAL;
		}
	}
	return 0;
}

/* Split a copy of @params at commas into at most @max fields. */
static int split(const char *params, char *buf, size_t len, char **f, int max)
{
	int n = 0;
	char *s;

	if (params == NULL || *params == '\0')
		return 0;
	if (strlen(params) >= len)
		return -E2BIG;
	memcpy(buf, params, strlen(params) + 1);
	for (s = buf; n < max; n++) {
		f[n] = s;
		s = strchr(s, ',');
		if (s == NULL)
			return n + 1;
		*s++ = '\0';
	}
	return -E2BIG;
}

/* Strict decimal in 0..@max. */
static bool parse_ulong(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno == 0 && *end == '\0' && *v <= max;
}

/* "N" or "vlan=N", 0..4095; absent = 0 */
static bool parse_vlan(const char *s, unsigned long *vlan)
{
	*vlan = 0;
	if (s == NULL)
		return true;
	if (strncmp(s, "vlan=", 5) == 0)
		s += 5;
	return parse_ulong(s, 4095, vlan);
}

static bool copy_name(const char *s, struct vsw_args *a)
{
	size_t len = strlen(s);

	if (!vsw_config_port_name_ok(s) || len >= sizeof(a->name))
		return false;
	memcpy(a->name, s, len + 1);
	return true;
}

static int bad(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s", what);
	return -EINVAL;
}

int vsw_args_none(const char *params, struct vsw_args *a, char *err,
		  size_t errlen)
{
	(void)a;
	if (params != NULL && *params != '\0')
		return bad(err, errlen, "expected no parameters");
	return 0;
}

int vsw_args_page(const char *params, struct vsw_args *a, char *err,
		  size_t errlen)
{
	char buf[VSW_ARGS_MAX + 1], *f[FIELDS_MAX];
	int n = split(params, buf, sizeof(buf), f, FIELDS_MAX);

	if (n < 0 || n > 2)
		return bad(err, errlen, "expected at most two integers");
	for (int i = 0; i < n; i++)
		if (!parse_ulong(f[i], 1ul << 31, &a->n[i]))
			return bad(err, errlen,
				   "expected integers OFFSET and COUNT");
	return 0;
}

int vsw_args_name(const char *params, struct vsw_args *a, char *err,
		  size_t errlen)
{
	if (params == NULL || *params == '\0')
		return bad(err, errlen, "missing the port name");
	if (!copy_name(params, a))
		return bad(err, errlen,
			   "expected a port name of 1..31 "
			   "characters of [A-Za-z0-9_]");
	a->has_name = true;
	return 0;
}

int vsw_args_opt_name(const char *params, struct vsw_args *a, char *err,
		      size_t errlen)
{
	if (params == NULL || *params == '\0')
		return 0;
	return vsw_args_name(params, a, err, errlen);
}

int vsw_args_name_kv(const char *params, struct vsw_args *a, char *err,
		     size_t errlen)
{
	const char *comma = params != NULL ? strchr(params, ',') : NULL;
	char name[VSW_PORT_NAME_MAX + 1];

	if (comma == NULL || comma[1] == '\0')
		return bad(err, errlen, "expected NAME,KEY=VALUE,...");
	if ((size_t)(comma - params) >= sizeof(name))
		return bad(err, errlen, "port name too long (31 at most)");
	memcpy(name, params, (size_t)(comma - params));
	name[comma - params] = '\0';
	if (!copy_name(name, a))
		return bad(err, errlen,
			   "expected a port name of 1..31 "
			   "characters of [A-Za-z0-9_]");
	a->has_name = true;
	a->rest = comma + 1;
	return 0;
}

int vsw_args_rxq_move(const char *params, struct vsw_args *a, char *err,
		      size_t errlen)
{
	char buf[VSW_ARGS_MAX + 1], *f[FIELDS_MAX];
	int n = split(params, buf, sizeof(buf), f, FIELDS_MAX);

	if (n != 3 || !copy_name(f[0], a) ||
	    !parse_ulong(f[1], VSW_MAX_QUEUES - 1, &a->n[0]) ||
	    !parse_ulong(f[2], 1023, &a->n[1]))
		return bad(err, errlen,
			   "expected a port name, a queue number and a worker "
			   "number");
	a->has_name = true;
	return 0;
}

int vsw_args_set(const char *params, struct vsw_args *a, char *err,
		 size_t errlen)
{
	char buf[VSW_ARGS_MAX + 1], *f[FIELDS_MAX];
	int n = split(params, buf, sizeof(buf), f, FIELDS_MAX);

	/* an empty VALUE is the key's to refuse (bridge: none) */
	if (n != 2 || f[0][0] == '\0' || strlen(f[0]) >= sizeof(a->key))
		return bad(err, errlen, "expected KEY,VALUE");
	memcpy(a->key, f[0], strlen(f[0]) + 1);
	memcpy(a->value, f[1], strlen(f[1]) + 1); /* checked: <= 255 */
	return 0;
}

/* MAC and optional VLAN at f[vlan_at]: the FDB key. */
static bool key_arg(char **f, int n, int vlan_at, struct vsw_args *a)
{
	unsigned long vlan;
	uint8_t mac[6];

	if (!vsw_config_parse_mac(f[0], strlen(f[0]), mac) ||
	    !parse_vlan(n > vlan_at ? f[vlan_at] : NULL, &vlan) || (mac[0] & 1))
		return false;
	a->fdb_key = vsw_fdb_key(mac, (uint16_t)vlan);
	return true;
}

int vsw_args_fdb_add(const char *params, struct vsw_args *a, char *err,
		     size_t errlen)
{
	char buf[VSW_ARGS_MAX + 1], *f[FIELDS_MAX];
	int n = split(params, buf, sizeof(buf), f, FIELDS_MAX);

	if (n < 2 || n > 3 || !key_arg(f, n, 2, a) || !copy_name(f[1], a))
		return bad(err, errlen,
			   "expected a unicast MAC aa:bb:cc:dd:ee:ff, a port "
			   "name and an optional VLAN 0..4095");
	a->has_name = true;
	return 0;
}

int vsw_args_fdb_del(const char *params, struct vsw_args *a, char *err,
		     size_t errlen)
{
	char buf[VSW_ARGS_MAX + 1], *f[FIELDS_MAX];
	int n = split(params, buf, sizeof(buf), f, FIELDS_MAX);

	if (n < 1 || n > 2 || !key_arg(f, n, 1, a))
		return bad(err, errlen,
			   "expected a unicast MAC aa:bb:cc:dd:ee:ff and an "
			   "optional VLAN 0..4095");
	return 0;
}

static bool parse_dir(const char *s, unsigned int *dir)
{
	static const char *const names[] = {"rx", "tx", "both"};

	for (unsigned int i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0) {
			*dir = i + 1;
			return true;
		}
	return false;
}

int vsw_args_capture(const char *params, struct vsw_args *a, char *err,
		     size_t errlen)
{
	char buf[VSW_ARGS_MAX + 1], *f[7], *s;
	int n = 0;

	if (params == NULL || strlen(params) >= sizeof(buf))
		return bad(err, errlen, "missing parameters");
	memcpy(buf, params, strlen(params) + 1);
	/* six fields, then the filter: the rest, commas and all */
	for (s = buf; n < 7 && s != NULL; n++) {
		f[n] = s;
		s = n < 6 ? strchr(s, ',') : NULL;
		if (s != NULL)
			*s++ = '\0';
	}
	if (n < 6)
		return bad(err, errlen, "expected 6 or 7 parameters");
	if (!copy_name(f[0], a))
		return bad(err, errlen,
			   "expected a port name of 1..31 "
			   "characters of [A-Za-z0-9_]");
	if (!parse_dir(f[1], &a->cap_dir))
		return bad(err, errlen, "expected rx, tx or both");
	if (!parse_ulong(f[2], UINT32_MAX, &a->cap_count))
		return bad(err, errlen, "expected COUNT 0..4294967295");
	if (!parse_ulong(f[3], VSW_CAPTURE_RING_MAX, &a->cap_ring) ||
	    a->cap_ring < VSW_CAPTURE_RING_MIN)
		return bad(err, errlen, "expected RING 8..65536 (frames)");
	if (!parse_ulong(f[4], VSW_CAPTURE_SNAP_MAX, &a->cap_snaplen) ||
	    a->cap_snaplen < VSW_CAPTURE_SNAP_MIN)
		return bad(err, errlen, "expected SNAPLEN 64..65535 (bytes)");
	if (f[5][0] == '\0')
		return bad(err, errlen, "expected a FILE name");
	memcpy(a->cap_file, f[5], strlen(f[5]) + 1);
	if (n == 7)
		memcpy(a->cap_filter, f[6], strlen(f[6]) + 1);
	a->has_name = true;
	return 0;
}

/* clang-format off */
const struct vsw_args_cmd vsw_args_cmds[] = {
	{"/vsw/info", vsw_args_none, ""},
	{"/vsw/ports", vsw_args_page, "[OFFSET[,COUNT]]"},
	{"/vsw/port", vsw_args_name, "NAME"},
	{"/vsw/vteps", vsw_args_name, "NAME"},
	{"/vsw/fdb", vsw_args_page, "[OFFSET[,COUNT<=128]]"},
	{"/vsw/fdb/stats", vsw_args_none, ""},
	{"/vsw/workers", vsw_args_none, ""},
	{"/vsw/queues", vsw_args_name, "PORT"},
	{"/vsw/port/add", vsw_args_name_kv, "NAME,type=...,KEY=VALUE,..."},
	{"/vsw/port/del", vsw_args_name, "NAME"},
	{"/vsw/port/set", vsw_args_name_kv, "NAME,KEY=VALUE,..."},
	{"/vsw/rxq/move", vsw_args_rxq_move, "PORT,QUEUE,WORKER"},
	{"/vsw/rxq/rebalance", vsw_args_none, ""},
	{"/vsw/set", vsw_args_set, "KEY,VALUE"},
	{"/vsw/fdb/flush", vsw_args_opt_name, "[PORT]"},
	{"/vsw/fdb/add", vsw_args_fdb_add, "MAC,PORT[,VLAN]"},
	{"/vsw/fdb/del", vsw_args_fdb_del, "MAC[,VLAN]"},
	{"/vsw/stats/clear", vsw_args_none, ""},
	{"/vsw/config", vsw_args_page, "[OFFSET[,COUNT]]"},
	{"/vsw/capture/start", vsw_args_capture,
	 "PORT,rx|tx|both,COUNT,RING,SNAPLEN,FILE[,FILTER]"},
	{"/vsw/capture/stop", vsw_args_name, "PORT"},
	{"/vsw/capture", vsw_args_opt_name, "[PORT]"},
};
/* clang-format on */
const unsigned int vsw_args_n_cmds =
	sizeof(vsw_args_cmds) / sizeof(vsw_args_cmds[0]);

const struct vsw_args_cmd *vsw_args_find(const char *name)
{
	for (unsigned int i = 0; i < vsw_args_n_cmds; i++)
		if (strcmp(vsw_args_cmds[i].name, name) == 0)
			return &vsw_args_cmds[i];
	return NULL;
}

int vsw_args_parse(const struct vsw_args_cmd *c, const char *params,
		   struct vsw_args *a, char *err, size_t errlen)
{
	char why[160];
	int rc;

	memset(a, 0, sizeof(*a));
	rc = vsw_args_check(params, why, sizeof(why));
	if (rc == 0)
		rc = c->parse(params, a, why, sizeof(why));
	if (rc < 0)
		snprintf(err, errlen, "%s%s%s: %s", c->name,
			 c->usage[0] ? "," : "", c->usage, why);
	return rc;
}
