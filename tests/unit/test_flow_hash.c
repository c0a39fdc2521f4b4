/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The flow hash (port/flow_hash.h) and the guest rx queues each worker
 * feeds (port/vhost_pairs.h).  The hash: what it takes from a frame and
 * what it leaves out (a flow's frames must hash alike, so a flow keeps
 * its order on one queue), fragments, IPv6 extension headers, VLAN tags,
 * frames cut at every length (each in a buffer exactly its length: a
 * read past the end is the sanitizers' to see), and how evenly flows
 * spread.  The pairs: with more pairs in use than workers, every pair in
 * use is fed by exactly one worker; otherwise each worker's one pair is
 * one the guest enabled (or pair 0).
 */
#include <stdlib.h>
#include <string.h>

#include "port/flow_hash.h"
#include "port/vhost_pairs.h"
#include "vsw_test.h"

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Ethernet (+ @tags 802.1Q tags), IPv4 (@ihl words) with @proto, ports. */
static uint32_t mk4(uint8_t *f, int tags, unsigned int ihl, uint8_t proto,
		    uint16_t sport, uint16_t dport)
{
	uint32_t l3 = 14 + 4 * (uint32_t)tags, l4 = l3 + ihl * 4;

	memset(f, 0, 200);
	memcpy(f, "\x52\x54\x00\x00\x00\x02\x52\x54\x00\x00\x00\x01", 12);
	for (int i = 0; i < tags; i++) {
		put16(f + 12 + 4 * i, i == 0 && tags == 2 ? 0x88a8 : 0x8100);
		put16(f + 14 + 4 * i, 100 + (unsigned int)i);
	}
	put16(f + l3 - 2, 0x0800);
	f[l3] = (uint8_t)(0x40 | ihl);
	put16(f + l3 + 2, 100);
	f[l3 + 8] = 64;
	f[l3 + 9] = proto;
	memcpy(f + l3 + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	put16(f + l4, sport);
	put16(f + l4 + 2, dport);
	return l4 + 20 + 30; /* a TCP header's worth and some payload */
}

static uint32_t mk6(uint8_t *f, uint8_t next, uint16_t sport, uint16_t dport)
{
	memset(f, 0, 200);
	memcpy(f, "\x52\x54\x00\x00\x00\x02\x52\x54\x00\x00\x00\x01", 12);
	put16(f + 12, 0x86dd);
	f[14] = 0x60;
	f[20] = next;
	f[21] = 64;
	for (int i = 0; i < 32; i++)
		f[22 + i] = (uint8_t)(0x20 + i);
	put16(f + 54, sport);
	put16(f + 56, dport);
	return 54 + 20 + 30;
}

/* the key every test but test_keyed hashes with (main runs them with 0
 * and with a random one) */
static uint64_t K;

/* The hash of f[0..len) read from a buffer exactly len bytes long. */
static uint32_t hash_exact(const uint8_t *f, uint32_t len)
{
	uint8_t *b = malloc(len ? len : 1);
	uint32_t h;

	memcpy(b, f, len);
	h = vsw_flow_hash(b, len, K);
	free(b);
	return h;
}

static void test_fields_ipv4(void)
{
	uint8_t f[200], g[200];
	uint32_t len = mk4(f, 0, 5, 6, 1000, 5201), h = hash_exact(f, len);
	/* hashed: MACs, addresses, ports */
	static const uint32_t in[] = {0,  5,  6,  11, 26, 29,
				      30, 33, 34, 35, 36, 37};
	/* not hashed: type of service, length, id, ttl, checksum, TCP
	 * sequence, flags, payload */
	static const uint32_t out[] = {15, 16, 17, 18, 19, 22,
				       24, 25, 38, 47, 60, 80};

	CHECK(h == vsw_flow_hash(f, len, K));
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		memcpy(g, f, sizeof(g));
		g[in[i]] ^= 0x10;
		CHECK(hash_exact(g, len) != h);
	}
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		memcpy(g, f, sizeof(g));
		g[out[i]] ^= 0x10;
		CHECK(hash_exact(g, len) == h);
	}
	/* UDP and SCTP have ports too; ICMP does not */
	CHECK(hash_exact(f, mk4(f, 0, 5, 17, 1, 2)) !=
	      hash_exact(f, mk4(f, 0, 5, 17, 1, 3)));
	CHECK(hash_exact(f, mk4(f, 0, 5, 132, 1, 2)) !=
	      hash_exact(f, mk4(f, 0, 5, 132, 1, 3)));
	CHECK(hash_exact(f, mk4(f, 0, 5, 1, 1, 2)) ==
	      hash_exact(f, mk4(f, 0, 5, 1, 1, 3)));
	/* options: the ports are behind them */
	CHECK(hash_exact(f, mk4(f, 0, 8, 6, 1, 2)) !=
	      hash_exact(f, mk4(f, 0, 8, 6, 1, 3)));
	/* a header length under 5 words is no IPv4 header: MACs only */
	len = mk4(f, 0, 5, 6, 1, 2);
	f[14] = 0x44;
	h = hash_exact(f, len);
	f[26] ^= 1;
	CHECK(hash_exact(f, len) == h);
	/* not version 4 behind 0x0800: MACs only */
	len = mk4(f, 0, 5, 6, 1, 2);
	f[14] = 0x65;
	h = hash_exact(f, len);
	f[26] ^= 1;
	CHECK(hash_exact(f, len) == h);
}

static void test_fragments(void)
{
	uint8_t f[200];
	uint32_t len = mk4(f, 0, 5, 17, 1000, 53), whole = hash_exact(f, len);
	uint32_t first, later;

	f[20] = 0x20; /* more fragments, offset 0: the first */
	first = hash_exact(f, len);
	put16(f + 34, 7777); /* payload bytes where the ports were */
	CHECK(hash_exact(f, len) == first);
	put16(f + 20, 0x00b9); /* offset 185 x 8, last fragment */
	later = hash_exact(f, len);
	CHECK(later == first);
	CHECK(first != whole); /* the whole datagram's hash has its ports */
	f[20] = 0x40;	       /* don't fragment: ports again */
	f[21] = 0;
	CHECK(hash_exact(f, len) != first);
}

static void test_ipv6(void)
{
	uint8_t f[200], g[200];
	uint32_t len = mk6(f, 6, 1000, 5201), h = hash_exact(f, len);

	for (uint32_t i = 22; i < 58; i++) { /* addresses and ports */
		memcpy(g, f, sizeof(g));
		g[i] ^= 0x01;
		CHECK(hash_exact(g, len) != h);
	}
	for (uint32_t i = 14; i < 22; i++) { /* flow label, length, hop limit */
		if (i == 14 || i == 20)
			continue; /* the version, next header */
		memcpy(g, f, sizeof(g));
		g[i] ^= 0x01;
		CHECK(hash_exact(g, len) == h);
	}
	/* an extension header first (hop-by-hop): no ports */
	len = mk6(f, 0, 1000, 5201);
	h = hash_exact(f, len);
	put16(f + 56, 80);
	CHECK(hash_exact(f, len) == h);
	/* UDP */
	CHECK(hash_exact(f, mk6(f, 17, 1, 2)) !=
	      hash_exact(f, mk6(f, 17, 1, 3)));
}

static void test_vlan(void)
{
	uint8_t f[200];
	uint32_t len;

	for (int tags = 1; tags <= 2; tags++) {
		uint32_t a, b;

		len = mk4(f, tags, 5, 6, 1000, 80);
		a = hash_exact(f, len);
		len = mk4(f, tags, 5, 6, 1000, 81);
		b = hash_exact(f, len);
		CHECK(a != b);
		f[14 + 4 * tags + 12] ^= 1; /* source address */
		CHECK(hash_exact(f, len) != b);
	}
	/* three tags: the third hides the IPv4 header (MACs only) */
	len = mk4(f, 2, 5, 6, 1, 2);
	memmove(f + 22, f + 18, 150);
	put16(f + 20, 0x8100); /* the moved TCI is the third tag's */
	{
		uint32_t h = hash_exact(f, len + 4);

		f[22 + 4 + 12] ^= 1;
		CHECK(hash_exact(f, len + 4) == h);
	}
}

/* Every length of every kind of frame, each in a buffer exactly that
 * long: nothing read past it (ASan), and under 14 bytes 0. */
static void test_cut(void)
{
	uint8_t f[200];
	uint32_t lens[6];

	for (int k = 0; k < 6; k++) {
		switch (k) {
		case 0:
			lens[k] = mk4(f, 0, 5, 6, 1, 2);
			break;
		case 1:
			lens[k] = mk4(f, 0, 15, 6, 1, 2);
			break;
		case 2:
			lens[k] = mk4(f, 1, 5, 17, 1, 2);
			break;
		case 3:
			lens[k] = mk4(f, 2, 5, 6, 1, 2);
			break;
		case 4:
			lens[k] = mk6(f, 6, 1, 2);
			break;
		default:
			lens[k] = mk6(f, 17, 1, 2);
			break;
		}
		for (uint32_t l = 0; l <= lens[k]; l++) {
			uint32_t h = hash_exact(f, l);

			if (l < 14)
				CHECK(h == 0);
		}
	}
}

/* 4096 TCP flows between two hosts (source ports) over 2..8 queues the
 * way vhost_rxtx.c picks one, and vxlan's 14 bits of source port. */
static void test_spread(void)
{
	uint8_t f[200];
	static uint8_t seen[1 << 14];
	unsigned int per[8], distinct = 0;

	for (unsigned int c = 2; c <= 8; c++) {
		memset(per, 0, sizeof(per));
		for (unsigned int i = 0; i < 4096; i++) {
			uint32_t len =
				mk4(f, 0, 5, 6, (uint16_t)(32768 + i), 5201);
			uint32_t h = vsw_flow_hash(f, len, K);

			per[((uint64_t)h * c) >> 32]++;
		}
		for (unsigned int q = 0; q < c; q++) {
			CHECK(per[q] > 4096 / c * 8 / 10);
			CHECK(per[q] < 4096 / c * 12 / 10);
		}
	}
	memset(seen, 0, sizeof(seen));
	for (unsigned int i = 0; i < 4096; i++) {
		uint32_t len = mk4(f, 0, 5, 17, (uint16_t)(1024 + i), 4789);
		uint32_t h = vsw_flow_hash(f, len, K) & 0x3fff;

		distinct += !seen[h];
		seen[h] = 1;
	}
	/* 4096 balls in 16384 bins: about 3,625 bins taken */
	CHECK(distinct > 3400);
}

/* Keyed: the same flows under another key fall on other queues (about
 * half of them change queue of two); the key changes every frame's hash;
 * a port draws a new key each time. */
static void test_keyed(void)
{
	static const uint64_t keys[][2] = {
		{0, 1},
		{0x0123456789abcdefull, 0x0123456789abcdeeull},
		{0, 0x8000000000000000ull},
	};
	uint8_t f[200];

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		unsigned int same_q = 0, same_h = 0;

		for (unsigned int i = 0; i < 4096; i++) {
			uint32_t len =
				mk4(f, 0, 5, 6, (uint16_t)(32768 + i), 5201);
			uint32_t a = vsw_flow_hash(f, len, keys[k][0]);
			uint32_t b = vsw_flow_hash(f, len, keys[k][1]);

			same_h += a == b;
			same_q += (a >> 31) == (b >> 31);
		}
		CHECK(same_h == 0);
		CHECK(same_q > 4096 * 4 / 10 && same_q < 4096 * 6 / 10);
	}
	CHECK(vsw_flow_key_new() != vsw_flow_key_new());
}

/* The pair(s) worker @q feeds, spreading: a bit set. */
static uint32_t fed(uint16_t q, uint16_t nr, uint32_t en, unsigned int nw)
{
	return vhost_tx_fed(q, nr, en, nw, true);
}

static void test_pairs(void)
{
	for (unsigned int nw = 1; nw <= 18; nw++)
		for (uint16_t nr = 1; nr <= VSW_MAX_QUEUES; nr++)
			for (uint16_t used = 0; used <= nr; used++)
				for (int gap = 0; gap < 2; gap++) {
					/* the first @used pairs enabled; with
					 * @gap one more above a disabled one */
					uint32_t en =
						(uint32_t)((1ull << used) - 1);
					uint32_t all = 0;
					int shared = 0;

					if (gap && used + 1 < nr)
						en |= 1u << (used + 1);
					for (unsigned int q = 0; q < nw; q++) {
						uint32_t s = fed((uint16_t)q,
								 nr, en, nw);

						shared |= (all & s) != 0;
						all |= s;
						/* enabled pairs; pair 0 only
						 * when none below nr is */
						CHECK((s & ~en) == 0 ||
						      (s == 1u &&
						       (en & ((1u << nr) -
							      1)) == 0));
					}
					if (used > nw) {
						/* every pair in use, once */
						CHECK(!shared);
						CHECK(all ==
						      (uint32_t)((1ull
								  << used) -
								 1));
					}
				}
	/* one worker, a guest with 4 pairs in use: all four, by flow */
	CHECK(vhost_tx_spread(0, 4, 0xf, 1) == 4);
	/* two workers: 0 and 2, 1 and 3 */
	CHECK(fed(0, 4, 0xf, 2) == 0x5 && fed(1, 4, 0xf, 2) == 0xa);
	/* the guest went down to two (ethtool -L): one each, as before */
	CHECK(vhost_tx_spread(0, 4, 0x3, 2) == 1 && fed(1, 4, 0x3, 2) == 0x2);
	/* three in use, two workers: worker 1 feeds pair 1 alone */
	CHECK(fed(0, 4, 0x7, 2) == 0x5 && fed(1, 4, 0x7, 2) == 0x2);
	/* every bit set: 32 pairs enabled, 16 served */
	CHECK(vhost_tx_spread(0, 16, 0xffffffffu, 1) == 16);
	CHECK(fed(0, 16, 0xffffffffu, 1) == 0xffff);
	/* pair 0's rx ring disabled, pairs 1 and 3 enabled: to pair 1,
	 * spreading or not; pair 2 disabled too: worker 2 to pair 1 */
	CHECK(fed(0, 4, 0xa, 1) == 0x2 && vhost_tx_pair(0, 4, 0xa) == 1);
	CHECK(vhost_tx_pair(2, 4, 0xa) == 1 && vhost_tx_pair(3, 4, 0xa) == 3);
	/* the enabled pair is beyond those served: pair 0 (dropped) */
	CHECK(vhost_tx_pair(0, 2, 0x4) == 0);
	/* nothing enabled: pair 0 */
	CHECK(vhost_tx_pair(1, 4, 0) == 0);
	/* guest-rx-spread off: one pair each, as with fewer pairs */
	CHECK(vhost_tx_fed(0, 4, 0xf, 1, false) == 0x1);
	CHECK(vhost_tx_fed(1, 4, 0xf, 2, false) == 0x2);
}

int main(void)
{
	for (int k = 0; k < 2; k++) {
		K = k == 0 ? 0 : vsw_flow_key_new();
		RUN(test_fields_ipv4);
		RUN(test_fragments);
		RUN(test_ipv6);
		RUN(test_vlan);
		RUN(test_cut);
		RUN(test_spread);
	}
	RUN(test_keyed);
	RUN(test_pairs);
	return TEST_EXIT();
}
