/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port security the worker applies to what a port sends (docs/security.md):
 * allowed-ips, the IPv4/IPv6 source check with the ARP and neighbour
 * discovery rules OpenStack port security expresses, and storm control,
 * a token bucket per class of flooded frames.  (allowed-macs and max-macs
 * live in worker.c and the FDB.)  Plain C on a byte pointer and a length,
 * no DPDK, so tests/unit/test_datapath.c checks every rule and the frame
 * fuzzer runs it; only ports with a key set pay anything (one flag in
 * struct vsw_table_port each).
 *
 * allowed-ips, on a frame after up to two VLAN tags (0x8100, 0x88a8):
 *   IPv4   source in the list; or 0.0.0.0 from UDP port 68 to 67 (a DHCP
 *          client without an address yet).
 *   ARP    Ethernet/IPv4 only; sender IP in the list or 0.0.0.0 (an
 *          RFC 5227 probe); with allowed-macs set, the sender MAC must be
 *          the frame's source MAC.
 *   IPv6   source in the list; or the link-local address the frame's
 *          source MAC gives (fe80::/64, modified EUI-64); or :: to a
 *          link-local multicast group ff02::/16 (duplicate address
 *          detection, MLD).  A neighbour advertisement (after hop-by-hop,
 *          routing and destination options headers) must name a target
 *          that the same rules allow as a source; with allowed-macs set,
 *          the link-layer address options of solicitations and
 *          advertisements must be the frame's source MAC.
 *   other  ethertypes pass: allowed-ips restricts addresses, not
 *          protocols.
 * A frame too short for the header a rule reads is dropped with that
 * rule's reason.
 *
 * Storm control: the credit of a bucket is TSC cycles; time adds to it
 * up to the depth, a frame takes `cost` (TSC Hz / rate).  The depth is
 * 100 ms of the rate but at least VSW_STORM_MIN_BURST frames.  Buckets
 * are the worker's own (struct vsw_worker storm[][]), no lock: a port
 * whose rx queues several workers poll gives each of them an equal share
 * of its limit (control/table.c), so the port never sends more than the
 * limit in all (a storm on one queue of a port polled by n workers gets
 * limit / n).
 */
#ifndef VSW_PORTSEC_H
#define VSW_PORTSEC_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "frame.h"
#include "stats.h"
#include "config/vsw_config.h"

#define VSW_STORM_MIN_BURST 32

/* An allowed-ips IPv6 entry as the worker matches it. */
struct vsw_table_ip6 {
	uint64_t addr[2], mask[2]; /* the 16 bytes in memory order */
};

/* A port's allowed-ips (struct vsw_table_port sec), built by control. */
struct vsw_portsec {
	bool macs_pinned; /* allowed-macs set: ARP and ND name the source */
	uint8_t n_ip6;
	/* IPv4 entries, network order, addr masked; every slot is compared
	 * (no branch, vectorised): an unused one has mask 0, addr ~0 */
	uint32_t ip4_addr[VSW_MAX_ALLOWED_IPS], ip4_mask[VSW_MAX_ALLOWED_IPS];
	struct vsw_table_ip6 ip6[VSW_MAX_ALLOWED_IPS];
};

/* Storm control of one class of frames a port sends. */
struct vsw_table_storm {
	uint64_t cost;	/* TSC cycles of credit one frame takes; 0 = off */
	uint64_t depth; /* most credit the bucket holds */
};

struct vsw_storm_bucket {
	uint64_t credit; /* TSC cycles, at most the depth */
	uint64_t last_tsc;
};

/* Cost and depth of a bucket for @pps shared by @share workers. */
static inline struct vsw_table_storm
vsw_storm_params(uint32_t pps, unsigned int share, uint64_t hz)
{
	struct vsw_table_storm s = {0, 0};
	uint64_t per;

	if (pps == 0)
		return s;
	per = pps / (share ? share : 1);
	if (per == 0)
		per = 1;
	s.cost = hz / per ? hz / per : 1;
	s.depth = hz / 10 > s.cost * VSW_STORM_MIN_BURST
			  ? hz / 10
			  : s.cost * VSW_STORM_MIN_BURST;
	return s;
}

/* May one more frame pass at TSC @now?  Takes its credit if so. */
static inline bool vsw_storm_take(struct vsw_storm_bucket *b,
				  const struct vsw_table_storm *s, uint64_t now)
{
	uint64_t el = 0, c = b->credit;

	if (now > b->last_tsc) { /* (a clock a touch behind: no credit) */
		el = now - b->last_tsc;
		b->last_tsc = now;
	}
	c = c > s->depth || el >= s->depth - c ? s->depth : c + el;
	if (c < s->cost) {
		b->credit = c;
		return false;
	}
	b->credit = c - s->cost;
	return true;
}

/* A port's allowed-ips (and whether it has allowed-macs) as the worker
 * matches them (control/table.c). */
static inline void vsw_portsec_fill_ips(struct vsw_portsec *pp,
					const struct vsw_port_conf *pc)
{
	unsigned int n4 = 0;

	pp->n_ip6 = 0;
	for (unsigned int i = 0; i < VSW_MAX_ALLOWED_IPS; i++) {
		pp->ip4_addr[i] = ~0u;
		pp->ip4_mask[i] = 0;
	}
	for (unsigned int i = 0; i < pc->n_ips; i++) {
		const struct vsw_ip_prefix *ip = &pc->ips[i];
		uint8_t mask[16] = {0};

		for (unsigned int b = 0; b < ip->plen; b++)
			mask[b / 8] |= (uint8_t)(0x80u >> (b % 8));
		if (ip->family == 4) {
			memcpy(&pp->ip4_addr[n4], ip->addr, 4);
			memcpy(&pp->ip4_mask[n4], mask, 4);
			pp->ip4_addr[n4] &= pp->ip4_mask[n4];
			n4++;
		} else {
			struct vsw_table_ip6 *a = &pp->ip6[pp->n_ip6++];

			memcpy(a->addr, ip->addr, 16);
			memcpy(a->mask, mask, 16);
			a->addr[0] &= a->mask[0];
			a->addr[1] &= a->mask[1];
		}
	}
	pp->macs_pinned = pc->n_allowed > 0;
}

static inline uint16_t vsw_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline bool vsw_ip4_allowed(const struct vsw_portsec *pp,
				   const uint8_t *a)
{
	uint32_t v, hit = 0;

	memcpy(&v, a, 4);
	for (unsigned int i = 0; i < VSW_MAX_ALLOWED_IPS; i++)
		hit |= (v & pp->ip4_mask[i]) == pp->ip4_addr[i];
	return hit != 0;
}

/* fe80::/64 with the modified EUI-64 interface id of @mac. */
static inline bool vsw_ip6_is_ll_of(const uint8_t *a, const uint8_t *mac)
{
	static const uint8_t fe80[8] = {0xfe, 0x80};
	const uint8_t iid[8] = {mac[0] ^ 2, mac[1], mac[2], 0xff,
				0xfe,	    mac[3], mac[4], mac[5]};

	return memcmp(a, fe80, 8) == 0 && memcmp(a + 8, iid, 8) == 0;
}

/* @a in the list, or the link-local address of the source MAC @mac. */
static inline bool vsw_ip6_allowed(const struct vsw_portsec *pp,
				   const uint8_t *a, const uint8_t *mac)
{
	uint64_t v[2];

	memcpy(v, a, 16);
	for (uint8_t i = 0; i < pp->n_ip6; i++)
		if ((v[0] & pp->ip6[i].mask[0]) == pp->ip6[i].addr[0] &&
		    (v[1] & pp->ip6[i].mask[1]) == pp->ip6[i].addr[1])
			return true;
	return vsw_ip6_is_ll_of(a, mac);
}

static inline enum vsw_drop_reason vsw_portsec_ip4(const struct vsw_portsec *pp,
						   const uint8_t *d,
						   uint32_t off, uint32_t len)
{
	static const uint8_t zero[4];
	uint32_t udp;

	if (len < off + 20)
		return VSW_DROP_SRC_IP_NOT_ALLOWED;
	if (vsw_ip4_allowed(pp, d + off + 12))
		return VSW_DROP_MAX;
	udp = off + (d[off] & 0x0fu) * 4;
	if (memcmp(d + off + 12, zero, 4) == 0 && d[off + 9] == 17 &&
	    len >= udp + 4 && vsw_be16(d + udp) == 68 &&
	    vsw_be16(d + udp + 2) == 67)
		return VSW_DROP_MAX; /* DHCP client */
	return VSW_DROP_SRC_IP_NOT_ALLOWED;
}

static inline enum vsw_drop_reason vsw_portsec_arp(const struct vsw_portsec *pp,
						   const uint8_t *d,
						   uint32_t off, uint32_t len)
{
	static const uint8_t zero[4];

	if (len < off + 28 || vsw_be16(d + off) != 1 ||
	    vsw_be16(d + off + 2) != 0x0800 || d[off + 4] != 6 ||
	    d[off + 5] != 4)
		return VSW_DROP_ARP_SPOOF;
	if (pp->macs_pinned && memcmp(d + off + 8, d + 6, 6) != 0)
		return VSW_DROP_ARP_SPOOF;
	if (memcmp(d + off + 14, zero, 4) == 0 ||
	    vsw_ip4_allowed(pp, d + off + 14))
		return VSW_DROP_MAX;
	return VSW_DROP_ARP_SPOOF;
}

/*
 * The link-layer address options of a neighbour solicitation or
 * advertisement from @o on: each (source, type 1; target, type 2) must be
 * the frame's source MAC.
 */
static inline enum vsw_drop_reason vsw_nd_lladdr(const uint8_t *d, uint32_t o,
						 uint32_t len)
{
	for (int i = 0; i < 8 && o + 2 <= len; i++) {
		uint32_t olen = d[o + 1] * 8u;

		if (olen == 0)
			return VSW_DROP_ND_SPOOF; /* malformed: RFC 4861 4.6 */
		if ((d[o] == 1 || d[o] == 2) &&
		    (olen != 8 || o + 8 > len || memcmp(d + o + 2, d + 6, 6)))
			return VSW_DROP_ND_SPOOF;
		o += olen;
	}
	/* more options than are read: one of them may name another MAC */
	return o + 2 <= len ? VSW_DROP_ND_SPOOF : VSW_DROP_MAX;
}

static inline enum vsw_drop_reason vsw_portsec_ip6(const struct vsw_portsec *pp,
						   const uint8_t *d,
						   uint32_t off, uint32_t len)
{
	static const uint8_t unspec[16];
	uint32_t p = off + 40;
	uint8_t nh;

	if (len < p)
		return VSW_DROP_SRC_IP_NOT_ALLOWED;
	if (!vsw_ip6_allowed(pp, d + off + 8, d + 6) &&
	    !(memcmp(d + off + 8, unspec, 16) == 0 && d[off + 24] == 0xff &&
	      d[off + 25] == 0x02))
		return VSW_DROP_SRC_IP_NOT_ALLOWED;
	nh = d[off + 6];
	p = vsw_ip6_skip_ext(d, p, len, &nh, 4);
	if (p == 0)
		return VSW_DROP_SRC_IP_NOT_ALLOWED;
	/* a longer chain than is walked may hide an advertisement */
	if (vsw_ip6_is_ext(nh))
		return VSW_DROP_ND_SPOOF;
	if (nh != 58 || len <= p || (d[p] != 135 && d[p] != 136))
		return VSW_DROP_MAX; /* not a solicitation or advertisement */
	if (len < p + 24 ||
	    (d[p] == 136 && !vsw_ip6_allowed(pp, d + p + 8, d + 6)))
		return VSW_DROP_ND_SPOOF;
	return pp->macs_pinned ? vsw_nd_lladdr(d, p + 24, len) : VSW_DROP_MAX;
}

/*
 * allowed-ips on the frame @d of @len bytes (the first segment) sent by
 * a port with check_ips: VSW_DROP_MAX to let it pass, else the reason.
 */
static inline enum vsw_drop_reason
vsw_portsec_check(const struct vsw_portsec *pp, const uint8_t *d, uint32_t len)
{
	uint32_t off = 12;
	uint16_t et;

	for (int tags = 0;; tags++) {
		if (len < off + 2)
			return VSW_DROP_SRC_IP_NOT_ALLOWED;
		et = vsw_be16(d + off);
		off += 2;
		if (et != 0x8100 && et != 0x88a8)
			break;
		if (tags == 2)
			return VSW_DROP_SRC_IP_NOT_ALLOWED; /* 3 tags: no */
		off += 2;
	}
	switch (et) {
	case 0x0800:
		return vsw_portsec_ip4(pp, d, off, len);
	case 0x0806:
		return vsw_portsec_arp(pp, d, off, len);
	case 0x86dd:
		return vsw_portsec_ip6(pp, d, off, len);
	default:
		return VSW_DROP_MAX;
	}
}

/*
 * vsw_portsec_check with the common case first: an untagged IPv4 frame
 * from the source that passed last in this burst (*@ok4, 0: none) passes
 * at once; a listed source becomes *@ok4.
 */
static inline enum vsw_drop_reason
vsw_portsec_check_burst(const struct vsw_portsec *pp, const uint8_t *d,
			uint32_t len, uint32_t *ok4)
{
	uint32_t src;

	if (len >= 14 + 20 && d[12] == 0x08 && d[13] == 0x00) {
		memcpy(&src, d + 14 + 12, 4);
		if (src == *ok4 && src != 0)
			return VSW_DROP_MAX;
		if (vsw_ip4_allowed(pp, d + 14 + 12)) {
			*ok4 = src;
			return VSW_DROP_MAX;
		}
	}
	return vsw_portsec_check(pp, d, len);
}

#endif /* VSW_PORTSEC_H */
