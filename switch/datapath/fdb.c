/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FDB: a two-choice bucketized hash table of 8-byte keys and 8-byte values.
 *
 * A bucket is one cache line of four slots; a key lives in one of its two
 * candidate buckets, in its first whenever that has room.  Each bucket
 * counts the keys that overflowed from it into their second bucket (in
 * slot 0's value, see OVF_SHIFT), so a lookup or a learn reads the second
 * line only when the key is not in the first and that count is not 0:
 * in the common case one cache line per source learned and per
 * destination looked up, one prefetch per key (vsw_fdb_prefetch, which
 * the worker calls as it parses each frame, and the bulk forms).  The
 * table holds twice its size in slots, so at its size half the slots are
 * used and about 4 % of keys sit in their second bucket; at the quarter
 * tools/bench's fdb-size 2N gives, 0.4 %.  When both buckets of a new key
 * are full and the table has room, one key of them moves to its other
 * bucket (kick_locked), so a full pair of buckets refuses a key more
 * rarely than choosing the emptier bucket did.  Choosing the emptier
 * bucket (the layout before) balances better but puts a quarter of the
 * keys in their second bucket, so every key's two lines had to be read.
 * Why 16-byte slots and not VPP's 8-byte ones: a key is MAC + VLAN (60
 * bits) and a value port + static + last-seen (49 bits); packing both
 * into 8 bytes would need a fingerprint and a second array, i.e. a
 * second line per key, and four slots per line already fit the two-choice
 * load; the line count per key, not the slot size, is what costs at 1M
 * MACs: 1M entries need 16 MB at least, far beyond the few MB of cache a
 * core gets, so each key's line comes from DRAM (docs/performance.md).
 *
 * Readers (workers) are lock-free: a slot's key is published with a
 * release store after its value, and a slot is never reused until a grace
 * period has passed since its key was retired, so a reader that matched a
 * key reads that key's value.  Refreshing an entry is a single atomic
 * store, done only when the port changed or the last-seen time is
 * refresh_s old (no dirty cache line per packet).  Inserting takes try-locks on the two
 * candidate buckets' lock stripes and gives up on contention: losing a
 * race costs one unlearned packet, never a wait on the fast path.  Control
 * (aging, flush, delete) retires keys to a tombstone, waits for the grace
 * period, then frees the slots.
 *
 * Fair eviction replaces a slot's key in place, without a grace period:
 * under the stripe locks of both buckets it writes a tombstone, the new
 * value (release) and the new key (release); a key moved to its other
 * bucket is published there before its old slot is so replaced.  A
 * bucket's overflow count is written under its own stripe lock, raised
 * before the overflowing key is published and lowered after it is gone,
 * so a reader that misses a key by it races that key's insert or removal,
 * as it could without the count.  Lookups read key, value,
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
	f->h.mask = nb - 1;
	f->lock_mask = (nb < MAX_LOCKS ? nb : MAX_LOCKS) - 1;
	f->max = p->max_entries;
	f->refresh_s = 1;
	if (p->seed != 0) {
		f->h.secret[0] = p->seed;
		f->h.secret[1] = p->seed * 0x9e3779b97f4a7c15ull + 1;
	} else if (getrandom(f->h.secret, sizeof(f->h.secret), 0) !=
		   sizeof(f->h.secret)) {
		vsw_fdb_destroy(f);
		errno = EIO;
		return NULL;
	}
	f->h.b = f->p.alloc((size_t)nb * sizeof(struct vsw_fdb_bucket),
			    f->p.alloc_arg);
	f->locks = calloc(f->lock_mask + 1, 1);
	if (f->h.b == NULL || f->locks == NULL) {
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
	if (f->h.b != NULL)
		f->p.free(f->h.b, f->p.alloc_arg);
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

/* @key's slot in @b, or NULL.  All four keys are compared before one
 * branch: the slot a key sits in is random, so a loop that stops at the
 * match mispredicts its exit about every other key, which at 1M MACs (a
 * different key every frame) cost more than the compares. */
static inline struct slot *find_in(const struct vsw_fdb_bucket *b, uint64_t key)
{
	unsigned int m = 0;

	for (int i = 0; i < SLOTS_PER_BUCKET; i++)
		m |= (unsigned int)(__atomic_load_n(&b->s[i].key,
						    __ATOMIC_ACQUIRE) == key)
		     << i;
	return m != 0 ? (struct slot *)&b->s[__builtin_ctz(m)] : NULL;
}

/*
 * @key's slot: its first bucket @b1, then its second @b2 only when some
 * key of @b1 overflowed there (see OVF_SHIFT): one line in the common
 * case.  Under @b1's stripe lock the answer is exact.
 */
static inline struct slot *find(const struct vsw_fdb *f, uint64_t key,
				uint32_t b1, uint32_t b2)
{
	struct slot *s = find_in(&f->h.b[b1], key);

	if (s == NULL && ovf_of(&f->h.b[b1]) != 0)
		s = find_in(&f->h.b[b2], key);
	return s;
}

bool vsw_fdb_lookup(const struct vsw_fdb *f, uint64_t key, uint64_t *val)
{
	uint32_t b1, b2;
	struct slot *s;

	buckets_of(f, key, &b1, &b2);
	s = find(f, key, b1, b2);

	if (s == NULL)
		return false;
	*val = read_val(s, key);
	return *val != 0;
}

void vsw_fdb_lookup_bulk(const struct vsw_fdb *f, const uint64_t *keys,
			 unsigned int n, uint64_t *vals)
{
	uint64_t h[256];

	for (unsigned int i = 0; i < n; i++)
		h[i] = vsw_fdb_prefetch(f, keys[i]);
	vsw_fdb_lookup_hashed(f, keys, h, n, vals);
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

static struct slot *empty_in(struct vsw_fdb_bucket *b)
{
	for (int i = 0; i < SLOTS_PER_BUCKET; i++)
		if (__atomic_load_n(&b->s[i].key, __ATOMIC_RELAXED) ==
		    KEY_EMPTY)
			return &b->s[i];
	return NULL;
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
			struct slot *s = &f->h.b[bs[k]].s[i];
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

static inline bool same_stripe(const struct vsw_fdb *f, uint32_t a, uint32_t b)
{
	return (a & f->lock_mask) == (b & f->lock_mask);
}

/*
 * Give slot @s of bucket @sb (@key's first bucket @b1 or second @b2, both
 * stripes locked) to @key: see "Fair eviction" above.  When the old key
 * lived in its second bucket, its first one's overflow count drops, under
 * that bucket's stripe too: a try-lock, false when it is taken.
 */
static bool replace_locked(struct vsw_fdb *f, struct slot *s, uint32_t sb,
			   uint32_t b1, uint32_t b2, uint64_t key, uint64_t val)
{
	uint64_t ok = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
	uint64_t old = __atomic_load_n(&s->val, __ATOMIC_RELAXED);
	uint32_t oh = home_of(f, ok);
	bool extra =
		oh != sb && !same_stripe(f, oh, b1) && !same_stripe(f, oh, b2);

	if (extra && !trylock(f, oh))
		return false;
	__atomic_store_n(&s->key, KEY_TOMB, __ATOMIC_RELAXED);
	store_val(s, val);
	if (sb != b1)
		ovf_add(&f->h.b[b1], 1); /* before the key can be found */
	__atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
	if (oh != sb)
		ovf_add(&f->h.b[oh], -1);
	if (extra)
		unlock(f, oh);
	pcount_add(f, old, -1);
	pcount_add(f, val, 1);
	return true;
}

/* Count one more entry if the table has room for it (up to @cap). */
static bool count_one(struct vsw_fdb *f, uint32_t cap)
{
	if (__atomic_add_fetch(&f->count, 1, __ATOMIC_RELAXED) <= cap)
		return true;
	__atomic_sub_fetch(&f->count, 1, __ATOMIC_RELAXED);
	return false;
}

/*
 * Take the empty slot @e if the table has room (up to @cap entries); @home
 * is the key's first bucket when @e is in its second, else NULL.
 */
static bool take_empty(struct vsw_fdb *f, struct slot *e,
		       struct vsw_fdb_bucket *home, uint64_t key, uint64_t val,
		       uint32_t cap)
{
	if (e == NULL || !count_one(f, cap))
		return false;
	store_val(e, val);
	if (home != NULL)
		ovf_add(home, 1); /* before the key can be found */
	__atomic_store_n(&e->key, key, __ATOMIC_RELEASE);
	pcount_add(f, val, 1);
	return true;
}

/* The bucket index of slot @s, one of @b1, @b2. */
static inline uint32_t bucket_of(const struct vsw_fdb *f, const struct slot *s,
				 uint32_t b1, uint32_t b2)
{
	return s >= f->h.b[b1].s && s < f->h.b[b1].s + SLOTS_PER_BUCKET ? b1
									: b2;
}

/*
 * Move the key of slot @s (bucket @sb) to the empty slot @t of its other
 * bucket @to (@h: the key's first), then give @s to @key (first bucket
 * @b1).  Every stripe concerned is locked.
 */
static void move_then_take(struct vsw_fdb *f, struct slot *s, uint32_t sb,
			   struct slot *t, uint32_t to, uint32_t h, uint32_t b1,
			   uint64_t key, uint64_t val)
{
	uint64_t k = __atomic_load_n(&s->key, __ATOMIC_RELAXED);

	store_val(t, __atomic_load_n(&s->val, __ATOMIC_RELAXED) & ~OVF_MASK);
	if (to != h)
		ovf_add(&f->h.b[h], 1);
	__atomic_store_n(&t->key, k, __ATOMIC_RELEASE);
	__atomic_store_n(&s->key, KEY_TOMB, __ATOMIC_RELAXED);
	store_val(s, val);
	if (sb != b1)
		ovf_add(&f->h.b[b1], 1);
	__atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
	if (to == h)
		ovf_add(&f->h.b[h], -1);
}

/* kick_locked's search: the first key of bs[0], then bs[1], that can
 * move to its other bucket. */
static bool kick_one(struct vsw_fdb *f, const uint32_t bs[2], uint64_t key,
		     uint64_t val)
{
	const uint32_t b1 = bs[0], b2 = bs[1];

	for (int j = 0; j < 2; j++) {
		for (int i = 0; i < SLOTS_PER_BUCKET; i++) {
			struct slot *s = &f->h.b[bs[j]].s[i], *t;
			uint64_t k = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
			uint32_t h, o, to;
			bool extra;

			if (!(k & VSW_FDB_KEY_VALID))
				continue;
			buckets_of(f, k, &h, &o);
			to = bs[j] == h ? o : h;
			extra = !same_stripe(f, to, b1) &&
				!same_stripe(f, to, b2);
			if (extra && !trylock(f, to))
				continue;
			t = empty_in(&f->h.b[to]);
			if (t != NULL)
				move_then_take(f, s, bs[j], t, to, h, b1, key,
					       val);
			if (extra)
				unlock(f, to);
			if (t != NULL)
				return true;
		}
	}
	return false;
}

/*
 * Both of @key's buckets are full (stripes locked) and the table has room
 * (counted): move one key of @b1, else of @b2, to its other bucket if
 * that has an empty slot (its stripe try-locked), and put @key in the
 * freed slot.  The moved key is published at its new place before its
 * old slot is replaced in place (as an eviction does), so a reader finds
 * it at one place or the other, or misses in the instant between as it
 * would against an eviction.  No key moves while control scans the
 * table (scan_begin), or a flush could miss a key moved from a bucket it
 * had not reached to one it had passed.  One step of cuckoo hashing: with
 * keys in their first bucket whenever it has room, about 4 new keys in
 * 1,000 find both buckets full at half load (a simulation), and the move
 * makes that rarer than it was with the emptier bucket chosen.
 */
static bool kick_locked(struct vsw_fdb *f, uint32_t b1, uint32_t b2,
			uint64_t key, uint64_t val)
{
	const uint32_t bs[2] = {b1, b2};
	bool moved = false;

	__atomic_add_fetch(&f->moving, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&f->scanning, __ATOMIC_SEQ_CST) == 0)
		moved = kick_one(f, bs, key, val);
	__atomic_sub_fetch(&f->moving, 1, __ATOMIC_RELEASE);
	return moved;
}

/*
 * Called with both stripe locks held; key known absent.  An empty slot
 * while the table has room, in the first bucket whenever it has one (the
 * second is read only when the first is full), else a slot freed by
 * moving a key to its other bucket (kick_locked); else the fair victim;
 * else, for a port that is not the largest, an empty slot up to 1/8 above
 * the size (control trims it back): a flooding port can never keep
 * another port's MAC out.  Returns 1 learned, 2 learned by eviction,
 * -ENOSPC, -EBUSY (the victim's first bucket's stripe was taken).
 */
static int insert_locked(struct vsw_fdb *f, uint32_t b1, uint32_t b2,
			 uint64_t key, uint64_t val)
{
	uint16_t port = vsw_fdb_val_port(val);
	struct slot *e = empty_in(&f->h.b[b1]), *v;
	struct vsw_fdb_bucket *home = NULL;

	if (e == NULL) {
		e = empty_in(&f->h.b[b2]);
		home = &f->h.b[b1];
	}
	if (take_empty(f, e, home, key, val, f->max))
		return 1;
	if (e == NULL && count_one(f, f->max)) {
		if (kick_locked(f, b1, b2, key, val)) {
			pcount_add(f, val, 1);
			return 1;
		}
		__atomic_sub_fetch(&f->count, 1, __ATOMIC_RELAXED);
	}
	if (val & VSW_FDB_VAL_STATIC)
		return -ENOSPC;
	v = victim_in(f, b1, b2, port);
	if (v != NULL)
		return replace_locked(f, v, bucket_of(f, v, b1, b2), b1, b2,
				      key, val)
			       ? 2
			       : -EBUSY;
	if (vsw_fdb_port_count(f, port) < largest_count(f) &&
	    take_empty(f, e, home, key, val, f->max + f->max / 8))
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
	if (find(f, key, b1, b2))
		rc = 0; /* theirs: counted by their owner, not twice */
	else
		rc = insert_locked(f, b1, b2, key, val);
	unlock_pair(f, b1, b2);
	if (rc == -ENOSPC) {
		ws->refused++;
		return rc;
	}
	if (rc == -EBUSY) {
		ws->busy++;
		return rc;
	}
	if (rc == 2)
		ws->evicted++;
	if (rc > 0)
		ws->learned++;
	return rc > 0 ? 1 : 0;
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
	*old = __atomic_load_n(&s->val, __ATOMIC_RELAXED) & ~OVF_MASK;
	store_val(s, nv);
	pcount_add(f, *old, -1);
	pcount_add(f, nv, 1);
	unlock(f, b);
	return 0;
}

/* learn_at's rest, out of line: a new key, a move, a refresh (@s: the
 * key's slot, or NULL). */
static __attribute__((noinline)) int
learn_slow(struct vsw_fdb *f, uint64_t key, struct slot *s, uint32_t b1,
	   uint32_t b2, uint16_t owner, uint32_t now, struct vsw_fdb_wstats *ws)
{
	uint16_t port = vsw_fdb_val_port(owner);
	uint64_t old, nv;
	uint32_t lim;

	if (s == NULL)
		return learn_new(f, key, vsw_fdb_val(owner, now, false), b1, b2,
				 ws);
	old = read_val(s, key);
	if (old == 0 || (old & VSW_FDB_VAL_STATIC))
		return 0;
	lim = port < VSW_FDB_PORTS
		      ? __atomic_load_n(&f->limit[port], __ATOMIC_RELAXED)
		      : 0;
	if (vsw_fdb_val_port(old) != port && lim != 0 &&
	    vsw_fdb_port_count(f, port) >= lim) {
		ws->limited++;
		return -EDQUOT;
	}
	nv = vsw_fdb_val(owner, now, false);
	if (rewrite(f, s, bucket_of(f, s, b1, b2), key, nv, &old) < 0) {
		ws->busy++;
		return -EBUSY;
	}
	if (vsw_fdb_val_owner(old) != owner) {
		ws->moved++;
		return 2;
	}
	return 0;
}

/*
 * Learn with the key's buckets already computed (and maybe prefetched);
 * @owner: the port, and the endpoint behind it (vsw_fdb_owner).  Inlined
 * into the bulk loops for the common case, a known key seen again from
 * the same owner within refresh_s: one line read, no store, no dirty line,
 * no call (at 1M source MACs every frame is a different key, so the call
 * and its register saves were a cost per frame).  Everything else goes to
 * learn_slow.
 */
static inline __attribute__((always_inline)) int
learn_at(struct vsw_fdb *f, uint64_t key, uint32_t b1, uint32_t b2,
	 uint16_t owner, uint32_t now, struct vsw_fdb_wstats *ws)
{
	struct slot *s = find(f, key, b1, b2);
	uint64_t old;

	if (__builtin_expect(s != NULL, 1)) {
		old = read_val(s, key);
		if (__builtin_expect(
			    old != 0 && !(old & VSW_FDB_VAL_STATIC) &&
				    vsw_fdb_val_owner(old) == owner &&
				    now - vsw_fdb_val_time(old) <
					    __atomic_load_n(&f->refresh_s,
							    __ATOMIC_RELAXED),
			    1))
			return 0;
	}
	return learn_slow(f, key, s, b1, b2, owner, now, ws);
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
	uint64_t h[256];

	for (unsigned int i = 0; i < n; i++)
		h[i] = vsw_fdb_prefetch(f, keys[i]); /* the second: rarely */
	vsw_fdb_learn_hashed(f, keys, h, n, port, now, ws);
}

void vsw_fdb_learn_hashed(struct vsw_fdb *f, const uint64_t *keys,
			  const uint64_t *hashes, unsigned int n, uint16_t port,
			  uint32_t now, struct vsw_fdb_wstats *ws)
{
	for (unsigned int i = 0; i < n; i++) {
		uint32_t b1, b2;

		buckets_of_hash(f, hashes[i], &b1, &b2);
		learn_at(f, keys[i], b1, b2, port, now, ws);
	}
}

void vsw_fdb_learn_owners(struct vsw_fdb *f, const uint64_t *keys,
			  const uint64_t *hashes, const uint16_t *owners,
			  unsigned int n, uint32_t now,
			  struct vsw_fdb_wstats *ws)
{
	for (unsigned int i = 0; i < n; i++) {
		uint32_t b1, b2;

		buckets_of_hash(f, hashes[i], &b1, &b2);
		learn_at(f, keys[i], b1, b2, owners[i], now, ws);
	}
}

void vsw_fdb_lookup_hashed(const struct vsw_fdb *f, const uint64_t *keys,
			   const uint64_t *hashes, unsigned int n,
			   uint64_t *vals)
{
	for (unsigned int i = 0; i < n; i++) {
		uint32_t b1, b2;
		struct slot *s;

		buckets_of_hash(f, hashes[i], &b1, &b2);
		s = find(f, keys[i], b1, b2);
		vals[i] = s != NULL ? read_val(s, keys[i]) : 0;
	}
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
	s = find(f, key, b1, b2);
	if (s != NULL) {
		pcount_add(f, __atomic_load_n(&s->val, __ATOMIC_RELAXED), -1);
		store_val(s, val);
		pcount_add(f, val, 1);
	} else {
		rc = insert_locked(f, b1, b2, key, val);
	}
	unlock_pair(f, b1, b2);
	return rc < 0 ? rc : 0;
}
