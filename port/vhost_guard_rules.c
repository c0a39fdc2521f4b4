/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The vhost-user firewall's rules: which messages of a frontend librte_vhost
 * (22.11) may see, given what came before on the same connection.
 *
 * Sizes alone are not enough (tests 30_hostile_frontend, fuzz_vhost_guard;
 * each path followed in
 * 22.11.11): the library stores a new ring size on a running ring and its
 * datapath then masks indexes with it (writes past the validated used
 * ring), takes a packed ring's base without comparing it with the size
 * (reads and writes descriptors past the ring), and sizes the per-ring
 * shadow array for split or packed by the features of the moment, so a
 * SET_FEATURES that switches a sized ring to packed overflows it in the
 * heap every port shares.  So the rules keep each ring's state: size, base
 * and layout may change only while the ring is stopped; a ring starts only
 * once both were given since it last stopped, with the layout it was sized
 * for, and a packed ring's base inside the ring; the layout cannot switch
 * while any ring is sized.  QEMU and DPDK's virtio-user send NUM, BASE,
 * ADDR, KICK to start a ring and GET_VRING_BASE to stop it, and re-send
 * ADDR on a running ring only to switch dirty logging (allowed).
 *
 * Memory: a region or a dirty log must be a regular file on
 * tmpfs (memfd, /dev/shm) or hugetlbfs, open read-write, holding the
 * whole region.  Anything else -- a file on FUSE, NFS, 9p, even ext4 --
 * lets the frontend decide how long a worker's page fault takes.
 */
#include <string.h>

#include "vhost_guard_rules.h"

void vsw_guard_state_reset(struct vsw_guard_state *s)
{
	memset(s, 0, sizeof(*s));
}

int vsw_guard_ring_of(const struct vsw_guard_msg *m)
{
	switch (m->request) {
	case VSW_REQ_SET_VRING_NUM:
	case VSW_REQ_SET_VRING_BASE:
	case VSW_REQ_GET_VRING_BASE:
	case VSW_REQ_SET_VRING_ENABLE:
		return (int)(m->payload.state.index & 0x7fffffff);
	case VSW_REQ_SET_VRING_ADDR:
		return (int)(m->payload.addr.index & 0x7fffffff);
	case VSW_REQ_SET_VRING_KICK:
	case VSW_REQ_SET_VRING_CALL:
	case VSW_REQ_SET_VRING_ERR:
		return (int)(m->payload.u64 & VSW_GUARD_IDX_MASK);
	}
	return -1;
}

static bool is_packed(uint64_t features)
{
	return (features >> VSW_GUARD_F_RING_PACKED) & 1;
}

/* A region or log of @size bytes at @off in the file behind @f. */
static const char *bad_mem_fd(const struct vsw_guard_fd *f, uint64_t off,
			      uint64_t size)
{
	if (!f->present)
		return "memory fd missing";
	if (!f->regular)
		return "memory fd is not a file (memfd or hugetlbfs)";
	if (!f->mem_fs)
		return "memory fd is not on tmpfs or hugetlbfs (memfd, "
		       "/dev/shm, /dev/hugepages): a frontend could stall "
		       "vsw's page faults";
	if (!f->rdwr)
		return "memory fd not open read-write";
	if (size == 0 || off + size < off || off + size > f->size)
		return "memory region larger than the file behind it";
	return NULL;
}

static const char *check_mem_table(const struct vsw_guard_msg *m,
				   const struct vsw_guard_fd *fds, int nfds)
{
	uint32_t n = m->payload.memory.nregions;

	if (n == 0 || n > VSW_GUARD_MAX_REGIONS || (int)n != nfds)
		return "memory table: region and fd counts disagree";
	for (uint32_t i = 0; i < n; i++) {
		const struct vsw_guard_region *r =
			&m->payload.memory.regions[i];
		const char *why =
			bad_mem_fd(&fds[i], r->mmap_offset, r->memory_size);

		if (why != NULL)
			return why;
		if (r->guest_phys_addr + r->memory_size < r->guest_phys_addr ||
		    r->userspace_addr + r->memory_size < r->userspace_addr)
			return "memory region wraps around";
	}
	return NULL;
}

/* A packed ring's first descriptor: inside the ring. */
static bool packed_base_ok(const struct vsw_guard_state *s, int ring)
{
	return (s->base[ring] & VSW_GUARD_PACKED_IDX) < s->size[ring];
}

static const char *ring_num(struct vsw_guard_state *s, int ring, uint32_t num,
			    uint64_t features)
{
	uint64_t bit = 1ull << ring;

	if (s->started & bit)
		return "SET_VRING_NUM on a started ring (stop it first)";
	if (num < VSW_GUARD_MIN_RING_SIZE || num > VSW_GUARD_MAX_RING_SIZE)
		return "ring size not in 32..4096";
	if (!is_packed(features) && (num & (num - 1)))
		return "split ring size not a power of two";
	s->size[ring] = (uint16_t)num;
	s->sized |= bit;
	s->ever_sized |= bit;
	if (is_packed(features))
		s->packed |= bit;
	else
		s->packed &= ~bit;
	return NULL;
}

static const char *ring_base(struct vsw_guard_state *s, int ring, uint32_t num)
{
	uint64_t bit = 1ull << ring;

	if (s->started & bit)
		return "SET_VRING_BASE on a started ring (stop it first)";
	s->base[ring] = num;
	s->based |= bit;
	return NULL;
}

/* SET_VRING_ADDR or KICK: the ring (re)starts, or is running already. */
static const char *ring_start(struct vsw_guard_state *s, int ring,
			      uint64_t features)
{
	uint64_t bit = 1ull << ring;

	if (s->started & bit)
		return NULL; /* QEMU re-sends ADDR to switch dirty logging */
	/* 22.11 freed the arrays sized by SET_VRING_NUM when the ring
	 * stopped, and keeps the base it had */
	if (!(s->sized & bit))
		return "ring started without SET_VRING_NUM";
	if (!(s->based & bit))
		return "ring started without SET_VRING_BASE";
	if (((s->packed & bit) != 0) != is_packed(features))
		return "ring started with another layout (split/packed) than "
		       "it was sized for";
	if ((s->packed & bit) && !packed_base_ok(s, ring))
		return "packed ring base beyond the ring size";
	s->started |= bit;
	return NULL;
}

/* A SET_FEATURES that would switch a sized ring between layouts. */
static const char *features_flip(const struct vsw_guard_state *s,
				 uint64_t new_features)
{
	uint64_t rings = s->sized | s->started;
	uint64_t want = is_packed(new_features) ? rings : 0;

	if ((s->packed & rings) != want)
		return "SET_FEATURES switches sized rings between split and "
		       "packed (stop them first)";
	return NULL;
}

static const char *ring_rules(struct vsw_guard_state *s,
			      const struct vsw_guard_msg *m, int ring,
			      uint64_t features)
{
	uint64_t bit;

	if (ring >= VSW_GUARD_MAX_RINGS)
		return "ring index above vsw's limit of 64 rings";
	bit = 1ull << ring;
	switch (m->request) {
	case VSW_REQ_SET_VRING_NUM:
		return ring_num(s, ring, m->payload.state.num, features);
	case VSW_REQ_SET_VRING_BASE:
		return ring_base(s, ring, m->payload.state.num);
	case VSW_REQ_GET_VRING_BASE:
		s->started &= ~bit; /* stopped: size and base again */
		s->sized &= ~bit;
		s->based &= ~bit;
		return NULL;
	case VSW_REQ_SET_VRING_ADDR:
	case VSW_REQ_SET_VRING_KICK:
		return ring_start(s, ring, features);
	}
	return NULL;
}

const char *vsw_guard_rules(struct vsw_guard_state *s,
			    const struct vsw_guard_msg *m,
			    const struct vsw_guard_fd *fds, int nfds,
			    uint64_t features)
{
	int ring = vsw_guard_ring_of(m);

	switch (m->request) {
	case VSW_REQ_RESET_OWNER:
		return "RESET_OWNER is obsolete (and leaks in DPDK 22.11)";
	case VSW_REQ_GET_INFLIGHT_FD:
	case VSW_REQ_SET_INFLIGHT_FD:
		return "inflight tracking is not offered";
	case VSW_REQ_SET_MEM_TABLE:
		return check_mem_table(m, fds, nfds);
	case VSW_REQ_SET_LOG_BASE:
		return nfds != 1
			       ? "log base without one fd"
			       : bad_mem_fd(&fds[0], m->payload.log.mmap_offset,
					    m->payload.log.mmap_size);
	case VSW_REQ_SET_FEATURES:
		return features_flip(s, m->payload.u64);
	}
	if (ring >= 0)
		return ring_rules(s, m, ring, features);
	return NULL;
}
