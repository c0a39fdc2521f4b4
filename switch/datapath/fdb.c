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
#include "fdb_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

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

uint32_t vsw_fdb_static_count(const struct vsw_fdb *f)
{
	return __atomic_load_n(&f->n_static, __ATOMIC_RELAXED);
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
		rc = 0; /* theirs: counted by their owner, not twice */
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
		pcount_add(f, val, 1);
	} else {
		rc = insert_locked(f, b1, b2, key, val);
	}
	unlock_pair(f, b1, b2);
	return rc < 0 ? rc : 0;
}
