/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control: the operations that change the switch.  Each runs with
 * ctl_lock held (a telemetry thread or the control loop) and changes the
 * switch only by editing control state in struct vsw_switch and
 * publishing a new datapath table (vsw_dp_build).  None writes worker
 * state.  Files: table.c (build, publish, grace periods), ports.c (port
 * add/del/set, queue upkeep), rebalance.c (rx queue placement),
 * counters.c (counter sums and clear), loop.c (the control loop, `set`),
 * watch.c (socket-watch-dir).
 */
#ifndef VSW_CONTROL_H
#define VSW_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "port/port.h"
#include "datapath/worker.h"

struct vsw_switch;

/* table.c: datapath table and grace periods. */
/* Wait until every worker reported a quiescent state (any thread). */
void vsw_quiesce(void);
/*
 * Build a table from control state, publish it and wait the grace
 * periods (the table rule in table.h).  0, or -errno with a message in
 * @err (may be NULL) and the old table still in force.
 */
int vsw_dp_build(struct vsw_switch *sw, char *err, size_t errlen);
void vsw_dp_free(struct vsw_switch *sw);
int vsw_worker_of_lcore(const struct vsw_switch *sw, unsigned int lcore);

/* ports.c */
int vsw_ctl_port_add(struct vsw_switch *sw, const char *name,
		     const char *kvlist, char *err, size_t errlen);
int vsw_ctl_port_set(struct vsw_switch *sw, const char *name,
		     const char *kvlist, char *err, size_t errlen);
int vsw_ctl_port_del(struct vsw_switch *sw, const char *name, char *err,
		     size_t errlen);
struct vsw_port *vsw_ctl_port_by_name(const struct vsw_switch *sw,
				      const char *name);
/* Control loop: port upkeep, rx queue counts, kicks still arriving. */
void vsw_ctl_poll_kicks(struct vsw_switch *sw);
/* What the port layer gets from the switch (mempool, hooks, settings). */
void vsw_port_env_fill(struct vsw_switch *sw, struct vsw_port_env *env);

/* state.c: the state file (docs/configuration.md), ctl_lock held. */
struct vsw_config;
/* The effective config: settings, ports as they run, static MACs. */
void vsw_state_collect(const struct vsw_switch *sw, struct vsw_config *cfg);
/* It as INI text (malloc'd, *len bytes), or NULL with @err set. */
char *vsw_state_text(const struct vsw_switch *sw, size_t *len, char *err,
		     size_t errlen);
/* Write the state file (temporary file, fsync, rename, fsync dir). */
int vsw_state_save(struct vsw_switch *sw, char *err, size_t errlen);
/* Bumped by every save: a reader of several pages sees a change. */
uint64_t vsw_state_generation(void);
/* Static FDB entries, saved; on a failed save the FDB is as before. */
int vsw_ctl_fdb_add(struct vsw_switch *sw, uint64_t key, const char *port,
		    char *err, size_t errlen);
int vsw_ctl_fdb_del(struct vsw_switch *sw, uint64_t key, char *err,
		    size_t errlen);
/*
 * Before EAL: lay the state file over @cfg (the config file), or with
 * @reset move it to STATE.old; @offline (--check, --print-config) reads
 * only.  @note: the line to log once running ("" when none).  0, or
 * -errno with the state file's error and what to do in @err.
 */
int vsw_state_startup(struct vsw_config *cfg, bool reset, bool offline,
		      char *note, size_t notelen, char *err, size_t errlen);
/* Once the ports exist: the config's [fdb] entries into the FDB. */
int vsw_state_init(struct vsw_switch *sw, char *err, size_t errlen);

/* rebalance.c */
int vsw_ctl_rxq_move(struct vsw_switch *sw, const char *port, unsigned int q,
		     unsigned int worker, char *err, size_t errlen);
int vsw_ctl_rxq_rebalance(struct vsw_switch *sw, unsigned int *moved, char *err,
			  size_t errlen);
void vsw_ctl_auto_rebalance(struct vsw_switch *sw, uint32_t now);

/* counters.c */
/* Sum of every worker's counters of @port, less the clear-time base. */
void vsw_port_ctrs_sum(const struct vsw_switch *sw, uint16_t port,
		       struct vsw_port_ctrs *out);
void vsw_rxq_ctrs_sum(const struct vsw_switch *sw, uint16_t port, uint16_t q,
		      struct vsw_rxq_ctrs *out);
/* The same without the base (load measurement). */
void vsw_rxq_ctrs_raw(const struct vsw_switch *sw, uint16_t port, uint16_t q,
		      struct vsw_rxq_ctrs *out);
/* The port's view of queue @q, its counters less the clear-time base. */
int vsw_queue_info(const struct vsw_switch *sw, struct vsw_port *p, uint16_t q,
		   struct vsw_queue_info *qi);
/* Counters of @port start from zero now. */
void vsw_ctl_port_ctrs_reset(struct vsw_switch *sw, uint16_t port);
void vsw_ctl_stats_clear(struct vsw_switch *sw);

/* watch.c: socket-watch-dir (plugs QEMU server sockets as client ports) */
/* Start watching and plug what the directory holds; takes ctl_lock. */
void vsw_ctl_watch_init(struct vsw_switch *sw);
/* Plug and unplug for what changed since; ctl_lock held. */
void vsw_ctl_watch_poll(struct vsw_switch *sw);
void vsw_ctl_watch_fini(void);

/* loop.c */
int vsw_ctl_set(struct vsw_switch *sw, const char *key, const char *value,
		char *err, size_t errlen);
/* FDB timestamps are rewritten every fdb-aging-s / 60 seconds (>= 1). */
void vsw_ctl_fdb_refresh(struct vsw_switch *sw);
/* Run the control loop now (any thread, never blocks). */
void vsw_wake_control(void);
/* The control loop: clock, links, upkeep, aging, rebalance; until quit. */
void vsw_control_loop(struct vsw_switch *sw);

#endif /* VSW_CONTROL_H */
