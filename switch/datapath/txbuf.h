/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A worker's output side: each port's private transmit buffer, what a
 * copy must be to enter it (append) and how a buffer leaves (flush,
 * txbuf.c).  A copy for an output whose mtu, guest buffers or lack of
 * chained-mbuf support cannot take it is dropped for that output alone
 * (too_big), never truncated and never blocking the frames queued behind
 * it (a chain that one mbuf holds goes to an output without chains as a
 * copy in one, vsw_tx_linear); an offloaded frame (a TSO frame or a
 * checksum left to fill, marked at ingress by offload.c) goes whole,
 * filled in or cut into segments as the output needs (vsw_offload_out).
 */
#ifndef VSW_TXBUF_H
#define VSW_TXBUF_H

#include <rte_branch_prediction.h>
#include <rte_mbuf.h>

#include "offload.h"
#include "table.h"
#include "worker.h"

static inline void drop_pkt(struct vsw_port_ctrs *c, enum vsw_drop_reason r,
			    struct rte_mbuf *m)
{
	c->drops[r]++;
	rte_pktmbuf_free(m);
}

/*
 * Hand port @id's buffered packets to it at TSC @now; what it refuses is
 * held for a later flush (tx-hold-us, txbuf.c) or dropped.  Its next
 * partial flush waits until the interval has passed.  _switch: the last
 * flush through @dp before the worker moves to table @next (NULL: it
 * exits); something is held only for a port @next has at the same id.
 */
void vsw_flush_port(struct vsw_worker *w, const struct vsw_table *dp,
		    uint16_t id, uint64_t now);
void vsw_flush_port_switch(struct vsw_worker *w, const struct vsw_table *dp,
			   const struct vsw_table *next, uint16_t id,
			   uint64_t now);

/* A copy @out cannot take whole: longer than its frames, or chained. */
static inline bool too_big_for(const struct vsw_table *dp, uint16_t out,
			       const struct rte_mbuf *m)
{
	return m->pkt_len > dp->pp[out].max_frame ||
	       (m->nb_segs > 1 && !dp->pp[out].tx_chains);
}

/* Buffer @m (checked) for @out; a full burst leaves at once. */
static inline void vsw_append_plain(struct vsw_worker *w,
				    const struct vsw_table *dp, uint16_t out,
				    struct rte_mbuf *m, uint64_t now)
{
	struct vsw_txbuf *b = &w->txb[out];

	if (b->n == 0)
		w->dirty |= 1ull << out;
	b->pkts[b->n++] = m;
	if (b->n >= dp->par.burst)
		vsw_flush_port(w, dp, out, now);
}

/*
 * append()'s way for a frame that may not fit @out as it is: an
 * offloaded one (vsw_offload_out), a chain, or one longer than fast_len.
 * A chain for an output without chained tx is copied into one mbuf when
 * one holds it (vsw_tx_linear); what still does not fit is dropped as
 * too_big.  Out of line: the common frame never comes here.
 */
void vsw_append_slow(struct vsw_worker *w, const struct vsw_table *dp,
		     uint16_t out, struct rte_mbuf *m, uint64_t now);
/*
 * @m (one reference), a chain, for @out, which sends none: a copy in one
 * mbuf when one holds it (the switch's, else @m's own pool's: a big
 * mbuf), @m's reference given back; @m itself when none does (the
 * caller drops it as too_big); NULL when no mbuf was left (no_mbuf, @m
 * freed).  A chain shorter than an mbuf comes from a PMD that cut it (a
 * memif of smaller buffers, a virtio device's mergeable buffers) or from
 * a vxlan frame's decapsulation.
 */
struct rte_mbuf *vsw_tx_linear(struct vsw_worker *w, const struct vsw_table *dp,
			       uint16_t out, struct rte_mbuf *m);

/* Give @m (one reference) to @out. */
static inline void append(struct vsw_worker *w, const struct vsw_table *dp,
			  uint16_t out, struct rte_mbuf *m, uint64_t now)
{
	if (unlikely(m->pkt_len > dp->fast_len || m->nb_segs != 1 ||
		     (m->ol_flags & VSW_OL_TX_MASK) != 0))
		vsw_append_slow(w, dp, out, m, now);
	else
		vsw_append_plain(w, dp, out, m, now);
}

#endif /* VSW_TXBUF_H */
