/*
 * The OVS tables and columns vsw-vsctl knows, read and written on the
 * model: Bridge (name, datapath_type), Port (name, tag, vlan_mode, trunks,
 * mac, external_ids) and Interface (name, type, options, external_ids,
 * mtu_request, mtu, ofport, link_state, admin_state).  Table and column
 * names match as ovs-vsctl matches them: any case, '-' for '_', any
 * unique prefix.  What a column means in vsw is in docs/vsw-vsctl.md.
 */
#include "cols.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const bridge_cols[] = {"name", "datapath_type", NULL};
static const char *const port_cols[] = {
	"name", "tag", "vlan_mode", "trunks", "mac", "external_ids", NULL};
static const char *const iface_cols[] = {
	"name", "type",	  "options",	"external_ids", "mtu_request",
	"mtu",	"ofport", "link_state", "admin_state",	NULL};

/* The columns OVS has (vswitch.ovsschema 8.3.1) that vsw-vsctl lacks:
 * asking for one is "unsupported", for any other ovs-vsctl's "does not
 * contain a column" (os-vif's has_table_column matches that message). */
static const char *const ovs_bridge[] = {"auto_attach",
					 "controller",
					 "datapath_id",
					 "datapath_version",
					 "external_ids",
					 "fail_mode",
					 "flood_vlans",
					 "flow_tables",
					 "ipfix",
					 "mcast_snooping_enable",
					 "mirrors",
					 "netflow",
					 "other_config",
					 "ports",
					 "protocols",
					 "rstp_enable",
					 "rstp_status",
					 "sflow",
					 "status",
					 "stp_enable",
					 NULL};
static const char *const ovs_port[] = {"bond_active_slave",
				       "bond_downdelay",
				       "bond_fake_iface",
				       "bond_mode",
				       "bond_updelay",
				       "cvlans",
				       "fake_bridge",
				       "interfaces",
				       "lacp",
				       "other_config",
				       "protected",
				       "qos",
				       "rstp_statistics",
				       "rstp_status",
				       "statistics",
				       "status",
				       NULL};
static const char *const ovs_iface[] = {"bfd",
					"bfd_status",
					"cfm_fault",
					"cfm_fault_status",
					"cfm_flap_count",
					"cfm_health",
					"cfm_mpid",
					"cfm_remote_mpids",
					"cfm_remote_opstate",
					"duplex",
					"error",
					"ifindex",
					"ingress_policing_burst",
					"ingress_policing_kpkts_burst",
					"ingress_policing_kpkts_rate",
					"ingress_policing_rate",
					"lacp_current",
					"link_resets",
					"link_speed",
					"lldp",
					"mac",
					"mac_in_use",
					"ofport_request",
					"other_config",
					"statistics",
					"status",
					NULL};

static const struct {
	const char *name;
	const char *const *cols, *const *ovs_only;
} tables[] = {
	[VS_T_BRIDGE] = {"Bridge", bridge_cols, ovs_bridge},
	[VS_T_PORT] = {"Port", port_cols, ovs_port},
	[VS_T_IFACE] = {"Interface", iface_cols, ovs_iface},
};

const char *const *vs_table_cols(enum vs_tbl t)
{
	return tables[t].cols;
}

const char *vs_table_name(enum vs_tbl t)
{
	return tables[t].name;
}

static int lc(int c)
{
	return c == '-' ? '_' : tolower(c);
}

/* ovs-vsctl's score_partial_match: exact, whole, prefix, or none. */
static unsigned int score(const char *name, const char *s)
{
	unsigned int n = 0;

	if (strcmp(name, s) == 0)
		return 1000;
	for (; lc(*name) == lc(*s); name++, s++, n++)
		if (*name == '\0')
			return 999;
	return *s == '\0' ? n : 0;
}

int vs_table_find(const char *name, char *err, size_t len)
{
	static const char *const other[] = {
		"Open_vSwitch", "Controller",
		"Manager",	"Mirror",
		"NetFlow",	"QoS",
		"Queue",	"SSL",
		"sFlow",	"IPFIX",
		"Flow_Table",	"Flow_Sample_Collector_Set",
		"AutoAttach",	"Datapath",
		"CT_Zone",	"CT_Timeout_Policy"};
	unsigned int best = 0, s;
	int hit = -1;

	for (int t = 0; t < VS_T_N; t++)
		if ((s = score(tables[t].name, name)) > best)
			best = s, hit = t;
	if (hit >= 0)
		return hit;
	for (size_t i = 0; i < sizeof(other) / sizeof(*other); i++)
		if (score(other[i], name) > 0) {
			snprintf(err, len,
				 "unsupported: table %s (vsw-vsctl knows "
				 "Bridge, Port and Interface)",
				 other[i]);
			return -1;
		}
	snprintf(err, len, "unknown table \"%s\"", name);
	return -1;
}

static void col_error(enum vs_tbl t, const char *want, char *err, size_t len)
{
	char known[256] = "";
	int i;

	for (i = 0; tables[t].ovs_only[i]; i++)
		if (score(tables[t].ovs_only[i], want) > 0)
			break;
	if (tables[t].ovs_only[i] == NULL) {
		snprintf(err, len,
			 "%s does not contain a column whose name matches "
			 "\"%s\"",
			 tables[t].name, want);
		return;
	}
	for (i = 0; tables[t].cols[i]; i++)
		snprintf(known + strlen(known), sizeof(known) - strlen(known),
			 "%s%s", i ? ", " : "", tables[t].cols[i]);
	snprintf(err, len, "unsupported: %s column \"%s\" (vsw-vsctl knows %s)",
		 tables[t].name, want, known);
}

int vs_col_find(enum vs_tbl t, const char *name, size_t n, char *err,
		size_t len)
{
	char want[64];
	unsigned int best = 0, s;
	int hit = -1;

	snprintf(want, sizeof(want), "%.*s", (int)n, name);
	for (int i = 0; tables[t].cols[i]; i++)
		if ((s = score(tables[t].cols[i], want)) > best)
			best = s, hit = i;
	if (hit < 0)
		col_error(t, want, err, len);
	return hit;
}

/* ---- reading ---- */

static void one_str(struct vs_cell_val *v, const char *s)
{
	v->n = 1;
	v->keys[0] = s;
}

static void opt_int(struct vs_cell_val *v, long x)
{
	v->is_int = true;
	v->n = x >= 0;
	v->ints[0] = x;
}

/* trunks "10,20-22" as a set of integers (at most VS_MAX_IDS shown). */
static void trunk_set(struct vs_cell_val *v, const char *tr)
{
	v->is_int = v->is_set = true;
	for (const char *p = tr; *p != '\0' && v->n < VS_MAX_IDS;) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long x = lo; x <= hi && v->n < VS_MAX_IDS; x++)
			v->ints[v->n++] = x;
		p = end + strspn(end, ", ");
		if (end == p && *p != '\0')
			break;
	}
}

static void ids_map(struct vs_cell_val *v, const struct vs_port *p)
{
	v->is_map = v->is_set = true;
	for (int i = 0; i < p->n_ids; i++) {
		v->keys[v->n] = p->ids[i].k;
		v->vals[v->n++] = p->ids[i].v;
	}
	/* sorted by key, as OVSDB keeps a map */
	for (int i = 1; i < v->n; i++)
		for (int j = i; j > 0 && strcmp(v->keys[j - 1], v->keys[j]) > 0;
		     j--) {
			const char *k = v->keys[j], *x = v->vals[j];

			v->keys[j] = v->keys[j - 1],
			v->vals[j] = v->vals[j - 1];
			v->keys[j - 1] = k, v->vals[j - 1] = x;
		}
}

static void port_col(const struct vs_port *p, const char *c,
		     struct vs_cell_val *v)
{
	if (strcmp(c, "name") == 0)
		one_str(v, p->ovs);
	else if (strcmp(c, "tag") == 0)
		opt_int(v, p->vlan.tag);
	else if (strcmp(c, "vlan_mode") == 0 && p->vlan.mode[0])
		one_str(v, p->vlan.mode);
	else if (strcmp(c, "trunks") == 0)
		trunk_set(v, p->vlan.trunks);
	else if (strcmp(c, "external_ids") == 0)
		v->is_map = v->is_set = true; /* Port's: not kept */
}

static void iface_col(const struct vs_port *p, const char *c,
		      struct vs_cell_val *v)
{
	if (strcmp(c, "name") == 0)
		one_str(v, p->ovs);
	else if (strcmp(c, "type") == 0)
		one_str(v, p->type);
	else if (strcmp(c, "options") == 0) {
		v->is_map = v->is_set = true;
		if (p->path_set) {
			v->n = 1;
			v->keys[0] = "vhost-server-path";
			v->vals[0] = p->path;
		}
	} else if (strcmp(c, "external_ids") == 0)
		ids_map(v, p);
	else if (strcmp(c, "mtu_request") == 0)
		opt_int(v, p->mtu); /* what vsw was given: its mtu */
	else if (strcmp(c, "mtu") == 0)
		opt_int(v, p->added ? -1 : p->vsw_mtu);
	else if (strcmp(c, "ofport") == 0)
		opt_int(v, p->added ? -1 : p->id + 1);
	else if (strcmp(c, "link_state") == 0 && !p->added)
		one_str(v, p->up ? "up" : "down");
	else if (strcmp(c, "admin_state") == 0 && !p->added)
		one_str(v, "up");
}

void vs_col_read(const struct vs_model *m, enum vs_tbl t,
		 const struct vs_port *p, const char *col,
		 struct vs_cell_val *v)
{
	memset(v, 0, sizeof(*v));
	if (t == VS_T_BRIDGE)
		one_str(v, strcmp(col, "name") == 0 ? m->bridge : "netdev");
	else if (t == VS_T_PORT)
		port_col(p, col, v);
	else
		iface_col(p, col, v);
}
