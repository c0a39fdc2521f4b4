/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet capture, the worker's side: a capture on a port is a struct
 * vsw_capture that control makes (control/capture.c) and publishes in the
 * datapath table (table.h: pp[port].cap_rx / cap_tx), so a worker tests
 * one pointer per received burst and one per flushed burst, and nothing
 * else, when nobody captures.
 *
 * When one does, the worker runs the capture's filter on the burst (a
 * libpcap expression compiled to classic BPF, converted to eBPF and run
 * by librte_bpf on each mbuf), copies the frames it accepts (at most
 * snaplen bytes each, from the capture's own mbuf pool, so that a capture
 * never takes the switch's mbufs) and puts the copies on the capture's
 * ring, which the capture's writer thread empties into the file.  A full
 * ring or an empty copy pool is a frame the capture could not keep up
 * with: counted (dropped), never waited for.  The copy's private area
 * holds its TSC, original length and direction.
 *
 * rx is what a port's rx burst returned, before any check; tx is what the
 * port's tx took (txbuf.c): copies of a flood as each output got it,
 * segments of a TSO frame cut for an output, frames with the output's
 * VLAN tag, and not the frames dropped as tx_full or too_big.
 */
#ifndef VSW_CAPTURE_H
#define VSW_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#define VSW_CAPTURE_RX 1u
#define VSW_CAPTURE_TX 2u
/* the workers' counters of one capture: VSW_MAX_WORKERS (table.h) */
#define VSW_CAPTURE_WORKERS 64

struct rte_bpf;

/* What the worker writes in a copy's private area (the pool's priv_size). */
struct vsw_capture_meta {
	uint64_t tsc;
	uint32_t orig_len;
	uint8_t dir; /* VSW_CAPTURE_RX or VSW_CAPTURE_TX */
};

/* One worker's counts for one capture: written by that worker alone. */
struct vsw_capture_wctrs {
	uint64_t captured; /* copies put on the ring */
	uint64_t dropped;  /* could not keep up: ring full or no copy mbuf */
	uint64_t filtered; /* refused by the filter */
} __rte_cache_aligned;

/*
 * A running capture.  Set up by control before it is published and left
 * alone by control until two grace periods after a table without it
 * (then no worker holds it); the workers only read its settings and
 * write their own w[] row.
 */
struct vsw_capture {
	uint16_t port;
	uint8_t dir;		/* VSW_CAPTURE_RX | VSW_CAPTURE_TX */
	uint32_t snaplen;	/* bytes kept of each frame */
	struct rte_ring *ring;	/* copies: workers enqueue, the writer reads */
	struct rte_mempool *mp; /* the copies' pool, priv: vsw_capture_meta */
	struct rte_bpf *bpf;	/* the filter; NULL: every frame */
	struct vsw_capture_wctrs w[VSW_CAPTURE_WORKERS];
};

/*
 * Copy the @n frames @pkts that pass @c's filter to its ring, as seen in
 * direction @dir, counting in worker @widx's row.  The frames are only
 * read.  Worker context; allocates from @c's pool only.
 */
void vsw_capture_burst(struct vsw_capture *c, unsigned int widx,
		       struct rte_mbuf *const *pkts, uint16_t n, uint8_t dir);

/* The copy's private area. */
static inline struct vsw_capture_meta *vsw_capture_meta(struct rte_mbuf *m)
{
	return (struct vsw_capture_meta *)rte_mbuf_to_priv(m);
}

#endif /* VSW_CAPTURE_H */
