/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A rebalance's plan (switch/control/rxq_plan.c, no EAL): the busiest
 * queue first to the least loaded worker, its own worker on a tie, pinned
 * load counted, and no moves unless the plan lightens the busiest worker
 * by the gain asked for.  The swap that test 15 caught: two queues of
 * (nearly) equal load on two workers, their order of load flipped.
 */
#include <string.h>

#include "control/rxq_plan.h"
#include "vsw_test.h"

#define Q(port_, from_, cyc_)                                                  \
	((struct vsw_rxq_load){                                                \
		.port = (port_), .q = 0, .cycles = (cyc_), .from = (from_)})

static const uint64_t none[4];

/* the worker queue @port ends on: its move's `to`, else where it was */
static int lands(const struct vsw_rxq_load *l, unsigned int nm,
		 const struct vsw_rxq_load *before, unsigned int n,
		 uint16_t port)
{
	for (unsigned int i = 0; i < nm; i++)
		if (l[i].port == port)
			return l[i].to;
	for (unsigned int i = 0; i < n; i++)
		if (before[i].port == port)
			return before[i].from;
	return -9;
}

/*
 * a on worker 1, c on worker 0, b and d idle: whichever is busier, a and
 * c stay (on demand, gain 0, an idle queue may move for its one cycle)
 */
static void test_balanced_stays(void)
{
	for (int flip = 0; flip < 2; flip++) {
		for (unsigned int gain = 0; gain <= 25; gain += 25) {
			struct vsw_rxq_load l[4] = {
				Q(0, 1, flip ? 1000 : 990), Q(1, 0, 0),
				Q(2, 0, flip ? 990 : 1000), Q(3, 1, 0)};
			uint64_t b[2];
			unsigned int nm = vsw_rxq_plan(l, 4, none, 2, gain, b);

			CHECK(nm == 0 || gain == 0);
			for (unsigned int i = 0; i < nm; i++)
				CHECK(l[i].cycles == 0);
			CHECK(b[0] - b[1] <= 2);
		}
	}
	/* three workers, a cyclic permutation of equal loads */
	struct vsw_rxq_load l[3] = {Q(0, 2, 500), Q(1, 0, 500), Q(2, 1, 500)};

	CHECK(vsw_rxq_plan(l, 3, none, 3, 0, NULL) == 0);
}

/* every queue on worker 0: the busy two split, the idle two split */
static void test_all_on_one(void)
{
	struct vsw_rxq_load l[4] = {Q(0, 0, 1000), Q(1, 0, 0), Q(2, 0, 1000),
				    Q(3, 0, 0)};
	struct vsw_rxq_load before[4];
	uint64_t b[2];
	unsigned int nm, on1 = 0;

	memcpy(before, l, sizeof(l));
	nm = vsw_rxq_plan(l, 4, none, 2, 25, b);
	CHECK(nm == 2);
	CHECK(b[0] == 2004 && b[1] == 1002);
	CHECK(lands(l, nm, before, 4, 0) != lands(l, nm, before, 4, 2));
	for (uint16_t p = 0; p < 4; p++)
		on1 += lands(l, nm, before, 4, p) == 1;
	CHECK(on1 == 2);
	for (unsigned int i = 0; i < nm; i++)
		CHECK(l[i].from == 0 && l[i].to == 1);
}

/* 100 and 20 on worker 0, worker 1 idle: moving 20 gains 17 % */
static void test_gain_threshold(void)
{
	for (unsigned int gain = 0; gain <= 30; gain += 5) {
		struct vsw_rxq_load l[2] = {Q(0, 0, 100), Q(1, 0, 20)};
		unsigned int nm = vsw_rxq_plan(l, 2, none, 2, gain, NULL);

		/* 122 -> 101: (21 * 100) / 122 = 17.2 % */
		CHECK(nm == (gain <= 17 ? 1u : 0u));
		if (nm == 1)
			CHECK(l[0].port == 1 && l[0].to == 1);
	}
}

/* worker 0 carries 1000 pinned cycles: the unpinned queue leaves it */
static void test_pinned_counted(void)
{
	const uint64_t pinned[2] = {1000, 0};
	struct vsw_rxq_load l[1] = {Q(0, 0, 100)};

	CHECK(vsw_rxq_plan(l, 1, pinned, 2, 25, NULL) == 0); /* 9 % */
	CHECK(vsw_rxq_plan(l, 1, pinned, 2, 0, NULL) == 1);
	CHECK(l[0].to == 1);
	/* on the pinned worker's side already: stays */
	l[0] = Q(0, 1, 100);
	CHECK(vsw_rxq_plan(l, 1, pinned, 2, 0, NULL) == 0);
}

/* a queue with no worker is placed whatever the gain */
static void test_homeless_placed(void)
{
	struct vsw_rxq_load l[2] = {Q(0, 0, 5000), Q(1, -1, 0)};

	CHECK(vsw_rxq_plan(l, 2, none, 2, 100, NULL) == 1);
	CHECK(l[0].port == 1 && l[0].to == 1);
}

/* idle queues spread by count; one worker or none plans nothing */
static void test_idle_and_edges(void)
{
	struct vsw_rxq_load l[4] = {Q(0, 0, 0), Q(1, 0, 0), Q(2, 0, 0),
				    Q(3, 0, 0)};

	CHECK(vsw_rxq_plan(l, 4, none, 2, 25, NULL) == 2);
	for (unsigned int i = 0; i < 4; i++)
		l[i] = Q((uint16_t)i, 0, 123);
	CHECK(vsw_rxq_plan(l, 4, none, 1, 0, NULL) == 0);
	CHECK(vsw_rxq_plan(l, 4, none, 0, 0, NULL) == 0);
	CHECK(vsw_rxq_plan(l, 0, none, 2, 0, NULL) == 0);
}

/* the same loads in any order: the same plan */
static void test_order_free(void)
{
	const struct vsw_rxq_load base[4] = {Q(0, 0, 7), Q(1, 0, 7), Q(2, 0, 7),
					     Q(3, 0, 7)};
	int want[4] = {0};

	for (unsigned int rot = 0; rot < 4; rot++) {
		struct vsw_rxq_load l[4];
		unsigned int nm;

		for (unsigned int i = 0; i < 4; i++)
			l[i] = base[(i + rot) % 4];
		nm = vsw_rxq_plan(l, 4, none, 2, 0, NULL);
		CHECK(nm == 2);
		for (uint16_t p = 0; p < 4; p++) {
			int w = lands(l, nm, base, 4, p);

			if (rot == 0)
				want[p] = w;
			CHECK(w == want[p]);
		}
	}
}

int main(void)
{
	RUN(test_balanced_stays);
	RUN(test_all_on_one);
	RUN(test_gain_threshold);
	RUN(test_pinned_counted);
	RUN(test_homeless_placed);
	RUN(test_idle_and_edges);
	RUN(test_order_free);
	return TEST_EXIT();
}
