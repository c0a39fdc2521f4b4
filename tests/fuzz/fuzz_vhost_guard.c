/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for the vhost-user firewall's rules
 * (port/vhost_guard_rules.c): the input is a sequence of messages, each
 * with the facts the guard gathers about its fds and with the features
 * the library negotiated, run through one connection's state.
 *
 * Beside it runs a model of what librte_vhost 22.11 holds after each
 * message the rules let through: a ring's size is the last SET_VRING_NUM
 * it took, its base the last SET_VRING_BASE, its layout (split or packed)
 * the features of the moment, and a ring runs from the ADDR or KICK that
 * started it to the GET_VRING_BASE that stops it.  Invariants, after
 * every message:
 *   - a running ring's size is 32..4096 (a power of two when split), it
 *     runs with the layout its size was set under, and a packed ring's
 *     base lies inside it: nothing the datapath indexes is outside what
 *     the library validated;
 *   - no size or base reaches a running ring;
 *   - a memory region or dirty log taken lies inside a regular,
 *     read-write file on tmpfs or hugetlbfs, without wrapping; region
 *     and fd counts agree;
 *   - no ring index of 64 or more, no RESET_OWNER or inflight message;
 *   - a refused message leaves the rules' state as it was, and the same
 *     message on the same state gets the same verdict.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "port/vhost_guard_rules.h"

#define RINGS VSW_GUARD_MAX_RINGS
#define RTE_DIM_(a) (sizeof(a) / sizeof((a)[0]))
#define PACKED (1ull << VSW_GUARD_F_RING_PACKED)

struct input {
	const uint8_t *d;
	size_t n, off;
};

static uint64_t take(struct input *in, unsigned int bytes)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < bytes; i++)
		v = v << 8 | (in->off < in->n ? in->d[in->off++] : 0);
	return v;
}

/* What the library holds (see the header). */
static struct model {
	uint64_t features;
	bool running[RINGS], sized_packed[RINGS];
	uint32_t size[RINGS], base[RINGS];
} lib;

static const uint32_t reqs[] = {
	VSW_REQ_SET_FEATURES,
	VSW_REQ_RESET_OWNER,
	VSW_REQ_SET_MEM_TABLE,
	VSW_REQ_SET_LOG_BASE,
	VSW_REQ_SET_VRING_NUM,
	VSW_REQ_SET_VRING_ADDR,
	VSW_REQ_SET_VRING_BASE,
	VSW_REQ_GET_VRING_BASE,
	VSW_REQ_SET_VRING_KICK,
	VSW_REQ_SET_VRING_CALL,
	VSW_REQ_SET_VRING_ERR,
	VSW_REQ_SET_VRING_ENABLE,
	VSW_REQ_GET_INFLIGHT_FD,
	VSW_REQ_SET_INFLIGHT_FD,
	1,
	3,
	15,
	16,
	39,
};

/* Sizes and indexes worth trying more often than random ones. */
static uint32_t pick_num(struct input *in)
{
	static const uint32_t nums[] = {
		0,    1,    31,	  32,	33,	64,	256,	1000,  1024,
		4095, 4096, 4097, 8192, 0x7ff0, 0x8000, 0xfff0, 0x7fff};
	uint8_t k = (uint8_t)take(in, 1);

	return k < 2 * RTE_DIM_(nums) ? nums[k % RTE_DIM_(nums)]
				      : (uint32_t)take(in, 4);
}
static uint32_t pick_ring(struct input *in)
{
	uint8_t k = (uint8_t)take(in, 1);

	return k < 0xf0 ? k % 4 : k == 0xf0 ? 63 : k == 0xf1 ? 64 : k;
}

static void build(struct input *in, struct vsw_guard_msg *m,
		  struct vsw_guard_fd *fds, int *nfds, uint64_t *features)
{
	uint32_t ring;

	memset(m, 0, sizeof(*m));
	m->request = reqs[take(in, 1) % RTE_DIM_(reqs)];
	m->flags = (uint32_t)take(in, 1);
	ring = pick_ring(in);
	switch (m->request) {
	case VSW_REQ_SET_FEATURES:
		m->payload.u64 = take(in, 1) & 1 ? PACKED : 0;
		m->payload.u64 |= take(in, 1) << 15; /* MRG_RXBUF and friends */
		break;
	case VSW_REQ_SET_VRING_ADDR:
		m->payload.addr.index = ring;
		break;
	case VSW_REQ_SET_VRING_KICK:
	case VSW_REQ_SET_VRING_CALL:
	case VSW_REQ_SET_VRING_ERR:
		m->payload.u64 = ring | (take(in, 1) & 1 ? VSW_GUARD_NOFD : 0);
		break;
	case VSW_REQ_SET_MEM_TABLE:
		m->payload.memory.nregions = (uint32_t)take(in, 1) % 10;
		for (unsigned int i = 0; i < VSW_GUARD_MAX_REGIONS; i++) {
			struct vsw_guard_region *r =
				&m->payload.memory.regions[i];

			r->guest_phys_addr = take(in, 1) & 1
						     ? ~0ull - 4096
						     : 0x100000000ull * i;
			r->memory_size = take(in, 3) << 8;
			r->userspace_addr = take(in, 1) & 1 ? ~0ull - 4096
							    : 0x7f0000000000ull;
			r->mmap_offset = take(in, 2) << 12;
		}
		break;
	case VSW_REQ_SET_LOG_BASE:
		m->payload.log.mmap_size = take(in, 3) << 8;
		m->payload.log.mmap_offset = take(in, 2) << 12;
		break;
	default:
		m->payload.state.index = ring;
		m->payload.state.num = pick_num(in);
	}
	*nfds = (int)(take(in, 1) % (VSW_GUARD_MAX_FDS + 1));
	for (int i = 0; i < *nfds; i++) {
		uint8_t b = (uint8_t)take(in, 1);

		fds[i] = (struct vsw_guard_fd){
			.present = b & 1,
			.regular = b & 2,
			.mem_fs = b & 4,
			.rdwr = b & 8,
			.size = take(in, 3) << 12,
		};
	}
	/* what the guard asks the library: the features it took last */
	*features = lib.features;
}

static void check_fd_ok(const struct vsw_guard_fd *f, uint64_t off,
			uint64_t size)
{
	FUZZ_CHECK(f->present && f->regular && f->mem_fs && f->rdwr);
	FUZZ_CHECK(size > 0 && off + size >= off && off + size <= f->size);
}

/* @m was let through: what the library then holds, and checks. */
static void taken(const struct vsw_guard_msg *m, const struct vsw_guard_fd *fds,
		  int nfds, uint64_t features)
{
	int ring = vsw_guard_ring_of(m);

	FUZZ_CHECK(m->request != VSW_REQ_RESET_OWNER &&
		   m->request != VSW_REQ_GET_INFLIGHT_FD &&
		   m->request != VSW_REQ_SET_INFLIGHT_FD);
	FUZZ_CHECK(ring < RINGS);
	switch (m->request) {
	case VSW_REQ_SET_FEATURES:
		lib.features = m->payload.u64;
		break;
	case VSW_REQ_SET_MEM_TABLE:
		FUZZ_CHECK(m->payload.memory.nregions >= 1 &&
			   (int)m->payload.memory.nregions == nfds);
		for (int i = 0; i < nfds; i++) {
			const struct vsw_guard_region *r =
				&m->payload.memory.regions[i];

			check_fd_ok(&fds[i], r->mmap_offset, r->memory_size);
			FUZZ_CHECK(r->guest_phys_addr + r->memory_size >=
					   r->guest_phys_addr &&
				   r->userspace_addr + r->memory_size >=
					   r->userspace_addr);
		}
		break;
	case VSW_REQ_SET_LOG_BASE:
		FUZZ_CHECK(nfds == 1);
		check_fd_ok(&fds[0], m->payload.log.mmap_offset,
			    m->payload.log.mmap_size);
		break;
	case VSW_REQ_SET_VRING_NUM:
		FUZZ_CHECK(!lib.running[ring]);
		lib.size[ring] = m->payload.state.num;
		lib.sized_packed[ring] = (features & PACKED) != 0;
		break;
	case VSW_REQ_SET_VRING_BASE:
		FUZZ_CHECK(!lib.running[ring]);
		lib.base[ring] = m->payload.state.num;
		break;
	case VSW_REQ_GET_VRING_BASE:
		lib.running[ring] = false;
		break;
	case VSW_REQ_SET_VRING_ADDR:
	case VSW_REQ_SET_VRING_KICK:
		lib.running[ring] = true;
		break;
	}
}

/* Every running ring is what the datapath may index safely. */
static void check_running(uint64_t features)
{
	for (int r = 0; r < RINGS; r++) {
		uint32_t n = lib.size[r];

		if (!lib.running[r])
			continue;
		FUZZ_CHECK(n >= 32 && n <= 4096);
		FUZZ_CHECK(lib.sized_packed[r] == ((features & PACKED) != 0));
		if (!lib.sized_packed[r])
			FUZZ_CHECK((n & (n - 1)) == 0);
		else
			FUZZ_CHECK((lib.base[r] & 0x7fff) < n);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = {data, size, 0};
	struct vsw_guard_state st, before;
	struct vsw_guard_msg m;
	struct vsw_guard_fd fds[VSW_GUARD_MAX_FDS];
	uint64_t features;
	int nfds;

	memset(&lib, 0, sizeof(lib));
	vsw_guard_state_reset(&st);
	for (int i = 0; i < 64 && in.off < in.n; i++) {
		const char *why, *again;

		build(&in, &m, fds, &nfds, &features);
		before = st;
		why = vsw_guard_rules(&st, &m, fds, nfds, features);
		if (why != NULL) {
			FUZZ_CHECK(why[0] != '\0');
			FUZZ_CHECK(memcmp(&st, &before, sizeof(st)) == 0);
			again = vsw_guard_rules(&st, &m, fds, nfds, features);
			FUZZ_CHECK(again != NULL && strcmp(again, why) == 0);
			continue;
		}
		/* a layout switch while a ring runs shows in check_running */
		taken(&m, fds, nfds, features);
		check_running(lib.features);
	}
	return 0;
}
