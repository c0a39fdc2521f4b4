/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vhost-user ports on librte_vhost directly (not the net_vhost PMD), so
 * that vsw owns notifications, queue mapping and the device life cycle.
 *
 * Life cycle: the library's thread calls new_device when a guest's rings
 * are ready and destroy_device when it goes (disconnect, crash, reset).
 * new_device disables guest kicks on every ring (vsw polls) and publishes
 * the device with a release store of `up`.  destroy_device clears `up`
 * and then waits for every worker to pass a quiescent state before it
 * returns, so no worker is inside an enqueue or dequeue on a dead vid; in
 * 22.11 it is called without the virtqueue locks, so the wait cannot
 * deadlock.  vring_state_changed is called with every virtqueue lock held:
 * it only records a bit, it calls no locking vhost API and waits for
 * nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <linux/virtio_net.h>
#include <linux/virtio_ring.h>
#include <rte_vhost.h>

/* Virtqueue numbering of a queue pair: guest RX (we enqueue), guest TX. */
#define VIRTIO_RXQ 0
#define VIRTIO_TXQ 1

#include "port.h"
#include "port_priv.h"

/* Offloads off: frames cross guests unchanged, no partial checksums. */
#define VHOST_OFFLOAD_FEATURES                                                 \
	((1ULL << VIRTIO_NET_F_HOST_TSO4) | (1ULL << VIRTIO_NET_F_HOST_TSO6) | \
	 (1ULL << VIRTIO_NET_F_HOST_ECN) | (1ULL << VIRTIO_NET_F_HOST_UFO) |   \
	 (1ULL << VIRTIO_NET_F_CSUM) | (1ULL << VIRTIO_NET_F_GUEST_CSUM) |     \
	 (1ULL << VIRTIO_NET_F_GUEST_TSO4) |                                   \
	 (1ULL << VIRTIO_NET_F_GUEST_TSO6) |                                   \
	 (1ULL << VIRTIO_NET_F_GUEST_ECN) | (1ULL << VIRTIO_NET_F_GUEST_UFO))

/*
 * Ports by socket path, and every port's vid/kickfd life cycle; guarded by
 * reg_lock (vhost thread, control thread, telemetry). Workers never take it.
 */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vsw_port *registered[VSW_MAX_PORTS];
static void (*quiesce_fn)(void);
static const bool *kicks_allowed;

/* 0: suppress guest kicks (vsw polls), 1: leave them on (measuring). */
static int kick_setting(void)
{
	return kicks_allowed != NULL && *kicks_allowed ? 1 : 0;
}

/* The queue pair a worker is enqueuing to, for guest_notified. */
static __thread struct vsw_port *cur_port;
static __thread uint16_t cur_qp;

static struct vsw_port *find_port_locked(int vid)
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

/* Keep our own duplicate of a guest TX ring's kick eventfd. reg_lock. */
static void take_kickfd(struct vsw_port *p, int vid, uint16_t qp)
{
	struct rte_vhost_vring vr;
	int fd = -1;

	if (qp >= VSW_MAX_QUEUES)
		return;
	if (rte_vhost_get_vhost_vring(vid, qp * 2 + VIRTIO_TXQ, &vr) == 0 &&
	    vr.kickfd >= 0)
		fd = fcntl(vr.kickfd, F_DUPFD_CLOEXEC, 0);
	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	if (p->kickfd[qp] >= 0)
		close(p->kickfd[qp]); /* only when no worker can read it */
	p->kickfd[qp] = fd;
}

static void drop_kickfds(struct vsw_port *p)
{
	for (unsigned int q = 0; q < VSW_MAX_QUEUES; q++) {
		if (p->kickfd[q] >= 0)
			close(p->kickfd[q]);
		p->kickfd[q] = -1;
	}
}

static int new_device(int vid)
{
	struct vsw_port *p;
	uint16_t nr;

	pthread_mutex_lock(&reg_lock);
	p = find_port_locked(vid);
	if (p == NULL || __atomic_load_n(&p->up, __ATOMIC_ACQUIRE)) {
		pthread_mutex_unlock(&reg_lock);
		PORT_LOG(ERR, "vhost device %d: %s", vid,
			 p ? "refused, the port already has a guest"
			   : "unknown socket");
		return -1;
	}
	nr = rte_vhost_get_vring_num(vid);
	/* vsw polls: the guest need not kick. Sticky across re-enable. */
	for (uint16_t q = 0; q < nr; q++)
		rte_vhost_enable_guest_notification(vid, q, kick_setting());
	p->nr_qp = nr / 2 > 0 ? nr / 2 : 1;
	for (uint16_t qp = 0; qp < p->nr_qp; qp++)
		take_kickfd(p, vid, qp);
	p->vid = vid;
	p->connects++;
	__atomic_store_n(&p->up, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&reg_lock);
	PORT_LOG(INFO, "%s: guest connected (vid %d, %u queue pairs)", p->name,
		 vid, p->nr_qp);
	return 0;
}

static void destroy_device(int vid)
{
	struct vsw_port *p;

	pthread_mutex_lock(&reg_lock);
	p = find_port_locked(vid);
	if (p == NULL || p->vid != vid) {
		pthread_mutex_unlock(&reg_lock);
		return;
	}
	__atomic_store_n(&p->up, false, __ATOMIC_RELEASE);
	/* No worker may still be inside rx/tx on this vid when we return. */
	if (quiesce_fn != NULL)
		quiesce_fn();
	drop_kickfds(p);
	p->vid = -1;
	p->disconnects++;
	pthread_mutex_unlock(&reg_lock);
	PORT_LOG(INFO, "%s: guest disconnected (vid %d)", p->name, vid);
}

/*
 * Called with every virtqueue lock held: record, never wait, call no
 * locking vhost API (the control thread re-suppresses kicks later).
 */
static int vring_state_changed(int vid, uint16_t queue_id, int enable)
{
	struct vsw_port *p;
	uint16_t qp = queue_id / 2;
	uint32_t bit;

	pthread_mutex_lock(&reg_lock);
	p = find_port_locked(vid);
	if (p == NULL || qp >= 32) {
		pthread_mutex_unlock(&reg_lock);
		return 0;
	}
	bit = 1u << qp;
	if (queue_id % 2 == VIRTIO_RXQ && enable)
		__atomic_fetch_or(&p->rx_enabled, bit, __ATOMIC_RELEASE);
	else if (queue_id % 2 == VIRTIO_RXQ)
		__atomic_fetch_and(&p->rx_enabled, ~bit, __ATOMIC_RELEASE);
	else if (enable)
		__atomic_store_n(&p->renotify, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&reg_lock);
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
	.guest_notified = guest_notified,
};

/* Worker: caller checked `up`; the vid stays valid until it quiesces. */
static uint16_t vhost_rx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
			 uint16_t n)
{
	if (q >= p->nr_qp)
		return 0;
	return rte_vhost_dequeue_burst(p->vid, q * 2 + VIRTIO_TXQ, p->mp, pkts,
				       n);
}

/*
 * Worker: one enqueue call per flushed batch, so an interrupt-driven guest
 * gets at most one call per batch.  The library copies into guest buffers;
 * we free what it took.
 */
static uint16_t vhost_tx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
			 uint16_t n)
{
	uint32_t en = __atomic_load_n(&p->rx_enabled, __ATOMIC_ACQUIRE);
	uint16_t qp = q % p->nr_qp;
	uint16_t sent;

	if (!(en & (1u << qp)))
		qp = 0;
	cur_port = p;
	cur_qp = qp;
	sent = rte_vhost_enqueue_burst(p->vid, qp * 2 + VIRTIO_RXQ, pkts, n);
	cur_port = NULL;
	__atomic_fetch_add(&p->enqueues[qp], 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&p->enqueued[qp], sent, __ATOMIC_RELAXED);
	rte_pktmbuf_free_bulk(pkts, sent);
	return sent;
}

/* Worker (adaptive mode): let the guest kick us while we sleep. */
static int vhost_rx_notify(struct vsw_port *p, uint16_t q, bool on)
{
	if (q >= p->nr_qp || q >= VSW_MAX_QUEUES)
		return -1;
	rte_vhost_enable_guest_notification(p->vid, q * 2 + VIRTIO_TXQ,
					    on ? 1 : 0);
	return p->kickfd[q];
}

static uint64_t read_kicks(int fd)
{
	uint64_t v = 0;

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v;
}

static uint64_t vhost_rx_drain(struct vsw_port *p, uint16_t q, bool control)
{
	uint64_t n;

	if (q >= VSW_MAX_QUEUES)
		return 0;
	if (!control)
		return read_kicks(p->kickfd[q]);
	pthread_mutex_lock(&reg_lock);
	n = read_kicks(p->kickfd[q]);
	pthread_mutex_unlock(&reg_lock);
	return n;
}

static const char *intent_of(int vid, const struct rte_vhost_vring *vr)
{
	uint64_t features = 0;

	if (vr->callfd < 0)
		return "poll";
	rte_vhost_get_negotiated_features(vid, &features);
	if (features & (1ULL << VIRTIO_RING_F_EVENT_IDX))
		return "event-idx";
	if (vr->avail != NULL &&
	    (__atomic_load_n(&vr->avail->flags, __ATOMIC_RELAXED) &
	     VRING_AVAIL_F_NO_INTERRUPT))
		return "poll";
	return "interrupt";
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
	if (p->vid >= 0 && q < p->nr_qp) {
		en = __atomic_load_n(&p->rx_enabled, __ATOMIC_ACQUIRE);
		qi->present = true;
		qi->tx_enabled = (en >> q) & 1;
		qi->rx_enabled = true;
		qi->kicks_off =
			!__atomic_load_n(&p->renotify, __ATOMIC_RELAXED) &&
			!kick_setting();
		/* guest memory stays mapped while we hold reg_lock */
		if (rte_vhost_get_vhost_vring(p->vid, q * 2 + VIRTIO_RXQ,
					      &vr) == 0) {
			qi->intent = intent_of(p->vid, &vr);
			qi->size = vr.size;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	return 0;
}

/* Control: re-apply the kick setting (rings enabled later, or `set`). */
static void vhost_upkeep(struct vsw_port *p)
{
	pthread_mutex_lock(&reg_lock);
	if (p->vid >= 0 &&
	    __atomic_exchange_n(&p->renotify, false, __ATOMIC_ACQ_REL)) {
		uint16_t nr = rte_vhost_get_vring_num(p->vid);

		for (uint16_t q = 0; q < nr; q++)
			rte_vhost_enable_guest_notification(p->vid, q,
							    kick_setting());
		for (uint16_t qp = 0; qp < nr / 2; qp++)
			if (p->kickfd[qp] < 0)
				take_kickfd(p, p->vid, qp);
	}
	pthread_mutex_unlock(&reg_lock);
}

static void vhost_destroy(struct vsw_port *p)
{
	if (rte_vhost_driver_unregister(p->conf.path) < 0)
		PORT_LOG(WARNING, "%s: unregister %s failed", p->name,
			 p->conf.path);
	pthread_mutex_lock(&reg_lock);
	registered[p->id] = NULL;
	drop_kickfds(p);
	pthread_mutex_unlock(&reg_lock);
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
	int rc;

	(void)env;
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
	rc = vhost_register(p, err, errlen);
	if (rc < 0)
		return rc;
	p->ops = &vhost_port_ops;
	p->n_rxq = (uint16_t)p->conf.queues;
	p->nr_qp = 1;
	pthread_mutex_lock(&reg_lock);
	registered[p->id] = p;
	pthread_mutex_unlock(&reg_lock);
	if (rte_vhost_driver_start(p->conf.path) < 0) {
		vhost_destroy(p);
		snprintf(err, errlen,
			 "port %s: cannot start vhost-user %s on "
			 "%s",
			 p->name, vsw_vhost_mode_str(p->conf.mode),
			 p->conf.path);
		return -EIO;
	}
	PORT_LOG(INFO, "%s: vhost-user %s on %s, %u queue pair(s)", p->name,
		 vsw_vhost_mode_str(p->conf.mode), p->conf.path,
		 p->conf.queues);
	return 0;
}

void vsw_vhost_lib_init(const struct vsw_port_env *env)
{
	quiesce_fn = env->quiesce;
	kicks_allowed = env->kicks_allowed;
}
