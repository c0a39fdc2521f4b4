/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run-time forms: port-add's and port-set's KEY=VALUE lists (devargs
 * last), the limits a run-time port-add meets (socket directories, driver
 * allow-list, memif's socket), `set` on a [switch] key, the mbuf pool's
 * size.
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

/* ---- runtime port-add ---- */

/*
 * Split "k=v,k=v" into entries.  devargs values contain commas, so the
 * devargs key must come last and takes the rest of the string.
 */
static int kv_item_err(const struct pctx *c, const char *s, size_t len,
		       const char *what)
{
	cfg_set_err(c, "%s: [%s] \"%.*s\": expected %s", c->file, c->section,
		    (int)len, s, what);
	return -EINVAL;
}

/* A key whose value is a comma-separated list (lcores, trunks). */
static bool list_key(const char *name)
{
	const struct vsw_key *k = cfg_port_key(name);

	return k != NULL &&
	       (k->kind == VSW_KIND_LCORES || k->kind == VSW_KIND_VLANS);
}

static int split_kv(const struct pctx *c, const char *s,
		    struct rte_cfgfile_entry *e, int max)
{
	char empty[1], what[LIST_MAX];
	const struct vsw_key *k;
	const char *eq;
	size_t len;
	int n = 0;

	for (; *s != '\0'; s += len + (s[len] == ',')) {
		len = strcspn(s, ",");
		if (cfg_copy_trimmed(empty, sizeof(empty), s, len))
			continue; /* empty item, e.g. a trailing comma */
		eq = memchr(s, '=', len);
		if (eq == NULL && n > 0 && list_key(e[n - 1].name)) {
			/* trunks=10,20-30: one more item of the list */
			size_t have = strlen(e[n - 1].value);

			if (have + 1 + len >= CFG_VALUE_LEN)
				return kv_item_err(c, s, len,
						   "a shorter value");
			e[n - 1].value[have] = ',';
			memcpy(e[n - 1].value + have + 1, s, len);
			e[n - 1].value[have + 1 + len] = '\0';
			continue;
		}
		if (eq == NULL)
			return kv_item_err(c, s, len, "KEY=VALUE");
		if (n == max) {
			snprintf(what, sizeof(what), "at most %d KEY=VALUE",
				 max);
			return kv_item_err(c, s, len, what);
		}
		if (!cfg_copy_trimmed(e[n].name, CFG_NAME_LEN, s, eq - s)) {
			char list[LIST_MAX];

			snprintf(what, sizeof(what), "a port key (%s)",
				 vsw_keys_list(list, sizeof(list),
					       VSW_SECT_PORT, VSW_KEY_ANY, -1));
			return kv_item_err(c, s, len, what);
		}
		k = cfg_port_key(e[n].name);
		if (k != NULL && k->rest) /* devargs: the rest of @s */
			len = strlen(s);
		if (!cfg_copy_trimmed(e[n].value, CFG_VALUE_LEN, eq + 1,
				      len - (eq + 1 - s)))
			return kv_item_err(c, s, len, "a shorter value");
		n++;
	}
	return n;
}

unsigned int vsw_config_mbufs_needed(const struct vsw_config *cfg,
				     unsigned int n_workers)
{
	unsigned long n = 1024;

	for (unsigned int i = 0; i < cfg->n_ports; i++) {
		const struct vsw_port_conf *pc = &cfg->ports[i];

		if (pc->type == VSW_PORT_VHOST)
			continue;
		n += (unsigned long)pc->queues * VSW_ETH_RX_DESC;
		n += (unsigned long)(pc->txq ? pc->txq : n_workers) *
		     VSW_ETH_TX_DESC;
	}
	n += (unsigned long)n_workers *
	     (VSW_MBUF_CACHE * 3 / 2 + cfg->sw.burst * (cfg->n_ports + 1));
	return n > UINT32_MAX ? UINT32_MAX : (unsigned int)n;
}

int vsw_config_check_mbufs(const struct vsw_config *cfg, unsigned int n_workers,
			   char *err, size_t errlen)
{
	struct pctx c = {cfg->source, "switch", err, errlen};
	unsigned int need = vsw_config_mbufs_needed(cfg, n_workers);
	char v[16];

	if (cfg->sw.mbufs >= need)
		return 0;
	snprintf(v, sizeof(v), "%u", cfg->sw.mbufs);
	return cfg_bad_value(
		&c, "mbufs", v,
		"at least %u for %u port(s) and %u worker(s) (ethdev "
		"descriptors, pool caches, tx buffers)",
		need, cfg->n_ports, n_workers);
}

bool vsw_config_devargs_is_pci(const char *devargs)
{
	unsigned int a, b, c, d;
	char end;

	return sscanf(devargs, "%x:%x:%x.%x%c", &a, &b, &c, &d, &end) >= 4 ||
	       sscanf(devargs, "%x:%x.%x%c", &a, &b, &c, &end) == 3 ||
	       (sscanf(devargs, "%x:%x.%x%c", &a, &b, &c, &end) == 4 &&
		end == ',');
}

/* @path names a file below @dir: no empty, "." or ".." component. */
static bool path_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	const char *p;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (strncmp(path, dir, n) != 0 || path[n] != '/')
		return false;
	for (p = path + n; *p == '/';) {
		size_t len = strcspn(p + 1, "/");

		if (len == 0 || (len == 1 && p[1] == '.') ||
		    (len == 2 && p[1] == '.' && p[2] == '.'))
			return false;
		p += 1 + len;
	}
	return *p == '\0';
}

bool vsw_config_sock_dir_ok(const struct vsw_switch_conf *sw, const char *path)
{
	char dir[VSW_PATH_MAX];

	if (path_below(path, sw->run_dir) ||
	    (sw->socket_watch_dir[0] != '\0' &&
	     path_below(path, sw->socket_watch_dir)))
		return true;
	for (const char *p = sw->socket_dirs + strspn(sw->socket_dirs, " ");
	     *p != '\0'; p += strspn(p, " ")) {
		size_t len = strcspn(p, " ");

		snprintf(dir, sizeof(dir), "%.*s", (int)len, p);
		if (path_below(path, dir))
			return true;
		p += len;
	}
	return false;
}

/* Is @name one of the space-separated words of @list? */
static bool in_list(const char *list, const char *name, size_t len)
{
	for (const char *p = list; *p != '\0';) {
		size_t w = strcspn(p, " ");

		if (w == len && strncmp(p, name, len) == 0)
			return true;
		p += w;
		p += strspn(p, " ");
	}
	return false;
}

/*
 * A memif devargs whose socket file would land outside @dir.  memif
 * takes the last of repeated keys and reads any socket-abstract other than
 * "yes" as no, so every occurrence is looked at: a file socket (any
 * socket-abstract value but "yes") needs every socket= below @dir, and
 * an explicit one (memif's default is /run/memif.sock).
 */
static bool memif_escapes(const char *devargs, const char *dir)
{
	bool file = false, named = false, outside = false;

	for (const char *p = strchr(devargs, ','); p != NULL;
	     p = strchr(p + 1, ',')) {
		char v[VSW_DEVARGS_MAX];
		size_t len = strcspn(p + 1, ",");

		snprintf(v, sizeof(v), "%.*s", (int)len, p + 1);
		if (strncmp(v, "socket-abstract=", 16) == 0)
			file |= strcmp(v + 16, "yes") != 0;
		else if (strncmp(v, "socket=", 7) == 0) {
			named = true;
			outside |= !path_below(v + 7, dir);
		}
	}
	return file && (!named || outside);
}

/*
 * What a telemetry client may create at run time (test 25_control_limits): vhost-user
 * sockets only below run-dir, ethdev drivers only from port-add-drivers,
 * and a memif socket file only below run-dir.
 */
static int check_runtime_port(const struct pctx *c,
			      const struct vsw_port_conf *pc,
			      const struct vsw_switch_conf *sw)
{
	const char *d = pc->devargs;

	if (pc->type == VSW_PORT_VHOST) {
		if (!vsw_config_sock_dir_ok(sw, pc->path))
			return cfg_bad_value(
				c, "path", pc->path,
				"a socket path below run-dir %s%s%s%s%s "
				"(no '.' or '..' components) for a "
				"port added at run time",
				sw->run_dir,
				sw->socket_dirs[0] ? ", socket-dirs " : "",
				sw->socket_dirs,
				sw->socket_watch_dir[0] ? ", socket-watch-dir "
							: "",
				sw->socket_watch_dir);
		return 0;
	}
	if (vsw_config_devargs_is_pci(d)
		    ? !in_list(sw->port_add_drivers, "pci", 3)
		    : !in_list(sw->port_add_drivers, d,
			       strcspn(d, "0123456789,")))
		return cfg_bad_value(c, "devargs", d,
				     "a driver listed in [switch] "
				     "port-add-drivers (\"%s\"); other drivers "
				     "only in the config file",
				     sw->port_add_drivers);
	if (strncmp(d, "net_memif", 9) == 0 && memif_escapes(d, sw->run_dir))
		return cfg_bad_value(c, "devargs", d,
				     "a memif socket= path below run-dir %s",
				     sw->run_dir);
	return 0;
}

int vsw_config_port_from_kv(const char *name, const char *kvlist,
			    const struct vsw_switch_conf *sw,
			    struct vsw_port_conf *pc, char *err, size_t errlen)
{
	struct rte_cfgfile_entry e[KV_MAX_ENTRIES];
	char sect[CFG_NAME_LEN];
	struct pctx c = {CMD_SOURCE, sect, err, errlen};
	int n, ret;

	memset(pc, 0, sizeof(*pc));
	snprintf(sect, sizeof(sect), "port %s", name);
	if (!vsw_config_port_name_ok(name))
		return cfg_bad_name(&c, "NAME");
	n = split_kv(&c, kvlist, e, KV_MAX_ENTRIES);
	if (n < 0)
		return n;
	ret = cfg_parse_port(&c, name, e, n, pc);
	if (ret == 0 && pc->type == VSW_PORT_VHOST && pc->path[0] == '\0') {
		cfg_default_sock_path(
			pc->path, sizeof(pc->path),
			sw != NULL ? sw->run_dir : VSW_DEFAULT_RUN_DIR, name);
		ret = cfg_check_sock_path(&c, pc->path);
	}
	if (ret == 0 && sw != NULL)
		ret = check_runtime_port(&c, pc, sw);
	return ret;
}

int vsw_config_port_set_kv(struct vsw_port_conf *pc, const char *kvlist,
			   char *err, size_t errlen)
{
	struct rte_cfgfile_entry e[KV_MAX_ENTRIES];
	struct vsw_port_conf tmp = *pc;
	char sect[CFG_NAME_LEN];
	struct pctx c = {CMD_SOURCE, sect, err, errlen};
	int n, ret;

	snprintf(sect, sizeof(sect), "port %s", pc->name);
	n = split_kv(&c, kvlist, e, KV_MAX_ENTRIES);
	if (n < 0)
		return n;
	if (n == 0)
		return cfg_bad_section(&c, "nothing to set", "KEY=VALUE,...");
	ret = cfg_check_dup_keys(&c, VSW_SECT_PORT, e, n);
	for (int i = 0; ret == 0 && i < n; i++) {
		const struct vsw_key *k = cfg_port_key(e[i].name);
		char list[LIST_MAX];

		if (k == NULL || !k->runtime ||
		    !(k->ports & (1u << tmp.type))) {
			cfg_set_err(
				&c,
				"%s: [%s] %s: fixed when the port is added; "
				"expected a key changeable at run time (%s)",
				CMD_SOURCE, sect, e[i].name,
				vsw_keys_list(list, sizeof(list), VSW_SECT_PORT,
					      1u << tmp.type, 1));
			return -EPERM;
		}
		ret = cfg_parse_key(&c, k, e[i].value, &tmp);
	}
	if (ret == 0)
		ret = cfg_check_vlan(&c, &tmp);
	if (ret == 0)
		*pc = tmp;
	return ret;
}

bool vsw_config_switch_key_fixed(const char *key)
{
	const struct vsw_key *k =
		vsw_key_find(VSW_SECT_SWITCH, key, strlen(key));

	return k != NULL && !k->runtime;
}

int vsw_config_set_switch_key(struct vsw_switch_conf *sw, const char *key,
			      const char *value, char *err, size_t errlen)
{
	struct pctx c = {CMD_SOURCE, "switch", err, errlen};
	struct vsw_switch_conf tmp = *sw;
	char list[LIST_MAX];
	int ret;

	if (vsw_config_switch_key_fixed(key)) {
		cfg_set_err(&c,
			    "%s: [switch] %s: fixed at start-up; expected a "
			    "key other than %s",
			    CMD_SOURCE, key,
			    vsw_keys_list(list, sizeof(list), VSW_SECT_SWITCH,
					  0, 0));
		return -EPERM;
	}
	ret = cfg_parse_switch_entry(&c, key, value, &tmp);
	if (ret == 0)
		*sw = tmp;
	return ret;
}
