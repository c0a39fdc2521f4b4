/* SPDX-License-Identifier: BSD-3-Clause */
/* The outer headers of an underlay frame, checked (vxlan_hdr.h). */
#include "vxlan_hdr.h"

#include <string.h>

#define ETH_HLEN 14
#define IP4_HLEN 20
#define UDP_HLEN 8
#define VXLAN_HLEN 8
#define VXLAN_PORT 4789
#define IPPROTO_UDP_ 17

const char *const vsw_vx_drop_names[VSW_VX_DROP_MAX] = {
	"not_ipv4",	"not_vxlan",   "bad_ip",       "bad_udp",  "bad_vxlan",
	"unknown_vtep", "unknown_vni", "inner_tagged", "arp_full", "no_vni",
	"no_vtep",	"unresolved",  "no_mbuf",      "tx_full",
};

static inline uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* The IPv4 header's ones' complement sum is all ones when it is right.
 * Summed as 32-bit words in host order (@len is a multiple of 4): the
 * ones' complement sum does not care about the byte order, and five
 * loads do what ten byte-pair loads did (the decap path's hottest loop
 * in perf). */
static bool ip_sum_ok(const uint8_t *h, unsigned int len)
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

int vsw_vxlan_parse(const uint8_t *d, uint32_t data_len, uint32_t pkt_len,
		    uint32_t local_ip, struct vsw_vxlan_rx *r)
{
	const uint8_t *ip, *udp, *vx, *in;
	unsigned int ihl, tot, ulen, et;

	if (data_len > pkt_len || data_len < ETH_HLEN)
		return VSW_VX_DROP_NOT_IPV4;
	et = be16(d + 12);
	if (et == 0x0806)
		return VSW_VX_ARP;
	if (et != 0x0800)
		return VSW_VX_DROP_NOT_IPV4;
	ip = d + ETH_HLEN;
	if (data_len < ETH_HLEN + IP4_HLEN)
		return VSW_VX_DROP_BAD_IP;
	ihl = (ip[0] & 0xfu) * 4;
	tot = be16(ip + 2);
	if ((ip[0] >> 4) != 4 || ihl < IP4_HLEN || tot < ihl ||
	    tot > pkt_len - ETH_HLEN || data_len < ETH_HLEN + ihl)
		return VSW_VX_DROP_BAD_IP;
	if (ip[9] != IPPROTO_UDP_ || be32(ip + 16) != local_ip)
		return VSW_VX_DROP_NOT_VXLAN;
	/* (MF, or a fragment offset: a piece of a datagram) */
	if (!ip_sum_ok(ip, ihl) || (be16(ip + 6) & 0x3fff) != 0)
		return VSW_VX_DROP_BAD_IP;
	if (tot < ihl + UDP_HLEN || data_len < ETH_HLEN + ihl + UDP_HLEN)
		return VSW_VX_DROP_BAD_UDP;
	udp = ip + ihl;
	if (be16(udp + 2) != VXLAN_PORT)
		return VSW_VX_DROP_NOT_VXLAN;
	ulen = be16(udp + 4);
	if (ulen != tot - ihl)
		return VSW_VX_DROP_BAD_UDP;
	vx = udp + UDP_HLEN;
	in = vx + VXLAN_HLEN;
	if (ulen < UDP_HLEN + VXLAN_HLEN + ETH_HLEN ||
	    data_len < (uint32_t)(in - d) + ETH_HLEN || !(vx[0] & 0x08))
		return VSW_VX_DROP_BAD_VXLAN;
	r->src = be32(ip + 12);
	r->vni = (uint32_t)vx[4] << 16 | (uint32_t)vx[5] << 8 | vx[6];
	r->l3 = ETH_HLEN;
	r->inner = (uint16_t)(in - d);
	r->len = (uint16_t)(ETH_HLEN + tot);
	r->udp_csum = be16(udp + 6) != 0;
	et = be16(in + 12);
	r->inner_tagged = et == 0x8100 || et == 0x88a8;
	return VSW_VX_OK;
}
