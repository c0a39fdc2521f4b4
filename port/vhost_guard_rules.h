/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The vhost-user firewall's rules (vhost_guard_rules.c): plain C, no EAL,
 * no library call and no syscall, so that tests/fuzz/fuzz_vhost_guard.c
 * drives them with any message sequence and any ring state.  The guard
 * (vhost_guard.c) gathers what the rules need -- the message, what its
 * fds are, the features the library negotiated -- and applies the verdict.
 */
#ifndef VSW_VHOST_GUARD_RULES_H
#define VSW_VHOST_GUARD_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The library's message layout (lib/vhost/vhost_user.h of 22.11, which
 * says it "can't be changed carelessly as external message handlers rely
 * on" it); only what the guard reads, sizes checked against 22.11. */
#define VSW_GUARD_PAYLOAD_SIZE 632
#define VSW_GUARD_MAX_FDS 8
#define VSW_GUARD_MAX_REGIONS 8
#define VSW_GUARD_IDX_MASK 0xff	    /* KICK/CALL/ERR: ring index bits */
#define VSW_GUARD_NOFD (0x1u << 8)  /* KICK/CALL/ERR: no fd attached */
#define VSW_GUARD_NEED_REPLY 0x8u   /* header flags: REPLY_ACK asked */
#define VSW_GUARD_F_RING_PACKED 34  /* VIRTIO_F_RING_PACKED */
#define VSW_GUARD_PACKED_IDX 0x7fff /* packed base: index bits (15: wrap) */

enum vsw_guard_req {
	VSW_REQ_SET_FEATURES = 2,
	VSW_REQ_RESET_OWNER = 4,
	VSW_REQ_SET_MEM_TABLE = 5,
	VSW_REQ_SET_LOG_BASE = 6,
	VSW_REQ_SET_VRING_NUM = 8,
	VSW_REQ_SET_VRING_ADDR = 9,
	VSW_REQ_SET_VRING_BASE = 10,
	VSW_REQ_GET_VRING_BASE = 11,
	VSW_REQ_SET_VRING_KICK = 12,
	VSW_REQ_SET_VRING_CALL = 13,
	VSW_REQ_SET_VRING_ERR = 14,
	VSW_REQ_SET_VRING_ENABLE = 18,
	VSW_REQ_GET_INFLIGHT_FD = 31,
	VSW_REQ_SET_INFLIGHT_FD = 32,
};

struct vsw_guard_region {
	uint64_t guest_phys_addr;
	uint64_t memory_size;
	uint64_t userspace_addr;
	uint64_t mmap_offset;
} __attribute__((packed)); /* at offset 20 of the message: unaligned */

struct vsw_guard_msg {
	uint32_t request;
	uint32_t flags;
	uint32_t size;
	union {
		uint64_t u64;
		struct {
			uint32_t index, num;
		} state;
		struct {
			uint32_t index, flags;
		} addr;
		struct {
			uint32_t nregions, padding;
			struct vsw_guard_region regions[VSW_GUARD_MAX_REGIONS];
		} memory;
		struct {
			uint64_t mmap_size, mmap_offset;
		} log;
		uint8_t raw[VSW_GUARD_PAYLOAD_SIZE];
	} payload;
} __attribute__((packed));

/* The library's vhu_msg_context: the message, then its fds. */
struct vsw_guard_ctx {
	struct vsw_guard_msg msg;
	int fds[VSW_GUARD_MAX_FDS];
	int fd_num;
} __attribute__((packed));

_Static_assert(sizeof(struct vsw_guard_msg) == 644, "VhostUserMsg of 22.11");
_Static_assert(offsetof(struct vsw_guard_ctx, fds) == 644, "vhu_msg_context");
_Static_assert(offsetof(struct vsw_guard_ctx, fd_num) == 676,
	       "vhu_msg_context");

/* Rings a frontend may set up per connection, and their sizes: enough
 * for 32 queue pairs of 4096 entries (QEMU's virtio-net allows 256 to
 * 1024), little enough that one guest cannot drain the shared heap; and
 * at least 32 entries, because 22.11's dequeue takes up to 32 (its burst)
 * from a guest-written avail index without bounding it by the ring size
 * and overflows the arrays sized by it (hostile test
 * vring_num_bad_acked, on a 4-entry ring). */
#define VSW_GUARD_MAX_RINGS 64
#define VSW_GUARD_MIN_RING_SIZE 32
#define VSW_GUARD_MAX_RING_SIZE 4096

/*
 * What the guard knows of one connection's rings.  A ring is "started"
 * from the SET_VRING_ADDR or SET_VRING_KICK that (re)starts it until the
 * GET_VRING_BASE that stops it (QEMU's vhost_virtqueue_stop): in between
 * the library's datapath indexes it with the size, base and layout it had
 * when it started, so none of them may change.  Bit per ring.
 */
struct vsw_guard_state {
	uint64_t sized;	     /* SET_VRING_NUM since the ring last stopped */
	uint64_t based;	     /* SET_VRING_BASE since the ring last stopped */
	uint64_t started;    /* ADDR or KICK let through, not stopped since */
	uint64_t packed;     /* sized while RING_PACKED was negotiated */
	uint64_t ever_sized; /* sized at least once on this connection */
	uint16_t size[VSW_GUARD_MAX_RINGS];
	uint32_t base[VSW_GUARD_MAX_RINGS]; /* as the frontend sent it */
};

/* What the guard found behind one memory fd (fstat, fstatfs, fcntl). */
struct vsw_guard_fd {
	bool present; /* an fd at all, and fstat worked */
	bool regular; /* S_ISREG */
	bool mem_fs;  /* on tmpfs (memfd, /dev/shm) or hugetlbfs */
	bool rdwr;    /* open O_RDWR */
	uint64_t size;
};

/* Forget every ring (a new connection). */
void vsw_guard_state_reset(struct vsw_guard_state *s);

/*
 * The verdict on message @m, whose @nfds fds the caller described in
 * @fds, given the virtio @features the library negotiated so far: NULL
 * when it may go on (the state then records it), else why it is refused
 * (the state is unchanged).
 */
const char *vsw_guard_rules(struct vsw_guard_state *s,
			    const struct vsw_guard_msg *m,
			    const struct vsw_guard_fd *fds, int nfds,
			    uint64_t features);

/* Ring index of a vring message, or -1 for other messages. */
int vsw_guard_ring_of(const struct vsw_guard_msg *m);

#endif
