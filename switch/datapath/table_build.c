/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The datapath table from plain data: a pure function of what control
 * holds (the ports with their config, who polls each rx queue, the
 * switch's settings, the workers' lcores) and of two numbers of the
 * machine (the TSC rate, an mbuf's data room).  No EAL, no allocation, no
 * global: control/table.c publishes what it builds, and the unit tests
 * build their tables with it, so every rule below is the one the switch
 * runs.
 *
 * The rules: ports by id and a flood list of them all, in id order; each
 * port's frame limit (mtu + 18), chains, allowed MACs and IPs, storm
 * limits (each worker that polls a port gets an equal share of them: the
 * buckets are the workers' own, so the port never sends more than a
 * limit in all), VLANs; fast_len, the longest frame every port takes
 * without a per-output check; the worker parameters; and every rx queue
 * on a worker: a queue with an owner stays there, a parked one is polled
 * by nobody (the middle of a move), an unassigned one goes to the worker
 * its port pins it to (lcores), else to the least loaded.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fdb.h"
#include "frame.h"
#include "portsec.h"
#include "table.h"
#include "vlan.h"
#include "config/vsw_iter_hist.h"

int vsw_table_worker_of_lcore(const struct vsw_table_src *src,
			      unsigned int lcore)
{
	for (unsigned int i = 0; i < src->n_workers; i++)
		if (src->lcores[i] == lcore)
			return (int)i;
	return -1;
}

/*
 * The worker for a new queue of @port: the fewest queues, counting each
 * of @port's own queues a worker already polls twice, so that a port's
 * queues (a guest's queue pairs) spread over the workers where the
 * balance allows it, whatever order their ports came in.  The first such
 * worker on a tie.
 */
static int least_loaded(const struct vsw_table *t, unsigned int n_workers,
			uint16_t port)
{
	unsigned int best = 0, best_cost = UINT32_MAX;

	for (unsigned int i = 0; i < n_workers; i++) {
		unsigned int cost = t->wk[i].n;

		for (uint16_t k = 0; k < t->wk[i].n; k++)
			cost += t->wk[i].rxq[k].port == port;
		if (cost < best_cost) {
			best = i;
			best_cost = cost;
		}
	}
	return (int)best;
}

static int place(struct vsw_table *t, int w, uint16_t port, uint16_t q,
		 char *err, size_t errlen)
{
	if (t->wk[w].n >= VSW_MAX_WORKER_RXQ) {
		snprintf(err, errlen, "too many rx queues on worker %d", w);
		return -ENOSPC;
	}
	t->wk[w].rxq[t->wk[w].n++] = (struct vsw_rxq_ref){.port = port, .q = q};
	return 0;
}

/* Pass 1: queues that already have an owner. */
static int place_owned(const struct vsw_table_src *src, struct vsw_table *t,
		       const struct vsw_port *p, char *err, size_t errlen)
{
	for (uint16_t q = 0; q < p->n_rxq; q++) {
		int w = src->owner[p->id][q];

		if (w >= 0 && place(t, w, p->id, q, err, errlen) < 0)
			return -ENOSPC;
	}
	return 0;
}

/* Pass 2: give unassigned queues an owner (pinned, else least loaded). */
static int place_new(const struct vsw_table_src *src, struct vsw_table *t,
		     const struct vsw_port *p, char *err, size_t errlen)
{
	for (uint16_t q = 0; q < p->n_rxq; q++) {
		unsigned int pin = 0;
		int w;

		if (src->owner[p->id][q] != VSW_RXQ_UNASSIGNED)
			continue;
		if (p->conf.n_lcores > 0) {
			pin = p->conf.lcores[q % p->conf.n_lcores];
			w = vsw_table_worker_of_lcore(src, pin);
		} else {
			w = least_loaded(t, src->n_workers, p->id);
		}
		if (w < 0) {
			snprintf(err, errlen,
				 "port %s: queue %u pinned to lcore %u, which "
				 "is not a worker",
				 p->name, q, pin);
			return -EINVAL;
		}
		if (place(t, w, p->id, q, err, errlen) < 0)
			return -ENOSPC;
		src->owner[p->id][q] = (int8_t)w;
	}
	return 0;
}

static void fill_storm(const struct vsw_table_src *src, struct vsw_table *t)
{
	for (uint16_t id = 0; id < VSW_MAX_PORTS; id++) {
		const struct vsw_port *p = src->ports[id];
		struct vsw_table_port *pp = &t->pp[id];
		unsigned int share = 0;

		if (p == NULL)
			continue;
		for (unsigned int w = 0; w < src->n_workers; w++)
			for (uint16_t i = 0; i < t->wk[w].n; i++)
				if (t->wk[w].rxq[i].port == id) {
					share++;
					break;
				}
		pp->storm_cls[VSW_FRAME_UNICAST] = vsw_storm_params(
			p->conf.storm_unknown_pps, share, src->hz);
		pp->storm_cls[VSW_FRAME_BROADCAST] = vsw_storm_params(
			p->conf.storm_bcast_pps, share, src->hz);
		pp->storm_cls[VSW_FRAME_MULTICAST] = vsw_storm_params(
			p->conf.storm_mcast_pps, share, src->hz);
		pp->storm = p->conf.storm_unknown_pps != 0 ||
			    p->conf.storm_bcast_pps != 0 ||
			    p->conf.storm_mcast_pps != 0;
	}
}

/* Frame limits and allowed MACs of every port; fast_len fits them all. */
static void fill_ports(const struct vsw_table_src *src, struct vsw_table *t)
{
	t->fast_len = UINT32_MAX;
	t->seg_mp = src->mp;
	for (uint16_t id = 0; id < VSW_MAX_PORTS; id++) {
		const struct vsw_port *p = src->ports[id];
		struct vsw_table_port *pp = &t->pp[id];

		if (p == NULL)
			continue;
		pp->max_frame = p->conf.mtu + VSW_FRAME_OVERHEAD;
		pp->tx_chains = p->tx_chains;
		pp->endpoints = p->endpoints;
		t->endpoints |= p->endpoints;
		pp->n_allowed = (uint8_t)p->conf.n_allowed;
		for (unsigned int i = 0; i < p->conf.n_allowed; i++)
			pp->allowed[i] = vsw_fdb_key(p->conf.allowed[i], 0) &
					 VSW_FDB_MAC_MASK;
		vsw_portsec_fill_ips(&pp->sec, &p->conf);
		pp->check_ips = p->conf.n_ips > 0;
		pp->guard = pp->n_allowed > 0 || pp->check_ips;
		if (pp->max_frame < t->fast_len)
			t->fast_len = pp->max_frame;
		if (!pp->tx_chains && src->room < t->fast_len)
			t->fast_len = src->room;
		vsw_vlan_fill_port(t, id, &p->conf);
		if (src->caps != NULL && src->caps[id] != NULL) {
			struct vsw_capture *c = src->caps[id];

			pp->cap_rx = c->dir & VSW_CAPTURE_RX ? c : NULL;
			pp->cap_tx = c->dir & VSW_CAPTURE_TX ? c : NULL;
		}
	}
}

static void fill_params(const struct vsw_table_src *src, struct vsw_params *par)
{
	const struct vsw_switch_conf *c = src->sw;

	par->burst = (uint16_t)c->burst;
	par->tx_retries = (uint16_t)c->tx_retries;
	par->poll_mode = c->poll_mode;
	par->flush_tsc = src->hz * c->tx_flush_interval_us / 1000000;
	par->flush_adaptive = c->tx_flush_adaptive;
	par->hold_tsc = src->hz * c->tx_hold_us / 1000000;
	par->idle_tsc = src->hz * c->idle_threshold_us / 1000000;
	par->max_sleep_us = c->max_sleep_us;
	par->iter_us_mul = vsw_iter_us_mul(src->hz);
}

int vsw_table_build(const struct vsw_table_src *src, struct vsw_table *t,
		    char *err, size_t errlen)
{
	int rc = 0;

	memset(t, 0, sizeof(*t));
	fill_params(src, &t->par);
	fill_ports(src, t);
	for (uint16_t id = 0; id < VSW_MAX_PORTS && rc == 0; id++) {
		if (src->ports[id] == NULL)
			continue;
		t->ports[id] = src->ports[id];
		t->flood[t->n_flood++] = id;
		rc = place_owned(src, t, src->ports[id], err, errlen);
	}
	for (uint16_t id = 0; id < VSW_MAX_PORTS && rc == 0; id++)
		if (src->ports[id] != NULL)
			rc = place_new(src, t, src->ports[id], err, errlen);
	if (rc == 0)
		fill_storm(src, t);
	return rc;
}
