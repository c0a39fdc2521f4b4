/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the vhost-user kind's files:
 *   vhost.c         life cycle: library callbacks, create, destroy, the
 *                   ops table and the kind's descriptor;
 *   vhost_notify.c  guest kicks (kick fds, the kick setting), queue views;
 *   vhost_rxtx.c    the datapath (rx, tx, call counting), draining;
 *   vhost_guard.c   the message firewall (its rules: vhost_guard_rules.c,
 *                   plain C);
 *   vhost_call.c    where each guest interrupt goes: written by the
 *                   worker under a watchdog, or relayed;
 *   vhost_relay.c   the relay of guest interrupts;
 *   vhost_map.c     the path -> port table and the two locks.
 * Calls go one way: vhost.c calls the others; vhost_notify.c,
 * vhost_rxtx.c, vhost_guard.c and vhost_relay.c call only vhost_map.c
 * (the guard also the relay, vhost_call.c and its rules; vhost_rxtx.c
 * also vhost_call.c, which calls the relay), which calls none.
 * The lock order is written at the top of vhost.c.
 */
#ifndef VSW_VHOST_PRIV_H
#define VSW_VHOST_PRIV_H

#include <pthread.h>
#include <stddef.h>

#include <rte_spinlock.h>
#include <rte_vhost.h>

#include "port_priv.h"
#include "vhost_pairs.h"

/* Virtqueue numbering of a queue pair: guest RX (we enqueue), guest TX. */
#define VIRTIO_RXQ 0
#define VIRTIO_TXQ 1
#define VHOST_MAX_QP 128 /* VHOST_MAX_QUEUE_PAIRS in 22.11 */
/* width of rx_enabled (bits per queue pair) */
#define VHOST_RX_ENABLED_BITS 32

struct vsw_call_relay;

/* Where a port's calls to its guest go (vhost_call.c). */
enum {
	VSW_CALLS_DIRECT,    /* the worker writes the guest's eventfd */
	VSW_CALLS_RELAY,     /* guest-calls = relay */
	VSW_CALLS_FELL_BACK, /* relay for good: a write blocked or was slow */
};
/* rings a port may have calls for (VSW_GUARD_MAX_RINGS) */
#define VSW_CALL_RINGS 64

struct vsw_vhost_port {
	struct vsw_port base;
	/* the device we serve, -1: none; writer: vhost thread under
	 * reg_lock before `up` is set; readers: workers after, control */
	int vid;
	/* queue pairs we may use for tx (<= VSW_MAX_QUEUES); writer:
	 * vhost thread at connect, control as rings appear; readers: workers */
	uint16_t nr_qp;
	/* queue pairs the guest has shown (rings enabled), up to 128;
	 * writer: vhost thread; readers: control, workers (rx bound) */
	uint16_t guest_qp;
	/* the connection we serve (-1: none); a second one is refused at
	 * connect, but for a successor (next_vid, -1: none): one that came
	 * after conn_vid's frontend closed its end and before the library
	 * tore conn_vid down, served from that teardown on (vhost.c);
	 * writer: the library's threads under map_lock */
	int conn_vid;
	int next_vid;
	/* guest RX vrings enabled, bit per queue pair; writer: vhost thread
	 * (vring_state_changed) for conn_vid only, cleared when the guest
	 * goes; readers: workers (a stale bit only sends to queue 0 or to a
	 * ring that is about to close) */
	uint32_t rx_enabled;
	/* the switch's workers, at create, and whether their frames are
	 * spread over the guest's rx queues (guest-rx-spread; writer:
	 * control): beside nr_qp, read per burst */
	unsigned int n_workers;
	bool rx_spread;
	uint64_t flow_key; /* its flow hash's key (flow_hash.h), at create */
	/* suppress guest kicks (kick-suppression); writer: control under
	 * reg_lock; readers: vhost thread and control under reg_lock,
	 * workers (adaptive, atomic) */
	bool kicks_off;
	/* call-suppression off: a call after every enqueue, asked or not;
	 * writer: control; readers: workers (relaxed, once per burst) */
	bool calls_forced;
	/* vhost thread -> control: rings enabled since the last upkeep that
	 * need the kick setting (bit per ring), and fresh duplicates of kick
	 * eventfds to install (-1: none) */
	uint64_t renotify_rings;
	int kick_pending[VSW_MAX_QUEUES];
	/* rings the kick setting was applied to (control/new_device under
	 * reg_lock) */
	uint64_t touched;
	/* relays interrupts to the guest's call fds (vhost_guard.c) */
	struct vsw_call_relay *call_relay;
	/* calls (vhost_call.c): VSW_CALLS_*, and why it fell back (a
	 * static string; NULL: it did not); writers: control (set
	 * guest-calls), workers (fall back, once) */
	uint8_t calls_mode;
	const char *calls_why;
	/* per ring, our duplicate of the guest's call eventfd that workers
	 * write (-1: none, or not an eventfd); writer: vhost thread with
	 * every virtqueue lock held (SET_VRING_CALL), destroy; readers:
	 * workers in guest_notified, under that ring's lock */
	int call_direct[VSW_CALL_RINGS];
	/* calls made each way (workers) */
	uint64_t n_direct_calls, n_relayed_calls;
	/* the slow direct writes' budget, cycles, and when it was last
	 * refilled (0: never); under cw_lock (workers, rarely) */
	rte_spinlock_t cw_lock;
	int64_t cw_budget;
	uint64_t cw_last;
	/* the MTU the guest's device model gave it and told us
	 * (VHOST_USER_NET_SET_MTU: QEMU's host_mtu), 0: none; writer: vhost
	 * thread at connect; reader: control (upkeep warns when it is above
	 * the port's mtu), telemetry */
	uint16_t guest_mtu;
	uint64_t features; /* negotiated; 0: no guest (telemetry) */
	/* the port mtu and guest connection last warned about (control) */
	unsigned int mtu_warned;
	uint64_t mtu_warned_conn;
	/*
	 * offloads = off under a running guest that had them
	 * (vhost_acked.c): conn_tsc, when the frontend
	 * connected (vhost thread); legacy_want, what destroy_connection
	 * asks of control: 1 offer the offload features, 0 stop, -1
	 * nothing; legacy, whether they are offered now (control).
	 */
	uint64_t conn_tsc;
	int legacy_want;
	bool legacy;
	/* the marker <run-dir>/offloads-acked/<port> ("": none) and what
	 * it says: the last guest on this socket acked offloads and its
	 * QEMU may still run (acked_before, read by the library thread);
	 * acked_note, what the library thread asks of control: 1 write
	 * it, 0 remove it, -1 nothing; closing: vsw itself closes the
	 * socket (port-del, exit), which says nothing of the QEMU */
	char acked_file[VSW_PATH_MAX];
	bool acked_before;
	int acked_note;
	bool closing;
	/* the switch's hooks: wait for a grace period; wake the control loop
	 * (may be NULL) */
	void (*quiesce)(void *hook_arg);
	void (*wake)(void *hook_arg);
	void *hook_arg;
	/* our duplicates of the guest TX rings' kick eventfds, -1 when none;
	 * writer: vhost thread under reg_lock (closed only after a grace
	 * period); readers: workers, control */
	int kickfd[VSW_MAX_QUEUES];
	/* the big mbufs (env->big_mp when offloads are on, else NULL), and
	 * the pool the guest's frames are copied into: big_mp when it
	 * negotiated HOST_TSO4/6 or the port's mtu is over 1500, else the
	 * port's mp; writers: vhost thread before `up` is published and
	 * after the quiesce, control (upkeep) when the port's mtu changed
	 * under a connected guest, both under reg_lock; readers: workers
	 * (either pool is valid: only where the next burst goes changes) */
	struct rte_mempool *big_mp;
	struct rte_mempool *rx_mp;
	unsigned int rx_mp_mtu; /* the port mtu rx_mp was chosen for */
	/* per queue pair, written by workers (atomic adds) */
	uint64_t big_bursts[VSW_MAX_QUEUES]; /* rx bursts in big mbufs */
	/* rx bursts in the port's mbufs because big_mp ran short */
	uint64_t big_short[VSW_MAX_QUEUES];
	uint64_t calls[VSW_MAX_QUEUES];
	uint64_t enqueues[VSW_MAX_QUEUES];
	uint64_t enqueued[VSW_MAX_QUEUES];
};

static inline struct vsw_vhost_port *vhost_cast(struct vsw_port *p)
{
	return container_of(p, struct vsw_vhost_port, base);
}

/* Queue pairs we serve: the guest's, at most VSW_MAX_QUEUES. */
static inline uint16_t vhost_served_qp(uint16_t guest_qp)
{
	if (guest_qp == 0)
		return 1;
	return guest_qp < VSW_MAX_QUEUES ? guest_qp : VSW_MAX_QUEUES;
}

/* vhost_map.c: the path -> port table and the kind's two locks. */

/* Every port's vid and kick fds; see LOCK ORDER in vhost.c. Workers
 * never take it. */
extern pthread_mutex_t vsw_vhost_reg_lock;
/* map_lock, a leaf: nothing is taken, called or waited for under it. */
void vsw_vhost_map_lock(void);
void vsw_vhost_map_unlock(void);
/* The port of the socket behind @vid, or NULL; map_lock held. */
struct vsw_vhost_port *vsw_vhost_map_find(int vid);
/* Put @vp (NULL: none) in slot @id of the table. */
void vsw_vhost_map_set(uint16_t id, struct vsw_vhost_port *vp);
/* The port of @vid's socket (vhost thread; takes only map_lock). */
struct vsw_vhost_port *vsw_vhost_port_of(int vid);

/* vhost_guard.c: the message firewall (rules: vhost_guard_rules.c). */

/* Put the firewall in front of connection @vid, made just now: finds its
 * socket (bounds its replies and reads), that of connection @beside (of
 * the same port, still open; -1: none) left out.  0 or -errno (refuse
 * it). */
int vsw_vhost_guard_attach(int vid, int beside);
/* Has the frontend of connection @vid closed its end of the socket?
 * (false when not known)  The vhost-events thread only: it reads the
 * table that thread's accepts and teardowns write. */
bool vsw_vhost_guard_peer_gone(int vid);
/* Connection @vid is gone (its socket closed). */
void vsw_vhost_guard_detach(int vid);
enum rte_vhost_msg_result vsw_vhost_guard(int vid, void *msg);
/* Rings 0..N-1 of @vid may be in use: N is one above the highest ring
 * the guard let the frontend size (vhost-events thread). */
uint16_t vsw_vhost_guard_rings(int vid);

/* vhost_relay.c: a port's interrupt relay thread. */
struct vsw_call_relay *vsw_call_relay_create(const char *port, char *err,
					     size_t errlen);
void vsw_call_relay_reset(struct vsw_call_relay *r);
void vsw_call_relay_destroy(struct vsw_call_relay *r);
/* SET_VRING_CALL: an eventfd of ours for the library, relayed to the
 * guest's @guest_fd (the relay owns it from now on); -1: refuse the
 * message (no fd left, or the relay is blocked in a guest's write with
 * too many replaced fds it has not closed yet). */
int vsw_call_relay_attach(struct vsw_call_relay *r, uint32_t ring,
			  int guest_fd);
/* The ring has no call fd any more; false: refuse (as attach). */
bool vsw_call_relay_detach(struct vsw_call_relay *r, uint32_t ring);
/* Worker or control (vhost_call.c): have the relay call ring @ring's
 * guest fd (@ring < VSW_GUARD_MAX_RINGS).  Never blocks: it writes only
 * an eventfd of the relay's own. */
void vsw_call_relay_force(struct vsw_call_relay *r, uint32_t ring);

/* vhost_call.c: where each call goes. */

/* Ring @ring of @vp wants a call: written directly (@worker: on a worker
 * inside the library, under the ring's lock) or relayed. */
void vsw_vhost_call(struct vsw_vhost_port *vp, uint32_t ring, bool worker);
/* SET_VRING_CALL (every virtqueue lock held): ring @ring's guest fd is
 * @guest_fd (-1: none); we keep a duplicate if it is an eventfd. */
void vsw_vhost_call_set(struct vsw_vhost_port *vp, uint32_t ring, int guest_fd);
void vsw_vhost_call_init(struct vsw_vhost_port *vp, bool direct);
/* Read the test hook VSW_TEST_CALL_STALL_US (lib_init). */
void vsw_vhost_call_lib_init(void);
/* Destroy: close the duplicates (the library is gone). */
void vsw_vhost_call_drop(struct vsw_vhost_port *vp);
void vsw_vhost_set_guest_calls(struct vsw_port *p, bool direct);
const char *vsw_vhost_calls_str(const struct vsw_vhost_port *vp);

/*
 * offloads = off: frames cross guests unchanged, no partial checksums, no
 * virtio-net header field that means anything (vsw 0.3's behaviour).
 */
#define VHOST_OFFLOAD_FEATURES                                                 \
	((1ULL << VIRTIO_NET_F_HOST_TSO4) | (1ULL << VIRTIO_NET_F_HOST_TSO6) | \
	 (1ULL << VIRTIO_NET_F_HOST_ECN) | (1ULL << VIRTIO_NET_F_HOST_UFO) |   \
	 (1ULL << VIRTIO_NET_F_CSUM) | (1ULL << VIRTIO_NET_F_GUEST_CSUM) |     \
	 (1ULL << VIRTIO_NET_F_GUEST_TSO4) |                                   \
	 (1ULL << VIRTIO_NET_F_GUEST_TSO6) |                                   \
	 (1ULL << VIRTIO_NET_F_GUEST_ECN) | (1ULL << VIRTIO_NET_F_GUEST_UFO) | \
	 (1ULL << VIRTIO_NET_F_GSO))
/*
 * offloads = on: CSUM, GUEST_CSUM, HOST_TSO4/6 and GUEST_TSO4/6 offered;
 * never ECN or UFO (a guest that got them must renegotiate when a later
 * host lacks them, and UFO is gone from Linux), nor the legacy GSO bit.
 */
#define VHOST_NEVER_FEATURES                                                   \
	((1ULL << VIRTIO_NET_F_HOST_ECN) | (1ULL << VIRTIO_NET_F_HOST_UFO) |   \
	 (1ULL << VIRTIO_NET_F_GUEST_ECN) | (1ULL << VIRTIO_NET_F_GUEST_UFO) | \
	 (1ULL << VIRTIO_NET_F_GSO))

/* Ask the control loop to run now (the port's wake hook); any thread. */
void vsw_vhost_wake_control(struct vsw_vhost_port *vp);

/* vhost_acked.c: offloads a running guest acked (offloads turned off
 * under it); see there. */

/* Create: the marker's path under @run_dir ("" or NULL: none) and
 * whether it says that the last guest on this socket acked offloads. */
void vsw_vhost_acked_init(struct vsw_vhost_port *vp, const char *run_dir);
/* Library thread, new_device: the guest negotiated @features. */
void vsw_vhost_acked_connected(struct vsw_vhost_port *vp, uint64_t features);
/* Library thread, destroy_connection of the port's connection @vid. */
void vsw_vhost_acked_closed(struct vsw_vhost_port *vp, int vid);
/* Control (upkeep): what those asked, done. */
void vsw_vhost_acked_upkeep(struct vsw_vhost_port *vp);

/* vhost_rxtx.c: the datapath ops and the control thread's drain. */

uint16_t vsw_vhost_rx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
		      uint16_t n);
uint16_t vsw_vhost_tx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
		      uint16_t n);
uint64_t vsw_vhost_drain_unpolled(struct vsw_port *p, uint16_t from);
/* The library's guest_notified callback: the ring the thread is serving
 * wants a call (counted per queue pair for RX rings); vsw_vhost_call. */
void vsw_vhost_guest_notified(int vid);

/* vhost_notify.c: guest kicks (fds, the kick setting) and the views. */

/* Read the test hook VSW_TEST_UPKEEP_DELAY_US (lib_init). */
void vsw_vhost_notify_init(void);
/* A private non-blocking duplicate of guest TX ring @qp's kick fd, or
 * -1; where that fd cannot change under us (see vhost_notify.c). */
int vsw_vhost_dup_kickfd(int vid, uint16_t qp);
/* Close the kick fds installed / not yet installed. */
void vsw_vhost_drop_kickfds(struct vsw_vhost_port *vp);
void vsw_vhost_drop_pending_kickfds(struct vsw_vhost_port *vp);
/* Apply the port's kick setting to rings 0..@nr-1 of @vid; reg_lock. */
void vsw_vhost_apply_kick_setting(struct vsw_vhost_port *vp, int vid,
				  uint16_t nr);
int vsw_vhost_rx_notify(struct vsw_port *p, uint16_t q, bool on);
uint64_t vsw_vhost_rx_drain(struct vsw_port *p, uint16_t q, bool control);
int vsw_vhost_queue_info(struct vsw_port *p, uint16_t q,
			 struct vsw_queue_info *qi);
void vsw_vhost_upkeep(struct vsw_port *p);
void vsw_vhost_set_kick_suppression(struct vsw_port *p, bool on);
void vsw_vhost_set_call_suppression(struct vsw_port *p, bool on);
void vsw_vhost_set_guest_rx_spread(struct vsw_port *p, bool on);

#endif
