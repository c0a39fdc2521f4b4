/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FDB unit test (no EAL): learn, move, refresh, aging, static entries,
 * flush by port, a full table, bulk lookup against single lookups, walk
 * pagination, a randomized fill-lookup-delete run checked against a
 * reference model, per-port limits, fair eviction under a MAC flood,
 * trimming, keyed bucket placement, and lookups racing evictions on two
 * threads.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "datapath/fdb.h"
#include "vsw_test.h"

static int syncs;
static void count_sync(void *arg)
{
	(void)arg;
	syncs++;
}

static struct vsw_fdb *mk(uint32_t max)
{
	struct vsw_fdb_params p = {
		.max_entries = max, .sync = count_sync, .seed = 42};

	return vsw_fdb_create(&p);
}

/* The table's invariants hold (vsw_fdb_audit); its counts in *a. */
static bool audit_ok(const struct vsw_fdb *f, struct vsw_fdb_audit *a)
{
	unsigned int bad = vsw_fdb_audit(f, a);

	if (bad != 0)
		fprintf(stderr,
			"audit: %u entries %u second %u foreign "
			"%u twice %u bad overflow counts\n",
			a->entries, a->second, a->foreign, a->twice,
			a->ovf_bad);
	return bad == 0 && a->entries == vsw_fdb_count(f);
}

static uint64_t key_n(uint32_t n, uint16_t vlan)
{
	uint8_t mac[6] = {0x02,
			  0,
			  (uint8_t)(n >> 24),
			  (uint8_t)(n >> 16),
			  (uint8_t)(n >> 8),
			  (uint8_t)n};

	return vsw_fdb_key(mac, vlan);
}

static void test_key_roundtrip(void)
{
	uint8_t mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55}, out[6];
	uint64_t k = vsw_fdb_key(mac, 100);

	vsw_fdb_key_mac(k, out);
	CHECK(memcmp(mac, out, 6) == 0);
	CHECK(vsw_fdb_key_vlan(k) == 100);
	CHECK(k != vsw_fdb_key(mac, 101));
	CHECK(vsw_fdb_val_port(vsw_fdb_val(7, 99, false)) == 7);
	CHECK(vsw_fdb_val_time(vsw_fdb_val(7, 99, false)) == 99);
}

static void test_create_limits(void)
{
	struct vsw_fdb_params p = {.max_entries = 8};

	CHECK(vsw_fdb_create(&p) == NULL && errno == EINVAL);
	p.max_entries = (1u << 24) + 1;
	CHECK(vsw_fdb_create(&p) == NULL && errno == EINVAL);
	CHECK(vsw_fdb_create(NULL) == NULL);
}

static void test_learn_move_refresh(void)
{
	struct vsw_fdb *f = mk(1024);
	struct vsw_fdb_wstats ws = {0};
	uint64_t v = 0, k = key_n(1, 0);

	CHECK(!vsw_fdb_lookup(f, k, &v));
	CHECK(vsw_fdb_learn(f, k, 3, 10, &ws) == 1);
	CHECK(vsw_fdb_lookup(f, k, &v) && vsw_fdb_val_port(v) == 3);
	CHECK(vsw_fdb_count(f) == 1 && ws.learned == 1);
	/* same port, same second: nothing */
	CHECK(vsw_fdb_learn(f, k, 3, 10, &ws) == 0);
	/* refresh time */
	CHECK(vsw_fdb_learn(f, k, 3, 12, &ws) == 0);
	CHECK(vsw_fdb_lookup(f, k, &v) && vsw_fdb_val_time(v) == 12);
	/* move */
	CHECK(vsw_fdb_learn(f, k, 5, 13, &ws) == 2);
	CHECK(vsw_fdb_lookup(f, k, &v) && vsw_fdb_val_port(v) == 5);
	CHECK(ws.moved == 1 && ws.learned == 1 && vsw_fdb_count(f) == 1);
	/* same MAC, another VLAN: another entry */
	CHECK(vsw_fdb_learn(f, key_n(1, 7), 2, 13, &ws) == 1);
	CHECK(vsw_fdb_count(f) == 2);
	vsw_fdb_destroy(f);
}

/*
 * A port with endpoints (vxlan: remote VTEPs) learns each source with its
 * endpoint: a new endpoint behind the same port is a move, the port's
 * count does not change, and a port id alone still reads back whole.
 */
static void test_learn_owners(void)
{
	struct vsw_fdb *f = mk(1024);
	struct vsw_fdb_wstats ws = {0};
	uint64_t k[3] = {key_n(1, 100), key_n(2, 100), key_n(3, 100)}, h[3],
		 v = 0;
	uint16_t o[3] = {vsw_fdb_owner(7, 1), vsw_fdb_owner(7, 2),
			 vsw_fdb_owner(7, 255)};

	for (int i = 0; i < 3; i++)
		h[i] = vsw_fdb_prefetch(f, k[i]);
	vsw_fdb_learn_owners(f, k, h, o, 3, 10, &ws);
	CHECK(ws.learned == 3 && vsw_fdb_port_count(f, 7) == 3);
	CHECK(vsw_fdb_lookup(f, k[0], &v) && vsw_fdb_val_port(v) == 7 &&
	      vsw_fdb_val_ep(v) == 1 && vsw_fdb_val_time(v) == 10);
	CHECK(vsw_fdb_lookup(f, k[2], &v) && vsw_fdb_val_port(v) == 7 &&
	      vsw_fdb_val_ep(v) == 255);
	/* the same owner again: nothing; another endpoint: a move */
	vsw_fdb_learn_owners(f, k, h, o, 1, 10, &ws);
	CHECK(ws.moved == 0);
	o[0] = vsw_fdb_owner(7, 2);
	vsw_fdb_learn_owners(f, k, h, o, 1, 10, &ws);
	CHECK(ws.moved == 1 && vsw_fdb_port_count(f, 7) == 3);
	CHECK(vsw_fdb_lookup(f, k[0], &v) && vsw_fdb_val_ep(v) == 2);
	/* to a plain port: a move, the counts follow the port */
	CHECK(vsw_fdb_learn(f, k[0], 3, 11, &ws) == 2);
	CHECK(vsw_fdb_lookup(f, k[0], &v) && vsw_fdb_val_port(v) == 3 &&
	      vsw_fdb_val_ep(v) == 0);
	CHECK(vsw_fdb_port_count(f, 7) == 2 && vsw_fdb_port_count(f, 3) == 1);
	/* a port flush takes its entries whatever their endpoint */
	CHECK(vsw_fdb_flush(f, 7, false) == 2 && vsw_fdb_count(f) == 1);
	vsw_fdb_destroy(f);
}

/* With a refresh period, the last-seen time is rewritten only that often. */
static void test_refresh_period(void)
{
	struct vsw_fdb *f = mk(64);
	struct vsw_fdb_wstats ws = {0};
	uint64_t v, k = key_n(7, 0);

	vsw_fdb_set_refresh(f, 5);
	CHECK(vsw_fdb_learn(f, k, 1, 10, &ws) == 1);
	vsw_fdb_learn(f, k, 1, 14, &ws);
	CHECK(vsw_fdb_lookup(f, k, &v) && vsw_fdb_val_time(v) == 10);
	vsw_fdb_learn(f, k, 1, 15, &ws);
	CHECK(vsw_fdb_lookup(f, k, &v) && vsw_fdb_val_time(v) == 15);
	/* a move is stored at once, whatever the period */
	CHECK(vsw_fdb_learn(f, k, 2, 16, &ws) == 2);
	CHECK(vsw_fdb_lookup(f, k, &v) && vsw_fdb_val_port(v) == 2);
	vsw_fdb_destroy(f);
}

static void test_aging(void)
{
	struct vsw_fdb *f = mk(64);
	struct vsw_fdb_wstats ws = {0};
	uint64_t v;

	vsw_fdb_learn(f, key_n(1, 0), 1, 100, &ws);
	vsw_fdb_learn(f, key_n(2, 0), 1, 150, &ws);
	vsw_fdb_add_static(f, key_n(3, 0), 2, 1);
	syncs = 0;
	CHECK(vsw_fdb_age(f, 200, 300) == 0);
	CHECK(syncs == 0); /* nothing removed: no grace period needed */
	CHECK(vsw_fdb_age(f, 400, 300) == 1);
	CHECK(syncs == 1);
	CHECK(!vsw_fdb_lookup(f, key_n(1, 0), &v));
	CHECK(vsw_fdb_lookup(f, key_n(2, 0), &v));
	CHECK(vsw_fdb_age(f, 100000, 300) == 1);
	CHECK(vsw_fdb_lookup(f, key_n(3, 0), &v)); /* static never ages */
	CHECK(vsw_fdb_age(f, 100000, 0) == 0);	   /* 0 = aging off */
	CHECK(vsw_fdb_cstats(f)->aged == 2);
	CHECK(vsw_fdb_count(f) == 1);
	vsw_fdb_destroy(f);
}

static void test_static_and_del(void)
{
	struct vsw_fdb *f = mk(64);
	struct vsw_fdb_wstats ws = {0};
	uint64_t v, k = key_n(9, 0);

	CHECK(vsw_fdb_add_static(f, k, 4, 5) == 0);
	CHECK(vsw_fdb_learn(f, k, 1, 6, &ws) == 0); /* static wins */
	CHECK(vsw_fdb_lookup(f, k, &v) && vsw_fdb_val_port(v) == 4);
	CHECK(v & VSW_FDB_VAL_STATIC);
	CHECK(vsw_fdb_del(f, k) == 0);
	CHECK(vsw_fdb_del(f, k) == -ENOENT);
	CHECK(!vsw_fdb_lookup(f, k, &v));
	CHECK(vsw_fdb_count(f) == 0);
	/* the slot is reusable after the delete */
	CHECK(vsw_fdb_learn(f, k, 1, 7, &ws) == 1);
	vsw_fdb_destroy(f);
}

static void test_flush(void)
{
	struct vsw_fdb *f = mk(256);
	struct vsw_fdb_wstats ws = {0};
	uint64_t v;

	for (uint32_t i = 0; i < 30; i++)
		vsw_fdb_learn(f, key_n(i, 0), (uint16_t)(i % 3), 1, &ws);
	vsw_fdb_add_static(f, key_n(100, 0), 1, 1);
	CHECK(vsw_fdb_flush(f, 1, false) == 10);
	CHECK(vsw_fdb_count(f) == 21);
	CHECK(vsw_fdb_lookup(f, key_n(100, 0), &v));
	CHECK(!vsw_fdb_lookup(f, key_n(1, 0), &v));
	CHECK(vsw_fdb_lookup(f, key_n(2, 0), &v));
	CHECK(vsw_fdb_flush(f, VSW_FDB_PORT_NONE, false) == 20);
	CHECK(vsw_fdb_flush(f, VSW_FDB_PORT_NONE, true) == 1);
	CHECK(vsw_fdb_count(f) == 0);
	vsw_fdb_destroy(f);
}

static void test_full_table(void)
{
	struct vsw_fdb *f = mk(100);
	struct vsw_fdb_wstats ws = {0};
	struct vsw_fdb_audit au;
	uint32_t learned = 0, k;
	uint64_t v;

	/* one port fills it: beyond 100 it can only evict its own entries */
	for (uint32_t i = 0; i < 1000; i++)
		if (vsw_fdb_learn(f, key_n(i, 0), 1, 1, &ws) == 1)
			learned++;
	CHECK(vsw_fdb_count(f) == 100);
	CHECK(vsw_fdb_port_count(f, 1) == 100);
	CHECK(learned + ws.refused == 1000);
	CHECK(ws.evicted == learned - 100);
	CHECK(ws.evicted > 500); /* mostly evicts; refuses only when its
				    buckets hold none of its entries */
	/* a full table still answers for what it has and refreshes it */
	for (k = 999; k > 0 && !vsw_fdb_lookup(f, key_n(k, 0), &v); k--)
		;
	CHECK(vsw_fdb_lookup(f, key_n(k, 0), &v));
	CHECK(vsw_fdb_learn(f, key_n(k, 0), 2, 2, &ws) == 2);
	CHECK(audit_ok(f, &au));
	/* room again after aging */
	CHECK(vsw_fdb_age(f, 1000, 10) == 100);
	CHECK(vsw_fdb_learn(f, key_n(5000, 0), 1, 1000, &ws) == 1);
	vsw_fdb_destroy(f);
}

static void test_bulk_matches_single(void)
{
	struct vsw_fdb *f = mk(4096);
	struct vsw_fdb_wstats ws = {0};
	uint64_t keys[256], vals[256], hashes[256], hvals[256], v;
	int bad = 0;

	for (uint32_t i = 0; i < 2000; i += 2)
		vsw_fdb_learn(f, key_n(i, 0), (uint16_t)(i % 7), 3, &ws);
	for (uint32_t i = 0; i < 256; i++)
		keys[i] = key_n(i * 7, 0);
	vsw_fdb_lookup_bulk(f, keys, 256, vals);
	for (uint32_t i = 0; i < 256; i++) {
		bool hit = vsw_fdb_lookup(f, keys[i], &v);

		if (hit != (vals[i] != 0) || (hit && v != vals[i]))
			bad++;
	}
	/* the worker's split form: prefetch (hash) first, look up later */
	for (uint32_t i = 0; i < 256; i++)
		hashes[i] = vsw_fdb_prefetch(f, keys[i]);
	vsw_fdb_lookup_hashed(f, keys, hashes, 256, hvals);
	bad += memcmp(vals, hvals, sizeof(vals)) != 0;
	CHECK(bad == 0);
	vsw_fdb_destroy(f);
}

/* Bulk learning, and its split form (prefetch, then learn with the
 * hashes), give the table and counters sequential learning gives. */
static void test_learn_bulk(void)
{
	struct vsw_fdb *a = mk(1024), *b = mk(1024), *c = mk(1024);
	struct vsw_fdb_wstats wa = {0}, wb = {0}, wc = {0};
	uint64_t keys[64], hashes[64], va, vb, vc;
	int bad = 0;

	for (uint32_t i = 0; i < 64; i++) {
		keys[i] = key_n(i % 40, 0); /* repeats inside the burst */
		hashes[i] = vsw_fdb_prefetch(c, keys[i]);
	}
	vsw_fdb_learn_bulk(a, keys, 64, 3, 5, &wa);
	vsw_fdb_learn_hashed(c, keys, hashes, 64, 3, 5, &wc);
	for (uint32_t i = 0; i < 64; i++)
		vsw_fdb_learn(b, keys[i], 3, 5, &wb);
	vsw_fdb_learn_bulk(a, keys, 10, 4, 6, &wa); /* moves 10 */
	vsw_fdb_learn_hashed(c, keys, hashes, 10, 4, 6, &wc);
	for (uint32_t i = 0; i < 10; i++)
		vsw_fdb_learn(b, keys[i], 4, 6, &wb);
	for (uint32_t i = 0; i < 64; i++) {
		bool ha = vsw_fdb_lookup(a, keys[i], &va);
		bool hb = vsw_fdb_lookup(b, keys[i], &vb);
		bool hc = vsw_fdb_lookup(c, keys[i], &vc);

		if (!ha || !hb || !hc || va != vb || vc != vb)
			bad++;
	}
	CHECK(bad == 0);
	CHECK(wa.learned == 40 && wb.learned == 40 && wc.learned == 40);
	CHECK(wa.moved == 10 && wb.moved == 10 && wc.moved == 10);
	CHECK(vsw_fdb_count(a) == 40 && vsw_fdb_count(c) == 40);
	vsw_fdb_destroy(a);
	vsw_fdb_destroy(b);
	vsw_fdb_destroy(c);
}

static unsigned int walked;
static void count_walk(uint64_t k, uint64_t v, uint64_t pos, void *arg)
{
	(void)pos;
	(void)k;
	(void)v;
	(void)arg;
	walked++;
}

static void test_walk_pages(void)
{
	struct vsw_fdb *f = mk(512);
	struct vsw_fdb_wstats ws = {0};
	unsigned int total = 0, n, pages = 0;
	uint64_t pos = 0, last;

	for (uint32_t i = 0; i < 300; i++)
		vsw_fdb_learn(f, key_n(i, 0), 1, 1, &ws);
	/* the cursor goes on where the last page stopped, to 0 at the end */
	do {
		walked = 0;
		last = pos;
		n = vsw_fdb_walk(f, &pos, 128, count_walk, NULL);
		CHECK(n == walked);
		CHECK(pos == 0 || pos > last);
		total += n;
		pages++;
	} while (pos != 0);
	CHECK(total == 300 && pages >= 3 && pages <= 4);
	/* statics are counted without a walk */
	CHECK(vsw_fdb_static_count(f) == 0);
	CHECK(vsw_fdb_add_static(f, key_n(1000, 0), 2, 1) == 0);
	CHECK(vsw_fdb_add_static(f, key_n(1000, 0), 3, 1) == 0); /* replaced */
	CHECK(vsw_fdb_add_static(f, key_n(1001, 0), 2, 1) == 0);
	CHECK(vsw_fdb_static_count(f) == 2);
	CHECK(vsw_fdb_del(f, key_n(1001, 0)) == 0);
	CHECK(vsw_fdb_flush(f, 3, true) >= 1);
	CHECK(vsw_fdb_static_count(f) == 0);
	vsw_fdb_destroy(f);
}

/* Random learn/delete/age against a reference array of what must be in. */
static void test_randomized(void)
{
	enum { N = 10000, MAX = 16384 }; /* never full: nothing evicted */
	struct vsw_fdb *f = mk(MAX);
	struct vsw_fdb_wstats ws = {0};
	struct vsw_fdb_audit au;
	static uint16_t ref[N]; /* 0 = absent, else port + 1 */
	uint32_t in = 0, mismatches = 0;
	uint64_t v;

	srand(12345);
	for (int step = 0; step < 200000; step++) {
		uint32_t i = (uint32_t)rand() % N;
		uint16_t port = (uint16_t)(rand() % 8);

		if (rand() % 4 == 0) {
			int rc = vsw_fdb_del(f, key_n(i, 0));

			CHECK((rc == 0) == (ref[i] != 0));
			in -= ref[i] != 0;
			ref[i] = 0;
		} else {
			int rc = vsw_fdb_learn(f, key_n(i, 0), port, 1, &ws);

			if (rc == 1) {
				in++;
				ref[i] = port + 1;
			} else if (rc == 2 || (rc == 0 && ref[i])) {
				ref[i] = port + 1;
			} else {
				/* refused only when full or buckets full */
				CHECK(rc == -ENOSPC && ref[i] == 0);
			}
		}
	}
	for (uint32_t i = 0; i < N; i++) {
		bool hit = vsw_fdb_lookup(f, key_n(i, 0), &v);

		if (hit != (ref[i] != 0) ||
		    (hit && vsw_fdb_val_port(v) + 1 != ref[i]))
			mismatches++;
	}
	CHECK(ws.evicted == 0);
	CHECK(mismatches == 0);
	CHECK(vsw_fdb_count(f) == in);
	CHECK(audit_ok(f, &au));
	/* fill to the limit: bucket overflow must be rare */
	for (uint32_t i = 100000; vsw_fdb_count(f) < MAX && i < 400000; i++)
		vsw_fdb_learn(f, key_n(i, 0), 1, 1, &ws);
	CHECK(vsw_fdb_count(f) == MAX);
	CHECK(audit_ok(f, &au));
	/* and empty again: every overflow count back to 0 */
	for (uint32_t i = 0; i < 400000; i++)
		vsw_fdb_del(f, key_n(i, 0));
	CHECK(audit_ok(f, &au) && au.entries == 0);
	vsw_fdb_destroy(f);
}

static void test_port_limit(void)
{
	struct vsw_fdb *f = mk(1024);
	struct vsw_fdb_wstats ws = {0};
	uint64_t v;
	int ok = 0;

	vsw_fdb_set_port_limit(f, 3, 50);
	for (uint32_t i = 0; i < 100; i++)
		ok += vsw_fdb_learn(f, key_n(i, 0), 3, 1 + i, &ws) == 1;
	CHECK(ok == 50 && ws.limited == 50 && vsw_fdb_port_count(f, 3) == 50);
	/* a MAC of another port cannot move onto a port at its limit */
	CHECK(vsw_fdb_learn(f, key_n(500, 0), 4, 60, &ws) == 1);
	CHECK(vsw_fdb_learn(f, key_n(500, 0), 3, 61, &ws) == -EDQUOT);
	CHECK(vsw_fdb_lookup(f, key_n(500, 0), &v) && vsw_fdb_val_port(v) == 4);
	/* static entries do not count */
	CHECK(vsw_fdb_add_static(f, key_n(600, 0), 3, 1) == 0);
	CHECK(vsw_fdb_port_count(f, 3) == 50);
	/* lowering the limit: trim keeps the newest 20 */
	vsw_fdb_set_port_limit(f, 3, 20);
	CHECK(vsw_fdb_trim(f, 200) == 30);
	CHECK(vsw_fdb_port_count(f, 3) == 20);
	CHECK(!vsw_fdb_lookup(f, key_n(0, 0), &v));
	CHECK(vsw_fdb_lookup(f, key_n(49, 0), &v));
	CHECK(vsw_fdb_lookup(f, key_n(600, 0), &v)); /* static stays */
	CHECK(vsw_fdb_cstats(f)->trimmed == 30);
	/* limit 0: none */
	vsw_fdb_set_port_limit(f, 3, 0);
	CHECK(vsw_fdb_learn(f, key_n(700, 0), 3, 300, &ws) == 1);
	vsw_fdb_destroy(f);
}

/*
 * Review H3: a port flooding source MACs into a full table must never
 * keep another port's MACs out nor push them out.
 */
static void test_flood_fairness(void)
{
	struct vsw_fdb *f = mk(1024);
	struct vsw_fdb_wstats ws = {0};
	struct vsw_fdb_audit au;
	uint32_t miss = 0;
	uint64_t v;

	for (uint32_t i = 0; i < 5000; i++)
		vsw_fdb_learn(f, key_n(1000000 + i, 0), 1, 1, &ws);
	CHECK(vsw_fdb_count(f) == 1024);
	/* victims arrive while the table is full: all get in */
	for (uint32_t i = 0; i < 40; i++)
		CHECK(vsw_fdb_learn(f, key_n(i, 0), 2 + i % 3, 2, &ws) == 1);
	/* the flood goes on: it evicts only its own entries */
	for (uint32_t i = 5000; i < 50000; i++)
		vsw_fdb_learn(f, key_n(1000000 + i, 0), 1, 3, &ws);
	for (uint32_t i = 0; i < 40; i++)
		miss += !vsw_fdb_lookup(f, key_n(i, 0), &v) ||
			vsw_fdb_val_port(v) != 2 + i % 3;
	CHECK(miss == 0);
	CHECK(vsw_fdb_port_count(f, 1) + vsw_fdb_port_count(f, 2) +
		      vsw_fdb_port_count(f, 3) + vsw_fdb_port_count(f, 4) ==
	      vsw_fdb_count(f));
	/* an overshoot (victims with no flooder entry in their buckets) is
	 * trimmed from the flooder, back to the size */
	CHECK(vsw_fdb_count(f) <= 1024 + 1024 / 8);
	CHECK(audit_ok(f, &au));
	vsw_fdb_trim(f, 10);
	CHECK(vsw_fdb_count(f) <= 1024);
	for (uint32_t i = 0; i < 40; i++)
		CHECK(vsw_fdb_lookup(f, key_n(i, 0), &v));
	CHECK(audit_ok(f, &au));
	vsw_fdb_destroy(f);
}

/*
 * Layout (fdb.c): a key sits in its first bucket whenever that has room,
 * so at the load tools/bench gives the table (N MACs in fdb-size 2N, a
 * quarter of the slots) nearly every key is found on one cache line; and
 * a table filled to its size still takes every key without evicting any
 * (a full pair of buckets moves one key to its other bucket).
 */
static void test_first_bucket(void)
{
	enum { MAX = 1 << 15 };
	struct vsw_fdb *f = mk(MAX);
	struct vsw_fdb_wstats ws = {0};
	struct vsw_fdb_audit au;
	uint32_t bad = 0;
	uint64_t v;

	for (uint32_t i = 0; i < MAX / 2; i++)
		bad += vsw_fdb_learn(f, key_n(i, 0), 1, 1, &ws) != 1;
	CHECK(bad == 0 && audit_ok(f, &au));
	CHECK(au.second < au.entries / 100); /* under 1 % on two lines */
	for (uint32_t i = MAX / 2; i < MAX; i++)
		bad += vsw_fdb_learn(f, key_n(i, 0), 2, 1, &ws) != 1;
	CHECK(bad == 0 && ws.evicted == 0 && ws.refused == 0);
	CHECK(audit_ok(f, &au) && au.entries == MAX);
	CHECK(au.second < au.entries / 10);
	/* a key in its second bucket is found after its first gets room */
	for (uint32_t i = 0; i < MAX; i += 2)
		vsw_fdb_del(f, key_n(i, 0));
	for (uint32_t i = 1; i < MAX; i += 2)
		bad += !vsw_fdb_lookup(f, key_n(i, 0), &v) ||
		       vsw_fdb_val_port(v) != (i < MAX / 2 ? 1 : 2);
	CHECK(bad == 0 && audit_ok(f, &au) && au.second > 0);
	/* and is not learned twice */
	for (uint32_t i = 1; i < MAX; i += 2)
		bad += vsw_fdb_learn(f, key_n(i, 0), 3, 2, &ws) != 2;
	CHECK(bad == 0 && audit_ok(f, &au) && au.entries == MAX / 2);
	vsw_fdb_destroy(f);
}

static unsigned int walk_first;
static void first_key(uint64_t key, uint64_t val, uint64_t pos, void *arg)
{
	(void)pos;
	(void)val;
	(void)arg;
	if (walk_first == UINT32_MAX)
		walk_first = (unsigned int)(key & 0xffffff);
}

/* Bucket placement depends on the secret: two seeds, two layouts. */
static void test_keyed_hash(void)
{
	struct vsw_fdb_params p = {.max_entries = 4096, .seed = 1};
	struct vsw_fdb_wstats ws = {0};
	unsigned int first[2];

	for (int t = 0; t < 2; t++) {
		struct vsw_fdb *f;

		p.seed = (uint64_t)t + 1;
		f = vsw_fdb_create(&p);
		for (uint32_t i = 0; i < 64; i++)
			vsw_fdb_learn(f, key_n(i, 0), 1, 1, &ws);
		uint64_t pos = 0;

		walk_first = UINT32_MAX;
		vsw_fdb_walk(f, &pos, 1, first_key, NULL);
		first[t] = walk_first;
		vsw_fdb_destroy(f);
	}
	CHECK(first[0] != first[1]);
	p.seed = 0; /* random: still a working table */
	{
		struct vsw_fdb *f = vsw_fdb_create(&p);
		uint64_t v;

		CHECK(f != NULL);
		CHECK(vsw_fdb_learn(f, key_n(7, 0), 1, 1, &ws) == 1);
		CHECK(vsw_fdb_lookup(f, key_n(7, 0), &v));
		vsw_fdb_destroy(f);
	}
}

/*
 * Two threads: one floods new MACs into a full table (evicting in place),
 * the other looks up keys whose port is fixed by the key itself.  A lookup
 * may miss, but must never return another key's port.
 */
static struct vsw_fdb *race_f;
static volatile int race_stop;
static uint32_t race_cur; /* the flooder's position */

static void *race_flood(void *arg)
{
	struct vsw_fdb_wstats ws = {0};

	(void)arg;
	for (uint32_t i = 0; !race_stop; i++) {
		vsw_fdb_learn(race_f, key_n(i % 200000, 0),
			      (uint16_t)(i % 200000 % 7), 1 + i / 100000, &ws);
		__atomic_store_n(&race_cur, i, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void test_eviction_race(void)
{
	struct vsw_fdb_params p = {.max_entries = 256, .seed = 3};
	uint64_t wrong = 0, hits = 0, v;
	uint32_t start;
	pthread_t t;

	race_f = vsw_fdb_create(&p);
	race_stop = 0;
	pthread_create(&t, NULL, race_flood, NULL);
	/* on a loaded machine the flooder may not have run yet: let it fill
	 * the table first, and keep looking until it moved on (the race is
	 * only tested while both run) */
	while (__atomic_load_n(&race_cur, __ATOMIC_RELAXED) < 1000)
		sched_yield();
	start = __atomic_load_n(&race_cur, __ATOMIC_RELAXED);
	for (uint32_t r = 0;
	     r < 3000000 ||
	     __atomic_load_n(&race_cur, __ATOMIC_RELAXED) - start < 100000;
	     r++) {
		/* keys the flooder learned recently: present or being evicted */
		uint32_t i = (__atomic_load_n(&race_cur, __ATOMIC_RELAXED) -
			      r % 300) %
			     200000;

		if (vsw_fdb_lookup(race_f, key_n(i, 0), &v)) {
			hits++;
			wrong += vsw_fdb_val_port(v) != i % 7;
		}
	}
	race_stop = 1;
	pthread_join(t, NULL);
	printf("  eviction race: %llu hits, %llu wrong\n",
	       (unsigned long long)hits, (unsigned long long)wrong);
	CHECK(hits > 0);
	CHECK(wrong == 0);
	vsw_fdb_destroy(race_f);
}

/*
 * A flush (and a delete) while learners move keys between their two
 * buckets (fdb.c, kick_locked): a key moved from a bucket the scan has not
 * reached to one it has passed must not be missed.  A learner churns
 * port 1's MACs through a table kept just under its size (so new keys
 * find full pairs of buckets and move others); control learns 1,500 MACs
 * on port 9, which nobody else uses, flushes port 9 and walks the table:
 * no port 9 entry may be left.
 */
static struct vsw_fdb *move_f;
static int move_stop; /* atomic */

static void *move_churn(void *arg)
{
	struct vsw_fdb_wstats ws = {0};

	(void)arg;
	for (uint32_t i = 0; !__atomic_load_n(&move_stop, __ATOMIC_RELAXED);
	     i++)
		vsw_fdb_learn(move_f, key_n(i % 100000, 0), 1, 1, &ws);
	return NULL;
}

static void count_port9(uint64_t k, uint64_t v, uint64_t pos, void *arg)
{
	(void)k;
	(void)pos;
	*(uint32_t *)arg += vsw_fdb_val_port(v) == 9;
}

static void test_flush_races_moves(void)
{
	struct vsw_fdb_params p = {.max_entries = 4096, .seed = 9};
	struct vsw_fdb_wstats ws = {0};
	uint32_t left = 0, rounds = 0;
	struct timespec t0, t;
	pthread_t th;

	move_f = vsw_fdb_create(&p);
	__atomic_store_n(&move_stop, 0, __ATOMIC_RELAXED);
	pthread_create(&th, NULL, move_churn, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		uint32_t n9 = 0;
		uint64_t pos = 0;

		for (uint32_t i = 0; i < 1500; i++)
			vsw_fdb_learn(move_f, key_n(200000 + i, 0), 9, 1, &ws);
		vsw_fdb_flush(move_f, 9, false);
		vsw_fdb_walk(move_f, &pos, UINT32_MAX, count_port9, &n9);
		left += n9;
		rounds++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
			 (t.tv_nsec - t0.tv_nsec) / 1000000 <
		 400);
	__atomic_store_n(&move_stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	printf("  flush against moves: %u rounds, %u entries left\n", rounds,
	       left);
	CHECK(left == 0);
	vsw_fdb_destroy(move_f);
}

/* Review L8: two threads learning the same new MACs count each once. */
static struct vsw_fdb *count_f;
static void *learn_all(void *arg)
{
	struct vsw_fdb_wstats *ws = arg;

	for (uint32_t i = 0; i < 20000; i++)
		vsw_fdb_learn(count_f, key_n(i, 0), 1, 1, ws);
	return NULL;
}

static void test_learned_once(void)
{
	struct vsw_fdb_wstats ws[2] = {{0}, {0}};
	pthread_t t;

	count_f = mk(65536);
	pthread_create(&t, NULL, learn_all, &ws[1]);
	learn_all(&ws[0]);
	pthread_join(t, NULL);
	/* a MAC lost to the other thread's race is busy, never learned
	 * twice; whatever busy left out, a second pass learns */
	learn_all(&ws[0]);
	printf("  learned %llu + %llu, busy %llu + %llu\n",
	       (unsigned long long)ws[0].learned,
	       (unsigned long long)ws[1].learned,
	       (unsigned long long)ws[0].busy, (unsigned long long)ws[1].busy);
	CHECK(vsw_fdb_count(count_f) == 20000);
	CHECK(ws[0].learned + ws[1].learned == 20000);
	vsw_fdb_destroy(count_f);
}

int main(void)
{
	RUN(test_key_roundtrip);
	RUN(test_create_limits);
	RUN(test_learn_move_refresh);
	RUN(test_learn_owners);
	RUN(test_aging);
	RUN(test_refresh_period);
	RUN(test_static_and_del);
	RUN(test_flush);
	RUN(test_full_table);
	RUN(test_bulk_matches_single);
	RUN(test_learn_bulk);
	RUN(test_walk_pages);
	RUN(test_randomized);
	RUN(test_first_bucket);
	RUN(test_port_limit);
	RUN(test_flood_fairness);
	RUN(test_keyed_hash);
	RUN(test_eviction_race);
	RUN(test_flush_races_moves);
	RUN(test_learned_once);
	return TEST_EXIT();
}
