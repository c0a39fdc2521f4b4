/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * VLANs per port, with OVS's meanings (vlan-mode, tag, trunks): what a
 * worker does with a frame's 802.1Q tag where it enters and where it
 * leaves.  Used only when the table's `vlans` is set (some port has a
 * VLAN setting); a table without any keeps the plain path, where the
 * frame's own tag is its VLAN and nothing is rewritten (every port is a
 * trunk of every VLAN, untagged frames in VLAN 0).
 *
 * The tag is TPID 0x8100, as in frame.h.  Ingress (vsw_vlan_in): an
 * access port drops a frame tagged with a VID (vlan_tagged_on_access),
 * and any S-tagged or double-tagged frame (vlan_qinq: a tenant sends no
 * provider tags), S-tags being 0x88a8 and the legacy Q-in-Q TPIDs 0x9100
 * and 0x9200 that some switches still take as outer tags (an access
 * port's frame leaves a native-untagged uplink as it came, and such a
 * switch would put it in the VLAN its "tag" names); untagged and priority-tagged (VID 0) frames
 * are in the port's vid0 (access and native-*: tag; trunk: 0); a VLAN the
 * port does not carry is dropped (vlan_not_allowed).  A trunk carries an
 * S-tagged frame as an untagged one: only the outer 0x8100 tag is vsw's.
 *
 * Egress (vsw_vlan_action): a frame in VLAN v leaves untagged where v is
 * the port's untag_vid (access: tag; native-untagged: tag; trunk: 0),
 * else tagged with v: the tag is pushed, popped or its VID rewritten (the
 * priority bits are kept).  A frame of VLAN 0 leaves as it came, so a
 * priority tag passes between trunks as it always did.  Only one tag is
 * ever pushed or popped.
 */
#ifndef VSW_VLAN_H
#define VSW_VLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_mbuf.h>

#include "frame.h"
#include "stats.h"
#include "table.h"

#define VSW_ETHERTYPE_QINQ 0x88a8
#define VSW_ETHERTYPE_QINQ_OLD1 0x9100
#define VSW_ETHERTYPE_QINQ_OLD2 0x9200
#define VSW_FDB_VLAN_BITS (0xfffull << 48)

enum vsw_vlan_act {
	VSW_VLAN_KEEP = 0,
	VSW_VLAN_POP,
	VSW_VLAN_PUSH,
	VSW_VLAN_SET_VID,
};

static inline uint16_t vsw_vlan_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline bool vsw_vlan_has_tag(const uint8_t *d)
{
	return vsw_vlan_be16(d + 12) == VSW_ETHERTYPE_VLAN;
}

/* A provider (outer) tag's TPID: 802.1ad's or a legacy Q-in-Q one. */
static inline bool vsw_vlan_outer_tpid(uint16_t t)
{
	return t == VSW_ETHERTYPE_QINQ || t == VSW_ETHERTYPE_QINQ_OLD1 ||
	       t == VSW_ETHERTYPE_QINQ_OLD2;
}

/*
 * The VLAN of a frame (@d, @len bytes in its first segment, parsed into
 * @f) received on port @in: returns -1 and sets *@vid, with @f's keys
 * moved to that VLAN, or the drop reason.
 */
static inline int vsw_vlan_in(const struct vsw_table *dp, uint16_t in,
			      const uint8_t *d, uint32_t len,
			      struct vsw_frame *f, uint16_t *vid)
{
	const struct vsw_table_port *pp = &dp->pp[in];
	uint16_t v = f->vlan; /* frame.h: the 0x8100 tag's VID, else 0 */

	if (unlikely(pp->access)) {
		uint16_t t = vsw_vlan_be16(d + 12);

		if (vsw_vlan_outer_tpid(t) ||
		    (t == VSW_ETHERTYPE_VLAN && len >= 18 &&
		     (vsw_vlan_be16(d + 16) == VSW_ETHERTYPE_VLAN ||
		      vsw_vlan_outer_tpid(vsw_vlan_be16(d + 16)))))
			return VSW_DROP_VLAN_QINQ;
		if (v != 0)
			return VSW_DROP_VLAN_TAGGED_ON_ACCESS;
	}
	if (v == 0)
		v = pp->vid0;
	if (!(dp->vlan_ports[v] >> in & 1))
		return VSW_DROP_VLAN_NOT_ALLOWED;
	f->src_key = (f->src_key & ~VSW_FDB_VLAN_BITS) | (uint64_t)v << 48;
	f->dst_key = (f->dst_key & ~VSW_FDB_VLAN_BITS) | (uint64_t)v << 48;
	*vid = v;
	return -1;
}

/* What frame @d of VLAN @v needs to leave untagged (@untag) or tagged. */
static inline enum vsw_vlan_act vsw_vlan_action(const uint8_t *d, uint16_t v,
						bool untag)
{
	bool tagged = vsw_vlan_has_tag(d);

	if (untag)
		return tagged && v != 0 ? VSW_VLAN_POP : VSW_VLAN_KEEP;
	if (!tagged)
		return VSW_VLAN_PUSH;
	return (vsw_vlan_be16(d + 14) & 0xfff) == v ? VSW_VLAN_KEEP
						    : VSW_VLAN_SET_VID;
}

/* Apply @a to @m (one reference, first segment holds the L2 header). */
static inline bool vsw_vlan_apply(struct rte_mbuf *m, enum vsw_vlan_act a,
				  uint16_t v)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);

	switch (a) {
	case VSW_VLAN_KEEP:
		break;
	case VSW_VLAN_POP:
		memmove(d + VSW_VLAN_HLEN, d, 12);
		rte_pktmbuf_adj(m, VSW_VLAN_HLEN);
		break;
	case VSW_VLAN_PUSH:
		d = (uint8_t *)rte_pktmbuf_prepend(m, VSW_VLAN_HLEN);
		if (d == NULL)
			return false;
		memmove(d, d + VSW_VLAN_HLEN, 12);
		d[12] = VSW_ETHERTYPE_VLAN >> 8;
		d[13] = VSW_ETHERTYPE_VLAN & 0xff;
		d[14] = (uint8_t)(v >> 8);
		d[15] = (uint8_t)v;
		break;
	case VSW_VLAN_SET_VID:
		d[14] = (uint8_t)((d[14] & 0xf0) | (v >> 8));
		d[15] = (uint8_t)v;
		break;
	}
	return true;
}

/*
 * The up ports a frame of VLAN @v from @in is flooded to, those that
 * send @v untagged first (*@n_untag of them).  Returns how many.
 */
static inline int16_t vsw_vlan_flood_set(const struct vsw_table *dp,
					 uint16_t in, uint16_t v,
					 uint16_t *outs, int16_t *n_untag)
{
	uint64_t mask = dp->vlan_ports[v] & ~(1ull << in), m;
	int16_t k = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (m = mask; m != 0; m &= m - 1) {
			uint16_t id = (uint16_t)__builtin_ctzll(m);

			if ((dp->pp[id].untag_vid == v) == (pass == 0) &&
			    dp->ports[id] != NULL &&
			    vsw_port_is_up(dp->ports[id]))
				outs[k++] = id;
		}
		if (pass == 0)
			*n_untag = k;
	}
	return k;
}

/*
 * Port @id's VLAN settings from its config @c into @dp (control/table.c
 * on a zeroed table; the unit test too): what its untagged frames are,
 * which VLAN it sends untagged, its bit in every VLAN it carries, and
 * `vlans` when it has any setting (not a trunk of every VLAN).
 */
static inline void vsw_vlan_fill_port(struct vsw_table *dp, uint16_t id,
				      const struct vsw_port_conf *c)
{
	enum vsw_vlan_mode m = vsw_config_vlan_mode(c);
	struct vsw_table_port *pp = &dp->pp[id];

	if (m != VSW_VLAN_TRUNK || c->trunks_set)
		dp->vlans = true;
	pp->access = m == VSW_VLAN_ACCESS;
	pp->vid0 = m == VSW_VLAN_TRUNK ? 0 : (uint16_t)c->tag;
	pp->untag_vid = m == VSW_VLAN_NATIVE_TAGGED ? VSW_NO_VID
			: m == VSW_VLAN_TRUNK	    ? 0
						    : (uint16_t)c->tag;
	for (unsigned int v = 0; v <= VSW_VLAN_MAX; v++)
		if (vsw_config_vlan_member(c, v))
			dp->vlan_ports[v] |= 1ull << id;
}

#endif /* VSW_VLAN_H */
