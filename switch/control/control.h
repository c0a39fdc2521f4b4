/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control: the operations that change the switch.  Each runs with
 * ctl_lock held (a telemetry thread or the control loop) and changes the
 * switch only by editing control state in struct vsw_ctl and
 * publishing a new datapath table (vsw_table_publish).  None writes worker
 * state.  Files: table.c (publish, grace periods), ports.c (port
 * add/del/set, the loop's port upkeep), fdb.c (static entries, flush),
 * settings.c (`set`), commit.c (every change to the state file, undone
 * when it cannot be written), statefile.c (the file itself),
 * rebalance.c (rx queue placement), counters.c (counter sums and clear),
 * loop.c (the control loop), watch.c (socket-watch-dir), capture.c and
 * pcapng.c (packet captures and their files).
 */
#ifndef VSW_CONTROL_H
#define VSW_CONTROL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/log.h"
#include "config/vsw_config.h"
#include "datapath/fdb.h"
#include "datapath/stats.h"
#include "datapath/table.h"
#include "datapath/worker.h"
#include "port/port.h"
#include "rxq_plan.h"

/* Rebalance state (rebalance.c; the plan's arithmetic in rxq_plan.c). */
struct vsw_rebalance {
	/* per-queue counters at the last rebalance: loads are deltas */
	struct vsw_rxq_ctrs last[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	struct vsw_rxq_load load[VSW_MAX_PORTS * VSW_MAX_QUEUES];
	uint32_t last_check; /* automatic: when the loads were last compared */
	uint64_t prev_busy[VSW_MAX_WORKERS];
};

/* socket-watch-dir (watch.c) */
struct vsw_watch {
	int fd; /* inotify; -1: not watching */
	const char *dir;
	char plugged[VSW_MAX_PORTS][VSW_PORT_NAME_MAX]; /* "" = free */
};

/* capture.c: packet captures (datapath/capture.h is the workers' side) */
#define VSW_MAX_CAPTURES 4
#define VSW_CAPTURE_STR 256 /* a file name or a filter, with its NUL */
struct vsw_cap_run;

/* What a capture is started with (vswctl capture). */
struct vsw_capture_req {
	const char *port;
	unsigned int dir; /* VSW_CAPTURE_RX | VSW_CAPTURE_TX */
	uint64_t count;	  /* frames to write; 0: until stopped */
	unsigned int ring;
	uint32_t snaplen;
	const char *file;   /* absolute; must not exist */
	const char *filter; /* libpcap syntax; "": every frame */
};

struct vsw_capture_stats {
	uint64_t captured; /* copied by the workers */
	uint64_t dropped;  /* the capture could not keep up */
	uint64_t filtered; /* refused by the filter */
	uint64_t written;  /* in the file */
	bool done;	   /* count written */
	int write_err;	   /* errno of the first failed write, or 0 */
};

struct vsw_capture_info {
	unsigned int dir, ring;
	uint32_t snaplen;
	uint64_t count;
	const char *file, *filter; /* valid while ctl_lock is held */
	struct vsw_capture_stats st;
};

/* A [switch] setting laid over vsw's own by another source (the OVSDB
 * client: settings.c vsw_ctl_override). */
#define VSW_MAX_OVERRIDES 8
struct vsw_override {
	char key[32];
	char value[32];
	char from[96]; /* where it comes from, for `set`'s refusal */
};

/*
 * Control's state: everything the control operations change, all under
 * ctl_lock (the control loop and the telemetry threads), and the runtime
 * they publish to.  Counters themselves are the workers' (only they write
 * them): control keeps the values at the last stats/clear (or port-add),
 * which readers subtract.
 */
struct vsw_ctl {
	struct vsw_rt *rt;     /* the workers' runtime (publish, FDB, clock) */
	struct vsw_config cfg; /* cfg.sw changes under ctl_lock (`set`) */
	/* [switch] as the config file, the state file and `set` made it,
	 * which the state file holds: cfg.sw is it with over[] laid on */
	struct vsw_switch_conf sw_own;
	struct vsw_override over[VSW_MAX_OVERRIDES];
	unsigned int n_over;
	char file_prefix[64]; /* EAL's, for `info` */
	uint64_t start_tsc;
	int wake_fd;   /* eventfd the control loop sleeps on */
	bool stopping; /* commands refuse: ports may be gone */
	pthread_mutex_t ctl_lock;
	struct vsw_port *ports[VSW_MAX_PORTS];
	int8_t rxq_owner[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	struct vsw_port_ctrs base[VSW_MAX_PORTS];
	struct vsw_rxq_ctrs rxq_base[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	uint64_t kicks[VSW_MAX_PORTS][VSW_MAX_QUEUES]; /* drained by control */
	/* counters control itself adds (frames drained from unpolled queues) */
	struct vsw_port_ctrs ctl_ctrs[VSW_MAX_PORTS];
	struct vsw_queue_info qbase[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	struct vsw_rebalance rebal;
	struct vsw_watch watch;
	/* the static FDB entries' keys (fdb.c), so that a save need not walk
	 * the FDB for them (their ports: the FDB's values) */
	uint64_t static_keys[VSW_MAX_STATIC_FDB];
	unsigned int n_static;
	uint64_t state_generation;   /* bumped by each state-file save */
	unsigned int state_delay_us; /* test hook VSW_TEST_STATE_DELAY_US */
	struct vsw_config scratch;   /* a config to build and check */
	struct vsw_cap_run
		*cap[VSW_MAX_PORTS]; /* running captures (capture.c) */
	unsigned int n_caps;
	struct vsw_evpn *evpn; /* evpn.c; NULL until a port has evpn on */
};

/* evpn.c: BGP EVPN through kernel shadow devices (vxlan, evpn = on). */
/* The control loop's pass: shadows of new ports made, of gone ones
 * removed, the kernel's events read, local MACs written (each second). */
void vsw_ctl_evpn_poll(struct vsw_ctl *ctl);
/* At exit: every shadow device removed. */
void vsw_ctl_evpn_fini(struct vsw_ctl *ctl);
/* remote MACs taken, flood entries taken, local MAC writes, errors */
void vsw_ctl_evpn_stats(const struct vsw_ctl *ctl, uint64_t out[4]);

/* table.c: datapath table and grace periods. */
/* Wait until every worker reported a quiescent state (any thread). */
void vsw_quiesce(struct vsw_rt *rt);
/*
 * Build a table from control state, publish it and wait the grace
 * periods (the table rule in table.h).  0, or -errno with a message in
 * @err (may be NULL) and the old table still in force.
 */
int vsw_table_publish(struct vsw_ctl *ctl, char *err, size_t errlen);
void vsw_table_free(struct vsw_ctl *ctl);
int vsw_worker_of_lcore(const struct vsw_ctl *ctl, unsigned int lcore);

/* ports.c */
int vsw_ctl_port_add(struct vsw_ctl *ctl, const char *name, const char *kvlist,
		     char *err, size_t errlen);
int vsw_ctl_port_set(struct vsw_ctl *ctl, const char *name, const char *kvlist,
		     char *err, size_t errlen);
int vsw_ctl_port_del(struct vsw_ctl *ctl, const char *name, char *err,
		     size_t errlen);
struct vsw_port *vsw_ctl_port_by_name(const struct vsw_ctl *ctl,
				      const char *name);
/* The control loop's pass: links, the kind's upkeep, rx queue counts,
 * kicks still arriving (busy mode). */
void vsw_ctl_ports_upkeep(struct vsw_ctl *ctl);
/* What the port layer gets from the switch (mempool, hooks, settings). */
void vsw_port_env_fill(struct vsw_ctl *ctl, struct vsw_port_env *env);
/* The big mbufs' pool into ctl->rt->big_mp, unless made already (or
 * big-mbufs = 0, or no memory: then a warning). */
void vsw_ctl_big_mbufs(struct vsw_ctl *ctl);

/* commit.c: the one path from a change to the state file. */
/* Undo what an operation did (a failed commit); 0 or -errno. */
typedef int (*vsw_ctl_undo_fn)(struct vsw_ctl *ctl, void *arg);
/*
 * Save the state file after a change (@what names it in a log line);
 * when the save fails, run @undo(@arg) (may be NULL) and return the
 * error, with the message in @err.
 */
int vsw_ctl_commit(struct vsw_ctl *ctl, vsw_ctl_undo_fn undo, void *arg,
		   const char *what, char *err, size_t errlen);

/* fdb.c: static entries (committed), flushing, the config's [fdb]. */
int vsw_ctl_fdb_add(struct vsw_ctl *ctl, uint64_t key, const char *port,
		    char *err, size_t errlen);
int vsw_ctl_fdb_del(struct vsw_ctl *ctl, uint64_t key, char *err,
		    size_t errlen);
/* Learned entries of @port (NULL: all) go; *@flushed: how many. */
int vsw_ctl_fdb_flush(struct vsw_ctl *ctl, const char *port,
		      unsigned int *flushed, char *err, size_t errlen);
/* Once the ports exist: the config's [fdb] entries into the FDB. */
int vsw_ctl_fdb_init(struct vsw_ctl *ctl, char *err, size_t errlen);
/* Port @port is going: forget its static entries' keys. */
void vsw_ctl_fdb_port_gone(struct vsw_ctl *ctl, uint16_t port);

/* statefile.c: the state file (docs/configuration.md), ctl_lock held;
 * calls nothing else in control/. */
struct vsw_config;
/* The effective config: settings, ports as they run, static MACs. */
void vsw_statefile_collect(const struct vsw_ctl *ctl, struct vsw_config *cfg);
/* It as INI text (malloc'd, *len bytes), or NULL with @err set. */
char *vsw_statefile_text(const struct vsw_ctl *ctl, size_t *len, char *err,
			 size_t errlen);
/* Write the state file (temporary file, fsync, rename, fsync dir). */
int vsw_statefile_save(struct vsw_ctl *ctl, char *err, size_t errlen);
/* Bumped by every save: a reader of several pages sees a change. */
uint64_t vsw_statefile_generation(const struct vsw_ctl *ctl);
/*
 * Before EAL: lay the state file over @cfg (the config file), or with
 * @reset move it to STATE.old; @offline (--check, --print-config) reads
 * only.  @note: the line to log once running ("" when none).  0, or
 * -errno with the state file's error and what to do in @err.
 */
int vsw_statefile_startup(struct vsw_config *cfg, bool reset, bool offline,
			  char *note, size_t notelen, char *err, size_t errlen);
/* Once running: its directory made and checked, the test hook read. */
int vsw_statefile_init(struct vsw_ctl *ctl, char *err, size_t errlen);

/* rebalance.c */
int vsw_ctl_rxq_move(struct vsw_ctl *ctl, const char *port, unsigned int q,
		     unsigned int worker, char *err, size_t errlen);
int vsw_ctl_rxq_rebalance(struct vsw_ctl *ctl, unsigned int *moved, char *err,
			  size_t errlen);
void vsw_ctl_auto_rebalance(struct vsw_ctl *ctl, uint32_t now);

/* counters.c */
/* Sum of every worker's counters of @port, less the clear-time base. */
void vsw_port_ctrs_sum(const struct vsw_ctl *ctl, uint16_t port,
		       struct vsw_port_ctrs *out);
void vsw_rxq_ctrs_sum(const struct vsw_ctl *ctl, uint16_t port, uint16_t q,
		      struct vsw_rxq_ctrs *out);
/* The same without the base (load measurement). */
void vsw_rxq_ctrs_raw(const struct vsw_ctl *ctl, uint16_t port, uint16_t q,
		      struct vsw_rxq_ctrs *out);
/* The port's view of queue @q, its counters less the clear-time base. */
int vsw_queue_info(const struct vsw_ctl *ctl, struct vsw_port *p, uint16_t q,
		   struct vsw_queue_info *qi);
/* Counters of @port start from zero now. */
void vsw_ctl_port_ctrs_reset(struct vsw_ctl *ctl, uint16_t port);
/* Every port's and queue's counters and the workers' iteration
 * histograms start from zero now. */
void vsw_ctl_stats_clear(struct vsw_ctl *ctl);

/* A worker's iteration lengths since the last stats/clear. */
struct vsw_iter_stats {
	uint64_t count;			 /* iterations (the sum of hist) */
	uint64_t cycles;		 /* TSC cycles in them */
	uint64_t max_cycles;		 /* the longest */
	uint64_t hist[VSW_ITER_BUCKETS]; /* by bucket, config/vsw_iter_hist.h */
};
void vsw_worker_iter_stats(const struct vsw_ctl *ctl,
			   const struct vsw_worker *w,
			   struct vsw_iter_stats *out);

/* watch.c: socket-watch-dir (plugs QEMU server sockets as client ports) */
/* Start watching and plug what the directory holds; takes ctl_lock. */
void vsw_ctl_watch_init(struct vsw_ctl *ctl);
/* Plug and unplug for what changed since; ctl_lock held. */
void vsw_ctl_watch_poll(struct vsw_ctl *ctl);
void vsw_ctl_watch_fini(struct vsw_ctl *ctl);

/* settings.c: `set` (committed; refused for a key laid over) */
int vsw_ctl_set(struct vsw_ctl *ctl, const char *key, const char *value,
		char *err, size_t errlen);
/*
 * Lay the @n settings @ov over vsw's own [switch] (n = 0: none), in
 * place of those laid before: in force at once, never in the state file
 * (which keeps vsw's own values), and `set` refuses their keys while
 * they stay.  0 (also when nothing changed), or -errno with a message
 * and the settings before still in force.
 */
int vsw_ctl_override(struct vsw_ctl *ctl, const struct vsw_override *ov,
		     unsigned int n, char *err, size_t errlen);
/* FDB timestamps are rewritten every fdb-aging-s / 60 seconds (>= 1). */
void vsw_ctl_fdb_refresh(struct vsw_ctl *ctl);

/* capture.c: start (published at once), stop, status; ctl_lock held. */
int vsw_ctl_capture_start(struct vsw_ctl *ctl, const struct vsw_capture_req *q,
			  char *err, size_t errlen);
/* Stop the capture of @port: the file is complete when it returns. */
int vsw_ctl_capture_stop(struct vsw_ctl *ctl, const char *port,
			 struct vsw_capture_stats *out, char *err,
			 size_t errlen);
/* The capture of port @id, or -ENOENT. */
int vsw_ctl_capture_info(const struct vsw_ctl *ctl, uint16_t id,
			 struct vsw_capture_info *ci);
/* The table's view: the workers' part of each running capture. */
void vsw_ctl_capture_ptrs(const struct vsw_ctl *ctl,
			  struct vsw_capture *caps[VSW_MAX_PORTS]);
/* Port @id left the table (or the workers stopped): end its capture. */
void vsw_ctl_capture_port_gone(struct vsw_ctl *ctl, uint16_t id);

/* loop.c */
/* Run the control loop now (any thread, never blocks). */
void vsw_wake_control(struct vsw_ctl *ctl);
/* The control loop: clock, links, upkeep, aging, rebalance; until quit. */
void vsw_control_loop(struct vsw_ctl *ctl);

#endif /* VSW_CONTROL_H */
