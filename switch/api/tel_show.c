/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Read-only telemetry commands about the switch and its ports: /vsw/info,
 * /vsw/ports, /vsw/port, /vsw/config, /vsw/capture (tel_stats.c: FDB,
 * workers, queues).
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

#include <linux/virtio_net.h>

#include <rte_cycles.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>

#include "control/control.h"
#include "ovsdb/ovsdb.h"
#include "tel.h"
#include "common/debug.h"

#define PORTS_PAGE 32

static const char *port_state(const struct vsw_port *p)
{
	return vsw_port_is_up(p) ? "up" : "down";
}

/* The OVSDB client's state (ctl_lock held). */
static uint64_t pool_size(const struct rte_mempool *mp)
{
	return mp != NULL ? mp->size : 0;
}

static uint64_t pool_in_use(const struct rte_mempool *mp)
{
	return mp != NULL ? mp->size - rte_mempool_avail_count(mp) : 0;
}

static void add_ovsdb(struct rte_tel_data *d, const struct vsw_config *cfg)
{
	struct vsw_ovsdb *o = vsw_tel_ovsdb();
	struct vsw_ovsdb_status st;

	rte_tel_data_add_dict_string(d, "ovsdb", cfg->sw.ovsdb);
	if (o == NULL)
		return;
	vsw_ovsdb_get_status(o, &st);
	rte_tel_data_add_dict_string(d, "ovsdb_state",
				     st.synced	    ? "synced"
				     : st.connected ? "connected"
						    : "connecting");
	rte_tel_data_add_dict_u64(d, "ovsdb_connects", st.connects);
	rte_tel_data_add_dict_u64(d, "ovsdb_syncs", st.syncs);
	rte_tel_data_add_dict_u64(d, "ovsdb_cur_cfg", st.cur_cfg);
	rte_tel_data_add_dict_u64(d, "ovsdb_ports", st.n_ports);
	rte_tel_data_add_dict_u64(d, "ovsdb_errors", st.n_errors);
	rte_tel_data_add_dict_string(d, "ovsdb_last_error", st.last_error);
	rte_tel_data_add_dict_string(d, "ovsdb_vhost_sock_dir", st.sock_dir);
	rte_tel_data_add_dict_string(d, "ovsdb_settings", st.settings);
}

static int cmd_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct vsw_config *cfg;
	unsigned int n_ports = 0;
	struct vsw_ctl *ctl;
	struct vsw_args a;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, false)) == NULL)
		return 0;
	cfg = &ctl->cfg;
	for (int i = 0; i < VSW_MAX_PORTS; i++)
		n_ports += ctl->ports[i] != NULL;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "version", VSW_VERSION);
	rte_tel_data_add_dict_u64(d, "debug_build", VSW_DEBUG_BUILD);
	if (VSW_DEBUG_BUILD)
		rte_tel_data_add_dict_u64(d, "quarantined", vsw_retire_held());
	rte_tel_data_add_dict_string(
		d, "control", cfg->sw.read_only ? "read-only" : "read-write");
	rte_tel_data_add_dict_u64(d, "pid", (uint64_t)getpid());
	rte_tel_data_add_dict_u64(d, "uptime_s",
				  (rte_rdtsc() - ctl->start_tsc) /
					  rte_get_tsc_hz());
	rte_tel_data_add_dict_string(d, "config", cfg->source);
	rte_tel_data_add_dict_string(d, "run_dir", cfg->sw.run_dir);
	rte_tel_data_add_dict_string(d, "bridge", cfg->sw.bridge);
	rte_tel_data_add_dict_string(d, "file_prefix", ctl->file_prefix);
	rte_tel_data_add_dict_u64(d, "workers", ctl->rt->n_workers);
	rte_tel_data_add_dict_u64(d, "ports", n_ports);
	rte_tel_data_add_dict_u64(d, "burst", cfg->sw.burst);
	rte_tel_data_add_dict_u64(d, "tx_flush_interval_us",
				  cfg->sw.tx_flush_interval_us);
	rte_tel_data_add_dict_string(d, "tx_flush_adaptive",
				     cfg->sw.tx_flush_adaptive ? "on" : "off");
	rte_tel_data_add_dict_u64(d, "tx_retries", cfg->sw.tx_retries);
	rte_tel_data_add_dict_u64(d, "tx_hold_us", cfg->sw.tx_hold_us);
	rte_tel_data_add_dict_string(d, "poll_mode",
				     vsw_poll_mode_str(cfg->sw.poll_mode));
	rte_tel_data_add_dict_string(d, "kick_suppression",
				     cfg->sw.kick_suppression ? "on" : "off");
	rte_tel_data_add_dict_string(d, "call_suppression",
				     cfg->sw.call_suppression ? "on" : "off");
	rte_tel_data_add_dict_string(d, "guest_rx_spread",
				     cfg->sw.guest_rx_spread ? "on" : "off");
	rte_tel_data_add_dict_string(d, "guest_calls",
				     cfg->sw.guest_calls_direct ? "direct"
								: "relay");
	rte_tel_data_add_dict_u64(d, "idle_threshold_us",
				  cfg->sw.idle_threshold_us);
	rte_tel_data_add_dict_u64(d, "max_sleep_us", cfg->sw.max_sleep_us);
	rte_tel_data_add_dict_u64(d, "rebalance_interval_s",
				  cfg->sw.rebalance_interval_s);
	rte_tel_data_add_dict_u64(d, "rebalance_threshold_pct",
				  cfg->sw.rebalance_threshold_pct);
	rte_tel_data_add_dict_u64(d, "rebalance_improvement_pct",
				  cfg->sw.rebalance_improvement_pct);
	rte_tel_data_add_dict_u64(d, "fdb_size", vsw_fdb_max(ctl->rt->fdb));
	rte_tel_data_add_dict_u64(d, "fdb_aging_s", cfg->sw.fdb_aging_s);
	rte_tel_data_add_dict_u64(d, "fdb_entries",
				  vsw_fdb_count(ctl->rt->fdb));
	/* every packet buffer: the mbuf pool and the big mbufs */
	rte_tel_data_add_dict_u64(d, "mbufs_total",
				  pool_size(ctl->rt->mp) +
					  pool_size(ctl->rt->big_mp));
	rte_tel_data_add_dict_u64(d, "mbufs_in_use",
				  pool_in_use(ctl->rt->mp) +
					  pool_in_use(ctl->rt->big_mp));
	rte_tel_data_add_dict_u64(d, "big_mbufs_total",
				  pool_size(ctl->rt->big_mp));
	rte_tel_data_add_dict_u64(d, "big_mbufs_in_use",
				  pool_in_use(ctl->rt->big_mp));
	add_ovsdb(d, cfg);
	vsw_tel_end(ctl);
	return 0;
}

static void add_port_summary(const struct vsw_ctl *ctl, struct rte_tel_data *d,
			     const struct vsw_port *p)
{
	struct rte_tel_data *c = rte_tel_data_alloc();
	struct vsw_port_ctrs s;

	if (c == NULL)
		return;
	vsw_port_ctrs_sum(ctl, p->id, &s);
	rte_tel_data_start_dict(c);
	rte_tel_data_add_dict_u64(c, "id", p->id);
	rte_tel_data_add_dict_string(c, "type", vsw_port_type_str(p->type));
	rte_tel_data_add_dict_string(c, "state", port_state(p));
	rte_tel_data_add_dict_u64(c, "queues", p->n_rxq);
	rte_tel_data_add_dict_u64(c, "rx_packets", s.rx_packets);
	rte_tel_data_add_dict_u64(c, "rx_bytes", s.rx_bytes);
	rte_tel_data_add_dict_u64(c, "tx_packets", s.tx_packets);
	rte_tel_data_add_dict_u64(c, "tx_bytes", s.tx_bytes);
	rte_tel_data_add_dict_u64(c, "drops", vsw_port_drops_total(&s));
	rte_tel_data_add_dict_container(d, p->name, c, 0);
}

static int cmd_ports(const char *cmd, const char *params,
		     struct rte_tel_data *d)
{
	struct vsw_ctl *ctl;
	unsigned int total = 0, shown = 0;
	unsigned long *v;
	struct vsw_args a;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, false)) == NULL)
		return 0;
	v = a.n;
	if (v[1] == 0 || v[1] > PORTS_PAGE)
		v[1] = PORTS_PAGE;
	rte_tel_data_start_dict(d);
	for (int i = 0; i < VSW_MAX_PORTS; i++)
		total += ctl->ports[i] != NULL;
	rte_tel_data_add_dict_u64(d, "total", total);
	rte_tel_data_add_dict_u64(d, "offset", v[0]);
	for (unsigned int i = 0, seen = 0; i < VSW_MAX_PORTS; i++) {
		if (ctl->ports[i] == NULL || seen++ < v[0])
			continue;
		if (shown == v[1])
			break;
		add_port_summary(ctl, d, ctl->ports[i]);
		shown++;
	}
	vsw_tel_end(ctl);
	rte_tel_data_add_dict_u64(d, "next_offset",
				  v[0] + shown < total ? v[0] + shown : 0);
	return 0;
}

static const char *const flush_bucket_names[VSW_FLUSH_BUCKETS] = {
	"flush_1",    "flush_2_3",   "flush_4_7",
	"flush_8_15", "flush_16_31", "flush_32_up",
};

static void add_flush_stats(struct rte_tel_data *d,
			    const struct vsw_port_ctrs *s)
{
	vsw_tel_add_ratio(d, "pkts_per_flush",
			  s->tx_packets + s->drops[VSW_DROP_TX_FULL],
			  s->tx_flushes);
	for (int b = 0; b < VSW_FLUSH_BUCKETS; b++)
		rte_tel_data_add_dict_u64(d, flush_bucket_names[b],
					  s->flush_hist[b]);
}

/* Kicks received and calls sent, over every queue of the port. */
static void add_queue_totals(const struct vsw_ctl *ctl, struct rte_tel_data *d,
			     struct vsw_port *p)
{
	uint64_t kicks = 0, calls = 0;
	struct vsw_queue_info qi;
	struct vsw_rxq_ctrs r;

	for (uint16_t q = 0; q < p->n_rxq && q < VSW_MAX_QUEUES; q++) {
		vsw_rxq_ctrs_sum(ctl, p->id, q, &r);
		kicks += r.kicks;
		if (vsw_queue_info(ctl, p, q, &qi) == 0)
			calls += qi.calls;
	}
	rte_tel_data_add_dict_u64(d, "guest_kicks", kicks);
	rte_tel_data_add_dict_u64(d, "guest_calls", calls);
}

/*
 * A telemetry string holds 127 characters (DPDK 22.11's telemetry cuts longer ones): a longer value is
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

		vsw_config_mac_str(m, mac);
		rte_tel_data_add_array_string(a, mac);
	}
	rte_tel_data_add_dict_container(d, "allowed_macs", a, 0);
}

/* vlan_mode (as in effect), tag (0: none), trunks ("all" or "10,20-30"). */
static void add_vlans(struct rte_tel_data *d, const struct vsw_port *p)
{
	char trunks[VSW_ERR_MAX];

	rte_tel_data_add_dict_string(
		d, "vlan_mode",
		vsw_vlan_mode_str(vsw_config_vlan_mode(&p->conf)));
	rte_tel_data_add_dict_u64(d, "tag", p->conf.tag);
	vsw_config_trunks_str(&p->conf, trunks, sizeof(trunks));
	add_long_string(d, "trunks", trunks);
}

/* external_ids: the port's "k=v" pairs, one string each ([] for none). */
static void add_external_ids(struct rte_tel_data *d, const struct vsw_port *p)
{
	struct rte_tel_data *a = rte_tel_data_alloc();
	const char *s = p->conf.external_ids;
	char w[RTE_TEL_MAX_STRING_LEN];

	if (a == NULL)
		return;
	rte_tel_data_start_array(a, RTE_TEL_STRING_VAL);
	while (*(s += strspn(s, " ")) != '\0') {
		size_t n = strcspn(s, " ");

		snprintf(w, sizeof(w), "%.*s", (int)n, s);
		rte_tel_data_add_array_string(a, w);
		s += n;
	}
	rte_tel_data_add_dict_container(d, "external_ids", a, 0);
}

/* allowed_ips: [] for any source IP, else the list. */
static void add_allowed_ips(struct rte_tel_data *d, const struct vsw_port *p)
{
	struct rte_tel_data *a = rte_tel_data_alloc();
	char ip[64];

	if (a == NULL)
		return;
	rte_tel_data_start_array(a, RTE_TEL_STRING_VAL);
	for (unsigned int i = 0; i < p->conf.n_ips; i++) {
		vsw_config_ip_str(&p->conf.ips[i], ip, sizeof(ip));
		rte_tel_data_add_array_string(a, ip);
	}
	rte_tel_data_add_dict_container(d, "allowed_ips", a, 0);
	rte_tel_data_add_dict_u64(d, "storm_broadcast_pps",
				  p->conf.storm_bcast_pps);
	rte_tel_data_add_dict_u64(d, "storm_multicast_pps",
				  p->conf.storm_mcast_pps);
	rte_tel_data_add_dict_u64(d, "storm_unknown_pps",
				  p->conf.storm_unknown_pps);
}

/*
 * offloads: the port's setting, what it takes as an output (tx_offloads:
 * csum, tso4, tso6) and, for a vhost-user guest, the virtio-net offload
 * features it negotiated (guest_offloads, the spec's names).
 */
static void add_offloads(struct rte_tel_data *d, const struct vsw_port_info *pi)
{
	static const struct {
		unsigned int bit;
		const char *name;
	} feats[] = {
		{VIRTIO_NET_F_CSUM, "csum"},
		{VIRTIO_NET_F_GUEST_CSUM, "guest_csum"},
		{VIRTIO_NET_F_HOST_TSO4, "host_tso4"},
		{VIRTIO_NET_F_HOST_TSO6, "host_tso6"},
		{VIRTIO_NET_F_GUEST_TSO4, "guest_tso4"},
		{VIRTIO_NET_F_GUEST_TSO6, "guest_tso6"},
		{VIRTIO_NET_F_HOST_ECN, "host_ecn"},
		{VIRTIO_NET_F_HOST_UFO, "host_ufo"},
		{VIRTIO_NET_F_GUEST_ECN, "guest_ecn"},
		{VIRTIO_NET_F_GUEST_UFO, "guest_ufo"},
	};
	struct rte_tel_data *a = rte_tel_data_alloc();
	struct rte_tel_data *g = NULL;

	rte_tel_data_add_dict_string(d, "offloads",
				     pi->offloads ? "on" : "off");
	if (pi->offloads_kept) /* docs/offloads.md */
		rte_tel_data_add_dict_string(d, "offloads_kept",
					     "for the running guest, until "
					     "its QEMU restarts");
	if (a != NULL) {
		rte_tel_data_start_array(a, RTE_TEL_STRING_VAL);
		if (pi->tx_offloads & VSW_TXO_CSUM)
			rte_tel_data_add_array_string(a, "csum");
		if (pi->tx_offloads & VSW_TXO_TSO4)
			rte_tel_data_add_array_string(a, "tso4");
		if (pi->tx_offloads & VSW_TXO_TSO6)
			rte_tel_data_add_array_string(a, "tso6");
		rte_tel_data_add_dict_container(d, "tx_offloads", a, 0);
	}
	if (pi->has_features)
		g = rte_tel_data_alloc();
	if (g == NULL)
		return;
	rte_tel_data_start_array(g, RTE_TEL_STRING_VAL);
	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
		if (pi->features & (1ULL << feats[i].bit))
			rte_tel_data_add_array_string(g, feats[i].name);
	rte_tel_data_add_dict_container(d, "guest_offloads", g, 0);
	rte_tel_data_add_dict_string(
		d, "guest_rings",
		pi->features & (1ULL << VIRTIO_F_RING_PACKED) ? "packed"
							      : "split");
}

static void add_port_detail(const struct vsw_ctl *ctl, struct rte_tel_data *d,
			    struct vsw_port *p)
{
	char key[64];
	struct vsw_port_ctrs s;
	struct vsw_port_info pi;

	vsw_port_ctrs_sum(ctl, p->id, &s);
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
	if (pi.has_peer_queues) { /* vhost: the rx queues vsw sends into */
		rte_tel_data_add_dict_string(
			d, "guest_rx_spread",
			vsw_port_rx_spread_on(&p->conf,
					      ctl->cfg.sw.guest_rx_spread)
				? "on"
				: "off");
		rte_tel_data_add_dict_u64(d, "guest_rx_queues_fed",
					  pi.peer_rxq_fed);
	}
	if (pi.has_peer_queues) /* vhost: the guest's host_mtu, 0: none */
		rte_tel_data_add_dict_u64(d, "guest_mtu", pi.peer_mtu);
	rte_tel_data_add_dict_u64(d, "mtu", p->conf.mtu);
	add_offloads(d, &pi);
	rte_tel_data_add_dict_u64(d, "max_macs", p->conf.max_macs);
	rte_tel_data_add_dict_u64(d, "fdb_entries",
				  vsw_fdb_port_count(ctl->rt->fdb, p->id));
	add_allowed_macs(d, p);
	add_vlans(d, p);
	add_allowed_ips(d, p);
	add_external_ids(d, p);
	rte_tel_data_add_dict_int(d, "vid", pi.vid);
	rte_tel_data_add_dict_u64(d, "connects", p->connects);
	rte_tel_data_add_dict_u64(d, "tx_queues_shared", pi.tx_queues_shared);
	if (pi.calls != NULL) {
		rte_tel_data_add_dict_string(d, "call_path", pi.calls);
		rte_tel_data_add_dict_string(d, "call_path_why",
					     pi.calls_why ? pi.calls_why : "");
		rte_tel_data_add_dict_u64(d, "calls_direct", pi.calls_direct);
		rte_tel_data_add_dict_u64(d, "calls_relayed", pi.calls_relayed);
	}
	if (pi.rx_pool != NULL) {
		rte_tel_data_add_dict_string(d, "rx_pool", pi.rx_pool);
		rte_tel_data_add_dict_u64(d, "rx_big_bursts", pi.big_bursts);
		rte_tel_data_add_dict_u64(d, "rx_big_short", pi.big_short);
	}
	rte_tel_data_add_dict_u64(d, "disconnects", p->disconnects);
	/* the counters: the CTR rows of config/vsw_counters.h */
#define VSW_CTR_TEL_CTR(k) rte_tel_data_add_dict_u64(d, #k, s.k);
#define VSW_CTR_TEL_PORT(k)
#define X(k, src, prom, type, help) VSW_CTR_TEL_##src(k)
	VSW_PORT_COUNTERS(X)
#undef X
	add_flush_stats(d, &s);
	add_queue_totals(ctl, d, p);
	rte_tel_data_add_dict_u64(d, "drops", vsw_port_drops_total(&s));
	for (int r = 0; r < VSW_DROP_MAX; r++) {
		snprintf(key, sizeof(key), "drop_%s", vsw_drop_names[r]);
		rte_tel_data_add_dict_u64(d, key, s.drops[r]);
	}
}

static const char *const cap_dirs[] = {"none", "rx", "tx", "both"};

static int cmd_port(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct vsw_capture_info ci;
	struct vsw_ctl *ctl;
	struct vsw_port *p;

	p = vsw_tel_port_param(d, cmd, params, &ctl);
	if (p == NULL)
		return 0;
	rte_tel_data_start_dict(d);
	add_port_detail(ctl, d, p);
	/* while a capture runs: its direction and what it could not keep
	 * up with (the rest: /vsw/capture) */
	if (vsw_ctl_capture_info(ctl, p->id, &ci) == 0) {
		rte_tel_data_add_dict_string(d, "capture",
					     cap_dirs[ci.dir & 3]);
		rte_tel_data_add_dict_u64(d, "capture_dropped", ci.st.dropped);
	}
	vsw_tel_end(ctl);
	return 0;
}

/* /vsw/vteps,NAME: a vxlan port's VTEP, its remote VTEPs, their counters
 * and the port's own drops (the kind's view). */
static int cmd_vteps(const char *cmd, const char *params,
		     struct rte_tel_data *d)
{
	struct vsw_ctl *ctl;
	struct vsw_port *p;
	int rc;

	p = vsw_tel_port_param(d, cmd, params, &ctl);
	if (p == NULL)
		return 0;
	if (p->ops->view == NULL) {
		vsw_tel_end(ctl);
		return vsw_tel_reply_error(d, "port %s is not a vxlan port",
					   p->name);
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "port", p->name);
	if (p->conf.evpn) {
		uint64_t ev[4];

		vsw_ctl_evpn_stats(ctl, ev);
		rte_tel_data_add_dict_u64(d, "evpn_remote_macs", ev[0]);
		rte_tel_data_add_dict_u64(d, "evpn_flood_entries", ev[1]);
		rte_tel_data_add_dict_u64(d, "evpn_local_writes", ev[2]);
		rte_tel_data_add_dict_u64(d, "evpn_errors", ev[3]);
	}
	rc = p->ops->view(p, d);
	vsw_tel_end(ctl);
	return rc < 0 ? vsw_tel_reply_error(d, "%s", strerror(-rc)) : 0;
}

/*
 * /vsw/config[,OFFSET[,COUNT]]: the effective config (show-config) as INI
 * text from byte OFFSET, in "text" pieces of at most CONFIG_PIECE bytes
 * (telemetry strings hold 127), each ending at a newline when one is
 * near; a page stays under CONFIG_PAGE bytes of JSON.  "generation"
 * changes with every saved change: a client reading several pages
 * starts again when it does.
 */
#define CONFIG_PIECE 120
#define CONFIG_PAGE 12000

static size_t piece_len(const char *s, size_t left, size_t *json)
{
	size_t n = 0;

	*json = 3; /* quotes, comma */
	while (n < left && n < CONFIG_PIECE) {
		*json += strchr("\"\\\n", s[n]) != NULL ? 2 : 1;
		if (s[n++] == '\n')
			break;
	}
	return n;
}

static void add_config_text(struct rte_tel_data *d, const char *text,
			    size_t len, unsigned long off, unsigned long max)
{
	struct rte_tel_data *a = rte_tel_data_alloc();
	char piece[CONFIG_PIECE + 1];
	size_t used = 0, json, n;
	unsigned long count = 0;

	if (a == NULL)
		return;
	rte_tel_data_start_array(a, RTE_TEL_STRING_VAL);
	while (off < len && count < max) {
		n = piece_len(text + off, len - off, &json);
		if (used + json > CONFIG_PAGE)
			break;
		memcpy(piece, text + off, n);
		piece[n] = '\0';
		rte_tel_data_add_array_string(a, piece);
		used += json;
		off += n;
		count++;
	}
	rte_tel_data_add_dict_container(d, "text", a, 0);
	rte_tel_data_add_dict_u64(d, "next_offset", off < len ? off : 0);
}

static int cmd_config(const char *cmd, const char *params,
		      struct rte_tel_data *d)
{
	struct vsw_ctl *ctl;
	char err[VSW_ERR_MAX];
	struct vsw_args a;
	uint64_t gen;
	size_t len = 0;
	char *text;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, false)) == NULL)
		return 0;
	text = vsw_statefile_text(ctl, &len, err, sizeof(err));
	gen = vsw_statefile_generation(ctl);
	vsw_tel_end(ctl);
	if (text == NULL)
		return vsw_tel_reply_error(d, "%s", err);
	if (a.n[0] > len) {
		free(text);
		return vsw_tel_reply_error(d,
					   "/vsw/config: OFFSET beyond the "
					   "end%s",
					   NULL);
	}
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "generation", gen);
	rte_tel_data_add_dict_u64(d, "total", len);
	rte_tel_data_add_dict_u64(d, "offset", a.n[0]);
	add_config_text(d, text, len, a.n[0],
			a.n[1] ? a.n[1] : RTE_TEL_MAX_ARRAY_ENTRIES);
	free(text);
	return 0;
}

/* One capture's settings and counters into @d (a dict). */
static void add_capture(struct rte_tel_data *d, const char *port,
			const struct vsw_capture_info *ci)
{
	rte_tel_data_add_dict_string(d, "port", port);
	rte_tel_data_add_dict_string(d, "dir", cap_dirs[ci->dir & 3]);
	rte_tel_data_add_dict_string(d, "file", ci->file);
	rte_tel_data_add_dict_string(d, "filter", ci->filter);
	rte_tel_data_add_dict_u64(d, "count", ci->count);
	rte_tel_data_add_dict_u64(d, "ring", ci->ring);
	rte_tel_data_add_dict_u64(d, "snaplen", ci->snaplen);
	vsw_tel_add_capture_stats(d, &ci->st);
}

/*
 * /vsw/capture[,PORT]: one port's capture, or every running capture by
 * port ("captures": how many).  Strings longer than telemetry's 127
 * characters (a long file name or filter) are cut.
 */
static int cmd_capture(const char *cmd, const char *params,
		       struct rte_tel_data *d)
{
	struct vsw_capture_info ci;
	struct vsw_ctl *ctl;
	struct vsw_port *p;
	struct vsw_args a;
	unsigned int n = 0;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, false)) == NULL)
		return 0;
	if (a.has_name) {
		p = vsw_ctl_port_by_name(ctl, a.name);
		if (p == NULL || vsw_ctl_capture_info(ctl, p->id, &ci) < 0) {
			vsw_tel_end(ctl);
			return vsw_tel_reply_error(
				d,
				p == NULL ? "unknown port '%s'"
					  : "no capture on port '%s'",
				a.name);
		}
		rte_tel_data_start_dict(d);
		add_capture(d, a.name, &ci);
		vsw_tel_end(ctl);
		return 0;
	}
	rte_tel_data_start_dict(d);
	for (uint16_t id = 0; id < VSW_MAX_PORTS; id++) {
		struct rte_tel_data *c;

		p = ctl->ports[id];
		if (p == NULL || vsw_ctl_capture_info(ctl, id, &ci) < 0 ||
		    (c = rte_tel_data_alloc()) == NULL)
			continue;
		rte_tel_data_start_dict(c);
		add_capture(c, p->name, &ci);
		rte_tel_data_add_dict_container(d, p->name, c, 0);
		n++;
	}
	rte_tel_data_add_dict_u64(d, "captures", n);
	vsw_tel_end(ctl);
	return 0;
}

int vsw_tel_register_show(void)
{
	static const struct vsw_tel_cmd cmds[] = {
		{"/vsw/info", cmd_info, "[read-only] Switch summary"},
		{"/vsw/ports", cmd_ports,
		 "[read-only] Ports and counters. Parameters: "
		 "[OFFSET[,COUNT]]"},
		{"/vsw/port", cmd_port,
		 "[read-only] One port, every counter. Parameter: NAME"},
		{"/vsw/config", cmd_config,
		 "[read-only] The running config as INI text, in pieces. "
		 "Parameters: [OFFSET[,COUNT]]"},
		{"/vsw/capture", cmd_capture,
		 "[read-only] Running captures and their counters. Parameter: "
		 "[PORT]"},
		{"/vsw/vteps", cmd_vteps,
		 "[read-only] A vxlan port's remote VTEPs, their counters and "
		 "the port's drops. Parameter: NAME"},
	};

	return vsw_tel_register(cmds, RTE_DIM(cmds));
}
