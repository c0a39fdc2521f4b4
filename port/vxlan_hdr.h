/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The outer headers of an underlay frame, checked (port/vxlan_hdr.c):
 * plain C over a byte buffer, so that the unit test and the fuzzer
 * (tests/unit/test_vxlan.c, tests/fuzz/fuzz_vxlan.c) see exactly what a
 * vxlan port takes.  What the port itself adds: the UDP checksum over the
 * mbuf, the VTEP and VNI look-ups, stripping (port/vxlan.c).
 */
#ifndef VSW_VXLAN_HDR_H
#define VSW_VXLAN_HDR_H

#include <stdbool.h>
#include <stdint.h>

/* Why the port drops a frame (its own counters, `vswctl vteps`). */
enum vsw_vx_drop {
	VSW_VX_DROP_NOT_IPV4,	  /* underlay: not IPv4 (nor ARP) */
	VSW_VX_DROP_NOT_VXLAN,	  /* IPv4, not UDP 4789 to local-ip */
	VSW_VX_DROP_BAD_IP,	  /* header, lengths, checksum, fragment */
	VSW_VX_DROP_BAD_UDP,	  /* length or checksum */
	VSW_VX_DROP_BAD_VXLAN,	  /* no I flag, inner frame too short */
	VSW_VX_DROP_UNKNOWN_VTEP, /* source not a remote VTEP of the port */
	VSW_VX_DROP_UNKNOWN_VNI,  /* VNI not the port's, or not that VTEP's */
	VSW_VX_DROP_INNER_TAGGED, /* inner frame with an 802.1Q/802.1ad tag */
	VSW_VX_DROP_ARP_FULL,	  /* ARP ring full */
	VSW_VX_DROP_NO_VNI,	  /* tx: the frame's VLAN has no VNI */
	VSW_VX_DROP_NO_VTEP,	  /* tx: no remote VTEP for its VNI */
	VSW_VX_DROP_UNRESOLVED,	  /* tx: a VTEP's next hop MAC not known yet */
	VSW_VX_DROP_NO_MBUF,	  /* tx: no mbuf for a copy */
	VSW_VX_DROP_TX_FULL,	  /* tx: the underlay did not take it */
	VSW_VX_DROP_MAX,
};
#define VSW_VX_ARP (-1) /* an ARP frame: for the control thread */
#define VSW_VX_OK (-2)	/* a VXLAN frame to take (struct vsw_vxlan_rx) */

/* What vsw_vxlan_parse found in a VXLAN frame. */
struct vsw_vxlan_rx {
	uint32_t src; /* outer IPv4 source, host order */
	uint32_t vni;
	uint16_t l3;	/* offset of the IPv4 header */
	uint16_t inner; /* offset of the inner Ethernet frame */
	uint16_t len;  /* the frame without Ethernet padding: l3 + IPv4 total */
	bool udp_csum; /* the UDP checksum is not 0: verify it */
	bool inner_tagged; /* the inner frame carries an 802.1Q/ad tag */
};

/*
 * Check the frame @d whose first @data_len bytes are contiguous (the
 * first segment) of @pkt_len in all, received for VTEP @local_ip (host
 * order): Ethernet, IPv4 (version, header length, lengths within the
 * frame, header checksum, not a fragment) to @local_ip, UDP to 4789 whose
 * length matches, VXLAN with its I flag, an inner Ethernet header in the
 * first segment.  VSW_VX_OK with @r filled, VSW_VX_ARP, or the drop
 * reason.  Reads nothing past @data_len.
 */
int vsw_vxlan_parse(const uint8_t *d, uint32_t data_len, uint32_t pkt_len,
		    uint32_t local_ip, struct vsw_vxlan_rx *r);

/* The names of the drop reasons, for views ("not_ipv4", ...). */
extern const char *const vsw_vx_drop_names[VSW_VX_DROP_MAX];

#endif
