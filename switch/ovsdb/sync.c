/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * From rows to ports, and back.  Each sync (under ctl_lock, like a
 * telemetry command) makes the ports vsw took from OVSDB exactly what the
 * Interface rows of its bridge say, then writes back per Interface row
 * what ovs-vswitchd writes, and cur_cfg once next_cfg is applied, so that
 * ovs-vsctl (which waits for cur_cfg) returns when the port exists.
 *
 * Which ports are OVSDB's: those whose external-ids carry
 * vsw-origin=ovsdb (set when the client adds them, kept in the state
 * file).  Ports of the config file or of vswctl are never touched; an
 * Interface row with such a port's name is reported in error.  So the
 * config file can keep ports of its own (an uplink), and a restart of vsw
 * brings OVSDB's ports back from the state file before the database is
 * reached; the first sync then adds, changes or deletes what the
 * database changed meanwhile.
 *
 * Mapping (docs/integration.md): Interface type dpdkvhostuser ->
 * vhost-user server, socket <sock_dir>/<name>; dpdkvhostuserclient ->
 * vhost-user client, options:vhost-server-path; dpdk -> ethdev,
 * options:dpdk-devargs; mtu_request -> mtu; Port tag, trunks, vlan_mode
 * -> vlan-mode, tag, trunks (config/ovs_map.c, vsw-vsctl's rule);
 * Interface external_ids -> external-ids.  The bridge's own internal
 * port (a kernel device in OVS) has no vsw port: ofport 65534 (LOCAL)
 * with an error saying so.  Everything else (other types, bonds, other
 * bridges) is an Interface error and no port.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "control/control.h"
#include "datapath/stats.h"
#include "port/port.h"
#include "ovsdb_priv.h"

#define ORIGIN "vsw-origin=ovsdb" /* external-ids mark of our ports */
#define KV_MAX 1024
#define OFPORT_LOCAL 65534

/* One Interface row as vsw would have it. */
struct want {
	const char *uuid, *name;
	char vsw[VSW_PORT_NAME_MAX];
	char fixed[KV_MAX]; /* type, mode, path / devargs (last) */
	char mut[KV_MAX];   /* mtu, VLANs, external-ids */
	char skipped[256];  /* external_ids vsw could not keep */
	char ignored[256];  /* columns set that vsw does not apply */
	char err[VSW_ERR_MAX];
	bool local; /* the bridge's internal port */
};

static bool ours(const struct vsw_port *p)
{
	const char *s = strstr(p->conf.external_ids, ORIGIN);
	size_t n = strlen(ORIGIN);

	return s != NULL && (s == p->conf.external_ids || s[-1] == ' ') &&
	       (s[n] == '\0' || s[n] == ' ');
}

static json_t *table(struct vsw_ovsdb *o, const char *name)
{
	return json_object_get(o->replica, name);
}

/* The bridge served: [switch] bridge, or the database's only bridge
 * (then recorded in the key, so that a second bridge does not take it
 * over); NULL when none. */
static json_t *served_bridge(struct vsw_ovsdb *o)
{
	struct vsw_ctl *ctl = o->ctl;
	json_t *rows = table(o, "Bridge"), *row, *only = NULL;
	const char *uuid, *name;
	char err[VSW_ERR_MAX];

	json_object_foreach (rows, uuid, row) {
		name = datum_str(json_object_get(row, "name"));
		if (name == NULL)
			continue;
		if (ctl->cfg.sw.bridge[0] != '\0' &&
		    strcmp(name, ctl->cfg.sw.bridge) == 0)
			return row;
		only = only == NULL ? row : (json_t *)-1;
	}
	if (ctl->cfg.sw.bridge[0] != '\0' || only == NULL ||
	    only == (json_t *)-1)
		return NULL;
	name = datum_str(json_object_get(only, "name"));
	if (vsw_ctl_set(ctl, "bridge", name, err, sizeof(err)) < 0) {
		VSW_LOG(WARNING, "ovsdb: cannot serve bridge %s: %s", name,
			err);
		return NULL;
	}
	VSW_LOG(INFO, "ovsdb: serving bridge %s (the [switch] key bridge)",
		name);
	return only;
}

/* "10,20" of a Port's trunks set. */
static void trunks_str(json_t *d, char *buf, size_t len)
{
	size_t off = 0;
	json_t *a;

	buf[0] = '\0';
	for (size_t i = 0; (a = datum_set_at(d, i)) != NULL && off < len; i++)
		if (json_is_integer(a))
			off += (size_t)snprintf(
				buf + off, len - off, "%s%" JSON_INTEGER_FORMAT,
				off ? "," : "", json_integer_value(a));
}

/* external-ids of @w: the OVS name when it differs, our mark, then the
 * row's pairs that vsw's charset and length take (others in skipped). */
static void ids_str(struct want *w, json_t *ids, char *buf, size_t len)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"
				 "RSTUVWXYZ0123456789_-.:/@+";
	json_t *pairs = json_array_get(ids, 1), *kv;
	size_t off = 0, sk = 0, i;

	if (strcmp(w->name, w->vsw) != 0)
		off = (size_t)snprintf(buf, len, "%s=%s ", VSW_OVS_NAME_KEY,
				       w->name);
	off += (size_t)snprintf(buf + off, len - off, "%s", ORIGIN);
	json_array_foreach (pairs, i, kv) {
		const char *k = json_string_value(json_array_get(kv, 0));
		const char *v = json_string_value(json_array_get(kv, 1));
		size_t need;

		if (k == NULL || v == NULL)
			continue;
		need = strlen(k) + strlen(v) + 2;
		if (strspn(k, ok) != strlen(k) || strspn(v, ok) != strlen(v) ||
		    k[0] == '\0' || off + need > VSW_EXTERNAL_IDS_MAX) {
			if (sk < sizeof(w->skipped))
				sk += (size_t)snprintf(w->skipped + sk,
						       sizeof(w->skipped) - sk,
						       "%s%s", sk ? " " : "",
						       k);
			continue;
		}
		off += (size_t)snprintf(buf + off, len - off, " %s=%s", k, v);
	}
}

static void add_ignored(struct want *w, const char *what)
{
	size_t off = strlen(w->ignored);

	snprintf(w->ignored + off, sizeof(w->ignored) - off, "%s%s",
		 off ? ", " : "", what);
}

/* What the rows ask that vsw does not do: the port is made, and its
 * Interface error names these (never silently ignored). */
static void note_ignored(struct want *w, json_t *ifc, json_t *port)
{
	json_t *pairs = json_array_get(json_object_get(ifc, "options"), 1);
	json_t *kv;
	char opt[96];
	size_t i;

	json_array_foreach (pairs, i, kv) {
		const char *k = json_string_value(json_array_get(kv, 0));

		if (k == NULL || strcmp(k, "vhost-server-path") == 0 ||
		    strcmp(k, "dpdk-devargs") == 0)
			continue;
		snprintf(opt, sizeof(opt), "options:%s", k);
		add_ignored(w, opt);
	}
	if (datum_set_at(json_object_get(ifc, "ofport_request"), 0))
		add_ignored(w, "ofport_request");
	if (datum_int(json_object_get(ifc, "ingress_policing_rate"), 0) != 0)
		add_ignored(w, "ingress_policing_rate");
	if (datum_set_at(json_object_get(ifc, "mac"), 0))
		add_ignored(w, "mac");
	if (datum_set_at(json_object_get(port, "qos"), 0))
		add_ignored(w, "Port qos");
}

/* options:@key of an interface of @type, or NULL with @w's error set. */
static const char *need_option(struct want *w, json_t *opts, const char *type,
			       const char *key)
{
	const char *s = datum_map_get(opts, key);

	if (s == NULL || s[0] == '\0') {
		snprintf(w->err, sizeof(w->err),
			 "vsw: a %s interface needs options:%s", type, key);
		return NULL;
	}
	return s;
}

/* Fill @w's kv lists from its Interface and Port rows (or its error). */
static void map_iface(struct vsw_ovsdb *o, struct want *w, json_t *ifc,
		      json_t *port)
{
	const char *type = datum_str(json_object_get(ifc, "type"));
	json_t *opts = json_object_get(ifc, "options");
	long long mtu = datum_int(json_object_get(ifc, "mtu_request"), 0);
	struct vsw_ovs_vlan v = {.tag = -1};
	char vlan[256], ids[VSW_EXTERNAL_IDS_MAX + 64];
	const char *s;

	if (type == NULL)
		type = "";
	if (strcmp(type, "dpdkvhostuser") == 0) {
		snprintf(w->fixed, sizeof(w->fixed),
			 "type=vhost-user,mode=server,path=%s/%s", o->sock_dir,
			 w->name);
	} else if (strcmp(type, "dpdkvhostuserclient") == 0) {
		if ((s = need_option(w, opts, type, "vhost-server-path")) ==
		    NULL)
			return;
		snprintf(w->fixed, sizeof(w->fixed),
			 "type=vhost-user,mode=client,path=%s", s);
	} else if (strcmp(type, "dpdk") == 0) {
		if ((s = need_option(w, opts, type, "dpdk-devargs")) == NULL)
			return;
		snprintf(w->fixed, sizeof(w->fixed), "type=ethdev,devargs=%s",
			 s);
	} else {
		snprintf(w->err, sizeof(w->err),
			 "vsw: interface type \"%s\" is not supported (vsw "
			 "takes dpdkvhostuser, dpdkvhostuserclient, dpdk)",
			 type);
		return;
	}
	s = datum_str(json_object_get(port, "vlan_mode"));
	snprintf(v.mode, sizeof(v.mode), "%s", s ? s : "");
	v.tag = datum_int(json_object_get(port, "tag"), -1);
	trunks_str(json_object_get(port, "trunks"), v.trunks, sizeof(v.trunks));
	if (vsw_ovs_vlan_keys(&v, vlan, sizeof(vlan), w->err, sizeof(w->err)) <
	    0)
		return;
	note_ignored(w, ifc, port);
	if (mtu < 0 || mtu > 65535)
		mtu = 0;
	ids_str(w, json_object_get(ifc, "external_ids"), ids, sizeof(ids));
	snprintf(w->mut, sizeof(w->mut), "mtu=%lld,%s,external-ids=%s",
		 mtu ? mtu : 1500, vlan, ids);
}

static bool is_internal(json_t *ifc)
{
	const char *t = datum_str(json_object_get(ifc, "type"));

	return t != NULL && strcmp(t, "internal") == 0;
}

/*
 * Who holds whom, built once per sync (the rows are walked once, not once
 * per Interface: a large database costs linear time under ctl_lock):
 * @port_of {IFACE UUID: its Port row}, @bridge_of {PORT UUID: its Bridge
 * row}; each Port row is given "_n_if", its interfaces' count, and
 * "_uuid", its own (the replica keeps rows by UUID only).
 */
static void index_rows(struct vsw_ovsdb *o, json_t *port_of, json_t *bridge_of)
{
	const char *pu, *bu;
	json_t *p, *b, *a;
	size_t i;

	json_object_foreach (table(o, "Port"), pu, p) {
		for (i = 0; (a = datum_set_at(json_object_get(p, "interfaces"),
					      i)) != NULL;
		     i++)
			if (atom_uuid(a) != NULL)
				json_object_set(port_of, atom_uuid(a), p);
		json_object_set_new(p, "_n_if", json_integer((json_int_t)i));
		json_object_set_new(p, "_uuid", json_string(pu));
	}
	json_object_foreach (table(o, "Bridge"), bu, b)
		for (i = 0;
		     (a = datum_set_at(json_object_get(b, "ports"), i)) != NULL;
		     i++)
			if (atom_uuid(a) != NULL)
				json_object_set(bridge_of, atom_uuid(a), b);
}

static const char *port_uuid(json_t *port)
{
	return json_string_value(json_object_get(port, "_uuid"));
}

/* Every Interface row: what vsw would make of it, in @ws (*@n). */
static void collect(struct vsw_ovsdb *o, struct want *ws, unsigned int *n,
		    unsigned int max)
{
	json_t *br = served_bridge(o);
	json_t *ifaces = table(o, "Interface"), *row;
	json_t *port_of = json_object(), *bridge_of = json_object();
	const char *uuid, *bname = NULL;

	index_rows(o, port_of, bridge_of);
	if (br != NULL)
		bname = datum_str(json_object_get(br, "name"));
	*n = 0;
	json_object_foreach (ifaces, uuid, row) {
		struct want *w = &ws[*n];
		json_t *port = NULL, *bridge = NULL;
		unsigned int n_if = 0;

		if (*n == max)
			break;
		memset(w, 0, sizeof(*w));
		w->uuid = uuid;
		w->name = datum_str(json_object_get(row, "name"));
		if (w->name == NULL)
			continue;
		(*n)++;
		port = json_object_get(port_of, uuid);
		bridge = port ? json_object_get(bridge_of, port_uuid(port))
			      : NULL;
		n_if = port ? (unsigned int)json_integer_value(
				      json_object_get(port, "_n_if"))
			    : 0;
		if (bridge == NULL) {
			snprintf(w->err, sizeof(w->err),
				 "vsw: the interface is in no bridge");
		} else if (bridge != br) {
			snprintf(w->err, sizeof(w->err),
				 "vsw serves one bridge, %s (the [switch] key "
				 "bridge), not %s",
				 bname ? bname : "none yet",
				 datum_str(json_object_get(bridge, "name")));
		} else if (n_if > 1) {
			snprintf(w->err, sizeof(w->err),
				 "vsw: bonds (a port of %u interfaces) are not "
				 "supported",
				 n_if);
		} else if (strcmp(w->name, bname) == 0 && is_internal(row)) {
			w->local = true;
			snprintf(w->err, sizeof(w->err),
				 "vsw: the bridge's local (internal) port has "
				 "no device in vsw");
		} else if (vsw_ovs_port_name(w->name, w->vsw, sizeof(w->vsw),
					     w->err, sizeof(w->err)) == 0) {
			map_iface(o, w, row, port);
		}
	}
	json_decref(port_of);
	json_decref(bridge_of);
}

static struct want *want_of(struct want *ws, unsigned int n, const char *vsw)
{
	for (unsigned int i = 0; i < n; i++)
		if (ws[i].err[0] == '\0' && strcmp(ws[i].vsw, vsw) == 0)
			return &ws[i];
	return NULL;
}

/* Does port @p already have @w's fixed keys (type, mode, path, devargs)? */
static bool same_fixed(struct vsw_ctl *ctl, const struct vsw_port *p,
		       struct want *w, struct vsw_port_conf *pc)
{
	char kv[2 * KV_MAX + 2];

	snprintf(kv, sizeof(kv), "%s,%s", w->mut, w->fixed);
	if (vsw_config_port_from_kv(w->vsw, kv, &ctl->cfg.sw, pc, w->err,
				    sizeof(w->err)) < 0)
		return false;
	return pc->type == p->conf.type && pc->mode == p->conf.mode &&
	       strcmp(pc->path, p->conf.path) == 0 &&
	       strcmp(pc->devargs, p->conf.devargs) == 0;
}

/* Do @p's mtu, VLANs and external-ids differ from @w's? */
static bool mut_differs(const struct vsw_port *p, const struct want *w)
{
	struct vsw_port_conf c = p->conf;
	char err[VSW_ERR_MAX];

	if (vsw_config_port_set_kv(&c, w->mut, err, sizeof(err)) < 0)
		return true; /* port-set will say why */
	return c.mtu != p->conf.mtu || c.vlan_mode != p->conf.vlan_mode ||
	       c.tag != p->conf.tag || c.trunks_set != p->conf.trunks_set ||
	       memcmp(c.trunks, p->conf.trunks, sizeof(c.trunks)) != 0 ||
	       strcmp(c.external_ids, p->conf.external_ids) != 0;
}

/* Make vsw's OVSDB ports what @ws says (ctl_lock held). */
static void apply(struct vsw_ovsdb *o, struct want *ws, unsigned int n)
{
	struct vsw_ctl *ctl = o->ctl;
	struct vsw_port_conf pc;
	char err[VSW_ERR_MAX], kv[2 * KV_MAX + 2];

	for (int i = 0; i < VSW_MAX_PORTS; i++) { /* deletions first */
		struct vsw_port *p = ctl->ports[i];
		struct want *w;

		if (p == NULL || !ours(p))
			continue;
		w = want_of(ws, n, p->name);
		if (w != NULL && same_fixed(ctl, p, w, &pc))
			continue;
		if (w != NULL && w->err[0] != '\0')
			w = NULL; /* its row cannot be applied now */
		VSW_LOG(INFO, "ovsdb: port %s %s", p->name,
			w ? "changes type or socket: deleted, added again"
			  : "is gone from the database: deleted");
		if (vsw_ctl_port_del(ctl, p->name, err, sizeof(err)) < 0)
			VSW_LOG(WARNING, "ovsdb: port-del %s: %s", p->name,
				err);
	}
	for (unsigned int i = 0; i < n; i++) {
		struct want *w = &ws[i];
		struct vsw_port *p;

		if (w->err[0] != '\0')
			continue;
		p = vsw_ctl_port_by_name(ctl, w->vsw);
		if (p != NULL && !ours(p)) {
			snprintf(w->err, sizeof(w->err),
				 "vsw: port %s exists and was not made from "
				 "OVSDB (vsw's config file or vswctl)",
				 w->vsw);
		} else if (p == NULL) {
			snprintf(kv, sizeof(kv), "%s,%s", w->mut, w->fixed);
			if (vsw_ctl_port_add(ctl, w->vsw, kv, w->err,
					     sizeof(w->err)) == 0)
				VSW_LOG(INFO, "ovsdb: port %s added (%s)",
					w->vsw, w->fixed);
		} else if (mut_differs(p, w) &&
			   vsw_ctl_port_set(ctl, w->vsw, w->mut, w->err,
					    sizeof(w->err)) == 0) {
			VSW_LOG(INFO, "ovsdb: port %s set %s", w->vsw, w->mut);
		}
		if (w->err[0] != '\0')
			VSW_LOG(WARNING, "ovsdb: interface %s: %s", w->name,
				w->err);
	}
	json_object_clear(o->errs);
	for (unsigned int i = 0; i < n; i++)
		if (ws[i].err[0] != '\0')
			json_object_set_new(o->errs, ws[i].uuid,
					    json_string(ws[i].err));
}

/* Between syncs: the errors the last one met (a refused port-add). */
static void recall_errors(struct vsw_ovsdb *o, struct want *ws, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		const char *e =
			json_string_value(json_object_get(o->errs, ws[i].uuid));

		if (ws[i].err[0] == '\0' && e != NULL)
			snprintf(ws[i].err, sizeof(ws[i].err), "%s", e);
	}
}

/* ------------------------------------------------------------ write-back */

static json_t *stats_datum(struct vsw_ctl *ctl, uint16_t id)
{
	struct vsw_port_ctrs c;
	uint64_t rxd = 0, txd = 0;
	json_t *pairs = json_array();

	vsw_port_ctrs_sum(ctl, id, &c);
#define X(e, k, s, d)                                                          \
	if (strcmp(#s, "rx") == 0)                                             \
		rxd += c.drops[VSW_DROP_##e];                                  \
	else                                                                   \
		txd += c.drops[VSW_DROP_##e];
	VSW_DROP_REASONS(X)
#undef X
#define P(k, v)                                                                \
	json_array_append_new(pairs, json_pack("[s,I]", k, (json_int_t)(v)))
	P("rx_packets", c.rx_packets);
	P("rx_bytes", c.rx_bytes);
	P("tx_packets", c.tx_packets);
	P("tx_bytes", c.tx_bytes);
	P("rx_dropped", rxd);
	P("tx_dropped", txd);
#undef P
	return json_pack("[s,o]", "map", pairs);
}

/* The columns vsw owes Interface row @w (ctl_lock held). */
static json_t *iface_cols(struct vsw_ovsdb *o, const struct want *w, bool stats)
{
	struct vsw_port *p =
		w->err[0] == '\0' ? vsw_ctl_port_by_name(o->ctl, w->vsw) : NULL;
	json_t *c = json_object();

	json_object_set_new(c, "error",
			    w->err[0] ? json_string(w->err) : datum_empty());
	if (p == NULL) {
		json_object_set_new(c, "ofport",
				    json_integer(w->local ? OFPORT_LOCAL : -1));
		json_object_set_new(c, "link_state", json_string("down"));
		json_object_set_new(c, "admin_state", json_string("down"));
		json_object_set_new(c, "mtu", datum_empty());
		json_object_set_new(c, "statistics", datum_map(NULL, NULL, 0));
		json_object_set_new(c, "status", datum_map(NULL, NULL, 0));
		return c;
	}
	const char *k[3] = {"vsw_port", "vsw_type", "external_ids_skipped"};
	const char *v[3] = {
		p->name,
		p->conf.type != VSW_PORT_VHOST ? vsw_port_type_str(p->conf.type)
		: p->conf.mode == VSW_VHOST_CLIENT ? "vhost-user client"
						   : "vhost-user server",
		w->skipped};
	if (w->ignored[0] != '\0') {
		char e[300];

		snprintf(e, sizeof(e), "vsw does not apply: %s", w->ignored);
		json_object_set_new(c, "error", json_string(e));
	}
	json_object_set_new(c, "ofport", json_integer(p->id + 1));
	json_object_set_new(
		c, "link_state",
		json_string(__atomic_load_n(&p->up, __ATOMIC_ACQUIRE)
				    ? "up"
				    : "down"));
	json_object_set_new(c, "admin_state", json_string("up"));
	json_object_set_new(c, "mtu", json_integer(p->conf.mtu));
	json_object_set_new(c, "status",
			    datum_map(k, v, w->skipped[0] ? 3 : 2));
	if (stats)
		json_object_set_new(c, "statistics",
				    stats_datum(o->ctl, p->id));
	return c;
}

/* Columns of @cols that differ from what was last written to @uuid (all
 * when nothing was); NULL when none.  Records them as written. */
static json_t *changed(struct vsw_ovsdb *o, const char *uuid, json_t *cols)
{
	json_t *last = json_object_get(o->written, uuid), *row = json_object();
	const char *k;
	json_t *v;

	if (last == NULL) {
		last = json_object();
		json_object_set_new(o->written, uuid, last);
	}
	json_object_foreach (cols, k, v)
		if (!json_equal(v, json_object_get(last, k))) {
			json_object_set(row, k, v);
			json_object_set(last, k, v);
		}
	json_decref(cols);
	if (json_object_size(row) == 0) {
		json_decref(row);
		return NULL;
	}
	return row;
}

static json_t *update_op(const char *tbl, const char *uuid, json_t *row)
{
	return json_pack("{s:s, s:s, s:[[s,s,[s,s]]], s:o}", "op", "update",
			 "table", tbl, "where", "_uuid", "==", "uuid", uuid,
			 "row", row);
}

/* The write-back transaction's operations for @ws, and cur_cfg. */
static json_t *writeback(struct vsw_ovsdb *o, struct want *ws, unsigned int n,
			 bool stats, bool cfg)
{
	json_t *ops = json_array(), *ovs = table(o, "Open_vSwitch"), *r;
	const char *ou = NULL;
	unsigned int errors = 0;

	for (unsigned int i = 0; i < n; i++) {
		errors += ws[i].err[0] != '\0' && !ws[i].local;
		r = changed(o, ws[i].uuid, iface_cols(o, &ws[i], stats));
		if (r != NULL)
			json_array_append_new(
				ops, update_op("Interface", ws[i].uuid, r));
	}
	if (ovs != NULL) {
		json_t *row;

		json_object_foreach (ovs, ou, row)
			break;
	}
	if (cfg && ou != NULL && o->next_cfg != o->cur_cfg) {
		json_array_append_new(
			ops, update_op("Open_vSwitch", ou,
				       json_pack("{s:I}", "cur_cfg",
						 (json_int_t)o->next_cfg)));
		o->cur_cfg = o->next_cfg;
	}
	pthread_mutex_lock(&o->lock);
	o->st.n_errors = errors;
	o->st.cur_cfg = o->cur_cfg < 0 ? 0 : (uint64_t)o->cur_cfg;
	pthread_mutex_unlock(&o->lock);
	return ops;
}

static void note_status(struct vsw_ovsdb *o)
{
	unsigned int n = 0;

	for (int i = 0; i < VSW_MAX_PORTS; i++)
		n += o->ctl->ports[i] != NULL && ours(o->ctl->ports[i]);
	pthread_mutex_lock(&o->lock);
	o->st.n_ports = n;
	snprintf(o->st.bridge, sizeof(o->st.bridge), "%s",
		 o->ctl->cfg.sw.bridge);
	pthread_mutex_unlock(&o->lock);
}

/*
 * Whether @text was what the last sync logged about @what; remembered
 * (NULL: forgotten, @what is right again).  A database that keeps a
 * wrong value is logged once per value, not at each sync.
 */
static bool told_once(struct vsw_ovsdb *o, const char *what, const char *text)
{
	json_t *v = json_object_get(o->told, what);

	if (text == NULL) {
		json_object_del(o->told, what);
		return false;
	}
	if (v != NULL && strcmp(json_string_value(v), text) == 0)
		return true;
	json_object_set_new_nocheck(o->told, what, json_string_nocheck(text));
	return false;
}

/*
 * other_config:vhost-sock-dir of Open_vSwitch row @row: the directory of
 * dpdkvhostuser sockets relative to OVS's run directory, taken when vsw
 * first sees the row, as ovs-vswitchd takes it when it starts (a later
 * change is logged and waits for a restart: moving the sockets of
 * running guests would cut them off).  One with ".." is refused (the
 * sockets stay in the run directory), as OVS refuses it.
 */
static void take_sock_dir(struct vsw_ovsdb *o, json_t *row)
{
	const char *sub = datum_map_get(json_object_get(row, "other_config"),
					"vhost-sock-dir");
	size_t n;

	if (sub == NULL)
		sub = "";
	if (o->sock_dir_taken) {
		if (strcmp(sub, o->sock_sub) == 0)
			told_once(o, "vhost-sock-dir", NULL);
		else if (!told_once(o, "vhost-sock-dir", sub))
			VSW_LOG(WARNING,
				"ovsdb: other_config:vhost-sock-dir is now "
				"\"%s\": dpdkvhostuser sockets stay in %s "
				"until vsw restarts (as with ovs-vswitchd)",
				sub, o->sock_dir);
		return;
	}
	o->sock_dir_taken = true;
	snprintf(o->sock_sub, sizeof(o->sock_sub), "%s", sub);
	sub += strspn(sub, "/");
	n = strlen(sub);
	while (n > 0 && sub[n - 1] == '/')
		n--;
	if (n == 0)
		return;
	if (strstr(sub, "..") != NULL ||
	    strlen(o->run_dir) + 1 + n >= sizeof(o->sock_dir) - 32) {
		VSW_LOG(ERR,
			"ovsdb: other_config:vhost-sock-dir \"%s\" %s: "
			"dpdkvhostuser sockets go to %s",
			o->sock_sub,
			strstr(sub, "..") ? "has \"..\"" : "is too long",
			o->sock_dir);
		return;
	}
	snprintf(o->sock_dir, sizeof(o->sock_dir), "%s/%.*s", o->run_dir,
		 (int)n, sub);
	VSW_LOG(INFO, "ovsdb: dpdkvhostuser sockets go to %s", o->sock_dir);
	pthread_mutex_lock(&o->lock);
	snprintf(o->st.sock_dir, sizeof(o->st.sock_dir), "%s", o->sock_dir);
	pthread_mutex_unlock(&o->lock);
}

/*
 * @key of the map @oc as an integer in @lo..@hi into @v: true, or false
 * when absent or not such a number (logged once per value: OVS too
 * ignores such a value).
 */
static bool oc_int(struct vsw_ovsdb *o, json_t *oc, const char *key, long lo,
		   long hi, long *v)
{
	const char *s = datum_map_get(oc, key);
	char *end;
	long x;

	if (s == NULL) {
		told_once(o, key, NULL);
		return false;
	}
	errno = 0;
	x = strtol(s, &end, 10);
	if (errno == 0 && end != s && *end == '\0' && x >= lo && x <= hi) {
		told_once(o, key, NULL);
		*v = x;
		return true;
	}
	if (!told_once(o, key, s))
		VSW_LOG(WARNING,
			"ovsdb: other_config:%s=\"%s\" is not a number in "
			"%ld..%ld: ignored",
			key, s, lo, hi);
	return false;
}

static void over_add(struct vsw_override *ov, unsigned int *n, const char *key,
		     long v, const char *from)
{
	struct vsw_override *x = &ov[(*n)++];

	snprintf(x->key, sizeof(x->key), "%s", key);
	snprintf(x->value, sizeof(x->value), "%ld", v);
	snprintf(x->from, sizeof(x->from), "OVSDB (Open_vSwitch %s)", from);
}

/*
 * The settings of Open_vSwitch row @row's other_config that vsw has
 * (docs/integration.md), laid over vsw's own while the database has
 * them: tx-flush-interval (µs, as vsw's); pmd-auto-lb (with
 * pmd-auto-lb-rebal-interval, minutes: 0 or none is 1, as in OVS) as
 * rebalance-interval-s; pmd-auto-lb-improvement-threshold as
 * rebalance-improvement-pct.  Which ones, in @o->st.settings.
 */
static void take_settings(struct vsw_ovsdb *o, json_t *row)
{
	json_t *oc = json_object_get(row, "other_config");
	struct vsw_override ov[VSW_MAX_OVERRIDES];
	char err[VSW_ERR_MAX], list[VSW_MAX_OVERRIDES * 72] = "";
	const char *lb = datum_map_get(oc, "pmd-auto-lb");
	unsigned int n = 0;
	long v, min = 1;

	if (oc_int(o, oc, "tx-flush-interval", 0, 1000000, &v))
		over_add(ov, &n, "tx-flush-interval-us", v,
			 "other_config:tx-flush-interval");
	if (lb != NULL && strcmp(lb, "true") == 0) {
		if (oc_int(o, oc, "pmd-auto-lb-rebal-interval", 0, 20000,
			   &min) &&
		    min == 0)
			min = 1;
		over_add(ov, &n, "rebalance-interval-s", min * 60,
			 "other_config:pmd-auto-lb=true and "
			 "pmd-auto-lb-rebal-interval");
	} else {
		/* the interval counts only with pmd-auto-lb=true: a bad one
		 * is logged again when it counts again */
		told_once(o, "pmd-auto-lb-rebal-interval", NULL);
		if (lb != NULL)
			over_add(ov, &n, "rebalance-interval-s", 0,
				 "other_config:pmd-auto-lb");
	}
	if (oc_int(o, oc, "pmd-auto-lb-improvement-threshold", 0, 100, &v))
		over_add(ov, &n, "rebalance-improvement-pct", v,
			 "other_config:pmd-auto-lb-improvement-threshold");
	if (vsw_ctl_override(o->ctl, ov, n, err, sizeof(err)) < 0) {
		if (!told_once(o, " override", err))
			VSW_LOG(ERR, "ovsdb: other_config: %s", err);
		return;
	}
	told_once(o, " override", NULL);
	for (unsigned int i = 0, at = 0; i < n; i++)
		at += (unsigned int)snprintf(list + at, sizeof(list) - at,
					     "%s%.31s=%.31s", i ? " " : "",
					     ov[i].key, ov[i].value);
	list[sizeof(o->st.settings) - 1] = '\0'; /* (88 bytes at most) */
	if (strcmp(list, o->st.settings) == 0)
		return;
	VSW_LOG(INFO, "ovsdb: settings from other_config: %s",
		list[0] ? list : "none (vsw's own)");
	pthread_mutex_lock(&o->lock);
	memcpy(o->st.settings, list, sizeof(o->st.settings));
	pthread_mutex_unlock(&o->lock);
}

/* Open_vSwitch's next_cfg, other_config:vhost-sock-dir and the settings
 * of other_config that vsw has. */
static void read_root(struct vsw_ovsdb *o)
{
	json_t *ovs = table(o, "Open_vSwitch"), *row;
	const char *u;

	json_object_foreach (ovs, u, row) {
		o->next_cfg = datum_int(json_object_get(row, "next_cfg"), 0);
		take_sock_dir(o, row);
		take_settings(o, row);
		break;
	}
}

int sync_run(struct vsw_ovsdb *o, enum sync_mode mode)
{
	bool full = mode == SYNC_FULL;
	struct vsw_ctl *ctl = o->ctl;
	static struct want ws[2 * VSW_MAX_PORTS + 64];
	unsigned int n = 0;
	json_t *ops;

	pthread_mutex_lock(&ctl->ctl_lock);
	if (ctl->stopping) {
		pthread_mutex_unlock(&ctl->ctl_lock);
		return 0;
	}
	read_root(o);
	collect(o, ws, &n, sizeof(ws) / sizeof(ws[0]));
	if (full)
		apply(o, ws, n);
	else
		recall_errors(o, ws, n);
	note_status(o);
	ops = writeback(o, ws, n, mode != SYNC_LINKS, full);
	pthread_mutex_unlock(&ctl->ctl_lock);
	if (full) {
		pthread_mutex_lock(&o->lock);
		o->st.syncs++;
		pthread_mutex_unlock(&o->lock);
	}
	if (json_array_size(ops) == 0) {
		json_decref(ops);
		return 0;
	}
	json_array_insert_new(ops, 0, json_string("Open_vSwitch"));
	return rpc_send(&o->rpc, json_pack("{s:s, s:o, s:I}", "method",
					   "transact", "params", ops, "id",
					   (json_int_t)++o->last_id));
}
