/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vhost-user ports on librte_vhost directly (not the net_vhost PMD), so
 * that vsw owns notifications, queue mapping and the device life cycle.
 *
 * Life cycle: the library calls new_connection when a frontend connects
 * (a second one on a port that has a frontend is refused right there, so
 * it can neither steal the port nor touch the live guest's queues),
 * vring_state_changed as rings come and go, new_device once rings 0/1
 * are ready, destroy_device when the guest stops or goes, and
 * destroy_connection when the socket closes.  new_device publishes the
 * device with a release store of `up`; destroy_device clears it and waits
 * for every worker to pass a quiescent state before it returns, so no
 * worker is inside an enqueue or dequeue on a dead vid.  Rings a guest
 * enables after new_device (multi-queue) are reported to the control
 * thread, which polls them from then on (up to `queues`) and drains and
 * counts what arrives on any beyond (drop reason unpolled), so nothing a
 * guest sends disappears silently.
 *
 * LOCK ORDER (review H1).  Three kinds of locks meet here:
 *   ctl_lock  (switch; control loop and telemetry threads)
 *   reg_lock  (this file; the vid and kick-fd life cycle of every port)
 *   the library's per-virtqueue access locks (taken inside enqueue,
 *     dequeue, enable_guest_notification...; and ALL of a device's held
 *     by the vhost-events thread while it runs vring_state_changed for
 *     SET_VRING_KICK/CALL/ENABLE, SET_MEM_TABLE, SET_FEATURES...)
 *   map_lock  (this file; only the path -> port table)
 * Allowed order: ctl_lock -> reg_lock -> vq locks, and map_lock as a
 * leaf: nothing is taken, called or waited for while holding it.
 *   - control thread: ctl_lock, then reg_lock (upkeep, queue views,
 *     draining unpolled queues), then vhost APIs that take vq locks;
 *   - vhost-events thread in vring_state_changed / new_connection /
 *     destroy_connection: vq locks (held by the library), then map_lock
 *     only.  It never takes reg_lock there: the control thread may hold
 *     reg_lock while it spins on one of those very vq locks (that was the
 *     deadlock);
 *   - new_device / destroy_device run without vq locks (checked in
 *     22.11: vhost_user_msg_handler calls new_device after unlocking;
 *     GET_VRING_BASE and disconnects take none), so they take reg_lock
 *     and may call locking vhost APIs and wait for workers;
 *   - workers take none of ours; they hold a vq lock only inside a
 *     library call and never wait for anything while holding it;
 *   - no callback takes ctl_lock: the control thread holds it while it
 *     calls rte_vhost_driver_unregister, which waits for callbacks.
 */
#define _GNU_SOURCE /* preadv2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include <linux/virtio_net.h>
#include <linux/virtio_ring.h>
#include <rte_vhost.h>

/* Virtqueue numbering of a queue pair: guest RX (we enqueue), guest TX. */
#define VIRTIO_RXQ 0
#define VIRTIO_TXQ 1
/* the library takes at most this many packets per enqueue call */
#define VHOST_ENQ_MAX 32
#define VHOST_MAX_QP 128 /* VHOST_MAX_QUEUE_PAIRS in 22.11 */
#define DRAIN_BURST 32
#define DRAIN_CALLS 128

#include "port.h"
#include "port_priv.h"
#include "vhost_priv.h"

/* Offloads off: frames cross guests unchanged, no partial checksums. */
#define VHOST_OFFLOAD_FEATURES                                                 \
	((1ULL << VIRTIO_NET_F_HOST_TSO4) | (1ULL << VIRTIO_NET_F_HOST_TSO6) | \
	 (1ULL << VIRTIO_NET_F_HOST_ECN) | (1ULL << VIRTIO_NET_F_HOST_UFO) |   \
	 (1ULL << VIRTIO_NET_F_CSUM) | (1ULL << VIRTIO_NET_F_GUEST_CSUM) |     \
	 (1ULL << VIRTIO_NET_F_GUEST_TSO4) |                                   \
	 (1ULL << VIRTIO_NET_F_GUEST_TSO6) |                                   \
	 (1ULL << VIRTIO_NET_F_GUEST_ECN) | (1ULL << VIRTIO_NET_F_GUEST_UFO) | \
	 (1ULL << VIRTIO_NET_F_GSO))

/* The path -> port table; map_lock is a leaf (see LOCK ORDER). */
static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vsw_port *registered[VSW_MAX_PORTS];
/* Every port's vid and kick fds; see LOCK ORDER. Workers never take it. */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static void (*quiesce_fn)(void);
static void (*wake_fn)(void);
static const bool *kicks_allowed;
/* test hook (VSW_TEST_UPKEEP_DELAY_US): hold reg_lock this long in upkeep,
 * to show that a guest changing rings meanwhile cannot deadlock us */
static unsigned int upkeep_delay_us;

/* 0: suppress guest kicks (vsw polls), 1: leave them on (measuring). */
static int kick_setting(void)
{
	return kicks_allowed != NULL && *kicks_allowed ? 1 : 0;
}

static void wake_control(void)
{
	if (wake_fn != NULL)
		wake_fn();
}

/* The queue pair a worker is enqueuing to, for guest_notified. */
static __thread struct vsw_port *cur_port;
static __thread uint16_t cur_qp;

/* Port of the socket behind @vid; call with map_lock held. */
static struct vsw_port *find_port(int vid)
{
	char path[PATH_MAX];

	if (rte_vhost_get_ifname(vid, path, sizeof(path)) < 0)
		return NULL;
	for (unsigned int i = 0; i < VSW_MAX_PORTS; i++)
		if (registered[i] &&
		    strcmp(registered[i]->conf.path, path) == 0)
			return registered[i];
	return NULL;
}

static int load_fd(const int *fd)
{
	return __atomic_load_n(fd, __ATOMIC_ACQUIRE);
}

/* A non-blocking private duplicate of the kick eventfd of guest TX ring
 * @qp, or -1.  Only where that fd cannot change under us: on the vhost
 * thread (which alone replaces it), or with the device stopped. */
static int dup_kickfd(int vid, uint16_t qp)
{
	struct rte_vhost_vring vr;
	int fd = -1;

	if (rte_vhost_get_vhost_vring(vid, qp * 2 + VIRTIO_TXQ, &vr) == 0 &&
	    vr.kickfd >= 0)
		fd = fcntl(vr.kickfd, F_DUPFD_CLOEXEC, 0);
	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

/* Forget the duplicates nobody installed yet. */
static void drop_pending_kickfds(struct vsw_port *p)
{
	for (unsigned int q = 0; q < VSW_MAX_QUEUES; q++) {
		int fd = __atomic_exchange_n(&p->kick_pending[q], -1,
					     __ATOMIC_ACQ_REL);

		if (fd >= 0)
			close(fd);
	}
}

/* Close the installed duplicates; no worker may read them any more. */
static void drop_kickfds(struct vsw_port *p)
{
	for (unsigned int q = 0; q < VSW_MAX_QUEUES; q++) {
		int fd = __atomic_exchange_n(&p->kickfd[q], -1,
					     __ATOMIC_ACQ_REL);

		if (fd >= 0)
			close(fd);
	}
}

static void forget_guest(struct vsw_port *p)
{
	__atomic_store_n(&p->rx_enabled, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&p->guest_qp, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&p->renotify_rings, 0, __ATOMIC_RELEASE);
	drop_pending_kickfds(p);
}

struct vsw_port *vsw_vhost_port_of(int vid)
{
	struct vsw_port *p;

	pthread_mutex_lock(&map_lock);
	p = find_port(vid);
	pthread_mutex_unlock(&map_lock);
	return p;
}

/*
 * Library thread: one frontend per port, a second one is refused here;
 * every message of the one accepted passes vsw's guard first.
 */
static int new_connection(int vid)
{
	struct vsw_port *p;
	int rc = 0;

	pthread_mutex_lock(&map_lock);
	p = find_port(vid);
	if (p == NULL || p->conn_vid >= 0 || vsw_vhost_guard_attach(vid) < 0)
		rc = -1;
	else {
		p->conn_vid = vid;
		forget_guest(p);
	}
	pthread_mutex_unlock(&map_lock);
	if (p != NULL && rc < 0)
		PORT_LOG(WARNING,
			 "%s: refused a second vhost-user connection (vid %d): "
			 "the port has a frontend",
			 p->name, vid);
	return rc;
}

static void destroy_connection(int vid)
{
	struct vsw_port *p;

	pthread_mutex_lock(&map_lock);
	p = find_port(vid);
	if (p != NULL && p->conn_vid == vid) {
		p->conn_vid = -1;
		forget_guest(p);
		vsw_call_relay_reset(p->call_relay);
	}
	pthread_mutex_unlock(&map_lock);
}

/* Queue pairs we serve: the guest's, at most VSW_MAX_QUEUES. */
static uint16_t served_qp(uint16_t guest_qp)
{
	if (guest_qp == 0)
		return 1;
	return guest_qp < VSW_MAX_QUEUES ? guest_qp : VSW_MAX_QUEUES;
}

static void apply_kick_setting(struct vsw_port *p, int vid, uint16_t nr)
{
	for (uint16_t q = 0; q < nr && q < 64; q++) {
		rte_vhost_enable_guest_notification(vid, q, kick_setting());
		__atomic_fetch_or(&p->touched, 1ull << q, __ATOMIC_RELAXED);
	}
}

static int new_device(int vid)
{
	uint64_t features = 0;
	struct vsw_port *p;
	uint16_t nr, qp;

	pthread_mutex_lock(&reg_lock);
	pthread_mutex_lock(&map_lock);
	p = find_port(vid);
	if (p != NULL && (p->conn_vid != vid || p->vid >= 0))
		p = NULL;
	pthread_mutex_unlock(&map_lock);
	if (p == NULL) {
		pthread_mutex_unlock(&reg_lock);
		PORT_LOG(ERR, "vhost device %d: not the port's frontend", vid);
		return -1;
	}
	nr = rte_vhost_get_vring_num(vid);
	rte_vhost_get_negotiated_features(vid, &features);
	p->touched = 0;
	/* vsw polls: the guest need not kick. Sticky across re-enable. */
	apply_kick_setting(p, vid, nr);
	qp = nr / 2 > p->guest_qp ? nr / 2 : p->guest_qp;
	__atomic_store_n(&p->guest_qp, qp, __ATOMIC_RELEASE);
	p->nr_qp = served_qp(qp);
	p->tx_refuses_big = !(features & (1ULL << VIRTIO_NET_F_MRG_RXBUF));
	for (uint16_t q = 0; q < p->nr_qp; q++) {
		int fd = __atomic_exchange_n(&p->kick_pending[q], -1,
					     __ATOMIC_ACQ_REL);

		p->kickfd[q] = fd >= 0 ? fd : dup_kickfd(vid, q);
	}
	p->vid = vid;
	p->connects++;
	__atomic_store_n(&p->up, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&reg_lock);
	PORT_LOG(INFO,
		 "%s: guest connected (vid %d, %u queue pairs, %smergeable rx "
		 "buffers)",
		 p->name, vid, qp, p->tx_refuses_big ? "no " : "");
	wake_control();
	return 0;
}

static void destroy_device(int vid)
{
	struct vsw_port *p;

	pthread_mutex_lock(&reg_lock);
	pthread_mutex_lock(&map_lock);
	p = find_port(vid);
	pthread_mutex_unlock(&map_lock);
	if (p == NULL || p->vid != vid) {
		pthread_mutex_unlock(&reg_lock);
		return;
	}
	__atomic_store_n(&p->up, false, __ATOMIC_RELEASE);
	/* No worker may still be inside rx/tx on this vid when we return. */
	if (quiesce_fn != NULL)
		quiesce_fn();
	drop_kickfds(p);
	drop_pending_kickfds(p);
	__atomic_store_n(&p->rx_enabled, 0, __ATOMIC_RELEASE);
	p->tx_refuses_big = false;
	p->vid = -1;
	p->disconnects++;
	pthread_mutex_unlock(&reg_lock);
	PORT_LOG(INFO, "%s: guest disconnected (vid %d)", p->name, vid);
	wake_control();
}

/* Guest TX ring @qp (re)enabled: new kick fd to install, setting to apply */
static void tx_ring_enabled(struct vsw_port *p, int vid, uint16_t qp)
{
	int fd, old;

	if (qp >= VSW_MAX_QUEUES)
		return;
	fd = dup_kickfd(vid, qp);
	old = __atomic_exchange_n(&p->kick_pending[qp], fd, __ATOMIC_ACQ_REL);
	if (old >= 0)
		close(old); /* never installed: no worker has seen it */
	__atomic_fetch_or(&p->renotify_rings, 1ull << (qp * 2 + VIRTIO_TXQ),
			  __ATOMIC_RELEASE);
}

/*
 * Called with every virtqueue lock of the device held (see LOCK ORDER):
 * record, call no locking vhost API, take no lock but map_lock, wait for
 * nothing.  Only the port's own connection may change its state (M6).
 */
static int vring_state_changed(int vid, uint16_t queue_id, int enable)
{
	uint16_t qp = queue_id / 2;
	struct vsw_port *p;
	bool wake = false;

	pthread_mutex_lock(&map_lock);
	p = find_port(vid);
	if (p == NULL || p->conn_vid != vid || qp >= VHOST_MAX_QP)
		goto out;
	if (enable && qp >= p->guest_qp) {
		__atomic_store_n(&p->guest_qp, qp + 1, __ATOMIC_RELEASE);
		wake = true;
	}
	if (qp >= 32)
		goto out;
	if (queue_id % 2 == VIRTIO_RXQ && enable)
		__atomic_fetch_or(&p->rx_enabled, 1u << qp, __ATOMIC_RELEASE);
	else if (queue_id % 2 == VIRTIO_RXQ)
		__atomic_fetch_and(&p->rx_enabled, ~(1u << qp),
				   __ATOMIC_RELEASE);
	else if (enable) {
		tx_ring_enabled(p, vid, qp);
		wake = true;
	}
out:
	pthread_mutex_unlock(&map_lock);
	if (wake)
		wake_control();
	return 0;
}

/* From inside rte_vhost_enqueue_burst, on the worker: one call sent. */
static void guest_notified(int vid)
{
	(void)vid;
	if (cur_port != NULL)
		__atomic_fetch_add(&cur_port->calls[cur_qp], 1,
				   __ATOMIC_RELAXED);
}

static const struct rte_vhost_device_ops vhost_ops = {
	.new_device = new_device,
	.destroy_device = destroy_device,
	.vring_state_changed = vring_state_changed,
	.new_connection = new_connection,
	.destroy_connection = destroy_connection,
	.guest_notified = guest_notified,
};

/* Worker: caller checked `up`; the vid stays valid until it quiesces. */
static uint16_t vhost_rx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
			 uint16_t n)
{
	if (q >= __atomic_load_n(&p->guest_qp, __ATOMIC_RELAXED))
		return 0;
	return rte_vhost_dequeue_burst(p->vid, q * 2 + VIRTIO_TXQ, p->mp, pkts,
				       n);
}

/*
 * Worker: enqueue in calls of at most 32 packets (the library's cap,
 * review M2) until one takes fewer than offered (ring full, or a frame
 * the guest's buffers cannot hold).  With few flushes per burst an
 * interrupt-driven guest gets about one call per batch.  The library
 * copies into guest buffers; we free what it took.
 */
static uint16_t vhost_tx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
			 uint16_t n)
{
	uint32_t en = __atomic_load_n(&p->rx_enabled, __ATOMIC_ACQUIRE);
	uint16_t nr = __atomic_load_n(&p->nr_qp, __ATOMIC_RELAXED);
	uint16_t qp = nr > 0 ? q % nr : 0, sent = 0, calls = 0, k;

	if (qp >= VSW_MAX_QUEUES || !(en & (1u << qp)))
		qp = 0;
	cur_port = p;
	cur_qp = qp;
	do {
		uint16_t chunk =
			n - sent < VHOST_ENQ_MAX ? n - sent : VHOST_ENQ_MAX;

		k = rte_vhost_enqueue_burst(p->vid, qp * 2 + VIRTIO_RXQ,
					    pkts + sent, chunk);
		sent += k;
		calls++;
		if (k < chunk)
			break;
	} while (sent < n);
	cur_port = NULL;
	__atomic_fetch_add(&p->enqueues[qp], calls, __ATOMIC_RELAXED);
	__atomic_fetch_add(&p->enqueued[qp], sent, __ATOMIC_RELAXED);
	rte_pktmbuf_free_bulk(pkts, sent);
	return sent;
}

/* Worker (adaptive mode): let the guest kick us while we sleep. */
static int vhost_rx_notify(struct vsw_port *p, uint16_t q, bool on)
{
	if (q >= VSW_MAX_QUEUES || q >= p->guest_qp)
		return -1;
	rte_vhost_enable_guest_notification(p->vid, q * 2 + VIRTIO_TXQ,
					    on ? 1 : kick_setting());
	return load_fd(&p->kickfd[q]);
}

/*
 * The kicks waiting on a guest's kick fd, consumed.  RWF_NOWAIT: the
 * guest shares the file description and may clear O_NONBLOCK on it; a
 * plain read would then block vsw (hostile test kick_blocking).
 */
static uint64_t read_kicks(int fd)
{
	uint64_t v = 0;
	struct iovec iov = {&v, sizeof(v)};

	if (fd < 0 ||
	    preadv2(fd, &iov, 1, -1, RWF_NOWAIT) != (ssize_t)sizeof(v))
		return 0;
	return v;
}

static uint64_t vhost_rx_drain(struct vsw_port *p, uint16_t q, bool control)
{
	uint64_t n;

	if (q >= VSW_MAX_QUEUES)
		return 0;
	if (!control)
		return read_kicks(load_fd(&p->kickfd[q]));
	pthread_mutex_lock(&reg_lock);
	n = read_kicks(p->kickfd[q]);
	pthread_mutex_unlock(&reg_lock);
	return n;
}

/*
 * What the guest wants on its RX ring, from facts vsw owns (review L2:
 * control never reads guest memory, which SET_MEM_TABLE may unmap under
 * it): no call fd means it polls; event-idx is negotiated; otherwise the
 * interrupts it let through tell whether it polls (a PMD keeps
 * VRING_AVAIL_F_NO_INTERRUPT set) or takes interrupts.
 */
static const char *intent_of(int vid, const struct rte_vhost_vring *vr,
			     const struct vsw_queue_info *qi)
{
	uint64_t features = 0;

	if (vr->callfd < 0)
		return "poll";
	rte_vhost_get_negotiated_features(vid, &features);
	if (features & (1ULL << VIRTIO_RING_F_EVENT_IDX))
		return "event-idx";
	if (qi->enqueued == 0)
		return "unknown";
	return qi->calls > 0 ? "interrupt" : "poll";
}

static int vhost_queue_info(struct vsw_port *p, uint16_t q,
			    struct vsw_queue_info *qi)
{
	struct rte_vhost_vring vr;
	uint32_t en;

	memset(qi, 0, sizeof(*qi));
	qi->intent = "-";
	if (q >= VSW_MAX_QUEUES)
		return -EINVAL;
	qi->calls = __atomic_load_n(&p->calls[q], __ATOMIC_RELAXED);
	qi->enqueues = __atomic_load_n(&p->enqueues[q], __ATOMIC_RELAXED);
	qi->enqueued = __atomic_load_n(&p->enqueued[q], __ATOMIC_RELAXED);
	pthread_mutex_lock(&reg_lock);
	if (p->vid >= 0 && q < p->guest_qp) {
		en = __atomic_load_n(&p->rx_enabled, __ATOMIC_ACQUIRE);
		qi->present = true;
		qi->tx_enabled = (en >> q) & 1;
		qi->rx_enabled = true;
		qi->kicks_off = !kick_setting() &&
				(p->touched >> (q * 2 + VIRTIO_TXQ) & 1);
		/* copies fields of the library's struct; no guest memory */
		if (rte_vhost_get_vhost_vring(p->vid, q * 2 + VIRTIO_RXQ,
					      &vr) == 0) {
			qi->intent = intent_of(p->vid, &vr, qi);
			qi->size = vr.size;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	return 0;
}

/* Install kick fds the vhost thread duplicated; close the old ones once
 * no worker can be reading them.  reg_lock held. */
static void install_kickfds(struct vsw_port *p)
{
	int old[VSW_MAX_QUEUES];
	bool any = false;

	for (unsigned int q = 0; q < VSW_MAX_QUEUES; q++) {
		int fd = __atomic_exchange_n(&p->kick_pending[q], -1,
					     __ATOMIC_ACQ_REL);

		old[q] = -1;
		if (fd < 0)
			continue;
		old[q] = __atomic_exchange_n(&p->kickfd[q], fd,
					     __ATOMIC_ACQ_REL);
		any |= old[q] >= 0;
	}
	if (any && quiesce_fn != NULL)
		quiesce_fn();
	for (unsigned int q = 0; q < VSW_MAX_QUEUES; q++)
		if (old[q] >= 0)
			close(old[q]);
}

/*
 * Control: rings enabled after new_device never had the kick setting
 * applied (22.11 re-applies the last one itself to a ring that had one),
 * queue pairs may have appeared, kick eventfds may have been replaced.
 * Rings that already had a setting are left alone: in adaptive mode a
 * sleeping worker may have armed them (review L5).
 */
static void vhost_upkeep(struct vsw_port *p)
{
	uint64_t rings;

	pthread_mutex_lock(&reg_lock);
	if (upkeep_delay_us)
		usleep(upkeep_delay_us);
	if (p->vid < 0) {
		pthread_mutex_unlock(&reg_lock);
		return;
	}
	__atomic_store_n(&p->nr_qp, served_qp(p->guest_qp), __ATOMIC_RELEASE);
	rings = __atomic_exchange_n(&p->renotify_rings, 0, __ATOMIC_ACQ_REL);
	rings &= ~p->touched;
	for (uint16_t q = 0; rings != 0 && q < 64; q++) {
		if (!(rings & (1ull << q)))
			continue;
		rte_vhost_enable_guest_notification(p->vid, q, kick_setting());
		p->touched |= 1ull << q;
	}
	install_kickfds(p);
	pthread_mutex_unlock(&reg_lock);
}

/* Control (`set kick-suppression`): apply the setting to every ring. */
static void vhost_renotify(struct vsw_port *p)
{
	pthread_mutex_lock(&reg_lock);
	if (p->vid >= 0)
		apply_kick_setting(p, p->vid, rte_vhost_get_vring_num(p->vid));
	pthread_mutex_unlock(&reg_lock);
}

static uint16_t vhost_rx_queues(struct vsw_port *p)
{
	uint16_t g = __atomic_load_n(&p->guest_qp, __ATOMIC_ACQUIRE);

	if (g == 0)
		return (uint16_t)p->n_rxq; /* no guest: keep what we had */
	return g < p->conf.queues ? g : (uint16_t)p->conf.queues;
}

/* Control: frames on guest TX rings no worker polls, dropped and counted.
 * No worker touches these rings, so the control thread may dequeue. */
static uint64_t vhost_drain_unpolled(struct vsw_port *p, uint16_t from)
{
	struct rte_mbuf *pkts[DRAIN_BURST];
	uint64_t total = 0;
	uint16_t n;

	pthread_mutex_lock(&reg_lock);
	for (uint16_t q = from; p->vid >= 0 && q < p->guest_qp; q++) {
		/* the library hands out 32 at most per call; a bounded number
		 * of calls empties a 4096-entry ring without stalling control */
		for (int i = 0; i < DRAIN_CALLS; i++) {
			n = rte_vhost_dequeue_burst(p->vid, q * 2 + VIRTIO_TXQ,
						    p->mp, pkts, DRAIN_BURST);
			rte_pktmbuf_free_bulk(pkts, n);
			total += n;
			if (n == 0)
				break;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	return total;
}

static void vhost_destroy(struct vsw_port *p)
{
	if (rte_vhost_driver_unregister(p->conf.path) < 0)
		PORT_LOG(WARNING, "%s: unregister %s failed", p->name,
			 p->conf.path);
	pthread_mutex_lock(&map_lock);
	registered[p->id] = NULL;
	pthread_mutex_unlock(&map_lock);
	pthread_mutex_lock(&reg_lock);
	drop_kickfds(p);
	drop_pending_kickfds(p);
	pthread_mutex_unlock(&reg_lock);
	vsw_call_relay_destroy(p->call_relay);
	p->call_relay = NULL;
	PORT_LOG(INFO, "%s: removed", p->name);
}

static const struct vsw_port_ops vhost_port_ops = {
	.rx = vhost_rx,
	.tx = vhost_tx,
	.poll = NULL,
	.destroy = vhost_destroy,
	.rx_notify = vhost_rx_notify,
	.rx_drain = vhost_rx_drain,
	.queue_info = vhost_queue_info,
	.upkeep = vhost_upkeep,
	.rx_queues = vhost_rx_queues,
	.drain_unpolled = vhost_drain_unpolled,
	.renotify = vhost_renotify,
};

/* A leftover socket nobody listens on is removed; a live one is an error. */
static int clear_stale_socket(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct stat st;
	int fd, rc;

	if (lstat(path, &st) < 0)
		return 0;
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(err, errlen, "%s exists and is not a socket", path);
		return -EEXIST;
	}
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "%s: path too long for a unix socket",
			 path);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	rc = fd >= 0 ? connect(fd, (struct sockaddr *)&sa, sizeof(sa)) : -1;
	if (fd >= 0)
		close(fd);
	if (rc == 0) {
		snprintf(err, errlen,
			 "%s is in use by another process (another vsw?)",
			 path);
		return -EADDRINUSE;
	}
	unlink(path);
	return 0;
}

static int make_parent_dir(const char *path)
{
	char dir[VSW_PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return 0;
	*slash = '\0';
	for (char *c = dir + 1; *c; c++) {
		if (*c == '/') {
			*c = '\0';
			mkdir(dir, 0755);
			*c = '/';
		}
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int vhost_register(struct vsw_port *p, char *err, size_t errlen)
{
	const char *path = p->conf.path;
	uint64_t flags = 0;

	if (p->conf.mode == VSW_VHOST_CLIENT)
		flags |= RTE_VHOST_USER_CLIENT; /* reconnects by default */
	if (rte_vhost_driver_register(path, flags) < 0) {
		snprintf(err, errlen,
			 "port %s: cannot register vhost-user "
			 "socket %s",
			 p->name, path);
		return -EIO;
	}
	if (rte_vhost_driver_disable_features(path, VHOST_OFFLOAD_FEATURES) <
		    0 ||
	    rte_vhost_driver_callback_register(path, &vhost_ops) < 0) {
		rte_vhost_driver_unregister(path);
		snprintf(err, errlen, "port %s: vhost set-up failed for %s",
			 p->name, path);
		return -EIO;
	}
	return 0;
}

int vsw_vhost_port_create(struct vsw_port *p, const struct vsw_port_env *env,
			  char *err, size_t errlen)
{
	mode_t old_mask;
	int rc;

	if (p->conf.mode == VSW_VHOST_SERVER) {
		rc = make_parent_dir(p->conf.path);
		if (rc < 0) {
			snprintf(err, errlen,
				 "port %s: cannot create the "
				 "directory of %s: %s",
				 p->name, p->conf.path, strerror(-rc));
			return rc;
		}
		rc = clear_stale_socket(p->conf.path, err, errlen);
		if (rc < 0)
			return rc;
	}
	p->call_relay = vsw_call_relay_create(p->name, err, errlen);
	if (p->call_relay == NULL)
		return -ENOMEM;
	rc = vhost_register(p, err, errlen);
	if (rc < 0) {
		vsw_call_relay_destroy(p->call_relay);
		return rc;
	}
	p->ops = &vhost_port_ops;
	p->n_rxq = 1; /* more once a guest shows its queue pairs */
	p->nr_qp = 1;
	p->tx_chains = true; /* the library copies every segment */
	pthread_mutex_lock(&map_lock);
	registered[p->id] = p;
	pthread_mutex_unlock(&map_lock);
	/* the socket is born with no more than socket-mode allows (the
	 * umask is the process's: a file another thread creates meanwhile
	 * is at worst more private); group and exact mode follow */
	old_mask = umask(env->socket_mode ? ~env->socket_mode & 0777 : 0077);
	rc = rte_vhost_driver_start(p->conf.path);
	umask(old_mask);
	if (rc < 0) {
		vhost_destroy(p);
		snprintf(err, errlen,
			 "port %s: cannot start vhost-user %s on "
			 "%s",
			 p->name, vsw_vhost_mode_str(p->conf.mode),
			 p->conf.path);
		return -EIO;
	}
	rc = vsw_port_socket_perms(p, env, err, errlen);
	if (rc < 0) {
		vhost_destroy(p);
		return rc;
	}
	PORT_LOG(INFO, "%s: vhost-user %s on %s, up to %u queue pair(s)",
		 p->name, vsw_vhost_mode_str(p->conf.mode), p->conf.path,
		 p->conf.queues);
	return 0;
}

void vsw_vhost_lib_init(const struct vsw_port_env *env)
{
	const char *d = getenv("VSW_TEST_UPKEEP_DELAY_US");

	quiesce_fn = env->quiesce;
	wake_fn = env->wake;
	kicks_allowed = env->kicks_allowed;
	upkeep_delay_us = d != NULL ? (unsigned int)strtoul(d, NULL, 10) : 0;
	if (upkeep_delay_us)
		PORT_LOG(WARNING, "test hook: upkeep holds its lock %u us",
			 upkeep_delay_us);
}
