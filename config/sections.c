/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sections: [switch] (its keys, the socket keys together, the watch
 * profile), [port NAME] (type first, the keys its kind takes, the VLAN
 * keys together, a client port's socket), [fdb] (MAC[@VLAN] = PORT).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cfgfile.h>

#include "config_priv.h"

/* ---- [switch] ---- */

/*
 * @p[0..len) is an absolute path without "." or ".." components or "//"
 * (a trailing '/' is allowed).
 */
static bool clean_abs_path(const char *p, size_t len)
{
	if (len == 0 || p[0] != '/')
		return false;
	for (size_t i = 0; i < len;) {
		size_t n = 1;

		while (i + n < len && p[i + n] != '/')
			n++;
		/* component p[i+1 .. i+n) */
		if ((n == 1 && i + 1 < len) || (n == 2 && p[i + 1] == '.') ||
		    (n == 3 && p[i + 1] == '.' && p[i + 2] == '.'))
			return false;
		i += n;
	}
	return true;
}

/* Does the port-add list @kv set @key? */
static bool kv_sets(const char *kv, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = kv; *p != '\0'; p += strcspn(p, ",")) {
		p += strspn(p, ", ");
		if (strncmp(p, key, klen) == 0 &&
		    p[klen + strspn(p + klen, " ")] == '=')
			return true;
	}
	return false;
}

/*
 * The socket-watch-profile: port-add keys of a vhost-user client port;
 * vsw chooses type, path and mode itself.
 */
static int check_watch_profile(const struct pctx *c, const struct vsw_key *k,
			       const char *value)
{
	static const char *const own[] = {"type", "path", "mode"};
	char kv[VSW_PATH_MAX + 64], inner[VSW_ERR_MAX];
	struct vsw_port_conf pc;

	for (size_t i = 0; i < ARRAY_SIZE(own); i++)
		if (kv_sets(value, own[i]))
			return cfg_bad_value(
				c, k->name, value,
				"port-add keys without %s (vsw sets "
				"type, path and mode)",
				own[i]);
	snprintf(kv, sizeof(kv), "type=vhost-user,mode=client,%s", value);
	if (vsw_config_port_from_kv("watched", kv, NULL, &pc, inner,
				    sizeof(inner)) < 0)
		return cfg_bad_value(
			c, k->name, value,
			"port-add keys of a vhost-user client port "
			"(%s)",
			inner);
	return 0;
}

/*
 * socket-dirs, socket-watch-dir, socket-watch-profile and
 * metrics-listen, once parsed.
 */
static int check_switch_keys(const struct pctx *c, const struct vsw_key *k,
			     const char *value)
{
	struct vsw_listen l;
	const char *p = value;

	if (k->off == offsetof(struct vsw_switch_conf, metrics_listen))
		return value[0] == '\0' ||
				       vsw_config_listen_parse(value, &l) == 0
			       ? 0
			       : cfg_bad_value(c, k->name, value, "%s",
					       k->what);
	if (k->off == offsetof(struct vsw_switch_conf, socket_watch_profile))
		return check_watch_profile(c, k, value);
	if (k->off != offsetof(struct vsw_switch_conf, socket_dirs) &&
	    k->off != offsetof(struct vsw_switch_conf, socket_watch_dir))
		return 0;
	for (p += strspn(p, " "); *p != '\0'; p += strspn(p, " ")) {
		size_t len = strcspn(p, " ");

		if (!clean_abs_path(p, len))
			return cfg_bad_value(c, k->name, value, "%s", k->what);
		p += len;
	}
	return 0;
}

int cfg_parse_switch_entry(const struct pctx *c, const char *key,
			   const char *value, struct vsw_switch_conf *sw)
{
	const struct vsw_key *k =
		vsw_key_find(VSW_SECT_SWITCH, key, strlen(key));
	char list[LIST_MAX];

	if (cfg_check_printable(c, key, value) < 0)
		return -EINVAL;
	if (k == NULL)
		return cfg_bad_value(c, key, value, "a [switch] key (%s)",
				     vsw_keys_list(list, sizeof(list),
						   VSW_SECT_SWITCH, 0, -1));
	if (cfg_parse_key(c, k, value, sw) < 0)
		return -EINVAL;
	return check_switch_keys(c, k, value);
}

int cfg_parse_switch(const struct pctx *c, const struct rte_cfgfile_entry *e,
		     int n, struct vsw_switch_conf *sw)
{
	int i, ret;

	ret = cfg_check_dup_keys(c, VSW_SECT_SWITCH, e, n);
	for (i = 0; ret == 0 && i < n; i++)
		ret = cfg_parse_switch_entry(c, e[i].name, e[i].value, sw);
	return ret;
}

/* ---- [port NAME] ---- */

const struct vsw_key *cfg_port_key(const char *key)
{
	return vsw_key_find(VSW_SECT_PORT, key, strlen(key));
}

int cfg_check_sock_path(const struct pctx *c, const char *path)
{
	return cfg_check_path(c, cfg_port_key("path"), path);
}

/* "[port NAME]: invalid port name; expected FORM 1..31 characters..." */
int cfg_bad_name(const struct pctx *c, const char *form)
{
	char what[160];

	snprintf(what, sizeof(what), "%s 1..%d " NAME_RULE, form,
		 VSW_PORT_NAME_MAX - 1);
	return cfg_bad_section(c, "invalid port name", what);
}

/* The type decides which keys are valid, so it is parsed first. */
static int parse_port_type(const struct pctx *c,
			   const struct rte_cfgfile_entry *e, int n,
			   struct vsw_port_conf *pc)
{
	const struct vsw_key *k = cfg_port_key("type");
	char what[LIST_MAX];
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(e[i].name, k->name) == 0)
			return cfg_parse_key(c, k, e[i].value, pc);
	return cfg_missing_key(c, k->name,
			       vsw_key_choices_str(k, what, sizeof(what)));
}

static int parse_port_entry(const struct pctx *c,
			    const struct rte_cfgfile_entry *e,
			    struct vsw_port_conf *pc)
{
	const struct vsw_key *k = cfg_port_key(e->name);
	const char *type = vsw_port_type_str(pc->type);
	char list[LIST_MAX];

	if (cfg_check_printable(c, e->name, e->value) < 0)
		return -EINVAL;
	if (k == NULL)
		return cfg_bad_value(c, e->name, e->value, "a port key (%s)",
				     vsw_keys_list(list, sizeof(list),
						   VSW_SECT_PORT, VSW_KEY_ANY,
						   -1));
	if (!(k->ports & (1u << pc->type)))
		return cfg_bad_value(
			c, e->name, e->value, "%s %s port key (%s)",
			strchr("aeiou", type[0]) ? "an" : "a", type,
			vsw_keys_list(list, sizeof(list), VSW_SECT_PORT,
				      1u << pc->type, -1));
	return cfg_parse_key(c, k, e->value, pc);
}

/* A port's keys with a default, before any key of its section. */
void cfg_port_defaults(struct vsw_port_conf *pc, const char *name)
{
	memset(pc, 0, sizeof(*pc));
	snprintf(pc->name, sizeof(pc->name), "%s", name);
	cfg_set_defaults(VSW_SECT_PORT, pc);
}

/* A required key of the port's type that @e does not give, or NULL. */
static const struct vsw_key *missing_port_key(const struct rte_cfgfile_entry *e,
					      int n,
					      const struct vsw_port_conf *pc)
{
	for (size_t i = 0; i < vsw_n_keys; i++) {
		const struct vsw_key *k = &vsw_keys[i];
		int j = 0;

		if (k->sect != VSW_SECT_PORT || !k->required ||
		    !(k->ports & (1u << pc->type)))
			continue;
		while (j < n && strcmp(cfg_canon_key(VSW_SECT_PORT, e[j].name),
				       vsw_key_canon(k)) != 0)
			j++;
		if (j == n)
			return k;
	}
	return NULL;
}

/* The keys together: what a mode needs (a tag) and refuses. */
int cfg_check_vlan(const struct pctx *c, const struct vsw_port_conf *pc)
{
	enum vsw_vlan_mode m = vsw_config_vlan_mode(pc);
	const char *mode = vsw_vlan_mode_str(m);
	char v[16], t[64];

	snprintf(v, sizeof(v), "%u", pc->tag);
	if (m == VSW_VLAN_TRUNK && pc->tag != 0)
		return cfg_bad_value(c, "tag", v,
				     "0 on a trunk port (vlan-mode = access, "
				     "native-untagged or native-tagged take a "
				     "tag)");
	if (m != VSW_VLAN_TRUNK && pc->tag == 0)
		return cfg_bad_value(c, "vlan-mode", mode,
				     "a tag = 1..%d with it (or vlan-mode = "
				     "trunk)",
				     VSW_VLAN_DEAD);
	if (m == VSW_VLAN_ACCESS && pc->trunks_set)
		return cfg_bad_value(
			c, "trunks",
			(vsw_config_trunks_str(pc, t, sizeof(t)), t),
			"all on an access port (trunks apply to "
			"vlan-mode = trunk and native-*)");
	return 0;
}

/* A client port's socket is QEMU's: vsw never changes its permissions. */
static int check_client_socket(const struct pctx *c,
			       const struct rte_cfgfile_entry *e, int n,
			       const struct vsw_port_conf *pc)
{
	if (pc->type != VSW_PORT_VHOST || pc->mode != VSW_VHOST_CLIENT)
		return 0;
	for (int i = 0; i < n; i++) /* "" and 0 say "the switch's": fine */
		if (strncmp(e[i].name, "socket-", 7) == 0 &&
		    e[i].value[0] != '\0' && strcmp(e[i].value, "0") != 0)
			return cfg_bad_value(
				c, e[i].name, e[i].value,
				"no %s on a mode = client port (its "
				"socket is QEMU's)",
				e[i].name);
	return 0;
}

/*
 * A vxlan port: its own keys parse (vsw_config_vxlan), its mtu is the
 * overlay's (1450 unless given), and with vnis it is a trunk of those
 * VLANs (trunks, unless given: then each of them must have a VNI).
 */
static int check_vxlan(const struct pctx *c, const struct rte_cfgfile_entry *e,
		       int n, struct vsw_port_conf *pc)
{
	struct vsw_vxlan_conf x;
	const char *key = NULL;
	char what[160];
	bool mtu_given = false;

	if (pc->type != VSW_PORT_VXLAN)
		return 0;
	if (vsw_config_vxlan(pc, &x, &key, what, sizeof(what)) < 0) {
		const struct vsw_key *k = cfg_port_key(key);
		char v[VSW_VXLAN_LIST_MAX + 16];

		if (k != NULL && k->kind == VSW_KIND_UINT)
			snprintf(v, sizeof(v), "%u",
				 *(const unsigned int *)((const char *)pc +
							 k->off));
		else if (k != NULL)
			snprintf(v, sizeof(v), "%s", (const char *)pc + k->off);
		else
			v[0] = '\0';
		return cfg_bad_value(c, key, v, "%s", what);
	}
	for (int i = 0; i < n; i++)
		mtu_given |= strcmp(e[i].name, "mtu") == 0;
	if (!mtu_given)
		pc->mtu = VSW_VXLAN_MTU_DEFAULT;
	if (pc->vnis[0] == '\0')
		return 0;
	if (vsw_config_vlan_mode(pc) == VSW_VLAN_ACCESS)
		return cfg_bad_value(c, "vnis", pc->vnis,
				     "vni on an access port (vnis make it a "
				     "trunk)");
	if (!pc->trunks_set) {
		pc->trunks_set = true;
		for (unsigned int i = 0; i < x.n_vnis; i++)
			pc->trunks[x.map[i].vlan / 64] |=
				1ull << (x.map[i].vlan % 64);
		return 0;
	}
	for (unsigned int v = 0; v < VSW_VLAN_WORDS * 64; v++) {
		bool mapped = false;

		if (!(pc->trunks[v / 64] >> (v % 64) & 1))
			continue;
		for (unsigned int i = 0; i < x.n_vnis; i++)
			mapped |= x.map[i].vlan == v;
		if (!mapped) {
			char t[24];

			snprintf(t, sizeof(t), "%u", v);
			return cfg_bad_value(
				c, "trunks", t,
				"only VLANs that vnis gives a VNI");
		}
	}
	return 0;
}

/* Parse one port's entries; a vhost path left empty gets its default later. */
int cfg_parse_port(const struct pctx *c, const char *name,
		   const struct rte_cfgfile_entry *e, int n,
		   struct vsw_port_conf *pc)
{
	const struct vsw_key *miss;
	int i, ret;

	cfg_port_defaults(pc, name);
	ret = cfg_check_dup_keys(c, VSW_SECT_PORT, e, n);
	if (ret == 0)
		ret = parse_port_type(c, e, n, pc);
	pc->queues = pc->type == VSW_PORT_VHOST ? VSW_MAX_QUEUES : 1;
	for (i = 0; ret == 0 && i < n; i++)
		ret = parse_port_entry(c, &e[i], pc);
	if (ret == 0 && (miss = missing_port_key(e, n, pc)) != NULL)
		ret = cfg_missing_key(c, miss->name, miss->what);
	if (ret == 0)
		ret = cfg_check_vlan(c, pc);
	if (ret == 0)
		ret = check_client_socket(c, e, n, pc);
	if (ret == 0)
		ret = check_vxlan(c, e, n, pc);
	return ret;
}
/* ---- [fdb]: static MAC entries, MAC[@VLAN] = PORT ---- */

#define FDB_VLAN_MAX 4095 /* as fdb-add: the FDB key holds 12 bits */

static int parse_fdb_entry(const struct pctx *c, const char *key,
			   const char *value, struct vsw_fdb_conf *fc)
{
	size_t mlen = strcspn(key, "@");
	unsigned int vlan = 0;

	memset(fc, 0, sizeof(*fc));
	if (cfg_check_printable(c, key, value) < 0)
		return -EINVAL;
	if (!cfg_parse_mac(key, mlen, fc->mac) ||
	    (key[mlen] == '@' &&
	     cfg_parse_uint(key + mlen + 1, 0, FDB_VLAN_MAX, &vlan) < 0))
		return cfg_bad_value(c, key, value,
				     "a key MAC or MAC@VLAN (a unicast MAC "
				     "aa:bb:cc:dd:ee:ff, VLAN 0..%d)",
				     FDB_VLAN_MAX);
	if (!vsw_config_port_name_ok(value))
		return cfg_bad_value(c, key, value,
				     "a port name of 1..%d " NAME_RULE,
				     VSW_PORT_NAME_MAX - 1);
	fc->vlan = (uint16_t)vlan;
	snprintf(fc->port, sizeof(fc->port), "%s", value);
	return 0;
}

int cfg_parse_fdb(const struct pctx *c, const struct rte_cfgfile_entry *e,
		  int n, struct vsw_config *cfg)
{
	for (int i = 0; i < n; i++) {
		struct vsw_fdb_conf *fc = &cfg->fdb[cfg->n_fdb];
		int ret;

		if (cfg->n_fdb == VSW_MAX_STATIC_FDB)
			return cfg_bad_value(c, e[i].name, e[i].value,
					     "at most %d static entries",
					     VSW_MAX_STATIC_FDB);
		ret = parse_fdb_entry(c, e[i].name, e[i].value, fc);
		if (ret < 0)
			return ret;
		for (unsigned int j = 0; j < cfg->n_fdb; j++)
			if (memcmp(cfg->fdb[j].mac, fc->mac, 6) == 0 &&
			    cfg->fdb[j].vlan == fc->vlan)
				return cfg_bad_value(c, e[i].name, e[i].value,
						     "each MAC and VLAN once");
		cfg->n_fdb++;
	}
	return 0;
}
