/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Offloaded frames (switch/datapath/offload.c), no EAL.
 *
 * test_offload: the checks where a frame enters (every kind of lie a
 * guest can tell in a TSO frame or a checksum request is bad_offload;
 * the mtu rule of a TSO frame is its segments') and the datapath through
 * the worker over fake ports (a TSO frame whole to an output that takes
 * TSO, cut for one that does not, flooded to both, cut finer for a small
 * mtu; a checksum filled in for an output that takes none; the counters).
 *
 * test_offload --ref: reads lines "seg MSS HEX" and "csum HEX" on stdin
 * (tests/unit/offload_ref.py writes them with scapy), builds each frame
 * as a chain of small mbufs, cuts it (vsw_offload_segment) or fills its
 * checksum (vsw_offload_fill_csum) and prints each resulting frame as a
 * hex line, then "end": the script compares them byte for byte with
 * scapy's own segments and checksums.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ip.h>

#include "datapath/offload.h"
#include "datapath/worker.h"
#include "fake_pool.h"
#include "fake_port.h"
#include "vsw_test.h"

#define ROOM                                                                   \
	511 /* small mbufs: frames are chains, as vhost makes them; odd: a
		  * chain's pieces start at odd offsets of the checksummed bytes */
#define POOL_N 4096
#define MAXF 70000

static struct fake_pool *pool;

/* A chain of ROOM-byte mbufs holding @len bytes of @d. */
static struct rte_mbuf *mk(const uint8_t *d, uint32_t len)
{
	return fake_pool_chain(pool, d, len, ROOM);
}

static void print_hex(const struct rte_mbuf *m)
{
	static uint8_t buf[MAXF];
	const uint8_t *d = rte_pktmbuf_read(m, 0, m->pkt_len, buf);

	for (uint32_t i = 0; d != NULL && i < m->pkt_len; i++)
		printf("%02x", d[i]);
	printf("\n");
}

static uint32_t unhex(const char *s, uint8_t *out, uint32_t max)
{
	uint32_t n = 0;
	unsigned int b;

	while (n < max && sscanf(s, "%2x", &b) == 1) {
		out[n++] = (uint8_t)b;
		s += 2;
	}
	return n;
}

static int ref_mode(void)
{
	static char line[2 * MAXF + 64];
	static uint8_t frame[MAXF];
	struct rte_mbuf *segs[VSW_TSO_MAX_SEGS];

	while (fgets(line, sizeof(line), stdin) != NULL) {
		unsigned int mss = 0;
		char *hex = strrchr(line, ' ');
		uint32_t len = hex != NULL ? unhex(hex + 1, frame, MAXF) : 0;
		struct rte_mbuf *m = mk(frame, len);
		int n;

		if (m == NULL)
			return 1;
		if (sscanf(line, "seg %u", &mss) == 1) {
			n = vsw_offload_segment(m, mss, pool->mp, segs,
						VSW_TSO_MAX_SEGS);
			for (int i = 0; i < n; i++) {
				print_hex(segs[i]);
				rte_pktmbuf_free(segs[i]);
			}
			if (n < 0)
				printf("error %d\n", n);
		} else if (vsw_offload_fill_csum(m) == 0) {
			print_hex(m);
		} else {
			printf("error\n");
		}
		printf("end\n");
		fflush(stdout);
		rte_pktmbuf_free(m);
	}
	return pool->n_free == pool->n ? 0 : 1;
}

/* ---- frames for the checks ------------------------------------------ */

static const uint8_t mac_a[6] = {0x02, 0, 0, 0, 0, 0x0a};
static const uint8_t mac_b[6] = {0x02, 0, 0, 0, 0, 0x0b};

/* An Ethernet/IPv4 (@v6: IPv6)/TCP frame with @payload bytes, @tagged
 * with VLAN 5; DF set, TCP header 32 bytes (timestamps). */
static uint32_t tcp_frame(uint8_t *f, bool v6, bool tagged, uint32_t payload,
			  const uint8_t *dst)
{
	uint32_t o = 12, l3 = v6 ? 40 : 20, l4 = 32, ipl;

	memcpy(f, dst, 6);
	memcpy(f + 6, mac_a, 6);
	if (tagged) {
		f[o++] = 0x81, f[o++] = 0x00, f[o++] = 0, f[o++] = 5;
	}
	f[o++] = v6 ? 0x86 : 0x08;
	f[o++] = v6 ? 0xdd : 0x00;
	ipl = l3 + l4 + payload;
	memset(f + o, 0, l3 + l4);
	if (v6) {
		f[o] = 0x60;
		f[o + 4] = (uint8_t)((ipl - 40) >> 8);
		f[o + 5] = (uint8_t)(ipl - 40);
		f[o + 6] = 6;
		f[o + 7] = 64;
		f[o + 23] = 1;
		f[o + 39] = 2;
	} else {
		f[o] = 0x45;
		f[o + 2] = (uint8_t)(ipl >> 8);
		f[o + 3] = (uint8_t)ipl;
		f[o + 4] = 0x12;
		f[o + 6] = 0x40; /* DF */
		f[o + 8] = 64;
		f[o + 9] = 6;
		f[o + 12] = 10, f[o + 15] = 1;
		f[o + 16] = 10, f[o + 19] = 2;
	}
	o += l3;
	f[o + 1] = 80, f[o + 3] = 81;
	f[o + 4] = 0x10; /* seq */
	f[o + 12] = (uint8_t)((l4 / 4) << 4);
	f[o + 13] = 0x18; /* PSH ACK */
	f[o + 20] = 1, f[o + 21] = 1, f[o + 22] = 8, f[o + 23] = 10;
	o += l4;
	for (uint32_t i = 0; i < payload; i++)
		f[o + i] = (uint8_t)i;
	return o + payload;
}

/*
 * @f, an untagged IPv6 frame of @len bytes (tcp_frame), with an extension
 * header of @type and @units 8-byte units put first after the fixed
 * header (options all Pad1; a routing header with @left segments left).
 * Returns the new length.
 */
static uint32_t add_ext6(uint8_t *f, uint32_t len, uint8_t type,
			 unsigned int units, uint8_t left)
{
	const uint32_t o = 14 + 40, n = units * 8;
	uint32_t pl = (uint32_t)(f[18] << 8 | f[19]) + n;

	memmove(f + o + n, f + o, len - o);
	memset(f + o, 0, n);
	f[o] = f[20];
	f[o + 1] = (uint8_t)(units - 1);
	if (type == 43)
		f[o + 3] = left;
	f[20] = type;
	f[18] = (uint8_t)(pl >> 8), f[19] = (uint8_t)pl;
	return len + n;
}

static struct rte_mbuf *tso(const uint8_t *f, uint32_t len, uint16_t segsz)
{
	struct rte_mbuf *m = mk(f, len);

	m->ol_flags = RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_NONE;
	m->tso_segsz = segsz;
	return m;
}

static enum vsw_drop_reason in_and_free(struct rte_mbuf *m, uint32_t max)
{
	enum vsw_drop_reason r = vsw_offload_in(m, max);

	rte_pktmbuf_free(m);
	return r;
}

/* Every lie a TSO frame or checksum request can tell is bad_offload. */
static void test_ingress_checks(void)
{
	static uint8_t f[MAXF];
	uint32_t len = tcp_frame(f, false, false, 20000, mac_b), o;
	struct rte_mbuf *m;

	m = tso(f, len, 1448);
	CHECK(vsw_offload_in(m, 1518) == VSW_DROP_MAX);
	CHECK(m->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
	CHECK(!(m->ol_flags & RTE_MBUF_F_RX_LRO));
	CHECK(m->l2_len == 14 && m->l3_len == 20 && m->l4_len == 32);
	rte_pktmbuf_free(m);
	/* the mtu rule is the segments': 1448 + 66 > 1500 + 18 - 4 */
	CHECK(in_and_free(tso(f, len, 1453), 1518) == VSW_DROP_OVERSIZE);
	CHECK(in_and_free(tso(f, len, 1452), 1518) == VSW_DROP_MAX);
	CHECK(in_and_free(tso(f, len, 0), 1518) == VSW_DROP_BAD_OFFLOAD);
	/* the gso_size floor (TCP_MIN_SND_MSS): 47 is a lie even on 21
	 * segments' worth of payload, 48 is not */
	len = tcp_frame(f, false, false, 1000, mac_b);
	CHECK(in_and_free(tso(f, len, 47), 1518) == VSW_DROP_BAD_OFFLOAD);
	CHECK(in_and_free(tso(f, len, 48), 1518) == VSW_DROP_MAX);
	len = tcp_frame(f, false, false, 20000, mac_b);
	/* more than 256 segments */
	CHECK(in_and_free(tso(f, len, 78), 1518) == VSW_DROP_BAD_OFFLOAD);
	CHECK(in_and_free(tso(f, len, 79), 1518) == VSW_DROP_MAX);
	/* descriptors longer or shorter than the IP header says */
	CHECK(in_and_free(tso(f, len - 1, 1448), 1518) == VSW_DROP_BAD_OFFLOAD);
	CHECK(in_and_free(tso(f, len + 1, 1448), 1518) == VSW_DROP_BAD_OFFLOAD);
	/* cut inside its headers */
	CHECK(in_and_free(tso(f, 60, 1448), 1518) == VSW_DROP_BAD_OFFLOAD);
	/* not TCP; a fragment; not IP; TCP data offset below 5 */
	f[23] = 17;
	CHECK(in_and_free(tso(f, len, 1448), 1518) == VSW_DROP_BAD_OFFLOAD);
	f[23] = 6;
	f[20] = 0x20; /* MF */
	CHECK(in_and_free(tso(f, len, 1448), 1518) == VSW_DROP_BAD_OFFLOAD);
	f[20] = 0x40;
	f[12] = 0x88, f[13] = 0xb5;
	CHECK(in_and_free(tso(f, len, 1448), 1518) == VSW_DROP_BAD_OFFLOAD);
	f[12] = 0x08, f[13] = 0x00;
	f[46] = 0x40;
	CHECK(in_and_free(tso(f, len, 1448), 1518) == VSW_DROP_BAD_OFFLOAD);
	f[46] = 0x80;
	/* IPv4 options that swallow the TCP header */
	f[14] = 0x4f; /* IHL 15: 60 bytes of IPv4 options */
	CHECK(in_and_free(tso(f, len, 1448), 1518) == VSW_DROP_BAD_OFFLOAD);
	f[14] = 0x45;
	/* a checksum request: TCP or UDP only, within the mtu */
	len = tcp_frame(f, true, true, 400, mac_b);
	m = mk(f, len);
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	CHECK(vsw_offload_in(m, 1518) == VSW_DROP_MAX);
	CHECK((m->ol_flags & RTE_MBUF_F_TX_L4_MASK) == RTE_MBUF_F_TX_TCP_CKSUM);
	CHECK(m->l2_len == 18 && m->l3_len == 40);
	rte_pktmbuf_free(m);
	o = 18 + 6;
	f[o] = 58; /* ICMPv6 */
	m = mk(f, len);
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	CHECK(vsw_offload_in(m, 1518) == VSW_DROP_BAD_OFFLOAD);
	rte_pktmbuf_free(m);
	CHECK(pool->n_free == pool->n);
}

/* IPv6 extension headers: what offload.h allows is walked (l3_len counts
 * it), anything else is bad_offload. */
static void test_ingress_ip6_ext(void)
{
	static uint8_t f[MAXF];
	uint32_t base = tcp_frame(f, true, false, 20000, mac_b), len;
	struct rte_mbuf *m;

	/* hop-by-hop, routing with no segments left, destination options */
	len = add_ext6(f, base, 60, 2, 0);
	len = add_ext6(f, len, 43, 3, 0);
	len = add_ext6(f, len, 0, 1, 0);
	m = tso(f, len, 1384);
	CHECK(vsw_offload_in(m, 1518) == VSW_DROP_MAX);
	CHECK(m->l2_len == 14 && m->l3_len == 40 + 48 && m->l4_len == 32);
	CHECK(m->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
	rte_pktmbuf_free(m);
	/* the segments' mtu rule counts them: 1385 + 14 + 88 + 32 > 1518 */
	CHECK(in_and_free(tso(f, len, 1385), 1518) == VSW_DROP_OVERSIZE);
	/* a fourth is walked, a fifth is not */
	len = add_ext6(f, len, 60, 1, 0);
	CHECK(in_and_free(tso(f, len, 1300), 1518) == VSW_DROP_MAX);
	len = add_ext6(f, len, 60, 1, 0);
	CHECK(in_and_free(tso(f, len, 1300), 1518) == VSW_DROP_BAD_OFFLOAD);
	/* a routing header with segments left names the pseudo header's
	 * destination: type 4 (segment routing) and 2 (Mobile IPv6), 8
	 * bytes in, are taken; type 0, one too short to hold an address,
	 * and a second one are not */
	len = add_ext6(f, tcp_frame(f, true, false, 20000, mac_b), 43, 3, 1);
	CHECK(in_and_free(tso(f, len, 1400), 1518) == VSW_DROP_BAD_OFFLOAD);
	f[56] = 4;
	m = tso(f, len, 1400);
	CHECK(vsw_offload_in(m, 1518) == VSW_DROP_MAX && m->l3_len == 64);
	rte_pktmbuf_free(m);
	f[56] = 2;
	CHECK(in_and_free(tso(f, len, 1400), 1518) == VSW_DROP_MAX);
	len = add_ext6(f, len, 43, 3, 1);
	f[56] = 4;
	CHECK(in_and_free(tso(f, len, 1400), 1518) == VSW_DROP_BAD_OFFLOAD);
	len = add_ext6(f, tcp_frame(f, true, false, 20000, mac_b), 43, 2, 1);
	f[56] = 4;
	CHECK(in_and_free(tso(f, len, 1400), 1518) == VSW_DROP_BAD_OFFLOAD);
	/* destination options: a home address option (the pseudo header's
	 * source) of 16 bytes is taken, of 15 not, nor two of them, nor an
	 * option that runs past its header */
	len = add_ext6(f, tcp_frame(f, true, false, 20000, mac_b), 60, 3, 0);
	f[56] = 0xc9, f[57] = 16;
	CHECK(in_and_free(tso(f, len, 1400), 1518) == VSW_DROP_MAX);
	f[57] = 15;
	CHECK(in_and_free(tso(f, len, 1400), 1518) == VSW_DROP_BAD_OFFLOAD);
	f[57] = 22;
	CHECK(in_and_free(tso(f, len, 1400), 1518) == VSW_DROP_BAD_OFFLOAD);
	f[57] = 16;
	len = add_ext6(f, len, 60, 3, 0);
	f[56] = 0xc9, f[57] = 16;
	CHECK(in_and_free(tso(f, len, 1400), 1518) == VSW_DROP_BAD_OFFLOAD);
	/* a fragment header; AH */
	len = add_ext6(f, tcp_frame(f, true, false, 20000, mac_b), 44, 1, 0);
	CHECK(in_and_free(tso(f, len, 1400), 1518) == VSW_DROP_BAD_OFFLOAD);
	f[20] = 51;
	CHECK(in_and_free(tso(f, len, 1400), 1518) == VSW_DROP_BAD_OFFLOAD);
	/* 256 bytes of them pass, 264 do not */
	len = add_ext6(f, tcp_frame(f, true, false, 20000, mac_b), 60, 32, 0);
	CHECK(in_and_free(tso(f, len, 1100), 1518) == VSW_DROP_MAX);
	len = add_ext6(f, len, 60, 1, 0);
	CHECK(in_and_free(tso(f, len, 1100), 1518) == VSW_DROP_BAD_OFFLOAD);
	/* one whose length runs past the packet */
	len = add_ext6(f, tcp_frame(f, true, false, 0, mac_b), 60, 1, 0);
	f[55] = 31;
	m = mk(f, len);
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	CHECK(vsw_offload_in(m, 1518) == VSW_DROP_BAD_OFFLOAD);
	rte_pktmbuf_free(m);
	/* a checksum request through them */
	len = add_ext6(f, tcp_frame(f, true, false, 700, mac_b), 0, 1, 0);
	m = mk(f, len);
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	CHECK(vsw_offload_in(m, 1518) == VSW_DROP_MAX);
	CHECK((m->ol_flags & RTE_MBUF_F_TX_L4_MASK) == RTE_MBUF_F_TX_TCP_CKSUM);
	CHECK(m->l3_len == 48);
	rte_pktmbuf_free(m);
	CHECK(pool->n_free == pool->n);
}

/* ---- through the worker --------------------------------------------- */

struct env {
	struct vsw_switch_conf sw;
	struct fake_port *p[4];
	struct vsw_port *ports[VSW_MAX_PORTS];
	int8_t owner[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	unsigned int lcores[2];
	struct vsw_table *dp;
	struct vsw_worker *w;
	struct vsw_fdb *fdb;
};

static void env_up(struct env *e, unsigned int n, const unsigned int *mtu)
{
	struct vsw_fdb_params fp = {.max_entries = 1024, .seed = 7};
	struct vsw_table_src src = {
		.sw = &e->sw,
		.ports = e->ports,
		.owner = e->owner,
		.lcores = e->lcores,
		.n_workers = 1,
		.hz = 1000000,
		.room = ROOM,
		.mp = pool->mp,
	};
	char err[VSW_ERR_MAX];

	memset(e, 0, sizeof(*e));
	e->fdb = vsw_fdb_create(&fp);
	e->dp = aligned_alloc(64, RTE_ALIGN_CEIL(sizeof(*e->dp), 64));
	e->w = aligned_alloc(64, RTE_ALIGN_CEIL(sizeof(*e->w), 64));
	memset(e->w, 0, sizeof(*e->w));
	e->sw.burst = 32;
	e->sw.tx_retries = 1;
	e->lcores[0] = 1;
	memset(e->owner, VSW_RXQ_UNASSIGNED, sizeof(e->owner));
	for (unsigned int i = 0; i < n; i++) {
		char name[8];

		snprintf(name, sizeof(name), "p%u", i);
		e->p[i] = fake_port_create(name, (uint16_t)i, 1);
		e->p[i]->up.conf.mtu = mtu[i];
		e->p[i]->up.tx_chains = true;
		e->p[i]->up.mp = pool->mp;
		e->ports[i] = &e->p[i]->up;
	}
	if (vsw_table_build(&src, e->dp, err, sizeof(err)) != 0) {
		fprintf(stderr, "table build: %s\n", err);
		exit(1);
	}
}

static void env_down(struct env *e, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		fake_port_destroy(e->p[i]);
	vsw_fdb_destroy(e->fdb);
	free(e->dp);
	free(e->w);
}

static void poll_all(struct env *e)
{
	vsw_worker_poll(e->w, e->dp, e->fdb, 100);
	vsw_worker_flush(e->w, e->dp, 0, true);
}

/* A frame from p1 so that p0 learns where mac_b... lives: p1 = mac_b. */
static void learn_b(struct env *e)
{
	static uint8_t f[128];
	uint32_t len = tcp_frame(f, false, false, 0, mac_a);

	memcpy(f + 6, mac_b, 6);
	fake_port_push(e->p[1], 0, mk(f, len));
	poll_all(e);
	for (unsigned int i = 0; i < 4 && e->p[i] != NULL; i++)
		fake_port_free_sent(e->p[i]);
}

/* TSO whole where taken, cut where not, flooded to both, mtu respected */
static void test_worker_tso(void)
{
	static uint8_t f[MAXF];
	const unsigned int mtu[3] = {1500, 1500, 9000};
	uint32_t len = tcp_frame(f, false, false, 30000, mac_b);
	struct env e;

	env_up(&e, 3, mtu);
	e.p[2]->up.tx_offloads = VSW_TXO_CSUM | VSW_TXO_TSO4;
	/* unknown destination: flooded to p1 (no TSO) and p2 (TSO) */
	fake_port_push(e.p[0], 0, tso(f, len, 1448));
	poll_all(&e);
	CHECK(e.w->ctrs[0].rx_packets == 1 && e.w->ctrs[0].offload_rx == 1);
	CHECK(e.w->ctrs[0].flooded == 1);
	CHECK(e.p[2]->n_sent == 1 && e.p[2]->sent[0]->pkt_len == len);
	CHECK(e.p[2]->sent[0]->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
	CHECK(e.p[1]->n_sent == 21); /* 30000 / 1448 */
	CHECK(e.w->ctrs[1].tso_segmented == 1 &&
	      e.w->ctrs[1].tso_segments == 21);
	CHECK(e.w->ctrs[1].tx_packets == 21 && e.w->ctrs[2].tx_packets == 1);
	for (unsigned int i = 0; i < e.p[1]->n_sent; i++) {
		CHECK(e.p[1]->sent[i]->pkt_len <= 1514);
		CHECK(e.p[1]->sent[i]->ol_flags == 0);
	}
	fake_port_free_sent(e.p[1]);
	fake_port_free_sent(e.p[2]);
	/* p2 learned nothing; mac_b on p1: unicast, cut for p1 */
	learn_b(&e);
	fake_port_push(e.p[0], 0, tso(f, len, 1448));
	poll_all(&e);
	CHECK(e.p[1]->n_sent == 21 && e.p[2]->n_sent == 0);
	fake_port_free_sent(e.p[1]);
	/* p1 takes TSO but its mtu (1500) is below 9000-byte segments: cut
	 * at what fits (1448 + 66 = 1514 frames) */
	e.p[1]->up.tx_offloads = VSW_TXO_CSUM | VSW_TXO_TSO4;
	fake_port_push(e.p[2], 0, tso(f, len, 8000));
	poll_all(&e);
	CHECK(e.w->ctrs[2].offload_rx == 1);
	CHECK(e.p[1]->n_sent == 21);
	for (unsigned int i = 0; i < e.p[1]->n_sent; i++)
		CHECK(e.p[1]->sent[i]->pkt_len <= 1518);
	fake_port_free_sent(e.p[1]);
	/* from p0 (mtu 1500): 8000-byte segments break its mtu */
	fake_port_push(e.p[0], 0, tso(f, len, 8000));
	poll_all(&e);
	CHECK(e.w->ctrs[0].drops[VSW_DROP_OVERSIZE] == 1);
	/* a lie: dropped where it enters, counted by reason */
	fake_port_push(e.p[0], 0, tso(f, len - 10, 1448));
	poll_all(&e);
	CHECK(e.w->ctrs[0].drops[VSW_DROP_BAD_OFFLOAD] == 1);
	env_down(&e, 3);
	CHECK(pool->n_free == pool->n && pool->double_frees == 0);
}

/* Three ports: p1 cuts TSO frames without filling the IPv4 header
 * checksum (the virtio PMD), p2 fills it too; @f an IPv4 TSO frame of
 * 30000 payload bytes to mac_b whose header checksum is wrong: its length */
static uint32_t ipcsum_env(struct env *e, uint8_t *f)
{
	const unsigned int mtu[3] = {1500, 1500, 1500};
	uint32_t len = tcp_frame(f, false, false, 30000, mac_b);

	env_up(e, 3, mtu);
	e->p[1]->up.tx_offloads = VSW_TXO_CSUM | VSW_TXO_TSO4 | VSW_TXO_TSO6;
	e->p[2]->up.tx_offloads =
		VSW_TXO_CSUM | VSW_TXO_TSO4 | VSW_TXO_TSO6 | VSW_TXO_IPCSUM;
	f[24] = 0xde, f[25] = 0xad;
	return len;
}

/* @f's @len bytes as a TSO frame (segment size 1448) in one mbuf of @big */
static struct rte_mbuf *tso_linear(struct fake_pool *big, const uint8_t *f,
				   uint32_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(big->mp);

	memcpy(rte_pktmbuf_append(m, (uint16_t)len), f, len);
	m->ol_flags = RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_NONE;
	m->tso_segsz = 1448;
	return m;
}

/* An output that cuts TSO frames but does not fill the IPv4 header
 * checksum (VSW_TXO_IPCSUM unset: the virtio PMD): the frame whole, its
 * header checksum written by the datapath and RTE_MBUF_F_TX_IP_CKSUM
 * cleared (a copy when the frame is shared); an output that fills it
 * gets the frame as it came, flag kept. */
static void test_worker_tso_ipcsum(void)
{
	static uint8_t f[MAXF];
	const uint64_t seg_ip = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IP_CKSUM;
	struct rte_mbuf *m, *s1, *s2;
	const uint8_t *ip;
	struct env e;
	uint32_t len = ipcsum_env(&e, f);

	/* unknown destination: flooded to both */
	fake_port_push(e.p[0], 0, tso(f, len, 1448));
	poll_all(&e);
	CHECK(e.p[1]->n_sent == 1 && e.p[2]->n_sent == 1);
	s1 = e.p[1]->sent[0], s2 = e.p[2]->sent[0];
	CHECK(s1 != s2 && s1->pkt_len == len && s2->pkt_len == len);
	CHECK((s1->ol_flags & seg_ip) == RTE_MBUF_F_TX_TCP_SEG);
	CHECK((s2->ol_flags & seg_ip) == seg_ip);
	ip = rte_pktmbuf_mtod_offset(s1, const uint8_t *, 14);
	CHECK(rte_ipv4_cksum((const struct rte_ipv4_hdr *)ip) == 0);
	ip = rte_pktmbuf_mtod_offset(s2, const uint8_t *, 14);
	CHECK(ip[10] == 0xde && ip[11] == 0xad); /* p2 fills it */
	CHECK(e.w->ctrs[1].tso_segmented == 0 &&
	      e.w->ctrs[2].tso_segmented == 0);
	fake_port_free_sent(e.p[1]);
	fake_port_free_sent(e.p[2]);
	/* unicast to p1: the frame itself, written in place */
	learn_b(&e);
	m = tso(f, len, 1448);
	fake_port_push(e.p[0], 0, m);
	poll_all(&e);
	CHECK(e.p[1]->n_sent == 1 && e.p[1]->sent[0] == m);
	CHECK((m->ol_flags & seg_ip) == RTE_MBUF_F_TX_TCP_SEG);
	ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, 14);
	CHECK(rte_ipv4_cksum((const struct rte_ipv4_hdr *)ip) == 0);
	fake_port_free_sent(e.p[1]);
	/* IPv6 has no header checksum: whole, nothing written */
	len = tcp_frame(f, true, false, 30000, mac_b);
	fake_port_push(e.p[0], 0, tso(f, len, 1428));
	poll_all(&e);
	CHECK(e.p[1]->n_sent == 1 && e.p[1]->sent[0]->pkt_len == len);
	CHECK(e.p[1]->sent[0]->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
	CHECK(e.w->ctrs[1].tso_segmented == 0);
	fake_port_free_sent(e.p[1]);
	env_down(&e, 3);
	CHECK(pool->n_free == pool->n && pool->double_frees == 0);
}

/* The same output (no IPCSUM) where it takes no chains: a TSO frame in
 * one big mbuf goes whole when it is ours alone (its header checksum
 * written in place); shared (a flood), its copy would be a chain, so it
 * is cut into one-mbuf segments. */
static void test_worker_tso_ipcsum_linear(void)
{
	static uint8_t f[MAXF];
	struct fake_pool *big = fake_pool_create(4, 65535);
	struct rte_mbuf *m;
	const uint8_t *ip;
	struct env e;
	uint32_t len = ipcsum_env(&e, f);

	e.dp->pp[1].tx_chains = false;
	/* flooded: p2 whole, p1 cut */
	fake_port_push(e.p[0], 0, tso_linear(big, f, len));
	poll_all(&e);
	CHECK(e.p[2]->n_sent == 1 && e.p[2]->sent[0]->pkt_len == len);
	CHECK(e.w->ctrs[1].tso_segmented == 1);
	CHECK(e.p[1]->n_sent > 1 &&
	      e.p[1]->n_sent == e.w->ctrs[1].tso_segments);
	for (unsigned int i = 0; i < e.p[1]->n_sent; i++) {
		m = e.p[1]->sent[i];
		ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, 14);
		CHECK(m->nb_segs == 1 && m->ol_flags == 0);
		CHECK(rte_ipv4_cksum((const struct rte_ipv4_hdr *)ip) == 0);
	}
	fake_port_free_sent(e.p[1]);
	fake_port_free_sent(e.p[2]);
	/* unicast to p1: ours alone, whole, written in place */
	learn_b(&e);
	m = tso_linear(big, f, len);
	fake_port_push(e.p[0], 0, m);
	poll_all(&e);
	CHECK(e.p[1]->n_sent == 1 && e.p[1]->sent[0] == m);
	CHECK(e.w->ctrs[1].tso_segmented == 1);
	ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, 14);
	CHECK(rte_ipv4_cksum((const struct rte_ipv4_hdr *)ip) == 0);
	CHECK(!(m->ol_flags & RTE_MBUF_F_TX_IP_CKSUM));
	fake_port_free_sent(e.p[1]);
	env_down(&e, 3);
	CHECK(pool->n_free == pool->n && pool->double_frees == 0);
	CHECK(big->n_free == big->n && big->double_frees == 0);
	fake_pool_destroy(big);
}

/* IPv6 with extension headers: whole, or its checksum kept, only for an
 * output that takes them (VSW_TXO_IP6EXT: a guest); an ethdev that cuts
 * and fills IPv6 (TSO6, CSUM) gets segments and filled checksums. */
static void test_worker_ip6_ext(void)
{
	static uint8_t f[MAXF];
	const unsigned int mtu[3] = {1500, 1500, 1500};
	const uint32_t guest = VSW_TXO_CSUM | VSW_TXO_TSO4 | VSW_TXO_TSO6 |
			       VSW_TXO_IPCSUM | VSW_TXO_IP6EXT;
	uint32_t len = tcp_frame(f, true, false, 30000, mac_b);
	struct rte_mbuf *m;
	struct env e;

	env_up(&e, 3, mtu);
	e.p[1]->up.tx_offloads = guest & ~VSW_TXO_IP6EXT;
	e.p[2]->up.tx_offloads = guest;
	len = add_ext6(f, len, 60, 2, 0);
	fake_port_push(e.p[0], 0, tso(f, len, 1412));
	poll_all(&e);
	CHECK(e.w->ctrs[0].offload_rx == 1 && e.w->ctrs[0].flooded == 1);
	CHECK(e.p[2]->n_sent == 1 && e.p[2]->sent[0]->pkt_len == len);
	CHECK(e.p[2]->sent[0]->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
	CHECK(e.p[2]->sent[0]->l3_len == 56);
	CHECK(e.p[1]->n_sent == 22); /* 30000 / 1412 */
	CHECK(e.w->ctrs[1].tso_segmented == 1 &&
	      e.w->ctrs[1].tso_segments == 22);
	for (unsigned int i = 0; i < e.p[1]->n_sent; i++) {
		CHECK(e.p[1]->sent[i]->pkt_len <= 1514);
		CHECK(e.p[1]->sent[i]->ol_flags == 0);
	}
	fake_port_free_sent(e.p[1]);
	fake_port_free_sent(e.p[2]);
	/* a checksum to fill: filled for p1, kept for p2 */
	len = add_ext6(f, tcp_frame(f, true, false, 900, mac_b), 0, 1, 0);
	m = mk(f, len);
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	fake_port_push(e.p[0], 0, m);
	poll_all(&e);
	CHECK(e.p[1]->n_sent == 1 && e.p[2]->n_sent == 1);
	CHECK(e.w->ctrs[1].csum_filled == 1 && e.w->ctrs[2].csum_filled == 0);
	CHECK(e.p[1]->sent[0]->ol_flags == 0);
	CHECK(e.p[2]->sent[0]->ol_flags & RTE_MBUF_F_TX_TCP_CKSUM);
	fake_port_free_sent(e.p[1]);
	fake_port_free_sent(e.p[2]);
	env_down(&e, 3);
	CHECK(pool->n_free == pool->n && pool->double_frees == 0);
}

/* A checksum left to fill: kept for an output that takes it, filled in
 * for one that does not (a copy when the frame is shared). */
static void test_worker_csum(void)
{
	static uint8_t f[2048];
	const unsigned int mtu[3] = {1500, 1500, 1500};
	uint32_t len = tcp_frame(f, false, false, 1000, mac_b);
	struct rte_mbuf *m;
	const uint8_t *d;
	struct env e;
	uint8_t sum[2];

	env_up(&e, 3, mtu);
	e.p[2]->up.tx_offloads = VSW_TXO_CSUM;
	f[50] = 0x12, f[51] = 0x34;
	m = mk(f, len);
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	fake_port_push(e.p[0], 0, m);
	poll_all(&e);
	CHECK(e.p[1]->n_sent == 1 && e.p[2]->n_sent == 1);
	CHECK(e.p[1]->sent[0] != e.p[2]->sent[0]); /* p1's is a copy */
	CHECK(e.w->ctrs[1].csum_filled == 1 && e.w->ctrs[2].csum_filled == 0);
	CHECK(e.p[1]->sent[0]->ol_flags == 0);
	CHECK(e.p[2]->sent[0]->ol_flags & RTE_MBUF_F_TX_TCP_CKSUM);
	/* p1's filled in, p2's as the guest left it (0x1234) */
	d = rte_pktmbuf_read(e.p[1]->sent[0], 50, 2, sum);
	CHECK(d != NULL && (d[0] != 0x12 || d[1] != 0x34));
	d = rte_pktmbuf_read(e.p[2]->sent[0], 50, 2, sum);
	CHECK(d != NULL && d[0] == 0x12 && d[1] == 0x34);
	CHECK(e.w->ctrs[1].tx_linearized == 0);
	fake_port_free_sent(e.p[1]);
	fake_port_free_sent(e.p[2]);
	/* a shorter one in 200-byte segments (a memif's), p1 without
	 * chained tx: one mbuf, counted, its checksum filled; p2 the chain */
	e.dp->pp[1].tx_chains = false;
	len = tcp_frame(f, false, false, 300, mac_b);
	f[50] = 0x12, f[51] = 0x34;
	m = fake_pool_chain(pool, f, len, 200);
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	fake_port_push(e.p[0], 0, m);
	poll_all(&e);
	CHECK(e.p[1]->n_sent == 1 && e.p[2]->n_sent == 1);
	if (e.p[1]->n_sent == 1) {
		CHECK(e.p[1]->sent[0]->nb_segs == 1 &&
		      e.p[1]->sent[0]->pkt_len == len);
		d = rte_pktmbuf_read(e.p[1]->sent[0], 50, 2, sum);
		CHECK(d != NULL && (d[0] != 0x12 || d[1] != 0x34));
	}
	CHECK(e.p[2]->n_sent == 1 && e.p[2]->sent[0]->nb_segs == 2);
	CHECK(e.w->ctrs[1].tx_linearized == 1 && e.w->ctrs[1].csum_filled == 2);
	CHECK(e.w->ctrs[2].tx_linearized == 0);
	fake_port_free_sent(e.p[1]);
	fake_port_free_sent(e.p[2]);
	env_down(&e, 3);
	CHECK(pool->n_free == pool->n && pool->double_frees == 0);
}

/* poll_all at the worker's fake clock (held frames keep their time) */
static void poll_now(struct env *e)
{
	vsw_worker_poll(e->w, e->dp, e->fdb, 100);
	vsw_worker_flush(e->w, e->dp, e->w->fake_tsc, true);
}

/*
 * A guest that reconnects (vhost's destroy_device moves conn_gen) while
 * frames the worker left offloaded for its last connection still wait
 * in its buffer, held by a full ring or waiting for the flush interval:
 * they are dropped (port_down), never given to the new guest, which may
 * not have negotiated TSO or checksums; plain frames wait on.
 */
static void test_worker_reconnect(void)
{
	static uint8_t f[MAXF];
	const unsigned int mtu[3] = {1500, 1500, 1500};
	uint32_t len = tcp_frame(f, false, false, 30000, mac_b);
	uint32_t plen = tcp_frame(f + 40000, false, false, 100, mac_b);
	struct rte_mbuf *m;
	struct env e;

	env_up(&e, 3, mtu);
	e.p[1]->up.tx_offloads = VSW_TXO_CSUM | VSW_TXO_TSO4;
	learn_b(&e);
	/* p1's ring is full: its TSO frame, given whole, is held */
	e.dp->par.hold_tsc = 1000000;
	e.w->fake_tsc = 1000;
	e.p[1]->tx_room = 0;
	fake_port_push(e.p[0], 0, tso(f, len, 1448));
	poll_now(&e);
	CHECK(e.w->txb[1].n == 1 && e.w->ctrs[1].tx_holds == 1);
	/* its guest goes and a new one comes, without TSO, before the worker
	 * flushes p1 again (the worker was descheduled meanwhile) */
	e.p[1]->up.tx_offloads = 0;
	e.p[1]->up.conn_gen++;
	e.p[1]->tx_room = UINT32_MAX;
	e.w->fake_tsc = 2000;
	poll_now(&e);
	CHECK(e.p[1]->n_sent == 0 && e.w->txb[1].n == 0);
	CHECK(e.w->ctrs[1].drops[VSW_DROP_PORT_DOWN] == 1);
	/* the next TSO frame is cut for it */
	fake_port_push(e.p[0], 0, tso(f, len, 1448));
	poll_now(&e);
	CHECK(e.p[1]->n_sent == 21 && e.w->ctrs[1].tso_segmented == 1);
	for (unsigned int i = 0; i < e.p[1]->n_sent; i++)
		CHECK(e.p[1]->sent[i]->ol_flags == 0);
	fake_port_free_sent(e.p[1]);
	/* a checksum left to a csum guest waits for the flush interval
	 * beside a plain frame; the guest reconnects without csum: the
	 * csum frame is dropped, the plain one leaves for the new guest */
	e.p[1]->up.tx_offloads = VSW_TXO_CSUM;
	e.dp->par.flush_tsc = 1000000000;
	m = mk(f + 40000, plen);
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	fake_port_push(e.p[0], 0, m);
	fake_port_push(e.p[0], 0, mk(f + 40000, plen));
	vsw_worker_poll(e.w, e.dp, e.fdb, 100);
	CHECK(e.w->txb[1].n == 2 && e.p[1]->n_sent == 0);
	e.p[1]->up.tx_offloads = 0;
	e.p[1]->up.conn_gen++;
	vsw_worker_flush(e.w, e.dp, e.w->fake_tsc, true);
	CHECK(e.p[1]->n_sent == 1 && e.w->txb[1].n == 0);
	CHECK(e.p[1]->n_sent == 1 && e.p[1]->sent[0]->ol_flags == 0 &&
	      e.p[1]->sent[0]->pkt_len == plen);
	CHECK(e.w->ctrs[1].drops[VSW_DROP_PORT_DOWN] == 2);
	CHECK(e.w->ctrs[1].tx_packets == 22);
	fake_port_free_sent(e.p[1]);
	/* held plain frames behind a TSO frame left whole: the TSO frame
	 * goes, the plain ones leave in their order */
	e.p[1]->up.tx_offloads = VSW_TXO_CSUM | VSW_TXO_TSO4;
	e.dp->par.flush_tsc = 0;
	e.p[1]->tx_room = 0;
	fake_port_push(e.p[0], 0, mk(f + 40000, plen));
	fake_port_push(e.p[0], 0, tso(f, len, 1448));
	fake_port_push(e.p[0], 0, mk(f + 40000, plen - 10));
	poll_now(&e);
	CHECK(e.w->txb[1].n == 3 && e.p[1]->n_sent == 0);
	e.p[1]->up.tx_offloads = 0;
	e.p[1]->up.conn_gen++;
	e.p[1]->tx_room = UINT32_MAX;
	poll_now(&e);
	CHECK(e.p[1]->n_sent == 2 && e.w->txb[1].n == 0);
	CHECK(e.p[1]->n_sent == 2 && e.p[1]->sent[0]->pkt_len == plen &&
	      e.p[1]->sent[1]->pkt_len == plen - 10);
	CHECK(e.w->ctrs[1].drops[VSW_DROP_PORT_DOWN] == 3);
	fake_port_free_sent(e.p[1]);
	/* plain frames alone wait across a reconnect and leave */
	fake_port_push(e.p[0], 0, mk(f + 40000, plen));
	vsw_worker_poll(e.w, e.dp, e.fdb, 100);
	e.p[1]->up.conn_gen++;
	vsw_worker_flush(e.w, e.dp, e.w->fake_tsc, true);
	CHECK(e.p[1]->n_sent == 1 &&
	      e.w->ctrs[1].drops[VSW_DROP_PORT_DOWN] == 3);
	fake_port_free_sent(e.p[1]);
	e.w->fake_tsc = 0;
	env_down(&e, 3);
	CHECK(pool->n_free == pool->n && pool->double_frees == 0);
}

/* A jumbo frame in one big mbuf whose checksum is left to fill, flooded
 * to an output that fills none and takes no chains (p1) and to one that
 * fills it (p2): p1's copy, in which the checksum is written, must be
 * one mbuf too (a copy into the switch's small mbufs is a chain, which
 * such a port would send cut); p2 gets the frame as it came. */
static void test_worker_csum_linear(void)
{
	static uint8_t f[MAXF];
	const unsigned int mtu[3] = {9000, 9000, 9000};
	struct fake_pool *big = fake_pool_create(4, 65535);
	uint32_t len = tcp_frame(f, false, false, 3000, mac_b);
	uint8_t sum[2];
	const uint8_t *d;
	struct rte_mbuf *m, *s1;
	struct env e;

	env_up(&e, 3, mtu);
	e.dp->pp[1].tx_chains = false;
	e.p[2]->up.tx_offloads = VSW_TXO_CSUM;
	f[50] = 0x12, f[51] = 0x34;
	m = rte_pktmbuf_alloc(big->mp);
	memcpy(rte_pktmbuf_append(m, (uint16_t)len), f, len);
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	fake_port_push(e.p[0], 0, m);
	poll_all(&e);
	CHECK(e.p[2]->n_sent == 1 && e.p[2]->sent[0] == m);
	CHECK(e.w->ctrs[1].drops[VSW_DROP_TOO_BIG] == 0);
	CHECK(e.p[1]->n_sent == 1);
	if (e.p[1]->n_sent == 1) {
		s1 = e.p[1]->sent[0];
		CHECK(s1 != m && s1->nb_segs == 1 && s1->pkt_len == len);
		CHECK(s1->ol_flags == 0 && e.w->ctrs[1].csum_filled == 1);
		d = rte_pktmbuf_read(s1, 50, 2, sum);
		CHECK(d != NULL && (d[0] != 0x12 || d[1] != 0x34));
	}
	fake_port_free_sent(e.p[1]);
	fake_port_free_sent(e.p[2]);
	env_down(&e, 3);
	CHECK(pool->n_free == pool->n && pool->double_frees == 0);
	CHECK(big->n_free == big->n && big->double_frees == 0);
	fake_pool_destroy(big);
}

int main(int argc, char **argv)
{
	pool = fake_pool_create(POOL_N, RTE_PKTMBUF_HEADROOM + ROOM);
	if (pool == NULL)
		return 1;
	if (argc > 1 && strcmp(argv[1], "--ref") == 0)
		return ref_mode();
	RUN(test_ingress_checks);
	RUN(test_ingress_ip6_ext);
	RUN(test_worker_tso);
	RUN(test_worker_tso_ipcsum);
	RUN(test_worker_tso_ipcsum_linear);
	RUN(test_worker_ip6_ext);
	RUN(test_worker_csum);
	RUN(test_worker_csum_linear);
	RUN(test_worker_reconnect);
	fake_pool_destroy(pool);
	return TEST_EXIT();
}
