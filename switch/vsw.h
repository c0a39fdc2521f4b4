/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch: its shared state, who writes each field, and how it is
 * published to the workers.
 *
 * The switch is one struct vsw_switch (the global `vsw`): the datapath
 * table workers read through an RCU pointer (datapath/table.h, with the
 * rule for how long a table stays valid), each worker's own struct
 * (datapath/worker.h), and the control state that only ctl_lock holders
 * touch (control/control.h: the operations).
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

#include "common/log.h"
#include "datapath/fdb.h"
#include "port/port.h"
#include "datapath/stats.h"
#include "datapath/table.h"
#include "config/vsw_config.h"
#include "datapath/worker.h"

/* Rebalance state (control/rebalance.c, ctl_lock). */
struct vsw_rxq_load {
	uint16_t port, q;
	uint64_t cycles;
	int from, to; /* owner before, planned owner */
};

struct vsw_rebalance {
	/* per-queue counters at the last rebalance: loads are deltas */
	struct vsw_rxq_ctrs last[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	struct vsw_rxq_load load[VSW_MAX_PORTS * VSW_MAX_QUEUES];
	uint32_t last_check; /* automatic: when the loads were last compared */
	uint64_t prev_busy[VSW_MAX_WORKERS];
};

struct vsw_switch {
	struct vsw_config
		cfg; /* control; cfg.sw changes under ctl_lock (`set`) */
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
	struct vsw_rebalance rebal;
};

extern struct vsw_switch vsw;

#endif /* VSW_SWITCH_H */
