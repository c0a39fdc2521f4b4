/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The vhost-user datapath: dequeue from guest TX rings, enqueue to guest
 * RX rings (workers), and the control thread's drain of rings no worker
 * polls.  Workers take no lock of ours (LOCK ORDER in vhost.c).
 */
#include <rte_branch_prediction.h>

#include "vhost_priv.h"

/* the library takes at most this many packets per enqueue call */
#define VHOST_ENQ_MAX 32
#define DRAIN_BURST 32
#define DRAIN_CALLS 128

/* The queue pair a worker is enqueuing to, for guest_notified, and
 * whether the library called it (call-suppression off only). */
static __thread struct vsw_vhost_port *cur_port;
static __thread uint16_t cur_qp;
static __thread bool cur_called;

/* From inside rte_vhost_enqueue_burst, on the worker: one call sent. */
void vsw_vhost_guest_notified(int vid)
{
	(void)vid;
	if (cur_port != NULL) {
		__atomic_fetch_add(&cur_port->calls[cur_qp], 1,
				   __ATOMIC_RELAXED);
		cur_called = true;
	}
}

/* Worker: caller checked `up`; the vid stays valid until it quiesces. */
uint16_t vsw_vhost_rx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
		      uint16_t n)
{
	struct vsw_vhost_port *vp = vhost_cast(p);

	if (q >= __atomic_load_n(&vp->guest_qp, __ATOMIC_RELAXED))
		return 0;
	return rte_vhost_dequeue_burst(vp->vid, q * 2 + VIRTIO_TXQ, p->mp, pkts,
				       n);
}

/*
 * Worker: enqueue in calls of at most 32 packets (the library's cap,
 * test 24_big_flush) until one takes fewer than offered (ring full, or a frame
 * the guest's buffers cannot hold).  With few flushes per burst an
 * interrupt-driven guest gets about one call per batch.  The library
 * copies into guest buffers; we free what it took.  @force (constant
 * where inlined): call the guest after the burst if the library did not
 * (call-suppression off), through the relay (vhost_guard.c).
 */
static inline __attribute__((always_inline)) uint16_t
enqueue(struct vsw_vhost_port *vp, uint16_t q, struct rte_mbuf **pkts,
	uint16_t n, bool force)
{
	uint32_t en = __atomic_load_n(&vp->rx_enabled, __ATOMIC_ACQUIRE);
	uint16_t nr = __atomic_load_n(&vp->nr_qp, __ATOMIC_RELAXED);
	uint16_t qp = nr > 0 ? q % nr : 0, sent = 0, calls = 0, k;

	if (qp >= VSW_MAX_QUEUES || !(en & (1u << qp)))
		qp = 0;
	cur_port = vp;
	cur_qp = qp;
	if (force)
		cur_called = false;
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
	cur_port = NULL;
	if (force && sent > 0 && !cur_called) {
		vsw_call_relay_force(vp->call_relay, qp * 2 + VIRTIO_RXQ);
		__atomic_fetch_add(&vp->calls[qp], 1, __ATOMIC_RELAXED);
	}
	__atomic_fetch_add(&vp->enqueues[qp], calls, __ATOMIC_RELAXED);
	__atomic_fetch_add(&vp->enqueued[qp], sent, __ATOMIC_RELAXED);
	rte_pktmbuf_free_bulk(pkts, sent);
	return sent;
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
		for (int i = 0; i < DRAIN_CALLS; i++) {
			n = rte_vhost_dequeue_burst(vp->vid, q * 2 + VIRTIO_TXQ,
						    p->mp, pkts, DRAIN_BURST);
			rte_pktmbuf_free_bulk(pkts, n);
			total += n;
			if (n == 0)
				break;
		}
	}
	pthread_mutex_unlock(&vsw_vhost_reg_lock);
	return total;
}
