/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Read-only telemetry commands about the FDB, the workers and a port's
 * queues: /vsw/fdb, /vsw/fdb/stats, /vsw/workers, /vsw/queues.  Same
 * threading as tel_show.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_telemetry.h>

#include "config/vsw_iter_hist.h"
#include "control/control.h"
#include "tel.h"

#define FDB_PAGE 100
#define FDB_PAGE_MAX 128

struct fdb_walk {
	const struct vsw_ctl *ctl;
	struct rte_tel_data *d;
	uint32_t now;
};

static void add_fdb_entry(uint64_t key, uint64_t val, uint64_t pos, void *arg)
{
	struct fdb_walk *w = arg;
	const struct vsw_ctl *ctl = w->ctl;
	struct rte_tel_data *c = rte_tel_data_alloc();
	uint16_t port = vsw_fdb_val_port(val);
	char mac[24], idx[24];
	uint8_t m[6];

	if (c == NULL)
		return;
	vsw_fdb_key_mac(key, m);
	vsw_config_mac_str(m, mac);
	snprintf(idx, sizeof(idx), "%" PRIu64, pos);
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_string(c, "mac", mac);
	rte_tel_data_add_dict_u64(c, "vlan", vsw_fdb_key_vlan(key));
	rte_tel_data_add_dict_string(c, "port",
				     port < VSW_MAX_PORTS && ctl->ports[port]
					     ? ctl->ports[port]->name
					     : "?");
	if (vsw_fdb_val_ep(val) != 0 && port < VSW_MAX_PORTS &&
	    ctl->ports[port] != NULL &&
	    ctl->ports[port]->ops->endpoint != NULL &&
	    ctl->ports[port]->ops->endpoint(ctl->ports[port],
					    vsw_fdb_val_ep(val), idx,
					    sizeof(idx)) == 0)
		rte_tel_data_add_dict_string(c, "endpoint", idx);
	snprintf(idx, sizeof(idx), "%" PRIu64, pos);
	rte_tel_data_add_dict_u64(c, "age_s", w->now - vsw_fdb_val_time(val));
	rte_tel_data_add_dict_u64(c, "static",
				  (val & VSW_FDB_VAL_STATIC) ? 1 : 0);
	rte_tel_data_add_dict_container(w->d, idx, c, 0);
}

static int cmd_fdb(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct vsw_ctl *ctl;
	struct fdb_walk w = {.d = d};
	unsigned long *v;
	struct vsw_args a;
	uint64_t pos;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, false)) == NULL)
		return 0;
	w.ctl = ctl;
	v = a.n;
	if (v[1] == 0)
		v[1] = FDB_PAGE;
	if (v[1] > FDB_PAGE_MAX)
		v[1] = FDB_PAGE_MAX;
	pos = v[0];
	w.now = __atomic_load_n(&ctl->rt->now_s, __ATOMIC_RELAXED);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "total", vsw_fdb_count(ctl->rt->fdb));
	rte_tel_data_add_dict_u64(d, "offset", v[0]);
	/* a cursor, not an entry count: a page costs its own entries */
	vsw_fdb_walk(ctl->rt->fdb, &pos, (unsigned int)v[1], add_fdb_entry, &w);
	vsw_tel_end(ctl);
	rte_tel_data_add_dict_u64(d, "next_offset", pos);
	return 0;
}

static int cmd_fdb_stats(const char *cmd, const char *params,
			 struct rte_tel_data *d)
{
	struct vsw_ctl *ctl;
	struct vsw_fdb_wstats t = {0};
	const struct vsw_fdb_cstats *c;
	struct vsw_args a;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, false)) == NULL)
		return 0;
	c = vsw_fdb_cstats(ctl->rt->fdb);
	for (unsigned int i = 0; i < ctl->rt->n_workers; i++) {
		t.learned += ctl->rt->workers[i]->fdbst.learned;
		t.moved += ctl->rt->workers[i]->fdbst.moved;
		t.refused += ctl->rt->workers[i]->fdbst.refused;
		t.busy += ctl->rt->workers[i]->fdbst.busy;
		t.limited += ctl->rt->workers[i]->fdbst.limited;
		t.evicted += ctl->rt->workers[i]->fdbst.evicted;
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "entries", vsw_fdb_count(ctl->rt->fdb));
	rte_tel_data_add_dict_u64(d, "size", vsw_fdb_max(ctl->rt->fdb));
	rte_tel_data_add_dict_u64(d, "learned", t.learned);
	rte_tel_data_add_dict_u64(d, "moved", t.moved);
	rte_tel_data_add_dict_u64(d, "refused", t.refused);
	rte_tel_data_add_dict_u64(d, "busy", t.busy);
	rte_tel_data_add_dict_u64(d, "limited", t.limited);
	rte_tel_data_add_dict_u64(d, "evicted", t.evicted);
	rte_tel_data_add_dict_u64(d, "trimmed", c->trimmed);
	rte_tel_data_add_dict_u64(d, "aged", c->aged);
	rte_tel_data_add_dict_u64(d, "flushed", c->flushed);
	rte_tel_data_add_dict_u64(d, "deleted", c->deleted);
	vsw_tel_end(ctl);
	return 0;
}

/* Each polled rx queue: packets and share of the worker's rx cycles. */
static void add_worker_rxqs(const struct vsw_ctl *ctl, struct rte_tel_data *c,
			    const struct vsw_worker *w)
{
	const struct vsw_table *dp = ctl->rt->table;
	uint64_t total = 0, cyc[VSW_MAX_WORKER_RXQ];
	char key[64];
	uint16_t n = dp->wk[w->idx].n < 100 ? dp->wk[w->idx].n : 100;

	for (uint16_t i = 0; i < n; i++) {
		const struct vsw_rxq_ref *r = &dp->wk[w->idx].rxq[i];
		struct vsw_rxq_ctrs rc;

		vsw_rxq_ctrs_sum(ctl, r->port, r->q, &rc);
		cyc[i] = rc.cycles;
		total += rc.cycles;
	}
	for (uint16_t i = 0; i < n; i++) {
		const struct vsw_rxq_ref *r = &dp->wk[w->idx].rxq[i];
		const char *name =
			ctl->ports[r->port] ? ctl->ports[r->port]->name : "?";

		snprintf(key, sizeof(key), "rxq_%s_%u_pct", name, r->q);
		rte_tel_data_add_dict_u64(c, key,
					  total ? cyc[i] * 100 / total : 0);
	}
}

/* TSC cycles as whole microseconds, for any count (no overflow). */
static uint64_t cycles_us(uint64_t cyc, uint64_t hz)
{
	return hz ? cyc / hz * 1000000 + cyc % hz * 1000000 / hz : 0;
}

/*
 * Iteration lengths since the last stats/clear: the longest, the count,
 * the time, and the buckets that hold any (config/vsw_iter_hist.h).
 */
static void add_worker_iters(const struct vsw_ctl *ctl, struct rte_tel_data *c,
			     const struct vsw_worker *w)
{
	uint64_t hz = rte_get_tsc_hz();
	struct vsw_iter_stats st;
	char key[48];

	vsw_worker_iter_stats(ctl, w, &st);
	rte_tel_data_add_dict_u64(c, "iter_count", st.count);
	rte_tel_data_add_dict_u64(c, "iter_total_us", cycles_us(st.cycles, hz));
	rte_tel_data_add_dict_u64(c, "iter_max_cycles", st.max_cycles);
	rte_tel_data_add_dict_u64(c, "iter_max_us",
				  cycles_us(st.max_cycles, hz));
	for (unsigned int k = 0; k < VSW_ITER_BUCKETS; k++) {
		if (st.hist[k] == 0)
			continue;
		vsw_iter_bucket_key(k, key, sizeof(key));
		rte_tel_data_add_dict_u64(c, key, st.hist[k]);
	}
}

static void add_worker(const struct vsw_ctl *ctl, struct rte_tel_data *d,
		       const struct vsw_worker *w)
{
	struct rte_tel_data *c = rte_tel_data_alloc();
	uint64_t busy = w->busy_cycles, all = busy + w->idle_cycles;
	char key[32];

	if (c == NULL)
		return;
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_u64(c, "lcore", w->lcore);
	rte_tel_data_add_dict_u64(c, "iterations", w->iterations);
	rte_tel_data_add_dict_u64(c, "rx_packets", w->rx_packets);
	rte_tel_data_add_dict_u64(c, "busy_cycles", busy);
	rte_tel_data_add_dict_u64(c, "idle_cycles", w->idle_cycles);
	rte_tel_data_add_dict_u64(c, "busy_pct", all ? busy * 100 / all : 0);
	rte_tel_data_add_dict_u64(c, "cycles_per_packet",
				  w->rx_packets ? busy / w->rx_packets : 0);
	rte_tel_data_add_dict_u64(c, "sleeps", w->sleeps);
	rte_tel_data_add_dict_u64(c, "sleep_us", w->sleep_us);
	rte_tel_data_add_dict_u64(c, "wakeups_rx", w->wakeups_rx);
	rte_tel_data_add_dict_u64(c, "rxqs", ctl->rt->table->wk[w->idx].n);
	add_worker_iters(ctl, c, w);
	add_worker_rxqs(ctl, c, w);
	snprintf(key, sizeof(key), "worker%u", w->idx);
	rte_tel_data_add_dict_container(d, key, c, 0);
}

static int cmd_workers(const char *cmd, const char *params,
		       struct rte_tel_data *d)
{
	struct vsw_ctl *ctl;
	struct vsw_args a;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, false)) == NULL)
		return 0;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "total", ctl->rt->n_workers);
	rte_tel_data_add_dict_u64(d, "tsc_hz", rte_get_tsc_hz());
	for (unsigned int i = 0; i < ctl->rt->n_workers; i++)
		add_worker(ctl, d, ctl->rt->workers[i]);
	vsw_tel_end(ctl);
	return 0;
}

static void add_queue(const struct vsw_ctl *ctl, struct rte_tel_data *d,
		      struct vsw_port *p, uint16_t q)
{
	struct rte_tel_data *c = rte_tel_data_alloc();
	int owner = ctl->rxq_owner[p->id][q];
	struct vsw_queue_info qi;
	struct vsw_rxq_ctrs r;
	char key[16];

	if (c == NULL)
		return;
	vsw_rxq_ctrs_sum(ctl, p->id, q, &r);
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_int(c, "worker", owner >= 0 ? owner : -1);
	rte_tel_data_add_dict_u64(c, "rx_packets", r.packets);
	rte_tel_data_add_dict_u64(c, "rx_cycles", r.cycles);
	rte_tel_data_add_dict_u64(c, "kicks", r.kicks);
	if (vsw_queue_info(ctl, p, q, &qi) == 0) {
		rte_tel_data_add_dict_u64(c, "present", qi.present);
		rte_tel_data_add_dict_u64(c, "tx_enabled", qi.tx_enabled);
		rte_tel_data_add_dict_u64(c, "kicks_suppressed", qi.kicks_off);
		rte_tel_data_add_dict_string(c, "guest_wants", qi.intent);
		rte_tel_data_add_dict_u64(c, "ring_size", qi.size);
		rte_tel_data_add_dict_u64(c, "calls", qi.calls);
		rte_tel_data_add_dict_u64(c, "enqueues", qi.enqueues);
		rte_tel_data_add_dict_u64(c, "enqueued", qi.enqueued);
		vsw_tel_add_ratio(c, "pkts_per_enqueue", qi.enqueued,
				  qi.enqueues);
		vsw_tel_add_ratio(c, "calls_per_pkt", qi.calls, qi.enqueued);
	}
	snprintf(key, sizeof(key), "q%u", q);
	rte_tel_data_add_dict_container(d, key, c, 0);
}

static int cmd_queues(const char *cmd, const char *params,
		      struct rte_tel_data *d)
{
	struct vsw_ctl *ctl;
	struct vsw_port *p;

	p = vsw_tel_port_param(d, cmd, params, &ctl);
	if (p == NULL)
		return 0;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "port", p->name);
	rte_tel_data_add_dict_string(d, "type", vsw_port_type_str(p->type));
	rte_tel_data_add_dict_u64(d, "queues", p->n_rxq);
	for (uint16_t q = 0; q < p->n_rxq && q < VSW_MAX_QUEUES; q++)
		add_queue(ctl, d, p, q);
	vsw_tel_end(ctl);
	return 0;
}

int vsw_tel_register_stats(void)
{
	static const struct vsw_tel_cmd cmds[] = {
		{"/vsw/fdb", cmd_fdb,
		 "[read-only] FDB entries. Parameters: [OFFSET[,COUNT<=128]]"},
		{"/vsw/fdb/stats", cmd_fdb_stats, "[read-only] FDB counters"},
		{"/vsw/workers", cmd_workers,
		 "[read-only] Workers: cycles, packets, iteration lengths, "
		 "rx queues"},
		{"/vsw/queues", cmd_queues,
		 "[read-only] Queues of a port: worker, kicks, guest "
		 "interrupts. Parameter: PORT"},
	};

	return vsw_tel_register(cmds, RTE_DIM(cmds));
}
