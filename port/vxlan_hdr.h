/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The outer headers of an underlay frame, checked (inline, below):
 * plain C over a byte buffer, so that the unit test and the fuzzer
 * (tests/unit/test_vxlan.c, tests/fuzz/fuzz_vxlan.c) see exactly what a
 * vxlan port takes.  What the port itself adds: the UDP checksum over the
 * mbuf, the VTEP and VNI look-ups, stripping (port/vxlan.c).
 */
#ifndef VSW_VXLAN_HDR_H
#define VSW_VXLAN_HDR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "config/vsw_config.h" /* VSW_VXLAN_UDP_PORT */

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

/* The names of the drop reasons, for views ("not_ipv4", ...). */
extern const char *const vsw_vx_drop_names[VSW_VX_DROP_MAX];

#define VSW_VX_ETH_HLEN 14
#define VSW_VX_IP4_HLEN 20
#define VSW_VX_UDP_HLEN 8
#define VSW_VX_VXLAN_HLEN 8
#define VSW_VX_IPPROTO_UDP_ 17

static inline uint16_t vsw_vx_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t vsw_vx_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* The IPv4 header's ones' complement sum is all ones when it is right.
 * Summed as 32-bit words in host order (@len is a multiple of 4): the
 * ones' complement sum does not care about the byte order, and five
 * loads do what ten byte-pair loads did (the decap path's hottest loop
 * in perf). */
static inline bool vsw_vx_ip_sum_ok(const uint8_t *h, unsigned int len)
{
	uint64_t s = 0;
	uint32_t w;

	for (unsigned int i = 0; i < len; i += 4) {
		memcpy(&w, h + i, 4);
		s += w;
	}
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffffffffu) + (s >> 32);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return s == 0xffff;
}

/*
 * Check the frame @d whose first @data_len bytes are contiguous (the
 * first segment) of @pkt_len in all, received for VTEP @local_ip (host
 * order): Ethernet, IPv4 (version, header length, lengths within the
 * frame, header checksum, not a fragment) to @local_ip, UDP to 4789 whose
 * length matches, VXLAN with its I flag, an inner Ethernet header in the
 * first segment.  VSW_VX_OK with @r filled, VSW_VX_ARP, or the drop
 * reason.  Reads nothing past @data_len.  Inline: the decap path calls
 * it per frame (3 cycles of about 30 a frame, bench_vxlan).
 */
static inline int vsw_vxlan_parse(const uint8_t *d, uint32_t data_len,
				  uint32_t pkt_len, uint32_t local_ip,
				  struct vsw_vxlan_rx *r)
{
	const uint8_t *ip, *udp, *vx, *in;
	unsigned int ihl, tot, ulen, et;

	if (data_len > pkt_len || data_len < VSW_VX_ETH_HLEN)
		return VSW_VX_DROP_NOT_IPV4;
	et = vsw_vx_be16(d + 12);
	if (et == 0x0806)
		return VSW_VX_ARP;
	if (et != 0x0800)
		return VSW_VX_DROP_NOT_IPV4;
	ip = d + VSW_VX_ETH_HLEN;
	if (data_len < VSW_VX_ETH_HLEN + VSW_VX_IP4_HLEN)
		return VSW_VX_DROP_BAD_IP;
	ihl = (ip[0] & 0xfu) * 4;
	tot = vsw_vx_be16(ip + 2);
	if ((ip[0] >> 4) != 4 || ihl < VSW_VX_IP4_HLEN || tot < ihl ||
	    tot > pkt_len - VSW_VX_ETH_HLEN || data_len < VSW_VX_ETH_HLEN + ihl)
		return VSW_VX_DROP_BAD_IP;
	if (ip[9] != VSW_VX_IPPROTO_UDP_ || vsw_vx_be32(ip + 16) != local_ip)
		return VSW_VX_DROP_NOT_VXLAN;
	/* (MF, or a fragment offset: a piece of a datagram) */
	if (!vsw_vx_ip_sum_ok(ip, ihl) || (vsw_vx_be16(ip + 6) & 0x3fff) != 0)
		return VSW_VX_DROP_BAD_IP;
	if (tot < ihl + VSW_VX_UDP_HLEN ||
	    data_len < VSW_VX_ETH_HLEN + ihl + VSW_VX_UDP_HLEN)
		return VSW_VX_DROP_BAD_UDP;
	udp = ip + ihl;
	if (vsw_vx_be16(udp + 2) != VSW_VXLAN_UDP_PORT)
		return VSW_VX_DROP_NOT_VXLAN;
	ulen = vsw_vx_be16(udp + 4);
	if (ulen != tot - ihl)
		return VSW_VX_DROP_BAD_UDP;
	vx = udp + VSW_VX_UDP_HLEN;
	in = vx + VSW_VX_VXLAN_HLEN;
	if (ulen < VSW_VX_UDP_HLEN + VSW_VX_VXLAN_HLEN + VSW_VX_ETH_HLEN ||
	    data_len < (uint32_t)(in - d) + VSW_VX_ETH_HLEN || !(vx[0] & 0x08))
		return VSW_VX_DROP_BAD_VXLAN;
	r->src = vsw_vx_be32(ip + 12);
	r->vni = (uint32_t)vx[4] << 16 | (uint32_t)vx[5] << 8 | vx[6];
	r->l3 = VSW_VX_ETH_HLEN;
	r->inner = (uint16_t)(in - d);
	r->len = (uint16_t)(VSW_VX_ETH_HLEN + tot);
	r->udp_csum = vsw_vx_be16(udp + 6) != 0;
	et = vsw_vx_be16(in + 12);
	r->inner_tagged = et == 0x8100 || et == 0x88a8;
	return VSW_VX_OK;
}

#endif
