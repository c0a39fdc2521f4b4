/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cycles per frame of a vxlan port's send path (port/vxlan.c's vx_tx: the
 * VNI, the VTEP, the outer headers) against the same frames handed to its
 * underlay directly (vsw_eth_tx, what an ethdev port does), both on
 * net_null, which frees what it is given.  The difference is what vsw's
 * encapsulation costs a frame with the underlay's own work taken out:
 * tools/bench --vxlan measures the whole path, whose noise on a shared
 * machine hides a change of a few cycles.  White box: port/vxlan.c is
 * included, so that the VTEP's next hop can be resolved as ARP would.
 *
 *   bench_vxlan [ITERATIONS]
 *
 * Bursts of 32 64-byte IPv4/UDP frames, a new flow per frame, to one VTEP
 * (the unicast the FDB learned behind it).  Prints "plain: best B median
 * M cycles/frame" and the same for "encap", twice.  On huge pages when
 * 256 MiB of them are free, as vsw runs.  Not a test.
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

static void run(const char *what, struct vsw_port *p, struct rte_mempool *mp,
		unsigned int iters, bool tunnel)
{
	struct vsw_vxlan_port *x = vx_cast(p);
	uint64_t *s = calloc(iters, sizeof(*s));
	struct rte_mbuf *m[BURST];

	if (s == NULL)
		exit(1);
	for (unsigned int it = 0; it < iters; it++) {
		uint64_t t0;

		fill(mp, m, it * BURST);
		t0 = rte_rdtsc_precise();
		if (tunnel)
			vx_tx(p, 0, m, BURST);
		else
			vsw_eth_tx(&x->eth, 0, m, BURST);
		s[it] = rte_rdtsc_precise() - t0;
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
	struct vsw_port_conf pc;
	struct vsw_port_env env = {0};
	struct vsw_port *p;
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
	if (mp == NULL ||
	    vsw_config_port_from_kv("vx",
				    "type=vxlan,local-ip=198.18.0.1/24,"
				    "remote-ips=198.18.0.2,vni=100,"
				    "devargs=net_null0",
				    NULL, &pc, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_vxlan: %s\n", mp ? err : "no pool");
		return 1;
	}
	env.mp = mp;
	env.n_workers = 1;
	if (vsw_port_create(&pc, 0, &env, &p, err, sizeof(err)) != 0) {
		fprintf(stderr, "bench_vxlan: %s\n", err);
		return 1;
	}
	/* the next hop's MAC, as its ARP reply would give it */
	vx_cast(p)->vtep[0].mac = 0x02c000000002ull | VX_MAC_VALID;
	for (int round = 0; round < 2; round++) {
		run("plain", p, mp, iters, false);
		run("encap", p, mp, iters, true);
	}
	rte_eal_cleanup();
	return 0;
}
