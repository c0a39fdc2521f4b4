/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Counter sums, the one place they are made: every worker's counters of
 * a port or rx queue, plus what control counted itself, less the base
 * recorded at the last `stats-clear` (or port-add).  Only workers write
 * their counters, so "clear" records a base that readers subtract.
 * Callers hold ctl_lock.
 *
 * The workers' iteration histograms are the exception in one respect:
 * the longest iteration since the clear is a maximum, which no base can
 * take back, so a clear bumps rt->clear_gen and each worker records its
 * own base and zeroes its own maximum at the top of its next iteration
 * (datapath/worker.c), the base and the maximum covering the same
 * iterations; until it has, it has finished no iteration since the
 * clear and its histogram reads empty.
 */
#include <errno.h>
#include <string.h>

#include "control.h"

static void worker_ctrs(const struct vsw_ctl *ctl, uint16_t port,
			struct vsw_port_ctrs *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int i = 0; i < ctl->rt->n_workers; i++) {
		const uint64_t *c =
			(const uint64_t *)&ctl->rt->workers[i]->ctrs[port];
		uint64_t *o = (uint64_t *)out;

		for (size_t k = 0; k < sizeof(*out) / sizeof(uint64_t); k++)
			o[k] += __atomic_load_n(&c[k], __ATOMIC_RELAXED);
	}
	for (size_t k = 0; k < sizeof(*out) / sizeof(uint64_t); k++)
		((uint64_t *)out)[k] +=
			((const uint64_t *)&ctl->ctl_ctrs[port])[k];
}

void vsw_port_ctrs_sum(const struct vsw_ctl *ctl, uint16_t port,
		       struct vsw_port_ctrs *out)
{
	const uint64_t *b = (const uint64_t *)&ctl->base[port];
	uint64_t *o = (uint64_t *)out;

	worker_ctrs(ctl, port, out);
	for (size_t k = 0; k < sizeof(*out) / sizeof(uint64_t); k++)
		o[k] -= b[k];
}

void vsw_rxq_ctrs_raw(const struct vsw_ctl *ctl, uint16_t port, uint16_t q,
		      struct vsw_rxq_ctrs *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int i = 0; i < ctl->rt->n_workers; i++) {
		out->packets += ctl->rt->workers[i]->rxq[port][q].packets;
		out->cycles += ctl->rt->workers[i]->rxq[port][q].cycles;
		out->kicks += ctl->rt->workers[i]->rxq[port][q].kicks;
	}
	out->kicks += ctl->kicks[port][q];
}

void vsw_rxq_ctrs_sum(const struct vsw_ctl *ctl, uint16_t port, uint16_t q,
		      struct vsw_rxq_ctrs *out)
{
	vsw_rxq_ctrs_raw(ctl, port, q, out);
	out->packets -= ctl->rxq_base[port][q].packets;
	out->cycles -= ctl->rxq_base[port][q].cycles;
	out->kicks -= ctl->rxq_base[port][q].kicks;
}

int vsw_queue_info(const struct vsw_ctl *ctl, struct vsw_port *p, uint16_t q,
		   struct vsw_queue_info *qi)
{
	const struct vsw_queue_info *b = &ctl->qbase[p->id][q];

	if (p->ops->queue_info == NULL || p->ops->queue_info(p, q, qi) < 0)
		return -ENOTSUP;
	qi->calls -= b->calls;
	qi->enqueues -= b->enqueues;
	qi->enqueued -= b->enqueued;
	return 0;
}

void vsw_ctl_port_ctrs_reset(struct vsw_ctl *ctl, uint16_t port)
{
	struct vsw_port *p = ctl->ports[port];

	worker_ctrs(ctl, port, &ctl->base[port]);
	for (uint16_t q = 0; q < VSW_MAX_QUEUES; q++) {
		vsw_rxq_ctrs_raw(ctl, port, q, &ctl->rxq_base[port][q]);
		memset(&ctl->qbase[port][q], 0, sizeof(ctl->qbase[port][q]));
		if (p != NULL && p->ops->queue_info != NULL)
			p->ops->queue_info(p, q, &ctl->qbase[port][q]);
	}
}

void vsw_ctl_stats_clear(struct vsw_ctl *ctl)
{
	for (uint16_t id = 0; id < VSW_MAX_PORTS; id++)
		vsw_ctl_port_ctrs_reset(ctl, id);
	__atomic_store_n(&ctl->rt->clear_gen, ctl->rt->clear_gen + 1,
			 __ATOMIC_RELAXED);
}

void vsw_worker_iter_stats(const struct vsw_ctl *ctl,
			   const struct vsw_worker *w,
			   struct vsw_iter_stats *out)
{
	memset(out, 0, sizeof(*out));
	/* acquire: the worker's base and zeroed maximum are visible */
	if (__atomic_load_n(&w->clear_seen, __ATOMIC_ACQUIRE) !=
	    ctl->rt->clear_gen)
		return;
	for (unsigned int k = 0; k < VSW_ITER_BUCKETS; k++) {
		out->hist[k] =
			__atomic_load_n(&w->iter_hist[k], __ATOMIC_RELAXED) -
			w->iter_base[k];
		out->count += out->hist[k];
	}
	out->cycles = __atomic_load_n(&w->busy_cycles, __ATOMIC_RELAXED) +
		      __atomic_load_n(&w->idle_cycles, __ATOMIC_RELAXED) -
		      w->iter_cycles_base;
	out->max_cycles = __atomic_load_n(&w->iter_max, __ATOMIC_RELAXED);
}
