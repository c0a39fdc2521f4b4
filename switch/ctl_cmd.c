/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The mutating telemetry commands: argument parsing and replies.
 *
 * Each takes ctl_lock and calls the matching operation in control.c, which
 * changes the switch only through control state and a newly published
 * datapath table: nothing here writes worker state.  A bad argument gets
 * {"error": "..."} naming what was wrong and what was expected; success
 * gets {"ok": 1, ...}.  Telemetry runs each client on its own thread, so
 * two clients' commands serialize on ctl_lock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_telemetry.h>

#include "ctl_priv.h"
#include "vsw.h"

#define ARGS_MAX 4

/* Split a copy of @params at commas into at most @max fields. */
static int split(const char *params, char *buf, size_t len, char **f, int max)
{
	int n = 0;
	char *s;

	if (params == NULL || *params == '\0')
		return 0;
	snprintf(buf, len, "%s", params);
	for (s = buf; n < max; n++) {
		f[n] = s;
		s = strchr(s, ',');
		if (s == NULL)
			return n + 1;
		*s++ = '\0';
	}
	return -E2BIG;
}

static int reply_rc(struct rte_tel_data *d, int rc, const char *err)
{
	if (rc < 0)
		return vsw_ctl_reply_error(d, "%s", err);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "ok", 1);
	return 0;
}

static bool parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return false;
	*v = strtoul(s, &end, 10);
	return *end == '\0' && *v <= max;
}

/* /vsw/port/add,NAME,KEY=VALUE,... (devargs last: it has commas) */
static int cmd_port_add(const char *cmd, const char *params,
			struct rte_tel_data *d)
{
	char name[VSW_PORT_NAME_MAX + 1], err[VSW_ERR_MAX];
	const char *comma = params ? strchr(params, ',') : NULL;
	int rc;

	(void)cmd;
	if (comma == NULL || (size_t)(comma - params) >= sizeof(name))
		return vsw_ctl_reply_error(
			d,
			"expected /vsw/port/add,NAME,type=...,KEY=VALUE... "
			"got '%s'",
			params);
	snprintf(name, sizeof(name), "%.*s", (int)(comma - params), params);
	pthread_mutex_lock(&vsw.ctl_lock);
	rc = vsw_ctl_port_add(&vsw, name, comma + 1, err, sizeof(err));
	pthread_mutex_unlock(&vsw.ctl_lock);
	return reply_rc(d, rc, err);
}

static int cmd_port_del(const char *cmd, const char *params,
			struct rte_tel_data *d)
{
	char err[VSW_ERR_MAX];
	int rc;

	(void)cmd;
	if (params == NULL || *params == '\0')
		return vsw_ctl_reply_error(d, "expected /vsw/port/del,NAME%s",
					   NULL);
	pthread_mutex_lock(&vsw.ctl_lock);
	rc = vsw_ctl_port_del(&vsw, params, err, sizeof(err));
	pthread_mutex_unlock(&vsw.ctl_lock);
	return reply_rc(d, rc, err);
}

/* /vsw/rxq/move,PORT,QUEUE,WORKER */
static int cmd_rxq_move(const char *cmd, const char *params,
			struct rte_tel_data *d)
{
	char buf[256], err[VSW_ERR_MAX], *f[ARGS_MAX];
	unsigned long q, w;
	int n, rc;

	(void)cmd;
	n = split(params, buf, sizeof(buf), f, ARGS_MAX);
	if (n != 3 || !parse_uint(f[1], 65535, &q) ||
	    !parse_uint(f[2], VSW_MAX_WORKERS, &w))
		return vsw_ctl_reply_error(
			d,
			"expected /vsw/rxq/move,PORT,QUEUE,WORKER with "
			"integers QUEUE and WORKER, got '%s'",
			params);
	pthread_mutex_lock(&vsw.ctl_lock);
	rc = vsw_ctl_rxq_move(&vsw, f[0], (unsigned int)q, (unsigned int)w, err,
			      sizeof(err));
	pthread_mutex_unlock(&vsw.ctl_lock);
	return reply_rc(d, rc, err);
}

static int cmd_rxq_rebalance(const char *cmd, const char *params,
			     struct rte_tel_data *d)
{
	char err[VSW_ERR_MAX];
	unsigned int moved = 0;
	int rc;

	(void)cmd;
	(void)params;
	pthread_mutex_lock(&vsw.ctl_lock);
	rc = vsw_ctl_rxq_rebalance(&vsw, &moved, err, sizeof(err));
	pthread_mutex_unlock(&vsw.ctl_lock);
	if (rc < 0)
		return vsw_ctl_reply_error(d, "%s", err);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "ok", 1);
	rte_tel_data_add_dict_u64(d, "moved", moved);
	return 0;
}

/* /vsw/set,KEY,VALUE */
static int cmd_set(const char *cmd, const char *params, struct rte_tel_data *d)
{
	char buf[256], err[VSW_ERR_MAX], *f[ARGS_MAX];
	int rc;

	(void)cmd;
	if (split(params, buf, sizeof(buf), f, ARGS_MAX) != 2)
		return vsw_ctl_reply_error(d,
					   "expected /vsw/set,KEY,VALUE, "
					   "got '%s'",
					   params);
	pthread_mutex_lock(&vsw.ctl_lock);
	rc = vsw_ctl_set(&vsw, f[0], f[1], err, sizeof(err));
	pthread_mutex_unlock(&vsw.ctl_lock);
	return reply_rc(d, rc, err);
}

/* /vsw/fdb/flush[,PORT] */
static int cmd_fdb_flush(const char *cmd, const char *params,
			 struct rte_tel_data *d)
{
	uint16_t port = VSW_FDB_PORT_NONE;
	unsigned int n;

	(void)cmd;
	pthread_mutex_lock(&vsw.ctl_lock);
	if (params != NULL && *params != '\0') {
		struct vsw_port *p = vsw_ctl_port_by_name(&vsw, params);

		if (p == NULL) {
			pthread_mutex_unlock(&vsw.ctl_lock);
			return vsw_ctl_reply_error(d, "unknown port '%s'",
						   params);
		}
		port = p->id;
	}
	n = vsw_fdb_flush(vsw.fdb, port, false);
	pthread_mutex_unlock(&vsw.ctl_lock);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "ok", 1);
	rte_tel_data_add_dict_u64(d, "flushed", n);
	return 0;
}

static bool parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char end;

	if (s == NULL || sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1],
				&b[2], &b[3], &b[4], &b[5], &end) != 6)
		return false;
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return true;
}

/* "N" or "vlan=N", 0..4095; absent = 0 */
static bool parse_vlan(const char *s, unsigned long *vlan)
{
	*vlan = 0;
	if (s == NULL)
		return true;
	if (strncmp(s, "vlan=", 5) == 0)
		s += 5;
	return parse_uint(s, 4095, vlan);
}

static uint64_t key_arg(char **f, int n, int vlan_at, bool *ok)
{
	unsigned long vlan;
	uint8_t mac[6];

	*ok = parse_mac(f[0], mac) &&
	      parse_vlan(n > vlan_at ? f[vlan_at] : NULL, &vlan) &&
	      !(mac[0] & 1);
	return *ok ? vsw_fdb_key(mac, (uint16_t)vlan) : 0;
}

/* /vsw/fdb/add,MAC,PORT[,VLAN] */
static int cmd_fdb_add(const char *cmd, const char *params,
		       struct rte_tel_data *d)
{
	char buf[256], *f[ARGS_MAX];
	struct vsw_port *p;
	bool ok = false;
	uint64_t key = 0;
	int n, rc;

	(void)cmd;
	n = split(params, buf, sizeof(buf), f, ARGS_MAX);
	if (n >= 2 && n <= 3)
		key = key_arg(f, n, 2, &ok);
	if (!ok)
		return vsw_ctl_reply_error(
			d,
			"expected /vsw/fdb/add,MAC,PORT[,VLAN] with a "
			"unicast MAC aa:bb:cc:dd:ee:ff and VLAN 0..4095, "
			"got '%s'",
			params);
	pthread_mutex_lock(&vsw.ctl_lock);
	p = vsw_ctl_port_by_name(&vsw, f[1]);
	rc = p == NULL ? -ENOENT
		       : vsw_fdb_add_static(vsw.fdb, key, p->id, vsw.now_s);
	pthread_mutex_unlock(&vsw.ctl_lock);
	if (rc == -ENOENT)
		return vsw_ctl_reply_error(d, "unknown port '%s'", f[1]);
	return reply_rc(d, rc, "the FDB is full");
}

/* /vsw/fdb/del,MAC[,VLAN] */
static int cmd_fdb_del(const char *cmd, const char *params,
		       struct rte_tel_data *d)
{
	char buf[256], *f[ARGS_MAX];
	bool ok = false;
	uint64_t key = 0;
	int n, rc;

	(void)cmd;
	n = split(params, buf, sizeof(buf), f, ARGS_MAX);
	if (n >= 1 && n <= 2)
		key = key_arg(f, n, 1, &ok);
	if (!ok)
		return vsw_ctl_reply_error(
			d,
			"expected /vsw/fdb/del,MAC[,VLAN] with a unicast "
			"MAC aa:bb:cc:dd:ee:ff, got '%s'",
			params);
	pthread_mutex_lock(&vsw.ctl_lock);
	rc = vsw_fdb_del(vsw.fdb, key);
	pthread_mutex_unlock(&vsw.ctl_lock);
	return reply_rc(d, rc, "no such FDB entry");
}

static int cmd_stats_clear(const char *cmd, const char *params,
			   struct rte_tel_data *d)
{
	(void)cmd;
	(void)params;
	pthread_mutex_lock(&vsw.ctl_lock);
	vsw_ctl_stats_clear(&vsw);
	pthread_mutex_unlock(&vsw.ctl_lock);
	return reply_rc(d, 0, NULL);
}

int vsw_ctl_register_writes(void)
{
	static const struct {
		const char *name;
		telemetry_cb fn;
		const char *help;
	} cmds[] = {
		{"/vsw/port/add", cmd_port_add,
		 "[mutating] Add a port. Parameters: NAME,KEY=VALUE,... as in "
		 "a [port] section (devargs last)"},
		{"/vsw/port/del", cmd_port_del,
		 "[mutating] Remove a port. Parameter: NAME"},
		{"/vsw/rxq/move", cmd_rxq_move,
		 "[mutating] Move an rx queue. Parameters: PORT,QUEUE,WORKER"},
		{"/vsw/rxq/rebalance", cmd_rxq_rebalance,
		 "[mutating] Spread rx queues over workers by measured load"},
		{"/vsw/set", cmd_set,
		 "[mutating] Change a [switch] setting. Parameters: KEY,VALUE"},
		{"/vsw/fdb/flush", cmd_fdb_flush,
		 "[mutating] Remove learned entries. Parameter: [PORT]"},
		{"/vsw/fdb/add", cmd_fdb_add,
		 "[mutating] Add a static entry. Parameters: MAC,PORT[,VLAN]"},
		{"/vsw/fdb/del", cmd_fdb_del,
		 "[mutating] Delete an entry. Parameters: MAC[,VLAN]"},
		{"/vsw/stats/clear", cmd_stats_clear,
		 "[mutating] Zero every port and queue counter"},
	};

	for (size_t i = 0; i < RTE_DIM(cmds); i++)
		if (rte_telemetry_register_cmd(cmds[i].name, cmds[i].fn,
					       cmds[i].help) < 0)
			return -EINVAL;
	return 0;
}
