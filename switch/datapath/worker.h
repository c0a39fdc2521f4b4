/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A worker: its counters (written by it alone, summed by readers in
 * control/counters.c) and its private transmit buffers.  The loop is
 * worker.c.
 */
#ifndef VSW_WORKER_H
#define VSW_WORKER_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_rcu_qsbr.h>

#include "fdb.h"
#include "portsec.h"
#include "stats.h"
#include "table.h"
#include "config/vsw_iter_hist.h"

/*
 * tx-flush-adaptive: after VSW_FLUSH_LONE waits for the interval in a
 * row that gathered no frame more, a port flushes at the end of every
 * iteration, and waits again after 2^VSW_FLUSH_PROBE_MIN flushes to see
 * whether waiting gathers frames now; each such wait that gathers
 * nothing doubles the flushes to the next, up to 2^VSW_FLUSH_PROBE_MAX
 * (worker.c flush_due, txbuf.c flush_adapt).
 */
#define VSW_FLUSH_LONE 8
#define VSW_FLUSH_PROBE_MIN 4
#define VSW_FLUSH_PROBE_MAX 10

/* Packets waiting to leave by one port (worker-private). */
struct vsw_txbuf {
	uint16_t n;
	/* the port's hold ran out and it has taken nothing since: what it
	 * refuses is dropped at once (txbuf.c) */
	bool stuck;
	/* a frame left offloaded (given whole, or its checksum left) waits
	 * here, decided for the port's connection ol_gen (port.h conn_gen;
	 * all wait for the oldest such) */
	bool ol;
	uint32_t ol_gen;
	/* tx-flush-adaptive (worker.c flush_due): the frames the buffer
	 * had when it first had to wait for the interval (0: it has not
	 * waited); waits in a row that gathered nothing more (up to
	 * VSW_FLUSH_LONE); not 0: the port flushes early, this many
	 * flushes since its last wait, and waits again at 2^probe */
	uint16_t wait_n;
	uint8_t lone;
	uint8_t probe;
	uint16_t early;
	/* when the port last flushed: a partial buffer waits until
	 * tx-flush-interval-us has passed since (a quiet port's at once; an
	 * interval set shorter applies at once too) */
	uint64_t last_tsc;
	/* frames are held (tx-hold-us) since the port last took one at
	 * this TSC; 0: none held */
	uint64_t held_tsc;
	struct rte_mbuf *pkts[VSW_BURST_MAX];
};

/* Per (port, rx queue) cost as seen by the worker polling it. */
struct vsw_rxq_ctrs {
	uint64_t packets;
	uint64_t cycles; /* TSC spent receiving and forwarding its bursts */
	uint64_t kicks;	 /* guest kicks drained after an adaptive sleep */
};

struct vsw_worker;

/*
 * The workers' runtime: what every worker reads, set up by the switch's
 * life cycle (switch/switch.c) and handed to each worker (w->rt); control
 * publishes tables and advances the clock through it.  Nothing here is
 * control's state.
 */
struct vsw_rt {
	struct rte_rcu_qsbr *qs; /* workers report a quiescent state per loop */
	/* RCU (the table rule in table.h): writer control, readers workers */
	struct vsw_table *table;
	struct vsw_fdb *fdb;	/* learned into and looked up by workers */
	struct rte_mempool *mp; /* the switch's mbufs */
	/* 64 KiB mbufs for the frames of guests that send TSO frames (vhost
	 * rx, port/vhost_rxtx.c); NULL: none (big-mbufs = 0, no port with
	 * offloads, or no memory for it) */
	struct rte_mempool *big_mp;
	/* test hook VSW_TEST_BIG_MBUFS_HOLD: mbufs taken out of big_mp at
	 * start and held until the end, so that it runs short */
	struct rte_mbuf **big_held;
	unsigned int n_big_held;
	uint32_t now_s; /* writer: control loop; readers: workers */
	bool quit;	/* writer: signal, shutdown; readers: all */
	/* test hook (VSW_TEST_QS_DELAY_US): workers sleep this long around
	 * each quiescent report */
	unsigned int test_qs_delay_us;
	/* bumped by control at each stats/clear (control/counters.c);
	 * workers compare it once per iteration (beside quit: same line) */
	uint32_t clear_gen;
	unsigned int n_workers;
	struct vsw_worker *workers[VSW_MAX_WORKERS];
};

struct vsw_worker {
	unsigned int lcore;
	unsigned int idx;
	struct vsw_rt *rt; /* the runtime it runs in (set before launch) */
	/* Written by this worker only; read (summed) by telemetry. */
	uint64_t iterations;
	uint64_t busy_cycles; /* TSC in iterations that moved packets */
	uint64_t idle_cycles;
	/* Iteration lengths (config/vsw_iter_hist.h), beside the counters
	 * every iteration writes: the longest since the last clear (TSC;
	 * reset by this worker, see clear_seen) and the count per bucket
	 * since start (readers subtract iter_base). */
	uint64_t iter_max;
	uint64_t iter_hist[VSW_ITER_BUCKETS];
	uint64_t rx_packets;
	uint64_t sleeps;     /* adaptive: times it slept */
	uint64_t sleep_us;   /* adaptive: time asleep */
	uint64_t wakeups_rx; /* adaptive: sleeps ended by a kick / irq */
	struct vsw_fdb_wstats fdbst;
	struct vsw_port_ctrs ctrs[VSW_MAX_PORTS];
	struct vsw_rxq_ctrs rxq[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	/*
	 * The last clear as this worker applied it: at the top of the first
	 * iteration that sees rt->clear_gen change, it copies iter_hist and
	 * busy + idle cycles here, zeroes iter_max, then release-stores
	 * clear_seen.  Written by this worker; read by telemetry, which
	 * reports nothing while clear_seen != rt->clear_gen (the worker has
	 * not finished an iteration since the clear: it may be asleep).
	 */
	uint64_t iter_base[VSW_ITER_BUCKETS];
	uint64_t iter_cycles_base;
	uint32_t clear_seen;
	/* Private to the worker. */
	struct vsw_fdb *fdb; /* the FDB it learns into and looks up */
	uint64_t fake_tsc;   /* test only: not 0, the worker's clock */
	uint64_t dirty;	     /* bit per port id with a non-empty txbuf */
	const struct vsw_table *last_dp;
	uint64_t last_rx_tsc; /* adaptive: last time a packet came in */
	struct vsw_txbuf txb[VSW_MAX_PORTS];
	/* storm control: this worker's share of each port's limits */
	struct vsw_storm_bucket storm[VSW_MAX_PORTS][3];
} __rte_cache_aligned;

/* The worker loop (lcore entry point; @arg: its struct vsw_worker). */
int vsw_worker_main(void *arg);
/*
 * The forwarding code without the loop, EAL or RCU (the unit test drives
 * it with a fake port kind): one pass over @w's rx queues in @dp, learning
 * into and looking up @fdb (which becomes w->fdb) at @now_s, then the
 * flush policy (every buffer when flush_tsc is 0).  Returns the packets
 * received.
 */
uint32_t vsw_worker_poll(struct vsw_worker *w, const struct vsw_table *dp,
			 struct vsw_fdb *fdb, uint32_t now_s);
/* Flush @w's buffers through @dp: all, or those due at TSC @now.
 * _switch: every one, as when the worker moves to table @next (NULL: at
 * its exit), holding only for the ports @next has at the same id. */
void vsw_worker_flush(struct vsw_worker *w, const struct vsw_table *dp,
		      uint64_t now, bool all);
void vsw_worker_flush_switch(struct vsw_worker *w, const struct vsw_table *dp,
			     const struct vsw_table *next, uint64_t now);

#endif /* VSW_WORKER_H */
