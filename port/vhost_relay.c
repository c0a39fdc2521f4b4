/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The relay of guest interrupts: the way of calls that must not be made
 * from a worker.
 *
 * The library writes a ring's call fd from inside its enqueue and dequeue,
 * on a worker, and then calls vsw back (guest_notified).  A guest can make
 * a write to its own call fd block (a full pipe, an eventfd at its maximum
 * count, O_NONBLOCK cleared on the file description it shares with us),
 * which would stop every port that worker serves.  So the guard
 * (vhost_guard.c) hands the library an eventfd of vsw's own instead
 * (non-blocking, shared with nobody, read by nobody), and vhost_call.c
 * decides where each call goes: a worker writes the guest's eventfd
 * itself under a watchdog, or marks the ring here and writes the relay's
 * force_fd (ours alone, non-blocking), and this thread, one per port,
 * writes the guest's fd.  If the guest blocks that write, it blocks only
 * its own relay, and a port delete or shutdown interrupts it (a signal,
 * see vsw_call_relay_destroy) instead of waiting for the guest with the
 * control lock held.
 *
 * Threads: attach and detach run on the vhost-events thread, for some
 * messages with every virtqueue lock held: they take only the relay's
 * leaf lock.  Only the relay thread closes the fds it writes.
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
#include <time.h>
#include <unistd.h>

#include "vhost_guard_rules.h"
#include "vhost_priv.h"

#define RELAY_STOP UINT32_MAX
#define RELAY_WORK (UINT32_MAX - 1)
#define RELAY_FORCE (UINT32_MAX - 2)
/* fds replaced while the relay could not close them (it is blocked in a
 * guest's write); room is kept for one reset (every ring) */
#define RELAY_CLOSE_MAX (VSW_GUARD_MAX_RINGS * 4)

struct vsw_call_relay {
	pthread_t thread;
	int epfd;
	int ctl_fd;	      /* eventfd: work to do (RELAY_WORK) */
	int force_fd;	      /* eventfd: calls to make (RELAY_FORCE) */
	uint64_t force_rings; /* rings to call, bit per ring (workers set) */
	bool stop;
	/* under lock: per ring, the guest's fd */
	pthread_mutex_t lock;
	int guest[VSW_GUARD_MAX_RINGS];
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
		close(fd); /* cannot happen: attach and detach keep room */
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
	for (unsigned int i = 0; i < r->n_closing; i++)
		close(r->closing[i]);
	r->n_closing = 0;
}

/* Relay thread: the calls workers handed over.  The writes outside the
 * lock: a guest may block them. */
static void relay_forced(struct vsw_call_relay *r)
{
	uint64_t v, one = 1, rings;
	int guest[VSW_GUARD_MAX_RINGS];

	if (read(r->force_fd, &v, sizeof(v)) < 0)
		return;
	rings = __atomic_exchange_n(&r->force_rings, 0, __ATOMIC_ACQ_REL);
	pthread_mutex_lock(&r->lock);
	memcpy(guest, r->guest, sizeof(guest));
	pthread_mutex_unlock(&r->lock);
	for (uint32_t i = 0; i < VSW_GUARD_MAX_RINGS; i++)
		if ((rings >> i & 1) && guest[i] >= 0 &&
		    write(guest[i], &one, sizeof(one)) < 0)
			continue; /* the guest's own fd: its problem */
}

/*
 * Worker (or control).  The eventfd is written only when no ring was pending:
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
	for (unsigned int i = 0; i < VSW_GUARD_MAX_RINGS; i++)
		r->guest[i] = -1;
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
	for (unsigned int i = 0; i < VSW_GUARD_MAX_RINGS; i++) {
		relay_defer_close(r, r->guest[i]);
		r->guest[i] = -1;
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
 * Lock held: may ring @ring's fd be replaced?  Not when the fds already
 * replaced fill the list but for a reset's room: the relay is blocked in
 * a guest's write and cannot close them, and closing one here could
 * close an fd it is about to write (its number then reused by another
 * file).  The relay is signalled, so that a write blocked on an eventfd
 * or a pipe ends and it catches up.
 */
static bool relay_room(struct vsw_call_relay *r, uint32_t ring)
{
	if (r->guest[ring] < 0 ||
	    r->n_closing + VSW_GUARD_MAX_RINGS < RELAY_CLOSE_MAX)
		return true;
	pthread_kill(r->thread, relay_signal());
	return false;
}

/*
 * SET_VRING_CALL: the relay takes the guest's @guest_fd for ring @ring and
 * returns an eventfd for the library (the library owns it from now on;
 * nobody reads it: the library's writes only make it call guest_notified),
 * or -1: refuse the message (no fd; or the relay has no room, above).
 */
int vsw_call_relay_attach(struct vsw_call_relay *r, uint32_t ring, int guest_fd)
{
	int lib_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);

	if (lib_fd < 0)
		return -1;
	pthread_mutex_lock(&r->lock);
	if (!relay_room(r, ring)) {
		pthread_mutex_unlock(&r->lock);
		close(lib_fd);
		return -1;
	}
	relay_defer_close(r, r->guest[ring]);
	r->guest[ring] = guest_fd;
	pthread_mutex_unlock(&r->lock);
	relay_poke(r);
	return lib_fd;
}

bool vsw_call_relay_detach(struct vsw_call_relay *r, uint32_t ring)
{
	pthread_mutex_lock(&r->lock);
	if (!relay_room(r, ring)) {
		pthread_mutex_unlock(&r->lock);
		return false;
	}
	relay_defer_close(r, r->guest[ring]);
	r->guest[ring] = -1;
	pthread_mutex_unlock(&r->lock);
	relay_poke(r);
	return true;
}
