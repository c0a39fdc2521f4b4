/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ports from control's side: add, delete, change settings, and the upkeep
 * the control loop runs on each (link, kick setting, how many rx queues a
 * guest uses now).  ctl_lock held; the switch changes only through
 * control state and a new datapath table (control.h).  Add, delete and
 * set commit to the state file before they return 0 (commit.c); when it
 * cannot be written the change is undone and the error returned.  A new
 * port meets the same rules as a config file's ports (check_with).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "common/debug.h"
#include "control.h"

struct vsw_port *vsw_ctl_port_by_name(const struct vsw_ctl *ctl,
				      const char *name)
{
	for (int i = 0; name != NULL && i < VSW_MAX_PORTS; i++)
		if (ctl->ports[i] != NULL &&
		    strcmp(ctl->ports[i]->name, name) == 0)
			return ctl->ports[i];
	return NULL;
}

/*
 * The config as it would be with @pc added (the ports as they run, then
 * @pc): the same rules as a config file's (config/'s port clash rule) and
 * the mbuf pool's check, in ctl->scratch.
 */
static int check_with(struct vsw_ctl *ctl, const struct vsw_port_conf *pc,
		      char *err, size_t errlen)
{
	struct vsw_config *all = &ctl->scratch;
	unsigned int with = 0;

	vsw_statefile_collect(ctl, all);
	switch (vsw_config_port_clash(all->ports, all->n_ports, pc, &with)) {
	case VSW_CLASH_NAME:
		snprintf(err, errlen, "port %s exists", pc->name);
		return -EEXIST;
	case VSW_CLASH_PATH:
		snprintf(err, errlen, "socket %s is used by port %s", pc->path,
			 all->ports[with].name);
		return -EEXIST;
	case VSW_CLASH_DEVICE:
		snprintf(err, errlen, "device %.*s is port %s",
			 (int)strcspn(pc->devargs, ","), pc->devargs,
			 all->ports[with].name);
		return -EEXIST;
	case VSW_CLASH_NONE:
		break;
	}
	if (all->n_ports == VSW_MAX_PORTS)
		return 0; /* full: refused for want of a slot */
	all->ports[all->n_ports++] = *pc;
	return vsw_config_check_mbufs(all, ctl->rt->n_workers, err, errlen);
}

static bool lcore_is_worker(unsigned int lcore, void *arg)
{
	return vsw_worker_of_lcore(arg, lcore) >= 0;
}

/* The port layer's hooks (struct vsw_port_env): @arg is control. */
static void port_quiesce(void *arg)
{
	vsw_quiesce(((struct vsw_ctl *)arg)->rt);
}

static void port_wake(void *arg)
{
	vsw_wake_control(arg);
}

/*
 * The big mbufs (big-mbufs, docs/offloads.md): one 64 KiB buffer per
 * frame of a guest that sends TSO frames, so that the vhost library
 * copies such a frame into a pooled buffer instead of an external one it
 * takes from DPDK's heap and that rte_free zeroes (a heap lock and a 64
 * KiB memset per frame on the worker).  A pool cache of 64 keeps the
 * buffers a worker reuses warm.  Made once: at start when offloads are on
 * for the switch or a port of the config file, else when the first port
 * with offloads on is added.  Without memory for it vsw runs on without
 * (external buffers, as with big-mbufs = 0).
 */
void vsw_ctl_big_mbufs(struct vsw_ctl *ctl)
{
	struct vsw_rt *rt = ctl->rt;
	unsigned int n = ctl->cfg.sw.big_mbufs, hold;

	if (rt->big_mp != NULL || n == 0)
		return;
	/* ring_mp_mc: vhost rx reads the ring's count (pool_short) */
	rt->big_mp = rte_pktmbuf_pool_create_by_ops(
		"vsw_big_mbufs", n, RTE_MIN(64u, n / 16), 0, UINT16_MAX,
		(int)rte_socket_id(), "ring_mp_mc");
	if (rt->big_mp == NULL) {
		VSW_LOG(WARNING,
			"no memory for %u big mbufs (big-mbufs, %u MiB): "
			"frames longer than an mbuf take external buffers",
			n,
			(unsigned int)((uint64_t)n * (UINT16_MAX + 384) >> 20));
		return;
	}
	VSW_LOG(INFO,
		"%u big mbufs (64 KiB) for the frames of guests that "
		"send TSO frames",
		n);
	hold = vsw_test_hook_n(
		"VSW_TEST_BIG_MBUFS_HOLD",
		"taken out of the big mbufs' pool and held:", "mbufs");
	hold = RTE_MIN(hold, n);
	rt->big_held = hold ? rte_calloc("vsw_big_held", hold,
					 sizeof(*rt->big_held), 0)
			    : NULL;
	for (unsigned int i = 0; rt->big_held != NULL && i < hold; i++) {
		rt->big_held[i] = rte_pktmbuf_alloc(rt->big_mp);
		if (rt->big_held[i] == NULL)
			break;
		rt->n_big_held++;
	}
}

void vsw_port_env_fill(struct vsw_ctl *ctl, struct vsw_port_env *env)
{
	memset(env, 0, sizeof(*env));
	env->mp = ctl->rt->mp;
	env->big_mp = ctl->rt->big_mp;
	env->n_workers = ctl->rt->n_workers;
	env->quiesce = port_quiesce;
	env->kick_suppression = ctl->cfg.sw.kick_suppression;
	env->call_suppression = ctl->cfg.sw.call_suppression;
	env->guest_calls_direct = ctl->cfg.sw.guest_calls_direct;
	env->guest_rx_spread = ctl->cfg.sw.guest_rx_spread;
	env->offloads = ctl->cfg.sw.offloads != VSW_OFFLOADS_OFF;
	env->run_dir = ctl->cfg.sw.run_dir;
	env->socket_mode = ctl->cfg.sw.socket_mode;
	env->socket_owner = ctl->cfg.sw.socket_owner;
	env->socket_group = ctl->cfg.sw.socket_group;
	env->wake = port_wake;
	env->hook_arg = ctl;
}

static int remove_port(struct vsw_ctl *ctl, struct vsw_port *p, char *err,
		       size_t errlen);

static int undo_add(struct vsw_ctl *ctl, void *p)
{
	return remove_port(ctl, p, NULL, 0);
}

int vsw_ctl_port_add(struct vsw_ctl *ctl, const char *name, const char *kvlist,
		     char *err, size_t errlen)
{
	struct vsw_port_env env;
	struct vsw_config one;
	struct vsw_port_conf pc;
	int id = -1, rc;

	vsw_port_env_fill(ctl, &env);
	rc = vsw_config_port_from_kv(name, kvlist, &ctl->cfg.sw, &pc, err,
				     errlen);
	if (rc < 0)
		return rc;
	vsw_config_init(&one);
	one.ports[0] = pc;
	one.n_ports = 1;
	rc = vsw_config_validate(&one, lcore_is_worker, ctl, err, errlen);
	if (rc == 0)
		rc = check_with(ctl, &pc, err, errlen);
	for (int i = 0; rc == 0 && i < VSW_MAX_PORTS && id < 0; i++)
		if (ctl->ports[i] == NULL)
			id = i;
	if (rc == 0 && id < 0) {
		snprintf(err, errlen, "no free port slot (%d ports at most)",
			 VSW_MAX_PORTS);
		rc = -ENOSPC;
	}
	if (rc == 0 && vsw_port_offloads_on(&pc, &env)) {
		/* (none made at start: the switch's offloads are off) */
		vsw_ctl_big_mbufs(ctl);
		env.big_mp = ctl->rt->big_mp;
	}
	if (rc == 0)
		rc = vsw_port_create(&pc, (uint16_t)id, &env, &ctl->ports[id],
				     err, errlen);
	if (rc < 0)
		return rc;
	memset(ctl->rxq_owner[id], VSW_RXQ_UNASSIGNED, VSW_MAX_QUEUES);
	memset(ctl->kicks[id], 0, sizeof(ctl->kicks[id]));
	memset(&ctl->ctl_ctrs[id], 0, sizeof(ctl->ctl_ctrs[id]));
	vsw_fdb_set_port_limit(ctl->rt->fdb, (uint16_t)id, pc.max_macs);
	vsw_ctl_port_ctrs_reset(ctl, (uint16_t)id);
	rc = vsw_table_publish(ctl, err, errlen);
	if (rc < 0) {
		vsw_port_destroy(ctl->ports[id]);
		ctl->ports[id] = NULL;
		return rc;
	}
	return vsw_ctl_commit(ctl, undo_add, ctl->ports[id], name, err, errlen);
}

/*
 * Take @p out: a table without it (after which no worker polls, floods
 * to or buffers for it), its FDB entries, then the kind's destroy.  On
 * failure nothing changed.
 */
static int remove_port(struct vsw_ctl *ctl, struct vsw_port *p, char *err,
		       size_t errlen)
{
	int rc;

	ctl->ports[p->id] = NULL;
	rc = vsw_table_publish(ctl, err, errlen);
	if (rc < 0) {
		ctl->ports[p->id] = p;
		return rc;
	}
	memset(ctl->rxq_owner[p->id], VSW_RXQ_UNASSIGNED, VSW_MAX_QUEUES);
	vsw_ctl_capture_port_gone(ctl, p->id); /* the table held it no more */
	vsw_ctl_fdb_port_gone(ctl, p->id);
	vsw_fdb_flush(ctl->rt->fdb, p->id, true);
	vsw_port_destroy(p);
	return 0;
}

static int unhide(struct vsw_ctl *ctl, void *arg)
{
	struct vsw_port *p = arg;

	ctl->ports[p->id] = p;
	return 0;
}

/* Committed first (commit.c): a port once gone cannot come back as it
 * was (its guest connection), so a failed save must leave it in place. */
int vsw_ctl_port_del(struct vsw_ctl *ctl, const char *name, char *err,
		     size_t errlen)
{
	struct vsw_port *p = vsw_ctl_port_by_name(ctl, name);
	int rc;

	if (p == NULL) {
		snprintf(err, errlen, "unknown port '%s'", name);
		return -ENOENT;
	}
	ctl->ports[p->id] = NULL; /* what the state holds without it */
	rc = vsw_ctl_commit(ctl, unhide, p, name, err, errlen);
	if (rc < 0)
		return rc;
	ctl->ports[p->id] = p;
	rc = remove_port(ctl, p, err, errlen);
	if (rc < 0 && vsw_ctl_commit(ctl, NULL, NULL, name, NULL, 0) < 0)
		VSW_LOG(ERR, "%s: kept, but the state file says deleted", name);
	return rc;
}

static bool vlans_changed(const struct vsw_port_conf *a,
			  const struct vsw_port_conf *b)
{
	return vsw_config_vlan_mode(a) != vsw_config_vlan_mode(b) ||
	       a->tag != b->tag || a->trunks_set != b->trunks_set ||
	       memcmp(a->trunks, b->trunks, sizeof(a->trunks)) != 0;
}

/*
 * Change a port's runtime settings (max-macs, mtu, allowed-macs,
 * allowed-ips, storm-*-pps, VLANs): the new limits reach the workers with
 * the next table; learned entries of a port whose allowed MACs or VLANs
 * changed are flushed (they may name a MAC it may no longer use, or a VLAN
 * it no longer carries; the workers also ignore an entry whose port is
 * not in the frame's VLAN).  Other ports' traffic goes on: only the table
 * changes.
 */
static int apply_conf(struct vsw_ctl *ctl, struct vsw_port *p,
		      const struct vsw_port_conf *pc, char *err, size_t errlen)
{
	struct vsw_port_conf old = p->conf;
	bool mtu = pc->mtu != old.mtu && p->ops->set_mtu != NULL;
	int rc = mtu ? p->ops->set_mtu(p, pc->mtu, err, errlen) : 0;

	if (rc < 0)
		return rc;
	p->conf = *pc;
	rc = vsw_table_publish(ctl, err, errlen);
	if (rc < 0) {
		p->conf = old;
		if (mtu)
			p->ops->set_mtu(p, old.mtu, NULL, 0);
		return rc;
	}
	vsw_fdb_set_port_limit(ctl->rt->fdb, p->id, pc->max_macs);
	if (p->ops->set_guest_rx_spread)
		p->ops->set_guest_rx_spread(
			p,
			vsw_port_rx_spread_on(pc, ctl->cfg.sw.guest_rx_spread));
	if (pc->n_allowed != old.n_allowed ||
	    memcmp(pc->allowed, old.allowed, sizeof(pc->allowed)) != 0 ||
	    vlans_changed(pc, &old))
		vsw_fdb_flush(ctl->rt->fdb, p->id, false);
	return 0;
}

/* What a failed port-set commit puts back. */
struct set_undo {
	struct vsw_port *p;
	struct vsw_port_conf conf;
};

static int undo_set(struct vsw_ctl *ctl, void *arg)
{
	struct set_undo *u = arg;

	return apply_conf(ctl, u->p, &u->conf, NULL, 0);
}

int vsw_ctl_port_set(struct vsw_ctl *ctl, const char *name, const char *kvlist,
		     char *err, size_t errlen)
{
	struct vsw_port *p = vsw_ctl_port_by_name(ctl, name);
	struct vsw_port_conf old, pc;
	struct set_undo u;
	int rc;

	if (p == NULL) {
		snprintf(err, errlen, "unknown port '%s'", name);
		return -ENOENT;
	}
	old = pc = p->conf;
	rc = vsw_config_port_set_kv(&pc, kvlist, err, errlen);
	if (rc == 0)
		rc = apply_conf(ctl, p, &pc, err, errlen);
	if (rc < 0)
		return rc;
	u.p = p;
	u.conf = old;
	rc = vsw_ctl_commit(ctl, undo_set, &u, name, err, errlen);
	if (rc == 0)
		VSW_LOG(INFO, "%s: set %s", p->name, kvlist);
	return rc;
}

/*
 * Poll as many rx queues as the port wants now (a vhost guest enabled
 * more queue pairs, or came back with fewer): new ones are placed on the
 * least loaded workers, dropped ones forgotten.  Frames on queue pairs
 * above the port's `queues` are drained and counted
 * (drop_unpolled; test 22_multiqueue_guest).
 */
static void port_queues(struct vsw_ctl *ctl, struct vsw_port *p)
{
	uint16_t want = p->ops->rx_queues(p), old = p->n_rxq;
	char err[VSW_ERR_MAX];
	struct vsw_port_info pi;

	if (want != old && want >= 1 && want <= VSW_MAX_QUEUES) {
		for (uint16_t q = want < old ? want : old;
		     q < (want > old ? want : old); q++)
			ctl->rxq_owner[p->id][q] = VSW_RXQ_UNASSIGNED;
		p->n_rxq = want;
		if (vsw_table_publish(ctl, err, sizeof(err)) < 0) {
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
		struct vsw_port_ctrs *c = &ctl->ctl_ctrs[p->id];

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

/*
 * The control loop's pass over the ports: links and other polling (ops
 * poll), the kind's upkeep (kick settings of new rings, kick fds), how
 * many rx queues each wants polled now, and, in busy mode, the guest
 * kicks that still arrive.
 */
void vsw_ctl_ports_upkeep(struct vsw_ctl *ctl)
{
	for (uint16_t id = 0; id < VSW_MAX_PORTS; id++) {
		struct vsw_port *p = ctl->ports[id];

		if (p == NULL)
			continue;
		if (p->ops->poll != NULL)
			p->ops->poll(p);
		if (p->ops->upkeep != NULL)
			p->ops->upkeep(p);
		if (p->ops->rx_queues != NULL)
			port_queues(ctl, p);
		if (p->ops->rx_drain == NULL ||
		    ctl->cfg.sw.poll_mode == VSW_POLL_ADAPTIVE)
			continue;
		for (uint16_t q = 0; q < p->n_rxq && q < VSW_MAX_QUEUES; q++)
			ctl->kicks[id][q] += p->ops->rx_drain(p, q, true);
	}
}
