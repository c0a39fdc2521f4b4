/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The datapath table: what control publishes and workers read through
 * one RCU pointer (struct vsw_rt table): the ports by id, the flood
 * list, each worker's rx queues, the worker parameters, the ports of
 * every VLAN and the ports' running captures.  Immutable
 * once published; built by control/table.c.
 *
 * The table rule (test 16_rcu_flush_interval): a worker may use a table from its load at
 * the top of an iteration through the *next* iteration, because frames it
 * buffered under a table are flushed through that same table at the top
 * of the iteration that first sees a newer one (so a removed port, or a
 * queue moved away, leaves nothing behind and a moved flow is not
 * reordered).  That next iteration may start after the report that ended
 * a grace period, so control waits TWO grace periods after publishing
 * before it frees the old table, destroys a port the new table no longer
 * holds, or hands a parked rx queue to its new worker (vsw_table_publish).
 */
#ifndef VSW_TABLE_H
#define VSW_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "capture.h"
#include "port/port.h"
#include "portsec.h"
#include "config/vsw_config.h"

#define VSW_MAX_WORKERS 64
_Static_assert(VSW_MAX_WORKERS <= VSW_CAPTURE_WORKERS,
	       "a capture counts per worker");
_Static_assert(VSW_MAX_PORTS <= 64, "dirty mask is 64 bits");
#define VSW_MAX_WORKER_RXQ 256

struct vsw_rxq_ref {
	uint16_t port;
	uint16_t q;
};

/* Worker parameters, published with the table (the `set` command). */
struct vsw_params {
	uint16_t burst;
	uint16_t tx_retries;
	enum vsw_poll_mode poll_mode;
	uint64_t hold_tsc;  /* tx-hold-us in TSC cycles; 0: drop at once */
	uint64_t flush_tsc; /* 0: flush at the end of every iteration */
	uint64_t idle_tsc;  /* adaptive: sleep after this long idle */
	uint32_t max_sleep_us;
	/* tx-flush-adaptive: a port flushes early while waiting for the
	 * interval gathers nothing (worker.c flush_due) */
	bool flush_adaptive;
	/* TSC cycles -> us for the iteration histogram (vsw_iter_us) */
	uint64_t iter_us_mul;
};

#define VSW_RXQ_UNASSIGNED (-1) /* control picks a worker on the next build */
#define VSW_RXQ_PARKED (-2)	/* polled by nobody (mid-move) */

/* Per-port settings the workers apply, copied from the port's config. */
struct vsw_table_port {
	uint32_t max_frame; /* mtu + 18: longest frame taken in or sent out */
	bool tx_chains;	    /* the port sends multi-segment mbufs */
	bool endpoints;	    /* the port has endpoints (port.h): the FDB
			     * learns each frame's, tx gets it in hash.usr */
	uint8_t n_allowed;  /* allowed source MACs; 0 = any */
	bool guard;	    /* allowed-macs or allowed-ips set */
	bool check_ips;	    /* allowed-ips set: apply sec */
	bool storm;	    /* a storm-*-pps limit set */
	uint64_t allowed[VSW_MAX_ALLOWED_MACS]; /* 48-bit MACs as in FDB keys */
	/* VLANs (used when the table's vlans is set; datapath/vlan.h) */
	bool access;	    /* tagged frames are dropped */
	uint16_t vid0;	    /* VLAN of untagged and priority-tagged frames */
	uint16_t untag_vid; /* VLAN sent untagged; VSW_NO_VID: none */
	/* by frame class: [0] unknown unicast, [1] broadcast, [2] multicast */
	struct vsw_table_storm storm_cls[3];
	struct vsw_portsec sec; /* allowed-ips */
	/* captures (capture.h): NULL when nobody captures, the one test a
	 * burst pays then */
	struct vsw_capture *cap_rx; /* what the port's rx returns */
	struct vsw_capture *cap_tx; /* what the port's tx takes */
};

#define VSW_NO_VID 0xffff
#define VSW_N_VIDS 4096

/* The datapath table: immutable once published. */
struct vsw_table {
	struct vsw_params par;
	/* frames up to this length fit every port: no per-output check */
	uint32_t fast_len;
	/* where TSO segments and checksum copies are allocated: the
	 * switch's mbufs (never a frame's own pool, which may be the 64 KiB
	 * big mbufs); NULL: the frame's pool (harnesses without one) */
	struct rte_mempool *seg_mp;
	struct vsw_port *ports[VSW_MAX_PORTS]; /* by id, NULL = free id */
	struct vsw_table_port pp[VSW_MAX_PORTS];
	uint16_t n_flood;
	uint16_t flood[VSW_MAX_PORTS]; /* every port id, in id order */
	/* some port has a VLAN setting: frames take the VLAN path */
	bool vlans;
	/* some port has endpoints: a flooded frame's hash.usr is zeroed */
	bool endpoints;
	uint64_t vlan_ports[VSW_N_VIDS]; /* VLAN -> bit per port carrying it */
	struct {
		uint16_t n;
		struct vsw_rxq_ref rxq[VSW_MAX_WORKER_RXQ];
	} wk[VSW_MAX_WORKERS];
};

/* Where a copy or segment of @m is allocated (the table's seg_mp). */
static inline struct rte_mempool *vsw_copy_pool(const struct vsw_table *t,
						const struct rte_mbuf *m)
{
	return t->seg_mp != NULL ? t->seg_mp : m->pool;
}

/* Where a copy of @m for outputs that send chains (@chains) or not is
 * made: vsw_copy_pool, one mbuf where it can be for outputs without
 * (vsw_pool_holding: a jumbo frame's copy in a big mbuf, where a chain
 * would be dropped as too_big). */
static inline struct rte_mempool *vsw_copy_pool_for(const struct vsw_table *t,
						    const struct rte_mbuf *m,
						    bool chains)
{
	struct rte_mempool *mp = vsw_copy_pool(t, m);

	return chains ? mp : vsw_pool_holding(mp, m);
}

/*
 * What a table is built from (table_build.c): plain data, no EAL.
 * @owner (in/out, [VSW_MAX_PORTS][VSW_MAX_QUEUES]): who polls each rx
 * queue, a worker index, VSW_RXQ_PARKED, or VSW_RXQ_UNASSIGNED, which the
 * build replaces with the worker it chose.
 */
struct vsw_table_src {
	const struct vsw_switch_conf *sw;
	struct vsw_port *const *ports; /* [VSW_MAX_PORTS], NULL: free id */
	int8_t (*owner)[VSW_MAX_QUEUES];
	const unsigned int *lcores; /* each worker's lcore */
	unsigned int n_workers;
	uint64_t hz;		/* the TSC's */
	uint32_t room;		/* an mbuf's data room after its headroom */
	struct rte_mempool *mp; /* the switch's mbufs (table's seg_mp) */
	/* [VSW_MAX_PORTS] the running captures by port; NULL: none at all */
	struct vsw_capture *const *caps;
};

/*
 * Fill @t (zeroed first) from @src: 0, or -errno with a message in @err
 * (a queue pinned to an lcore that is not a worker; too many queues on a
 * worker).  A pure function of @src, but for the owners it assigns.
 */
int vsw_table_build(const struct vsw_table_src *src, struct vsw_table *t,
		    char *err, size_t errlen);
/* The worker running on @lcore, or -1. */
int vsw_table_worker_of_lcore(const struct vsw_table_src *src,
			      unsigned int lcore);

#endif /* VSW_TABLE_H */
