/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ethdev kind's port, for the kinds built on a DPDK device (ethdev.c
 * itself, vxlan.c: a VTEP whose underlay is an ethdev).  Not the switch's.
 */
#ifndef VSW_ETHDEV_PRIV_H
#define VSW_ETHDEV_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_spinlock.h>

#include "port_priv.h"

struct vsw_eth_port {
	struct vsw_port base;
	uint16_t port_id; /* the ethdev's; UINT16_MAX until probed */
	uint16_t n_txq;	  /* tx queues configured */
	bool txq_shared;  /* fewer txqs than workers: each takes its lock */
	/* set before vsw_eth_open: the control thread sends too (vxlan:
	 * ARP), so every tx queue is taken under its lock */
	bool ctl_tx;
	/* set before vsw_eth_open: bytes the device's frames carry beyond
	 * the port's mtu (vxlan: the outer headers) */
	unsigned int mtu_extra;
	rte_spinlock_t txq_lock[VSW_MAX_QUEUES];
	/* net_af_packet: the longest frame its ring slots hold whole (0:
	 * another PMD), and its own pool when the switch's mbufs are too
	 * small for a slot (else NULL) */
	unsigned int afp_whole;
	struct rte_mempool *rx_mp;
	/* net_af_packet: the MTU is the kernel interface's, vsw never
	 * changes it, and the longest frame the PMD reports (1518) is not
	 * its limit */
	bool kernel_mtu;
};

/* Probe, configure and start the device of e->base.conf.devargs: 0, or
 * -errno with a message (the device detached again).  Sets n_rxq,
 * tx_chains, tx_offloads and up; not ops. */
int vsw_eth_open(struct vsw_eth_port *e, const struct vsw_port_env *env,
		 char *err, size_t errlen);
/* Stop, close and detach the device; free its own pool. */
void vsw_eth_close(struct vsw_eth_port *e);
/* Send on tx queue @q % n_txq (locked when shared). Worker, or control
 * with ctl_tx. */
uint16_t vsw_eth_tx(struct vsw_eth_port *e, uint16_t q, struct rte_mbuf **pkts,
		    uint16_t n);
/* The link state into `up` (the port's poll op). */
void vsw_eth_poll(struct vsw_port *p);
/* The device's MTU for port mtu @mtu (+ mtu_extra) (the set_mtu op). */
int vsw_eth_set_mtu(struct vsw_port *p, unsigned int mtu, char *err,
		    size_t errlen);

#endif
