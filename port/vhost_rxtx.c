/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The vhost-user datapath: dequeue from guest TX rings, enqueue to guest
 * RX rings (workers), and the control thread's drain of rings no worker
 * polls.  Workers take no lock of ours (LOCK ORDER in vhost.c).
 */
#include <rte_branch_prediction.h>
#include <rte_lcore.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "flow_hash.h"
#include "vhost_priv.h"

/* the library takes at most this many packets per enqueue call */
#define VHOST_ENQ_MAX 32
#define DRAIN_BURST 32
#define DRAIN_CALLS 128

/* The ring a thread is serving inside the library, for guest_notified:
 * its port (NULL: none), ring, whether it is a worker's enqueue (calls
 * counted per queue pair) or dequeue, or control's drain; and whether
 * the library called (call-suppression off only). */
struct call_ctx {
	struct vsw_vhost_port *vp;
	uint16_t ring;
	bool worker;
	bool rx;
	bool called;
};
static __thread struct call_ctx cur;

static inline void ctx_set(struct vsw_vhost_port *vp, uint16_t ring,
			   bool worker)
{
	cur.vp = vp;
	cur.ring = ring;
	cur.worker = worker;
	cur.rx = ring % 2 == VIRTIO_RXQ;
}

/* The ring's guest asked for a call: the library wrote the eventfd of
 * ours it holds (vhost_relay.c) and tells us, under that ring's lock. */
void vsw_vhost_guest_notified(int vid)
{
	struct vsw_vhost_port *vp = cur.vp;

	if (unlikely(vp == NULL)) {
		/* the library called outside our enqueue, dequeue and drain:
		 * not in 22.11; every ring of the port, through its relay */
		vp = vsw_vhost_port_of(vid);
		for (uint32_t r = 0; vp != NULL && r < VSW_CALL_RINGS; r++)
			vsw_vhost_call(vp, r, false);
		return;
	}
	if (cur.rx) {
		__atomic_fetch_add(&vp->calls[cur.ring / 2], 1,
				   __ATOMIC_RELAXED);
		cur.called = true;
	}
	vsw_vhost_call(vp, cur.ring, cur.worker);
}

/*
 * Worker: fewer than @n mbufs left in the big mbufs' pool @mp for this
 * lcore (its cache and the pool's common ring, which the switch created
 * with the ring_mp_mc ops; other lcores' caches are not counted), so that
 * the library's allocation of a burst fails.  Only after a dequeue that
 * gave nothing: an empty ring costs one compare while the cache is full.
 */
static bool pool_short(struct rte_mempool *mp, uint16_t n)
{
	struct rte_mempool_cache *c =
		rte_mempool_default_cache(mp, rte_lcore_id());
	unsigned int have = c != NULL ? c->len : 0;

	return have < n &&
	       have + rte_ring_count((const struct rte_ring *)mp->pool_data) <
		       n;
}

/*
 * Worker: caller checked `up`; the vid stays valid until it quiesces.
 * A guest that sends TSO frames has them copied into big mbufs (rx_mp,
 * new_device); when those run short (frames held in ethdev tx rings, or
 * more workers' caches than the pool holds) the burst comes in the
 * switch's mbufs, chained or in external buffers, and is counted.
 */
uint16_t vsw_vhost_rx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
		      uint16_t n)
{
	struct vsw_vhost_port *vp = vhost_cast(p);
	struct rte_mempool *mp = __atomic_load_n(&vp->rx_mp, __ATOMIC_RELAXED);
	uint16_t ring = q * 2 + VIRTIO_TXQ, k;

	if (q >= __atomic_load_n(&vp->guest_qp, __ATOMIC_RELAXED))
		return 0;
	ctx_set(vp, ring, true);
	k = rte_vhost_dequeue_burst(vp->vid, ring, mp, pkts, n);
	if (unlikely(mp != p->mp)) {
		if (k > 0) {
			__atomic_fetch_add(&vp->big_bursts[q], 1,
					   __ATOMIC_RELAXED);
		} else if (pool_short(mp, n)) {
			k = rte_vhost_dequeue_burst(vp->vid, ring, p->mp, pkts,
						    n);
			if (k > 0)
				__atomic_fetch_add(&vp->big_short[q], 1,
						   __ATOMIC_RELAXED);
		}
	}
	cur.vp = NULL;
	return k;
}

/*
 * Worker: enqueue on queue pair @qp in calls of at most 32 packets (the
 * library's cap, test 24_big_flush) until one takes fewer than offered
 * (ring full, or a frame the guest's buffers cannot hold).  With few
 * flushes per burst an interrupt-driven guest gets about one call per
 * batch.  The library copies into guest buffers; we free what it took.
 * @force (constant where inlined): call the guest after the burst if the
 * library did not (call-suppression off), through the relay
 * (vhost_guard.c).
 */
static inline __attribute__((always_inline)) uint16_t
enqueue_pair(struct vsw_vhost_port *vp, uint16_t qp, struct rte_mbuf **pkts,
	     uint16_t n, bool force)
{
	uint16_t sent = 0, calls = 0, k;

	ctx_set(vp, qp * 2 + VIRTIO_RXQ, true);
	if (force)
		cur.called = false;
	do {
		uint16_t chunk =
			n - sent < VHOST_ENQ_MAX ? n - sent : VHOST_ENQ_MAX;

		k = rte_vhost_enqueue_burst(vp->vid, qp * 2 + VIRTIO_RXQ,
					    pkts + sent, chunk);
		sent += k;
		calls++;
		if (k < chunk)
			break;
	} while (sent < n);
	cur.vp = NULL;
	if (force && sent > 0 && !cur.called) {
		/* outside the ring's lock: through the relay */
		vsw_vhost_call(vp, qp * 2 + VIRTIO_RXQ, false);
		__atomic_fetch_add(&vp->calls[qp], 1, __ATOMIC_RELAXED);
	}
	__atomic_fetch_add(&vp->enqueues[qp], calls, __ATOMIC_RELAXED);
	__atomic_fetch_add(&vp->enqueued[qp], sent, __ATOMIC_RELAXED);
	rte_pktmbuf_free_bulk(pkts, sent);
	return sent;
}

/*
 * Worker: the guest has more rx queues in use than the switch has
 * workers, and worker @q feeds @c of them (vhost_tx_spread): each frame
 * goes to the one its flow hashes to (flow_hash.h), so a flow stays in
 * order on one queue and a multiqueue guest's vCPUs share its receiving.
 * As enqueue_pair, pkts[0..sent) are the frames taken when it returns and
 * the rest follow, in their order per queue; a queue's that stopped at a
 * frame its guest's buffers cannot hold come first, so that send_batch
 * (txbuf.c) finds that frame at pkts[sent].  Out of line: a guest with
 * no more queues than workers never comes here.
 */
static __attribute__((noinline)) uint16_t
enqueue_spread(struct vsw_vhost_port *vp, uint16_t q, struct rte_mbuf **pkts,
	       uint16_t n, bool force, uint16_t c)
{
	struct rte_mbuf *by[VSW_BURST_MAX];
	uint16_t at[VSW_MAX_QUEUES + 1] = {0}, took[VSW_MAX_QUEUES];
	uint8_t to[VSW_BURST_MAX];
	uint16_t nw = (uint16_t)vp->n_workers, sent = 0, k = 0;
	uint8_t mixed = 0;

	if (n == 0)
		return 0;
	if (n > VSW_BURST_MAX) /* never: a tx buffer holds no more */
		n = VSW_BURST_MAX;
	for (uint16_t i = 0; i < n; i++) {
		uint32_t h = vsw_flow_hash(rte_pktmbuf_mtod(pkts[i], uint8_t *),
					   pkts[i]->data_len, vp->flow_key);

		to[i] = (uint8_t)(((uint64_t)h * c) >> 32);
		mixed |= to[i] ^ to[0];
	}
	if (!mixed) /* one flow, or flows of one queue: as they are */
		return enqueue_pair(vp, (uint16_t)(q + to[0] * nw), pkts, n,
				    force);
	for (uint16_t i = 0; i < n; i++)
		at[to[i] + 1]++;
	for (uint16_t g = 0; g < c; g++)
		at[g + 1] += at[g];
	for (uint16_t i = 0; i < n; i++) /* stable: a flow keeps its order */
		by[at[to[i]]++] = pkts[i];
	for (uint16_t g = c; g > 0; g--) /* back to each group's start */
		at[g] = at[g - 1];
	at[0] = 0;
	for (uint16_t g = 0; g < c; g++) {
		uint16_t len = at[g + 1] - at[g];

		took[g] = len > 0 ? enqueue_pair(vp, (uint16_t)(q + g * nw),
						 by + at[g], len, force)
				  : 0;
		sent += took[g];
	}
	/* taken (freed, still read by a capture that holds them), then the
	 * groups that stopped at a frame too long for the guest's buffers,
	 * then the rest */
	for (uint16_t g = 0; g < c; g++)
		for (uint16_t i = 0; i < took[g]; i++)
			pkts[k++] = by[at[g] + i];
	for (int pass = 0; pass < 2; pass++)
		for (uint16_t g = 0; g < c; g++) {
			uint16_t i = at[g] + took[g];
			bool big = i < at[g + 1] &&
				   by[i]->pkt_len > VSW_SMALL_BUF_FRAME;

			if (big != (pass == 0))
				continue;
			for (; i < at[g + 1]; i++)
				pkts[k++] = by[i];
		}
	return sent;
}

/* Worker: tx queue @q's frames into the guest's rx queue(s). */
static inline __attribute__((always_inline)) uint16_t
enqueue(struct vsw_vhost_port *vp, uint16_t q, struct rte_mbuf **pkts,
	uint16_t n, bool force)
{
	uint32_t en = __atomic_load_n(&vp->rx_enabled, __ATOMIC_ACQUIRE);
	uint16_t nr = __atomic_load_n(&vp->nr_qp, __ATOMIC_RELAXED);

	if (unlikely(nr > vp->n_workers) &&
	    __atomic_load_n(&vp->rx_spread, __ATOMIC_RELAXED)) {
		uint16_t c = vhost_tx_spread(q, nr, en, vp->n_workers);

		if (c > 1)
			return enqueue_spread(vp, q, pkts, n, force, c);
	}
	return enqueue_pair(vp, vhost_tx_pair(q, nr, en), pkts, n, force);
}

/* Worker: one predictable branch per burst for call-suppression. */
uint16_t vsw_vhost_tx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
		      uint16_t n)
{
	struct vsw_vhost_port *vp = vhost_cast(p);

	if (unlikely(__atomic_load_n(&vp->calls_forced, __ATOMIC_RELAXED)))
		return enqueue(vp, q, pkts, n, true);
	return enqueue(vp, q, pkts, n, false);
}

/* Control: frames on guest TX rings no worker polls, dropped and counted.
 * No worker touches these rings, so the control thread may dequeue. */
uint64_t vsw_vhost_drain_unpolled(struct vsw_port *p, uint16_t from)
{
	struct vsw_vhost_port *vp = vhost_cast(p);
	struct rte_mbuf *pkts[DRAIN_BURST];
	uint64_t total = 0;
	uint16_t n;

	pthread_mutex_lock(&vsw_vhost_reg_lock);
	for (uint16_t q = from; vp->vid >= 0 && q < vp->guest_qp; q++) {
		/* the library hands out 32 at most per call; a bounded number
		 * of calls empties a 4096-entry ring without stalling control */
		ctx_set(vp, q * 2 + VIRTIO_TXQ, false);
		for (int i = 0; i < DRAIN_CALLS; i++) {
			n = rte_vhost_dequeue_burst(vp->vid, q * 2 + VIRTIO_TXQ,
						    p->mp, pkts, DRAIN_BURST);
			rte_pktmbuf_free_bulk(pkts, n);
			total += n;
			if (n == 0)
				break;
		}
	}
	cur.vp = NULL;
	pthread_mutex_unlock(&vsw_vhost_reg_lock);
	return total;
}
