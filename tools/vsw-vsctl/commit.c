/*
 * The model's changes as vsw telemetry commands, applied in an order that
 * leaves nothing half-done where vsw allows it: deletions first (a port
 * deleted and added again in one transaction needs its socket back),
 * then the bridge name, new ports, changed ports.  When a command fails,
 * the ones applied before it are undone in reverse (a new port deleted, a
 * setting or the bridge name restored); a deleted port cannot come back
 * (vsw no longer has its settings), which the message says.  A telemetry
 * parameter string holds 255 characters, so a new port's external-ids go
 * in a port-set after its port-add.
 */
#include "vsctl.h"
#include "tools/telclient/telclient.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPS_MAX (4 * VS_MAX_PORTS + 2)
#define PARAMS_MAX 255 /* switch/api/ctl_args.h VSW_ARGS_MAX */

struct op {
	char *cmd;  /* "/vsw/port/add,NAME,..." */
	char *undo; /* NULL: nothing to undo */
	bool is_del;
};

struct plan {
	struct op ops[OPS_MAX];
	int n;
};

static int add_op(struct plan *pl, char *cmd, char *undo, bool is_del,
		  char *err, size_t len)
{
	const char *comma = strchr(cmd, ',');

	if (comma != NULL && strlen(comma + 1) > PARAMS_MAX) {
		snprintf(err, len,
			 "the vsw command %.40s... is longer than vsw takes "
			 "(%d characters of parameters): shorter names, "
			 "paths or external_ids",
			 cmd, PARAMS_MAX);
		free(cmd);
		free(undo);
		return -1;
	}
	pl->ops[pl->n++] = (struct op){cmd, undo, is_del};
	return 0;
}

/* "KEY=V,..." of a new port: type, mode, path, mtu, VLANs. */
static int ids_too_long(const struct vs_port *p, char *err, size_t len)
{
	return vs_fail(err, len,
		       "port %s: external_ids longer than %d characters in "
		       "all (vsw's external-ids)",
		       p->ovs, VSW_EXTERNAL_IDS_MAX);
}

static int plan_add(struct plan *pl, const struct vs_port *p, char *err,
		    size_t len)
{
	char vlan[256] = "", mtu[32] = "", ids[VSW_EXTERNAL_IDS_MAX + 1];
	bool client = strcmp(p->type, "dpdkvhostuserclient") == 0;

	if ((p->vlan.tag >= 0 || p->vlan.mode[0] || p->vlan.trunks[0]) &&
	    vsw_ovs_vlan_keys(&p->vlan, vlan + 1, sizeof(vlan) - 1, err, len) <
		    0)
		return -1;
	if (vlan[1] != '\0')
		vlan[0] = ',';
	if (p->mtu > 0)
		snprintf(mtu, sizeof(mtu), ",mtu=%ld", p->mtu);
	if (add_op(pl,
		   xasprintf("/vsw/port/add,%s,type=vhost-user,mode=%s,"
			     "path=%s%s%s",
			     p->vsw, client ? "client" : "server", p->path, mtu,
			     vlan),
		   xasprintf("/vsw/port/del,%s", p->vsw), false, err, len) < 0)
		return -1;
	if (vs_ids_str(p, ids, sizeof(ids)) < 0)
		return ids_too_long(p, err, len);
	if (ids[0] == '\0')
		return 0;
	return add_op(
		pl, xasprintf("/vsw/port/set,%s,external-ids=%s", p->vsw, ids),
		NULL, false, err, len);
}

/* What changed on a port vsw has: mtu, VLANs, external-ids. */
static int plan_set(struct plan *pl, const struct vs_port *p, char *err,
		    size_t len)
{
	char vlan[256], old[256], ids[VSW_EXTERNAL_IDS_MAX + 1];

	if (p->mtu > 0 && p->mtu != p->vsw_mtu &&
	    add_op(pl, xasprintf("/vsw/port/set,%s,mtu=%ld", p->vsw, p->mtu),
		   xasprintf("/vsw/port/set,%s,mtu=%ld", p->vsw, p->vsw_mtu),
		   false, err, len) < 0)
		return -1;
	if (vsw_ovs_vlan_keys(&p->vlan, vlan, sizeof(vlan), err, len) < 0)
		return -1;
	snprintf(old, sizeof(old), "vlan-mode=%s,tag=%ld,trunks=%s",
		 p->vsw_mode, p->vsw_tag, p->vsw_trunks);
	if (strcmp(vlan, old) != 0 &&
	    add_op(pl, xasprintf("/vsw/port/set,%s,%s", p->vsw, vlan),
		   xasprintf("/vsw/port/set,%s,%s", p->vsw, old), false, err,
		   len) < 0)
		return -1;
	if (vs_ids_str(p, ids, sizeof(ids)) < 0)
		return ids_too_long(p, err, len);
	if (strcmp(ids, p->vsw_ids) != 0 &&
	    add_op(pl,
		   xasprintf("/vsw/port/set,%s,external-ids=%s", p->vsw, ids),
		   xasprintf("/vsw/port/set,%s,external-ids=%s", p->vsw,
			     p->vsw_ids),
		   false, err, len) < 0)
		return -1;
	return 0;
}

static int plan(struct vs_model *m, struct plan *pl, char *err, size_t len)
{
	for (int i = 0; i < m->n; i++)
		if (m->ports[i].existed && m->ports[i].deleted &&
		    add_op(pl, xasprintf("/vsw/port/del,%s", m->ports[i].vsw),
			   NULL, true, err, len) < 0)
			return -1;
	if (strcmp(m->bridge, m->bridge0) != 0 &&
	    add_op(pl, xasprintf("/vsw/set,bridge,%s", m->bridge),
		   xasprintf("/vsw/set,bridge,%s", m->bridge0), false, err,
		   len) < 0)
		return -1;
	for (int i = 0; i < m->n; i++) {
		const struct vs_port *p = &m->ports[i];

		if (p->deleted)
			continue;
		if (p->added ? plan_add(pl, p, err, len) < 0
			     : plan_set(pl, p, err, len) < 0)
			return -1;
	}
	return 0;
}

static void plan_free(struct plan *pl)
{
	for (int i = 0; i < pl->n; i++) {
		free(pl->ops[i].cmd);
		free(pl->ops[i].undo);
	}
}

/* Undo ops[0..k) in reverse; a deletion among them is named. */
static void undo(struct ctl *ctl, struct plan *pl, int k)
{
	json_t *reply, *d;

	for (int i = k - 1; i >= 0; i--) {
		if (pl->ops[i].is_del)
			error("%s was applied and is not undone",
			      pl->ops[i].cmd);
		if (pl->ops[i].undo == NULL)
			continue;
		if (ctl_query(ctl, pl->ops[i].undo, &reply, &d) == 0)
			json_decref(reply);
	}
}

int vs_commit(struct ctl *ctl, struct vs_model *m, char *err, size_t len)
{
	struct plan *pl = calloc(1, sizeof(*pl));
	json_t *reply, *d;
	int rc = 0;

	if (pl == NULL || plan(m, pl, err, len) < 0) {
		if (pl)
			plan_free(pl);
		free(pl);
		return -1;
	}
	for (int i = 0; i < pl->n; i++) {
		rc = ctl_query(ctl, pl->ops[i].cmd, &reply, &d);
		if (rc == 0) {
			json_decref(reply);
			continue;
		}
		undo(ctl, pl, i);
		snprintf(err, len, "transaction error: %s failed (undone)",
			 pl->ops[i].cmd);
		rc = -1;
		break;
	}
	plan_free(pl);
	free(pl);
	return rc;
}
