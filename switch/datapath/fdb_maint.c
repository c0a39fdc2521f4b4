/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FDB control side: delete, age, flush, trim and walk.  Control thread
 * only; every removal retires keys to a tombstone, waits for the grace
 * period (the sync callback), then frees the slots (see fdb.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "fdb_priv.h"

/* Lock the stripes of buckets @a and @b (in order, once if shared). */
static void lock2(struct vsw_fdb *f, uint32_t a, uint32_t b)
{
	uint32_t la = a & f->lock_mask, lb = b & f->lock_mask;

	lock(f, la < lb ? la : lb);
	if (la != lb)
		lock(f, la < lb ? lb : la);
}

static void unlock2(struct vsw_fdb *f, uint32_t a, uint32_t b)
{
	unlock(f, a);
	if ((a & f->lock_mask) != (b & f->lock_mask))
		unlock(f, b);
}

/*
 * Retire slot @s of bucket @b if it still holds a valid key and @match
 * (NULL: any) says so: tombstone now, free after a grace period (reclaim).
 * A key that lived in its second bucket leaves its first one's overflow
 * count, so that stripe is locked too.  Control thread; takes the stripe
 * locks, which learners hold briefly.
 */
typedef bool (*match_fn)(uint64_t val, const void *arg);

static bool retire(struct vsw_fdb *f, uint32_t b, struct slot *s, uint64_t key,
		   match_fn match, const void *arg)
{
	uint64_t k, val;
	uint32_t home;
	bool done = false;

	for (;;) { /* the key's first bucket, then lock and check it holds */
		k = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
		if (!(k & VSW_FDB_KEY_VALID) || (key != 0 && k != key))
			return false;
		home = home_of(f, k);
		lock2(f, b, home);
		if (__atomic_load_n(&s->key, __ATOMIC_RELAXED) == k)
			break;
		unlock2(f, b, home);
	}
	val = __atomic_load_n(&s->val, __ATOMIC_RELAXED);
	if (match == NULL || match(val, arg)) {
		__atomic_store_n(&s->key, KEY_TOMB, __ATOMIC_RELEASE);
		if (home != b)
			ovf_add(&f->h.b[home], -1);
		__atomic_sub_fetch(&f->count, 1, __ATOMIC_RELAXED);
		pcount_add(f, val, -1);
		done = true;
	}
	unlock2(f, b, home);
	return done;
}

/* After a grace period, tombstones become free slots. */
static void reclaim(struct vsw_fdb *f)
{
	if (f->p.sync != NULL)
		f->p.sync(f->p.sync_arg);
	for (uint32_t b = 0; b <= f->h.mask; b++) {
		bool tomb = false;

		for (int i = 0; i < SLOTS_PER_BUCKET; i++)
			tomb |= __atomic_load_n(&f->h.b[b].s[i].key,
						__ATOMIC_RELAXED) == KEY_TOMB;
		if (!tomb)
			continue;
		/* under the lock: a replace in flight shows a tombstone too */
		lock(f, b);
		for (int i = 0; i < SLOTS_PER_BUCKET; i++)
			if (f->h.b[b].s[i].key == KEY_TOMB)
				__atomic_store_n(&f->h.b[b].s[i].key, KEY_EMPTY,
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
	scan_begin(f);
	for (int i = 0; i < SLOTS_PER_BUCKET && !done; i++) {
		done = retire(f, b1, &f->h.b[b1].s[i], key, NULL, NULL);
		if (!done)
			done = retire(f, b2, &f->h.b[b2].s[i], key, NULL, NULL);
	}
	scan_end(f);
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

	scan_begin(f);
	for (uint32_t b = 0; b <= f->h.mask; b++) {
		for (int i = 0; i < SLOTS_PER_BUCKET; i++) {
			struct slot *s = &f->h.b[b].s[i];
			uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);

			if (!(k & VSW_FDB_KEY_VALID))
				continue;
			if (match(__atomic_load_n(&s->val, __ATOMIC_RELAXED),
				  arg) &&
			    retire(f, b, s, k, match, arg))
				n++;
		}
	}
	scan_end(f);
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

static bool is_owner(uint64_t val, const void *arg)
{
	return !(val & VSW_FDB_VAL_STATIC) &&
	       vsw_fdb_val_owner(val) == *(const uint16_t *)arg;
}

unsigned int vsw_fdb_flush_owner(struct vsw_fdb *f, uint16_t owner)
{
	unsigned int n = remove_matching(f, is_owner, &owner);

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

	for (uint32_t b = 0; b <= f->h.mask; b++)
		for (int i = 0; i < SLOTS_PER_BUCKET; i++) {
			const struct slot *s = &f->h.b[b].s[i];
			uint64_t k = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
			uint64_t v = __atomic_load_n(&s->val, __ATOMIC_RELAXED);

			if ((k & VSW_FDB_KEY_VALID) && is_old_of_port(v, &a))
				hist[age_class(now, v)]++;
		}
	for (a.min_class = 33; a.min_class > 0 && cum < need;)
		cum += hist[--a.min_class];
	/* everything older than the threshold class, then from that class */
	scan_begin(f);
	for (int pass = 0; pass < 2; pass++) {
		struct evict_arg p = a;

		p.min_class = a.min_class + (pass == 0 ? 1 : 0);
		for (uint32_t b = 0; b <= f->h.mask && n < need; b++)
			for (int i = 0; i < SLOTS_PER_BUCKET && n < need; i++)
				n += retire(f, b, &f->h.b[b].s[i], 0,
					    is_old_of_port, &p);
	}
	scan_end(f);
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

unsigned int vsw_fdb_walk(const struct vsw_fdb *f, uint64_t *pos,
			  unsigned int max, vsw_fdb_walk_fn fn, void *arg)
{
	uint64_t end = ((uint64_t)f->h.mask + 1) * SLOTS_PER_BUCKET, p;
	unsigned int n = 0;

	for (p = *pos; p < end && n < max; p++) {
		const struct slot *s =
			&f->h.b[p / SLOTS_PER_BUCKET].s[p % SLOTS_PER_BUCKET];
		uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE), v;

		if (!(k & VSW_FDB_KEY_VALID))
			continue;
		v = read_val(s, k);
		if (v == 0)
			continue; /* replaced under us */
		fn(k, v, p, arg);
		n++;
	}
	*pos = p < end ? p : 0;
	return n;
}

/* @key's slot count over both its buckets. */
static unsigned int copies(const struct vsw_fdb *f, uint64_t key)
{
	unsigned int n = 0;
	uint32_t b1, b2;

	buckets_of(f, key, &b1, &b2);
	for (int i = 0; i < SLOTS_PER_BUCKET; i++)
		n += (f->h.b[b1].s[i].key == key) +
		     (f->h.b[b2].s[i].key == key);
	return n;
}

unsigned int vsw_fdb_audit(const struct vsw_fdb *f, struct vsw_fdb_audit *a)
{
	uint32_t *ovf = calloc((size_t)f->h.mask + 1, sizeof(*ovf));

	*a = (struct vsw_fdb_audit){0};
	if (ovf == NULL)
		return 1;
	for (uint32_t b = 0; b <= f->h.mask; b++)
		for (int i = 0; i < SLOTS_PER_BUCKET; i++) {
			uint64_t k = f->h.b[b].s[i].key;
			uint32_t b1, b2;

			if (!(k & VSW_FDB_KEY_VALID))
				continue;
			a->entries++;
			buckets_of(f, k, &b1, &b2);
			if (b != b1 && b != b2)
				a->foreign++;
			else if (b == b2)
				a->second++, ovf[b1]++;
			a->twice += copies(f, k) > 1;
		}
	for (uint32_t b = 0; b <= f->h.mask; b++) /* (OVF_MAX stays) */
		a->ovf_bad += ovf_of(&f->h.b[b]) != ovf[b] &&
			      ovf_of(&f->h.b[b]) != OVF_MAX;
	free(ovf);
	return a->foreign + a->twice + a->ovf_bad;
}
