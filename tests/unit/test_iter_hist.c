/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The workers' iteration histogram (config/vsw_iter_hist.h, no EAL):
 * TSC cycles to whole microseconds at several TSC rates, each bucket's
 * bounds, its key in /vsw/workers, and that the buckets tile the line.
 */
#include <string.h>

#include "config/vsw_iter_hist.h"
#include "vsw_test.h"

static const uint64_t rates[] = {1000000000, 2100000000, 2600000000,
				 3000000000, 2399987654, 3696000123};

/* cycles of exactly @us at @hz, rounded up (the first cycle count that is
 * at least @us microseconds) */
static uint64_t cycles_of(uint64_t us, uint64_t hz)
{
	unsigned __int128 c = (unsigned __int128)us * hz;

	return (uint64_t)((c + 999999) / 1000000);
}

static void test_us(void)
{
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		uint64_t hz = rates[i], mul = vsw_iter_us_mul(hz);

		CHECK(vsw_iter_us(0, mul) == 0);
		for (uint64_t us = 1; us <= (UINT64_C(1) << 22); us *= 2) {
			uint64_t c = cycles_of(us, hz);

			CHECK(vsw_iter_us(c, mul) == us);
			CHECK(vsw_iter_us(c - 1, mul) == us - 1);
			CHECK(vsw_iter_us(c + hz / 2000000, mul) == us);
		}
		/* an hour and more: no wrap into a short bucket */
		CHECK(vsw_iter_us(hz * 3600, mul) == UINT64_C(3600000000));
		CHECK(vsw_iter_us(hz * 3600 - 1, mul) == UINT64_C(3599999999));
		/* the longest a TSC can count: within 1 us */
		CHECK(vsw_iter_us(UINT64_MAX, mul) -
			      (uint64_t)((unsigned __int128)UINT64_MAX *
					 1000000 / hz) <=
		      1);
	}
	CHECK(vsw_iter_us_mul(0) == 0);
}

static void test_buckets(void)
{
	CHECK(vsw_iter_bucket(0) == 0);
	CHECK(vsw_iter_bucket(1) == 1);
	CHECK(vsw_iter_bucket(2) == 2);
	CHECK(vsw_iter_bucket(3) == 2);
	CHECK(vsw_iter_bucket(4) == 3);
	CHECK(vsw_iter_bucket(6000) == 13); /* [4096, 8192) */
	CHECK(vsw_iter_bucket(UINT64_C(1) << 20) == VSW_ITER_BUCKETS - 1);
	CHECK(vsw_iter_bucket((UINT64_C(1) << 20) - 1) == VSW_ITER_BUCKETS - 2);
	CHECK(vsw_iter_bucket(UINT64_MAX >> 1) == VSW_ITER_BUCKETS - 1);
	CHECK(vsw_iter_bucket_lo(0) == 0 && vsw_iter_bucket_hi(0) == 1);
	CHECK(vsw_iter_bucket_hi(VSW_ITER_BUCKETS - 1) == 0);
	for (unsigned int k = 0; k < VSW_ITER_BUCKETS; k++) {
		uint64_t lo = vsw_iter_bucket_lo(k), hi = vsw_iter_bucket_hi(k);

		CHECK(vsw_iter_bucket(lo) == k);
		if (k + 1 < VSW_ITER_BUCKETS) {
			CHECK(hi > lo);
			CHECK(vsw_iter_bucket(hi - 1) == k);
			CHECK(vsw_iter_bucket(hi) == k + 1);
			CHECK(vsw_iter_bucket_lo(k + 1) == hi);
		}
	}
}

static void test_keys(void)
{
	char key[48];

	vsw_iter_bucket_key(0, key, sizeof(key));
	CHECK(strcmp(key, "iter_us_0_1") == 0);
	vsw_iter_bucket_key(1, key, sizeof(key));
	CHECK(strcmp(key, "iter_us_1_2") == 0);
	vsw_iter_bucket_key(13, key, sizeof(key));
	CHECK(strcmp(key, "iter_us_4096_8192") == 0);
	vsw_iter_bucket_key(VSW_ITER_BUCKETS - 1, key, sizeof(key));
	CHECK(strcmp(key, "iter_us_1048576_inf") == 0);
}

int main(void)
{
	RUN(test_us);
	RUN(test_buckets);
	RUN(test_keys);
	return TEST_EXIT();
}
