/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch: its shared state, who writes each field, and how it is
 * published to the workers.
 *
 * Workers read `dp` (the datapath table: ports, flood list, each worker's
 * rx queues) through an RCU pointer and report a quiescent state once per
 * loop.  Each worker's counters live in its own cache-aligned struct
 * vsw_worker and are summed by readers.
 *
 * The table rule (review H2): a worker may use a table from its load at
 * the top of an iteration through the *next* iteration, because frames it
 * buffered under a table are flushed through that same table at the top
 * of the iteration that first sees a newer one (so a removed port, or a
 * queue moved away, leaves nothing behind and a moved flow is not
 * reordered).  That next iteration may start after the report that ended
 * a grace period, so control waits TWO grace periods after publishing
 * before it frees the old table, destroys a port the new table no longer
 * holds, or hands a parked rx queue to its new worker (vsw_dp_build).
 */
#ifndef VSW_SWITCH_H
#define VSW_SWITCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_rcu_qsbr.h>

#include "fdb.h"
#include "port.h"
#include "stats.h"
#include "vsw_config.h"

#define VSW_MAX_WORKERS 64
_Static_assert(VSW_MAX_PORTS <= 64, "dirty mask is 64 bits");
#define VSW_MAX_WORKER_RXQ 256

extern int vsw_logtype;
#define VSW_LOG(level, fmt, ...)                                               \
	rte_log(RTE_LOG_##level, vsw_logtype, "vsw: " fmt "\n", ##__VA_ARGS__)

struct vsw_rxq_ref {
	uint16_t port;
	uint16_t q;
};

/* Worker parameters, published with the table (the `set` command). */
struct vsw_params {
	uint16_t burst;
	uint16_t tx_retries;
	enum vsw_poll_mode poll_mode;
	uint64_t flush_tsc; /* 0: flush at the end of every iteration */
	uint64_t idle_tsc;  /* adaptive: sleep after this long idle */
	uint32_t max_sleep_us;
};

#define VSW_RXQ_UNASSIGNED (-1) /* control picks a worker on the next build */
#define VSW_RXQ_PARKED (-2)	/* polled by nobody (mid-move) */

/* Per-port settings the workers apply, copied from the port's config. */
struct vsw_dp_port {
	uint32_t max_frame; /* mtu + 18: longest frame taken in or sent out */
	bool tx_chains;	    /* the port sends multi-segment mbufs */
	uint8_t n_allowed;  /* allowed source MACs; 0 = any */
	uint64_t allowed[VSW_MAX_ALLOWED_MACS]; /* 48-bit MACs as in FDB keys */
};

/* The datapath table: immutable once published. */
struct vsw_dp {
	struct vsw_params par;
	/* frames up to this length fit every port: no per-output check */
	uint32_t fast_len;
	struct vsw_port *ports[VSW_MAX_PORTS]; /* by id, NULL = free id */
	struct vsw_dp_port pp[VSW_MAX_PORTS];
	uint16_t n_flood;
	uint16_t flood[VSW_MAX_PORTS]; /* every port id, in id order */
	struct {
		uint16_t n;
		struct vsw_rxq_ref rxq[VSW_MAX_WORKER_RXQ];
	} wk[VSW_MAX_WORKERS];
};

/* Packets waiting to leave by one port (worker-private). */
struct vsw_txbuf {
	uint16_t n;
	uint64_t first_tsc; /* when the oldest packet was buffered */
	struct rte_mbuf *pkts[VSW_BURST_MAX];
};

/* Per (port, rx queue) cost as seen by the worker polling it. */
struct vsw_rxq_ctrs {
	uint64_t packets;
	uint64_t cycles; /* TSC spent receiving and forwarding its bursts */
	uint64_t kicks;	 /* guest kicks drained after an adaptive sleep */
};

struct vsw_worker {
	unsigned int lcore;
	unsigned int idx;
	/* Written by this worker only; read (summed) by telemetry. */
	uint64_t iterations;
	uint64_t busy_cycles; /* TSC in iterations that moved packets */
	uint64_t idle_cycles;
	uint64_t rx_packets;
	uint64_t sleeps;     /* adaptive: times it slept */
	uint64_t sleep_us;   /* adaptive: time asleep */
	uint64_t wakeups_rx; /* adaptive: sleeps ended by a kick / irq */
	struct vsw_fdb_wstats fdbst;
	struct vsw_port_ctrs ctrs[VSW_MAX_PORTS];
	struct vsw_rxq_ctrs rxq[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	/* Private to the worker. */
	uint64_t dirty; /* bit per port id with a non-empty txbuf */
	const struct vsw_dp *last_dp;
	uint64_t last_rx_tsc; /* adaptive: last time a packet came in */
	struct vsw_txbuf txb[VSW_MAX_PORTS];
} __rte_cache_aligned;

struct vsw_switch {
	struct vsw_config cfg; /* control; read-only after start-up */
	char file_prefix[64];
	struct rte_mempool *mp;
	struct vsw_fdb *fdb;
	struct rte_rcu_qsbr *qs;
	struct vsw_dp *dp; /* RCU: writer control, readers workers */
	unsigned int n_workers;
	struct vsw_worker *workers[VSW_MAX_WORKERS];
	bool quit;     /* writer: signal/main; readers: workers */
	bool stopping; /* under ctl_lock: commands refuse, pointers may dangle */
	uint32_t now_s; /* writer: main loop; readers: workers */
	int wake_fd;	/* eventfd the control loop sleeps on */
	/* test hook, from VSW_TEST_QS_DELAY_US at start: workers sleep this
	 * long after each quiescent report */
	unsigned int test_qs_delay_us;
	uint64_t start_tsc;
	/*
	 * Control state, all under ctl_lock (control loop and telemetry
	 * threads): the ports by id, who polls each rx queue, and the counter
	 * values at the last stats/clear (or port-add), which readers
	 * subtract, since only workers may write the counters themselves.
	 */
	pthread_mutex_t ctl_lock;
	struct vsw_port *ports[VSW_MAX_PORTS];
	int8_t rxq_owner[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	struct vsw_port_ctrs base[VSW_MAX_PORTS];
	struct vsw_rxq_ctrs rxq_base[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	uint64_t kicks[VSW_MAX_PORTS][VSW_MAX_QUEUES]; /* drained by control */
	/* counters control itself adds (frames drained from unpolled queues) */
	struct vsw_port_ctrs ctl_ctrs[VSW_MAX_PORTS];
	struct vsw_queue_info qbase[VSW_MAX_PORTS][VSW_MAX_QUEUES];
};

extern struct vsw_switch vsw;

/* dp.c: datapath table and grace periods (control thread, ctl_lock). */
void vsw_quiesce(void);
int vsw_dp_build(struct vsw_switch *sw, char *err, size_t errlen);
void vsw_dp_free(struct vsw_switch *sw);
int vsw_worker_of_lcore(const struct vsw_switch *sw, unsigned int lcore);

/* control.c: the operations behind the mutating commands (ctl_lock). */
int vsw_ctl_port_add(struct vsw_switch *sw, const char *name,
		     const char *kvlist, char *err, size_t errlen);
int vsw_ctl_port_set(struct vsw_switch *sw, const char *name,
		     const char *kvlist, char *err, size_t errlen);
int vsw_ctl_port_del(struct vsw_switch *sw, const char *name, char *err,
		     size_t errlen);
int vsw_ctl_rxq_move(struct vsw_switch *sw, const char *port, unsigned int q,
		     unsigned int worker, char *err, size_t errlen);
int vsw_ctl_rxq_rebalance(struct vsw_switch *sw, unsigned int *moved, char *err,
			  size_t errlen);
int vsw_ctl_set(struct vsw_switch *sw, const char *key, const char *value,
		char *err, size_t errlen);
void vsw_ctl_stats_clear(struct vsw_switch *sw);
struct vsw_port *vsw_ctl_port_by_name(const struct vsw_switch *sw,
				      const char *name);
void vsw_ctl_auto_rebalance(struct vsw_switch *sw, uint32_t now);
/* FDB timestamps are rewritten every fdb-aging-s / 60 seconds (>= 1). */
void vsw_ctl_fdb_refresh(struct vsw_switch *sw);
void vsw_ctl_poll_kicks(struct vsw_switch *sw);
/* What the port layer gets from the switch (mempool, hooks, settings). */
void vsw_port_env_fill(struct vsw_switch *sw, struct vsw_port_env *env);
/* Run the control loop now (any thread, never blocks). */
void vsw_wake_control(void);

/* worker.c */
int vsw_worker_main(void *arg);

/* ctl.c: telemetry commands. */
int vsw_ctl_register(void);
/* Sum of every worker's counters of @port, less the clear-time base. */
void vsw_port_ctrs_sum(const struct vsw_switch *sw, uint16_t port,
		       struct vsw_port_ctrs *out);
void vsw_rxq_ctrs_sum(const struct vsw_switch *sw, uint16_t port, uint16_t q,
		      struct vsw_rxq_ctrs *out);
/* The port's view of queue @q, its counters less the clear-time base. */
int vsw_queue_info(const struct vsw_switch *sw, struct vsw_port *p, uint16_t q,
		   struct vsw_queue_info *qi);

#endif /* VSW_SWITCH_H */
