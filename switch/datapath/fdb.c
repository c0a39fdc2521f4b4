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
 *
 * Fair eviction replaces a slot's key in place, without a grace period:
 * under the stripe locks of both buckets it writes a tombstone, the new
 * value (release) and the new key (release).  Lookups read key, value,
 * then the key again, and count a changed key as a miss, so a reader never
 * pairs one key with another's value; every other writer of a slot
 * (refresh, move, control's retire) holds that slot's stripe lock and
 * checks the key again first.
 */
#include "fdb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

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
	uint64_t secret[2]; /* hash key, random per table */
	struct vsw_fdb_params p;
	struct vsw_fdb_cstats cst; /* control thread only */
	/* dynamic entries per port (atomic; writers: learners, control) */
	uint32_t pcount[VSW_FDB_PORTS];
	uint32_t limit[VSW_FDB_PORTS]; /* writer: control; 0 = none */
};

/*
 * Keyed hash (not cryptographic): the key is whitened with a random
 * secret before, and mixed with another after, a murmur3-style finalizer,
 * so bucket indexes cannot be computed without the secret.
 */
static inline uint64_t keyed_hash(const struct vsw_fdb *f, uint64_t x)
{
	x ^= f->secret[0];
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 29;
	x += f->secret[1];
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 32;
	return x;
}

static inline void buckets_of(const struct vsw_fdb *f, uint64_t key,
			      uint32_t *b1, uint32_t *b2)
{
	uint64_t h = keyed_hash(f, key);

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
	if (p->seed != 0) {
		f->secret[0] = p->seed;
		f->secret[1] = p->seed * 0x9e3779b97f4a7c15ull + 1;
	} else if (getrandom(f->secret, sizeof(f->secret), 0) !=
		   sizeof(f->secret)) {
		vsw_fdb_destroy(f);
		errno = EIO;
		return NULL;
	}
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

void vsw_fdb_set_port_limit(struct vsw_fdb *f, uint16_t port, uint32_t limit)
{
	if (port < VSW_FDB_PORTS)
		__atomic_store_n(&f->limit[port], limit, __ATOMIC_RELAXED);
}

uint32_t vsw_fdb_port_count(const struct vsw_fdb *f, uint16_t port)
{
	return port < VSW_FDB_PORTS
		       ? __atomic_load_n(&f->pcount[port], __ATOMIC_RELAXED)
		       : 0;
}

static inline void pcount_add(struct vsw_fdb *f, uint64_t val, int32_t d)
{
	uint16_t port = vsw_fdb_val_port(val);

	if (port < VSW_FDB_PORTS && !(val & VSW_FDB_VAL_STATIC))
		__atomic_add_fetch(&f->pcount[port], (uint32_t)d,
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

/* The value of @s if it still holds @key after the read, else 0. */
static inline uint64_t read_val(const struct slot *s, uint64_t key)
{
	uint64_t v = __atomic_load_n(&s->val, __ATOMIC_ACQUIRE);

	return __atomic_load_n(&s->key, __ATOMIC_RELAXED) == key ? v : 0;
}

bool vsw_fdb_lookup(const struct vsw_fdb *f, uint64_t key, uint64_t *val)
{
	struct slot *s = find(f, key);

	if (s == NULL)
		return false;
	*val = read_val(s, key);
	return *val != 0;
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
		vals[i] = s != NULL ? read_val(s, keys[i]) : 0;
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

/* Entries of the port holding the most (ports < VSW_FDB_PORTS). */
static uint32_t largest_count(const struct vsw_fdb *f)
{
	uint32_t best = 0;

	for (unsigned int i = 0; i < VSW_FDB_PORTS; i++) {
		uint32_t c = __atomic_load_n(&f->pcount[i], __ATOMIC_RELAXED);

		best = c > best ? c : best;
	}
	return best;
}

/*
 * The fair victim among the eight slots of @b1, @b2 (stripes locked): the
 * dynamic entry whose port holds the most entries, provided that port is
 * @port itself or holds more than @port.  NULL when there is none.
 */
static struct slot *victim_in(struct vsw_fdb *f, uint32_t b1, uint32_t b2,
			      uint16_t port)
{
	uint32_t mine = vsw_fdb_port_count(f, port), best = 0;
	const uint32_t bs[2] = {b1, b2};
	struct slot *v = NULL;

	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < SLOTS_PER_BUCKET; i++) {
			struct slot *s = &f->b[bs[k]].s[i];
			uint64_t val =
				__atomic_load_n(&s->val, __ATOMIC_RELAXED);
			uint16_t o = vsw_fdb_val_port(val);
			uint32_t c;

			if (!(__atomic_load_n(&s->key, __ATOMIC_RELAXED) &
			      VSW_FDB_KEY_VALID) ||
			    (val & VSW_FDB_VAL_STATIC) || o >= VSW_FDB_PORTS)
				continue;
			c = vsw_fdb_port_count(f, o);
			if ((o == port || c > mine) &&
			    (v == NULL || c > best)) {
				v = s;
				best = c;
			}
		}
	}
	return v;
}

/* Give slot @s (stripe locked) to @key: see "Fair eviction" above. */
static void replace_locked(struct vsw_fdb *f, struct slot *s, uint64_t key,
			   uint64_t val)
{
	uint64_t old = __atomic_load_n(&s->val, __ATOMIC_RELAXED);

	__atomic_store_n(&s->key, KEY_TOMB, __ATOMIC_RELAXED);
	__atomic_store_n(&s->val, val, __ATOMIC_RELEASE);
	__atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
	pcount_add(f, old, -1);
	pcount_add(f, val, 1);
}

/* Take an empty slot if the table has room (up to @cap entries). */
static bool take_empty(struct vsw_fdb *f, struct slot *e, uint64_t key,
		       uint64_t val, uint32_t cap)
{
	if (e == NULL)
		return false;
	if (__atomic_add_fetch(&f->count, 1, __ATOMIC_RELAXED) > cap) {
		__atomic_sub_fetch(&f->count, 1, __ATOMIC_RELAXED);
		return false;
	}
	__atomic_store_n(&e->val, val, __ATOMIC_RELAXED);
	__atomic_store_n(&e->key, key, __ATOMIC_RELEASE);
	pcount_add(f, val, 1);
	return true;
}

/*
 * Called with both stripe locks held; key known absent.  An empty slot
 * while the table has room; else the fair victim; else, for a port that
 * is not the largest, an empty slot up to 1/8 above the size (control
 * trims it back): a flooding port can never keep another port's MAC out.
 * Returns 1 learned, 2 learned by eviction, -ENOSPC.
 */
static int insert_locked(struct vsw_fdb *f, uint32_t b1, uint32_t b2,
			 uint64_t key, uint64_t val)
{
	uint16_t port = vsw_fdb_val_port(val);
	int u1, u2;
	struct slot *e1 = empty_in(&f->b[b1], &u1);
	struct slot *e2 = empty_in(&f->b[b2], &u2);
	struct slot *e = (e1 != NULL && (e2 == NULL || u1 <= u2)) ? e1 : e2;
	struct slot *v;

	if (take_empty(f, e, key, val, f->max))
		return 1;
	if (val & VSW_FDB_VAL_STATIC)
		return -ENOSPC;
	v = victim_in(f, b1, b2, port);
	if (v != NULL) {
		replace_locked(f, v, key, val);
		return 2;
	}
	if (vsw_fdb_port_count(f, port) < largest_count(f) &&
	    take_empty(f, e, key, val, f->max + f->max / 8))
		return 1;
	return -ENOSPC;
}

static int learn_new(struct vsw_fdb *f, uint64_t key, uint64_t val, uint32_t b1,
		     uint32_t b2, struct vsw_fdb_wstats *ws)
{
	uint16_t port = vsw_fdb_val_port(val);
	uint32_t lim = port < VSW_FDB_PORTS ? __atomic_load_n(&f->limit[port],
							      __ATOMIC_RELAXED)
					    : 0;
	int rc;

	if (lim != 0 && vsw_fdb_port_count(f, port) >= lim) {
		ws->limited++;
		return -EDQUOT;
	}
	if (!lock_pair(f, b1, b2, false)) {
		ws->busy++;
		return -EBUSY;
	}
	/* Another worker may have inserted it since our lookup. */
	if (find_in(&f->b[b1], key) || find_in(&f->b[b2], key))
		rc = 0; /* theirs: not counted here (review L8) */
	else
		rc = insert_locked(f, b1, b2, key, val);
	unlock_pair(f, b1, b2);
	if (rc == -ENOSPC) {
		ws->refused++;
		return rc;
	}
	if (rc == 2)
		ws->evicted++;
	if (rc > 0)
		ws->learned++;
	return rc > 0 ? 1 : 0;
}

/* The bucket index of slot @s, one of @b1, @b2. */
static inline uint32_t bucket_of(const struct vsw_fdb *f, const struct slot *s,
				 uint32_t b1, uint32_t b2)
{
	return s >= f->b[b1].s && s < f->b[b1].s + SLOTS_PER_BUCKET ? b1 : b2;
}

/*
 * Rewrite @key's value in slot @s to @nv (a refresh or a move): under the
 * slot's stripe lock, and only if the slot still holds @key.
 */
static int rewrite(struct vsw_fdb *f, struct slot *s, uint32_t b, uint64_t key,
		   uint64_t nv, uint64_t *old)
{
	if (!trylock(f, b))
		return -EBUSY;
	if (__atomic_load_n(&s->key, __ATOMIC_RELAXED) != key) {
		unlock(f, b);
		return -ENOENT;
	}
	*old = __atomic_load_n(&s->val, __ATOMIC_RELAXED);
	__atomic_store_n(&s->val, nv, __ATOMIC_RELEASE);
	pcount_add(f, *old, -1);
	pcount_add(f, nv, 1);
	unlock(f, b);
	return 0;
}

/* Learn with the key's buckets already computed (and maybe prefetched). */
static inline int learn_at(struct vsw_fdb *f, uint64_t key, uint32_t b1,
			   uint32_t b2, uint16_t port, uint32_t now,
			   struct vsw_fdb_wstats *ws)
{
	struct slot *s = find_in(&f->b[b1], key);
	uint64_t old, nv;
	uint32_t lim;

	if (s == NULL)
		s = find_in(&f->b[b2], key);
	if (s == NULL)
		return learn_new(f, key, vsw_fdb_val(port, now, false), b1, b2,
				 ws);
	old = read_val(s, key);
	if (old == 0 || (old & VSW_FDB_VAL_STATIC))
		return 0;
	/* the common case: same port, fresh enough: no store, no dirty line */
	if (vsw_fdb_val_port(old) == port &&
	    now - vsw_fdb_val_time(old) <
		    __atomic_load_n(&f->refresh_s, __ATOMIC_RELAXED))
		return 0;
	lim = port < VSW_FDB_PORTS
		      ? __atomic_load_n(&f->limit[port], __ATOMIC_RELAXED)
		      : 0;
	if (vsw_fdb_val_port(old) != port && lim != 0 &&
	    vsw_fdb_port_count(f, port) >= lim) {
		ws->limited++;
		return -EDQUOT;
	}
	nv = vsw_fdb_val(port, now, false);
	if (rewrite(f, s, bucket_of(f, s, b1, b2), key, nv, &old) < 0) {
		ws->busy++;
		return -EBUSY;
	}
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
	if (s != NULL) {
		pcount_add(f, __atomic_load_n(&s->val, __ATOMIC_RELAXED), -1);
		__atomic_store_n(&s->val, val, __ATOMIC_RELEASE);
	} else {
		rc = insert_locked(f, b1, b2, key, val);
	}
	unlock_pair(f, b1, b2);
	return rc < 0 ? rc : 0;
}

/*
 * Retire slot @s of bucket @b if it still holds a valid key and @match
 * (NULL: any) says so: tombstone now, free after a grace period (reclaim).
 * Control thread; takes the stripe lock, which learners hold briefly.
 */
typedef bool (*match_fn)(uint64_t val, const void *arg);

static bool retire(struct vsw_fdb *f, uint32_t b, struct slot *s, uint64_t key,
		   match_fn match, const void *arg)
{
	uint64_t k, val;
	bool done = false;

	lock(f, b);
	k = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
	val = __atomic_load_n(&s->val, __ATOMIC_RELAXED);
	if ((k & VSW_FDB_KEY_VALID) && (key == 0 || k == key) &&
	    (match == NULL || match(val, arg))) {
		__atomic_store_n(&s->key, KEY_TOMB, __ATOMIC_RELEASE);
		__atomic_sub_fetch(&f->count, 1, __ATOMIC_RELAXED);
		pcount_add(f, val, -1);
		done = true;
	}
	unlock(f, b);
	return done;
}

/* After a grace period, tombstones become free slots. */
static void reclaim(struct vsw_fdb *f)
{
	if (f->p.sync != NULL)
		f->p.sync(f->p.sync_arg);
	for (uint32_t b = 0; b <= f->mask; b++) {
		bool tomb = false;

		for (int i = 0; i < SLOTS_PER_BUCKET; i++)
			tomb |= __atomic_load_n(&f->b[b].s[i].key,
						__ATOMIC_RELAXED) == KEY_TOMB;
		if (!tomb)
			continue;
		/* under the lock: a replace in flight shows a tombstone too */
		lock(f, b);
		for (int i = 0; i < SLOTS_PER_BUCKET; i++)
			if (f->b[b].s[i].key == KEY_TOMB)
				__atomic_store_n(&f->b[b].s[i].key, KEY_EMPTY,
						 __ATOMIC_RELEASE);
		unlock(f, b);
	}
}

int vsw_fdb_del(struct vsw_fdb *f, uint64_t key)
{
	uint32_t b1, b2;
	bool done;

	buckets_of(f, key, &b1, &b2);
	done = false;
	for (int i = 0; i < SLOTS_PER_BUCKET && !done; i++) {
		done = retire(f, b1, &f->b[b1].s[i], key, NULL, NULL);
		if (!done)
			done = retire(f, b2, &f->b[b2].s[i], key, NULL, NULL);
	}
	if (!done)
		return -ENOENT;
	f->cst.deleted++;
	reclaim(f);
	return 0;
}

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
				  arg) &&
			    retire(f, b, s, k, match, arg))
				n++;
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

/* Age class of a last-seen time: the bit length of its age in seconds. */
static unsigned int age_class(uint32_t now, uint64_t val)
{
	uint32_t t = vsw_fdb_val_time(val);
	uint32_t age = now > t ? now - t : 0;

	return age ? 32 - (unsigned int)__builtin_clz(age) : 0;
}

struct evict_arg {
	uint16_t port;
	uint32_t now;
	unsigned int min_class;
};

static bool is_old_of_port(uint64_t val, const void *arg)
{
	const struct evict_arg *a = arg;

	return !(val & VSW_FDB_VAL_STATIC) &&
	       vsw_fdb_val_port(val) == a->port &&
	       age_class(a->now, val) >= a->min_class;
}

/*
 * Retire about the @need oldest dynamic entries of @port (no reclaim):
 * one pass finds the age class above which @need entries lie, a second
 * retires entries of that age or older, oldest classes first.
 */
static unsigned int evict_oldest(struct vsw_fdb *f, uint16_t port,
				 uint32_t need, uint32_t now)
{
	uint32_t hist[33] = {0}, cum = 0;
	struct evict_arg a = {port, now, 0};
	unsigned int n = 0;

	for (uint32_t b = 0; b <= f->mask; b++)
		for (int i = 0; i < SLOTS_PER_BUCKET; i++) {
			const struct slot *s = &f->b[b].s[i];
			uint64_t k = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
			uint64_t v = __atomic_load_n(&s->val, __ATOMIC_RELAXED);

			if ((k & VSW_FDB_KEY_VALID) && is_old_of_port(v, &a))
				hist[age_class(now, v)]++;
		}
	for (a.min_class = 33; a.min_class > 0 && cum < need;)
		cum += hist[--a.min_class];
	/* everything older than the threshold class, then from that class */
	for (int pass = 0; pass < 2; pass++) {
		struct evict_arg p = a;

		p.min_class = a.min_class + (pass == 0 ? 1 : 0);
		for (uint32_t b = 0; b <= f->mask && n < need; b++)
			for (int i = 0; i < SLOTS_PER_BUCKET && n < need; i++)
				n += retire(f, b, &f->b[b].s[i], 0,
					    is_old_of_port, &p);
	}
	return n;
}

unsigned int vsw_fdb_trim(struct vsw_fdb *f, uint32_t now)
{
	unsigned int n = 0, big = 0;
	uint32_t count;

	for (uint16_t p = 0; p < VSW_FDB_PORTS; p++) {
		uint32_t lim = __atomic_load_n(&f->limit[p], __ATOMIC_RELAXED);
		uint32_t c = vsw_fdb_port_count(f, p);

		if (lim != 0 && c > lim)
			n += evict_oldest(f, p, c - lim, now);
	}
	count = vsw_fdb_count(f);
	if (count > f->max) {
		for (uint16_t p = 1; p < VSW_FDB_PORTS; p++)
			if (vsw_fdb_port_count(f, p) >
			    vsw_fdb_port_count(f, (uint16_t)big))
				big = p;
		n += evict_oldest(f, (uint16_t)big, count - f->max, now);
	}
	if (n > 0) {
		f->cst.trimmed += n;
		reclaim(f);
	}
	return n;
}

unsigned int vsw_fdb_walk(const struct vsw_fdb *f, unsigned int skip,
			  unsigned int max, vsw_fdb_walk_fn fn, void *arg)
{
	unsigned int seen = 0, n = 0;

	for (uint32_t b = 0; b <= f->mask && n < max; b++) {
		for (int i = 0; i < SLOTS_PER_BUCKET && n < max; i++) {
			const struct slot *s = &f->b[b].s[i];
			uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE),
				 v;

			if (!(k & VSW_FDB_KEY_VALID))
				continue;
			if (seen++ < skip)
				continue;
			v = read_val(s, k);
			if (v == 0)
				continue; /* replaced under us */
			fn(k, v, arg);
			n++;
		}
	}
	return n;
}
