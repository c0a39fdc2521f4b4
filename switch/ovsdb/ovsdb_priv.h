/* SPDX-License-Identifier: BSD-3-Clause */
/* The OVSDB client's parts (ovsdb.h): rpc.c, db.c, sync.c, client.c. */
#ifndef VSW_OVSDB_PRIV_H
#define VSW_OVSDB_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "config/ovs_map.h"
#include "config/vsw_config.h"
#include "ovsdb.h"

/* ---- rpc.c: JSON-RPC over a unix or tcp stream ---- */
struct rpc {
	int fd; /* -1: not connected */
	char *buf;
	size_t len, cap;
	char err[256]; /* why rpc_read failed, when it was the data */
};
/* Called for each whole JSON object received; < 0 drops the connection. */
typedef int (*rpc_msg_fn)(json_t *msg, void *arg);
int rpc_connect(struct rpc *r, const struct vsw_ovsdb_remote *at);
void rpc_close(struct rpc *r);
void rpc_free(struct rpc *r);
/* Send @msg (its reference is taken); 0 or -errno. */
int rpc_send(struct rpc *r, json_t *msg);
/* Read what the socket holds and hand each whole message to @fn; 0, or
 * -errno (the connection is to be dropped). */
int rpc_read(struct rpc *r, rpc_msg_fn fn, void *arg);

/* ---- db.c: the replica of the monitored tables, OVSDB datums ---- */
/*
 * The replica is a JSON object {TABLE: {UUID: {COLUMN: DATUM}}} kept
 * with the server's monitor updates (RFC 7047 4.1.6).
 */
int db_apply_update(json_t *replica, json_t *updates);
/* The monitor request's tables and columns. */
json_t *db_monitor_request(void);
/* A datum as one string (an atom, or a set of one), or NULL. */
const char *datum_str(json_t *d);
/* A datum as one integer (atom, or set of one); @dflt when empty. */
long long datum_int(json_t *d, long long dflt);
/* The @i-th atom of a set datum (an atom alone is a set of one); NULL
 * past the end. */
json_t *datum_set_at(json_t *d, size_t i);
/* The UUID string of a ["uuid", U] atom, or NULL. */
const char *atom_uuid(json_t *a);
/* The string value of @key in a map datum, or NULL. */
const char *datum_map_get(json_t *d, const char *key);
/* A map datum of @n string pairs (k[i], v[i]). */
json_t *datum_map(const char *const *k, const char *const *v, size_t n);
/* The empty set: a column set to nothing. */
json_t *datum_empty(void);

/* ---- sync.c: rows into ports, and what is written back ---- */
struct ovsdb_iface; /* sync.c's view of one Interface row */

struct vsw_ovsdb {
	struct vsw_ctl *ctl;
	struct vsw_ovsdb_remote at;
	char run_dir[VSW_PATH_MAX]; /* OVS's rundir (the db socket's) */
	/* dpdkvhostuser sockets: run_dir, or below it other_config:
	 * vhost-sock-dir as the first sync found it (sync.c take_sock_dir) */
	char sock_dir[VSW_PATH_MAX];
	bool sock_dir_taken;
	char sock_sub[VSW_PATH_MAX]; /* the vhost-sock-dir taken */
	/* {WHAT: TEXT} what a sync last logged as wrong, so that the next
	 * sync, with the same, stays quiet (sync.c told_once) */
	json_t *told;
	pthread_t thread;
	int stop_fd; /* eventfd: vsw_ovsdb_stop */
	struct rpc rpc;
	json_t *replica;      /* NULL until the monitor's first reply */
	json_t *written;      /* {IFACE UUID: {COLUMN: DATUM}} last written */
	json_t *errs;	      /* {IFACE UUID: error} of the last full sync */
	long long next_cfg;   /* Open_vSwitch next_cfg of the replica */
	long long cur_cfg;    /* what we wrote; -1: nothing yet */
	uint64_t last_id;     /* JSON-RPC ids */
	bool dirty;	      /* replica changed since the last sync */
	pthread_mutex_t lock; /* status, for telemetry */
	struct vsw_ovsdb_status st;
};

enum sync_mode {
	SYNC_FULL,  /* ports made what the replica says; all columns, cur_cfg */
	SYNC_STATS, /* no port changes: statistics and state columns */
	SYNC_LINKS, /* no port changes: state columns (link_state...) */
};
/*
 * Make vsw's ports what the replica says (under ctl_lock; SYNC_FULL),
 * then send the write-back transaction: the columns of each Interface row
 * that differ from what was last written, and cur_cfg.  0, or -errno
 * when the transaction could not be sent.
 */
int sync_run(struct vsw_ovsdb *o, enum sync_mode mode);

#endif /* VSW_OVSDB_PRIV_H */
