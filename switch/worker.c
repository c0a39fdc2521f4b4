/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The worker: a run-to-completion loop pinned to one lcore.
 *
 * Each iteration loads the datapath table, polls every (port, queue) it
 * owns, forwards each burst (parse, learn, bulk lookup, append to the
 * output ports' tx buffers), flushes every buffer it filled (the "bottom
 * half": one tx call per port per iteration, or earlier when a buffer holds
 * a full burst), and reports a quiescent state.  It allocates nothing,
 * logs nothing and takes no lock; every packet it receives is counted as
 * forwarded or dropped by reason.
 */
#include <rte_cycles.h>
#include <rte_prefetch.h>

#include "frame.h"
#include "vsw.h"

#define DROPPED 0xff
#define PREFETCH_AHEAD 4

static inline void drop_pkt(struct vsw_port_ctrs *c, enum vsw_drop_reason r,
			    struct rte_mbuf *m)
{
	c->drops[r]++;
	rte_pktmbuf_free(m);
}

/* Hand a port's buffered packets to it; what it refuses is dropped. */
static void flush_port(struct vsw_worker *w, const struct vsw_dp *dp,
		       uint16_t id)
{
	struct vsw_txbuf *b = &w->txb[id];
	struct vsw_port_ctrs *c = &w->ctrs[id];
	struct vsw_port *p = dp->ports[id];
	uint16_t n = b->n, sent = 0;
	uint64_t bytes = 0;

	b->n = 0;
	if (n == 0)
		return;
	if (p == NULL || !vsw_port_is_up(p)) {
		c->drops[VSW_DROP_PORT_DOWN] += n;
		rte_pktmbuf_free_bulk(b->pkts, n);
		return;
	}
	for (uint16_t i = 0; i < n; i++)
		bytes += b->pkts[i]->pkt_len;
	sent = p->ops->tx(p, (uint16_t)w->idx, b->pkts, n);
	for (uint16_t r = 0; sent < n && r < vsw.tx_retries; r++)
		sent += p->ops->tx(p, (uint16_t)w->idx, b->pkts + sent,
				   n - sent);
	c->tx_flushes++;
	if (sent < n) {
		for (uint16_t i = sent; i < n; i++)
			bytes -= b->pkts[i]->pkt_len;
		c->drops[VSW_DROP_TX_FULL] += n - sent;
		rte_pktmbuf_free_bulk(b->pkts + sent, n - sent);
	}
	c->tx_packets += sent;
	c->tx_bytes += bytes;
}

static inline void append(struct vsw_worker *w, const struct vsw_dp *dp,
			  uint16_t out, struct rte_mbuf *m)
{
	struct vsw_txbuf *b = &w->txb[out];

	w->dirty |= 1ull << out;
	b->pkts[b->n++] = m;
	if (b->n >= vsw.burst)
		flush_port(w, dp, out); /* stays dirty; empty is fine */
}

/* Flood @m to every up port but @in: one reference per copy. */
static void flood(struct vsw_worker *w, const struct vsw_dp *dp, uint16_t in,
		  struct rte_mbuf *m)
{
	uint16_t outs[VSW_MAX_PORTS], k = 0;

	for (uint16_t i = 0; i < dp->n_flood; i++) {
		uint16_t id = dp->flood[i];

		if (id != in && vsw_port_is_up(dp->ports[id]))
			outs[k++] = id;
	}
	if (k == 0) {
		drop_pkt(&w->ctrs[in], VSW_DROP_NO_PORT, m);
		return;
	}
	w->ctrs[in].flooded++;
	if (k > 1)
		rte_mbuf_refcnt_update(m, (int16_t)(k - 1));
	for (uint16_t i = 0; i < k; i++)
		append(w, dp, outs[i], m);
}

/*
 * Forward one received burst.  This is the per-packet hot path, kept in one
 * function so that the three passes (parse+learn, bulk lookup, output) share
 * their arrays on the stack: first classify every packet and learn its
 * source (skipping repeats of the previous source), then look up all
 * unicast destinations in one bulk call, then append each packet to its
 * output buffer(s).
 */
static void forward_burst(struct vsw_worker *w, const struct vsw_dp *dp,
			  uint16_t in, struct rte_mbuf **pkts, uint16_t n,
			  uint32_t now)
{
	struct vsw_port_ctrs *ic = &w->ctrs[in];
	uint64_t keys[VSW_BURST_MAX], vals[VSW_BURST_MAX];
	uint8_t cls[VSW_BURST_MAX], uidx[VSW_BURST_MAX];
	uint64_t last_src = 0;
	unsigned int nu = 0;
	struct vsw_frame f;

	for (uint16_t i = 0; i < n && i < PREFETCH_AHEAD; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	ic->rx_packets += n;
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (i + PREFETCH_AHEAD < n)
			rte_prefetch0(rte_pktmbuf_mtod(
				pkts[i + PREFETCH_AHEAD], void *));
		ic->rx_bytes += m->pkt_len;
		cls[i] = (uint8_t)vsw_frame_parse(
			rte_pktmbuf_mtod(m, const uint8_t *), m->data_len, &f);
		if (cls[i] >= VSW_FRAME_RUNT) {
			drop_pkt(ic, cls[i] == VSW_FRAME_RUNT
					     ? VSW_DROP_RUNT
					     : VSW_DROP_SRC_MULTICAST,
				 m);
			cls[i] = DROPPED;
			continue;
		}
		if (f.src_key != last_src) {
			vsw_fdb_learn(vsw.fdb, f.src_key, in, now, &w->fdbst);
			last_src = f.src_key;
		}
		if (cls[i] == VSW_FRAME_UNICAST) {
			uidx[i] = (uint8_t)nu;
			keys[nu++] = f.dst_key;
		}
	}
	if (nu > 0)
		vsw_fdb_lookup_bulk(vsw.fdb, keys, nu, vals);
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint16_t out;

		if (cls[i] == DROPPED)
			continue;
		if (cls[i] != VSW_FRAME_UNICAST || vals[uidx[i]] == 0) {
			flood(w, dp, in, m);
			continue;
		}
		out = vsw_fdb_val_port(vals[uidx[i]]);
		if (out == in) {
			drop_pkt(ic, VSW_DROP_HAIRPIN, m);
		} else if (out >= VSW_MAX_PORTS || dp->ports[out] == NULL) {
			flood(w, dp, in, m); /* stale entry of a removed port */
		} else {
			ic->unicast++;
			append(w, dp, out, m);
		}
	}
}

static void flush_all(struct vsw_worker *w, const struct vsw_dp *dp)
{
	uint64_t d = w->dirty;

	w->dirty = 0;
	while (d != 0) {
		flush_port(w, dp, (uint16_t)__builtin_ctzll(d));
		d &= d - 1;
	}
}

/* One pass over the worker's rx queues; returns packets received. */
static uint32_t poll_once(struct vsw_worker *w, const struct vsw_dp *dp,
			  uint32_t now)
{
	struct rte_mbuf *pkts[VSW_BURST_MAX];
	uint32_t total = 0;

	for (uint16_t i = 0; i < dp->wk[w->idx].n; i++) {
		const struct vsw_rxq_ref *r = &dp->wk[w->idx].rxq[i];
		struct vsw_port *p = dp->ports[r->port];
		uint16_t n;

		if (p == NULL || !vsw_port_is_up(p))
			continue;
		n = p->ops->rx(p, r->q, pkts, vsw.burst);
		if (n == 0)
			continue;
		forward_burst(w, dp, r->port, pkts, n, now);
		total += n;
	}
	flush_all(w, dp);
	return total;
}

int vsw_worker_main(void *arg)
{
	struct vsw_worker *w = arg;
	uint64_t t0, t1;

	rte_rcu_qsbr_thread_register(vsw.qs, w->lcore);
	rte_rcu_qsbr_thread_online(vsw.qs, w->lcore);
	VSW_LOG(INFO, "worker %u running on lcore %u", w->idx, w->lcore);
	t0 = rte_rdtsc();
	while (!__atomic_load_n(&vsw.quit, __ATOMIC_RELAXED)) {
		const struct vsw_dp *dp =
			__atomic_load_n(&vsw.dp, __ATOMIC_ACQUIRE);
		uint32_t n = poll_once(w, dp, vsw.now_s);

		t1 = rte_rdtsc();
		if (n > 0) {
			w->busy_cycles += t1 - t0;
			w->rx_packets += n;
		} else {
			w->idle_cycles += t1 - t0;
		}
		t0 = t1;
		w->iterations++;
		rte_rcu_qsbr_quiescent(vsw.qs, w->lcore);
	}
	rte_rcu_qsbr_thread_offline(vsw.qs, w->lcore);
	rte_rcu_qsbr_thread_unregister(vsw.qs, w->lcore);
	return 0;
}
