/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The datapath table and its publication.
 *
 * Control builds a complete new table (ports by id, flood list, the rx
 * queues of every worker, the worker parameters, each port's frame limits,
 * allowed MACs and IPs, storm limits, VLANs), publishes it with a release
 * store and waits two grace periods (the table rule in datapath/table.h):
 * after the first every worker has seen the new pointer; after the second
 * every worker has finished the iteration that flushed what it buffered
 * under the old table through the old table.  Only then is the old table
 * freed, and only then may the caller destroy a port the new table dropped
 * or give a parked queue to another worker.  Who polls each rx queue is
 * control state (rxq_owner): a queue still unassigned goes to the worker
 * the config pins it to, else to the least loaded worker; a parked queue
 * is polled by nobody (the middle step of a move).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>

#include "control.h"
#include "datapath/vlan.h"
#include "common/debug.h"
#include "datapath/frame.h"
#include "datapath/portsec.h"

/* Wait until every worker has passed a quiescent state. Control only. */
void vsw_quiesce(struct vsw_rt *rt)
{
	if (rt->qs != NULL)
		rte_rcu_qsbr_synchronize(rt->qs, RTE_QSBR_THRID_INVALID);
}

int vsw_worker_of_lcore(const struct vsw_ctl *ctl, unsigned int lcore)
{
	for (unsigned int i = 0; i < ctl->rt->n_workers; i++)
		if (ctl->rt->workers[i]->lcore == lcore)
			return (int)i;
	return -1;
}

static int least_loaded(const struct vsw_table *dp, unsigned int n_workers)
{
	unsigned int best = 0;

	for (unsigned int i = 1; i < n_workers; i++)
		if (dp->wk[i].n < dp->wk[best].n)
			best = i;
	return (int)best;
}

/* Pass 1: queues that already have an owner. */
static int place_owned(struct vsw_ctl *ctl, struct vsw_table *dp,
		       const struct vsw_port *p, char *err, size_t errlen)
{
	for (uint16_t q = 0; q < p->n_rxq; q++) {
		int w = ctl->rxq_owner[p->id][q];

		if (w < 0)
			continue;
		if (dp->wk[w].n >= VSW_MAX_WORKER_RXQ) {
			snprintf(err, errlen, "too many rx queues on worker %d",
				 w);
			return -ENOSPC;
		}
		dp->wk[w].rxq[dp->wk[w].n++] =
			(struct vsw_rxq_ref){.port = p->id, .q = q};
	}
	return 0;
}

/* Pass 2: give unassigned queues an owner (pinned, else least loaded). */
static int place_new(struct vsw_ctl *ctl, struct vsw_table *dp,
		     const struct vsw_port *p, char *err, size_t errlen)
{
	for (uint16_t q = 0; q < p->n_rxq; q++) {
		int w;

		if (ctl->rxq_owner[p->id][q] != VSW_RXQ_UNASSIGNED)
			continue;
		if (p->conf.n_lcores > 0)
			w = vsw_worker_of_lcore(
				ctl, p->conf.lcores[q % p->conf.n_lcores]);
		else
			w = least_loaded(dp, ctl->rt->n_workers);
		if (w < 0) {
			snprintf(err, errlen,
				 "port %s: queue %u pinned to "
				 "lcore %u, which is not a worker",
				 p->name, q,
				 p->conf.lcores[q % p->conf.n_lcores]);
			return -EINVAL;
		}
		if (dp->wk[w].n >= VSW_MAX_WORKER_RXQ) {
			snprintf(err, errlen, "too many rx queues on worker %d",
				 w);
			return -ENOSPC;
		}
		ctl->rxq_owner[p->id][q] = (int8_t)w;
		dp->wk[w].rxq[dp->wk[w].n++] =
			(struct vsw_rxq_ref){.port = p->id, .q = q};
	}
	return 0;
}

/*
 * Storm limits: each worker that polls some rx queue of a port gets an
 * equal share of its limits (the buckets are the workers' own), so the
 * port never sends more than a limit in all.
 */
static void fill_storm(struct vsw_table *dp, const struct vsw_ctl *ctl)
{
	uint64_t hz = rte_get_tsc_hz();

	for (uint16_t id = 0; id < VSW_MAX_PORTS; id++) {
		const struct vsw_port *p = ctl->ports[id];
		struct vsw_table_port *pp = &dp->pp[id];
		unsigned int share = 0;

		if (p == NULL)
			continue;
		for (unsigned int w = 0; w < ctl->rt->n_workers; w++)
			for (uint16_t i = 0; i < dp->wk[w].n; i++)
				if (dp->wk[w].rxq[i].port == id) {
					share++;
					break;
				}
		pp->storm_cls[VSW_FRAME_UNICAST] =
			vsw_storm_params(p->conf.storm_unknown_pps, share, hz);
		pp->storm_cls[VSW_FRAME_BROADCAST] =
			vsw_storm_params(p->conf.storm_bcast_pps, share, hz);
		pp->storm_cls[VSW_FRAME_MULTICAST] =
			vsw_storm_params(p->conf.storm_mcast_pps, share, hz);
		pp->storm = p->conf.storm_unknown_pps != 0 ||
			    p->conf.storm_bcast_pps != 0 ||
			    p->conf.storm_mcast_pps != 0;
	}
}

/* Frame limits and allowed MACs of every port; fast_len fits them all. */
static void fill_ports(const struct vsw_ctl *ctl, struct vsw_table *dp)
{
	uint32_t room =
		rte_pktmbuf_data_room_size(ctl->rt->mp) - RTE_PKTMBUF_HEADROOM;

	dp->fast_len = UINT32_MAX;
	for (uint16_t id = 0; id < VSW_MAX_PORTS; id++) {
		const struct vsw_port *p = ctl->ports[id];
		struct vsw_table_port *pp = &dp->pp[id];

		if (p == NULL)
			continue;
		pp->max_frame = p->conf.mtu + VSW_FRAME_OVERHEAD;
		pp->tx_chains = p->tx_chains;
		pp->n_allowed = (uint8_t)p->conf.n_allowed;
		for (unsigned int i = 0; i < p->conf.n_allowed; i++)
			pp->allowed[i] = vsw_fdb_key(p->conf.allowed[i], 0) &
					 VSW_FDB_MAC_MASK;
		vsw_portsec_fill_ips(&pp->sec, &p->conf);
		pp->check_ips = p->conf.n_ips > 0;
		pp->guard = pp->n_allowed > 0 || pp->check_ips;
		if (pp->max_frame < dp->fast_len)
			dp->fast_len = pp->max_frame;
		if (!pp->tx_chains && room < dp->fast_len)
			dp->fast_len = room;
	}
}

/*
 * The VLANs of every port (datapath/vlan.h): what its untagged frames
 * are, which VLAN it sends untagged, and the ports of each VLAN.  A table
 * where no port has a VLAN setting keeps the plain path (vlans false).
 */
static void fill_vlans(const struct vsw_ctl *ctl, struct vsw_table *dp)
{
	for (uint16_t id = 0; id < VSW_MAX_PORTS; id++)
		if (ctl->ports[id] != NULL)
			vsw_vlan_fill_port(dp, id, &ctl->ports[id]->conf);
}

static void fill_params(const struct vsw_ctl *ctl, struct vsw_params *par)
{
	const struct vsw_switch_conf *c = &ctl->cfg.sw;
	uint64_t hz = rte_get_tsc_hz();

	par->burst = (uint16_t)c->burst;
	par->tx_retries = (uint16_t)c->tx_retries;
	par->poll_mode = c->poll_mode;
	par->flush_tsc = hz * c->tx_flush_interval_us / 1000000;
	par->idle_tsc = hz * c->idle_threshold_us / 1000000;
	par->max_sleep_us = c->max_sleep_us;
}

/* Build a table from the control state and publish it; free the old one. */
int vsw_table_publish(struct vsw_ctl *ctl, char *err, size_t errlen)
{
	struct vsw_table *dp, *old;
	int rc = 0;

	dp = rte_zmalloc("vsw_table", sizeof(*dp), RTE_CACHE_LINE_SIZE);
	if (dp == NULL) {
		snprintf(err, errlen, "out of memory for the datapath table");
		return -ENOMEM;
	}
	fill_params(ctl, &dp->par);
	fill_ports(ctl, dp);
	fill_vlans(ctl, dp);
	for (uint16_t id = 0; id < VSW_MAX_PORTS && rc == 0; id++) {
		if (ctl->ports[id] == NULL)
			continue;
		dp->ports[id] = ctl->ports[id];
		dp->flood[dp->n_flood++] = id;
		rc = place_owned(ctl, dp, ctl->ports[id], err, errlen);
	}
	for (uint16_t id = 0; id < VSW_MAX_PORTS && rc == 0; id++)
		if (ctl->ports[id] != NULL)
			rc = place_new(ctl, dp, ctl->ports[id], err, errlen);
	if (rc < 0) {
		rte_free(dp);
		return rc;
	}
	fill_storm(dp, ctl);
	old = ctl->rt->table;
	__atomic_store_n(&ctl->rt->table, dp, __ATOMIC_RELEASE);
	if (old != NULL) {
		vsw_quiesce(ctl->rt); /* every worker has seen dp */
		vsw_quiesce(
			ctl->rt); /* ... and flushed what it held under old */
		vsw_retire(old, sizeof(*old), rte_free);
	}
	return 0;
}

void vsw_table_free(struct vsw_ctl *ctl)
{
	rte_free(ctl->rt->table);
	ctl->rt->table = NULL;
	vsw_retire_flush();
}
