/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cycles per frame of a vxlan port's own work, with the underlay's taken
 * out: tools/bench --vxlan measures the whole path, whose noise on a
 * shared machine hides a change of a few cycles.  White box: port/vxlan.c
 * is included, so that the VTEP's next hop can be resolved as ARP would.
 *
 *   send:    vx_tx (the VNI, the VTEP, the outer headers) against the same
 *            frames handed to the underlay directly (vsw_eth_tx, what an
 *            ethdev port does), on net_null, which frees them
 *   receive: vx_rx (rx burst, the outer headers checked, the VTEP and VNI
 *            found, stripped) against the rx burst alone, on net_ring,
 *            whose rx gives back what was sent to it (outside the timing)
 *
 *   bench_vxlan [ITERATIONS]
 *
 * Bursts of 32 64-byte IPv4/UDP frames, a new flow per frame, to or from
 * one VTEP (a unicast the FDB learned behind it; tunnelled with UDP
 * checksum 0, as vsw and Linux send).  Prints "plain tx: best B median M
 * cycles/frame", then "encap", "plain rx", "decap", twice.  On huge pages
 * when 256 MiB of them are free, as vsw runs.  Not a test.
 */
#include "../../port/vxlan.c"

#include <stdlib.h>
#include <unistd.h>

#include <rte_eal.h>

#define BURST 32

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool huge_free(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long n = 0, kb = 0;

	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		sscanf(line, "HugePages_Free: %ld", &n);
		sscanf(line, "Hugepagesize: %ld", &kb);
	}
	if (f != NULL)
		fclose(f);
	return n * kb >= 256 * 1024;
}

static void fill(struct rte_mempool *mp, struct rte_mbuf **m, uint32_t flow)
{
	if (rte_pktmbuf_alloc_bulk(mp, m, BURST) != 0) {
		fprintf(stderr, "bench_vxlan: out of mbufs\n");
		exit(1);
	}
	for (unsigned int i = 0; i < BURST; i++) {
		uint8_t *d = rte_pktmbuf_mtod(m[i], uint8_t *);
		uint32_t f = flow + i;

		m[i]->data_len = 60;
		m[i]->pkt_len = 60;
		memset(d, 0, 60);
		memcpy(d, "\x02\xbe\x00\x00\x00\x01\x02\xbe\x00\x00\x00\x00",
		       12);
		d[12] = 0x08;
		d[14] = 0x45;
		d[16] = 0;
		d[17] = 46;
		d[22] = 64;
		d[23] = IPPROTO_UDP;
		memcpy(d + 26, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
		d[34] = (uint8_t)(f >> 8);
		d[35] = (uint8_t)f;
		d[36] = 0x30;
		d[37] = 0x39;
		m[i]->hash.usr = 1; /* the FDB's VTEP 0 */
	}
}

/* @m's frames (fill's) tunnelled from 198.18.0.2 to VTEP @x, VNI 100 */
static void outer(const struct vsw_vxlan_port *x, struct rte_mbuf **m)
{
	for (unsigned int i = 0; i < BURST; i++) {
		struct vx_hdr *h = (struct vx_hdr *)rte_pktmbuf_prepend(
			m[i], sizeof(struct vx_hdr));
		uint16_t tot = (uint16_t)(m[i]->pkt_len - RTE_ETHER_HDR_LEN);

		memset(h, 0, sizeof(*h));
		rte_ether_addr_copy(&x->mac, &h->eth.dst_addr);
		h->eth.ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
		h->ip.version_ihl = RTE_IPV4_VHL_DEF;
		h->ip.total_length = rte_cpu_to_be_16(tot);
		h->ip.time_to_live = 64;
		h->ip.next_proto_id = IPPROTO_UDP;
		h->ip.src_addr = RTE_BE32(0xc6120002);
		h->ip.dst_addr = RTE_BE32(0xc6120001);
		h->ip.hdr_checksum = rte_ipv4_cksum(&h->ip);
		h->udp.src_port = rte_cpu_to_be_16((uint16_t)(49152 + i));
		h->udp.dst_port = RTE_BE16(VSW_VXLAN_UDP_PORT);
		h->udp.dgram_len = rte_cpu_to_be_16(
			(uint16_t)(tot - sizeof(struct rte_ipv4_hdr)));
		h->flags = 0x08;
		h->vni = RTE_BE32(100 << 8);
	}
}

enum mode { PLAIN_TX, ENCAP, PLAIN_RX, DECAP };

static void run(const char *what, struct vsw_port *p, struct rte_mempool *mp,
		unsigned int iters, enum mode mode)
{
	struct vsw_vxlan_port *x = vx_cast(p);
	uint64_t *s = calloc(iters, sizeof(*s));
	struct rte_mbuf *m[BURST];

	if (s == NULL)
		exit(1);
	for (unsigned int it = 0; it < iters; it++) {
		uint64_t t0;
		uint16_t n = BURST;

		fill(mp, m, it * BURST);
		if (mode >= PLAIN_RX) {
			outer(x, m);
			if (vsw_eth_tx(&x->eth, 0, m, BURST) != BURST) {
				fprintf(stderr, "bench_vxlan: ring full\n");
				exit(1);
			}
		}
		t0 = rte_rdtsc_precise();
		switch (mode) {
		case PLAIN_TX:
			vsw_eth_tx(&x->eth, 0, m, BURST);
			break;
		case ENCAP:
			vx_tx(p, 0, m, BURST);
			break;
		case PLAIN_RX:
			n = rte_eth_rx_burst(x->eth.port_id, 0, m, BURST);
			break;
		case DECAP:
			n = vx_rx(p, 0, m, BURST);
			break;
		}
		s[it] = rte_rdtsc_precise() - t0;
		if (n != BURST) {
			fprintf(stderr, "bench_vxlan: %s: %u frames of %u\n",
				what, n, BURST);
			exit(1);
		}
		if (mode >= PLAIN_RX)
			rte_pktmbuf_free_bulk(m, n);
	}
	qsort(s, iters, sizeof(*s), cmp_u64);
	printf("%s: best %.1f median %.1f cycles/frame\n", what,
	       (double)s[0] / BURST, (double)s[iters / 2] / BURST);
	free(s);
}

int main(int argc, char **argv)
{
	unsigned int iters = argc > 1 ? (unsigned int)atoi(argv[1]) : 200000;
	char prefix[64], err[VSW_ERR_MAX];
	/* huge pages when 256 MiB of them are free (vsw's own case: with 4
	 * KiB pages the TLB's misses on the mbufs outweigh the encapsulation) */
	char *eal[] = {argv[0],
		       huge_free() ? "--in-memory" : "--no-huge",
		       "-m",
		       "256",
		       "--no-pci",
		       "--no-shconf",
		       "-l",
		       "0",
		       "--log-level",
		       "*:error",
		       "--file-prefix",
		       prefix};
	static const char *const underlay[2] = {"net_null0", "net_ring0"};
	struct vsw_port_conf pc;
	struct vsw_port_env env = {0};
	struct vsw_port *p[2];
	char kv[160];
	struct rte_mempool *mp;

	snprintf(prefix, sizeof(prefix), "bench_vxlan%d", (int)getpid());
	if (iters == 0 ||
	    rte_eal_init((int)(sizeof(eal) / sizeof(eal[0])), eal) < 0) {
		fprintf(stderr, "usage: bench_vxlan [ITERATIONS] (EAL: %s)\n",
			rte_strerror(rte_errno));
		return 2;
	}
	mp = rte_pktmbuf_pool_create("bench", 4095, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL) {
		fprintf(stderr, "bench_vxlan: no pool\n");
		return 1;
	}
	env.mp = mp;
	env.n_workers = 1;
	for (uint16_t i = 0; i < 2; i++) {
		snprintf(kv, sizeof(kv),
			 "type=vxlan,local-ip=198.18.0.1/24,"
			 "remote-ips=198.18.0.2,vni=100,devargs=%s",
			 underlay[i]);
		if (vsw_config_port_from_kv("vx", kv, NULL, &pc, err,
					    sizeof(err)) != 0 ||
		    vsw_port_create(&pc, i, &env, &p[i], err, sizeof(err)) !=
			    0) {
			fprintf(stderr, "bench_vxlan: %s\n", err);
			return 1;
		}
		/* the next hop's MAC, as its ARP reply would give it */
		vx_cast(p[i])->vtep[0].mac = 0x02c000000002ull | VX_MAC_VALID;
	}
	for (int round = 0; round < 2; round++) {
		run("plain tx", p[0], mp, iters, PLAIN_TX);
		run("encap", p[0], mp, iters, ENCAP);
		run("plain rx", p[1], mp, iters, PLAIN_RX);
		run("decap", p[1], mp, iters, DECAP);
	}
	rte_eal_cleanup();
	return 0;
}
