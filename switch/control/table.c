/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The datapath table's publication.
 *
 * Control builds a complete new table from its state
 * (datapath/table_build.c, a pure function: the rules are there),
 * publishes it with a release store and waits two grace periods (the
 * table rule in datapath/table.h): after the first every worker has seen
 * the new pointer; after the second every worker has finished the
 * iteration that flushed what it buffered under the old table through the
 * old table.  Only then is the old table freed, and only then may the
 * caller destroy a port the new table dropped or give a parked queue to
 * another worker.  Who polls each rx queue is control state (rxq_owner):
 * the build assigns the unassigned ones, and control keeps what it chose
 * only once the table is built.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>

#include "common/debug.h"
#include "control.h"

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

int vsw_table_publish(struct vsw_ctl *ctl, char *err, size_t errlen)
{
	int8_t owner[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	unsigned int lcores[VSW_MAX_WORKERS];
	struct vsw_capture *caps[VSW_MAX_PORTS];
	struct vsw_table_src src = {
		.sw = &ctl->cfg.sw,
		.ports = ctl->ports,
		.owner = owner,
		.lcores = lcores,
		.n_workers = ctl->rt->n_workers,
		.hz = rte_get_tsc_hz(),
		.room = rte_pktmbuf_data_room_size(ctl->rt->mp) -
			RTE_PKTMBUF_HEADROOM,
		.mp = ctl->rt->mp,
		.caps = caps,
	};
	struct vsw_table *t, *old;
	int rc;

	for (unsigned int i = 0; i < ctl->rt->n_workers; i++)
		lcores[i] = ctl->rt->workers[i]->lcore;
	memcpy(owner, ctl->rxq_owner, sizeof(owner));
	vsw_ctl_capture_ptrs(ctl, caps);
	t = rte_malloc("vsw_table", sizeof(*t), RTE_CACHE_LINE_SIZE);
	if (t == NULL) {
		snprintf(err, errlen, "out of memory for the datapath table");
		return -ENOMEM;
	}
	rc = vsw_table_build(&src, t, err, errlen);
	if (rc < 0) {
		rte_free(t);
		return rc;
	}
	memcpy(ctl->rxq_owner, owner, sizeof(owner));
	old = ctl->rt->table;
	__atomic_store_n(&ctl->rt->table, t, __ATOMIC_RELEASE);
	if (old != NULL) {
		vsw_quiesce(ctl->rt); /* every worker has seen t */
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
