/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FDB under concurrency, as vsw uses it (no EAL): two learner threads
 * (the workers) learn overlapping and disjoint MACs and move them between
 * ports, in bursts; a third thread looks up all the time; the control
 * thread ages, flushes, deletes and trims, with a real RCU QSBR grace
 * period (rte_rcu_qsbr in malloc'd memory) as the retire callback.  It
 * runs twice: with room for every MAC, then with a table smaller than the
 * MACs, where learners also evict in place.
 *
 * Every value the looker sees must be a port that was really learned for
 * that MAC (each learner records its port in a per-MAC mask before it
 * learns).  Every few rounds control pauses the others (between two
 * bursts, as a grace period would find them) and checks, as at the end,
 * that the table is consistent: no MAC twice, every entry found by
 * lookup, the entry and per-port counts equal to what a walk finds and to
 * the learn/retire counters; at the end, the port limit kept too.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_rcu_qsbr.h>

#include "datapath/fdb.h"
#include "vsw_test.h"

#define NK 384	  /* MACs: learner 0 has 0..255, learner 1 128..383 */
#define SPLIT 128 /* learner 1's first MAC */
#define HOT SPLIT /* HOT..HOT + N_HOT: every other burst of both */
#define N_HOT 8
#define NOT_LEARNED 64 /* MACs NK.. that nobody learns */
#define RUN_MS 250
#define CENSUS_EVERY 4 /* control rounds */
#define LIMITED_PORT 3 /* learner 0's port with a limit */
#define LIMIT 6

static struct vsw_fdb *f;
static struct rte_rcu_qsbr *qs;
static uint64_t mask[NK];  /* ports learned for each MAC (atomic) */
static uint32_t now_s = 1; /* control's clock (atomic) */
static int stop;
static int pause_req, paused; /* control asks, the 3 others ack */
static unsigned long syncs;

struct learner {
	unsigned int id; /* QSBR thread id, 0 or 1 */
	uint32_t lo, hi; /* MACs [lo, hi) */
	struct vsw_fdb_wstats ws;
	unsigned long bursts;
};

static uint64_t key_n(uint32_t n)
{
	uint8_t mac[6] = {0x02, 0, 0, 0, (uint8_t)(n >> 8), (uint8_t)n};

	return vsw_fdb_key(mac, 0);
}

static uint32_t n_of(uint64_t key)
{
	return (uint32_t)(key & 0xffff);
}

/* The port learner @id uses for MAC @k on its pass @pass: it moves. */
static uint16_t port_of(unsigned int id, uint32_t k, unsigned long pass)
{
	return (uint16_t)(16 * id + 8 * (pass & 1) + k % 8);
}

static void sync_qsbr(void *arg)
{
	uint64_t t = rte_rcu_qsbr_start(qs);

	(void)arg;
	/* a grace period; yield: there may be fewer CPUs than threads */
	while (rte_rcu_qsbr_check(qs, t, false) == 0)
		sched_yield();
	syncs++;
}

/* Reader side of a pause: offline (no grace period waits) until resumed. */
static void pause_point(unsigned int id)
{
	if (!__atomic_load_n(&pause_req, __ATOMIC_ACQUIRE))
		return;
	rte_rcu_qsbr_thread_offline(qs, id);
	__atomic_add_fetch(&paused, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&pause_req, __ATOMIC_ACQUIRE))
		sched_yield();
	__atomic_sub_fetch(&paused, 1, __ATOMIC_ACQ_REL);
	rte_rcu_qsbr_thread_online(qs, id);
}

static uint32_t rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* A worker: bursts of MACs, each burst learned on one port, in bulk. */
static void *learn_loop(void *arg)
{
	struct learner *l = arg;
	uint32_t seed = 17 + l->id;

	rte_rcu_qsbr_thread_register(qs, l->id);
	rte_rcu_qsbr_thread_online(qs, l->id);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		uint32_t now = __atomic_load_n(&now_s, __ATOMIC_RELAXED);
		uint64_t keys[16];
		uint16_t port;
		uint32_t k0 = l->lo + rnd(&seed) % (l->hi - l->lo), step = 8;
		unsigned int n = 0;

		if (l->bursts % 2 == 0) { /* the hot MACs both learn */
			k0 = HOT;
			step = 1;
		}
		port = port_of(l->id, k0, l->bursts / 4);
		/* MACs with the same port rule: k0, k0 + 8, ... (or hot) */
		for (uint32_t k = k0;
		     k < l->hi && n < 16 && (step == 8 || k < HOT + N_HOT);
		     k += step) {
			__atomic_fetch_or(&mask[k], 1ull << port,
					  __ATOMIC_RELEASE);
			keys[n++] = key_n(k);
		}
		if (n == 1)
			vsw_fdb_learn(f, keys[0], port, now, &l->ws);
		else
			vsw_fdb_learn_bulk(f, keys, n, port, now, &l->ws);
		l->bursts++;
		rte_rcu_qsbr_quiescent(qs, l->id);
		if (l->bursts % 256 == 0)
			sched_yield(); /* let the others run on a small box */
		pause_point(l->id);
	}
	rte_rcu_qsbr_thread_offline(qs, l->id);
	rte_rcu_qsbr_thread_unregister(qs, l->id);
	return NULL;
}

struct looker {
	unsigned long hits, misses, wrong, lookups;
};

/* Is @v a value a learner really wrote for MAC @k? */
static bool plausible(uint32_t k, uint64_t v)
{
	uint16_t port = vsw_fdb_val_port(v);
	uint32_t t = vsw_fdb_val_time(v);

	return k < NK && port < 64 && !(v & VSW_FDB_VAL_STATIC) &&
	       (__atomic_load_n(&mask[k], __ATOMIC_ACQUIRE) >> port & 1) &&
	       t >= 1 && t <= __atomic_load_n(&now_s, __ATOMIC_RELAXED);
}

static void *look_loop(void *arg)
{
	struct looker *lk = arg;
	uint32_t seed = 99;

	rte_rcu_qsbr_thread_register(qs, 2);
	rte_rcu_qsbr_thread_online(qs, 2);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		uint64_t keys[32], vals[32], v;
		uint32_t k = rnd(&seed) % (NK + NOT_LEARNED);

		if (vsw_fdb_lookup(f, key_n(k), &v)) {
			lk->hits++;
			if (!plausible(k, v)) {
				lk->wrong++;
				fprintf(stderr, "MAC %u -> port %u at %u\n", k,
					vsw_fdb_val_port(v),
					vsw_fdb_val_time(v));
			}
		}
		for (unsigned int i = 0; i < 32; i++)
			keys[i] = key_n((k + i * 3) % (NK + NOT_LEARNED));
		vsw_fdb_lookup_bulk(f, keys, 32, vals);
		for (unsigned int i = 0; i < 32; i++) {
			if (vals[i] == 0) {
				lk->misses++;
				continue;
			}
			lk->hits++;
			if (!plausible(n_of(keys[i]), vals[i]))
				lk->wrong++;
		}
		lk->lookups += 33;
		rte_rcu_qsbr_quiescent(qs, 2);
		if (lk->lookups % (256 * 33) == 0)
			sched_yield();
		pause_point(2);
	}
	rte_rcu_qsbr_thread_offline(qs, 2);
	rte_rcu_qsbr_thread_unregister(qs, 2);
	return NULL;
}

/* What a walk of the table finds. */
struct census {
	unsigned int entries, dups, bad, unfound;
	uint32_t per_port[VSW_FDB_PORTS];
	uint8_t seen[NK];
};

static void count_one(uint64_t key, uint64_t val, uint64_t pos, void *arg)
{
	struct census *c = arg;
	uint32_t k = n_of(key);
	uint64_t v;

	(void)pos;
	c->entries++;
	if (k >= NK || !plausible(k, val)) {
		c->bad++;
		return;
	}
	c->dups += c->seen[k]++ != 0;
	c->per_port[vsw_fdb_val_port(val)]++;
	if (!vsw_fdb_lookup(f, key, &v) || v != val)
		c->unfound++;
}

static uint64_t ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static struct learner l[2];
static struct looker lk;

/* Walk the table and check it against lookups and every counter. */
static unsigned int census(void)
{
	const struct vsw_fdb_cstats *cs = vsw_fdb_cstats(f);
	uint64_t learned = l[0].ws.learned + l[1].ws.learned;
	uint64_t gone = l[0].ws.evicted + l[1].ws.evicted + cs->aged +
			cs->flushed + cs->deleted + cs->trimmed;
	static struct census c;
	struct vsw_fdb_audit au;
	unsigned int fails = 0, broken = vsw_fdb_audit(f, &au);

	memset(&c, 0, sizeof(c));
	vsw_fdb_walk(f, &(uint64_t){0}, UINT32_MAX, count_one, &c);
	fails += c.bad != 0;
	fails += c.dups != 0;
	fails += c.unfound != 0;
	fails += broken != 0; /* each key once, overflow counts exact */
	fails += c.entries != vsw_fdb_count(f);
	fails += learned - gone != c.entries;
	for (uint16_t i = 0; i < VSW_FDB_PORTS; i++)
		fails += c.per_port[i] != vsw_fdb_port_count(f, i);
	if (fails)
		fprintf(stderr,
			"census: %u entries (count %u, learned - gone %lld), "
			"%u bad, %u twice, %u not found by lookup; audit: %u "
			"foreign, %u twice, %u bad overflow counts\n",
			c.entries, vsw_fdb_count(f),
			(long long)(learned - gone), c.bad, c.dups, c.unfound,
			au.foreign, au.twice, au.ovf_bad);
	return fails;
}

/* Stop the others between two bursts, take a census, resume them. */
static unsigned int paused_census(void)
{
	unsigned int fails;

	__atomic_store_n(&pause_req, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&paused, __ATOMIC_ACQUIRE) < 3)
		sched_yield();
	fails = census();
	__atomic_store_n(&pause_req, 0, __ATOMIC_RELEASE);
	while (__atomic_load_n(&paused, __ATOMIC_ACQUIRE) > 0)
		sched_yield();
	return fails;
}

static void run(uint32_t max_entries)
{
	struct vsw_fdb_params p = {
		.max_entries = max_entries, .sync = sync_qsbr, .seed = 5};
	size_t sz = rte_rcu_qsbr_get_memsize(3);
	unsigned long rounds = 0, censuses = 0, bad_censuses = 0;
	uint32_t seed = 7;
	uint64_t t_end;
	pthread_t t[3];

	memset(mask, 0, sizeof(mask));
	memset(l, 0, sizeof(l));
	memset(&lk, 0, sizeof(lk));
	l[0] = (struct learner){.id = 0, .lo = 0, .hi = SPLIT * 2};
	l[1] = (struct learner){.id = 1, .lo = SPLIT, .hi = NK};
	now_s = 1;
	stop = 0;
	syncs = 0;
	qs = aligned_alloc(RTE_CACHE_LINE_SIZE,
			   RTE_ALIGN_CEIL(sz, RTE_CACHE_LINE_SIZE));
	f = vsw_fdb_create(&p);
	if (qs == NULL || f == NULL || rte_rcu_qsbr_init(qs, 3) != 0) {
		fprintf(stderr, "cannot set up\n");
		exit(1);
	}
	vsw_fdb_set_port_limit(f, LIMITED_PORT, LIMIT);
	pthread_create(&t[0], NULL, learn_loop, &l[0]);
	pthread_create(&t[1], NULL, learn_loop, &l[1]);
	pthread_create(&t[2], NULL, look_loop, &lk);
	/* control: the clock, aging, flushes, deletes, trims, censuses */
	t_end = ms_now() + RUN_MS;
	while (ms_now() < t_end) {
		uint32_t now = __atomic_add_fetch(&now_s, 1, __ATOMIC_RELAXED);

		vsw_fdb_age(f, now, 8);
		/* a port of the hot MACs, then any port */
		vsw_fdb_flush(f, port_of(rounds % 2, HOT, rounds / 2 % 2),
			      false);
		if (rounds % 2 == 0)
			vsw_fdb_flush(f, (uint16_t)(rnd(&seed) % 32), false);
		vsw_fdb_del(f, key_n(HOT + rounds % N_HOT));
		if (rounds % 5 == 0)
			vsw_fdb_del(f, key_n(rnd(&seed) % NK));
		vsw_fdb_trim(f, now);
		if (++rounds % CENSUS_EVERY == 0) {
			censuses++;
			bad_censuses += paused_census() != 0;
		}
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	/* one trim takes from the largest port only: repeat, as control does */
	while (vsw_fdb_trim(f, now_s) > 0)
		;
	printf("  table of %u: %lu control rounds, %lu syncs, %lu censuses; "
	       "bursts %lu + %lu; learned %llu, moved %llu, evicted %llu, "
	       "busy %llu, limited %llu; aged %llu, flushed %llu, deleted "
	       "%llu, trimmed %llu; %lu lookups, %lu hits, %lu wrong; %u "
	       "entries\n",
	       max_entries, rounds, syncs, censuses, l[0].bursts, l[1].bursts,
	       (unsigned long long)(l[0].ws.learned + l[1].ws.learned),
	       (unsigned long long)(l[0].ws.moved + l[1].ws.moved),
	       (unsigned long long)(l[0].ws.evicted + l[1].ws.evicted),
	       (unsigned long long)(l[0].ws.busy + l[1].ws.busy),
	       (unsigned long long)(l[0].ws.limited + l[1].ws.limited),
	       (unsigned long long)vsw_fdb_cstats(f)->aged,
	       (unsigned long long)vsw_fdb_cstats(f)->flushed,
	       (unsigned long long)vsw_fdb_cstats(f)->deleted,
	       (unsigned long long)vsw_fdb_cstats(f)->trimmed, lk.lookups,
	       lk.hits, lk.wrong, vsw_fdb_count(f));
	/* while it ran: only real values, a consistent table when paused */
	CHECK(lk.wrong == 0);
	CHECK(bad_censuses == 0);
	/* and it did run */
	CHECK(lk.hits > 0 && lk.misses > 0);
	CHECK(l[0].bursts > 0 && l[1].bursts > 0 && syncs > 0);
	CHECK(l[0].ws.moved + l[1].ws.moved > 0);
	/* at the end: consistent, within the size and the port limit */
	CHECK(census() == 0);
	CHECK(vsw_fdb_count(f) <= vsw_fdb_max(f));
	CHECK(vsw_fdb_port_count(f, LIMITED_PORT) <= LIMIT);
	for (uint32_t k = NK; k < NK + NOT_LEARNED; k++) {
		uint64_t v;

		CHECK(!vsw_fdb_lookup(f, key_n(k), &v));
	}
	vsw_fdb_destroy(f);
	free(qs);
}

/* Room for every MAC: new entries come back after retires. */
static void test_learn_retire(void)
{
	run(1024);
}

/* Fewer entries than MACs: learners evict each other's entries too. */
static void test_learn_evict(void)
{
	run(64);
	CHECK(l[0].ws.evicted + l[1].ws.evicted > 0);
}

/*
 * Room for every MAC in 256 buckets (400 entries): the keys refill after
 * each flush fill some pairs of buckets, so learners also move keys to
 * their other bucket (fdb.c, kick_locked; about ten times a run) while
 * the others read and write them.
 */
static void test_learn_kick(void)
{
	run(400);
}

int main(void)
{
	RUN(test_learn_retire);
	RUN(test_learn_evict);
	RUN(test_learn_kick);
	return TEST_EXIT();
}
