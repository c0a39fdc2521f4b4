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

#endif /* VSW_FRAME_H */
