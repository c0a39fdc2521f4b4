/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The buckets of the workers' iteration-length histogram, in one place
 * for the worker that counts them (datapath/worker.c), telemetry that
 * names them (/vsw/workers) and vswctl that prints them and exports them
 * to Prometheus (tools/telclient/metrics.c).  Plain C: config/ reaches
 * nothing, so tools/ may include it.
 *
 * Bucket 0 holds iterations shorter than 1 us, bucket k (1..N-2) those of
 * [2^(k-1), 2^k) us, the last those of 2^(N-2) us (about 1.05 s) or more.
 * The worker turns TSC cycles into whole microseconds with a multiplier
 * the table builder computes from the TSC rate (vsw_iter_us_mul), then
 * takes the bucket from the count of leading zeros: a multiply, a lzcnt
 * and a min per iteration, no branch, no division.
 */
#ifndef VSW_ITER_HIST_H
#define VSW_ITER_HIST_H

#include <stdint.h>
#include <stdio.h>

#define VSW_ITER_BUCKETS 22

/*
 * The multiplier of vsw_iter_us for a TSC of @hz cycles per second:
 * 10^6 / hz in 0.64 fixed point, rounded up (so that a whole number of
 * microseconds is never read as one less; the excess stays under 2^-64
 * us per cycle).  For a TSC of 1 MHz or less, about 1.
 */
static inline uint64_t vsw_iter_us_mul(uint64_t hz)
{
	if (hz <= 1000000)
		return hz ? UINT64_MAX : 0;
	return (uint64_t)((((unsigned __int128)1000000 << 64) + hz - 1) / hz);
}

/*
 * @cycles TSC cycles as whole microseconds, rounded down, given
 * vsw_iter_us_mul's @mul: the high half of one 64x64 multiply (exact for
 * any length a worker can take; none wraps into a short bucket).
 */
static inline uint64_t vsw_iter_us(uint64_t cycles, uint64_t mul)
{
	return (uint64_t)(((unsigned __int128)cycles * mul) >> 64);
}

/* The bucket of an iteration of @us microseconds. */
static inline unsigned int vsw_iter_bucket(uint64_t us)
{
	/* floor(log2(2 us + 1)): 0 for 0, k for [2^(k-1), 2^k) */
	unsigned int b = 63u - (unsigned int)__builtin_clzll(us << 1 | 1);

	return b < VSW_ITER_BUCKETS - 1 ? b : VSW_ITER_BUCKETS - 1;
}

/* Bucket @k's lower bound in microseconds (included). */
static inline uint64_t vsw_iter_bucket_lo(unsigned int k)
{
	return k == 0 ? 0 : UINT64_C(1) << (k - 1);
}

/* Bucket @k's upper bound in microseconds (excluded); 0: none (the last). */
static inline uint64_t vsw_iter_bucket_hi(unsigned int k)
{
	return k < VSW_ITER_BUCKETS - 1 ? UINT64_C(1) << k : 0;
}

/*
 * Bucket @k's key in /vsw/workers: "iter_us_LO_HI", the last
 * "iter_us_LO_inf" (iter_us_0_1, iter_us_1_2, ..., iter_us_1048576_inf).
 */
static inline void vsw_iter_bucket_key(unsigned int k, char *buf, size_t len)
{
	uint64_t hi = vsw_iter_bucket_hi(k);

	if (hi != 0)
		snprintf(buf, len, "iter_us_%llu_%llu",
			 (unsigned long long)vsw_iter_bucket_lo(k),
			 (unsigned long long)hi);
	else
		snprintf(buf, len, "iter_us_%llu_inf",
			 (unsigned long long)vsw_iter_bucket_lo(k));
}

#endif /* VSW_ITER_HIST_H */
