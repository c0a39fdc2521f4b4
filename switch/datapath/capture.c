/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet capture in the worker (capture.h): filter, copy, enqueue.  Runs
 * only for a port that is captured; its cost is the capture's, never the
 * other ports'.  The trade-off: the filter runs in the worker (frames it
 * refuses cost no copy and no ring slot, so a narrow filter on a busy
 * port keeps up), run by librte_bpf's interpreter (rte_bpf_exec_burst, as
 * DPDK's pdump runs its filters) over each mbuf, chains included.
 */
#include <rte_bpf.h>
#include <rte_cycles.h>

#include "capture.h"
#include "config/vsw_config.h"

void vsw_capture_burst(struct vsw_capture *c, unsigned int widx,
		       struct rte_mbuf *const *pkts, uint16_t n, uint8_t dir)
{
	struct vsw_capture_wctrs *k = &c->w[widx % VSW_CAPTURE_WORKERS];
	struct rte_mbuf *copies[VSW_BURST_MAX];
	uint64_t rc[VSW_BURST_MAX];
	uint64_t tsc = rte_rdtsc();
	unsigned int nc = 0, q;

	if (c->bpf != NULL)
		rte_bpf_exec_burst(c->bpf, (void **)(uintptr_t)pkts, rc, n);
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m;
		struct vsw_capture_meta *meta;

		if (c->bpf != NULL && rc[i] == 0) {
			k->filtered++;
			continue;
		}
		m = rte_pktmbuf_copy(pkts[i], c->mp, 0, c->snaplen);
		if (m == NULL) {
			k->dropped++;
			continue;
		}
		meta = vsw_capture_meta(m);
		meta->tsc = tsc;
		meta->orig_len = pkts[i]->pkt_len;
		meta->dir = dir;
		copies[nc++] = m;
	}
	if (nc == 0)
		return;
	q = rte_ring_enqueue_burst(c->ring, (void **)copies, nc, NULL);
	k->captured += q;
	if (q < nc) {
		k->dropped += nc - q;
		rte_pktmbuf_free_bulk(copies + q, nc - q);
	}
}
