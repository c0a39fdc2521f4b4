/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FDB: a two-choice bucketized hash table of 8-byte keys and 8-byte values.
 *
 * A bucket is one cache line of four slots; a key lives in one of its two
 * candidate buckets.  Readers (workers) are lock-free: a slot's key is
 * published with a release store after its value, and a slot is never
 * reused until a grace period has passed since its key was retired, so a
 * reader that matched a key reads that key's value.  Refreshing an entry
 * is a single atomic store, done only when the port or the second changed
 * (no dirty cache line per packet).  Inserting takes try-locks on the two
 * candidate buckets' lock stripes and gives up on contention: losing a
 * race costs one unlearned packet, never a wait on the fast path.  Control
 * (aging, flush, delete) retires keys to a tombstone, waits for the grace
 * period, then frees the slots.
 */
#include "fdb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS_PER_BUCKET 4
#define KEY_EMPTY 0ull
#define KEY_TOMB 1ull /* retired, waiting for a grace period */
#define MAX_LOCKS 4096u

struct slot {
	uint64_t
		key; /* writer: inserting worker / control; release-published */
	uint64_t val; /* writer: any worker (atomic store); readers any */
};

struct bucket {
	struct slot s[SLOTS_PER_BUCKET];
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct bucket) == 64, "bucket must be a cache line");

struct vsw_fdb {
	struct bucket *b;
	uint32_t mask;	    /* buckets - 1 */
	uint32_t lock_mask; /* locks - 1 */
	uint32_t max;	    /* entry limit */
	uint32_t count;	    /* atomic: entries in the table */
	uint8_t *locks;	    /* stripe locks, test-and-set bytes */
	uint32_t refresh_s; /* rewrite a timestamp at most this often */
	struct vsw_fdb_params p;
	struct vsw_fdb_cstats cst; /* control thread only */
};

static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static inline void buckets_of(const struct vsw_fdb *f, uint64_t key,
			      uint32_t *b1, uint32_t *b2)
{
	uint64_t h = mix64(key);

	*b1 = (uint32_t)h & f->mask;
	*b2 = (uint32_t)(h >> 32) & f->mask;
	if (*b2 == *b1)
		*b2 = *b1 ^ (f->mask & 1u);
}

static uint32_t pow2_at_least(uint32_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static void *default_alloc(size_t size, void *arg)
{
	void *p;

	(void)arg;
	p = aligned_alloc(64, (size + 63) & ~(size_t)63);
	if (p != NULL)
		memset(p, 0, size);
	return p;
}

static void default_free(void *ptr, void *arg)
{
	(void)arg;
	free(ptr);
}

struct vsw_fdb *vsw_fdb_create(const struct vsw_fdb_params *p)
{
	struct vsw_fdb *f;
	uint32_t nb;

	if (p == NULL || p->max_entries < 16 || p->max_entries > (1u << 24)) {
		errno = EINVAL;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return NULL;
	f->p = *p;
	if (f->p.alloc == NULL || f->p.free == NULL) {
		f->p.alloc = default_alloc;
		f->p.free = default_free;
	}
	/* Twice the slots of the limit: two-choice buckets rarely overflow. */
	nb = pow2_at_least(p->max_entries * 2 / SLOTS_PER_BUCKET);
	f->mask = nb - 1;
	f->lock_mask = (nb < MAX_LOCKS ? nb : MAX_LOCKS) - 1;
	f->max = p->max_entries;
	f->refresh_s = 1;
	f->b = f->p.alloc((size_t)nb * sizeof(struct bucket), f->p.alloc_arg);
	f->locks = calloc(f->lock_mask + 1, 1);
	if (f->b == NULL || f->locks == NULL) {
		vsw_fdb_destroy(f);
		errno = ENOMEM;
		return NULL;
	}
	return f;
}

void vsw_fdb_destroy(struct vsw_fdb *f)
{
	if (f == NULL)
		return;
	if (f->b != NULL)
		f->p.free(f->b, f->p.alloc_arg);
	free(f->locks);
	free(f);
}

void vsw_fdb_set_refresh(struct vsw_fdb *f, uint32_t refresh_s)
{
	__atomic_store_n(&f->refresh_s, refresh_s ? refresh_s : 1,
			 __ATOMIC_RELAXED);
}

uint32_t vsw_fdb_count(const struct vsw_fdb *f)
{
	return __atomic_load_n(&f->count, __ATOMIC_RELAXED);
}

uint32_t vsw_fdb_max(const struct vsw_fdb *f)
{
	return f->max;
}

const struct vsw_fdb_cstats *vsw_fdb_cstats(const struct vsw_fdb *f)
{
	return &f->cst;
}

static inline struct slot *find_in(const struct bucket *b, uint64_t key)
{
	for (int i = 0; i < SLOTS_PER_BUCKET; i++)
		if (__atomic_load_n(&b->s[i].key, __ATOMIC_ACQUIRE) == key)
			return (struct slot *)&b->s[i];
	return NULL;
}

static inline struct slot *find(const struct vsw_fdb *f, uint64_t key)
{
	uint32_t b1, b2;
	struct slot *s;

	buckets_of(f, key, &b1, &b2);
	s = find_in(&f->b[b1], key);
	return s != NULL ? s : find_in(&f->b[b2], key);
}

bool vsw_fdb_lookup(const struct vsw_fdb *f, uint64_t key, uint64_t *val)
{
	struct slot *s = find(f, key);

	if (s == NULL)
		return false;
	*val = __atomic_load_n(&s->val, __ATOMIC_RELAXED);
	return true;
}

void vsw_fdb_lookup_bulk(const struct vsw_fdb *f, const uint64_t *keys,
			 unsigned int n, uint64_t *vals)
{
	uint32_t b1[256], b2[256];
	unsigned int i;
	struct slot *s;

	for (i = 0; i < n; i++) {
		buckets_of(f, keys[i], &b1[i], &b2[i]);
		__builtin_prefetch(&f->b[b1[i]]);
	}
	for (i = 0; i < n; i++) {
		s = find_in(&f->b[b1[i]], keys[i]);
		if (s == NULL)
			s = find_in(&f->b[b2[i]], keys[i]);
		vals[i] = s != NULL ? __atomic_load_n(&s->val, __ATOMIC_RELAXED)
				    : 0;
	}
}

static inline bool trylock(struct vsw_fdb *f, uint32_t b)
{
	return !__atomic_test_and_set(&f->locks[b & f->lock_mask],
				      __ATOMIC_ACQUIRE);
}

static inline void lock(struct vsw_fdb *f, uint32_t b)
{
	while (!trylock(f, b))
		;
}

static inline void unlock(struct vsw_fdb *f, uint32_t b)
{
	__atomic_clear(&f->locks[b & f->lock_mask], __ATOMIC_RELEASE);
}

/* Lock the stripes of both buckets (in order, once if shared). */
static bool lock_pair(struct vsw_fdb *f, uint32_t b1, uint32_t b2, bool wait)
{
	uint32_t l1 = b1 & f->lock_mask, l2 = b2 & f->lock_mask;
	uint32_t lo = l1 < l2 ? l1 : l2, hi = l1 < l2 ? l2 : l1;

	if (!wait) {
		if (!trylock(f, lo))
			return false;
		if (hi != lo && !trylock(f, hi)) {
			unlock(f, lo);
			return false;
		}
		return true;
	}
	lock(f, lo);
	if (hi != lo)
		lock(f, hi);
	return true;
}

static void unlock_pair(struct vsw_fdb *f, uint32_t b1, uint32_t b2)
{
	uint32_t l1 = b1 & f->lock_mask, l2 = b2 & f->lock_mask;

	unlock(f, l1);
	if (l2 != l1)
		unlock(f, l2);
}

static struct slot *empty_in(struct bucket *b, int *used)
{
	struct slot *e = NULL;

	*used = 0;
	for (int i = 0; i < SLOTS_PER_BUCKET; i++) {
		if (__atomic_load_n(&b->s[i].key, __ATOMIC_RELAXED) ==
		    KEY_EMPTY) {
			if (e == NULL)
				e = &b->s[i];
		} else {
			(*used)++;
		}
	}
	return e;
}

/* Called with both stripe locks held; key known absent. */
static int insert_locked(struct vsw_fdb *f, uint32_t b1, uint32_t b2,
			 uint64_t key, uint64_t val)
{
	int u1, u2;
	struct slot *e1 = empty_in(&f->b[b1], &u1);
	struct slot *e2 = empty_in(&f->b[b2], &u2);
	struct slot *e = (e1 != NULL && (e2 == NULL || u1 <= u2)) ? e1 : e2;

	if (e == NULL)
		return -ENOSPC;
	if (__atomic_add_fetch(&f->count, 1, __ATOMIC_RELAXED) > f->max) {
		__atomic_sub_fetch(&f->count, 1, __ATOMIC_RELAXED);
		return -ENOSPC;
	}
	__atomic_store_n(&e->val, val, __ATOMIC_RELAXED);
	__atomic_store_n(&e->key, key, __ATOMIC_RELEASE);
	return 0;
}

static int learn_new(struct vsw_fdb *f, uint64_t key, uint64_t val, uint32_t b1,
		     uint32_t b2, struct vsw_fdb_wstats *ws)
{
	int rc;

	if (__atomic_load_n(&f->count, __ATOMIC_RELAXED) >= f->max) {
		ws->refused++;
		return -ENOSPC;
	}
	if (!lock_pair(f, b1, b2, false)) {
		ws->busy++;
		return -EBUSY;
	}
	/* Another worker may have inserted it since our lookup. */
	if (find_in(&f->b[b1], key) || find_in(&f->b[b2], key))
		rc = 0;
	else
		rc = insert_locked(f, b1, b2, key, val);
	unlock_pair(f, b1, b2);
	if (rc == -ENOSPC) {
		ws->refused++;
		return rc;
	}
	ws->learned++;
	return 1;
}

/* Learn with the key's buckets already computed (and maybe prefetched). */
static inline int learn_at(struct vsw_fdb *f, uint64_t key, uint32_t b1,
			   uint32_t b2, uint16_t port, uint32_t now,
			   struct vsw_fdb_wstats *ws)
{
	struct slot *s = find_in(&f->b[b1], key);
	uint64_t old, nv;

	if (s == NULL)
		s = find_in(&f->b[b2], key);
	if (s == NULL)
		return learn_new(f, key, vsw_fdb_val(port, now, false), b1, b2,
				 ws);
	old = __atomic_load_n(&s->val, __ATOMIC_RELAXED);
	if (old & VSW_FDB_VAL_STATIC)
		return 0;
	/* the common case: same port, fresh enough: no store, no dirty line */
	if (vsw_fdb_val_port(old) == port &&
	    now - vsw_fdb_val_time(old) <
		    __atomic_load_n(&f->refresh_s, __ATOMIC_RELAXED))
		return 0;
	nv = vsw_fdb_val(port, now, false);
	__atomic_store_n(&s->val, nv, __ATOMIC_RELAXED);
	if (vsw_fdb_val_port(old) != port) {
		ws->moved++;
		return 2;
	}
	return 0;
}

int vsw_fdb_learn(struct vsw_fdb *f, uint64_t key, uint16_t port, uint32_t now,
		  struct vsw_fdb_wstats *ws)
{
	uint32_t b1, b2;

	buckets_of(f, key, &b1, &b2);
	return learn_at(f, key, b1, b2, port, now, ws);
}

void vsw_fdb_learn_bulk(struct vsw_fdb *f, const uint64_t *keys, unsigned int n,
			uint16_t port, uint32_t now, struct vsw_fdb_wstats *ws)
{
	uint32_t b1[256], b2[256];
	unsigned int i;

	for (i = 0; i < n; i++) {
		buckets_of(f, keys[i], &b1[i], &b2[i]);
		__builtin_prefetch(&f->b[b1[i]]);
		__builtin_prefetch(&f->b[b2[i]]);
	}
	for (i = 0; i < n; i++)
		learn_at(f, keys[i], b1[i], b2[i], port, now, ws);
}

int vsw_fdb_add_static(struct vsw_fdb *f, uint64_t key, uint16_t port,
		       uint32_t now)
{
	uint64_t val = vsw_fdb_val(port, now, true);
	uint32_t b1, b2;
	struct slot *s;
	int rc = 0;

	buckets_of(f, key, &b1, &b2);
	lock_pair(f, b1, b2, true);
	s = find_in(&f->b[b1], key);
	if (s == NULL)
		s = find_in(&f->b[b2], key);
	if (s != NULL)
		__atomic_store_n(&s->val, val, __ATOMIC_RELAXED);
	else
		rc = insert_locked(f, b1, b2, key, val);
	unlock_pair(f, b1, b2);
	return rc;
}

/* Retire the key of @s (control thread, stripe locked by caller or not
 * needed: inserts only ever claim empty slots). */
static void retire(struct vsw_fdb *f, struct slot *s)
{
	__atomic_store_n(&s->key, KEY_TOMB, __ATOMIC_RELEASE);
	__atomic_sub_fetch(&f->count, 1, __ATOMIC_RELAXED);
}

/* After a grace period, tombstones become free slots. */
static void reclaim(struct vsw_fdb *f)
{
	if (f->p.sync != NULL)
		f->p.sync(f->p.sync_arg);
	for (uint32_t b = 0; b <= f->mask; b++)
		for (int i = 0; i < SLOTS_PER_BUCKET; i++)
			if (f->b[b].s[i].key == KEY_TOMB)
				__atomic_store_n(&f->b[b].s[i].key, KEY_EMPTY,
						 __ATOMIC_RELEASE);
}

int vsw_fdb_del(struct vsw_fdb *f, uint64_t key)
{
	struct slot *s = find(f, key);

	if (s == NULL)
		return -ENOENT;
	retire(f, s);
	f->cst.deleted++;
	reclaim(f);
	return 0;
}

typedef bool (*match_fn)(uint64_t val, const void *arg);

static unsigned int remove_matching(struct vsw_fdb *f, match_fn match,
				    const void *arg)
{
	unsigned int n = 0;

	for (uint32_t b = 0; b <= f->mask; b++) {
		for (int i = 0; i < SLOTS_PER_BUCKET; i++) {
			struct slot *s = &f->b[b].s[i];
			uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);

			if (!(k & VSW_FDB_KEY_VALID))
				continue;
			if (match(__atomic_load_n(&s->val, __ATOMIC_RELAXED),
				  arg)) {
				retire(f, s);
				n++;
			}
		}
	}
	if (n > 0)
		reclaim(f);
	return n;
}

struct age_arg {
	uint32_t now, aging;
};

static bool is_old(uint64_t val, const void *arg)
{
	const struct age_arg *a = arg;

	if (val & VSW_FDB_VAL_STATIC)
		return false;
	return a->now - vsw_fdb_val_time(val) >= a->aging &&
	       a->now >= vsw_fdb_val_time(val);
}

unsigned int vsw_fdb_age(struct vsw_fdb *f, uint32_t now, uint32_t aging_s)
{
	struct age_arg a = {now, aging_s};
	unsigned int n;

	if (aging_s == 0)
		return 0;
	n = remove_matching(f, is_old, &a);
	f->cst.aged += n;
	return n;
}

struct flush_arg {
	uint16_t port;
	bool with_static;
};

static bool is_port(uint64_t val, const void *arg)
{
	const struct flush_arg *a = arg;

	if ((val & VSW_FDB_VAL_STATIC) && !a->with_static)
		return false;
	return a->port == VSW_FDB_PORT_NONE || vsw_fdb_val_port(val) == a->port;
}

unsigned int vsw_fdb_flush(struct vsw_fdb *f, uint16_t port, bool with_static)
{
	struct flush_arg a = {port, with_static};
	unsigned int n = remove_matching(f, is_port, &a);

	f->cst.flushed += n;
	return n;
}

unsigned int vsw_fdb_walk(const struct vsw_fdb *f, unsigned int skip,
			  unsigned int max, vsw_fdb_walk_fn fn, void *arg)
{
	unsigned int seen = 0, n = 0;

	for (uint32_t b = 0; b <= f->mask && n < max; b++) {
		for (int i = 0; i < SLOTS_PER_BUCKET && n < max; i++) {
			const struct slot *s = &f->b[b].s[i];
			uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);

			if (!(k & VSW_FDB_KEY_VALID))
				continue;
			if (seen++ < skip)
				continue;
			fn(k, __atomic_load_n(&s->val, __ATOMIC_RELAXED), arg);
			n++;
		}
	}
	return n;
}
