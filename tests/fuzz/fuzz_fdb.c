/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for the FDB (switch/datapath/fdb.c, fdb_maint.c): the
 * input is a program run on a small table, single-threaded.
 *
 * Byte 0 sizes the table (16..79 entries, so that buckets fill, keys
 * overflow to their second bucket, move between buckets and get
 * evicted); then each pair of bytes is one operation: the first byte's
 * low 3 bits pick it (learn, learn a burst, delete, add a static entry,
 * age, flush, trim, a port limit), its high bits a port, the second byte
 * a key among 192 (96 MACs in 2 VLANs) or a count.  After every operation:
 * vsw_fdb_audit finds no key twice, none outside its two buckets, every
 * overflow count exact, and as many entries as the table counts; a walk
 * finds each port's count; a key just learned or added is found with its
 * port, a refused one is not; every static entry the program added and
 * did not remove is still there.
 */
#include <errno.h>

#include "datapath/fdb.h"
#include "fuzz.h"

#define NKEYS 192
#define NPORTS 8

static uint64_t key_of(uint8_t b)
{
	uint8_t mac[6] = {0x02, 0, 0, 0, 0, (uint8_t)(b % (NKEYS / 2))};

	return vsw_fdb_key(mac, (uint16_t)(b % NKEYS >= NKEYS / 2 ? 7 : 0));
}

struct walked {
	uint32_t n, per_port[VSW_FDB_PORTS];
};

static void count_walk(uint64_t key, uint64_t val, uint64_t pos, void *arg)
{
	struct walked *w = arg;

	(void)key;
	(void)pos;
	w->n++;
	if (!(val & VSW_FDB_VAL_STATIC) && vsw_fdb_val_port(val) < NPORTS)
		w->per_port[vsw_fdb_val_port(val)]++;
}

/* The table against its own counters and the static entries of @st. */
static void check(const struct vsw_fdb *f, const int16_t *st)
{
	struct vsw_fdb_audit a;
	struct walked w = {0};
	uint64_t pos = 0, v;

	FUZZ_CHECK(vsw_fdb_audit(f, &a) == 0);
	FUZZ_CHECK(a.entries == vsw_fdb_count(f));
	FUZZ_CHECK(vsw_fdb_count(f) <= vsw_fdb_max(f) + vsw_fdb_max(f) / 8);
	vsw_fdb_walk(f, &pos, UINT32_MAX, count_walk, &w);
	FUZZ_CHECK(w.n == a.entries);
	for (uint16_t p = 0; p < NPORTS; p++)
		FUZZ_CHECK(w.per_port[p] == vsw_fdb_port_count(f, p));
	for (int k = 0; k < NKEYS; k++)
		if (st[k] >= 0)
			FUZZ_CHECK(vsw_fdb_lookup(f, key_of((uint8_t)k), &v) &&
				   (v & VSW_FDB_VAL_STATIC) &&
				   vsw_fdb_val_port(v) == st[k]);
}

/* A learn's result against a lookup right after it. */
static void check_learned(const struct vsw_fdb *f, uint64_t key, uint16_t port,
			  int rc, bool is_static)
{
	uint64_t v;
	bool hit = vsw_fdb_lookup(f, key, &v);

	if (rc == 1 || rc == 2)
		FUZZ_CHECK(hit && vsw_fdb_val_port(v) == port && !is_static);
	else if (rc == -ENOSPC) /* a new key refused */
		FUZZ_CHECK(!hit);
	else if (rc == -EDQUOT) /* new, or a move refused */
		FUZZ_CHECK(!hit || vsw_fdb_val_port(v) != port);
	else if (is_static)
		FUZZ_CHECK(rc == 0);
}

static void learn_burst(struct vsw_fdb *f, uint8_t first, uint16_t port,
			uint32_t now, struct vsw_fdb_wstats *ws)
{
	uint64_t keys[8], h[8];
	unsigned int n = 1 + first % 8;

	for (unsigned int i = 0; i < n; i++) {
		keys[i] = key_of((uint8_t)(first + 37 * i));
		h[i] = vsw_fdb_prefetch(f, keys[i]);
	}
	if (first & 1)
		vsw_fdb_learn_bulk(f, keys, n, port, now, ws);
	else
		vsw_fdb_learn_hashed(f, keys, h, n, port, now, ws);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vsw_fdb_params p = {.seed = 11};
	struct vsw_fdb_wstats ws = {0};
	int16_t st[NKEYS]; /* static entries: port, or -1 */
	struct vsw_fdb *f;
	uint32_t now = 1;

	if (size < 1)
		return 0;
	p.max_entries = 16u + data[0] % 64u;
	f = vsw_fdb_create(&p);
	FUZZ_CHECK(f != NULL);
	memset(st, 0xff, sizeof(st));
	for (size_t i = 1; i + 1 < size; i += 2) {
		uint8_t op = data[i] & 7, b = data[i + 1], k = b % NKEYS;
		uint16_t port = (uint16_t)(data[i] >> 3) % NPORTS;
		uint64_t key = key_of(b);
		int rc;

		switch (op) {
		case 0:
		case 1:
			rc = vsw_fdb_learn(f, key, port, now, &ws);
			check_learned(f, key, port, rc, st[k] >= 0);
			break;
		case 2:
			learn_burst(f, b, port, now, &ws);
			break;
		case 3:
			rc = vsw_fdb_del(f, key);
			FUZZ_CHECK(rc == 0 || rc == -ENOENT);
			st[k] = -1;
			break;
		case 4:
			if (vsw_fdb_add_static(f, key, port, now) == 0)
				st[k] = (int16_t)port;
			else if (st[k] >= 0) /* an existing one is replaced */
				FUZZ_CHECK(0);
			break;
		case 5:
			now += b % 16;
			vsw_fdb_age(f, now, 1 + b % 8);
			break;
		case 6:
			vsw_fdb_flush(f, b & 1 ? VSW_FDB_PORT_NONE : port,
				      b & 2);
			for (int j = 0; j < NKEYS && (b & 2); j++)
				if (b & 1 || st[j] == port)
					st[j] = -1;
			break;
		default:
			vsw_fdb_set_port_limit(f, port,
					       b % 4 == 0 ? 0 : b % 32);
			vsw_fdb_trim(f, now);
			break;
		}
		check(f, st);
	}
	vsw_fdb_destroy(f);
	return 0;
}
