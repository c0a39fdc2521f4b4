/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A port's transmit buffer leaving (txbuf.h): the port's tx, the too_big
 * frames a guest without mergeable rx buffers refuses taken out, a full
 * ring retried tx-retries times, every packet counted as sent, held or
 * dropped; what the port took copied to its tx capture, if one runs.
 *
 * Holding (tx-hold-us).  A guest whose vCPU is descheduled for a moment
 * (an overcommitted host; two TCG guests on one CPU) leaves its rx ring
 * full for that moment, and a TCP stream that loses a 64 KiB TSO frame
 * there retransmits 44 segments and halves its window.  So what a full
 * ring refuses stays in the buffer, oldest first, and is offered again
 * at the port's next flush (the next iteration, or flush interval), as a
 * kernel's tap queue would keep it.  Bounds, so that a guest that never
 * drains costs little:
 *   - at most burst - 1 frames are held (the newest beyond are dropped),
 *     so an append always has room and a full buffer flushes at once;
 *   - a held buffer is offered once per flush, without tx-retries;
 *   - a port that takes nothing for tx-hold-us has what it holds
 *     dropped (tx_full) and is `stuck`: it holds nothing more until it
 *     takes a frame, so a dead guest costs one hold, not one per burst;
 *   - a frame left offloaded (a TSO frame whole, a checksum left) is
 *     dropped (port_down) when the peer reconnected since it was
 *     buffered (port.h conn_gen): the new guest may not take it; the
 *     plain frames beside it leave for the new guest;
 *   - at a table change a port keeps what it holds only if the next
 *     table has the same port at its id (a port deleted there, or its
 *     id given to another, holds nothing) and keeps every rx queue of
 *     this worker (else a moved flow's next frames, from another worker,
 *     could overtake the held ones); the worker's exit holds nothing.
 * The worker does not sleep (adaptive) while it holds frames: its dirty
 * mask is not empty.
 */
#include <string.h>

#include "common/debug.h"
#include "txbuf.h"

struct rte_mbuf *vsw_tx_linear(struct vsw_worker *w, const struct vsw_table *dp,
			       uint16_t out, struct rte_mbuf *m)
{
	struct rte_mempool *mp = vsw_copy_pool_for(dp, m, false);
	struct rte_mbuf *l;

	if (m->pkt_len > dp->pp[out].max_frame ||
	    m->pkt_len + RTE_PKTMBUF_HEADROOM > rte_pktmbuf_data_room_size(mp))
		return m;
	l = rte_pktmbuf_copy(m, mp, 0, UINT32_MAX);
	if (l == NULL) {
		drop_pkt(&w->ctrs[out], VSW_DROP_NO_MBUF, m);
		return NULL;
	}
	rte_pktmbuf_free(m);
	w->ctrs[out].tx_linearized++;
	return l;
}

void vsw_append_slow(struct vsw_worker *w, const struct vsw_table *dp,
		     uint16_t out, struct rte_mbuf *m, uint64_t now)
{
	if (m->ol_flags & VSW_OL_TX_MASK) {
		vsw_offload_out(w, dp, out, m, now);
		return;
	}
	if (m->nb_segs != 1 && !dp->pp[out].tx_chains &&
	    (m = vsw_tx_linear(w, dp, out, m)) == NULL)
		return;
	if (too_big_for(dp, out, m)) {
		drop_pkt(&w->ctrs[out], VSW_DROP_TOO_BIG, m);
		return;
	}
	vsw_append_plain(w, dp, out, m, now);
}

/* Take pkts[i] out of the batch (it is freed and counted by the caller). */
static void cut(struct rte_mbuf **pkts, uint16_t i, uint16_t n)
{
	memmove(&pkts[i], &pkts[i + 1], (size_t)(n - i - 1) * sizeof(*pkts));
}

/*
 * Send @n packets; returns how many the port took.  A guest without
 * mergeable rx buffers refuses a frame longer than its buffers and, in the
 * library, everything queued behind it (test 21_jumbo_flood): such a frame at the
 * head of what is left is dropped as too_big and the rest is tried again.
 * Otherwise a short send is a full ring, retried tx-retries times.
 */
static uint16_t send_batch(struct vsw_worker *w, struct vsw_port *p,
			   struct rte_mbuf **pkts, uint16_t *n,
			   struct vsw_port_ctrs *c, uint64_t *bytes,
			   uint16_t retries)
{
	uint16_t sent = p->ops->tx(p, (uint16_t)w->idx, pkts, *n);
	uint16_t r = 0;

	while (sent < *n) {
		struct rte_mbuf *m = pkts[sent];

		if (p->tx_refuses_big && m->pkt_len > VSW_SMALL_BUF_FRAME) {
			c->drops[VSW_DROP_TOO_BIG]++;
			*bytes -= m->pkt_len;
			cut(pkts, sent, *n);
			(*n)--;
			rte_pktmbuf_free(m);
		} else if (r++ >= retries) {
			break;
		}
		if (sent < *n)
			sent += p->ops->tx(p, (uint16_t)w->idx, pkts + sent,
					   *n - sent);
	}
	return sent;
}

/* One more reference on every segment of @m (a chain frees each). */
static void hold(struct rte_mbuf *m)
{
	for (; m != NULL; m = m->next)
		rte_mbuf_refcnt_update(m, 1);
}

/*
 * send_batch for a port whose tx is captured (capture.h): what the port
 * took is pkts[0..sent) once send_batch returns (frames it refused are
 * cut out or left at the end), so those are captured, after the tx: each
 * frame is held by one more reference until then, since a port frees
 * what it took.  Frames are only read, never changed, after the tx.
 */
static __attribute__((noinline)) uint16_t
send_captured(struct vsw_worker *w, const struct vsw_table *dp,
	      struct vsw_port *p, struct rte_mbuf **pkts, uint16_t *n,
	      struct vsw_port_ctrs *c, uint64_t *bytes, uint16_t retries)
{
	struct rte_mbuf *held[VSW_BURST_MAX];
	uint16_t n0 = *n, sent;

	memcpy(held, pkts, n0 * sizeof(*pkts));
	for (uint16_t i = 0; i < n0; i++)
		hold(held[i]);
	sent = send_batch(w, p, pkts, n, c, bytes, retries);
	vsw_capture_burst(dp->pp[p->id].cap_tx, w->idx, pkts, sent,
			  VSW_CAPTURE_TX);
	rte_pktmbuf_free_bulk(held, n0);
	return sent;
}

/*
 * What port @id refused, b->pkts[sent..n), at @now: held (moved to the
 * front of the buffer, which stays dirty) or dropped.  See the top.
 */
static __attribute__((noinline)) void
refused(struct vsw_worker *w, const struct vsw_table *dp, uint16_t id,
	uint16_t sent, uint16_t n, uint64_t now, bool final)
{
	struct vsw_txbuf *b = &w->txb[id];
	struct vsw_port_ctrs *c = &w->ctrs[id];
	uint16_t keep = 0;

	if (sent > 0)
		b->stuck = false;
	if (!final && !b->stuck && dp->par.hold_tsc != 0 && dp->par.burst > 1) {
		if (b->held_tsc == 0)
			c->tx_holds++;
		if (b->held_tsc == 0 || sent > 0)
			b->held_tsc = now;
		if (now - b->held_tsc < dp->par.hold_tsc)
			keep = RTE_MIN((uint16_t)(n - sent),
				       (uint16_t)(dp->par.burst - 1));
		else
			b->stuck = true;
	}
	c->drops[VSW_DROP_TX_FULL] += n - sent - keep;
	rte_pktmbuf_free_bulk(b->pkts + sent + keep, n - sent - keep);
	if (keep == 0) {
		b->held_tsc = 0;
		return;
	}
	memmove(b->pkts, b->pkts + sent, keep * sizeof(*b->pkts));
	b->n = keep;
	w->dirty |= 1ull << id;
}

/*
 * The peer of @b reconnected since a frame was left offloaded for it:
 * drop those frames (port_down), keep the plain ones in order for the
 * new guest, which starts afresh.  Returns how many stay.
 */
static __attribute__((noinline, cold)) uint16_t
drop_left(struct vsw_txbuf *b, uint16_t n, struct vsw_port_ctrs *c)
{
	uint16_t k = 0;

	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = b->pkts[i];

		if (m->ol_flags & (VSW_OL_TX_MASK | RTE_MBUF_F_TX_IP_CKSUM)) {
			c->drops[VSW_DROP_PORT_DOWN]++;
			rte_pktmbuf_free(m);
		} else {
			b->pkts[k++] = m;
		}
	}
	b->held_tsc = 0;
	b->stuck = false;
	b->ol = false;
	return k;
}

/*
 * tx-flush-adaptive (worker.c flush_due): a flush of @n frames from @b.
 * A wait that gathered no frame more is one more in a row (lone); the
 * VSW_FLUSH_LONE-th makes the port flush early.  A wait while it does
 * (a probe, after 2^probe flushes) that gathers nothing keeps it so and
 * doubles the flushes to the next probe, up to 2^VSW_FLUSH_PROBE_MAX, so
 * that probes cost a request/response flow less than one wait in a
 * thousand.  A wait that gathered frames, or frames held for a full ring
 * (batches help a guest that cannot keep up), ends it.
 */
static inline void flush_adapt(struct vsw_txbuf *b, uint16_t n)
{
	if (likely((b->wait_n | b->early) == 0))
		return;
	if (b->held_tsc != 0 || (b->wait_n != 0 && n > b->wait_n)) {
		b->lone = 0;
		b->early = 0;
	} else if (b->wait_n != 0 && b->early != 0) {
		b->early = 1;
		if (b->probe < VSW_FLUSH_PROBE_MAX)
			b->probe++;
	} else if (b->wait_n != 0) {
		if (++b->lone >= VSW_FLUSH_LONE) {
			b->early = 1;
			b->probe = VSW_FLUSH_PROBE_MIN;
		}
	} else if (b->early < 1u << b->probe) {
		b->early++;
	}
	b->wait_n = 0;
}

/* Hand a port's buffered packets to it (txbuf.h); @final: hold nothing. */
static inline void flush_port(struct vsw_worker *w, const struct vsw_table *dp,
			      uint16_t id, uint64_t now, bool final)
{
	struct vsw_txbuf *b = &w->txb[id];
	struct vsw_port_ctrs *c = &w->ctrs[id];
	struct vsw_port *p = dp->ports[id];
	uint16_t n = b->n, sent, retries;
	uint64_t bytes = 0;

	b->n = 0;
	w->dirty &= ~(1ull << id);
	if (n == 0)
		return;
	b->last_tsc = now;
	flush_adapt(b, n);
	if (p == NULL || !vsw_port_is_up(p)) {
		c->drops[VSW_DROP_PORT_DOWN] += n;
		rte_pktmbuf_free_bulk(b->pkts, n);
		b->held_tsc = 0;
		b->stuck = false; /* the next guest starts afresh */
		b->ol = false;
		return;
	}
	/* frames left offloaded for the peer's last connection (it
	 * reconnected meanwhile, perhaps without those offloads) */
	if (unlikely(b->ol) &&
	    __atomic_load_n(&p->conn_gen, __ATOMIC_RELAXED) != b->ol_gen &&
	    (n = drop_left(b, n, c)) == 0)
		return;
	c->tx_flushes++;
	c->flush_hist[vsw_flush_bucket(n)]++;
	for (uint16_t i = 0; i < n; i++) {
		VSW_CHECK_MBUF(b->pkts[i], "tx");
		bytes += b->pkts[i]->pkt_len;
	}
	/* a held buffer is offered once per flush */
	retries = likely(b->held_tsc == 0) ? dp->par.tx_retries : 0;
	/* the one test a flush pays when nobody captures */
	if (unlikely(dp->pp[id].cap_tx != NULL))
		sent = send_captured(w, dp, p, b->pkts, &n, c, &bytes, retries);
	else
		sent = send_batch(w, p, b->pkts, &n, c, &bytes, retries);
	if (unlikely(sent < n)) {
		for (uint16_t i = sent; i < n; i++)
			bytes -= b->pkts[i]->pkt_len;
		refused(w, dp, id, sent, n, now, final);
	} else if (unlikely(b->held_tsc != 0 || b->stuck)) {
		b->held_tsc = 0;
		b->stuck = false;
	}
	c->tx_packets += sent;
	c->tx_bytes += bytes;
	if (unlikely(b->ol) && b->n == 0) /* what stays keeps its mark */
		b->ol = false;
}

void vsw_flush_port(struct vsw_worker *w, const struct vsw_table *dp,
		    uint16_t id, uint64_t now)
{
	flush_port(w, dp, id, now, false);
}

void vsw_flush_port_switch(struct vsw_worker *w, const struct vsw_table *dp,
			   const struct vsw_table *next, uint16_t id,
			   uint64_t now)
{
	/* a port object lives as long as any table that names it: the same
	 * pointer in both tables is the same port */
	bool same = next != NULL && next->ports[id] != NULL &&
		    next->ports[id] == dp->ports[id];

	flush_port(w, dp, id, now, !same);
}
