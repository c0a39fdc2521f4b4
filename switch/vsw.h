/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch: its shared state, who writes each field, and how it is
 * published to the workers.
 *
 * Workers read `dp` (the datapath table: ports, flood list, each worker's
 * rx queues) through an RCU pointer and report a quiescent state once per
 * loop; control builds a new table, swaps the pointer and frees the old
 * one after rte_rcu_qsbr_synchronize.  Each worker's counters live in its
 * own cache-aligned struct vsw_worker and are summed by readers.
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
#define VSW_MAX_WORKER_RXQ 128

extern int vsw_logtype;
#define VSW_LOG(level, fmt, ...)                                              \
	rte_log(RTE_LOG_##level, vsw_logtype, "vsw: " fmt "\n", ##__VA_ARGS__)

struct vsw_rxq_ref {
	uint16_t port;
	uint16_t q;
};

/* The datapath table: immutable once published. */
struct vsw_dp {
	struct vsw_port *ports[VSW_MAX_PORTS]; /* by id, NULL = free id */
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
	struct rte_mbuf *pkts[VSW_BURST_MAX];
};

struct vsw_worker {
	unsigned int lcore;
	unsigned int idx;
	/* Written by this worker only; read (summed) by telemetry. */
	uint64_t iterations;
	uint64_t busy_cycles; /* TSC in iterations that moved packets */
	uint64_t idle_cycles;
	uint64_t rx_packets;
	struct vsw_fdb_wstats fdbst;
	struct vsw_port_ctrs ctrs[VSW_MAX_PORTS];
	/* Private to the worker. */
	uint64_t dirty; /* bit per port id with a non-empty txbuf */
	struct vsw_txbuf txb[VSW_MAX_PORTS];
} __rte_cache_aligned;

struct vsw_switch {
	struct vsw_config cfg;	/* control; read-only after start-up */
	char file_prefix[64];
	struct rte_mempool *mp;
	struct vsw_fdb *fdb;
	struct rte_rcu_qsbr *qs;
	struct vsw_dp *dp;	/* RCU: writer control, readers workers */
	unsigned int n_workers;
	struct vsw_worker *workers[VSW_MAX_WORKERS];
	bool quit;		/* writer: signal/main; readers: workers */
	uint32_t now_s;		/* writer: main loop; readers: workers */
	uint64_t start_tsc;
	uint16_t burst;
	uint16_t tx_retries;
	/* Serializes control operations and telemetry reads of `ports`. */
	pthread_mutex_t ctl_lock;
	struct vsw_port *ports[VSW_MAX_PORTS]; /* control's view, by id */
};

extern struct vsw_switch vsw;

/* dp.c: datapath table and grace periods (control thread). */
void vsw_quiesce(void);
int vsw_dp_build(struct vsw_switch *sw, char *err, size_t errlen);
void vsw_dp_free(struct vsw_switch *sw);

/* worker.c */
int vsw_worker_main(void *arg);

/* ctl.c: telemetry commands. */
int vsw_ctl_register(void);
void vsw_port_ctrs_sum(const struct vsw_switch *sw, uint16_t port,
		       struct vsw_port_ctrs *out);

#endif /* VSW_SWITCH_H */
