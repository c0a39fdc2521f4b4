/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which worker polls which rx queue: a manual move (`rxq-move`), a
 * rebalance on demand (`rxq-rebalance`) and the automatic one the
 * control loop runs when the workers' loads drift apart.
 *
 * A queue changes workers in two publications: parked (polled by
 * nobody), then on its new worker, so two workers never poll one queue
 * and a flow is never reordered across the move.  A rebalance parks every
 * queue it moves in one table and assigns them all in the next: two table
 * builds (and their grace periods) whatever the number of moves.  All
 * under ctl_lock; the load snapshots live in struct vsw_ctl (rebal).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

static int by_cycles_desc(const void *a, const void *b)
{
	const struct vsw_rxq_load *x = a, *y = b;

	return x->cycles < y->cycles ? 1 : x->cycles > y->cycles ? -1 : 0;
}

/*
 * Cycles of every queue since the last rebalance: pinned queues (the
 * port's lcores list) load their worker's plan, the others are returned
 * in ctl->rebal.load for the greedy placement.
 */
static unsigned int collect_loads(struct vsw_ctl *ctl, uint64_t *plan)
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
					plan[w] += cyc;
				continue;
			}
			rb->load[n++] = (struct vsw_rxq_load){
				.port = id, .q = q, .cycles = cyc, .from = w};
		}
	}
	return n;
}

/*
 * Greedy: the busiest unpinned queues first, each to the worker with the
 * least load so far (pinned queues' load counted).  @moved: the queues
 * that changed workers.
 */
int vsw_ctl_rxq_rebalance(struct vsw_ctl *ctl, unsigned int *moved, char *err,
			  size_t errlen)
{
	struct vsw_rebalance *rb = &ctl->rebal;
	uint64_t plan[VSW_MAX_WORKERS] = {0};
	unsigned int n = collect_loads(ctl, plan), nm = 0;
	int rc;

	*moved = 0;
	qsort(rb->load, n, sizeof(rb->load[0]), by_cycles_desc);
	for (unsigned int i = 0; i < n; i++) {
		struct vsw_rxq_load *l = &rb->load[i];
		unsigned int best = 0;

		for (unsigned int w = 1; w < ctl->rt->n_workers; w++)
			if (plan[w] < plan[best])
				best = w;
		plan[best] += l->cycles + 1;
		l->to = (int)best;
		if (l->from != l->to)
			rb->load[nm++] = *l; /* nm <= i: in place */
	}
	rc = apply_moves(ctl, rb->load, nm, err, errlen);
	if (rc == 0)
		*moved = nm; /* only the moves made, not the planned */
	return rc;
}

/* Control loop: rebalance when the workers' loads drift apart. */
void vsw_ctl_auto_rebalance(struct vsw_ctl *ctl, uint32_t now)
{
	const struct vsw_switch_conf *c = &ctl->cfg.sw;
	struct vsw_rebalance *rb = &ctl->rebal;
	uint64_t busy, max = 0, min = UINT64_MAX;
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
	if (max == 0 || (max - min) * 100 / max < c->rebalance_threshold_pct)
		return;
	if (vsw_ctl_rxq_rebalance(ctl, &moved, err, sizeof(err)) < 0)
		VSW_LOG(WARNING, "automatic rebalance failed: %s", err);
	else if (moved > 0)
		VSW_LOG(INFO, "automatic rebalance moved %u rx queue(s)",
			moved);
}
