/*
 * vsw's state seen as OVS rows.  vsw is one switch, so there is at most
 * one Bridge: its name is the [switch] key `bridge` (empty: no bridge
 * yet) and every vsw port is a Port of it with one Interface of the same
 * name.  The OVS name <-> vsw name rule is config/ovs_map.h's (shared
 * with vsw's OVSDB client); the OVS name kept in external-ids lets
 * list-ports give back what os-vif compares against.  Loading costs one
 * /vsw/port query per port (64 at most).
 */
#include "vsctl.h"
#include "tools/telclient/telclient.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vs_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

struct vs_port *vs_port_find(struct vs_model *m, const char *name)
{
	for (int i = 0; i < m->n; i++)
		if (!m->ports[i].deleted && strcmp(m->ports[i].ovs, name) == 0)
			return &m->ports[i];
	return NULL;
}

int vs_ids_str(const struct vs_port *p, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	if (strcmp(p->ovs, p->vsw) != 0)
		off += (size_t)snprintf(buf, len, "%s=%s", VS_OVS_NAME_KEY,
					p->ovs);
	for (int i = 0; i < p->n_ids && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s=%s",
					off ? " " : "", p->ids[i].k,
					p->ids[i].v);
	return off < len ? 0 : -1; /* -1: cut short */
}

/* external_ids ["k=v", ...] of a /vsw/port reply into @p. */
static void load_ids(struct vs_port *p, json_t *arr)
{
	size_t i;
	json_t *s;

	json_array_foreach (arr, i, s) {
		const char *w = json_string_value(s), *eq;

		if (w == NULL || (eq = strchr(w, '=')) == NULL)
			continue;
		if (strncmp(w, VS_OVS_NAME_KEY "=",
			    strlen(VS_OVS_NAME_KEY) + 1) == 0) {
			snprintf(p->ovs, sizeof(p->ovs), "%s", eq + 1);
			continue;
		}
		if (p->n_ids == VS_MAX_IDS)
			continue;
		snprintf(p->ids[p->n_ids].k, sizeof(p->ids[0].k), "%.*s",
			 (int)(eq - w), w);
		snprintf(p->ids[p->n_ids].v, sizeof(p->ids[0].v), "%s", eq + 1);
		p->n_ids++;
	}
}

static void load_vlan(struct vs_port *p, json_t *d)
{
	const char *mode = str_of(d, "vlan_mode"), *tr = str_of(d, "trunks");
	long tag = (long)u64_of(d, "tag");

	snprintf(p->vsw_mode, sizeof(p->vsw_mode), "%s", mode ? mode : "trunk");
	snprintf(p->vsw_trunks, sizeof(p->vsw_trunks), "%s", tr ? tr : "all");
	p->vsw_tag = tag;
	p->vlan.tag = tag ? tag : -1;
	if (strncmp(p->vsw_mode, "native", 6) == 0)
		memcpy(p->vlan.mode, p->vsw_mode, sizeof(p->vlan.mode));
	if (strcmp(p->vsw_trunks, "all") != 0)
		memcpy(p->vlan.trunks, p->vsw_trunks, sizeof(p->vlan.trunks));
}

static int load_port(struct ctl *ctl, struct vs_model *m, const char *name)
{
	struct vs_port *p = &m->ports[m->n];
	json_t *reply, *d;
	char *cmd = xasprintf("/vsw/port,%s", name);
	const char *type, *mode, *path;
	int rc = ctl_query(ctl, cmd, &reply, &d);

	free(cmd);
	if (rc)
		return rc;
	memset(p, 0, sizeof(*p));
	snprintf(p->vsw, sizeof(p->vsw), "%s", name);
	snprintf(p->ovs, sizeof(p->ovs), "%s", name);
	p->existed = true;
	p->id = (long)u64_of(d, "id");
	p->up = (str_of(d, "state") && strcmp(str_of(d, "state"), "up") == 0);
	type = str_of(d, "type");
	mode = str_of(d, "mode");
	path = str_of(d, "path");
	if (type && strcmp(type, "vhost-user") == 0)
		snprintf(p->type, sizeof(p->type), "%s",
			 mode && strcmp(mode, "client") == 0
				 ? "dpdkvhostuserclient"
				 : "dpdkvhostuser");
	else
		snprintf(p->type, sizeof(p->type), "dpdk");
	snprintf(p->path, sizeof(p->path), "%s", path ? path : "");
	p->path_set = strcmp(p->type, "dpdkvhostuserclient") == 0;
	p->vsw_mtu = p->mtu = (long)u64_of(d, "mtu");
	load_ids(p, json_object_get(d, "external_ids"));
	(void)vs_ids_str(p, p->vsw_ids, sizeof(p->vsw_ids)); /* vsw's fit */
	load_vlan(p, d);
	m->n++;
	json_decref(reply);
	return 0;
}

int vs_model_load(struct ctl *ctl, struct vs_model *m)
{
	struct pages pg = {0};
	json_t *reply, *d;
	int rc = ctl_query(ctl, "/vsw/info", &reply, &d);

	if (rc)
		return rc;
	snprintf(m->bridge, sizeof(m->bridge), "%s",
		 str_of(d, "bridge") ? str_of(d, "bridge") : "");
	snprintf(m->bridge0, sizeof(m->bridge0), "%s", m->bridge);
	snprintf(m->run_dir, sizeof(m->run_dir), "%s",
		 str_of(d, "run_dir") ? str_of(d, "run_dir") : "");
	json_decref(reply);
	rc = pages_fetch(ctl, "/vsw/ports", &pg);
	for (size_t i = 0; rc == 0 && i < pg.nitems && m->n < VS_MAX_PORTS; i++)
		rc = load_port(ctl, m, pg.items[i].key);
	pages_free(&pg);
	return rc;
}
