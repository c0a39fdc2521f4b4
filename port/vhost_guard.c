/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A firewall in front of librte_vhost's message handler, and the relay of
 * guest interrupts.
 *
 * A vhost-user frontend is guest-controlled and DPDK 22.11 trusts it too
 * much (found with tests/hostile/vhost_hostile.c): a memory region larger
 * than the file behind it, or an fd that is not memory, is mmapped anyway
 * and the first access raises SIGBUS in a worker or leaks the fd; a ring
 * size is stored before it is checked; a ring restarted without
 * SET_VRING_NUM dereferences a freed array; RESET_OWNER and the inflight
 * messages leak; huge rings drain the heap every other guest allocates
 * from.  vsw registers vsw_vhost_guard as the pre-message handler of every
 * connection and refuses such messages (the library then drops the
 * connection); it closes the fds of what it refuses, which the library
 * would not.
 *
 * Interrupts: the library writes the guest's call eventfd from inside
 * rte_vhost_enqueue_burst, on a worker.  A guest can make that write
 * block (a full pipe, an eventfd at its maximum count, O_NONBLOCK cleared
 * on the file description it shares with us), which would stop every port
 * that worker serves.  So the guard hands the library an eventfd of vsw's
 * own instead (non-blocking, shared with nobody) and a relay thread per
 * port copies each interrupt to the guest's fd; if the guest blocks that
 * write, it blocks only its own relay, and a port delete or shutdown
 * interrupts it (a signal, see vsw_call_relay_destroy) instead of
 * waiting for the guest with the control lock held.  Calls forced by
 * call-suppression off take the same way: the worker marks the ring and
 * writes the relay's force_fd (ours alone, non-blocking).
 *
 * Threads: the guard runs on the vhost-events thread, for some messages
 * with every virtqueue lock held: it takes only leaf locks (the relay's).
 * Only the relay thread closes the fds it polls or writes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/virtio_config.h>
#include <rte_vhost.h>

#include "vhost_priv.h"

/* The library's message layout (lib/vhost/vhost_user.h of 22.11, which
 * says it "can't be changed carelessly as external message handlers rely
 * on" it); only what the guard reads, sizes checked against 22.11. */
#define MSG_PAYLOAD_SIZE 632
#define MSG_MAX_FDS 8
#define MSG_MAX_REGIONS 8
#define VRING_IDX_MASK 0xff
#define VRING_NOFD_MASK (0x1 << 8)

enum {
	REQ_RESET_OWNER = 4,
	REQ_SET_MEM_TABLE = 5,
	REQ_SET_LOG_BASE = 6,
	REQ_SET_VRING_NUM = 8,
	REQ_SET_VRING_ADDR = 9,
	REQ_SET_VRING_BASE = 10,
	REQ_GET_VRING_BASE = 11,
	REQ_SET_VRING_KICK = 12,
	REQ_SET_VRING_CALL = 13,
	REQ_SET_VRING_ERR = 14,
	REQ_SET_VRING_ENABLE = 18,
	REQ_GET_INFLIGHT_FD = 31,
	REQ_SET_INFLIGHT_FD = 32,
};

struct msg_region {
	uint64_t guest_phys_addr;
	uint64_t memory_size;
	uint64_t userspace_addr;
	uint64_t mmap_offset;
} __attribute__((packed)); /* at offset 20 of the message: unaligned */

struct msg {
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
			struct msg_region regions[MSG_MAX_REGIONS];
		} memory;
		struct {
			uint64_t mmap_size, mmap_offset;
		} log;
		uint8_t raw[MSG_PAYLOAD_SIZE];
	} payload;
} __attribute__((packed));

struct msg_ctx {
	struct msg msg;
	int fds[MSG_MAX_FDS];
	int fd_num;
} __attribute__((packed));

_Static_assert(sizeof(struct msg) == 644, "VhostUserMsg of DPDK 22.11");
_Static_assert(offsetof(struct msg_ctx, fds) == 644, "vhu_msg_context");
_Static_assert(offsetof(struct msg_ctx, fd_num) == 676, "vhu_msg_context");

/* Rings a frontend may set up per connection, and their sizes: enough
 * for 32 queue pairs of 4096 entries (QEMU's virtio-net allows 256 to
 * 1024), little enough that one guest cannot drain the shared heap; and
 * at least 32 entries, because 22.11's dequeue takes up to 32 (its burst)
 * from a guest-written avail index without bounding it by the ring size
 * and overflows the arrays sized by it (hostile test
 * vring_num_bad_acked, on a 4-entry ring). */
#define GUARD_MAX_RINGS 64
#define GUARD_MIN_RING_SIZE 32
#define GUARD_MAX_RING_SIZE 4096

/* Per vid (the library's handle, < RTE_MAX_VHOST_DEVICE): rings whose
 * size was set since they were last stopped.  vhost-events thread only. */
static uint64_t num_ok[RTE_MAX_VHOST_DEVICE];

/* ---- the relay ---- */

#define RELAY_STOP UINT32_MAX
#define RELAY_WORK (UINT32_MAX - 1)
#define RELAY_FORCE (UINT32_MAX - 2)
#define RELAY_CLOSE_MAX (GUARD_MAX_RINGS * 4)

struct vsw_call_relay {
	pthread_t thread;
	int epfd;
	int ctl_fd;	      /* eventfd: work to do (RELAY_WORK) */
	int force_fd;	      /* eventfd: forced calls (RELAY_FORCE) */
	uint64_t force_rings; /* rings to call, bit per ring (workers set) */
	bool stop;
	/* under lock: per ring, our eventfd (polled) and the guest's fd */
	pthread_mutex_t lock;
	int ours[GUARD_MAX_RINGS];
	int guest[GUARD_MAX_RINGS];
	int closing[RELAY_CLOSE_MAX]; /* fds only the relay may close */
	unsigned int n_closing;
	char name[VSW_PORT_NAME_MAX];
};

/* Hand @fd to the relay to close (lock held). */
static void relay_defer_close(struct vsw_call_relay *r, int fd)
{
	if (fd < 0)
		return;
	if (r->n_closing < RELAY_CLOSE_MAX)
		r->closing[r->n_closing++] = fd;
	else
		close(fd); /* cannot happen: rings * 4 */
}

static void relay_poke(struct vsw_call_relay *r)
{
	uint64_t one = 1;

	if (write(r->ctl_fd, &one, sizeof(one)) < 0)
		return; /* the counter is pending already */
}

/* Relay thread: deferred closes (lock held by caller). */
static void relay_reap(struct vsw_call_relay *r)
{
	for (unsigned int i = 0; i < r->n_closing; i++) {
		epoll_ctl(r->epfd, EPOLL_CTL_DEL, r->closing[i], NULL);
		close(r->closing[i]);
	}
	r->n_closing = 0;
}

/* Relay thread: ring @ring rang; pass it on to the guest. */
static void relay_ring(struct vsw_call_relay *r, uint32_t ring)
{
	uint64_t v, one = 1;
	struct iovec iov = {&v, sizeof(v)};
	int ours, guest;

	pthread_mutex_lock(&r->lock);
	ours = r->ours[ring];
	guest = r->guest[ring];
	pthread_mutex_unlock(&r->lock);
	/* both stay open: only this thread closes them */
	if (ours < 0 || preadv2(ours, &iov, 1, -1, RWF_NOWAIT) != sizeof(v))
		return;
	if (guest >= 0 && write(guest, &one, sizeof(one)) < 0)
		return; /* the guest's own fd: its problem */
}

/* Relay thread: the calls workers forced (call-suppression off).  The
 * writes outside the lock, as relay_ring: a guest may block them. */
static void relay_forced(struct vsw_call_relay *r)
{
	uint64_t v, one = 1, rings;
	int guest[GUARD_MAX_RINGS];

	if (read(r->force_fd, &v, sizeof(v)) < 0)
		return;
	rings = __atomic_exchange_n(&r->force_rings, 0, __ATOMIC_ACQ_REL);
	pthread_mutex_lock(&r->lock);
	memcpy(guest, r->guest, sizeof(guest));
	pthread_mutex_unlock(&r->lock);
	for (uint32_t i = 0; i < GUARD_MAX_RINGS; i++)
		if ((rings >> i & 1) && guest[i] >= 0 &&
		    write(guest[i], &one, sizeof(one)) < 0)
			continue; /* the guest's own fd: its problem */
}

/*
 * Worker.  The eventfd is written only when no forced ring was pending:
 * otherwise the relay has not taken the set yet (it reads force_fd, then
 * takes force_rings), so it will see this ring too.  One syscall per
 * relay wake-up, not per burst.
 */
void vsw_call_relay_force(struct vsw_call_relay *r, uint32_t ring)
{
	uint64_t one = 1;

	if (__atomic_fetch_or(&r->force_rings, 1ull << ring,
			      __ATOMIC_ACQ_REL) != 0)
		return;
	if (write(r->force_fd, &one, sizeof(one)) < 0)
		return; /* the counter is full: a wake-up is pending */
}

static void *relay_main(void *arg)
{
	struct vsw_call_relay *r = arg;
	struct epoll_event ev[16];
	uint64_t v;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		int n = epoll_wait(r->epfd, ev, 16, -1);

		for (int i = 0; i < n; i++) {
			if (ev[i].data.u32 == RELAY_WORK) {
				if (read(r->ctl_fd, &v, sizeof(v)) < 0)
					continue;
			} else if (ev[i].data.u32 == RELAY_FORCE) {
				relay_forced(r);
			} else if (ev[i].data.u32 < GUARD_MAX_RINGS) {
				relay_ring(r, ev[i].data.u32);
			}
		}
		pthread_mutex_lock(&r->lock);
		relay_reap(r);
		pthread_mutex_unlock(&r->lock);
	}
	return NULL;
}

/*
 * Stopping a relay whose write the guest keeps blocked: a signal whose
 * handler does nothing, installed without SA_RESTART, sent to that thread
 * alone, makes the write return EINTR; the relay then sees `stop`.
 */
static int relay_signal(void)
{
	return SIGRTMIN + 1;
}

static void relay_sig_noop(int sig)
{
	(void)sig;
}

static pthread_once_t relay_sig_once = PTHREAD_ONCE_INIT;

static void relay_sig_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = relay_sig_noop;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a blocked write returns EINTR */
	sigaction(relay_signal(), &sa, NULL);
}

struct vsw_call_relay *vsw_call_relay_create(const char *port, char *err,
					     size_t errlen)
{
	struct vsw_call_relay *r = calloc(1, sizeof(*r));
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = RELAY_WORK};
	struct epoll_event fev = {.events = EPOLLIN, .data.u32 = RELAY_FORCE};
	char tname[16];

	if (r == NULL)
		goto fail;
	pthread_once(&relay_sig_once, relay_sig_install);
	snprintf(r->name, sizeof(r->name), "%s", port);
	pthread_mutex_init(&r->lock, NULL);
	for (unsigned int i = 0; i < GUARD_MAX_RINGS; i++)
		r->ours[i] = r->guest[i] = -1;
	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	r->ctl_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	r->force_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (r->epfd < 0 || r->ctl_fd < 0 || r->force_fd < 0 ||
	    epoll_ctl(r->epfd, EPOLL_CTL_ADD, r->ctl_fd, &ev) < 0 ||
	    epoll_ctl(r->epfd, EPOLL_CTL_ADD, r->force_fd, &fev) < 0 ||
	    pthread_create(&r->thread, NULL, relay_main, r) != 0) {
		if (r->epfd >= 0)
			close(r->epfd);
		if (r->ctl_fd >= 0)
			close(r->ctl_fd);
		if (r->force_fd >= 0)
			close(r->force_fd);
		free(r);
		goto fail;
	}
	snprintf(tname, sizeof(tname), "vsw-irq-%.7s", port);
	pthread_setname_np(r->thread, tname);
	return r;
fail:
	snprintf(err, errlen, "port %s: cannot start its interrupt relay",
		 port);
	return NULL;
}

/* Forget every ring (the guest went): fds to the relay to close. */
void vsw_call_relay_reset(struct vsw_call_relay *r)
{
	if (r == NULL)
		return;
	pthread_mutex_lock(&r->lock);
	for (unsigned int i = 0; i < GUARD_MAX_RINGS; i++) {
		relay_defer_close(r, r->ours[i]);
		relay_defer_close(r, r->guest[i]);
		r->ours[i] = r->guest[i] = -1;
	}
	pthread_mutex_unlock(&r->lock);
	relay_poke(r);
}

void vsw_call_relay_destroy(struct vsw_call_relay *r)
{
	if (r == NULL)
		return;
	vsw_call_relay_reset(r);
	__atomic_store_n(&r->stop, true, __ATOMIC_RELEASE);
	relay_poke(r);
	/* a guest may keep the relay's write blocked: interrupt it until the
	 * thread is gone (a signal may land just before the write) */
	for (;;) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20 * 1000 * 1000;
		if (ts.tv_nsec >= 1000 * 1000 * 1000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000 * 1000 * 1000;
		}
		if (pthread_timedjoin_np(r->thread, NULL, &ts) == 0)
			break;
		pthread_kill(r->thread, relay_signal());
	}
	relay_reap(r);
	close(r->epfd);
	close(r->ctl_fd);
	close(r->force_fd);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

/*
 * SET_VRING_CALL: give the library an eventfd of ours for ring @ring and
 * relay it to the guest's @guest_fd.  Returns our fd (the library owns
 * it from now on), or -1 to leave the message as it is.
 */
static int relay_attach(struct vsw_call_relay *r, uint32_t ring, int guest_fd)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = ring};
	int lib_fd, ours;

	lib_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (lib_fd < 0)
		return -1;
	ours = fcntl(lib_fd, F_DUPFD_CLOEXEC, 0);
	if (ours < 0 || epoll_ctl(r->epfd, EPOLL_CTL_ADD, ours, &ev) < 0) {
		if (ours >= 0)
			close(ours);
		close(lib_fd);
		return -1;
	}
	pthread_mutex_lock(&r->lock);
	relay_defer_close(r, r->ours[ring]);
	relay_defer_close(r, r->guest[ring]);
	r->ours[ring] = ours;
	r->guest[ring] = guest_fd;
	pthread_mutex_unlock(&r->lock);
	relay_poke(r);
	return lib_fd;
}

static void relay_detach(struct vsw_call_relay *r, uint32_t ring)
{
	pthread_mutex_lock(&r->lock);
	relay_defer_close(r, r->ours[ring]);
	relay_defer_close(r, r->guest[ring]);
	r->ours[ring] = r->guest[ring] = -1;
	pthread_mutex_unlock(&r->lock);
	relay_poke(r);
}

/* ---- the firewall ---- */

static enum rte_vhost_msg_result refuse(struct msg_ctx *c, int vid,
					const char *why)
{
	char path[128] = "?";

	rte_vhost_get_ifname(vid, path, sizeof(path));
	PORT_LOG(WARNING, "vhost-user %s (vid %d): refused request %u: %s",
		 path, vid, c->msg.request, why);
	for (int i = 0; i < c->fd_num && i < MSG_MAX_FDS; i++)
		if (c->fds[i] >= 0)
			close(c->fds[i]);
	c->fd_num = 0;
	return RTE_VHOST_MSG_RESULT_ERR;
}

/* An fd a region or log may be mmapped from: a regular file (memfd,
 * hugetlbfs), open read-write, holding at least @end bytes. */
static const char *bad_mem_fd(int fd, uint64_t off, uint64_t size)
{
	struct stat st;
	int fl;

	if (fd < 0 || fstat(fd, &st) < 0)
		return "memory fd missing";
	if (!S_ISREG(st.st_mode))
		return "memory fd is not a file (memfd or hugetlbfs)";
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) != O_RDWR)
		return "memory fd not open read-write";
	if (size == 0 || off + size < off || off + size > (uint64_t)st.st_size)
		return "memory region larger than the file behind it";
	return NULL;
}

static const char *check_mem_table(const struct msg_ctx *c)
{
	uint32_t n = c->msg.payload.memory.nregions;

	if (n == 0 || n > MSG_MAX_REGIONS || (int)n != c->fd_num)
		return "memory table: region and fd counts disagree";
	for (uint32_t i = 0; i < n; i++) {
		const struct msg_region *r = &c->msg.payload.memory.regions[i];
		const char *why =
			bad_mem_fd(c->fds[i], r->mmap_offset, r->memory_size);

		if (why != NULL)
			return why;
		if (r->guest_phys_addr + r->memory_size < r->guest_phys_addr ||
		    r->userspace_addr + r->memory_size < r->userspace_addr)
			return "memory region wraps around";
	}
	return NULL;
}

static const char *check_ring_num(int vid, const struct msg_ctx *c)
{
	uint32_t ring = c->msg.payload.state.index;
	uint32_t num = c->msg.payload.state.num;
	uint64_t features = 0;

	rte_vhost_get_negotiated_features(vid, &features);
	if (ring >= GUARD_MAX_RINGS)
		return "ring index above vsw's limit of 64 rings";
	if (num < GUARD_MIN_RING_SIZE || num > GUARD_MAX_RING_SIZE)
		return "ring size not in 32..4096";
	if (!(features & (1ULL << VIRTIO_F_RING_PACKED)) && (num & (num - 1)))
		return "split ring size not a power of two";
	num_ok[vid] |= 1ull << ring;
	return NULL;
}

/* Ring index of a vring message, or -1 for other messages. */
static int ring_of(const struct msg_ctx *c)
{
	switch (c->msg.request) {
	case REQ_SET_VRING_NUM:
	case REQ_SET_VRING_BASE:
	case REQ_GET_VRING_BASE:
	case REQ_SET_VRING_ENABLE:
		return (int)c->msg.payload.state.index;
	case REQ_SET_VRING_ADDR:
		return (int)c->msg.payload.addr.index;
	case REQ_SET_VRING_KICK:
	case REQ_SET_VRING_CALL:
	case REQ_SET_VRING_ERR:
		return (int)(c->msg.payload.u64 & VRING_IDX_MASK);
	}
	return -1;
}

/* Checks of the vring messages; NULL when the message may go on. */
static const char *check_ring_msg(int vid, const struct msg_ctx *c, int ring)
{
	if (ring >= GUARD_MAX_RINGS)
		return "ring index above vsw's limit of 64 rings";
	switch (c->msg.request) {
	case REQ_SET_VRING_NUM:
		return check_ring_num(vid, c);
	case REQ_GET_VRING_BASE:
		num_ok[vid] &= ~(1ull << ring); /* stopped: size again */
		return NULL;
	case REQ_SET_VRING_ADDR:
	case REQ_SET_VRING_KICK:
		/* a ring (re)started needs its size first (22.11 freed
		 * the arrays sized by it when it stopped) */
		if (!(num_ok[vid] & (1ull << ring)))
			return "ring started without SET_VRING_NUM";
		return NULL;
	}
	return NULL;
}

static struct vsw_call_relay *relay_of(int vid)
{
	struct vsw_vhost_port *vp = vsw_vhost_port_of(vid);

	return vp != NULL ? vp->call_relay : NULL;
}

/* SET_VRING_CALL with an fd: ours to the library, the guest's relayed. */
static void swap_call_fd(int vid, struct msg_ctx *c, int ring)
{
	struct vsw_call_relay *r = relay_of(vid);
	int lib_fd;

	if (r == NULL)
		return;
	if ((c->msg.payload.u64 & VRING_NOFD_MASK) || c->fd_num != 1) {
		relay_detach(r, (uint32_t)ring);
		return;
	}
	lib_fd = relay_attach(r, (uint32_t)ring, c->fds[0]);
	if (lib_fd >= 0)
		c->fds[0] = lib_fd; /* the guest's fd is the relay's now */
}

enum rte_vhost_msg_result vsw_vhost_guard(int vid, void *arg)
{
	struct msg_ctx *c = arg;
	const char *why = NULL;
	int ring = ring_of(c);

	if (vid < 0 || vid >= RTE_MAX_VHOST_DEVICE)
		return RTE_VHOST_MSG_RESULT_NOT_HANDLED;
	switch (c->msg.request) {
	case REQ_RESET_OWNER:
		why = "RESET_OWNER is obsolete (and leaks in DPDK 22.11)";
		break;
	case REQ_GET_INFLIGHT_FD:
	case REQ_SET_INFLIGHT_FD:
		why = "inflight tracking is not offered";
		break;
	case REQ_SET_MEM_TABLE:
		why = check_mem_table(c);
		break;
	case REQ_SET_LOG_BASE:
		why = c->fd_num != 1
			      ? "log base without one fd"
			      : bad_mem_fd(c->fds[0],
					   c->msg.payload.log.mmap_offset,
					   c->msg.payload.log.mmap_size);
		break;
	}
	if (why == NULL && ring >= 0)
		why = check_ring_msg(vid, c, ring);
	if (why != NULL)
		return refuse(c, vid, why);
	if (c->msg.request == REQ_SET_VRING_CALL)
		swap_call_fd(vid, c, ring);
	return RTE_VHOST_MSG_RESULT_NOT_HANDLED;
}

static const struct rte_vhost_user_extern_ops guard_ops = {
	.pre_msg_handle = vsw_vhost_guard,
};

int vsw_vhost_guard_attach(int vid)
{
	if (vid < 0 || vid >= RTE_MAX_VHOST_DEVICE)
		return -EINVAL;
	num_ok[vid] = 0;
	return rte_vhost_extern_callback_register(vid, &guard_ops, NULL) < 0
		       ? -EIO
		       : 0;
}
