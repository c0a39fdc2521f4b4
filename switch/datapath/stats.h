/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port counters.  Each worker owns one struct vsw_port_ctrs per port and
 * is its only writer; telemetry readers sum the workers' copies (a torn
 * read of a 64-bit counter cannot happen on x86-64; values may lag by one
 * burst).  Drop reasons come from one X-macro so that the enum, the
 * telemetry keys and the docs share one list.
 *
 * Invariants (exact once traffic stops and buffers are flushed):
 *   per port P:  rx(P) = unicast(P) + flooded(P) + rx-side drops(P)
 *   over ports:  sum of tx + tx-side drops = sum of unicast + flood_copies
 *                + sum of (tso_segments - tso_segmented)
 */
#ifndef VSW_STATS_H
#define VSW_STATS_H

#include <stdint.h>

#include "config/vsw_counters.h"

/* X(ENUM, telemetry key suffix, side, description: docs/telemetry.md) */
#define VSW_DROP_REASONS(X)                                                    \
	X(RUNT, runt, rx, "frame shorter than its L2 header")                  \
	X(SRC_MULTICAST, src_multicast, rx, "group bit set in the source MAC") \
	X(OVERSIZE, oversize, rx,                                              \
	  "longer than the ingress port's mtu + 18 (a TSO frame: its "         \
	  "headers and segment size)")                                         \
	X(BAD_OFFLOAD, bad_offload, rx,                                        \
	  "a TSO frame or checksum request that does not hold: headers that "  \
	  "do not parse (not TCP/UDP over IPv4/IPv6), a gso_size of 0, "       \
	  "lengths other than the IP header's, more than 256 segments")        \
	X(SRC_NOT_ALLOWED, src_not_allowed, rx,                                \
	  "source MAC not in the port's allowed-macs")                         \
	X(VLAN_TAGGED_ON_ACCESS, vlan_tagged_on_access, rx,                    \
	  "802.1Q-tagged frame (VID 1..4095) on an access port")               \
	X(VLAN_QINQ, vlan_qinq, rx,                                            \
	  "on an access port: an S-tagged frame (0x88a8, 0x9100, 0x9200), or " \
	  "one with a second tag")                                             \
	X(VLAN_NOT_ALLOWED, vlan_not_allowed, rx,                              \
	  "a VLAN the ingress port does not carry (`trunks`; untagged on a "   \
	  "trunk without VLAN 0 or a native VLAN)")                            \
	X(SRC_IP_NOT_ALLOWED, src_ip_not_allowed, rx,                          \
	  "IPv4/IPv6 source not in the port's allowed-ips (or the header cut " \
	  "short)")                                                            \
	X(ARP_SPOOF, arp_spoof, rx,                                            \
	  "ARP sender IP not in allowed-ips, or sender MAC not the frame's "   \
	  "source (allowed-macs set)")                                         \
	X(ND_SPOOF, nd_spoof, rx,                                              \
	  "IPv6 neighbour advertisement for a target not in allowed-ips, or "  \
	  "a link-layer option not the frame's source (allowed-macs set)")     \
	X(STORM_BROADCAST, storm_broadcast, rx,                                \
	  "broadcast over the port's storm-broadcast-pps")                     \
	X(STORM_MULTICAST, storm_multicast, rx,                                \
	  "multicast over the port's storm-multicast-pps")                     \
	X(STORM_UNKNOWN, storm_unknown, rx,                                    \
	  "unicast to an unlearned MAC over the port's storm-unknown-pps")     \
	X(HAIRPIN, hairpin, rx, "destination learned on the ingress port")     \
	X(NO_PORT, no_port, rx, "flood with no other port up")                 \
	X(UNPOLLED, unpolled, rx,                                              \
	  "sent on a guest queue pair above the port's queues (drained by "    \
	  "the control thread; also counted in `rx_packets`)")                 \
	X(TX_FULL, tx_full, tx,                                                \
	  "output queue full after `tx-retries` and `tx-hold-us`")             \
	X(TOO_BIG, too_big, tx,                                                \
	  "longer than the output's mtu + 18 or its guest's buffers (1518 "    \
	  "bytes without mergeable rx buffers), or chained for a port that "   \
	  "sends no chains and longer than one buffer (shorter ones are "      \
	  "copied: tx_linearized)")                                            \
	X(PORT_DOWN, port_down, tx, "output port down or guest gone")          \
	X(VLAN_NO_ROOM, vlan_no_room, tx,                                      \
	  "no headroom or mbuf to add or strip the output's VLAN tag")         \
	X(NO_MBUF, no_mbuf, tx,                                                \
	  "no mbuf left for a segment of a TSO frame or a copy to fill a "     \
	  "checksum in")

enum vsw_drop_reason {
#define X(e, k, s, d) VSW_DROP_##e,
	VSW_DROP_REASONS(X)
#undef X
		VSW_DROP_MAX
};

#define VSW_FLUSH_BUCKETS 6

/* Flush-size histogram bucket of an n-packet flush (n >= 1). */
static inline unsigned int vsw_flush_bucket(unsigned int n)
{
	unsigned int b = 31 - (unsigned int)__builtin_clz(n);

	return b < VSW_FLUSH_BUCKETS - 1 ? b : VSW_FLUSH_BUCKETS - 1;
}

/* The counters of a port: the CTR rows of config/vsw_counters.h, in its
 * order, then the flush histogram and the drops by reason. */
#define VSW_CTR_FIELD_CTR(k) uint64_t k;
#define VSW_CTR_FIELD_PORT(k)
struct vsw_port_ctrs {
#define X(k, src, prom, type, help) VSW_CTR_FIELD_##src(k)
	VSW_PORT_COUNTERS(X)
#undef X
	/* flushes by size: 1, 2-3, 4-7, 8-15, 16-31, 32+ packets */
	uint64_t flush_hist[VSW_FLUSH_BUCKETS];
	uint64_t drops[VSW_DROP_MAX];
};

/* stats.c */
extern const char *const vsw_drop_names[VSW_DROP_MAX];
/* Each reason's side ("rx", "tx") and meaning, for the docs table. */
extern const char *const vsw_drop_sides[VSW_DROP_MAX];
extern const char *const vsw_drop_descs[VSW_DROP_MAX];
uint64_t vsw_port_drops_total(const struct vsw_port_ctrs *c);

#endif /* VSW_STATS_H */
