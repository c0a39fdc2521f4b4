/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frame classification: the few header bytes an L2 switch reads.
 *
 * Plain C on a byte pointer and a length, so it is unit-tested without
 * mbufs.  A frame too short for its Ethernet (and 802.1Q) header is a
 * runt; a multicast or broadcast source address is invalid and never
 * learned.  Everything else yields the FDB keys of both addresses.
 */
#ifndef VSW_FRAME_H
#define VSW_FRAME_H

#include <stdbool.h>
#include <stdint.h>

#include "fdb.h"

enum vsw_frame_class {
	VSW_FRAME_UNICAST = 0,
	VSW_FRAME_BROADCAST = 1,
	VSW_FRAME_MULTICAST = 2,
	VSW_FRAME_RUNT = 3,	     /* drop: shorter than its L2 header */
	VSW_FRAME_SRC_MULTICAST = 4, /* drop: group bit set in the source */
};

#define VSW_ETH_HLEN 14
#define VSW_VLAN_HLEN 4
#define VSW_ETHERTYPE_VLAN 0x8100

struct vsw_frame {
	uint64_t dst_key;
	uint64_t src_key;
	uint16_t vlan;
};

static inline int vsw_frame_is_bcast(const uint8_t *m)
{
	return (m[0] & m[1] & m[2] & m[3] & m[4] & m[5]) == 0xff;
}

/* Classify a frame of @len bytes at @d; fills @f unless it is a drop. */
static inline enum vsw_frame_class
vsw_frame_parse(const uint8_t *d, uint32_t len, struct vsw_frame *f)
{
	uint16_t vlan = 0;

	if (len < VSW_ETH_HLEN)
		return VSW_FRAME_RUNT;
	if (d[6] & 1)
		return VSW_FRAME_SRC_MULTICAST;
	if (((uint16_t)d[12] << 8 | d[13]) == VSW_ETHERTYPE_VLAN) {
		if (len < VSW_ETH_HLEN + VSW_VLAN_HLEN)
			return VSW_FRAME_RUNT;
		vlan = (uint16_t)((d[14] & 0x0f) << 8 | d[15]);
	}
	f->vlan = vlan;
	f->src_key = vsw_fdb_key(d + 6, vlan);
	f->dst_key = vsw_fdb_key(d, vlan);
	if (!(d[0] & 1))
		return VSW_FRAME_UNICAST;
	return vsw_frame_is_bcast(d) ? VSW_FRAME_BROADCAST
				     : VSW_FRAME_MULTICAST;
}

/* IPv6 extension headers the switch steps over: hop-by-hop options (0),
 * routing (43), destination options (60); each starts with its next
 * header and its length in 8-byte units, less one. */
static inline bool vsw_ip6_is_ext(uint8_t nh)
{
	return nh == 0 || nh == 43 || nh == 60;
}

/*
 * Step over at most @max extension headers of an IPv6 packet in the @len
 * bytes at @d, from offset @p (just after the fixed header) with @*nh the
 * fixed header's next header.  Returns the offset of the first header not
 * stepped over, its type in @*nh (an extension header still where the
 * chain is longer than @max; the offset may lie past @len where the last
 * header does), or 0 where a header's first two bytes lie past @len.
 */
static inline uint32_t vsw_ip6_skip_ext(const uint8_t *d, uint32_t p,
					uint32_t len, uint8_t *nh,
					unsigned int max)
{
	for (unsigned int i = 0; i < max && vsw_ip6_is_ext(*nh); i++) {
		if (len < p + 2)
			return 0;
		*nh = d[p];
		p += (d[p + 1] + 1u) * 8;
	}
	return p;
}

#endif /* VSW_FRAME_H */
