/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which worker polls which rx queue: a manual move (`rxq-move`), a
 * rebalance on demand (`rxq-rebalance`) and the automatic one the
 * control loop runs when the workers' loads drift apart.  Where the
 * queues go, and whether that is worth the moves, rxq_plan.c decides.
 *
 * A queue changes workers in two publications: parked (polled by
 * nobody), then on its new worker, so two workers never poll one queue
 * and a flow is never reordered across the move.  A rebalance parks every
 * queue it moves in one table and assigns them all in the next: two table
 * builds (and their grace periods) whatever the number of moves.  All
 * under ctl_lock; the load snapshots live in struct vsw_ctl (rebal).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "control.h"

/* Give queue (port, q) of every move its new worker in two tables. */
static int apply_moves(struct vsw_ctl *ctl, const struct vsw_rxq_load *m,
		       unsigned int n, char *err, size_t errlen)
{
	int rc;

	if (n == 0)
		return 0;
	for (unsigned int i = 0; i < n; i++)
		ctl->rxq_owner[m[i].port][m[i].q] = VSW_RXQ_PARKED;
	rc = vsw_table_publish(ctl, err, errlen);
	for (unsigned int i = 0; i < n; i++)
		ctl->rxq_owner[m[i].port][m[i].q] =
			(int8_t)(rc == 0 ? m[i].to : m[i].from);
	if (rc == 0 && (rc = vsw_table_publish(ctl, err, errlen)) < 0) {
		/* back where they were: that table was valid */
		for (unsigned int i = 0; i < n; i++)
			ctl->rxq_owner[m[i].port][m[i].q] = (int8_t)m[i].from;
		vsw_table_publish(ctl, NULL, 0);
	}
	return rc;
}

int vsw_ctl_rxq_move(struct vsw_ctl *ctl, const char *name, unsigned int q,
		     unsigned int worker, char *err, size_t errlen)
{
	struct vsw_port *p = vsw_ctl_port_by_name(ctl, name);
	struct vsw_rxq_load m;

	if (p == NULL) {
		snprintf(err, errlen, "unknown port '%s'", name);
		return -ENOENT;
	}
	if (q >= p->n_rxq) {
		snprintf(err, errlen, "port %s has rx queues 0..%u, not %u",
			 name, p->n_rxq - 1, q);
		return -EINVAL;
	}
	if (worker >= ctl->rt->n_workers) {
		snprintf(err, errlen, "worker %u does not exist (0..%u)",
			 worker, ctl->rt->n_workers - 1);
		return -EINVAL;
	}
	m = (struct vsw_rxq_load){.port = p->id,
				  .q = (uint16_t)q,
				  .from = ctl->rxq_owner[p->id][q],
				  .to = (int)worker};
	return apply_moves(ctl, &m, m.from == m.to ? 0 : 1, err, errlen);
}

_Static_assert(VSW_MAX_WORKERS <= VSW_RXQ_PLAN_WORKERS,
	       "a plan takes every worker");

/*
 * Cycles of every queue since the loads were last read: pinned queues
 * (the port's lcores list) load their worker's @pinned, the others are
 * returned in ctl->rebal.load for the plan.
 */
static unsigned int collect_loads(struct vsw_ctl *ctl, uint64_t *pinned)
{
	struct vsw_rebalance *rb = &ctl->rebal;
	unsigned int n = 0;

	for (uint16_t id = 0; id < VSW_MAX_PORTS; id++) {
		const struct vsw_port *p = ctl->ports[id];

		for (uint16_t q = 0; p != NULL && q < p->n_rxq; q++) {
			struct vsw_rxq_ctrs c;
			int w = ctl->rxq_owner[id][q];
			uint64_t cyc;

			vsw_rxq_ctrs_raw(ctl, id, q, &c);
			cyc = c.cycles - rb->last[id][q].cycles;
			rb->last[id][q] = c;
			if (p->conf.n_lcores != 0) {
				if (w >= 0)
					pinned[w] += cyc;
				continue;
			}
			rb->load[n++] = (struct vsw_rxq_load){
				.port = id, .q = q, .cycles = cyc, .from = w};
		}
	}
	return n;
}

/*
 * Plan from the loads since they were last read (rxq_plan.c) and move
 * the queues the plan moves, if it lightens the busiest worker by
 * @min_gain_pct percent.  @moved: the queues that changed workers.
 */
static int rebalance(struct vsw_ctl *ctl, unsigned int min_gain_pct,
		     unsigned int *moved, uint64_t busiest[2], char *err,
		     size_t errlen)
{
	struct vsw_rebalance *rb = &ctl->rebal;
	uint64_t pinned[VSW_MAX_WORKERS] = {0};
	unsigned int n = collect_loads(ctl, pinned), nm;
	int rc;

	*moved = 0;
	nm = vsw_rxq_plan(rb->load, n, pinned, ctl->rt->n_workers, min_gain_pct,
			  busiest);
	rc = apply_moves(ctl, rb->load, nm, err, errlen);
	if (rc == 0)
		*moved = nm; /* only the moves made, not the planned */
	return rc;
}

/* On demand: any plan that lightens the busiest worker at all. */
int vsw_ctl_rxq_rebalance(struct vsw_ctl *ctl, unsigned int *moved, char *err,
			  size_t errlen)
{
	return rebalance(ctl, 0, moved, NULL, err, errlen);
}

/*
 * Control loop: every rebalance-interval-s, when the workers' busy cycles
 * differ by rebalance-threshold-pct, a plan from that interval's loads,
 * moved when it lightens the busiest worker by rebalance-improvement-pct.
 * The loads are read at every check, so a plan sees the last interval
 * only, not the hours since the last rebalance.
 */
void vsw_ctl_auto_rebalance(struct vsw_ctl *ctl, uint32_t now)
{
	const struct vsw_switch_conf *c = &ctl->cfg.sw;
	struct vsw_rebalance *rb = &ctl->rebal;
	uint64_t busy, max = 0, min = UINT64_MAX, busiest[2] = {0};
	unsigned int moved;
	char err[VSW_ERR_MAX];

	if (c->rebalance_interval_s == 0 || ctl->rt->n_workers < 2 ||
	    now - rb->last_check < c->rebalance_interval_s)
		return;
	rb->last_check = now;
	for (unsigned int i = 0; i < ctl->rt->n_workers; i++) {
		busy = ctl->rt->workers[i]->busy_cycles - rb->prev_busy[i];
		rb->prev_busy[i] = ctl->rt->workers[i]->busy_cycles;
		max = busy > max ? busy : max;
		min = busy < min ? busy : min;
	}
	if (max == 0 || (max - min) * 100 / max < c->rebalance_threshold_pct) {
		uint64_t pinned[VSW_MAX_WORKERS] = {0};

		collect_loads(ctl, pinned); /* the next interval starts now */
		return;
	}
	if (rebalance(ctl, c->rebalance_improvement_pct, &moved, busiest, err,
		      sizeof(err)) < 0)
		VSW_LOG(WARNING, "automatic rebalance failed: %s", err);
	else if (moved > 0)
		VSW_LOG(INFO,
			"automatic rebalance moved %u rx queue(s): busiest "
			"worker's load %" PRIu64 " -> %" PRIu64 " cycles",
			moved, busiest[0], busiest[1]);
	else
		VSW_LOG(DEBUG,
			"automatic rebalance: workers %" PRIu64 "%% apart, "
			"no plan lightens the busiest worker by %u%% (%" PRIu64
			" -> %" PRIu64 " cycles)",
			(max - min) * 100 / max, c->rebalance_improvement_pct,
			busiest[0], busiest[1]);
}
