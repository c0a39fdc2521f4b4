/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cycles per packet of the FDB alone, in the worker's pattern: each burst
 * of 32 frames learns its 32 source MACs (vsw_fdb_learn_bulk) and looks up
 * its one destination (vsw_fdb_lookup_bulk), the sources cycling over N
 * MACs as vswgen --macs N sends them (tools/bench --fdb-scale).  The table
 * is sized as tools/bench sizes it (fdb-size 2N, 65536 for one MAC) and
 * allocated on huge pages when it can be (MAP_HUGETLB, else THP), as
 * vsw's rte_malloc'd table is.  No EAL, no ports, no other thread: a
 * layout can be compared against another in seconds.
 *
 *   bench_fdb [MACS] [BURSTS] [src|dst]
 *     src  32 sources from the N, one destination (the default)
 *     dst  one source, 32 destinations from the N (the lookup side)
 *
 * Prints "fdb MACS MODE: mean A median M cycles/packet" last.  Not a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "datapath/fdb.h"
#include "bench_huge.h"

#define BURST 32

static uint64_t mac_key(uint32_t i)
{
	const uint8_t mac[6] = {2,
				0,
				(uint8_t)(i >> 24),
				(uint8_t)(i >> 16),
				(uint8_t)(i >> 8),
				(uint8_t)i};

	return vsw_fdb_key(mac, 0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	uint32_t macs = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 1;
	uint32_t bursts = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 0;
	bool dst = argc > 3 && strcmp(argv[3], "dst") == 0;
	struct vsw_fdb_params fp = {.max_entries = macs > 1 ? 2 * macs : 65536,
				    .seed = 7,
				    .alloc = bench_huge_alloc,
				    .free = bench_huge_free};
	struct vsw_fdb_wstats ws = {0};
	uint64_t keys[BURST], vals[BURST], one, *t, sum = 0;
	struct vsw_fdb *f;
	uint32_t next = 0;

	if (macs < 1 || macs > (1u << 23) ||
	    (argc > 3 && !dst && strcmp(argv[3], "src") != 0)) {
		fprintf(stderr, "usage: bench_fdb [MACS 1..8388608] [BURSTS] "
				"[src|dst]\n");
		return 2;
	}
	if (bursts == 0) /* two passes over the set, at least 20000 */
		bursts = macs / BURST * 2 > 20000 ? macs / BURST * 2 : 20000;
	f = vsw_fdb_create(&fp);
	t = calloc(bursts, sizeof(*t));
	if (f == NULL || t == NULL)
		return 1;
	for (uint32_t i = 0; i < macs; i += BURST) {
		unsigned int n = 0;

		while (n < BURST && i + n < macs) {
			keys[n] = mac_key(i + n);
			n++;
		}
		vsw_fdb_learn_bulk(f, keys, n, dst ? 1 : 0, 1, &ws);
	}
	one = mac_key(0xffffffu);
	vsw_fdb_add_static(f, one, dst ? 0 : 1, 1);
	for (uint32_t b = 0; b < bursts; b++) {
		uint64_t t0;

		for (int k = 0; k < BURST; k++) {
			keys[k] = mac_key(next);
			next = next + 1 == macs ? 0 : next + 1;
		}
		t0 = __rdtsc();
		if (dst) {
			vsw_fdb_learn_bulk(f, &one, 1, 0, 1, &ws);
			vsw_fdb_lookup_bulk(f, keys, macs > 1 ? BURST : 1,
					    vals);
		} else { /* the worker learns a run of one source once */
			vsw_fdb_learn_bulk(f, keys, macs > 1 ? BURST : 1, 0, 1,
					   &ws);
			vsw_fdb_lookup_bulk(f, &one, 1, vals);
		}
		t[b] = __rdtsc() - t0;
		sum += t[b];
		if (vals[0] == 0) {
			fprintf(stderr, "lookup missed in burst %u\n", b);
			return 1;
		}
	}
	qsort(t, bursts, sizeof(*t), cmp_u64);
	printf("fdb %u %s: learned %llu refused %llu busy %llu\n", macs,
	       dst ? "dst" : "src", (unsigned long long)ws.learned,
	       (unsigned long long)ws.refused, (unsigned long long)ws.busy);
	printf("fdb %u %s: mean %.2f median %.2f cycles/packet\n", macs,
	       dst ? "dst" : "src", (double)sum / bursts / BURST,
	       (double)t[bursts / 2] / BURST);
	vsw_fdb_destroy(f);
	free(t);
	return 0;
}
