/*
 * vsw's state seen as OVS rows.  vsw is one switch, so there is at most
 * one Bridge: its name is the [switch] key `bridge` (empty: no bridge
 * yet) and every vsw port is a Port of it with one Interface of the same
 * name.  vsw port names are [A-Za-z0-9_], OVS names are not (os-vif's
 * "vhu" + 11 characters of a UUID hold a '-', the userspace CNI's
 * "<container id>-<ifname>" too): the vsw name is the OVS name with every
 * other character turned into '_', and the OVS name is kept in the port's
 * external-ids as ovs-name=NAME when the two differ, so list-ports gives
 * back what os-vif compares against.  Loading costs one /vsw/port query
 * per port (64 at most).
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

int vs_vsw_name(const char *ovs, char *out, size_t len, char *err,
		size_t errlen)
{
	size_t n = strlen(ovs);

	if (n == 0 || n >= len || n > VSW_PORT_NAME_MAX - 1) {
		snprintf(err, errlen,
			 "port name \"%s\": vsw takes 1..%d characters", ovs,
			 VSW_PORT_NAME_MAX - 1);
		return -1;
	}
	/* the name goes into a "/vsw/port/add,NAME,path=DIR/NAME,..." list
	 * and into external-ids: a ',', '=' or space would add keys there */
	if (strspn(ovs, VS_NAME_CHARS) != n) {
		snprintf(err, errlen,
			 "port name \"%s\": vsw-vsctl takes only "
			 "[A-Za-z0-9_.:@+-]",
			 ovs);
		return -1;
	}
	for (size_t i = 0; i <= n; i++)
		out[i] = (char)(ovs[i] == '\0' || isalnum((unsigned char)ovs[i])
					? ovs[i]
					: '_');
	return 0;
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

/* trunks without VLAN 4095 (the dead VLAN carries nothing) into @out. */
static bool drop_dead(const char *trunks, char *out, size_t len)
{
	bool dead = false;
	size_t off = 0;

	out[0] = '\0';
	for (const char *p = trunks; *p != '\0';) {
		size_t n = strcspn(p, ", ");

		if (n == 4 && strncmp(p, "4095", 4) == 0)
			dead = true;
		else if (n > 0 && off < len)
			off += (size_t)snprintf(out + off, len - off, "%s%.*s",
						off ? "," : "", (int)n, p);
		p += n;
		p += strspn(p, ", ");
	}
	return dead;
}

int vs_vlan_keys(const struct vs_vlan *v, char *buf, size_t len, char *err,
		 size_t errlen)
{
	char trunks[sizeof(v->trunks)];
	bool dead = drop_dead(v->trunks, trunks, sizeof(trunks));
	const char *mode = v->mode[0]	 ? v->mode
			   : v->tag >= 0 ? "access"
					 : "trunk";

	if (strcmp(mode, "trunk") == 0) {
		if (dead &&
		    trunks[0] == '\0') /* trunks=4095: carries nothing */
			snprintf(buf, len, "vlan-mode=access,tag=%d,trunks=all",
				 VSW_VLAN_DEAD);
		else
			snprintf(buf, len, "vlan-mode=trunk,tag=0,trunks=%s",
				 trunks[0] ? trunks : "all");
		return 0;
	}
	if (strcmp(mode, "access") != 0 && strcmp(mode, "native-tagged") != 0 &&
	    strcmp(mode, "native-untagged") != 0) {
		snprintf(err, errlen,
			 "unsupported: vlan_mode=%s (vsw takes "
			 "access, trunk, native-tagged, native-untagged)",
			 mode);
		return -1;
	}
	if (v->tag <= 0) {
		snprintf(err, errlen,
			 "vlan_mode=%s needs a tag (vsw: an access or native "
			 "port has a VLAN)",
			 mode);
		return -1;
	}
	/* a native port's trunks of only 4095 carry no tagged VLAN: "0"
	 * (a native port's trunks never carry VLAN 0), not "all" */
	snprintf(buf, len, "vlan-mode=%s,tag=%ld,trunks=%s", mode, v->tag,
		 strcmp(mode, "access") == 0 ? "all"
		 : trunks[0] != '\0'	     ? trunks
		 : dead			     ? "0"
					     : "all");
	return 0;
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
