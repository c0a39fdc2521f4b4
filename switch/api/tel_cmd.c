/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The mutating telemetry commands: argument parsing and replies.
 *
 * Each takes ctl_lock and calls the matching operation in control/ (control.h), which
 * changes the switch only through control state and a newly published
 * datapath table: nothing here writes worker state.  A bad argument gets
 * {"error": "..."} naming what was wrong and what was expected; success
 * gets {"ok": 1, ...}.  Telemetry runs each client on its own thread, so
 * two clients' commands serialize on ctl_lock.  Port add/del/set, set and
 * the static FDB entries are in the state file (control/state.c) when
 * they reply ok; when it cannot be written they fail and change nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_telemetry.h>

#include "control/control.h"
#include "tel.h"
#include "config/vsw_keys.h"

static int reply_rc(struct rte_tel_data *d, int rc, const char *err)
{
	if (rc < 0)
		return vsw_tel_reply_error(d, "%s", err);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "ok", 1);
	return 0;
}

/*
 * The common shape of a mutating command: parse and lock, run @op (which
 * fills err on failure), unlock, reply {"ok": 1} or the error.
 */
static int mutate(const char *cmd, const char *params, struct rte_tel_data *d,
		  int (*op)(struct vsw_ctl *ctl, const struct vsw_args *a,
			    char *err, size_t len))
{
	char err[VSW_ERR_MAX];
	struct vsw_ctl *ctl;
	struct vsw_args a;
	int rc;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, true)) == NULL)
		return 0;
	rc = op(ctl, &a, err, sizeof(err));
	vsw_tel_end(ctl);
	return reply_rc(d, rc, err);
}

/* /vsw/port/add,NAME,KEY=VALUE,... (devargs last: it has commas) */
static int op_port_add(struct vsw_ctl *ctl, const struct vsw_args *a, char *err,
		       size_t len)
{
	return vsw_ctl_port_add(ctl, a->name, a->rest, err, len);
}

static int cmd_port_add(const char *cmd, const char *params,
			struct rte_tel_data *d)
{
	return mutate(cmd, params, d, op_port_add);
}

static int op_port_del(struct vsw_ctl *ctl, const struct vsw_args *a, char *err,
		       size_t len)
{
	return vsw_ctl_port_del(ctl, a->name, err, len);
}

static int cmd_port_del(const char *cmd, const char *params,
			struct rte_tel_data *d)
{
	return mutate(cmd, params, d, op_port_del);
}

/* /vsw/port/set,NAME,KEY=VALUE,... */
static int op_port_set(struct vsw_ctl *ctl, const struct vsw_args *a, char *err,
		       size_t len)
{
	return vsw_ctl_port_set(ctl, a->name, a->rest, err, len);
}

static int cmd_port_set(const char *cmd, const char *params,
			struct rte_tel_data *d)
{
	return mutate(cmd, params, d, op_port_set);
}

/* /vsw/rxq/move,PORT,QUEUE,WORKER */
static int op_rxq_move(struct vsw_ctl *ctl, const struct vsw_args *a, char *err,
		       size_t len)
{
	return vsw_ctl_rxq_move(ctl, a->name, (unsigned int)a->n[0],
				(unsigned int)a->n[1], err, len);
}

static int cmd_rxq_move(const char *cmd, const char *params,
			struct rte_tel_data *d)
{
	return mutate(cmd, params, d, op_rxq_move);
}

static int cmd_rxq_rebalance(const char *cmd, const char *params,
			     struct rte_tel_data *d)
{
	struct vsw_ctl *ctl;
	char err[VSW_ERR_MAX];
	unsigned int moved = 0;
	struct vsw_args a;
	int rc;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, true)) == NULL)
		return 0;
	rc = vsw_ctl_rxq_rebalance(ctl, &moved, err, sizeof(err));
	vsw_tel_end(ctl);
	if (rc < 0)
		return vsw_tel_reply_error(d, "%s", err);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "ok", 1);
	rte_tel_data_add_dict_u64(d, "moved", moved);
	return 0;
}

/* /vsw/set,KEY,VALUE */
static int op_set(struct vsw_ctl *ctl, const struct vsw_args *a, char *err,
		  size_t len)
{
	return vsw_ctl_set(ctl, a->key, a->value, err, len);
}

static int cmd_set(const char *cmd, const char *params, struct rte_tel_data *d)
{
	return mutate(cmd, params, d, op_set);
}

/* /vsw/fdb/flush[,PORT] */
static int cmd_fdb_flush(const char *cmd, const char *params,
			 struct rte_tel_data *d)
{
	char err[VSW_ERR_MAX];
	unsigned int n = 0;
	struct vsw_ctl *ctl;
	struct vsw_args a;
	int rc;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, true)) == NULL)
		return 0;
	rc = vsw_ctl_fdb_flush(ctl, a.has_name ? a.name : NULL, &n, err,
			       sizeof(err));
	vsw_tel_end(ctl);
	if (rc < 0)
		return vsw_tel_reply_error(d, "%s", err);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "ok", 1);
	rte_tel_data_add_dict_u64(d, "flushed", n);
	return 0;
}

/* /vsw/fdb/add,MAC,PORT[,VLAN]: a static entry (kept in the state) */
static int op_fdb_add(struct vsw_ctl *ctl, const struct vsw_args *a, char *err,
		      size_t len)
{
	return vsw_ctl_fdb_add(ctl, a->fdb_key, a->name, err, len);
}

static int cmd_fdb_add(const char *cmd, const char *params,
		       struct rte_tel_data *d)
{
	return mutate(cmd, params, d, op_fdb_add);
}

/* /vsw/fdb/del,MAC[,VLAN] */
static int op_fdb_del(struct vsw_ctl *ctl, const struct vsw_args *a, char *err,
		      size_t len)
{
	return vsw_ctl_fdb_del(ctl, a->fdb_key, err, len);
}

static int cmd_fdb_del(const char *cmd, const char *params,
		       struct rte_tel_data *d)
{
	return mutate(cmd, params, d, op_fdb_del);
}

static int cmd_stats_clear(const char *cmd, const char *params,
			   struct rte_tel_data *d)
{
	struct vsw_ctl *ctl;
	struct vsw_args a;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, true)) == NULL)
		return 0;
	vsw_ctl_stats_clear(ctl);
	vsw_tel_end(ctl);
	return reply_rc(d, 0, NULL);
}

/* /vsw/capture/start,PORT,DIR,COUNT,RING,SNAPLEN,FILE[,FILTER] */
static int op_capture_start(struct vsw_ctl *ctl, const struct vsw_args *a,
			    char *err, size_t len)
{
	const struct vsw_capture_req q = {
		.port = a->name,
		.dir = a->cap_dir,
		.count = a->cap_count,
		.ring = (unsigned int)a->cap_ring,
		.snaplen = (uint32_t)a->cap_snaplen,
		.file = a->cap_file,
		.filter = a->cap_filter,
	};

	return vsw_ctl_capture_start(ctl, &q, err, len);
}

static int cmd_capture_start(const char *cmd, const char *params,
			     struct rte_tel_data *d)
{
	return mutate(cmd, params, d, op_capture_start);
}

/* /vsw/capture/stop,PORT: replies the final counters (the file is
 * complete) */
static int cmd_capture_stop(const char *cmd, const char *params,
			    struct rte_tel_data *d)
{
	struct vsw_capture_stats st;
	char err[VSW_ERR_MAX];
	struct vsw_ctl *ctl;
	struct vsw_args a;
	int rc;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, true)) == NULL)
		return 0;
	rc = vsw_ctl_capture_stop(ctl, a.name, &st, err, sizeof(err));
	vsw_tel_end(ctl);
	if (rc < 0)
		return vsw_tel_reply_error(d, "%s", err);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "ok", 1);
	vsw_tel_add_capture_stats(d, &st);
	return 0;
}

int vsw_tel_register_cmds(void)
{
	/* telemetry keeps the pointer: static; the keys from config/keys.c */
	static char set_help[600], keys[512];
	const struct vsw_tel_cmd cmds[] = {
		{"/vsw/port/add", cmd_port_add,
		 "[mutating] Add a port. Parameters: NAME,KEY=VALUE,... as in "
		 "a [port] section (devargs last)"},
		{"/vsw/port/del", cmd_port_del,
		 "[mutating] Remove a port. Parameter: NAME"},
		{"/vsw/port/set", cmd_port_set, set_help},
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
		{"/vsw/capture/start", cmd_capture_start,
		 "[mutating] Capture a port's frames to a pcapng file. "
		 "Parameters: "
		 "PORT,rx|tx|both,COUNT,RING,SNAPLEN,FILE[,FILTER]"},
		{"/vsw/capture/stop", cmd_capture_stop,
		 "[mutating] Stop a capture; replies its counters. Parameter: "
		 "PORT"},
	};

	snprintf(set_help, sizeof(set_help),
		 "[mutating] Change a port: %s. Parameters: NAME,KEY=VALUE,...",
		 vsw_keys_list(keys, sizeof(keys), VSW_SECT_PORT, VSW_KEY_ANY,
			       1));
	/* telemetry refuses a help text this long (and registers nothing) */
	if (strlen(set_help) >= RTE_TEL_MAX_STRING_LEN)
		snprintf(set_help, sizeof(set_help),
			 "[mutating] Change a port. Parameters: "
			 "NAME,KEY=VALUE,... (KEY: port-set in vsw "
			 "--help-config)");
	return vsw_tel_register(cmds, RTE_DIM(cmds));
}
