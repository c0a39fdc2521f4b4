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
 * LOCK ORDER (test 17_vhost_lock_order).  Three kinds of locks meet here:
 *   ctl_lock  (switch; control loop and telemetry threads)
 *   reg_lock  (vhost_map.c; the vid and kick-fd life cycle of every port)
 *   the library's per-virtqueue access locks (taken inside enqueue,
 *     dequeue, enable_guest_notification...; and ALL of a device's held
 *     by the vhost-events thread while it runs vring_state_changed for
 *     SET_VRING_KICK/CALL/ENABLE, SET_MEM_TABLE, SET_FEATURES...)
 *   map_lock  (vhost_map.c; only the path -> port table)
 * Allowed order: ctl_lock -> reg_lock -> vq locks, and map_lock as a
 * leaf: nothing is taken, called or waited for while holding it.
 *   - control thread: ctl_lock, then reg_lock (upkeep, queue views,
 *     draining unpolled queues, the kick setting), then vhost APIs that
 *     take vq locks;
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
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/virtio_net.h>

#include <rte_ether.h>

#include "flow_hash.h"
#include "vhost_priv.h"

/* A guest whose frames may be longer than an mbuf (TSO, or a port mtu
 * over 1500) has them copied into big mbufs, when there are any. */
static bool wants_big(const struct vsw_vhost_port *vp, uint64_t f)
{
	const uint64_t tso = (1ULL << VIRTIO_NET_F_HOST_TSO4) |
			     (1ULL << VIRTIO_NET_F_HOST_TSO6);

	return vp->big_mp != NULL &&
	       ((f & tso) != 0 || vp->base.conf.mtu > RTE_ETHER_MTU);
}

/* What the guest takes from vsw (VSW_TXO_*), by its features. */
static uint32_t guest_tx_offloads(uint64_t f)
{
	uint32_t o = 0;

	if (!(f & (1ULL << VIRTIO_NET_F_GUEST_CSUM)))
		return 0; /* TSO without it is not valid virtio */
	o |= VSW_TXO_CSUM | VSW_TXO_IP6EXT;
	if (f & (1ULL << VIRTIO_NET_F_GUEST_TSO4))
		o |= VSW_TXO_TSO4 | VSW_TXO_IPCSUM; /* the library fills it */
	if (f & (1ULL << VIRTIO_NET_F_GUEST_TSO6))
		o |= VSW_TXO_TSO6;
	return o;
}

void vsw_vhost_wake_control(struct vsw_vhost_port *vp)
{
	if (vp->wake != NULL)
		vp->wake(vp->hook_arg);
}

static void forget_guest(struct vsw_vhost_port *vp)
{
	__atomic_store_n(&vp->rx_enabled, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&vp->guest_qp, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&vp->renotify_rings, 0, __ATOMIC_RELEASE);
	vsw_vhost_drop_pending_kickfds(vp);
}

/*
 * Library thread: one frontend per port, a second one is refused here;
 * every message of the one accepted passes vsw's guard first.  The guard
 * looks for the connection's socket outside map_lock (a leaf lock).
 *
 * A frontend that closes and connects again at once finds its old
 * connection still there: the library takes the new one from the
 * listening socket before it reads the old one's end (one poll round
 * has both).  So a connection that comes while the port's frontend has
 * closed its end of the socket is not refused but kept as the port's
 * successor (next_vid): the library tears the old one down on the same
 * thread within a round, before the successor's messages get far (its
 * first reply is still to come), and destroy_connection then makes the
 * successor the port's frontend.  A third connection, or a second one
 * while the first still holds its end, is refused.  Server ports only:
 * a client port (vsw connects) connects again only after the library
 * tore its old connection down, from its reconnect thread, which must
 * not read the guard's table of the vhost-events thread's connections
 * (vsw_vhost_guard_peer_gone); a server port's accept and every
 * teardown run on that one thread.
 */
static int new_connection(int vid)
{
	char name[VSW_PORT_NAME_MAX] = "";
	struct vsw_vhost_port *vp;
	int rc = 0, old = -1;
	bool busy;

	vsw_vhost_map_lock();
	vp = vsw_vhost_map_find(vid);
	busy = vp != NULL && (vp->conn_vid >= 0 || vp->next_vid >= 0);
	if (busy && vp->next_vid < 0 && vp->base.conf.mode == VSW_VHOST_SERVER)
		old = vp->conn_vid;
	if (vp != NULL)
		snprintf(name, sizeof(name), "%s", vp->base.name);
	vsw_vhost_map_unlock();
	if (old >= 0 && vsw_vhost_guard_peer_gone(old))
		busy = false; /* a successor */
	else
		old = -1;
	if (vp == NULL || busy || vsw_vhost_guard_attach(vid, old) < 0)
		rc = -1;
	vsw_vhost_map_lock();
	vp = rc == 0 ? vsw_vhost_map_find(vid) : NULL;
	if (vp == NULL || vp->next_vid >= 0 ||
	    (vp->conn_vid >= 0 && vp->conn_vid != old)) {
		rc = -1;
	} else if (vp->conn_vid >= 0) {
		vp->next_vid = vid;
	} else {
		vp->conn_vid = vid;
		vp->conn_tsc = rte_rdtsc();
		forget_guest(vp);
	}
	vsw_vhost_map_unlock();
	if (busy)
		PORT_LOG(WARNING,
			 "%s: refused a second vhost-user connection (vid %d): "
			 "the port has a frontend",
			 name, vid);
	else if (rc == 0 && old >= 0)
		PORT_LOG(INFO,
			 "%s: vhost-user connection (vid %d) follows vid %d, "
			 "whose frontend closed it",
			 name, vid, old);
	return rc;
}

/* The port's frontend is gone: its successor, if one came (new_connection),
 * is the frontend from now on; none while the port is being deleted. */
static void take_successor(struct vsw_vhost_port *vp)
{
	vsw_vhost_map_lock();
	if (vp->next_vid >= 0 && vp->conn_vid < 0) {
		if (!__atomic_load_n(&vp->closing, __ATOMIC_ACQUIRE)) {
			vp->conn_vid = vp->next_vid;
			vp->conn_tsc = rte_rdtsc();
			forget_guest(vp);
		}
		vp->next_vid = -1;
	}
	vsw_vhost_map_unlock();
}

static void destroy_connection(int vid)
{
	struct vsw_vhost_port *vp, *mine = NULL;

	vsw_vhost_map_lock();
	vp = vsw_vhost_map_find(vid);
	if (vp != NULL && vp->next_vid == vid)
		vp->next_vid = -1; /* a successor that left first */
	if (vp != NULL && vp->conn_vid == vid) {
		mine = vp;
		vp->conn_vid = -1;
		forget_guest(vp);
		vsw_call_relay_reset(vp->call_relay);
		/* the library reported the device destroyed first (22.11:
		 * destroy_device, which waited for the workers) or never ran
		 * it: no worker can be writing these */
		if (__atomic_load_n(&vp->vid, __ATOMIC_ACQUIRE) < 0)
			vsw_vhost_call_drop(vp);
	}
	vsw_vhost_map_unlock();
	/* (the port outlives its callbacks: unregister waits for them) */
	if (mine != NULL)
		vsw_vhost_acked_closed(mine, vid);
	vsw_vhost_guard_detach(vid);
	if (mine != NULL)
		take_successor(mine);
}

/*
 * The MTU the guest was given, 0 when none: a frontend that negotiates
 * VIRTIO_NET_F_MTU (QEMU with host_mtu=N; libvirt's <mtu size='N'/>)
 * tells the backend with VHOST_USER_NET_SET_MTU before it starts the
 * rings; librte_vhost (22.11) accepts 68..65535 and offers the feature
 * and the protocol feature, which vsw leaves on.  The value is QEMU's to
 * choose: vhost-user has no way for the backend to set it.
 */
static uint16_t guest_mtu(int vid)
{
	uint16_t mtu = 0;

	if (rte_vhost_get_mtu(vid, &mtu) < 0)
		return 0;
	return mtu;
}

static int new_device(int vid)
{
	uint64_t features = 0;
	struct vsw_vhost_port *vp;
	struct vsw_port *p;
	uint16_t nr, qp;

	pthread_mutex_lock(&vsw_vhost_reg_lock);
	vsw_vhost_map_lock();
	vp = vsw_vhost_map_find(vid);
	if (vp != NULL && (vp->conn_vid != vid || vp->vid >= 0))
		vp = NULL;
	vsw_vhost_map_unlock();
	if (vp == NULL) {
		pthread_mutex_unlock(&vsw_vhost_reg_lock);
		PORT_LOG(ERR, "vhost device %d: not the port's frontend", vid);
		return -1;
	}
	p = &vp->base;
	/* the rings the guard let the guest size: the library counts every
	 * ring up to the highest index any message named, refused or not */
	nr = rte_vhost_get_vring_num(vid);
	if (nr > vsw_vhost_guard_rings(vid))
		nr = vsw_vhost_guard_rings(vid);
	rte_vhost_get_negotiated_features(vid, &features);
	vp->touched = 0;
	/* vsw polls: the guest need not kick. Sticky across re-enable. */
	vsw_vhost_apply_kick_setting(vp, vid, nr);
	qp = nr / 2 > vp->guest_qp ? nr / 2 : vp->guest_qp;
	__atomic_store_n(&vp->guest_qp, qp, __ATOMIC_RELEASE);
	vp->nr_qp = vhost_served_qp(qp);
	__atomic_store_n(&vp->guest_mtu, guest_mtu(vid), __ATOMIC_RELAXED);
	p->tx_refuses_big = !(features & (1ULL << VIRTIO_NET_F_MRG_RXBUF));
	p->tx_offloads = p->offloads ? guest_tx_offloads(features) : 0;
	__atomic_store_n(&vp->rx_mp,
			 wants_big(vp, features) ? vp->big_mp : p->mp,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&vp->rx_mp_mtu, p->conf.mtu, __ATOMIC_RELAXED);
	vp->features = features;
	vsw_vhost_acked_connected(vp, features);
	for (uint16_t q = 0; q < vp->nr_qp; q++) {
		int fd = __atomic_exchange_n(&vp->kick_pending[q], -1,
					     __ATOMIC_ACQ_REL);

		vp->kickfd[q] = fd >= 0 ? fd : vsw_vhost_dup_kickfd(vid, q);
	}
	vp->vid = vid;
	p->connects++;
	__atomic_store_n(&p->up, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&vsw_vhost_reg_lock);
	PORT_LOG(INFO,
		 "%s: guest connected (vid %d, %u queue pairs, %s rings, "
		 "%smergeable rx buffers, mtu %u, offloads %s%s%s%s)",
		 p->name, vid, qp,
		 features & (1ULL << VIRTIO_F_RING_PACKED) ? "packed" : "split",
		 p->tx_refuses_big ? "no " : "", vp->guest_mtu,
		 p->tx_offloads ? "" : "none",
		 p->tx_offloads & VSW_TXO_CSUM ? "csum" : "",
		 p->tx_offloads & VSW_TXO_TSO4 ? " tso4" : "",
		 p->tx_offloads & VSW_TXO_TSO6 ? " tso6" : "");
	vsw_vhost_wake_control(vp);
	return 0;
}

static void destroy_device(int vid)
{
	struct vsw_vhost_port *vp;
	struct vsw_port *p;

	pthread_mutex_lock(&vsw_vhost_reg_lock);
	vp = vsw_vhost_port_of(vid);
	if (vp == NULL || vp->vid != vid) {
		pthread_mutex_unlock(&vsw_vhost_reg_lock);
		return;
	}
	p = &vp->base;
	__atomic_store_n(&p->up, false, __ATOMIC_RELEASE);
	/* No worker may still be inside rx/tx on this vid when we return. */
	if (vp->quiesce != NULL)
		vp->quiesce(vp->hook_arg);
	vsw_vhost_drop_kickfds(vp);
	vsw_vhost_drop_pending_kickfds(vp);
	__atomic_store_n(&vp->rx_enabled, 0, __ATOMIC_RELEASE);
	p->tx_refuses_big = false;
	__atomic_store_n(&p->tx_offloads, 0, __ATOMIC_RELAXED);
	/* after tx_offloads (port.h): what a worker still buffers that it
	 * left offloaded for this guest is dropped, not given to the next */
	__atomic_fetch_add(&p->conn_gen, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&vp->rx_mp, p->mp, __ATOMIC_RELAXED);
	vp->features = 0;
	__atomic_store_n(&vp->guest_mtu, 0, __ATOMIC_RELAXED);
	vp->vid = -1;
	p->disconnects++;
	pthread_mutex_unlock(&vsw_vhost_reg_lock);
	PORT_LOG(INFO, "%s: guest disconnected (vid %d)", p->name, vid);
	vsw_vhost_wake_control(vp);
}

/* Guest TX ring @qp (re)enabled: new kick fd to install, setting to apply */
static void tx_ring_enabled(struct vsw_vhost_port *vp, int vid, uint16_t qp)
{
	int fd, old;

	if (qp >= VSW_MAX_QUEUES)
		return;
	fd = vsw_vhost_dup_kickfd(vid, qp);
	old = __atomic_exchange_n(&vp->kick_pending[qp], fd, __ATOMIC_ACQ_REL);
	if (old >= 0)
		close(old); /* never installed: no worker has seen it */
	__atomic_fetch_or(&vp->renotify_rings, 1ull << (qp * 2 + VIRTIO_TXQ),
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
	struct vsw_vhost_port *vp;
	bool wake = false;

	vsw_vhost_map_lock();
	vp = vsw_vhost_map_find(vid);
	if (vp == NULL || vp->conn_vid != vid || qp >= VHOST_MAX_QP)
		goto out;
	if (enable && qp >= vp->guest_qp) {
		__atomic_store_n(&vp->guest_qp, qp + 1, __ATOMIC_RELEASE);
		wake = true;
	}
	if (qp >= VHOST_RX_ENABLED_BITS)
		goto out;
	if (queue_id % 2 == VIRTIO_RXQ && enable)
		__atomic_fetch_or(&vp->rx_enabled, 1u << qp, __ATOMIC_RELEASE);
	else if (queue_id % 2 == VIRTIO_RXQ)
		__atomic_fetch_and(&vp->rx_enabled, ~(1u << qp),
				   __ATOMIC_RELEASE);
	else if (enable) {
		tx_ring_enabled(vp, vid, qp);
		wake = true;
	}
out:
	vsw_vhost_map_unlock();
	if (wake)
		vsw_vhost_wake_control(vp);
	return 0;
}

static const struct rte_vhost_device_ops vhost_ops = {
	.new_device = new_device,
	.destroy_device = destroy_device,
	.vring_state_changed = vring_state_changed,
	.new_connection = new_connection,
	.destroy_connection = destroy_connection,
	.guest_notified = vsw_vhost_guest_notified,
};

static uint16_t vhost_rx_queues(struct vsw_port *p)
{
	uint16_t g =
		__atomic_load_n(&vhost_cast(p)->guest_qp, __ATOMIC_ACQUIRE);

	if (g == 0)
		return (uint16_t)p->n_rxq; /* no guest: keep what we had */
	return g < p->conf.queues ? g : (uint16_t)p->conf.queues;
}

/* The guest rx queues the workers feed now (vhost_tx_fed, a bit per
 * queue pair), and whether two workers feed one (*shared). */
static uint32_t tx_pairs_fed(struct vsw_vhost_port *vp, uint16_t nr,
			     bool *shared)
{
	uint32_t en = __atomic_load_n(&vp->rx_enabled, __ATOMIC_ACQUIRE);
	bool spread = __atomic_load_n(&vp->rx_spread, __ATOMIC_RELAXED);
	uint32_t fed = 0;

	*shared = false;
	for (unsigned int w = 0; w < vp->n_workers; w++) {
		uint32_t s = vhost_tx_fed((uint16_t)w, nr, en, vp->n_workers,
					  spread);

		*shared |= (fed & s) != 0;
		fed |= s;
	}
	return fed;
}

/* Control: the facts telemetry shows and upkeep needs. */
static void vhost_info(struct vsw_port *p, struct vsw_port_info *pi)
{
	struct vsw_vhost_port *vp = vhost_cast(p);
	uint16_t nr = __atomic_load_n(&vp->nr_qp, __ATOMIC_RELAXED);
	struct rte_mempool *rx = __atomic_load_n(&vp->rx_mp, __ATOMIC_RELAXED);
	uint32_t fed;

	pi->has_peer_queues = true;
	pi->peer_queues = __atomic_load_n(&vp->guest_qp, __ATOMIC_ACQUIRE);
	pi->vid = __atomic_load_n(&vp->vid, __ATOMIC_RELAXED);
	pi->peer_mtu = __atomic_load_n(&vp->guest_mtu, __ATOMIC_RELAXED);
	pi->has_features = pi->vid >= 0;
	pi->features = vp->features;
	pi->offloads_kept = __atomic_load_n(&vp->legacy, __ATOMIC_RELAXED);
	/* the guest's rx queues the workers feed (0 with no guest), and
	 * whether two feed one (more workers than pairs, or a pair the guest
	 * disabled; the library's per-queue lock serializes them) */
	fed = tx_pairs_fed(vp, nr, &pi->tx_queues_shared);
	pi->peer_rxq_fed = pi->vid >= 0 ? (uint16_t)__builtin_popcount(fed) : 0;
	pi->calls = vsw_vhost_calls_str(vp);
	pi->calls_why = __atomic_load_n(&vp->calls_why, __ATOMIC_ACQUIRE);
	pi->calls_direct =
		__atomic_load_n(&vp->n_direct_calls, __ATOMIC_RELAXED);
	pi->calls_relayed =
		__atomic_load_n(&vp->n_relayed_calls, __ATOMIC_RELAXED);
	pi->rx_pool = vp->big_mp != NULL && rx == vp->big_mp ? "big" : "port";
	for (unsigned int q = 0; q < VSW_MAX_QUEUES; q++) {
		pi->big_bursts +=
			__atomic_load_n(&vp->big_bursts[q], __ATOMIC_RELAXED);
		pi->big_short +=
			__atomic_load_n(&vp->big_short[q], __ATOMIC_RELAXED);
	}
}

/*
 * Control: the port's mtu changed (port-set) while a guest is connected:
 * the pool its frames come in follows, as its next connection would
 * choose it (big mbufs above 1500: a jumbo frame in the switch's 2 KiB
 * mbufs takes an external buffer from DPDK's heap or a chain).
 */
static void rx_pool_follow_mtu(struct vsw_vhost_port *vp)
{
	struct vsw_port *p = &vp->base;
	struct rte_mempool *mp;

	pthread_mutex_lock(&vsw_vhost_reg_lock);
	if (vp->vid >= 0) {
		mp = wants_big(vp, vp->features) ? vp->big_mp : p->mp;
		if (mp != vp->rx_mp)
			PORT_LOG(INFO,
				 "%s: mtu %u: the guest's frames now "
				 "come in %s mbufs",
				 p->name, p->conf.mtu,
				 mp == p->mp ? "the switch's" : "big");
		__atomic_store_n(&vp->rx_mp, mp, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&vp->rx_mp_mtu, p->conf.mtu, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&vsw_vhost_reg_lock);
}

/*
 * Control: a guest told an MTU above the port's sends frames vsw drops
 * (drop_oversize): say so once per guest and port mtu (upkeep runs after
 * every connect and after a port-set).
 */
static void vhost_upkeep(struct vsw_port *p)
{
	struct vsw_vhost_port *vp = vhost_cast(p);
	unsigned int g = __atomic_load_n(&vp->guest_mtu, __ATOMIC_RELAXED);
	uint64_t conn = __atomic_load_n(&p->connects, __ATOMIC_RELAXED);

	vsw_vhost_upkeep(p);
	vsw_vhost_acked_upkeep(vp);
	if (__atomic_load_n(&vp->rx_mp_mtu, __ATOMIC_RELAXED) != p->conf.mtu)
		rx_pool_follow_mtu(vp);
	if (g <= p->conf.mtu ||
	    (vp->mtu_warned == p->conf.mtu && vp->mtu_warned_conn == conn))
		return;
	vp->mtu_warned = p->conf.mtu;
	vp->mtu_warned_conn = conn;
	PORT_LOG(WARNING,
		 "%s: the guest's mtu is %u, the port's %u: its frames above "
		 "%u bytes are dropped (drop_oversize); give QEMU host_mtu=%u "
		 "or the port mtu=%u",
		 p->name, g, p->conf.mtu, p->conf.mtu + VSW_FRAME_OVERHEAD,
		 p->conf.mtu, g);
}

static void vhost_destroy(struct vsw_port *p)
{
	struct vsw_vhost_port *vp = vhost_cast(p);

	/* what unregister closes says nothing of the QEMU behind it */
	__atomic_store_n(&vp->closing, true, __ATOMIC_RELEASE);
	if (rte_vhost_driver_unregister(p->conf.path) < 0)
		PORT_LOG(WARNING, "%s: unregister %s failed", p->name,
			 p->conf.path);
	vsw_vhost_map_set(p->id, NULL);
	pthread_mutex_lock(&vsw_vhost_reg_lock);
	vsw_vhost_drop_kickfds(vp);
	vsw_vhost_drop_pending_kickfds(vp);
	pthread_mutex_unlock(&vsw_vhost_reg_lock);
	vsw_call_relay_destroy(vp->call_relay);
	vp->call_relay = NULL;
	vsw_vhost_call_drop(vp);
	PORT_LOG(INFO, "%s: removed", p->name);
}

static const struct vsw_port_ops vhost_port_ops = {
	.rx = vsw_vhost_rx,
	.tx = vsw_vhost_tx,
	.poll = NULL,
	.destroy = vhost_destroy,
	.rx_notify = vsw_vhost_rx_notify,
	.rx_drain = vsw_vhost_rx_drain,
	.queue_info = vsw_vhost_queue_info,
	.upkeep = vhost_upkeep,
	.rx_queues = vhost_rx_queues,
	.drain_unpolled = vsw_vhost_drain_unpolled,
	.set_kick_suppression = vsw_vhost_set_kick_suppression,
	.set_call_suppression = vsw_vhost_set_call_suppression,
	.set_guest_rx_spread = vsw_vhost_set_guest_rx_spread,
	.set_guest_calls = vsw_vhost_set_guest_calls,
	.info = vhost_info,
};

static int vhost_register(struct vsw_port *p, char *err, size_t errlen)
{
	const char *path = p->conf.path;
	uint64_t flags = 0;

	if (p->conf.mode == VSW_VHOST_CLIENT)
		flags |= RTE_VHOST_USER_CLIENT; /* reconnects by default */
	/* offloads: the library marks what a guest left to the host in the
	 * mbuf as DPDK defines it (RX_L4_CKSUM_NONE, RX_LRO with tso_segsz),
	 * which datapath/offload.c checks and turns into tx requests; a
	 * frame longer than an mbuf comes in one external buffer (EXTBUF),
	 * or as a chain of mbufs when none can be had */
	flags |= RTE_VHOST_USER_NET_COMPLIANT_OL_FLAGS; /* (also off: legacy) */
	if (p->offloads)
		flags |= RTE_VHOST_USER_EXTBUF_SUPPORT;
	if (rte_vhost_driver_register(path, flags) < 0) {
		snprintf(err, errlen,
			 "port %s: cannot register vhost-user "
			 "socket %s",
			 p->name, path);
		return -EIO;
	}
	if (rte_vhost_driver_disable_features(
		    path, p->offloads ? VHOST_NEVER_FEATURES
				      : VHOST_OFFLOAD_FEATURES) < 0 ||
	    rte_vhost_driver_callback_register(path, &vhost_ops) < 0) {
		rte_vhost_driver_unregister(path);
		snprintf(err, errlen, "port %s: vhost set-up failed for %s",
			 p->name, path);
		return -EIO;
	}
	return 0;
}

/* The socket's directory made, a stale socket removed (server mode). */
static int prepare_socket(struct vsw_port *p, char *err, size_t errlen)
{
	int rc;

	if (p->conf.mode != VSW_VHOST_SERVER)
		return 0;
	rc = vsw_port_make_parent_dir(p->conf.path);
	if (rc < 0) {
		snprintf(err, errlen,
			 "port %s: cannot create the "
			 "directory of %s: %s",
			 p->name, p->conf.path, strerror(-rc));
		return rc;
	}
	return vsw_port_clear_stale_socket(p->conf.path, err, errlen);
}

static void init_fields(struct vsw_vhost_port *vp,
			const struct vsw_port_env *env)
{
	vp->vid = -1;
	vp->conn_vid = -1;
	vp->next_vid = -1;
	vsw_vhost_acked_init(vp, env->run_dir);
	vp->nr_qp = 1;
	vp->n_workers = env->n_workers;
	vp->kicks_off = env->kick_suppression;
	vp->calls_forced = !env->call_suppression;
	vp->rx_spread =
		vsw_port_rx_spread_on(&vp->base.conf, env->guest_rx_spread);
	vp->flow_key = vsw_flow_key_new();
	vsw_vhost_call_init(vp, env->guest_calls_direct);
	vp->quiesce = env->quiesce;
	vp->wake = env->wake;
	vp->hook_arg = env->hook_arg;
	vp->big_mp = vp->base.offloads ? env->big_mp : NULL;
	vp->rx_mp = env->mp;
	for (unsigned int i = 0; i < VSW_MAX_QUEUES; i++) {
		vp->kickfd[i] = -1;
		vp->kick_pending[i] = -1;
	}
}

static int vhost_create(struct vsw_port *p, const struct vsw_port_env *env,
			char *err, size_t errlen)
{
	struct vsw_vhost_port *vp = vhost_cast(p);
	mode_t old_mask;
	int rc;

	init_fields(vp, env);
	rc = prepare_socket(p, err, errlen);
	if (rc < 0)
		return rc;
	vp->call_relay = vsw_call_relay_create(p->name, err, errlen);
	if (vp->call_relay == NULL)
		return -ENOMEM;
	rc = vhost_register(p, err, errlen);
	if (rc < 0) {
		vsw_call_relay_destroy(vp->call_relay);
		return rc;
	}
	p->ops = &vhost_port_ops;
	p->n_rxq = 1;	     /* more once a guest shows its queue pairs */
	p->tx_chains = true; /* the library copies every segment */
	vsw_vhost_map_set(p->id, vp);
	/* a server socket is born 0600 root:root, reachable by root alone
	 * (the umask is the process's: a file another thread creates
	 * meanwhile is at worst more private); owner, group and mode follow
	 * in vsw_port_socket_perms.  A client port creates no file. */
	old_mask = umask(0077);
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
	if (p->conf.mode == VSW_VHOST_SERVER)
		rc = vsw_port_socket_perms(&p->conf, env, err, errlen);
	if (rc < 0) {
		vhost_destroy(p);
		return rc;
	}
	PORT_LOG(INFO, "%s: vhost-user %s on %s, up to %u queue pair(s)",
		 p->name, vsw_vhost_mode_str(p->conf.mode), p->conf.path,
		 p->conf.queues);
	return 0;
}

static int vhost_lib_init(const struct vsw_port_env *env)
{
	(void)env;
	vsw_vhost_notify_init();
	vsw_vhost_call_lib_init();
	return 0;
}

/* clang-format off */
static const char *const vhost_keys[] = {
	"type", "path", "mode", "queues", "workers", "mtu", "max-macs",
	"allowed-macs", "offloads", NULL,
};
/* clang-format on */

const struct vsw_port_kind vsw_vhost_port_kind = {
	.name = "vhost-user",
	.type = VSW_PORT_VHOST,
	.size = sizeof(struct vsw_vhost_port),
	.lib_init = vhost_lib_init,
	.create = vhost_create,
	.keys = vhost_keys,
};
