/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The port interface: what the switch needs from a port, and nothing of
 * ethdev or vhost.  Two kinds implement it (ethdev.c, vhost.c).
 *
 * Threads: rx/tx are called by workers only, on queues the switch assigns
 * (an rx queue is polled by one worker; a tx queue index is per worker and
 * wraps when the port has fewer).  create/destroy/poll run on the control
 * thread.  `up` is written by the control side (vhost callbacks, link
 * polling) and read by workers with acquire ordering: when a port goes
 * down, the control side waits for a grace period (the quiesce hook)
 * before it releases anything a worker might still touch.
 */
#ifndef VSW_PORT_H
#define VSW_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include "vsw_config.h"

struct vsw_port;

/* The longest frame every guest rx buffer holds: Linux posts 1518-byte
 * buffers without mergeable rx buffers, DPDK's virtio PMD ~1900. */
#define VSW_SMALL_BUF_FRAME 1518

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
	/* Control: apply the kick setting to every ring again (`set`). */
	void (*renotify)(struct vsw_port *p);
};

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
	/* vhost: the guest posts no mergeable rx buffers, so a frame longer
	 * than one buffer can never be enqueued (only frames above
	 * VSW_SMALL_BUF_FRAME are suspect); writer: vhost thread before `up`
	 * is published; readers: workers after */
	bool tx_refuses_big;
	/* writer: control before `up` is set; readers: workers after */
	int vid;
	/* vhost: queue pairs we may use for tx (<= VSW_MAX_QUEUES); writer:
	 * vhost thread at connect, control as rings appear; readers: workers */
	uint16_t nr_qp;
	/* vhost: queue pairs the guest has shown (rings enabled), up to 128;
	 * writer: vhost thread; readers: control, workers (rx bound) */
	uint16_t guest_qp;
	/* vhost: the connection we serve (-1: none); a second one is refused
	 * at connect; writer: the library's threads under the map lock */
	int conn_vid;
	/* vhost: guest RX vrings enabled, bit per queue pair; writer: vhost
	 * thread (vring_state_changed) for conn_vid only, cleared when the
	 * guest goes; readers: workers (a stale bit only sends to queue 0 or
	 * to a ring that is about to close) */
	uint32_t rx_enabled;
	/* vhost thread -> control: rings enabled since the last upkeep that
	 * need the kick setting (bit per ring), and fresh duplicates of kick
	 * eventfds to install (-1: none) */
	uint64_t renotify_rings;
	int kick_pending[VSW_MAX_QUEUES];
	/* vhost: rings the kick setting was applied to (control/new_device
	 * under the port layer's lock) */
	uint64_t touched;
	/* vhost: relays interrupts to the guest's call fds (vhost_guard.c) */
	struct vsw_call_relay *call_relay;
	uint16_t eth_port;
	uint16_t n_txq;	 /* ethdev: tx queues configured */
	bool txq_shared; /* ethdev: fewer txqs than workers: lock */
	rte_spinlock_t txq_lock[VSW_MAX_QUEUES];
	struct rte_mempool *mp;
	uint64_t connects; /* control: times the peer came up */
	uint64_t disconnects;
	/* vhost: our duplicates of the guest TX rings' kick eventfds, -1 when
	 * none; writer: vhost thread under the port layer's lock (closed
	 * only after a grace period); readers: workers, control */
	int kickfd[VSW_MAX_QUEUES];
	/* vhost: per queue pair, written by workers (atomic adds) */
	uint64_t calls[VSW_MAX_QUEUES];
	uint64_t enqueues[VSW_MAX_QUEUES];
	uint64_t enqueued[VSW_MAX_QUEUES];
};

/* Hooks the switch gives the port layer. */
struct vsw_port_env {
	struct rte_mempool *mp; /* where received packets are allocated */
	unsigned int n_workers; /* tx queues wanted per port */
	/* Wait until no worker can still be inside a port's rx/tx. */
	void (*quiesce)(void);
	/* Read at guest connect and upkeep: leave guest kicks on (for
	 * measuring what suppression saves); normally false. */
	const bool *kicks_allowed;
	/* vhost-user server sockets: permission bits and group ("" = none) */
	unsigned int socket_mode;
	const char *socket_group;
	/* Ask the control loop to run now (a guest changed its queues); any
	 * thread, never blocks.  May be NULL. */
	void (*wake)(void);
};

/*
 * Create and start a port from its config.  Returns 0 or -errno, with a
 * message in @err (e.g. the devargs that failed to probe).  Control.
 */
int vsw_port_create(const struct vsw_port_conf *conf, uint16_t id,
		    const struct vsw_port_env *env, struct vsw_port **out,
		    char *err, size_t errlen);

/* Stop and free a port. Workers must no longer reference it. Control. */
void vsw_port_destroy(struct vsw_port *p);

/*
 * Give a server socket the switch's socket-mode and socket-group (review
 * L10: the library binds with whatever the umask gives).  0 or -errno.
 */
int vsw_port_socket_perms(const struct vsw_port *p,
			  const struct vsw_port_env *env, char *err,
			  size_t errlen);

/* Library set-up before any port (vhost callbacks). Control. */
int vsw_port_lib_init(const struct vsw_port_env *env);

static inline bool vsw_port_is_up(const struct vsw_port *p)
{
	return __atomic_load_n(&p->up, __ATOMIC_ACQUIRE);
}

/* kind-specific constructors (port.c dispatches) */
int vsw_vhost_port_create(struct vsw_port *p, const struct vsw_port_env *env,
			  char *err, size_t errlen);
int vsw_ethdev_port_create(struct vsw_port *p, const struct vsw_port_env *env,
			   char *err, size_t errlen);
void vsw_vhost_lib_init(const struct vsw_port_env *env);

#endif /* VSW_PORT_H */
