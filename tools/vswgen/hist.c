/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Log-linear latency histogram (HDR-histogram style). Values below 64 get
 * one bucket each; above, every power of two [2^e, 2^(e+1)) is cut into
 * 64 equal sub-buckets, so a bucket is at most 1/64 (1.6 %) of its value
 * wide. 2,304 counters cover 0 ns to 2^41 ns; larger values land in the
 * last bucket (max is still exact). Percentiles return the highest value
 * of the bucket holding the requested rank, never above the exact max.
 * hist_index() and hist_add() are inline in vswgen.h (per-packet path).
 */
#include <math.h>
#include <string.h>

#include "vswgen.h"

/* Highest value that maps to bucket i. */
static uint64_t hist_bucket_top(unsigned int i)
{
	unsigned int e, sub;
	uint64_t low;

	if (i < HIST_SUB)
		return i;
	e = i / HIST_SUB + HIST_SUB_BITS - 1;
	sub = i % HIST_SUB;
	low = (uint64_t)(HIST_SUB + sub) << (e - HIST_SUB_BITS);
	return low + (1ull << (e - HIST_SUB_BITS)) - 1;
}

void hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

/* Value at percentile pct (0..100]; 0 when empty. */
uint64_t hist_percentile(const struct hist *h, double pct)
{
	uint64_t rank, seen = 0, top;
	unsigned int i;

	if (h->count == 0)
		return 0;
	rank = (uint64_t)ceil((double)h->count * pct / 100.0);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	if (i == HIST_BUCKETS)
		return h->max;
	top = hist_bucket_top(i);
	return top < h->max ? top : h->max;
}
