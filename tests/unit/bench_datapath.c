/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cycles per packet of the real forwarding code (switch/datapath/worker.c)
 * on the fake ports of the unit test: no EAL, no guest, no other thread,
 * so the figure is the worker's own and barely moves between runs (a
 * shared machine's noise lands in the slower samples; the best is quoted).
 * Port p0 receives bursts of 32 64-byte frames to a MAC known on p1.
 *
 *   bench_datapath [plain|access|pop|push] [ITERATIONS] [MACS]
 *     plain   no VLAN keys (the plain path)
 *     access  both ports tag=10: the VLAN path, frames stay untagged
 *     pop     p0 a trunk of VLAN 10 receiving tagged frames, p1 access 10
 *     push    p0 access 10, p1 a trunk of VLAN 10
 *     MACS    source MACs cycled over, frame by frame, as vswgen --macs
 *             sends them (default 1); the FDB sized 2 x MACS as tools/bench
 *             sizes it and primed with them all
 *
 * Prints "MODE: best B median M mean X cycles/packet".  Not a test (docs/
 * performance.md quotes it).
 */
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "fake_pool.h"
#include "fake_port.h"
#include "datapath/vlan.h"
#include "datapath/worker.h"
#include "bench_huge.h"

#define BURST 32

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The VLAN keys of @mode on the two ports' configs. */
static void vlan_keys(struct vsw_port_conf *pc, const char *mode)
{
	static const char *const kv[][3] = {
		{"access", "tag=10", "tag=10"},
		{"pop", "trunks=10", "tag=10"},
		{"push", "tag=10", "trunks=10"},
	};
	char err[VSW_ERR_MAX];

	for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++)
		for (int p = 0; p < 2 && strcmp(mode, kv[i][0]) == 0; p++)
			if (vsw_config_port_set_kv(&pc[p], kv[i][p + 1], err,
						   sizeof(err)) != 0) {
				fprintf(stderr, "%s\n", err);
				exit(1);
			}
}

/* Source MAC @i of --macs: A's first two bytes, then @i. */
static void src_mac(const uint8_t a[6], uint32_t i, uint8_t out[6])
{
	memcpy(out, a, 6);
	if (i == 0)
		return;
	out[2] = (uint8_t)(i >> 24);
	out[3] = (uint8_t)(i >> 16);
	out[4] = (uint8_t)(i >> 8);
	out[5] = (uint8_t)i;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "plain";
	unsigned int iters = argc > 2 ? (unsigned int)atoi(argv[2]) : 20000;
	uint32_t macs = argc > 3 ? (uint32_t)atoi(argv[3]) : 1, next = 0;
	struct vsw_fdb_params fp = {.max_entries = macs > 512 ? 2 * macs : 1024,
				    .seed = 7,
				    .alloc = bench_huge_alloc,
				    .free = bench_huge_free};
	struct fake_pool *pool =
		fake_pool_create(4096, RTE_PKTMBUF_HEADROOM + 2048);
	struct vsw_fdb *fdb = vsw_fdb_create(&fp);
	struct vsw_table *dp =
		aligned_alloc(64, RTE_ALIGN_CEIL(sizeof(*dp), 64));
	struct vsw_worker *w =
		aligned_alloc(64, RTE_ALIGN_CEIL(sizeof(*w), 64));
	uint64_t *t = calloc(iters, sizeof(*t)), sum = 0;
	static const uint8_t A[6] = {2, 0, 0, 0, 0, 0xa};
	static const uint8_t B[6] = {2, 0, 0, 0, 0, 0xb};
	bool tagged = strcmp(mode, "pop") == 0;
	struct fake_port *p[2];
	struct vsw_switch_conf sw = {0};
	struct vsw_port *ports[VSW_MAX_PORTS] = {NULL};
	static int8_t owner[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	unsigned int lcores[1] = {1};
	struct vsw_table_src src = {&sw,	   ports, owner, lcores, 1,
				    1000000000ull, 2048,  NULL,	 NULL};
	char err[VSW_ERR_MAX];

	if (pool == NULL || fdb == NULL || dp == NULL || w == NULL ||
	    t == NULL || iters < 10 || macs < 1 || macs > (1u << 23) ||
	    (strcmp(mode, "plain") && strcmp(mode, "access") && !tagged &&
	     strcmp(mode, "push"))) {
		fprintf(stderr, "usage: bench_datapath [plain|access|pop|push] "
				"[ITERATIONS >= 10] [MACS]\n");
		return 2;
	}
	memset(w, 0, sizeof(*w));
	sw.burst = BURST;
	sw.tx_retries = 2;
	memset(owner, VSW_RXQ_UNASSIGNED, sizeof(owner));
	for (uint16_t i = 0; i < 2; i++) {
		p[i] = fake_port_create(i ? "p1" : "p0", i, 1);
		snprintf(p[i]->up.conf.name, sizeof(p[i]->up.conf.name), "p%u",
			 i);
		p[i]->up.conf.mtu = 1500;
		p[i]->up.tx_chains = true;
		ports[i] = &p[i]->up;
	}
	if (strcmp(mode, "plain") != 0) {
		struct vsw_port_conf pc[2] = {p[0]->up.conf, p[1]->up.conf};

		vlan_keys(pc, mode);
		p[0]->up.conf = pc[0];
		p[1]->up.conf = pc[1];
	}
	/* the table by the switch's own builder (datapath/table_build.c) */
	if (vsw_table_build(&src, dp, err, sizeof(err)) != 0) {
		fprintf(stderr, "table: %s\n", err);
		return 1;
	}
	vsw_fdb_add_static(fdb, vsw_fdb_key(B, dp->vlans ? 10 : 0), 1, 1);
	for (uint32_t i = 0; i < macs; i++) { /* primed: no learning timed */
		uint8_t a[6];

		src_mac(A, i, a);
		vsw_fdb_learn(fdb, vsw_fdb_key(a, dp->vlans ? 10 : 0), 0, 100,
			      &w->fdbst);
	}
	for (unsigned int it = 0; it < iters; it++) {
		uint64_t t0;

		for (int k = 0; k < BURST; k++) {
			struct rte_mbuf *m = rte_pktmbuf_alloc(pool->mp);
			uint8_t *d =
				m ? (uint8_t *)rte_pktmbuf_append(m, 64) : NULL;

			if (d == NULL)
				return 1;
			memset(d, 0, 64);
			memcpy(d, B, 6);
			src_mac(A, next, d + 6);
			next = next + 1 == macs ? 0 : next + 1;
			d[12] = tagged ? 0x81 : 0x08;
			d[15] = tagged ? 10 : 0;
			d[16] = tagged ? 0x08 : 0;
			fake_port_push(p[0], 0, m);
		}
		t0 = rte_rdtsc();
		vsw_worker_poll(w, dp, fdb, 100);
		t[it] = rte_rdtsc() - t0;
		sum += t[it];
		if (p[1]->n_sent != BURST) {
			fprintf(stderr, "p1 got %u frames of %d\n",
				p[1]->n_sent, BURST);
			return 1;
		}
		fake_port_free_sent(p[1]);
	}
	qsort(t, iters, sizeof(*t), cmp_u64);
	printf("%s: best %.2f median %.2f mean %.2f cycles/packet\n", mode,
	       (double)t[0] / BURST, (double)t[iters / 2] / BURST,
	       (double)sum / iters / BURST);
	for (int i = 0; i < 2; i++)
		fake_port_destroy(p[i]);
	vsw_fdb_destroy(fdb);
	fake_pool_destroy(pool);
	free(dp);
	free(w);
	free(t);
	return 0;
}
