/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The port interface: what the switch needs from a port, and nothing of
 * ethdev or vhost.  Two kinds implement it: vhost-user (vhost*.c, on
 * librte_vhost) and ethdev (ethdev.c, any DPDK PMD).
 *
 * Threads: rx/tx are called by workers only, on queues the switch assigns
 * (an rx queue is polled by one worker; a tx queue index is per worker and
 * wraps when the port has fewer).  create/destroy/poll run on the control
 * thread.  `up` is written by the control side (vhost callbacks, link
 * polling) and read by workers with acquire ordering: when a port goes
 * down, the control side waits for a grace period (the quiesce hook)
 * before it releases anything a worker might still touch.
 *
 * Files: port.c creates and frees a port through its kind's descriptor
 * (struct vsw_port_kind, port_priv.h); kinds.c is the list of kinds;
 * util.c holds what kinds share (log type, socket files) and calls no
 * kind.  No file of this layer includes a switch header but debug.h.
 *
 * Adding a kind, e.g. a net_ring test kind (two rte_rings per port):
 *   1. port/ring.c: `struct vsw_ring_port { struct vsw_port base; ... }`,
 *      its struct vsw_port_ops (rx, tx and destroy at least), its create
 *      (fill the struct, set p->ops and p->n_rxq) and its descriptor
 *      `const struct vsw_port_kind vsw_ring_port_kind = {...}`;
 *   2. port/kinds.c: one line in the table, &vsw_ring_port_kind (with
 *      its extern declaration next to the others);
 *   3. CMakeLists.txt: port/ring.c in the vsw_port library;
 *   4. config/: the enum value (vsw_config.h), the `type` word and a
 *      VSW_KEY_* bit for its keys in the key table (keys.c, vsw_keys.h),
 *      whose key rows the descriptor's list repeats (unit_port_kinds
 *      checks that the two agree).
 * The switch needs no change: it reaches the kind only through ops.
 */
#ifndef VSW_PORT_H
#define VSW_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "config/vsw_config.h"

struct vsw_port;
struct rte_tel_data;

/* Endpoints a port with endpoints (struct vsw_port) names at most. */
#define VSW_PORT_EP_MAX 255

/* The longest frame every guest rx buffer holds: Linux posts 1518-byte
 * buffers without mergeable rx buffers, DPDK's virtio PMD ~1900. */
#define VSW_SMALL_BUF_FRAME 1518

/* What an output takes from the switch (struct vsw_port.tx_offloads). */
#define VSW_TXO_CSUM (1u << 0) /* TCP/UDP frames with the checksum to fill */
#define VSW_TXO_TSO4 (1u << 1) /* TCP/IPv4 frames of up to 64 KiB, cut by it */
#define VSW_TXO_TSO6 (1u << 2) /* the same for TCP/IPv6 */
/* An IPv4 TSO frame's header checksum filled by it (RTE_MBUF_F_TX_IP_CKSUM:
 * the library for a guest, a NIC with IPV4_CKSUM); without it (the virtio
 * and vmxnet3 PMDs: TSO, no IPv4 checksum) the datapath writes it */
#define VSW_TXO_IPCSUM (1u << 3)
/* IPv6 frames with extension headers before TCP/UDP too (a guest: the
 * checksum field keeps the sender's pseudo-header sum, the library points
 * the guest past the headers).  A NIC's driver recomputes the pseudo
 * header from the fixed header's payload length, which counts the
 * extension headers (DPDK's rte_net_intel_cksum_prepare, the virtio PMD's
 * TSO fix-up): ethdev outputs get such frames cut and filled by the
 * datapath. */
#define VSW_TXO_IP6EXT (1u << 4)

/* What a port can tell about one queue pair (telemetry). */
struct vsw_queue_info {
	bool present;	    /* the peer has this queue pair now */
	bool rx_enabled;    /* we may dequeue (guest TX ring enabled) */
	bool tx_enabled;    /* we may enqueue (guest RX ring enabled) */
	bool kicks_off;	    /* guest kicks suppressed on our rx ring */
	const char *intent; /* guest RX: "poll", "interrupt", "event-idx" */
	uint16_t size;	    /* ring size */
	uint64_t calls;	    /* interrupts (call eventfd writes) sent */
	uint64_t enqueues;  /* enqueue calls on this queue pair */
	uint64_t enqueued;  /* packets those calls took */
};

/* What a port tells about itself (telemetry, control). */
struct vsw_port_info {
	/* the peer shows queue pairs of its own (vhost: the guest's), and
	 * how many; the switch polls at most conf.queues of them */
	bool has_peer_queues;
	uint16_t peer_queues;
	int vid; /* vhost device id; -1: no guest, or another kind */
	/* the MTU the peer was given and told us (vhost: QEMU's host_mtu
	 * through VIRTIO_NET_F_MTU); 0: none told, or another kind */
	uint16_t peer_mtu;
	/* workers share a tx queue (ethdev: fewer txqs than workers,
	 * locked; vhost: fewer queue pairs than workers, which the
	 * library's per-queue lock serializes) */
	bool tx_queues_shared;
	/* vhost-user: the guest rx queues (queue pairs) the workers send
	 * into now (0: no guest) */
	uint16_t peer_rxq_fed;
	/* offloads: the port's setting (on or off), what it takes
	 * (VSW_TXO_*), and the virtio-net features its guest negotiated
	 * (vhost-user with a guest; else has_features false) */
	bool offloads;
	uint32_t tx_offloads;
	bool has_features;
	uint64_t features;
	/* vhost-user, offloads off: the offload features are offered to a
	 * running guest that acked them (port/vhost_acked.c) */
	bool offloads_kept;
	/* vhost-user: where calls to the guest go ("direct", "relay",
	 * "relay (fell back)"; NULL: another kind), why it fell back (NULL:
	 * it did not), and the calls made each way */
	const char *calls;
	const char *calls_why;
	uint64_t calls_direct;
	uint64_t calls_relayed;
	/* vhost-user: the pool the guest's frames are copied into ("big":
	 * the big mbufs, "port": the switch's; NULL: another kind), rx
	 * bursts in big mbufs, and bursts in the switch's mbufs because the
	 * big ones ran short */
	const char *rx_pool;
	uint64_t big_bursts;
	uint64_t big_short;
};

struct vsw_port_ops {
	/* Receive up to @n packets from rx queue @q. Worker. */
	uint16_t (*rx)(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
		       uint16_t n);
	/*
	 * Send up to @n packets on tx queue index @q (any value; the port
	 * maps it onto the queues it has).  Returns how many were taken;
	 * those are the port's now, the rest stay the caller's.  Worker.
	 */
	uint16_t (*tx)(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
		       uint16_t n);
	/* Control thread: refresh `up` (link state). May be NULL. */
	void (*poll)(struct vsw_port *p);
	/* Control thread: release everything; workers no longer use @p. */
	void (*destroy)(struct vsw_port *p);
	/*
	 * Adaptive polling, worker context: arm (@on) or disarm the peer's
	 * notification of new packets on rx queue @q.  Returns an fd that
	 * becomes readable when armed and packets arrive, or -1 when the
	 * queue cannot notify (the worker then sleeps a bounded time).
	 * May be NULL.
	 */
	int (*rx_notify)(struct vsw_port *p, uint16_t q, bool on);
	/*
	 * Read and reset the notifications (guest kicks) that arrived on rx
	 * queue @q; @control: caller is the control thread (takes the port
	 * layer's lock), else a worker inside its read side. May be NULL.
	 */
	uint64_t (*rx_drain)(struct vsw_port *p, uint16_t q, bool control);
	/* Control: per-queue view for telemetry. May be NULL. */
	int (*queue_info)(struct vsw_port *p, uint16_t q,
			  struct vsw_queue_info *qi);
	/* Control: periodic upkeep (re-apply kick suppression...). */
	void (*upkeep)(struct vsw_port *p);
	/*
	 * Control: how many rx queues should be polled now (vhost: the
	 * guest's queue pairs, at most conf.queues).  NULL: fixed n_rxq.
	 */
	uint16_t (*rx_queues)(struct vsw_port *p);
	/*
	 * Control: receive and free what waits on rx queues @from and up,
	 * which no worker polls (a guest with more queue pairs than
	 * conf.queues).  Returns the frames dropped.  May be NULL.
	 */
	uint64_t (*drain_unpolled)(struct vsw_port *p, uint16_t from);
	/* Control: change the MTU (0 or -errno with a message). May be NULL
	 * (the switch's frame checks suffice: vhost). */
	int (*set_mtu)(struct vsw_port *p, unsigned int mtu, char *err,
		       size_t errlen);
	/*
	 * Control: suppress (@on) or allow the peer's notifications on its
	 * rx rings from now on, every ring at once (`set kick-suppression`).
	 * May be NULL (the port has no such notifications).
	 */
	void (*set_kick_suppression)(struct vsw_port *p, bool on);
	/*
	 * Control: @on: notify the peer (interrupt) only when it asks; off:
	 * after every tx burst, asked or not (`set call-suppression`, to
	 * measure).  May be NULL.
	 */
	void (*set_call_suppression)(struct vsw_port *p, bool on);
	/*
	 * Control: @direct: workers write the peer's notification fds
	 * themselves (under a watchdog); else a thread per port does
	 * (`set guest-calls`).  May be NULL.
	 */
	void (*set_guest_calls)(struct vsw_port *p, bool direct);
	/*
	 * Control: @on: spread what the workers send to the peer over its
	 * rx queues by flow when it has more than there are workers
	 * (`set guest-rx-spread`).  May be NULL.
	 */
	void (*set_guest_rx_spread)(struct vsw_port *p, bool on);
	/* Control: the kind's facts for telemetry and queue upkeep. May be
	 * NULL (vsw_port_info_get then gives the defaults). */
	void (*info)(struct vsw_port *p, struct vsw_port_info *pi);
	/*
	 * Control: the kind's own view into the dict @d (vxlan: its VTEPs,
	 * `vswctl vteps`): 0 or -errno.  May be NULL (nothing to show).
	 */
	int (*view)(struct vsw_port *p, struct rte_tel_data *d);
	/*
	 * Control: the name of endpoint @ep (1.., as in hash.usr) of a port
	 * with endpoints (vxlan: the VTEP's address) into @buf: 0, or
	 * -ENOENT.  May be NULL.
	 */
	int (*endpoint)(struct vsw_port *p, unsigned int ep, char *buf,
			size_t len);
	/*
	 * Control, a port with endpoints whose set changes (vxlan with
	 * evpn): the endpoint (1..) of address @addr (vxlan: a VTEP's IPv4,
	 * host order), made when absent and @create; -ENOENT, -ENOSPC.  An
	 * endpoint is never taken back (its slot keeps its address): one
	 * without VNIs carries nothing.  May be NULL.
	 */
	int (*endpoint_get)(struct vsw_port *p, uint32_t addr, bool create);
	/* Control: endpoint @ep carries VNI @vni (@on) or not: what it sends
	 * is taken, what the switch floods goes to it.  0, -ENOENT. */
	int (*endpoint_vni)(struct vsw_port *p, unsigned int ep, uint32_t vni,
			    bool on);
};

/*
 * What every port has.  A kind embeds it as the first member of its own
 * struct (struct vsw_vhost_port, struct vsw_eth_port) and reaches its
 * fields with container_of; the switch sees only this.
 */
struct vsw_port {
	char name[VSW_PORT_NAME_MAX];
	uint16_t id; /* index in the switch's port table */
	enum vsw_port_type type;
	const struct vsw_port_ops *ops;
	struct vsw_port_conf conf;
	uint16_t n_rxq; /* rx queues the switch may poll */
	/* writer: control (vhost callbacks, link poll); readers: workers */
	bool up;
	/* set at create: tx takes multi-segment mbufs whole */
	bool tx_chains;
	/*
	 * set at create: the port's frames come from and go to several
	 * endpoints (vxlan: remote VTEPs).  rx names each frame's in mbuf
	 * hash.usr (index + 1, at most VSW_PORT_EP_MAX; 0: none); tx sends a
	 * frame whose hash.usr names one to that endpoint alone, one with 0
	 * to all of them (the switch sets it on every frame it gives).
	 */
	bool endpoints;
	/* the peer can never take a frame longer than VSW_SMALL_BUF_FRAME
	 * (vhost: the guest posts no mergeable rx buffers); writer: the
	 * kind before `up` is published; readers: workers after */
	bool tx_refuses_big;
	/* offloads on for this port (its key, or the switch's) */
	bool offloads;
	/* VSW_TXO_*: what tx takes (vhost: what the guest negotiated);
	 * writer: the kind before `up` is published; readers: workers */
	uint32_t tx_offloads;
	/*
	 * The peer's connection: moved (release) each time a peer that may
	 * come back with other terms goes away (vhost: a guest's
	 * disconnect), after tx_offloads is cleared.  A worker reads it
	 * (acquire) before tx_offloads, and drops at flush a frame it left
	 * offloaded for the connection before (txbuf.c): a guest that
	 * reconnects without TSO never gets a TSO frame meant for the last.
	 */
	uint32_t conn_gen;
	struct rte_mempool *mp; /* where received packets are allocated */
	uint64_t connects;	/* times the peer came up */
	uint64_t disconnects;
};

/* Hooks the switch gives the port layer. */
struct vsw_port_env {
	struct rte_mempool *mp; /* where received packets are allocated */
	/* 64 KiB mbufs for the frames of vhost guests that send TSO frames
	 * (offloads on); NULL: none */
	struct rte_mempool *big_mp;
	unsigned int n_workers; /* tx queues wanted per port */
	/* Wait until no worker can still be inside a port's rx/tx. */
	void (*quiesce)(void *hook_arg);
	/* Suppress guest kicks (the kick-suppression key; off only to
	 * measure what suppression saves).  Later changes go through
	 * ops->set_kick_suppression. */
	bool kick_suppression;
	/* Calls only when the guest asks (call-suppression; off: after every
	 * enqueue, to measure).  Later: ops->set_call_suppression. */
	bool call_suppression;
	/* Workers write guests' call eventfds (guest-calls = direct).
	 * Later: ops->set_guest_calls. */
	bool guest_calls_direct;
	/* Spread frames over a guest's rx queues by flow (the switch's
	 * guest-rx-spread; a port's own wins, vsw_port_rx_spread_on).
	 * Later: ops->set_guest_rx_spread. */
	bool guest_rx_spread;
	/* vhost-user server sockets: permission bits, owner and group ("" =
	 * unchanged); a port's own socket-* keys take precedence */
	unsigned int socket_mode;
	const char *socket_owner;
	const char *socket_group;
	/* the switch's offloads key; a port's own takes precedence */
	bool offloads;
	/* the switch's run-dir (vhost: port/vhost_acked.c's markers) */
	const char *run_dir;
	/* Ask the control loop to run now (a guest changed its queues); any
	 * thread, never blocks.  May be NULL. */
	void (*wake)(void *hook_arg);
	void *hook_arg; /* the switch's, for both hooks */
};

/* Whether a port of @conf has offloads on: its own key, else the
 * switch's (@env). */
static inline bool vsw_port_offloads_on(const struct vsw_port_conf *conf,
					const struct vsw_port_env *env)
{
	return conf->offloads == VSW_OFFLOADS_DEFAULT
		       ? env->offloads
		       : conf->offloads == VSW_OFFLOADS_ON;
}

/* guest-rx-spread for a port: its own, or the switch's (@sw). */
static inline bool vsw_port_rx_spread_on(const struct vsw_port_conf *conf,
					 bool sw)
{
	return conf->guest_rx_spread == VSW_PORT_SWITCH
		       ? sw
		       : conf->guest_rx_spread == VSW_PORT_ON;
}

/*
 * Create and start a port from its config.  Returns 0 or -errno, with a
 * message in @err (e.g. the devargs that failed to probe).  Control.
 */
int vsw_port_create(const struct vsw_port_conf *conf, uint16_t id,
		    const struct vsw_port_env *env, struct vsw_port **out,
		    char *err, size_t errlen);

/* Stop and free a port. Workers must no longer reference it. Control. */
void vsw_port_destroy(struct vsw_port *p);

/* Set-up of every kind before any port (vhost callbacks). 0 or -errno.
 * Control. */
int vsw_port_lib_init(const struct vsw_port_env *env);

static inline bool vsw_port_is_up(const struct vsw_port *p)
{
	return __atomic_load_n(&p->up, __ATOMIC_ACQUIRE);
}

/* The kind's facts about @p (the defaults when it has no info op). */
void vsw_port_info_get(struct vsw_port *p, struct vsw_port_info *pi);

/*
 * Where a copy of @m that should be one mbuf is made: @mp when one of its
 * mbufs holds @m, else @m's own pool when one of its does (a jumbo frame
 * in a big mbuf), else @mp (the copy is a chain).  The datapath's copies
 * for outputs without chained tx, a vxlan port's copy per VTEP.
 */
static inline struct rte_mempool *vsw_pool_holding(struct rte_mempool *mp,
						   const struct rte_mbuf *m)
{
	uint32_t need = m->pkt_len + RTE_PKTMBUF_HEADROOM;

	if (need <= rte_pktmbuf_data_room_size(mp) ||
	    need > rte_pktmbuf_data_room_size(m->pool))
		return mp;
	return m->pool;
}

#endif /* VSW_PORT_H */
