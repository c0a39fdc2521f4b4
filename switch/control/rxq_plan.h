/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where the rx queues go: the arithmetic of a rebalance (rebalance.c),
 * plain C so that a unit test runs it (tests/unit/test_rxq_plan.c).
 */
#ifndef VSW_RXQ_PLAN_H
#define VSW_RXQ_PLAN_H

#include <stdint.h>

#define VSW_RXQ_PLAN_WORKERS 128 /* the most workers a plan takes */

struct vsw_rxq_load {
	uint16_t port, q;
	uint64_t cycles; /* TSC cycles it took since the loads were read */
	int from, to;	 /* owner now (< 0: none), planned owner */
};

/*
 * Plan where the @n queues of @l go among @n_workers workers that carry
 * @pinned[w] cycles already (queues pinned with `lcores`, which do not
 * move): the busiest first, each to the least loaded worker so far, its
 * own worker when that is one of the least loaded.  A queue weighs its
 * cycles + 1, so that idle queues spread by count.
 *
 * The plan is kept only when it lightens the busiest worker by at least
 * @min_gain_pct percent of that worker's load now (0: by anything at
 * all), or places a queue that has no worker: then the queues that change
 * workers are moved to the front of @l (their `to` set) and their number
 * returned.  Otherwise it returns 0 and nothing is to move.  @busiest
 * (may be NULL) gets the busiest worker's load now [0] and planned [1].
 */
unsigned int vsw_rxq_plan(struct vsw_rxq_load *l, unsigned int n,
			  const uint64_t *pinned, unsigned int n_workers,
			  unsigned int min_gain_pct, uint64_t busiest[2]);

#endif
