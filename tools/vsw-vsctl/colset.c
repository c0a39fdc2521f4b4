/*
 * "set TABLE RECORD COLUMN[:KEY]=VALUE..." on the model: what each
 * settable column becomes in vsw (docs/vsw-vsctl.md), checked here so
 * that a transaction vsw would refuse fails before anything is applied.
 * Values are written as ovs-vsctl takes them: "[]" for an empty set or
 * optional value, a string possibly in double quotes.
 */
#include "cols.h"
#include "config/vsw_keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Characters vsw keeps in an external-ids key or value (its key table). */
#define ID_CHARS                                                               \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"       \
	"_-.:/@+"

void vs_unquote(const char *s, char *out, size_t len)
{
	size_t o = 0, n = strlen(s);

	if (n < 2 || s[0] != '"' || s[n - 1] != '"') {
		/* as it is, cut to @len (a bounded copy: gcc -O3 warns of the
		 * truncation snprintf would report, which is the point) */
		n = n < len ? n : len - 1;
		memcpy(out, s, n);
		out[n] = '\0';
		return;
	}
	for (size_t i = 1; i + 1 < n && o + 1 < len; i++) {
		if (s[i] == '\\' && i + 2 < n)
			i++;
		out[o++] = s[i];
	}
	out[o] = '\0';
}

/* A decimal in lo..hi, or "[]" (-1) when @empty_ok. */
static int int_val(const char *v, long lo, long hi, long *out)
{
	char *end;

	if (strcmp(v, "[]") == 0) {
		*out = -1;
		return 0;
	}
	*out = strtol(v, &end, 10);
	return (v[0] >= '0' && v[0] <= '9' && *end == '\0' && *out >= lo &&
		*out <= hi)
		       ? 0
		       : -1;
}

static int set_bridge(const char *col, const char *key, const char *v,
		      char *err, size_t len)
{
	if (strcmp(col, "datapath_type") == 0 && key == NULL &&
	    (strcmp(v, "netdev") == 0 || strcmp(v, "") == 0))
		return 0;
	return vs_fail(err, len,
		       "unsupported: set Bridge %s%s%s=%s (vsw is a userspace "
		       "switch: datapath_type=netdev only)",
		       col, key ? ":" : "", key ? key : "", v);
}

static int set_trunks(struct vs_port *p, const char *v, char *err, size_t len)
{
	char buf[sizeof(p->vlan.trunks)];
	size_t n = strlen(v);
	bool br = v[0] == '[' && n >= 2 && v[n - 1] == ']';

	if (n - 2 * br >= sizeof(buf))
		return vs_fail(err, len, "trunks=%s: too many VLANs", v);
	memcpy(buf, v + br, n - 2 * br);
	buf[n - 2 * br] = '\0';
	for (const char *s = buf; *s != '\0';) {
		long x;
		char one[8];
		size_t w = strcspn(s, ", ");

		snprintf(one, sizeof(one), "%.*s", (int)w, s);
		if (w == 0 || w >= sizeof(one) || int_val(one, 0, 4095, &x))
			return vs_fail(err, len,
				       "trunks=%s: expected VLAN ids 0..4095 "
				       "separated by commas",
				       v);
		s += w;
		s += strspn(s, ", ");
	}
	snprintf(p->vlan.trunks, sizeof(p->vlan.trunks), "%s", buf);
	return 0;
}

static int set_vlan_mode(struct vs_port *p, const char *v, char *err,
			 size_t len)
{
	static const char *const modes[] = {"access", "trunk", "native-tagged",
					    "native-untagged"};

	if (strcmp(v, "[]") == 0) {
		p->vlan.mode[0] = '\0';
		return 0;
	}
	for (int i = 0; i < 4; i++)
		if (strcmp(v, modes[i]) == 0) {
			snprintf(p->vlan.mode, sizeof(p->vlan.mode), "%s", v);
			return 0;
		}
	return vs_fail(err, len,
		       "unsupported: vlan_mode=%s (vsw takes access, trunk, "
		       "native-tagged, native-untagged)",
		       v);
}

static int set_port(struct vs_port *p, const char *col, const char *key,
		    const char *v, char *err, size_t len)
{
	if (key != NULL)
		return vs_fail(err, len,
			       "unsupported: set Port %s:%s (vsw keeps "
			       "external_ids on the Interface)",
			       col, key);
	if (strcmp(col, "tag") == 0) {
		if (int_val(v, 0, 4095, &p->vlan.tag) < 0)
			return vs_fail(err, len,
				       "constraint violation: %s is not in the "
				       "valid range 0 to 4095 (inclusive)",
				       v);
		if (p->vlan.tag == 0)
			p->vlan.tag = -1; /* vsw: tag 0 = none */
		return 0;
	}
	if (strcmp(col, "trunks") == 0)
		return set_trunks(p, v, err, len);
	if (strcmp(col, "vlan_mode") == 0)
		return set_vlan_mode(p, v, err, len);
	return vs_fail(err, len,
		       "unsupported: set Port %s=%s (vsw-vsctl sets tag, "
		       "vlan_mode, trunks)",
		       col, v);
}

/* external_ids:KEY=VALUE (or external_ids={} to clear them). */
static int set_id(struct vs_port *p, const char *key, const char *v, char *err,
		  size_t len)
{
	int i;

	if (key == NULL && strcmp(v, "{}") == 0) {
		p->n_ids = 0;
		return 0;
	}
	if (key == NULL || key[0] == '\0' || v[0] == '\0' ||
	    strspn(key, ID_CHARS) != strlen(key) ||
	    strspn(v, ID_CHARS "=") != strlen(v) ||
	    strcmp(key, VS_OVS_NAME_KEY) == 0)
		return vs_fail(err, len,
			       "unsupported: external_ids%s%s=%s (vsw keeps "
			       "KEY=VALUE pairs of [A-Za-z0-9_.:/@+-], not "
			       "the key %s)",
			       key ? ":" : "", key ? key : "", v,
			       VS_OVS_NAME_KEY);
	for (i = 0; i < p->n_ids && strcmp(p->ids[i].k, key) != 0; i++)
		;
	if (i == VS_MAX_IDS)
		return vs_fail(err, len, "external_ids: more than %d keys",
			       VS_MAX_IDS);
	snprintf(p->ids[i].k, sizeof(p->ids[i].k), "%s", key);
	snprintf(p->ids[i].v, sizeof(p->ids[i].v), "%s", v);
	p->n_ids += i == p->n_ids;
	return 0;
}

/* A fixed vsw key (type, socket) of a port vsw already has. */
static int fixed(const struct vs_port *p, const char *what, const char *have,
		 const char *want, char *err, size_t len)
{
	if (p->added || strcmp(have, want) == 0)
		return 0;
	return vs_fail(err, len,
		       "unsupported: changing %s of port %s from %s to %s (vsw "
		       "fixes it when the port is added: del-port, then "
		       "add-port)",
		       what, p->ovs, have, want);
}

static int set_server_path(struct vs_port *p, const char *v, char *err,
			   size_t len)
{
	/* the path goes into a "k=v,..." list: no ',' or white space */
	if (v[0] != '/' || strlen(v) >= VSW_SUN_PATH_MAX ||
	    strcspn(v, ", \t\n\r") != strlen(v))
		return vs_fail(err, len,
			       "options:vhost-server-path=%s: expected an "
			       "absolute path shorter than %d characters, "
			       "without ',' or spaces",
			       v, VSW_SUN_PATH_MAX);
	if (fixed(p, "options:vhost-server-path", p->path, v, err, len) < 0)
		return -1;
	snprintf(p->path, sizeof(p->path), "%s", v);
	p->path_set = true;
	return 0;
}

static int set_mtu(struct vs_port *p, const char *v, char *err, size_t len)
{
	if (int_val(v, VSW_MTU_MIN, VSW_MTU_MAX, &p->mtu) < 0)
		return vs_fail(err, len,
			       "unsupported: mtu_request=%s (vsw takes %d..%d)",
			       v, VSW_MTU_MIN, VSW_MTU_MAX);
	if (p->mtu < 0) /* [] : vsw keeps its MTU */
		p->mtu = p->added ? -1 : p->vsw_mtu;
	return 0;
}

static int set_iface(struct vs_port *p, const char *col, const char *key,
		     const char *v, char *err, size_t len)
{
	if (strcmp(col, "type") == 0) {
		if (fixed(p, "type", p->type, v, err, len) < 0)
			return -1;
		snprintf(p->type, sizeof(p->type), "%s", v);
		return 0;
	}
	if (strcmp(col, "options") == 0 && key &&
	    strcmp(key, "vhost-server-path") == 0)
		return set_server_path(p, v, err, len);
	if (strcmp(col, "external_ids") == 0)
		return set_id(p, key, v, err, len);
	if (strcmp(col, "mtu_request") == 0 && key == NULL)
		return set_mtu(p, v, err, len);
	if (strcmp(col, "name") == 0 || strcmp(col, "options") == 0)
		return vs_fail(
			err, len,
			"unsupported: set Interface %s%s%s=%s (vsw-vsctl "
			"sets type, options:vhost-server-path, "
			"external_ids, mtu_request)",
			col, key ? ":" : "", key ? key : "", v);
	return vs_fail(err, len,
		       "cannot modify read-only column %s in table Interface",
		       col);
}

int vs_col_set(struct vs_model *m, enum vs_tbl t, struct vs_port *p,
	       char **argv, int argc, char *err, size_t len)
{
	(void)m;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		size_t n = strcspn(a, ":=");
		char key[VSW_EXTERNAL_IDS_MAX + 1], val[VSW_PATH_MAX];
		const char *col;
		int c, rc;

		if (eq == NULL)
			return vs_fail(err, len,
				       "%s: argument does not end in \"=\" "
				       "followed by a value.",
				       a);
		c = vs_col_find(t, a, n, err, len);
		if (c < 0)
			return -1;
		col = vs_table_cols(t)[c];
		if (a[n] == ':')
			vs_unquote((snprintf(val, sizeof(val), "%.*s",
					     (int)(eq - a - n - 1), a + n + 1),
				    val),
				   key, sizeof(key));
		vs_unquote(eq + 1, val, sizeof(val));
		if (t == VS_T_BRIDGE)
			rc = set_bridge(col, a[n] == ':' ? key : NULL, val, err,
					len);
		else if (t == VS_T_PORT)
			rc = set_port(p, col, a[n] == ':' ? key : NULL, val,
				      err, len);
		else
			rc = set_iface(p, col, a[n] == ':' ? key : NULL, val,
				       err, len);
		if (rc < 0)
			return -1;
	}
	return 0;
}
