/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Telemetry commands under /vsw (read-only so far).
 *
 * Callbacks run on the telemetry library's threads, one per client
 * connection, possibly concurrently.  They never write worker state: they
 * read the control view of the ports under ctl_lock and sum the workers'
 * counters (each worker is the only writer of its own).  Replies stay
 * under telemetry's 16 KiB limit by pagination.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>

#include "ctl_priv.h"
#include "debug.h"
#include "vsw.h"

#define PORTS_PAGE 32
#define FDB_PAGE 100
#define FDB_PAGE_MAX 128

const char *const vsw_drop_names[VSW_DROP_MAX] = {
#define X(e, k, s, d) #k,
	VSW_DROP_REASONS(X)
#undef X
};

static uint64_t drops_total(const struct vsw_port_ctrs *c)
{
	uint64_t t = 0;

	for (int r = 0; r < VSW_DROP_MAX; r++)
		t += c->drops[r];
	return t;
}

/*
 * {"error": MESSAGE}: a telemetry string holds 127 characters, so a longer
 * message continues in "error_2", "error_3"... (vswctl joins them).
 */
int vsw_ctl_reply_error(struct rte_tel_data *d, const char *fmt,
			const char *arg)
{
	char msg[VSW_ERR_MAX], part[RTE_TEL_MAX_STRING_LEN], key[24];
	size_t len, off = 0;

	snprintf(msg, sizeof(msg), fmt, arg ? arg : "");
	len = strlen(msg);
	rte_tel_data_start_dict(d);
	for (int i = 1; i == 1 || off < len; i++) {
		snprintf(part, sizeof(part), "%.*s", (int)(sizeof(part) - 1),
			 msg + off);
		off += strlen(part);
		if (i == 1)
			snprintf(key, sizeof(key), "error");
		else
			snprintf(key, sizeof(key), "error_%d", i);
		rte_tel_data_add_dict_string(d, key, part);
	}
	return 0;
}

/*
 * The start of every command: check and parse @params for @cmd, refuse a
 * mutating command when control is read-only, take ctl_lock and refuse
 * once the switch is stopping.  Returns false with the error reply
 * written (and the lock not held), true with the lock held.
 */
bool vsw_ctl_begin(struct rte_tel_data *d, const char *cmd, const char *params,
		   struct vsw_args *a, bool mutating)
{
	const struct vsw_args_cmd *c = vsw_args_find(cmd);
	char err[VSW_ERR_MAX];

	if (c == NULL) {
		vsw_ctl_reply_error(d, "no parser for %s", cmd);
		return false;
	}
	if (vsw_args_parse(c, params, a, err, sizeof(err)) < 0) {
		vsw_ctl_reply_error(d, "%s", err);
		return false;
	}
	if (mutating && vsw.cfg.sw.read_only) {
		vsw_ctl_reply_error(d,
				    "%s: refused, vsw runs with control = "
				    "read-only",
				    cmd);
		return false;
	}
	pthread_mutex_lock(&vsw.ctl_lock);
	if (vsw.stopping) {
		pthread_mutex_unlock(&vsw.ctl_lock);
		vsw_ctl_reply_error(d, "vsw is stopping%s", NULL);
		return false;
	}
	return true;
}

void vsw_ctl_end(void)
{
	pthread_mutex_unlock(&vsw.ctl_lock);
}

static const char *port_state(const struct vsw_port *p)
{
	return vsw_port_is_up(p) ? "up" : "down";
}

static int cmd_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct vsw_config *cfg = &vsw.cfg;
	unsigned int n_ports = 0;
	struct vsw_args a;

	if (!vsw_ctl_begin(d, cmd, params, &a, false))
		return 0;
	for (int i = 0; i < VSW_MAX_PORTS; i++)
		n_ports += vsw.ports[i] != NULL;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "version", VSW_VERSION);
	rte_tel_data_add_dict_u64(d, "debug_build", VSW_DEBUG_BUILD);
	rte_tel_data_add_dict_string(
		d, "control", cfg->sw.read_only ? "read-only" : "read-write");
	rte_tel_data_add_dict_u64(d, "pid", (uint64_t)getpid());
	rte_tel_data_add_dict_u64(d, "uptime_s",
				  (rte_rdtsc() - vsw.start_tsc) /
					  rte_get_tsc_hz());
	rte_tel_data_add_dict_string(d, "config", cfg->source);
	rte_tel_data_add_dict_string(d, "run_dir", cfg->sw.run_dir);
	rte_tel_data_add_dict_string(d, "file_prefix", vsw.file_prefix);
	rte_tel_data_add_dict_u64(d, "workers", vsw.n_workers);
	rte_tel_data_add_dict_u64(d, "ports", n_ports);
	rte_tel_data_add_dict_u64(d, "burst", cfg->sw.burst);
	rte_tel_data_add_dict_u64(d, "tx_flush_interval_us",
				  cfg->sw.tx_flush_interval_us);
	rte_tel_data_add_dict_u64(d, "tx_retries", cfg->sw.tx_retries);
	rte_tel_data_add_dict_string(d, "poll_mode",
				     vsw_poll_mode_str(cfg->sw.poll_mode));
	rte_tel_data_add_dict_string(d, "kick_suppression",
				     cfg->sw.kicks_allowed ? "off" : "on");
	rte_tel_data_add_dict_u64(d, "idle_threshold_us",
				  cfg->sw.idle_threshold_us);
	rte_tel_data_add_dict_u64(d, "max_sleep_us", cfg->sw.max_sleep_us);
	rte_tel_data_add_dict_u64(d, "rebalance_interval_s",
				  cfg->sw.rebalance_interval_s);
	rte_tel_data_add_dict_u64(d, "rebalance_threshold_pct",
				  cfg->sw.rebalance_threshold_pct);
	rte_tel_data_add_dict_u64(d, "fdb_size", vsw_fdb_max(vsw.fdb));
	rte_tel_data_add_dict_u64(d, "fdb_aging_s", cfg->sw.fdb_aging_s);
	rte_tel_data_add_dict_u64(d, "fdb_entries", vsw_fdb_count(vsw.fdb));
	rte_tel_data_add_dict_u64(d, "mbufs_total", vsw.mp->size);
	rte_tel_data_add_dict_u64(d, "mbufs_in_use",
				  vsw.mp->size -
					  rte_mempool_avail_count(vsw.mp));
	vsw_ctl_end();
	return 0;
}

static void add_port_summary(struct rte_tel_data *d, const struct vsw_port *p)
{
	struct rte_tel_data *c = rte_tel_data_alloc();
	struct vsw_port_ctrs s;

	if (c == NULL)
		return;
	vsw_port_ctrs_sum(&vsw, p->id, &s);
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_u64(c, "id", p->id);
	rte_tel_data_add_dict_string(c, "type", vsw_port_type_str(p->type));
	rte_tel_data_add_dict_string(c, "state", port_state(p));
	rte_tel_data_add_dict_u64(c, "queues", p->n_rxq);
	rte_tel_data_add_dict_u64(c, "rx_packets", s.rx_packets);
	rte_tel_data_add_dict_u64(c, "rx_bytes", s.rx_bytes);
	rte_tel_data_add_dict_u64(c, "tx_packets", s.tx_packets);
	rte_tel_data_add_dict_u64(c, "tx_bytes", s.tx_bytes);
	rte_tel_data_add_dict_u64(c, "drops", drops_total(&s));
	rte_tel_data_add_dict_container(d, p->name, c, 0);
}

static int cmd_ports(const char *cmd, const char *params,
		     struct rte_tel_data *d)
{
	unsigned int total = 0, shown = 0;
	unsigned long *v;
	struct vsw_args a;

	if (!vsw_ctl_begin(d, cmd, params, &a, false))
		return 0;
	v = a.n;
	if (v[1] == 0 || v[1] > PORTS_PAGE)
		v[1] = PORTS_PAGE;
	rte_tel_data_start_dict(d);
	for (int i = 0; i < VSW_MAX_PORTS; i++)
		total += vsw.ports[i] != NULL;
	rte_tel_data_add_dict_u64(d, "total", total);
	rte_tel_data_add_dict_u64(d, "offset", v[0]);
	for (unsigned int i = 0, seen = 0; i < VSW_MAX_PORTS; i++) {
		if (vsw.ports[i] == NULL || seen++ < v[0])
			continue;
		if (shown == v[1])
			break;
		add_port_summary(d, vsw.ports[i]);
		shown++;
	}
	vsw_ctl_end();
	rte_tel_data_add_dict_u64(d, "next_offset",
				  v[0] + shown < total ? v[0] + shown : 0);
	return 0;
}

static const char *const flush_bucket_names[VSW_FLUSH_BUCKETS] = {
	"flush_1",    "flush_2_3",   "flush_4_7",
	"flush_8_15", "flush_16_31", "flush_32_up",
};

void vsw_ctl_add_ratio(struct rte_tel_data *d, const char *key, uint64_t num,
		       uint64_t den)
{
	char v[32];

	snprintf(v, sizeof(v), "%.2f", den ? (double)num / (double)den : 0.0);
	rte_tel_data_add_dict_string(d, key, v);
}

static void add_flush_stats(struct rte_tel_data *d,
			    const struct vsw_port_ctrs *s)
{
	vsw_ctl_add_ratio(d, "pkts_per_flush",
			  s->tx_packets + s->drops[VSW_DROP_TX_FULL],
			  s->tx_flushes);
	for (int b = 0; b < VSW_FLUSH_BUCKETS; b++)
		rte_tel_data_add_dict_u64(d, flush_bucket_names[b],
					  s->flush_hist[b]);
}

/* Kicks received and calls sent, over every queue of the port. */
static void add_queue_totals(struct rte_tel_data *d, struct vsw_port *p)
{
	uint64_t kicks = 0, calls = 0;
	struct vsw_queue_info qi;
	struct vsw_rxq_ctrs r;

	for (uint16_t q = 0; q < p->n_rxq && q < VSW_MAX_QUEUES; q++) {
		vsw_rxq_ctrs_sum(&vsw, p->id, q, &r);
		kicks += r.kicks;
		if (vsw_queue_info(&vsw, p, q, &qi) == 0)
			calls += qi.calls;
	}
	rte_tel_data_add_dict_u64(d, "guest_kicks", kicks);
	rte_tel_data_add_dict_u64(d, "guest_calls", calls);
}

/*
 * A telemetry string holds 127 characters (review L6): a longer value is
 * shown cut with "..." at the end, and KEY_len says how long it is.
 */
static void add_long_string(struct rte_tel_data *d, const char *key,
			    const char *v)
{
	char buf[RTE_TEL_MAX_STRING_LEN], lkey[64];
	size_t len = strlen(v);

	if (len < sizeof(buf)) {
		rte_tel_data_add_dict_string(d, key, v);
		return;
	}
	snprintf(buf, sizeof(buf), "%.*s...", (int)sizeof(buf) - 4, v);
	rte_tel_data_add_dict_string(d, key, buf);
	snprintf(lkey, sizeof(lkey), "%s_len", key);
	rte_tel_data_add_dict_u64(d, lkey, len);
}

/* allowed_macs: [] for any source MAC, else the list. */
static void add_allowed_macs(struct rte_tel_data *d, const struct vsw_port *p)
{
	struct rte_tel_data *a = rte_tel_data_alloc();
	char mac[24];

	if (a == NULL)
		return;
	rte_tel_data_start_array(a, RTE_TEL_STRING_VAL);
	for (unsigned int i = 0; i < p->conf.n_allowed; i++) {
		const uint8_t *m = p->conf.allowed[i];

		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x",
			 m[0], m[1], m[2], m[3], m[4], m[5]);
		rte_tel_data_add_array_string(a, mac);
	}
	rte_tel_data_add_dict_container(d, "allowed_macs", a, 0);
}

static void add_port_detail(struct rte_tel_data *d, struct vsw_port *p)
{
	char key[64];
	struct vsw_port_ctrs s;
	struct vsw_port_info pi;

	vsw_port_ctrs_sum(&vsw, p->id, &s);
	vsw_port_info_get(p, &pi);
	rte_tel_data_add_dict_u64(d, "id", p->id);
	rte_tel_data_add_dict_string(d, "name", p->name);
	rte_tel_data_add_dict_string(d, "type", vsw_port_type_str(p->type));
	rte_tel_data_add_dict_string(d, "state", port_state(p));
	rte_tel_data_add_dict_string(
		d, "path", p->type == VSW_PORT_VHOST ? p->conf.path : "");
	rte_tel_data_add_dict_string(d, "mode",
				     p->type == VSW_PORT_VHOST
					     ? vsw_vhost_mode_str(p->conf.mode)
					     : "");
	add_long_string(d, "devargs", p->conf.devargs);
	rte_tel_data_add_dict_u64(d, "queues", p->n_rxq);
	rte_tel_data_add_dict_u64(d, "queues_max", p->conf.queues);
	if (pi.has_peer_queues)
		rte_tel_data_add_dict_u64(d, "guest_queue_pairs",
					  pi.peer_queues);
	rte_tel_data_add_dict_u64(d, "mtu", p->conf.mtu);
	rte_tel_data_add_dict_u64(d, "max_macs", p->conf.max_macs);
	rte_tel_data_add_dict_u64(d, "fdb_entries",
				  vsw_fdb_port_count(vsw.fdb, p->id));
	rte_tel_data_add_dict_u64(d, "macs_limited", s.macs_limited);
	add_allowed_macs(d, p);
	rte_tel_data_add_dict_int(d, "vid", pi.vid);
	rte_tel_data_add_dict_u64(d, "connects", p->connects);
	rte_tel_data_add_dict_u64(d, "tx_queues_shared", pi.tx_queues_shared);
	rte_tel_data_add_dict_u64(d, "disconnects", p->disconnects);
	rte_tel_data_add_dict_u64(d, "rx_packets", s.rx_packets);
	rte_tel_data_add_dict_u64(d, "rx_bytes", s.rx_bytes);
	rte_tel_data_add_dict_u64(d, "tx_packets", s.tx_packets);
	rte_tel_data_add_dict_u64(d, "tx_bytes", s.tx_bytes);
	rte_tel_data_add_dict_u64(d, "unicast", s.unicast);
	rte_tel_data_add_dict_u64(d, "flooded", s.flooded);
	rte_tel_data_add_dict_u64(d, "flood_copies", s.flood_copies);
	rte_tel_data_add_dict_u64(d, "tx_flushes", s.tx_flushes);
	add_flush_stats(d, &s);
	add_queue_totals(d, p);
	rte_tel_data_add_dict_u64(d, "drops", drops_total(&s));
	for (int r = 0; r < VSW_DROP_MAX; r++) {
		snprintf(key, sizeof(key), "drop_%s", vsw_drop_names[r]);
		rte_tel_data_add_dict_u64(d, key, s.drops[r]);
	}
}

/*
 * The port named by a command's parameter: returned with ctl_lock held, or
 * NULL (lock released) after replying an error.
 */
static struct vsw_port *port_param(struct rte_tel_data *d, const char *cmd,
				   const char *params)
{
	struct vsw_port *p;
	struct vsw_args a;

	if (!vsw_ctl_begin(d, cmd, params, &a, false))
		return NULL;
	p = vsw_ctl_port_by_name(&vsw, a.name);
	if (p == NULL) {
		vsw_ctl_end();
		vsw_ctl_reply_error(d, "unknown port '%s'", a.name);
	}
	return p;
}

static int cmd_port(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct vsw_port *p;

	p = port_param(d, cmd, params);
	if (p == NULL)
		return 0;
	rte_tel_data_start_dict(d);
	add_port_detail(d, p);
	vsw_ctl_end();
	return 0;
}

struct fdb_walk {
	struct rte_tel_data *d;
	unsigned long index;
	uint32_t now;
};

static void add_fdb_entry(uint64_t key, uint64_t val, void *arg)
{
	struct fdb_walk *w = arg;
	struct rte_tel_data *c = rte_tel_data_alloc();
	uint16_t port = vsw_fdb_val_port(val);
	char mac[24], idx[24];
	uint8_t m[6];

	if (c == NULL)
		return;
	vsw_fdb_key_mac(key, m);
	snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1],
		 m[2], m[3], m[4], m[5]);
	snprintf(idx, sizeof(idx), "%lu", w->index++);
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_string(c, "mac", mac);
	rte_tel_data_add_dict_u64(c, "vlan", vsw_fdb_key_vlan(key));
	rte_tel_data_add_dict_string(c, "port",
				     port < VSW_MAX_PORTS && vsw.ports[port]
					     ? vsw.ports[port]->name
					     : "?");
	rte_tel_data_add_dict_u64(c, "age_s", w->now - vsw_fdb_val_time(val));
	rte_tel_data_add_dict_u64(c, "static",
				  (val & VSW_FDB_VAL_STATIC) ? 1 : 0);
	rte_tel_data_add_dict_container(w->d, idx, c, 0);
}

static int cmd_fdb(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct fdb_walk w = {.d = d};
	unsigned int total, n;
	unsigned long *v;
	struct vsw_args a;

	if (!vsw_ctl_begin(d, cmd, params, &a, false))
		return 0;
	v = a.n;
	if (v[1] == 0)
		v[1] = FDB_PAGE;
	if (v[1] > FDB_PAGE_MAX)
		v[1] = FDB_PAGE_MAX;
	w.index = v[0];
	w.now = __atomic_load_n(&vsw.now_s, __ATOMIC_RELAXED);
	rte_tel_data_start_dict(d);
	total = vsw_fdb_count(vsw.fdb);
	rte_tel_data_add_dict_u64(d, "total", total);
	rte_tel_data_add_dict_u64(d, "offset", v[0]);
	n = vsw_fdb_walk(vsw.fdb, (unsigned int)v[0], (unsigned int)v[1],
			 add_fdb_entry, &w);
	vsw_ctl_end();
	rte_tel_data_add_dict_u64(d, "next_offset",
				  n == v[1] && v[0] + n < total ? v[0] + n : 0);
	return 0;
}

static int cmd_fdb_stats(const char *cmd, const char *params,
			 struct rte_tel_data *d)
{
	struct vsw_fdb_wstats t = {0};
	const struct vsw_fdb_cstats *c;
	struct vsw_args a;

	if (!vsw_ctl_begin(d, cmd, params, &a, false))
		return 0;
	c = vsw_fdb_cstats(vsw.fdb);
	for (unsigned int i = 0; i < vsw.n_workers; i++) {
		t.learned += vsw.workers[i]->fdbst.learned;
		t.moved += vsw.workers[i]->fdbst.moved;
		t.refused += vsw.workers[i]->fdbst.refused;
		t.busy += vsw.workers[i]->fdbst.busy;
		t.limited += vsw.workers[i]->fdbst.limited;
		t.evicted += vsw.workers[i]->fdbst.evicted;
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "entries", vsw_fdb_count(vsw.fdb));
	rte_tel_data_add_dict_u64(d, "size", vsw_fdb_max(vsw.fdb));
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
	vsw_ctl_end();
	return 0;
}

/* Each polled rx queue: packets and share of the worker's rx cycles. */
static void add_worker_rxqs(struct rte_tel_data *c, const struct vsw_worker *w)
{
	const struct vsw_dp *dp = vsw.dp;
	uint64_t total = 0, cyc[VSW_MAX_WORKER_RXQ];
	char key[64];
	uint16_t n = dp->wk[w->idx].n < 100 ? dp->wk[w->idx].n : 100;

	for (uint16_t i = 0; i < n; i++) {
		const struct vsw_rxq_ref *r = &dp->wk[w->idx].rxq[i];
		struct vsw_rxq_ctrs rc;

		vsw_rxq_ctrs_sum(&vsw, r->port, r->q, &rc);
		cyc[i] = rc.cycles;
		total += rc.cycles;
	}
	for (uint16_t i = 0; i < n; i++) {
		const struct vsw_rxq_ref *r = &dp->wk[w->idx].rxq[i];
		const char *name =
			vsw.ports[r->port] ? vsw.ports[r->port]->name : "?";

		snprintf(key, sizeof(key), "rxq_%s_%u_pct", name, r->q);
		rte_tel_data_add_dict_u64(c, key,
					  total ? cyc[i] * 100 / total : 0);
	}
}

static void add_worker(struct rte_tel_data *d, const struct vsw_worker *w)
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
	rte_tel_data_add_dict_u64(c, "rxqs", vsw.dp->wk[w->idx].n);
	add_worker_rxqs(c, w);
	snprintf(key, sizeof(key), "worker%u", w->idx);
	rte_tel_data_add_dict_container(d, key, c, 0);
}

static int cmd_workers(const char *cmd, const char *params,
		       struct rte_tel_data *d)
{
	struct vsw_args a;

	if (!vsw_ctl_begin(d, cmd, params, &a, false))
		return 0;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "total", vsw.n_workers);
	rte_tel_data_add_dict_u64(d, "tsc_hz", rte_get_tsc_hz());
	for (unsigned int i = 0; i < vsw.n_workers; i++)
		add_worker(d, vsw.workers[i]);
	vsw_ctl_end();
	return 0;
}

static void add_queue(struct rte_tel_data *d, struct vsw_port *p, uint16_t q)
{
	struct rte_tel_data *c = rte_tel_data_alloc();
	int owner = vsw.rxq_owner[p->id][q];
	struct vsw_queue_info qi;
	struct vsw_rxq_ctrs r;
	char key[16];

	if (c == NULL)
		return;
	vsw_rxq_ctrs_sum(&vsw, p->id, q, &r);
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_int(c, "worker", owner >= 0 ? owner : -1);
	rte_tel_data_add_dict_u64(c, "rx_packets", r.packets);
	rte_tel_data_add_dict_u64(c, "rx_cycles", r.cycles);
	rte_tel_data_add_dict_u64(c, "kicks", r.kicks);
	if (vsw_queue_info(&vsw, p, q, &qi) == 0) {
		rte_tel_data_add_dict_u64(c, "present", qi.present);
		rte_tel_data_add_dict_u64(c, "tx_enabled", qi.tx_enabled);
		rte_tel_data_add_dict_u64(c, "kicks_suppressed", qi.kicks_off);
		rte_tel_data_add_dict_string(c, "guest_wants", qi.intent);
		rte_tel_data_add_dict_u64(c, "ring_size", qi.size);
		rte_tel_data_add_dict_u64(c, "calls", qi.calls);
		rte_tel_data_add_dict_u64(c, "enqueues", qi.enqueues);
		rte_tel_data_add_dict_u64(c, "enqueued", qi.enqueued);
		vsw_ctl_add_ratio(c, "pkts_per_enqueue", qi.enqueued,
				  qi.enqueues);
		vsw_ctl_add_ratio(c, "calls_per_pkt", qi.calls, qi.enqueued);
	}
	snprintf(key, sizeof(key), "q%u", q);
	rte_tel_data_add_dict_container(d, key, c, 0);
}

static int cmd_queues(const char *cmd, const char *params,
		      struct rte_tel_data *d)
{
	struct vsw_port *p;

	p = port_param(d, cmd, params);
	if (p == NULL)
		return 0;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "port", p->name);
	rte_tel_data_add_dict_string(d, "type", vsw_port_type_str(p->type));
	rte_tel_data_add_dict_u64(d, "queues", p->n_rxq);
	for (uint16_t q = 0; q < p->n_rxq && q < VSW_MAX_QUEUES; q++)
		add_queue(d, p, q);
	vsw_ctl_end();
	return 0;
}

int vsw_ctl_register(void)
{
	static const struct {
		const char *name;
		telemetry_cb fn;
		const char *help;
	} cmds[] = {
		{"/vsw/info", cmd_info, "[read-only] Switch summary"},
		{"/vsw/ports", cmd_ports,
		 "[read-only] Ports and counters. Parameters: "
		 "[OFFSET[,COUNT]]"},
		{"/vsw/port", cmd_port,
		 "[read-only] One port, every counter. Parameter: NAME"},
		{"/vsw/fdb", cmd_fdb,
		 "[read-only] FDB entries. Parameters: [OFFSET[,COUNT<=128]]"},
		{"/vsw/fdb/stats", cmd_fdb_stats, "[read-only] FDB counters"},
		{"/vsw/workers", cmd_workers,
		 "[read-only] Workers: cycles, packets, rx queues"},
		{"/vsw/queues", cmd_queues,
		 "[read-only] Queues of a port: worker, kicks, guest "
		 "interrupts. Parameter: PORT"},
	};

	for (size_t i = 0; i < RTE_DIM(cmds); i++)
		if (rte_telemetry_register_cmd(cmds[i].name, cmds[i].fn,
					       cmds[i].help) < 0)
			return -EINVAL;
	return vsw_ctl_register_writes();
}
