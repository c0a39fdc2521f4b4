/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Calls (interrupts) to guests: where each one goes.
 *
 * The library decides that a ring's guest wants a call (its suppression
 * fields, EVENT_IDX), writes the eventfd vsw gave it (vhost_relay.c: read
 * by nobody) and calls guest_notified on the thread that enqueued or
 * dequeued, with that ring's virtqueue lock held.  vhost_rxtx.c then
 * calls vsw_vhost_call with the ring it was serving.
 *
 * Direct (guest-calls = direct, the default): the worker writes its own
 * duplicate of the guest's call eventfd.  No thread hop: the guest's
 * vCPU is woken by the worker's write.  What a hostile frontend can do to
 * that write, and what bounds it:
 *   - make it block (clear O_NONBLOCK on the file description it shares
 *     with us and raise the counter to its maximum): a watchdog thread
 *     sees a write older than VSW_CALL_WATCHDOG_MS and signals that
 *     worker; the write returns EINTR (an eventfd write sleeps
 *     interruptibly);
 *   - make it slow (the eventfd added to many epoll sets: every write
 *     walks them): the time writes spend over CALL_BASE_US each comes
 *     out of a per-port budget of CALL_BUDGET_MS that refills at
 *     CALL_REFILL_PCT of the time that passes; an empty budget is too
 *     slow.  So such a frontend takes at most ~CALL_BUDGET_MS once, then
 *     CALL_REFILL_PCT of one worker, until it falls back;
 *   - give a file that is not an eventfd (a pipe, a FUSE file, whose
 *     write may sleep where a signal cannot end it): only eventfds are
 *     written directly (their type cannot change under us); others go to
 *     the relay from the start.
 * In the first two cases the port falls back to the relay for the rest
 * of its life (vswctl port: call_path, call_path_why).  So a frontend
 * can stop a worker once, for at most two watchdog periods, or slow it
 * by its budget of slow writes; never for good.
 *
 * Relay (guest-calls = relay, a fallen-back port, a control thread's
 * dequeue, a file that is not an eventfd): the ring is marked for the
 * port's relay thread, which writes the guest's fd (vhost_relay.c).
 *
 * The direct fds: written by the vhost-events thread at SET_VRING_CALL,
 * with every virtqueue lock of the device held, and read by workers
 * inside guest_notified under one of those locks, so a worker never
 * writes an fd that is being replaced; closed then, or at port destroy
 * once the library is gone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_spinlock.h>
#include <rte_lcore.h>

#include "common/debug.h"
#include "vhost_guard_rules.h"
#include "vhost_priv.h"

/* a direct write older than this is interrupted (at the watchdog's next
 * look: a worker stops at most twice this long) */
#define VSW_CALL_WATCHDOG_MS 10
/* The slow writes' budget (see the top).  A write that wakes a vCPU takes
 * 1-5 us here, but a write is also where a KVM guest's vCPU exits for
 * the wake-up IPI, and a busy host deschedules it there now and then:
 * 0.2-4 ms, a few times per second with both CPUs busy (a rule of four
 * writes over 500 us sent a good guest to the relay within 3 s).  Such
 * stalls refill faster than they drain; a frontend that slows every
 * write does not. */
#define CALL_BASE_US 100
#define CALL_BUDGET_MS 50
#define CALL_REFILL_PCT 1
_Static_assert(VSW_CALL_RINGS == VSW_GUARD_MAX_RINGS,
	       "a call fd for every ring the guard lets through");
/* threads that may write directly (workers) */
#define CALL_SLOTS 128

/* A thread's direct write in progress: its start (TSC), 0: none. */
struct call_slot {
	uint64_t since;
	pthread_t thread;
};

static struct call_slot slots[CALL_SLOTS];
static unsigned int n_slots; /* taken; grows only (slot_lock) */
static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t watchdog_once = PTHREAD_ONCE_INIT;
static bool watchdog_ok;
static __thread struct call_slot *my_slot;
static __thread bool my_slot_tried;
/* the slow writes' base and budget, in TSC cycles (lib_init) */
static uint64_t base_cycles;
static int64_t budget_cycles;
/* test hook (VSW_TEST_CALL_STALL_US): four direct writes in a row of
 * every 8192 take this long more, as a host that deschedules the worker
 * in the write makes them (67_guest_calls) */
static unsigned int call_stall_us;
static uint64_t call_stall_n;

void vsw_vhost_call_lib_init(void)
{
	base_cycles = rte_get_tsc_hz() / 1000000 * CALL_BASE_US;
	budget_cycles = (int64_t)(rte_get_tsc_hz() / 1000 * CALL_BUDGET_MS);
	call_stall_us = vsw_test_hook_us("VSW_TEST_CALL_STALL_US",
					 "clusters of slow direct calls");
}

static int watchdog_signal(void)
{
	return SIGRTMIN + 2;
}

static void watchdog_sig_noop(int sig)
{
	(void)sig;
}

/* Every period: signal each thread whose write started a period ago or
 * more, again at each look until it returns (a signal that lands just
 * before the write would not end it). */
static void *watchdog_main(void *arg)
{
	const struct timespec period = {0, VSW_CALL_WATCHDOG_MS * 1000000L};
	uint64_t limit = rte_get_tsc_hz() * VSW_CALL_WATCHDOG_MS / 1000;

	(void)arg;
	for (;;) {
		unsigned int n = __atomic_load_n(&n_slots, __ATOMIC_ACQUIRE);
		uint64_t now;

		nanosleep(&period, NULL);
		now = rte_rdtsc();
		for (unsigned int i = 0; i < n; i++) {
			uint64_t t = __atomic_load_n(&slots[i].since,
						     __ATOMIC_ACQUIRE);

			if (t != 0 && now - t >= limit)
				pthread_kill(slots[i].thread,
					     watchdog_signal());
		}
	}
	return NULL;
}

static void watchdog_start(void)
{
	rte_cpuset_t main_cpus = rte_lcore_cpuset(rte_get_main_lcore());
	struct sigaction sa;
	pthread_attr_t a;
	pthread_t t;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = watchdog_sig_noop;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a blocked write returns EINTR */
	if (sigaction(watchdog_signal(), &sa, NULL) < 0)
		return;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &a, watchdog_main, NULL) == 0) {
		pthread_setname_np(t, "vsw-callwd");
		/* where control runs, not on the worker that started it (it
		 * would inherit that worker's CPU and wake there 100 times a
		 * second) */
		pthread_setaffinity_np(t, sizeof(main_cpus), &main_cpus);
		watchdog_ok = true;
	}
	pthread_attr_destroy(&a);
}

/* This thread's slot, taken at its first direct write; NULL: none (the
 * watchdog did not start, or every slot is taken): relay. */
static struct call_slot *slot_get(void)
{
	sigset_t ss;

	if (likely(my_slot != NULL) || my_slot_tried)
		return my_slot;
	my_slot_tried = true;
	pthread_once(&watchdog_once, watchdog_start);
	if (!watchdog_ok)
		return NULL;
	/* the watchdog's signal must reach this thread */
	sigemptyset(&ss);
	sigaddset(&ss, watchdog_signal());
	pthread_sigmask(SIG_UNBLOCK, &ss, NULL);
	pthread_mutex_lock(&slot_lock);
	if (n_slots < CALL_SLOTS) {
		my_slot = &slots[n_slots];
		my_slot->thread = pthread_self();
		__atomic_store_n(&n_slots, n_slots + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&slot_lock);
	return my_slot;
}

const char *vsw_vhost_calls_str(const struct vsw_vhost_port *vp)
{
	switch (__atomic_load_n(&vp->calls_mode, __ATOMIC_ACQUIRE)) {
	case VSW_CALLS_DIRECT:
		return "direct";
	case VSW_CALLS_RELAY:
		return "relay";
	default:
		return "relay (fell back)";
	}
}

/* For good: the port's calls go to its relay from now on. */
static void fall_back(struct vsw_vhost_port *vp, const char *why)
{
	uint8_t want = VSW_CALLS_DIRECT;

	if (!__atomic_compare_exchange_n(&vp->calls_mode, &want,
					 VSW_CALLS_FELL_BACK, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	__atomic_store_n(&vp->calls_why, why, __ATOMIC_RELEASE);
	PORT_LOG(WARNING,
		 "%s: %s; its guest's calls go through its relay thread from "
		 "now on",
		 vp->base.name, why);
}

/* A write took @cycles: take what it spent over CALL_BASE_US out of the
 * port's budget (refilled first); empty: too slow.  Rare (the common
 * write is far below the base), so a lock is fine here. */
static void account(struct vsw_vhost_port *vp, uint64_t cycles, uint64_t now)
{
	int64_t b;

	if (likely(cycles <= base_cycles))
		return;
	rte_spinlock_lock(&vp->cw_lock);
	if (vp->cw_last == 0) /* the first slow write: a full budget */
		vp->cw_budget = budget_cycles;
	else
		vp->cw_budget +=
			(int64_t)((now - vp->cw_last) / 100 * CALL_REFILL_PCT);
	vp->cw_last = now;
	b = vp->cw_budget < budget_cycles ? vp->cw_budget : budget_cycles;
	b -= (int64_t)(cycles - base_cycles);
	vp->cw_budget = b;
	rte_spinlock_unlock(&vp->cw_lock);
	if (b < 0)
		fall_back(vp, "writes to the guest's call eventfd were slow");
}

/* Worker: write @fd, under the watchdog.  False: not done (no slot, or
 * the write blocked and the port fell back). */
static bool write_direct(struct vsw_vhost_port *vp, int fd)
{
	struct call_slot *s = slot_get();
	uint64_t one = 1, t0, now;
	ssize_t rc;
	int err;

	if (unlikely(s == NULL))
		return false;
	t0 = rte_rdtsc();
	__atomic_store_n(&s->since, t0, __ATOMIC_RELEASE);
	if (unlikely(call_stall_us) &&
	    __atomic_fetch_add(&call_stall_n, 1, __ATOMIC_RELAXED) % 8192 < 4)
		rte_delay_us_sleep(call_stall_us);
	rc = write(fd, &one, sizeof(one));
	err = errno;
	__atomic_store_n(&s->since, 0, __ATOMIC_RELEASE);
	if (unlikely(rc < 0 && err == EINTR)) {
		fall_back(vp, "a write to the guest's call eventfd blocked");
		return false;
	}
	/* EAGAIN: a non-blocking eventfd at its maximum, the guest's own
	 * doing; the relay would fail the same way */
	now = rte_rdtsc();
	account(vp, now - t0, now);
	return true;
}

void vsw_vhost_call(struct vsw_vhost_port *vp, uint32_t ring, bool worker)
{
	/* the guard sizes no ring above these, so the library has no call
	 * fd there; a bit per ring in the relay */
	if (unlikely(ring >= VSW_CALL_RINGS))
		return;
	if (worker && __atomic_load_n(&vp->calls_mode, __ATOMIC_RELAXED) ==
			      VSW_CALLS_DIRECT) {
		int fd = __atomic_load_n(&vp->call_direct[ring],
					 __ATOMIC_ACQUIRE);

		if (fd >= 0 && write_direct(vp, fd)) {
			__atomic_fetch_add(&vp->n_direct_calls, 1,
					   __ATOMIC_RELAXED);
			return;
		}
	}
	vsw_call_relay_force(vp->call_relay, ring);
	__atomic_fetch_add(&vp->n_relayed_calls, 1, __ATOMIC_RELAXED);
}

/* Is @fd an eventfd?  A file's type is fixed: the frontend cannot change
 * it after we looked. */
static bool is_eventfd(int fd)
{
	char path[64], link[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return false;
	link[n] = '\0';
	return strcmp(link, "anon_inode:[eventfd]") == 0;
}

void vsw_vhost_call_set(struct vsw_vhost_port *vp, uint32_t ring, int guest_fd)
{
	int fd = -1, old;

	if (ring >= VSW_CALL_RINGS)
		return;
	if (guest_fd >= 0 && is_eventfd(guest_fd))
		fd = fcntl(guest_fd, F_DUPFD_CLOEXEC, 0);
	old = __atomic_exchange_n(&vp->call_direct[ring], fd, __ATOMIC_ACQ_REL);
	if (old >= 0)
		close(old);
}

void vsw_vhost_call_init(struct vsw_vhost_port *vp, bool direct)
{
	vp->calls_mode = direct ? VSW_CALLS_DIRECT : VSW_CALLS_RELAY;
	rte_spinlock_init(&vp->cw_lock);
	for (unsigned int i = 0; i < VSW_CALL_RINGS; i++)
		vp->call_direct[i] = -1;
}

void vsw_vhost_call_drop(struct vsw_vhost_port *vp)
{
	for (unsigned int i = 0; i < VSW_CALL_RINGS; i++)
		vsw_vhost_call_set(vp, i, -1);
}

/* Control (`set guest-calls`): a port that fell back stays on its relay. */
void vsw_vhost_set_guest_calls(struct vsw_port *p, bool direct)
{
	struct vsw_vhost_port *vp = vhost_cast(p);
	uint8_t want = direct ? VSW_CALLS_RELAY : VSW_CALLS_DIRECT;

	__atomic_compare_exchange_n(&vp->calls_mode, &want,
				    direct ? VSW_CALLS_DIRECT : VSW_CALLS_RELAY,
				    false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}
