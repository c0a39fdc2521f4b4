/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The operations behind the mutating control commands.
 *
 * Every function here runs with ctl_lock held, on a telemetry thread or
 * the control loop, and changes the switch only by editing control state
 * and publishing a new datapath table (vsw_dp_build, which waits for the
 * grace period).  None writes worker state: counters are "cleared" by
 * recording a base that readers subtract.  Moving an rx queue takes two
 * publications (parked, then on the new worker), so two workers never
 * poll one queue and a flow is never reordered across the move.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsw.h"

struct vsw_port *vsw_ctl_port_by_name(const struct vsw_switch *sw,
				      const char *name)
{
	for (int i = 0; name != NULL && i < VSW_MAX_PORTS; i++)
		if (sw->ports[i] != NULL &&
		    strcmp(sw->ports[i]->name, name) == 0)
			return sw->ports[i];
	return NULL;
}

static void worker_ctrs(const struct vsw_switch *sw, uint16_t port,
			struct vsw_port_ctrs *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int i = 0; i < sw->n_workers; i++) {
		const uint64_t *c =
			(const uint64_t *)&sw->workers[i]->ctrs[port];
		uint64_t *o = (uint64_t *)out;

		for (size_t k = 0; k < sizeof(*out) / sizeof(uint64_t); k++)
			o[k] += __atomic_load_n(&c[k], __ATOMIC_RELAXED);
	}
	for (size_t k = 0; k < sizeof(*out) / sizeof(uint64_t); k++)
		((uint64_t *)out)[k] +=
			((const uint64_t *)&sw->ctl_ctrs[port])[k];
}

void vsw_port_ctrs_sum(const struct vsw_switch *sw, uint16_t port,
		       struct vsw_port_ctrs *out)
{
	const uint64_t *b = (const uint64_t *)&sw->base[port];
	uint64_t *o = (uint64_t *)out;

	worker_ctrs(sw, port, out);
	for (size_t k = 0; k < sizeof(*out) / sizeof(uint64_t); k++)
		o[k] -= b[k];
}

static void worker_rxq(const struct vsw_switch *sw, uint16_t port, uint16_t q,
		       struct vsw_rxq_ctrs *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int i = 0; i < sw->n_workers; i++) {
		out->packets += sw->workers[i]->rxq[port][q].packets;
		out->cycles += sw->workers[i]->rxq[port][q].cycles;
		out->kicks += sw->workers[i]->rxq[port][q].kicks;
	}
	out->kicks += sw->kicks[port][q];
}

void vsw_rxq_ctrs_sum(const struct vsw_switch *sw, uint16_t port, uint16_t q,
		      struct vsw_rxq_ctrs *out)
{
	worker_rxq(sw, port, q, out);
	out->packets -= sw->rxq_base[port][q].packets;
	out->cycles -= sw->rxq_base[port][q].cycles;
	out->kicks -= sw->rxq_base[port][q].kicks;
}

int vsw_queue_info(const struct vsw_switch *sw, struct vsw_port *p, uint16_t q,
		   struct vsw_queue_info *qi)
{
	const struct vsw_queue_info *b = &sw->qbase[p->id][q];

	if (p->ops->queue_info == NULL || p->ops->queue_info(p, q, qi) < 0)
		return -ENOTSUP;
	qi->calls -= b->calls;
	qi->enqueues -= b->enqueues;
	qi->enqueued -= b->enqueued;
	return 0;
}

/* Counters of @port start from zero now. */
static void reset_port_base(struct vsw_switch *sw, uint16_t port)
{
	struct vsw_port *p = sw->ports[port];

	worker_ctrs(sw, port, &sw->base[port]);
	for (uint16_t q = 0; q < VSW_MAX_QUEUES; q++) {
		worker_rxq(sw, port, q, &sw->rxq_base[port][q]);
		memset(&sw->qbase[port][q], 0, sizeof(sw->qbase[port][q]));
		if (p != NULL && p->ops->queue_info != NULL)
			p->ops->queue_info(p, q, &sw->qbase[port][q]);
	}
}

void vsw_ctl_stats_clear(struct vsw_switch *sw)
{
	for (uint16_t id = 0; id < VSW_MAX_PORTS; id++)
		reset_port_base(sw, id);
}

static int unique_port(const struct vsw_switch *sw,
		       const struct vsw_port_conf *pc, char *err, size_t errlen)
{
	for (int i = 0; i < VSW_MAX_PORTS; i++) {
		const struct vsw_port *o = sw->ports[i];

		if (o == NULL)
			continue;
		if (strcmp(o->name, pc->name) == 0) {
			snprintf(err, errlen, "port %s exists", pc->name);
			return -EEXIST;
		}
		if (pc->type == VSW_PORT_VHOST && o->type == VSW_PORT_VHOST &&
		    strcmp(o->conf.path, pc->path) == 0) {
			snprintf(err, errlen, "socket %s is used by port %s",
				 pc->path, o->name);
			return -EEXIST;
		}
		/* the same ethdev twice would be configured under the first */
		if (pc->type == VSW_PORT_ETHDEV && o->type == VSW_PORT_ETHDEV &&
		    strcspn(pc->devargs, ",") ==
			    strcspn(o->conf.devargs, ",") &&
		    strncmp(pc->devargs, o->conf.devargs,
			    strcspn(pc->devargs, ",")) == 0) {
			snprintf(err, errlen, "device %.*s is port %s",
				 (int)strcspn(pc->devargs, ","), pc->devargs,
				 o->name);
			return -EEXIST;
		}
	}
	return 0;
}

/* Would the mbuf pool still suffice with @pc added (review L7)? */
static int check_pool(const struct vsw_switch *sw,
		      const struct vsw_port_conf *pc, char *err, size_t errlen)
{
	static struct vsw_config all; /* ctl_lock */

	vsw_config_init(&all);
	all.sw = sw->cfg.sw;
	snprintf(all.source, sizeof(all.source), "%s", sw->cfg.source);
	for (int i = 0; i < VSW_MAX_PORTS; i++)
		if (sw->ports[i] != NULL)
			all.ports[all.n_ports++] = sw->ports[i]->conf;
	if (all.n_ports == VSW_MAX_PORTS)
		return 0; /* full: refused below for want of a slot */
	all.ports[all.n_ports++] = *pc;
	return vsw_config_check_mbufs(&all, sw->n_workers, err, errlen);
}

static bool lcore_is_worker(unsigned int lcore, void *arg)
{
	return vsw_worker_of_lcore(arg, lcore) >= 0;
}

void vsw_port_env_fill(struct vsw_switch *sw, struct vsw_port_env *env)
{
	memset(env, 0, sizeof(*env));
	env->mp = sw->mp;
	env->n_workers = sw->n_workers;
	env->quiesce = vsw_quiesce;
	env->kick_suppression = !sw->cfg.sw.kicks_allowed;
	env->socket_mode = sw->cfg.sw.socket_mode;
	env->socket_group = sw->cfg.sw.socket_group;
	env->wake = vsw_wake_control;
}

int vsw_ctl_port_add(struct vsw_switch *sw, const char *name,
		     const char *kvlist, char *err, size_t errlen)
{
	struct vsw_port_env env;
	struct vsw_config one;
	struct vsw_port_conf pc;
	int id = -1, rc;

	vsw_port_env_fill(sw, &env);
	rc = vsw_config_port_from_kv(name, kvlist, &sw->cfg.sw, &pc, err,
				     errlen);
	if (rc < 0)
		return rc;
	vsw_config_init(&one);
	one.ports[0] = pc;
	one.n_ports = 1;
	rc = vsw_config_validate(&one, lcore_is_worker, sw, err, errlen);
	if (rc == 0)
		rc = check_pool(sw, &pc, err, errlen);
	if (rc == 0)
		rc = unique_port(sw, &pc, err, errlen);
	for (int i = 0; rc == 0 && i < VSW_MAX_PORTS && id < 0; i++)
		if (sw->ports[i] == NULL)
			id = i;
	if (rc == 0 && id < 0) {
		snprintf(err, errlen, "no free port slot (%d ports at most)",
			 VSW_MAX_PORTS);
		rc = -ENOSPC;
	}
	if (rc == 0)
		rc = vsw_port_create(&pc, (uint16_t)id, &env, &sw->ports[id],
				     err, errlen);
	if (rc < 0)
		return rc;
	memset(sw->rxq_owner[id], VSW_RXQ_UNASSIGNED, VSW_MAX_QUEUES);
	memset(sw->kicks[id], 0, sizeof(sw->kicks[id]));
	memset(&sw->ctl_ctrs[id], 0, sizeof(sw->ctl_ctrs[id]));
	vsw_fdb_set_port_limit(sw->fdb, (uint16_t)id, pc.max_macs);
	reset_port_base(sw, (uint16_t)id);
	rc = vsw_dp_build(sw, err, errlen);
	if (rc < 0) {
		vsw_port_destroy(sw->ports[id]);
		sw->ports[id] = NULL;
	}
	return rc;
}

int vsw_ctl_port_del(struct vsw_switch *sw, const char *name, char *err,
		     size_t errlen)
{
	struct vsw_port *p = vsw_ctl_port_by_name(sw, name);
	int rc;

	if (p == NULL) {
		snprintf(err, errlen, "unknown port '%s'", name);
		return -ENOENT;
	}
	sw->ports[p->id] = NULL;
	/* After this, no worker polls, floods to or buffers for the port. */
	rc = vsw_dp_build(sw, err, errlen);
	if (rc < 0) {
		sw->ports[p->id] = p;
		return rc;
	}
	memset(sw->rxq_owner[p->id], VSW_RXQ_UNASSIGNED, VSW_MAX_QUEUES);
	vsw_fdb_flush(sw->fdb, p->id, true);
	vsw_port_destroy(p);
	return 0;
}

/*
 * Change a port's runtime settings (max-macs, mtu, allowed-macs): the new
 * limits reach the workers with the next table; learned entries of a port
 * whose allowed MACs changed are flushed (they may name a MAC it may no
 * longer use).
 */
int vsw_ctl_port_set(struct vsw_switch *sw, const char *name,
		     const char *kvlist, char *err, size_t errlen)
{
	struct vsw_port *p = vsw_ctl_port_by_name(sw, name);
	struct vsw_port_conf old, pc;
	int rc;

	if (p == NULL) {
		snprintf(err, errlen, "unknown port '%s'", name);
		return -ENOENT;
	}
	old = pc = p->conf;
	rc = vsw_config_port_set_kv(&pc, kvlist, err, errlen);
	if (rc == 0 && pc.mtu != old.mtu && p->ops->set_mtu != NULL)
		rc = p->ops->set_mtu(p, pc.mtu, err, errlen);
	if (rc < 0)
		return rc;
	p->conf = pc;
	rc = vsw_dp_build(sw, err, errlen);
	if (rc < 0) {
		p->conf = old;
		if (pc.mtu != old.mtu && p->ops->set_mtu != NULL)
			p->ops->set_mtu(p, old.mtu, NULL, 0);
		return rc;
	}
	vsw_fdb_set_port_limit(sw->fdb, p->id, pc.max_macs);
	if (pc.n_allowed != old.n_allowed ||
	    memcmp(pc.allowed, old.allowed, sizeof(pc.allowed)) != 0)
		vsw_fdb_flush(sw->fdb, p->id, false);
	VSW_LOG(INFO, "%s: set %s", p->name, kvlist);
	return 0;
}

/* Park the queue (nobody polls it), publish, then give it to @w. */
static int move_queue(struct vsw_switch *sw, uint16_t port, uint16_t q, int w,
		      char *err, size_t errlen)
{
	int old = sw->rxq_owner[port][q], rc;

	if (old == w)
		return 0;
	sw->rxq_owner[port][q] = VSW_RXQ_PARKED;
	rc = vsw_dp_build(sw, err, errlen);
	sw->rxq_owner[port][q] = (int8_t)(rc == 0 ? w : old);
	if (rc == 0)
		rc = vsw_dp_build(sw, err, errlen);
	return rc;
}

int vsw_ctl_rxq_move(struct vsw_switch *sw, const char *name, unsigned int q,
		     unsigned int worker, char *err, size_t errlen)
{
	struct vsw_port *p = vsw_ctl_port_by_name(sw, name);

	if (p == NULL) {
		snprintf(err, errlen, "unknown port '%s'", name);
		return -ENOENT;
	}
	if (q >= p->n_rxq) {
		snprintf(err, errlen, "port %s has rx queues 0..%u, not %u",
			 name, p->n_rxq - 1, q);
		return -EINVAL;
	}
	if (worker >= sw->n_workers) {
		snprintf(err, errlen, "worker %u does not exist (0..%u)",
			 worker, sw->n_workers - 1);
		return -EINVAL;
	}
	return move_queue(sw, p->id, (uint16_t)q, (int)worker, err, errlen);
}

struct rxq_load {
	uint16_t port, q;
	uint64_t cycles;
};

static int by_cycles_desc(const void *a, const void *b)
{
	const struct rxq_load *x = a, *y = b;

	return x->cycles < y->cycles ? 1 : x->cycles > y->cycles ? -1 : 0;
}

/* Cycles of every unpinned queue since the last rebalance. */
static unsigned int collect_loads(struct vsw_switch *sw, struct rxq_load *l,
				  uint64_t *wload)
{
	static struct vsw_rxq_ctrs last[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	unsigned int n = 0;

	for (uint16_t id = 0; id < VSW_MAX_PORTS; id++) {
		const struct vsw_port *p = sw->ports[id];

		for (uint16_t q = 0; p != NULL && q < p->n_rxq; q++) {
			struct vsw_rxq_ctrs c;
			int w = sw->rxq_owner[id][q];

			worker_rxq(sw, id, q, &c);
			l[n] = (struct rxq_load){id, q,
						 c.cycles - last[id][q].cycles};
			last[id][q] = c;
			if (w >= 0)
				wload[w] += l[n].cycles;
			if (p->conf.n_workers == 0)
				n++;
		}
	}
	return n;
}

/*
 * Greedy: the busiest queues first, each to the worker with the least
 * load so far. Returns how many queues changed workers.
 */
int vsw_ctl_rxq_rebalance(struct vsw_switch *sw, unsigned int *moved, char *err,
			  size_t errlen)
{
	static struct rxq_load l[VSW_MAX_PORTS * VSW_MAX_QUEUES];
	uint64_t wload[VSW_MAX_WORKERS] = {0}, plan[VSW_MAX_WORKERS] = {0};
	unsigned int n = collect_loads(sw, l, wload);
	int rc = 0;

	*moved = 0;
	qsort(l, n, sizeof(l[0]), by_cycles_desc);
	for (unsigned int i = 0; i < n && rc == 0; i++) {
		unsigned int best = 0;

		for (unsigned int w = 1; w < sw->n_workers; w++)
			if (plan[w] < plan[best])
				best = w;
		plan[best] += l[i].cycles + 1;
		if (sw->rxq_owner[l[i].port][l[i].q] != (int)best) {
			rc = move_queue(sw, l[i].port, l[i].q, (int)best, err,
					errlen);
			if (rc == 0)
				(*moved)++; /* review L8: only moves made */
		}
	}
	return rc;
}

/* Control loop: rebalance when the workers' loads drift apart. */
void vsw_ctl_auto_rebalance(struct vsw_switch *sw, uint32_t now)
{
	static uint32_t last;
	static uint64_t prev_busy[VSW_MAX_WORKERS];
	const struct vsw_switch_conf *c = &sw->cfg.sw;
	uint64_t busy, max = 0, min = UINT64_MAX;
	unsigned int moved;
	char err[VSW_ERR_MAX];

	if (c->rebalance_interval_s == 0 || sw->n_workers < 2 ||
	    now - last < c->rebalance_interval_s)
		return;
	last = now;
	for (unsigned int i = 0; i < sw->n_workers; i++) {
		busy = sw->workers[i]->busy_cycles - prev_busy[i];
		prev_busy[i] = sw->workers[i]->busy_cycles;
		max = busy > max ? busy : max;
		min = busy < min ? busy : min;
	}
	if (max == 0 || (max - min) * 100 / max < c->rebalance_threshold_pct)
		return;
	if (vsw_ctl_rxq_rebalance(sw, &moved, err, sizeof(err)) < 0)
		VSW_LOG(WARNING, "automatic rebalance failed: %s", err);
	else if (moved > 0)
		VSW_LOG(INFO, "automatic rebalance moved %u rx queue(s)",
			moved);
}

void vsw_ctl_fdb_refresh(struct vsw_switch *sw)
{
	vsw_fdb_set_refresh(sw->fdb, sw->cfg.sw.fdb_aging_s / 60);
}

int vsw_ctl_set(struct vsw_switch *sw, const char *key, const char *value,
		char *err, size_t errlen)
{
	struct vsw_switch_conf old = sw->cfg.sw;
	int rc;

	rc = vsw_config_set_switch_key(&sw->cfg.sw, key, value, err, errlen);
	if (rc < 0)
		return rc;
	rc = vsw_dp_build(sw, err, errlen);
	if (rc < 0) {
		sw->cfg.sw = old;
		return rc;
	}
	vsw_ctl_fdb_refresh(sw);
	if (old.kicks_allowed != sw->cfg.sw.kicks_allowed)
		for (int i = 0; i < VSW_MAX_PORTS; i++) {
			struct vsw_port *p = sw->ports[i];

			if (p != NULL && p->ops->set_kick_suppression)
				p->ops->set_kick_suppression(
					p, !sw->cfg.sw.kicks_allowed);
		}
	return 0;
}

/*
 * Poll as many rx queues as the port wants now (a vhost guest enabled
 * more queue pairs, or came back with fewer): new ones are placed on the
 * least loaded workers, dropped ones forgotten.  Frames on queue pairs
 * above the port's `queues` are drained and counted (review M1).
 */
static void port_queues(struct vsw_switch *sw, struct vsw_port *p)
{
	uint16_t want = p->ops->rx_queues(p), old = p->n_rxq;
	char err[VSW_ERR_MAX];
	struct vsw_port_info pi;

	if (want != old && want >= 1 && want <= VSW_MAX_QUEUES) {
		for (uint16_t q = want < old ? want : old;
		     q < (want > old ? want : old); q++)
			sw->rxq_owner[p->id][q] = VSW_RXQ_UNASSIGNED;
		p->n_rxq = want;
		if (vsw_dp_build(sw, err, sizeof(err)) < 0) {
			VSW_LOG(ERR, "%s: cannot poll %u rx queues: %s",
				p->name, want, err);
			p->n_rxq = old;
		} else {
			VSW_LOG(INFO, "%s: polling %u rx queue(s)", p->name,
				want);
		}
	}
	vsw_port_info_get(p, &pi);
	if (pi.peer_queues > p->conf.queues && p->ops->drain_unpolled) {
		uint64_t n =
			p->ops->drain_unpolled(p, (uint16_t)p->conf.queues);
		struct vsw_port_ctrs *c = &sw->ctl_ctrs[p->id];

		if (n > 0 && c->drops[VSW_DROP_UNPOLLED] == 0)
			VSW_LOG(WARNING,
				"%s: the guest has %u queue pairs but queues = "
				"%u: frames it sends on queue pairs %u..%u are "
				"dropped (drop_unpolled)",
				p->name, pi.peer_queues, p->conf.queues,
				p->conf.queues, pi.peer_queues - 1);
		c->rx_packets += n;
		c->drops[VSW_DROP_UNPOLLED] += n;
	}
}

/* Control loop (busy mode): count the guest kicks that still arrive. */
void vsw_ctl_poll_kicks(struct vsw_switch *sw)
{
	for (uint16_t id = 0; id < VSW_MAX_PORTS; id++) {
		struct vsw_port *p = sw->ports[id];

		if (p == NULL)
			continue;
		if (p->ops->upkeep != NULL)
			p->ops->upkeep(p);
		if (p->ops->rx_queues != NULL)
			port_queues(sw, p);
		if (p->ops->rx_drain == NULL ||
		    sw->cfg.sw.poll_mode == VSW_POLL_ADAPTIVE)
			continue;
		for (uint16_t q = 0; q < p->n_rxq && q < VSW_MAX_QUEUES; q++)
			sw->kicks[id][q] += p->ops->rx_drain(p, q, true);
	}
}
