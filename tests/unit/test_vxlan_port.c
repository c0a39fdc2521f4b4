/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A vxlan port's send path (port/vxlan.c's vx_tx) on a real EAL, its
 * underlay net_ring, whose rx gives back what the port sent: what leaves
 * for which VTEP, whose mbuf it is, what is dropped and counted, and that
 * no mbuf is lost.  White box: port/vxlan.c is included, so that the
 * VTEPs' next hops are resolved as ARP would resolve them.
 *
 *   - a unicast to the VTEP the FDB named leaves in the frame's own mbuf,
 *     under outer headers to that VTEP (checksum, UDP 4789, VNI)
 *   - a flood goes to every VTEP of the VNI, the last copy the frame
 *     itself; the other copies are made in the switch's mbufs, also when
 *     the frame sits in a 64 KiB big mbuf (a Linux guest's: one 64 KiB
 *     buffer per VTEP otherwise)
 *   - a frame shared with another output is copied, the original kept
 *   - a VTEP whose next hop is not resolved, and a VLAN without a VNI:
 *     dropped, counted by reason, freed
 */
#include "../../port/vxlan.c"

#include <unistd.h>

#include <rte_eal.h>

#include "vsw_test.h"

static struct rte_mempool *sw_mp, *big_mp;
static struct vsw_port *port;

static struct vsw_vxlan_port *vx(void)
{
	return vx_cast(port);
}

/* A 60-byte frame to @dst (last byte) in @mp, the FDB's VTEP @ep (1..,
 * 0: none); @vlan > 0: tagged. */
static struct rte_mbuf *frame(struct rte_mempool *mp, uint8_t dst, uint32_t ep,
			      int vlan)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	uint8_t *d;

	CHECK(m != NULL);
	if (m == NULL)
		exit(1);
	d = rte_pktmbuf_mtod(m, uint8_t *);
	memset(d, 0, 60);
	memcpy(d, "\x02\xbe\x00\x00\x00\x00\x02\xbe\x00\x00\x00\x01", 12);
	d[5] = dst;
	if (vlan > 0) {
		d[12] = 0x81;
		d[14] = (uint8_t)(vlan >> 8);
		d[15] = (uint8_t)vlan;
		d[16] = 0x08;
	} else {
		d[12] = 0x08;
	}
	m->data_len = 60;
	m->pkt_len = 60;
	m->hash.usr = ep;
	return m;
}

/* What the underlay got: up to @max frames into @out. */
static unsigned int sent(struct rte_mbuf **out, unsigned int max)
{
	return rte_eth_rx_burst(vx()->eth.port_id, 0, out, (uint16_t)max);
}

/* @m is a tunnelled frame to VTEP @ip (host order), VNI 100, carrying
 * 60 bytes whose destination MAC ends in @dst, its checksum right. */
static void check_outer(struct rte_mbuf *m, uint32_t ip, uint8_t dst)
{
	const struct vx_hdr *h = rte_pktmbuf_mtod(m, const struct vx_hdr *);

	CHECK(m->pkt_len == 60 + sizeof(*h));
	CHECK(h->eth.ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4));
	CHECK(rte_be_to_cpu_32(h->ip.dst_addr) == ip);
	CHECK(rte_be_to_cpu_32(h->ip.src_addr) == 0xc6120001);
	CHECK(rte_raw_cksum(&h->ip, sizeof(h->ip)) == 0xffff);
	CHECK(rte_be_to_cpu_16(h->ip.total_length) == m->pkt_len - 14);
	CHECK(h->udp.dst_port == RTE_BE16(VSW_VXLAN_UDP_PORT));
	CHECK(rte_be_to_cpu_16(h->udp.dgram_len) == m->pkt_len - 34);
	CHECK(h->vni == RTE_BE32(100 << 8) && h->flags == 0x08);
	CHECK(((const uint8_t *)(h + 1))[5] == dst);
}

static uint64_t drops(enum vsw_vx_drop r)
{
	return vx()->tx_drops[0][r];
}

static void test_unicast(void)
{
	struct rte_mbuf *m = frame(sw_mp, 1, 2, 0), *out[4];

	vx_tx(port, 0, &m, 1);
	CHECK(sent(out, 4) == 1);
	CHECK(out[0] == m); /* no copy */
	check_outer(out[0], 0xc6120003, 1);
	CHECK(vx()->tx[0][1].packets == 1 && vx()->tx[0][0].packets == 0);
	CHECK(vx()->unicast[0] == 1);
	rte_pktmbuf_free(out[0]);
}

static void test_flood_big(void)
{
	struct rte_mbuf *m = frame(big_mp, 0xff, 0, 0), *out[4];
	unsigned int n, big = 0;

	vx_tx(port, 0, &m, 1);
	n = sent(out, 4);
	CHECK(n == 2);
	for (unsigned int i = 0; i < n; i++) {
		check_outer(out[i], 0xc6120002 + i, 0xff);
		big += out[i]->pool == big_mp;
	}
	/* the last VTEP's is the frame itself; the other copy is the
	 * switch's */
	CHECK(out[1] == m);
	CHECK(out[0]->pool == sw_mp);
	CHECK(big == 1);
	rte_pktmbuf_free_bulk(out, n);
}

static void test_shared(void)
{
	struct rte_mbuf *m = frame(sw_mp, 1, 1, 0), *out[4];

	rte_mbuf_refcnt_update(m, 1); /* another output holds it too */
	vx_tx(port, 0, &m, 1);
	CHECK(sent(out, 4) == 1);
	CHECK(out[0] != m && out[0]->pool == sw_mp);
	check_outer(out[0], 0xc6120002, 1);
	CHECK(rte_mbuf_refcnt_read(m) == 1);
	CHECK(m->pkt_len == 60); /* the original untouched */
	rte_pktmbuf_free(out[0]);
	rte_pktmbuf_free(m);
}

static void test_drops(void)
{
	struct rte_mbuf *m[2], *out[4];
	uint64_t unres = drops(VSW_VX_DROP_UNRESOLVED);
	uint64_t novni = drops(VSW_VX_DROP_NO_VNI);

	vx()->vtep[1].mac = 0; /* its ARP not answered yet */
	m[0] = frame(sw_mp, 1, 2, 0);
	m[1] = frame(sw_mp, 1, 1, 7); /* VLAN 7: no VNI */
	vx_tx(port, 0, m, 2);
	CHECK(sent(out, 4) == 0);
	CHECK(drops(VSW_VX_DROP_UNRESOLVED) == unres + 1);
	CHECK(drops(VSW_VX_DROP_NO_VNI) == novni + 1);
	vx()->vtep[1].mac = 0x02c000000003ull | VX_MAC_VALID;
}

int main(int argc, char **argv)
{
	char prefix[64], err[VSW_ERR_MAX];
	char *eal[] = {
		argv[0],	 "--no-huge", "-m", "128",	   "--no-pci",
		"--no-shconf",	 "-l",	      "0",  "--log-level", "*:error",
		"--file-prefix", prefix};
	struct vsw_port_conf pc;
	struct vsw_port_env env = {0};
	unsigned int sw_avail, big_avail;

	(void)argc;
	snprintf(prefix, sizeof(prefix), "test_vxlan_port%d", (int)getpid());
	if (rte_eal_init((int)(sizeof(eal) / sizeof(eal[0])), eal) < 0) {
		fprintf(stderr, "SKIP: EAL: %s\n", rte_strerror(rte_errno));
		return 77;
	}
	sw_mp = rte_pktmbuf_pool_create(
		"sw", 511, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	big_mp = rte_pktmbuf_pool_create("big", 7, 0, 0, UINT16_MAX,
					 SOCKET_ID_ANY);
	CHECK(sw_mp != NULL && big_mp != NULL);
	env.mp = sw_mp;
	env.n_workers = 1;
	CHECK(vsw_config_port_from_kv("vx",
				      "type=vxlan,local-ip=198.18.0.1/24,"
				      "remote-ips=198.18.0.2 198.18.0.3,"
				      "vni=100,devargs=net_ring0",
				      NULL, &pc, err, sizeof(err)) == 0);
	if (vsw_port_create(&pc, 0, &env, &port, err, sizeof(err)) != 0) {
		fprintf(stderr, "vxlan port: %s\n", err);
		return 1;
	}
	vx()->vtep[0].mac = 0x02c000000002ull | VX_MAC_VALID;
	vx()->vtep[1].mac = 0x02c000000003ull | VX_MAC_VALID;
	sw_avail = rte_mempool_avail_count(sw_mp);
	big_avail = rte_mempool_avail_count(big_mp);

	RUN(test_unicast);
	RUN(test_flood_big);
	RUN(test_shared);
	RUN(test_drops);

	CHECK(rte_mempool_avail_count(sw_mp) == sw_avail);
	CHECK(rte_mempool_avail_count(big_mp) == big_avail);
	vsw_port_destroy(port);
	rte_eal_cleanup();
	return TEST_EXIT();
}
