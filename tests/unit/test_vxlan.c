/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A vxlan port's check of the outer headers (port/vxlan_hdr.c), frame by
 * frame: what it takes, what it hands to control (ARP), and the reason
 * for each kind of frame it drops, fragments included (the integration
 * test cannot send those: DPDK's net_af_packet has the kernel reassemble
 * them first).  Every frame sits in a buffer exactly its length, so a
 * read past the end is the sanitizers' to see.
 */
#include <stdlib.h>
#include <string.h>

#include "port/vxlan_hdr.h"
#include "vsw_test.h"

#define LOCAL 0x0a600001u  /* 10.96.0.1 */
#define REMOTE 0x0a600002u /* 10.96.0.2 */

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

static void ip_sum(uint8_t *ip, unsigned int ihl)
{
	uint32_t s = 0;

	put16(ip + 10, 0);
	for (unsigned int i = 0; i < ihl; i += 2)
		s += (uint32_t)(ip[i] << 8 | ip[i + 1]);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	put16(ip + 10, ~s & 0xffff);
}

struct frame {
	uint8_t b[256];
	unsigned int len;
};

/* A VXLAN frame to LOCAL from REMOTE, VNI @vni, @opt bytes of IPv4
 * options, an inner frame of @inner bytes (ethertype 0x0800). */
static void vxlan(struct frame *f, uint32_t vni, unsigned int opt,
		  unsigned int inner)
{
	uint8_t *d = f->b, *ip = d + 14, *udp, *vx, *in;
	unsigned int ihl = 20 + opt, tot = ihl + 8 + 8 + inner;

	memset(f, 0, sizeof(*f));
	memset(d, 0x02, 12);
	put16(d + 12, 0x0800);
	ip[0] = (uint8_t)(0x40 | ihl / 4);
	put16(ip + 2, tot);
	ip[8] = 64;
	ip[9] = 17;
	put32(ip + 12, REMOTE);
	put32(ip + 16, LOCAL);
	memset(ip + 20, 1, opt); /* (NOPs) */
	ip_sum(ip, ihl);
	udp = ip + ihl;
	put16(udp, 50000);
	put16(udp + 2, 4789);
	put16(udp + 4, tot - ihl);
	vx = udp + 8;
	vx[0] = 0x08;
	vx[4] = (uint8_t)(vni >> 16);
	vx[5] = (uint8_t)(vni >> 8);
	vx[6] = (uint8_t)vni;
	in = vx + 8;
	memset(in, 0xaa, inner);
	if (inner >= 14)
		put16(in + 12, 0x0800);
	f->len = 14 + tot;
}

/* Parse @f from a buffer of exactly its length (@extra more bytes of
 * Ethernet padding after it). */
static int parse(const struct frame *f, unsigned int extra,
		 struct vsw_vxlan_rx *r)
{
	uint8_t *b = malloc(f->len + extra);
	int rc;

	memcpy(b, f->b, f->len);
	memset(b + f->len, 0, extra);
	rc = vsw_vxlan_parse(b, f->len + extra, f->len + extra, LOCAL, r);
	free(b);
	return rc;
}

static void test_takes(void)
{
	struct vsw_vxlan_rx r;
	struct frame f;

	vxlan(&f, 0x123456, 0, 60);
	CHECK(parse(&f, 0, &r) == VSW_VX_OK);
	CHECK(r.src == REMOTE && r.vni == 0x123456 && r.l3 == 14 &&
	      r.inner == 50 && r.len == f.len && !r.udp_csum &&
	      !r.inner_tagged);
	/* Ethernet padding after the datagram: len says where it ends */
	CHECK(parse(&f, 6, &r) == VSW_VX_OK && r.len == f.len);
	/* IPv4 options move the inner frame */
	vxlan(&f, 7, 8, 60);
	CHECK(parse(&f, 0, &r) == VSW_VX_OK && r.inner == 58);
	/* a UDP checksum to verify; a tagged inner frame is told */
	vxlan(&f, 7, 0, 60);
	put16(f.b + 14 + 20 + 6, 0x1234);
	put16(f.b + 50 + 12, 0x8100);
	CHECK(parse(&f, 0, &r) == VSW_VX_OK && r.udp_csum && r.inner_tagged);
	/* the smallest: an inner Ethernet header alone */
	vxlan(&f, 7, 0, 14);
	CHECK(parse(&f, 0, &r) == VSW_VX_OK);
}

static void test_drops(void)
{
	struct vsw_vxlan_rx r;
	struct frame f;

	/* ARP to control, IPv6 and runts are not IPv4 */
	vxlan(&f, 7, 0, 60);
	put16(f.b + 12, 0x0806);
	CHECK(parse(&f, 0, &r) == VSW_VX_ARP);
	put16(f.b + 12, 0x86dd);
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_NOT_IPV4);
	f.len = 13;
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_NOT_IPV4);
	/* fragments: MF, an offset, both */
	for (unsigned int fo = 1; fo <= 3; fo++) {
		vxlan(&f, 7, 0, 60);
		put16(f.b + 14 + 6, (fo & 1 ? 0x2000 : 0) | (fo & 2 ? 3 : 0));
		ip_sum(f.b + 14, 20);
		CHECK(parse(&f, 0, &r) == VSW_VX_DROP_BAD_IP);
	}
	/* DF alone is fine */
	vxlan(&f, 7, 0, 60);
	put16(f.b + 14 + 6, 0x4000);
	ip_sum(f.b + 14, 20);
	CHECK(parse(&f, 0, &r) == VSW_VX_OK);
	/* header checksum, version, header length, total length */
	vxlan(&f, 7, 0, 60);
	f.b[14 + 10] ^= 1;
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_BAD_IP);
	vxlan(&f, 7, 0, 60);
	f.b[14] = 0x65;
	ip_sum(f.b + 14, 20);
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_BAD_IP);
	vxlan(&f, 7, 0, 60);
	f.b[14] = 0x44;
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_BAD_IP);
	vxlan(&f, 7, 0, 60);
	put16(f.b + 14 + 2, f.len - 14 + 1); /* one byte past the frame */
	ip_sum(f.b + 14, 20);
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_BAD_IP);
	vxlan(&f, 7, 40, 60); /* ihl 60 beyond a frame cut short */
	f.len = 14 + 40;
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_BAD_IP);
	/* not ours: another protocol, address, UDP port */
	vxlan(&f, 7, 0, 60);
	f.b[14 + 9] = 6;
	ip_sum(f.b + 14, 20);
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_NOT_VXLAN);
	vxlan(&f, 7, 0, 60);
	put32(f.b + 14 + 16, LOCAL + 1);
	ip_sum(f.b + 14, 20);
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_NOT_VXLAN);
	vxlan(&f, 7, 0, 60);
	put16(f.b + 34 + 2, 4790);
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_NOT_VXLAN);
	/* UDP length: not the datagram's; too short for a header */
	vxlan(&f, 7, 0, 60);
	put16(f.b + 34 + 4, 8 + 8 + 59);
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_BAD_UDP);
	vxlan(&f, 7, 0, 60);
	put16(f.b + 14 + 2, 20 + 4);
	ip_sum(f.b + 14, 20);
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_BAD_UDP);
	/* VXLAN: no I flag; an inner frame shorter than its header */
	vxlan(&f, 7, 0, 60);
	f.b[42] = 0;
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_BAD_VXLAN);
	vxlan(&f, 7, 0, 13);
	CHECK(parse(&f, 0, &r) == VSW_VX_DROP_BAD_VXLAN);
}

/* Every prefix of a good frame, as the first segment of the whole: never
 * a read past it, never taken unless the inner header is all there. */
static void test_cut(void)
{
	struct vsw_vxlan_rx r;
	struct frame f;

	vxlan(&f, 7, 4, 60);
	for (unsigned int n = 0; n <= f.len; n++) {
		uint8_t *b = malloc(n ? n : 1);
		int rc;

		memcpy(b, f.b, n);
		rc = vsw_vxlan_parse(b, n, f.len, LOCAL, &r);
		CHECK(rc != VSW_VX_OK || n >= (unsigned int)r.inner + 14);
		free(b);
	}
	CHECK(strcmp(vsw_vx_drop_names[VSW_VX_DROP_TX_FULL], "tx_full") == 0);
}

/* The header checksum against the byte-pair sum of ip_sum(): headers of
 * every length with random TOS, ID, TTL, source and options are taken;
 * any one bit of them flipped is a bad header. */
static void test_ip_sum(void)
{
	static const unsigned int at[] = {1, 4, 5, 8, 12, 13, 14, 15};
	struct vsw_vxlan_rx r;
	struct frame f;
	uint32_t x = 12345;

	for (int k = 0; k < 4000; k++) {
		unsigned int opt = (unsigned int)(k % 11) * 4, b, bit;
		uint8_t *ip = f.b + 14;

		vxlan(&f, 7, opt, 60);
		for (unsigned int i = 0; i < 8; i++) {
			x = x * 1103515245u + 12345u;
			ip[at[i]] = (uint8_t)(x >> 16);
		}
		for (unsigned int i = 20; i < 20 + opt; i++) {
			x = x * 1103515245u + 12345u;
			ip[i] = (uint8_t)(x >> 16);
		}
		ip_sum(ip, 20 + opt);
		CHECK(parse(&f, 0, &r) == VSW_VX_OK);
		x = x * 1103515245u + 12345u;
		b = opt && (x >> 8 & 1) ? 20 + (x >> 9) % opt
					: at[(x >> 9) % 8];
		bit = (x >> 20) % 8;
		ip[b] ^= (uint8_t)(1u << bit);
		CHECK(parse(&f, 0, &r) == VSW_VX_DROP_BAD_IP);
	}
}

int main(void)
{
	RUN(test_takes);
	RUN(test_drops);
	RUN(test_cut);
	RUN(test_ip_sum);
	return TEST_EXIT();
}
