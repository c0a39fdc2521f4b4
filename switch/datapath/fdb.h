/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarding database: MAC + VLAN -> port, learned from traffic.
 *
 * Plain C (no EAL) so that it is unit-tested alone.  Workers look up and
 * learn concurrently without locks on the common path; the control thread
 * ages, flushes and deletes.  Slots freed by the control thread are reused
 * only after a grace period, which the caller supplies as a callback (vsw
 * passes an RCU QSBR synchronize), so a lock-free reader never sees a slot
 * change owner under it.
 *
 * Against a guest that floods source MACs (test 23_mac_flood): buckets are chosen
 * with a hash keyed by a random secret, so nobody can aim MACs at a
 * victim's buckets; each port's learned entries are counted and can be
 * capped (a port at its limit learns no new MAC, counted as `limited`);
 * and when the table or a key's two buckets are full, a new MAC evicts an
 * entry of the port that holds the most, and only if that port holds more
 * than the learner (or is the learner): a flooding port evicts only its
 * own entries.  A lookup that races such an eviction misses (and floods),
 * it never returns the other key's port.
 */
#ifndef VSW_FDB_H
#define VSW_FDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VSW_FDB_PORT_NONE 0xffffu
#define VSW_FDB_KEY_VALID (1ull << 63)
#define VSW_FDB_MAC_MASK ((1ull << 48) - 1) /* the MAC bits of a key */

/* Key: valid bit, VLAN id (12 bits) in 48..59, MAC (network order) 0..47. */
static inline uint64_t vsw_fdb_key(const uint8_t mac[6], uint16_t vlan)
{
	return VSW_FDB_KEY_VALID | ((uint64_t)(vlan & 0xfff) << 48) |
	       ((uint64_t)mac[0] << 40) | ((uint64_t)mac[1] << 32) |
	       ((uint64_t)mac[2] << 24) | ((uint64_t)mac[3] << 16) |
	       ((uint64_t)mac[4] << 8) | (uint64_t)mac[5];
}

static inline uint16_t vsw_fdb_key_vlan(uint64_t key)
{
	return (uint16_t)((key >> 48) & 0xfff);
}

static inline void vsw_fdb_key_mac(uint64_t key, uint8_t mac[6])
{
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)(key >> (40 - 8 * i));
}

/* Ports whose entries are counted and can be limited (vsw's port ids). */
#define VSW_FDB_PORTS 64

/*
 * Value: the owner in 0..15 (the port in 0..7, and in 8..15 the endpoint
 * behind it: 0 none, else a port with endpoints' index + 1, vxlan: the
 * remote VTEP), static flag bit 16, last-seen seconds 32..63.  The learn
 * and add functions take an owner where they say "port": a plain port id
 * is an owner without endpoint.
 */
#define VSW_FDB_VAL_STATIC (1ull << 16)
#define VSW_FDB_EP_SHIFT 8
#define VSW_FDB_EP_MAX 255
static inline uint16_t vsw_fdb_val_port(uint64_t v)
{
	return (uint16_t)(v & 0xff);
}
static inline uint16_t vsw_fdb_val_owner(uint64_t v)
{
	return (uint16_t)(v & 0xffff);
}
static inline uint8_t vsw_fdb_val_ep(uint64_t v)
{
	return (uint8_t)(v >> VSW_FDB_EP_SHIFT);
}
static inline uint16_t vsw_fdb_owner(uint16_t port, uint8_t ep)
{
	return (uint16_t)(port | (uint16_t)ep << VSW_FDB_EP_SHIFT);
}
static inline uint32_t vsw_fdb_val_time(uint64_t v)
{
	return (uint32_t)(v >> 32);
}
static inline uint64_t vsw_fdb_val(uint16_t port, uint32_t now, bool is_static)
{
	return ((uint64_t)now << 32) | (is_static ? VSW_FDB_VAL_STATIC : 0) |
	       port;
}

/* Per-writer learning counters: each worker owns one, readers sum. */
struct vsw_fdb_wstats {
	uint64_t learned; /* new entries */
	uint64_t moved;	  /* entries whose port changed */
	uint64_t refused; /* new MACs not learned: table or buckets full */
	uint64_t busy;	  /* learning skipped: lost a race for a bucket */
	uint64_t limited; /* new MACs not learned: the port is at its limit */
	uint64_t evicted; /* entries replaced by a new MAC (fair eviction) */
};

/* Control-side counters (written by the control thread only). */
struct vsw_fdb_cstats {
	uint64_t aged;
	uint64_t flushed;
	uint64_t deleted;
	uint64_t trimmed; /* evicted by control to get back under a limit */
};

/* Waits until no reader can still hold a pointer into the table. */
typedef void (*vsw_fdb_sync_fn)(void *arg);
/* Allocation of the (large, cache-aligned) slot array. */
typedef void *(*vsw_fdb_alloc_fn)(size_t size, void *arg);
typedef void (*vsw_fdb_free_fn)(void *ptr, void *arg);

struct vsw_fdb_params {
	uint32_t max_entries; /* size limit (>= 16) */
	vsw_fdb_sync_fn sync; /* NULL: single-threaded use (tests) */
	void *sync_arg;
	vsw_fdb_alloc_fn alloc; /* NULL: aligned_alloc */
	vsw_fdb_free_fn free;
	void *alloc_arg;
	uint64_t seed; /* hash secret; 0: a random one (getrandom) */
};

struct vsw_fdb;

/* Create a table; returns NULL with errno set (EINVAL, ENOMEM). */
struct vsw_fdb *vsw_fdb_create(const struct vsw_fdb_params *p);
void vsw_fdb_destroy(struct vsw_fdb *fdb);

/*
 * Rewrite an entry's last-seen time at most every @refresh_s seconds (>= 1;
 * default 1): fewer stores to a large table, at the cost of aging an idle
 * entry up to @refresh_s - 1 seconds early. Control thread.
 */
void vsw_fdb_set_refresh(struct vsw_fdb *fdb, uint32_t refresh_s);

/*
 * Cap the dynamic entries learned on @port (< VSW_FDB_PORTS) at @limit (0:
 * none).  Entries above a lowered limit stay until vsw_fdb_trim.  Control.
 */
void vsw_fdb_set_port_limit(struct vsw_fdb *fdb, uint16_t port, uint32_t limit);

/* Dynamic entries of @port now. Any thread. */
uint32_t vsw_fdb_port_count(const struct vsw_fdb *fdb, uint16_t port);

/*
 * Bring the table back under its limits: a port above its own limit loses
 * its oldest entries; a table above its size (a learner may overshoot by
 * up to 1/8 when eviction in its buckets found no victim) loses the
 * oldest entries of the port holding the most.  Control thread; waits a
 * grace period when it removed any.  Returns the number removed.
 */
unsigned int vsw_fdb_trim(struct vsw_fdb *fdb, uint32_t now);

/* Entries in the table now, and the limit. Any thread. */
uint32_t vsw_fdb_count(const struct vsw_fdb *fdb);
/* Static entries in the table (fdb-add's limit without a walk). */
uint32_t vsw_fdb_static_count(const struct vsw_fdb *fdb);
uint32_t vsw_fdb_max(const struct vsw_fdb *fdb);

/*
 * Look up one key.  Returns true and the value in *val when found.
 * Any thread, lock-free; called inside a worker's RCU read side.
 */
bool vsw_fdb_lookup(const struct vsw_fdb *fdb, uint64_t key, uint64_t *val);

/*
 * Look up @n keys (n <= 256).  vals[i] = value or 0 when not found (a
 * valid value is never 0 since time starts at 1).  Prefetches every
 * bucket first, then probes: the per-burst form for the worker.
 */
void vsw_fdb_lookup_bulk(const struct vsw_fdb *fdb, const uint64_t *keys,
			 unsigned int n, uint64_t *vals);

/*
 * Learn that @key was seen on @port at time @now (seconds, >= 1).
 * Worker context, lock-free when the entry exists and is current (no store
 * at all when port and second are unchanged); a new entry takes two bucket
 * try-locks and gives up (counted as busy) rather than wait.  A static
 * entry is never changed.  Returns 1 learned, 2 moved, 0 nothing to do or
 * refreshed, -ENOSPC refused (full), -EDQUOT refused (the port is at its
 * limit), -EBUSY lost a race.
 */
int vsw_fdb_learn(struct vsw_fdb *fdb, uint64_t key, uint16_t port,
		  uint32_t now, struct vsw_fdb_wstats *ws);

/*
 * Learn @n keys (n <= 256) seen on @port: the per-burst form.  Computes and
 * prefetches every key's buckets first, so that the cache misses of a
 * large table overlap.  Same rules and counters as vsw_fdb_learn.
 */
void vsw_fdb_learn_bulk(struct vsw_fdb *fdb, const uint64_t *keys,
			unsigned int n, uint16_t port, uint32_t now,
			struct vsw_fdb_wstats *ws);

/*
 * The worker's split form of the two above: vsw_fdb_prefetch hashes @key
 * and starts loading its first bucket as soon as a frame's address is
 * known, so that the miss of a large table overlaps the rest of the
 * burst's parsing; it returns the hash, which vsw_fdb_learn_hashed and
 * vsw_fdb_lookup_hashed take beside the keys (n <= 256) instead of
 * hashing again.  Same rules, results and counters as the bulk forms.
 */
static inline uint64_t vsw_fdb_prefetch(const struct vsw_fdb *fdb,
					uint64_t key);
void vsw_fdb_learn_hashed(struct vsw_fdb *fdb, const uint64_t *keys,
			  const uint64_t *hashes, unsigned int n, uint16_t port,
			  uint32_t now, struct vsw_fdb_wstats *ws);
/* The same with an owner per key (a port with endpoints: each frame's
 * own, vsw_fdb_owner); a new owner for a key counts as a move. */
void vsw_fdb_learn_owners(struct vsw_fdb *fdb, const uint64_t *keys,
			  const uint64_t *hashes, const uint16_t *owners,
			  unsigned int n, uint32_t now,
			  struct vsw_fdb_wstats *ws);
void vsw_fdb_lookup_hashed(const struct vsw_fdb *fdb, const uint64_t *keys,
			   const uint64_t *hashes, unsigned int n,
			   uint64_t *vals);

/* Add or replace a static entry (control thread). 0 or -ENOSPC. */
int vsw_fdb_add_static(struct vsw_fdb *fdb, uint64_t key, uint16_t port,
		       uint32_t now);

/* Delete one entry (control thread). 0 or -ENOENT. Waits a grace period. */
int vsw_fdb_del(struct vsw_fdb *fdb, uint64_t key);

/*
 * Remove entries older than @aging_s at @now (static ones never age).
 * Control thread.  Returns the number removed; waits one grace period
 * when it removed any.
 */
unsigned int vsw_fdb_age(struct vsw_fdb *fdb, uint32_t now, uint32_t aging_s);

/*
 * Remove the dynamic entries of @port (VSW_FDB_PORT_NONE: of every port;
 * @with_static: static ones too).  Control thread.  Returns the count.
 */
unsigned int vsw_fdb_flush(struct vsw_fdb *fdb, uint16_t port,
			   bool with_static);
/* Remove the dynamic entries learned behind @owner (a port and an
 * endpoint: vsw_fdb_owner).  Control thread.  Returns the count. */
unsigned int vsw_fdb_flush_owner(struct vsw_fdb *fdb, uint16_t owner);

/*
 * Visit entries in table order from position *@pos (0: the start),
 * stopping after @max visits; *@pos is then where the next walk goes on,
 * 0 once the table's end was reached.  A position is a slot of the table
 * (bucket * slots + slot), so a page costs its own entries, not a walk
 * from the start.  Returns the number visited.  @fn gets each entry's
 * position.  Any thread; a concurrent change may be missed or seen twice.
 */
typedef void (*vsw_fdb_walk_fn)(uint64_t key, uint64_t val, uint64_t pos,
				void *arg);
unsigned int vsw_fdb_walk(const struct vsw_fdb *fdb, uint64_t *pos,
			  unsigned int max, vsw_fdb_walk_fn fn, void *arg);

const struct vsw_fdb_cstats *vsw_fdb_cstats(const struct vsw_fdb *fdb);

/* What vsw_fdb_audit found. */
struct vsw_fdb_audit {
	uint32_t entries; /* valid keys */
	uint32_t second;  /* of them, in their second bucket */
	uint32_t foreign; /* keys in neither of their buckets (must be 0) */
	uint32_t twice;	  /* keys held by two slots (must be 0) */
	uint32_t ovf_bad; /* buckets whose overflow count is wrong (0) */
};

/*
 * Check the table's invariants (each key once, in one of its two buckets;
 * every bucket's count of keys that overflowed from it exact) and count
 * where the keys are.  Walks the whole table and hashes every key: tests
 * and control, with no writer running.  Returns the number of problems.
 */
unsigned int vsw_fdb_audit(const struct vsw_fdb *fdb, struct vsw_fdb_audit *a);

/*
 * What vsw_fdb_prefetch reads of a table: the first member of struct
 * vsw_fdb (fdb_priv.h), so that the worker hashes and prefetches inline
 * (one call per frame at 1M source MACs otherwise).
 */
struct vsw_fdb_bucket; /* fdb_priv.h */
struct vsw_fdb_hot {
	struct vsw_fdb_bucket *b; /* the buckets: 64 bytes each */
	uint32_t mask;		  /* buckets - 1 */
	uint64_t secret[2];	  /* hash key, random per table */
};

/*
 * Keyed hash (not cryptographic): the key is whitened with a random
 * secret before, and mixed with another after, a murmur3-style finalizer,
 * so bucket indexes cannot be computed without the secret.
 */
static inline uint64_t vsw_fdb_hash(const struct vsw_fdb_hot *h, uint64_t x)
{
	x ^= h->secret[0];
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 29;
	x += h->secret[1];
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 32;
	return x;
}

static inline uint64_t vsw_fdb_prefetch(const struct vsw_fdb *fdb, uint64_t key)
{
	/* a pointer to a struct, converted, points to its first member */
	const struct vsw_fdb_hot *h =
		(const struct vsw_fdb_hot *)(const void *)fdb;
	uint64_t x = vsw_fdb_hash(h, key);

	__builtin_prefetch((const char *)h->b +
			   (size_t)((uint32_t)x & h->mask) * 64);
	return x;
}

#endif /* VSW_FDB_H */
