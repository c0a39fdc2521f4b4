/*
 * vsw-vsctl's commands, each run on the model in order as ovs-vsctl runs
 * them inside one OVSDB transaction: a later command sees what an
 * earlier one did ("add-port ... -- set Interface ... type=..."), and
 * nothing reaches vsw until every command has run (commit.c).  Messages
 * are ovs-vsctl's where a script may match them ("no port named X");
 * what vsw cannot do says "unsupported: ..." and what to do instead.
 */
#include "cols.h"
#include "vsctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int need_bridge(struct vs_model *m, const char *br, char *err,
		       size_t len)
{
	if (m->bridge[0] == '\0' || strcmp(m->bridge, br) != 0)
		return vs_fail(err, len, "no bridge named %s", br);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The live ports' OVS names, sorted, one per line. */
static void list_names(struct vs_model *m, struct vs_out *out)
{
	const char *names[VS_MAX_PORTS];
	int n = 0;

	for (int i = 0; i < m->n; i++)
		if (!m->ports[i].deleted)
			names[n++] = m->ports[i].ovs;
	qsort(names, (size_t)n, sizeof(*names), cmp_str);
	for (int i = 0; i < n; i++)
		vs_out_append(out, "%s\n", names[i]);
}

/* ---- bridge commands ---- */

static int cmd_add_br(struct vs_model *m, const struct vs_cmd *c, char *err,
		      size_t len)
{
	const char *br = c->argv[1];

	if (c->argc != 2)
		return vs_fail(err, len,
			       "unsupported: add-br %s with a parent and VLAN "
			       "(vsw has no fake bridges)",
			       br);
	if (br[0] == '\0')
		return vs_fail(err, len,
			       "bridge name must not be empty string");
	if (strcmp(m->bridge, br) == 0) {
		if (c->may_exist)
			return 0;
		return vs_fail(
			err, len,
			"cannot create a bridge named %s because a bridge "
			"named %s already exists",
			br, br);
	}
	if (m->bridge[0] != '\0')
		return vs_fail(err, len,
			       "vsw has one bridge, %s exists; cannot add %s",
			       m->bridge, br);
	if (strlen(br) >= sizeof(m->bridge) - 1 ||
	    strspn(br, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		       "0123456789_-.") != strlen(br))
		return vs_fail(
			err, len,
			"unsupported: bridge name \"%s\" (vsw takes 1..62 "
			"characters of [A-Za-z0-9_.-])",
			br);
	snprintf(m->bridge, sizeof(m->bridge), "%s", br);
	return 0;
}

static int cmd_del_br(struct vs_model *m, const struct vs_cmd *c, char *err,
		      size_t len)
{
	if (need_bridge(m, c->argv[1], err, len) < 0)
		return c->if_exists ? 0 : -1;
	for (int i = 0; i < m->n; i++) /* as OVS: with all its ports */
		m->ports[i].deleted = true;
	m->bridge[0] = '\0';
	return 0;
}

/* ---- port commands ---- */

static int cmd_add_port(struct vs_model *m, const struct vs_cmd *c, char *err,
			size_t len)
{
	const char *br = c->argv[1], *name = c->argv[2];
	char vsw[VSW_PORT_NAME_MAX];
	struct vs_port *p = vs_port_find(m, name);

	if (name[0] == '\0')
		return vs_fail(err, len, "port name must not be empty string");
	if (p != NULL && c->may_exist)
		return 0;
	if (p != NULL || strcmp(name, m->bridge) == 0)
		return vs_fail(
			err, len,
			"cannot create a port named %s because a %s named "
			"%s already exists%s%s",
			name, p ? "port" : "bridge", name,
			p ? " on bridge " : "", p ? m->bridge : "");
	if (need_bridge(m, br, err, len) < 0)
		return -1;
	if (vsw_ovs_port_name(name, vsw, sizeof(vsw), err, len) < 0)
		return -1;
	for (int i = 0; i < m->n; i++)
		if (!m->ports[i].deleted && strcmp(m->ports[i].vsw, vsw) == 0)
			return vs_fail(
				err, len,
				"cannot create a port named %s because its "
				"vsw name %s is port %s's",
				name, vsw, m->ports[i].ovs);
	if (m->n == VS_MAX_PORTS)
		return vs_fail(err, len, "too many ports in one transaction");
	p = &m->ports[m->n++];
	memset(p, 0, sizeof(*p));
	snprintf(p->ovs, sizeof(p->ovs), "%s", name);
	snprintf(p->vsw, sizeof(p->vsw), "%s", vsw);
	p->added = true;
	p->id = p->mtu = p->vlan.tag = -1;
	return vs_col_set(m, VS_T_PORT, p, c->argv + 3, c->argc - 3, err, len);
}

static int cmd_del_port(struct vs_model *m, const struct vs_cmd *c, char *err,
			size_t len)
{
	const char *target = c->argv[c->argc - 1];
	struct vs_port *p;

	if (m->bridge[0] && strcmp(target, m->bridge) == 0) {
		if (c->if_exists)
			return 0;
		return vs_fail(
			err, len,
			"cannot delete port %s because it is the local "
			"port for bridge %s (deleting this port requires "
			"deleting the entire bridge)",
			target, target);
	}
	p = vs_port_find(m, target);
	if (p == NULL) {
		if (c->if_exists)
			return 0;
		return vs_fail(err, len, "no %s named %s",
			       c->with_iface ? "port or interface" : "port",
			       target);
	}
	if (c->argc == 3 && need_bridge(m, c->argv[1], err, len) < 0)
		return -1;
	p->deleted = true;
	return 0;
}

static int cmd_list_ports(struct vs_model *m, const struct vs_cmd *c,
			  struct vs_out *out, char *err, size_t len)
{
	if (need_bridge(m, c->argv[1], err, len) < 0)
		return -1;
	list_names(m, out);
	return 0;
}

static int cmd_to_br(struct vs_model *m, const struct vs_cmd *c,
		     struct vs_out *out, char *err, size_t len)
{
	if (vs_port_find(m, c->argv[1]) == NULL)
		return vs_fail(err, len, "no %s named %s",
			       c->argv[0][0] == 'p' ? "port" : "interface",
			       c->argv[1]);
	vs_out_append(out, "%s\n", m->bridge);
	return 0;
}

int vs_run(struct vs_model *m, const struct vs_cmd *c, struct vs_out *out,
	   char *err, size_t len)
{
	const char *n = c->syn->name;

	if (strcmp(n, "add-br") == 0)
		return cmd_add_br(m, c, err, len);
	if (strcmp(n, "del-br") == 0)
		return cmd_del_br(m, c, err, len);
	if (strcmp(n, "list-br") == 0) {
		if (m->bridge[0])
			vs_out_append(out, "%s\n", m->bridge);
		return 0;
	}
	if (strcmp(n, "br-exists") == 0)
		return strcmp(m->bridge, c->argv[1]) == 0 && m->bridge[0] ? 0
									  : -2;
	if (strcmp(n, "add-port") == 0)
		return cmd_add_port(m, c, err, len);
	if (strcmp(n, "del-port") == 0)
		return cmd_del_port(m, c, err, len);
	if (strcmp(n, "list-ports") == 0 || strcmp(n, "list-ifaces") == 0)
		return cmd_list_ports(m, c, out, err, len);
	if (strcmp(n, "port-to-br") == 0 || strcmp(n, "iface-to-br") == 0)
		return cmd_to_br(m, c, out, err, len);
	if (strcmp(n, "set") == 0)
		return vs_cmd_set(m, c, err, len);
	if (strcmp(n, "get") == 0)
		return vs_cmd_get(m, c, out, err, len);
	if (strcmp(n, "list") == 0 || strcmp(n, "find") == 0)
		return vs_cmd_list(m, c, out, err, len);
	return 0; /* comment */
}

int vs_check(struct vs_model *m, char *err, size_t len)
{
	for (int i = 0; i < m->n; i++) {
		struct vs_port *p = &m->ports[i];

		if (!p->added || p->deleted)
			continue;
		if (strcmp(p->type, "dpdkvhostuser") != 0 &&
		    strcmp(p->type, "dpdkvhostuserclient") != 0)
			return vs_fail(
				err, len,
				"unsupported: add-port %s %s%s (vsw adds "
				"vhost-user ports: set Interface %s "
				"type=dpdkvhostuser or "
				"dpdkvhostuserclient in the same "
				"transaction)",
				p->ovs,
				p->type[0] ? "with type=" : "without a type",
				p->type, p->ovs);
		if (strcmp(p->type, "dpdkvhostuserclient") == 0 && !p->path_set)
			return vs_fail(err, len,
				       "dpdkvhostuserclient port %s needs "
				       "options:vhost-server-path",
				       p->ovs);
		if (strcmp(p->type, "dpdkvhostuser") == 0)
			p->path_set = false; /* as OVS: its own socket */
		if (!p->path_set &&
		    snprintf(p->path, sizeof(p->path), "%s/%s", m->run_dir,
			     p->ovs) >= (int)sizeof(p->path))
			return vs_fail(err, len, "socket path %s/%s too long",
				       m->run_dir, p->ovs);
	}
	return 0;
}
