/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Offloaded frames: TCP frames of up to 64 KiB that a guest left to the
 * host to cut (TSO), and TCP/UDP checksums it left to fill.
 *
 * librte_vhost (with RTE_VHOST_USER_NET_COMPLIANT_OL_FLAGS, port/vhost.c)
 * marks them as DPDK defines: RX_LRO with tso_segsz for a TSO frame,
 * RX_L4_CKSUM_NONE for a checksum to fill (the field holds the partial
 * sum).  Where such a frame enters, vsw_offload_in checks it against the
 * guest's own headers, which it never trusts, and turns the marks into
 * the tx requests an output understands (TX_TCP_SEG, TX_*_CKSUM,
 * l2/l3/l4_len) or drops it (bad_offload).  Where it leaves,
 * vsw_offload_out gives it whole to an output that takes it, fills the
 * checksum in, or cuts it into segments that fit the output (its mtu,
 * its guest's buffers) with their own IPv4/IPv6 and TCP headers and
 * checksums.  Written in vsw: DPDK's rte_gso cuts IPv4 only, leaves
 * checksums to the NIC and makes indirect mbufs, which every output here
 * would copy anyway.
 *
 * Counters: rx counts what the guest handed over (one TSO frame, its
 * bytes); tx counts frames as the output took them (a TSO frame given
 * whole is one, segments are one each), as OVS does.
 */
#ifndef VSW_OFFLOAD_H
#define VSW_OFFLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "stats.h"

struct vsw_worker;
struct vsw_table;

/* A TSO frame is cut into at most this many segments; more: bad_offload */
#define VSW_TSO_MAX_SEGS 256
/*
 * The smallest gso_size a TSO frame may ask for; smaller: bad_offload.
 * Linux never sends one below TCP_MIN_SND_MSS (48). With this floor a
 * guest gets at most one segment built per 48 payload bytes it moved
 * over its ring: the work of cutting stays proportional to its bytes, no
 * worse than a flood of small frames (docs/offloads.md, amplification).
 */
#define VSW_TSO_MIN_SEGSZ 48

/*
 * IPv6 extension headers (hop-by-hop, routing, destination options)
 * before the TCP or UDP header of an offloaded frame: at most this many,
 * of at most VSW_OL_IP6_EXT_BYTES together; one routing header with
 * segments left, of type 2 (Mobile IPv6) or 4 (segment routing), whose
 * address 8 bytes in is the final destination that the checksum's pseudo
 * header names; one home address option (the pseudo header's source).
 * More, or any other (a fragment, AH, ESP, routing type 0 or 3 with
 * segments left): bad_offload.
 */
#define VSW_OL_IP6_EXT_MAX 4
#define VSW_OL_IP6_EXT_BYTES 256

/* The tx requests vsw_offload_in sets (and the worker tests) */
#define VSW_OL_TX_MASK (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_L4_MASK)

/* Does @m carry an offload request (a TSO frame, a checksum to fill)? */
static inline bool vsw_offload_rx_wants(const struct rte_mbuf *m)
{
	uint64_t ol = m->ol_flags;

	return (ol & RTE_MBUF_F_RX_LRO) != 0 ||
	       (ol & RTE_MBUF_F_RX_L4_CKSUM_MASK) ==
		       RTE_MBUF_F_RX_L4_CKSUM_NONE;
}

/*
 * Ingress, @m marked (vsw_offload_rx_wants): its headers checked and its
 * marks turned into tx requests.  The mtu rule of a TSO frame is its
 * segments', headers plus tso_segsz within @max_frame.  Returns
 * VSW_DROP_MAX, or the reason to drop it (bad_offload, oversize).
 */
enum vsw_drop_reason vsw_offload_in(struct rte_mbuf *m, uint32_t max_frame);

/* Egress: give offloaded @m (one reference) to @out as it can take it. */
void vsw_offload_out(struct vsw_worker *w, const struct vsw_table *dp,
		     uint16_t out, struct rte_mbuf *m, uint64_t now);

/*
 * The pieces, for the unit test (tests/unit/test_offload.c):
 * the TCP/UDP checksum of @m filled in (its request cleared): 0, or -1
 * when its headers do not parse;
 */
int vsw_offload_fill_csum(struct rte_mbuf *m);
/*
 * @m (a TCP frame) cut into segments of at most @mss payload bytes with
 * full checksums, allocated from @mp (chained where one mbuf is too
 * small): their number (at most @max, in @segs), -ENOBUFS (no mbuf), or
 * -EINVAL (more than @max segments, headers that do not parse).  @m is
 * left as it was.
 */
int vsw_offload_segment(const struct rte_mbuf *m, uint32_t mss,
			struct rte_mempool *mp, struct rte_mbuf **segs,
			unsigned int max);

#endif /* VSW_OFFLOAD_H */
