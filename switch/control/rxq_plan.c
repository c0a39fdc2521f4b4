/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A rebalance's plan (rxq_plan.h): greedy placement, busiest queue first,
 * then a check that the plan is worth its moves.  Without that check, two
 * queues of equal load on two workers were swapped whenever their order
 * of load flipped from one interval to the next: each swap parks both
 * queues for two table publications and gains nothing.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "rxq_plan.h"

static int by_cycles_desc(const void *a, const void *b)
{
	const struct vsw_rxq_load *x = a, *y = b;

	if (x->cycles != y->cycles)
		return x->cycles < y->cycles ? 1 : -1;
	/* equal loads in a fixed order: a plan does not depend on qsort */
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->q < y->q ? -1 : x->q > y->q ? 1 : 0;
}

static uint64_t max_of(const uint64_t *v, unsigned int n)
{
	uint64_t m = 0;

	for (unsigned int i = 0; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

unsigned int vsw_rxq_plan(struct vsw_rxq_load *l, unsigned int n,
			  const uint64_t *pinned, unsigned int n_workers,
			  unsigned int min_gain_pct, uint64_t busiest[2])
{
	uint64_t now[VSW_RXQ_PLAN_WORKERS], plan[VSW_RXQ_PLAN_WORKERS], cur,
		best_max;
	bool homeless = false;
	unsigned int nm = 0;

	if (n_workers == 0 || n_workers > VSW_RXQ_PLAN_WORKERS)
		return 0;
	for (unsigned int w = 0; w < n_workers; w++)
		now[w] = plan[w] = pinned[w];
	qsort(l, n, sizeof(l[0]), by_cycles_desc);
	for (unsigned int i = 0; i < n; i++) {
		bool placed = l[i].from >= 0 && l[i].from < (int)n_workers;
		unsigned int best = placed ? (unsigned int)l[i].from : 0;

		if (placed)
			now[l[i].from] += l[i].cycles + 1;
		else
			homeless = true;
		for (unsigned int w = 0; w < n_workers; w++)
			if (plan[w] < plan[best])
				best = w;
		plan[best] += l[i].cycles + 1;
		l[i].to = (int)best;
	}
	cur = max_of(now, n_workers);
	best_max = max_of(plan, n_workers);
	if (busiest != NULL) {
		busiest[0] = cur;
		busiest[1] = best_max;
	}
	/* a gain of min_gain_pct % of the busiest worker's load, at least 1 */
	if (!homeless &&
	    (best_max >= cur ||
	     (cur - best_max) * 100 < (uint64_t)min_gain_pct * cur))
		return 0;
	for (unsigned int i = 0; i < n; i++)
		if (l[i].from != l[i].to)
			l[nm++] = l[i]; /* nm <= i: in place */
	return nm;
}
