/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FDB internals shared by fdb.c (create, lookup, learn: the fast path)
 * and fdb_maint.c (delete, age, flush, trim, walk: the control side).
 * The design and the memory-ordering rules are written at the top of
 * fdb.c.
 */
#ifndef VSW_FDB_PRIV_H
#define VSW_FDB_PRIV_H

#include "fdb.h"

#define SLOTS_PER_BUCKET 4
#define KEY_EMPTY 0ull
#define KEY_TOMB 1ull /* retired, waiting for a grace period */
#define MAX_LOCKS 4096u

struct slot {
	uint64_t
		key; /* writer: inserting worker / control; release-published */
	uint64_t val; /* writer: a worker or control holding the bucket's
			 stripe lock (atomic store); readers any */
};

/*
 * Slot 0's value word also holds the bucket's overflow count in bits
 * 20..31, which a value never uses (vsw_fdb_val): how many keys whose first
 * bucket this is live in their second one.  A key goes to its first bucket
 * whenever that has room, so the count is almost always 0 and a lookup
 * that does not find its key in the first bucket stops there: one cache
 * line.  Written under this bucket's stripe lock, exact; once at
 * OVF_MAX it stays there (a second line read for nothing, never a key
 * missed).  Every writer of a value keeps these bits (store_val).
 */
#define OVF_SHIFT 20
#define OVF_MAX 0xfffull
#define OVF_MASK (OVF_MAX << OVF_SHIFT)

struct vsw_fdb_bucket {
	struct slot s[SLOTS_PER_BUCKET];
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct vsw_fdb_bucket) == 64,
	       "bucket must be a cache line");

struct vsw_fdb {
	struct vsw_fdb_hot h; /* first: vsw_fdb_prefetch (fdb.h) reads it */
	uint32_t lock_mask;   /* locks - 1 */
	uint32_t max;	      /* entry limit */
	uint32_t count;	      /* atomic: entries in the table */
	uint8_t *locks;	      /* stripe locks, test-and-set bytes */
	uint32_t refresh_s;   /* rewrite a timestamp at most this often */
	struct vsw_fdb_params p;
	struct vsw_fdb_cstats cst; /* control thread only */
	/* dynamic entries per port (atomic; writers: learners, control) */
	uint32_t pcount[VSW_FDB_PORTS];
	uint32_t n_static; /* static entries (atomic; writer: control) */
	/* No key moves between buckets while control scans (fdb.c,
	 * kick_locked): control sets scanning, then waits for moving to
	 * drop to 0; a learner counts itself in moving, then checks
	 * scanning (both sequentially consistent, so one sees the other). */
	uint32_t scanning;	       /* writer: control */
	uint32_t moving;	       /* writers: learners moving a key */
	uint32_t limit[VSW_FDB_PORTS]; /* writer: control; 0 = none */
};

static inline uint64_t keyed_hash(const struct vsw_fdb *f, uint64_t x)
{
	return vsw_fdb_hash(&f->h, x);
}

/* A key's two buckets from its hash (keyed_hash). */
static inline void buckets_of_hash(const struct vsw_fdb *f, uint64_t h,
				   uint32_t *b1, uint32_t *b2)
{
	*b1 = (uint32_t)h & f->h.mask;
	*b2 = (uint32_t)(h >> 32) & f->h.mask;
	if (*b2 == *b1)
		*b2 = *b1 ^ (f->h.mask & 1u);
}

static inline void buckets_of(const struct vsw_fdb *f, uint64_t key,
			      uint32_t *b1, uint32_t *b2)
{
	buckets_of_hash(f, keyed_hash(f, key), b1, b2);
}

/* Every entry that comes or goes passes here: per-port dynamic counts
 * and the static count stay exact. */
static inline void pcount_add(struct vsw_fdb *f, uint64_t val, int32_t d)
{
	uint16_t port = vsw_fdb_val_port(val);

	if (val & VSW_FDB_VAL_STATIC)
		__atomic_add_fetch(&f->n_static, (uint32_t)d, __ATOMIC_RELAXED);
	else if (port < VSW_FDB_PORTS)
		__atomic_add_fetch(&f->pcount[port], (uint32_t)d,
				   __ATOMIC_RELAXED);
}

/* The bucket a key goes to whenever it has room. */
static inline uint32_t home_of(const struct vsw_fdb *f, uint64_t key)
{
	return (uint32_t)keyed_hash(f, key) & f->h.mask;
}

/* The value of @s if it still holds @key after the read, else 0. */
static inline uint64_t read_val(const struct slot *s, uint64_t key)
{
	uint64_t v = __atomic_load_n(&s->val, __ATOMIC_ACQUIRE) & ~OVF_MASK;

	return __atomic_load_n(&s->key, __ATOMIC_RELAXED) == key ? v : 0;
}

/* @b's overflow count (any thread; exact under @b's stripe lock). */
static inline uint32_t ovf_of(const struct vsw_fdb_bucket *b)
{
	return (uint32_t)(__atomic_load_n(&b->s[0].val, __ATOMIC_ACQUIRE) >>
			  OVF_SHIFT) &
	       OVF_MAX;
}

/*
 * Store value @v in @s, keeping the overflow count of a slot 0 (the
 * caller holds the stripe lock of @s's bucket).  Release: a reader that
 * sees @v sees what was written before.
 */
static inline void store_val(struct slot *s, uint64_t v)
{
	uint64_t keep = __atomic_load_n(&s->val, __ATOMIC_RELAXED) & OVF_MASK;

	__atomic_store_n(&s->val, v | keep, __ATOMIC_RELEASE);
}

/* Add @d (+1, -1) to @b's overflow count; @b's stripe locked.  A count
 * at OVF_MAX stays. */
static inline void ovf_add(struct vsw_fdb_bucket *b, int d)
{
	uint64_t v = __atomic_load_n(&b->s[0].val, __ATOMIC_RELAXED);
	uint64_t c = (v >> OVF_SHIFT) & OVF_MAX;

	if (c == OVF_MAX || (d < 0 && c == 0))
		return;
	c = d > 0 ? c + 1 : c - 1;
	__atomic_store_n(&b->s[0].val, (v & ~OVF_MASK) | c << OVF_SHIFT,
			 __ATOMIC_RELEASE);
}

/* Control: from here to scan_end, no key changes bucket. */
static inline void scan_begin(struct vsw_fdb *f)
{
	__atomic_store_n(&f->scanning, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&f->moving, __ATOMIC_SEQ_CST) != 0)
		; /* a move in flight: a few stores under its stripe locks */
}

static inline void scan_end(struct vsw_fdb *f)
{
	__atomic_store_n(&f->scanning, 0, __ATOMIC_RELEASE);
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

#endif /* VSW_FDB_PRIV_H */
