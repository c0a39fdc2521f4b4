/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FDB from control's side: static entries (added, deleted, saved in
 * the state file; the config's [fdb] entries at start) and flushing the
 * learned ones.  ctl_lock held.
 */
#include <errno.h>
#include <stdio.h>

#include "control.h"

/* The key list of the static entries (struct vsw_ctl static_keys). */
static void keys_add(struct vsw_ctl *ctl, uint64_t key)
{
	for (unsigned int i = 0; i < ctl->n_static; i++)
		if (ctl->static_keys[i] == key)
			return;
	if (ctl->n_static < VSW_MAX_STATIC_FDB)
		ctl->static_keys[ctl->n_static++] = key;
}

static void keys_del(struct vsw_ctl *ctl, uint64_t key)
{
	for (unsigned int i = 0; i < ctl->n_static; i++)
		if (ctl->static_keys[i] == key) {
			ctl->static_keys[i] = ctl->static_keys[--ctl->n_static];
			return;
		}
}

void vsw_ctl_fdb_port_gone(struct vsw_ctl *ctl, uint16_t port)
{
	for (unsigned int i = 0; i < ctl->n_static;) {
		uint64_t val = 0;

		if (vsw_fdb_lookup(ctl->rt->fdb, ctl->static_keys[i], &val) &&
		    vsw_fdb_val_port(val) == port)
			keys_del(ctl, ctl->static_keys[i]);
		else
			i++;
	}
}

/* What a failed commit puts back. */
struct fdb_undo {
	uint64_t key;
	uint64_t old; /* the entry before (0: none) */
};

static int fdb_put_back(struct vsw_ctl *ctl, void *arg)
{
	const struct fdb_undo *u = arg;

	if (u->old & VSW_FDB_VAL_STATIC) {
		keys_add(ctl, u->key);
		return vsw_fdb_add_static(ctl->rt->fdb, u->key,
					  vsw_fdb_val_port(u->old),
					  ctl->rt->now_s);
	}
	keys_del(ctl, u->key);
	vsw_fdb_del(ctl->rt->fdb, u->key);
	return 0;
}

int vsw_ctl_fdb_add(struct vsw_ctl *ctl, uint64_t key, const char *port,
		    char *err, size_t errlen)
{
	struct vsw_port *p = vsw_ctl_port_by_name(ctl, port);
	struct fdb_undo u = {key, 0};

	if (p == NULL) {
		snprintf(err, errlen, "unknown port '%s'", port);
		return -ENOENT;
	}
	if (!vsw_fdb_lookup(ctl->rt->fdb, key, &u.old) ||
	    !(u.old & VSW_FDB_VAL_STATIC))
		u.old = 0;
	/* counted by the FDB, not by a walk of it under ctl_lock */
	if (u.old == 0 &&
	    vsw_fdb_static_count(ctl->rt->fdb) >= VSW_MAX_STATIC_FDB) {
		snprintf(err, errlen, "at most %d static entries",
			 VSW_MAX_STATIC_FDB);
		return -ENOSPC;
	}
	if (vsw_fdb_add_static(ctl->rt->fdb, key, p->id, ctl->rt->now_s) < 0) {
		snprintf(err, errlen, "the FDB is full");
		return -ENOSPC;
	}
	keys_add(ctl, key);
	return vsw_ctl_commit(ctl, fdb_put_back, &u, "fdb-add", err, errlen);
}

int vsw_ctl_fdb_del(struct vsw_ctl *ctl, uint64_t key, char *err, size_t errlen)
{
	struct fdb_undo u = {key, 0};

	if (!vsw_fdb_lookup(ctl->rt->fdb, key, &u.old) ||
	    vsw_fdb_del(ctl->rt->fdb, key) < 0) {
		snprintf(err, errlen, "no such FDB entry");
		return -ENOENT;
	}
	if (!(u.old & VSW_FDB_VAL_STATIC))
		return 0; /* a learned entry: not state */
	keys_del(ctl, key);
	return vsw_ctl_commit(ctl, fdb_put_back, &u, "fdb-del", err, errlen);
}

int vsw_ctl_fdb_flush(struct vsw_ctl *ctl, const char *port,
		      unsigned int *flushed, char *err, size_t errlen)
{
	uint16_t id = VSW_FDB_PORT_NONE;

	if (port != NULL) {
		const struct vsw_port *p = vsw_ctl_port_by_name(ctl, port);

		if (p == NULL) {
			snprintf(err, errlen, "unknown port '%s'", port);
			return -ENOENT;
		}
		id = p->id;
	}
	*flushed = vsw_fdb_flush(ctl->rt->fdb, id, false);
	return 0;
}

int vsw_ctl_fdb_init(struct vsw_ctl *ctl, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < ctl->cfg.n_fdb; i++) {
		const struct vsw_fdb_conf *fc = &ctl->cfg.fdb[i];
		struct vsw_port *p = vsw_ctl_port_by_name(ctl, fc->port);

		if (p == NULL ||
		    vsw_fdb_add_static(ctl->rt->fdb,
				       vsw_fdb_key(fc->mac, fc->vlan), p->id,
				       ctl->rt->now_s) < 0) {
			snprintf(err, errlen,
				 "%s: [fdb] static entry for port %s: %s",
				 ctl->cfg.source, fc->port,
				 p == NULL ? "no such port"
					   : "the FDB is full");
			return -ENOSPC;
		}
		keys_add(ctl, vsw_fdb_key(fc->mac, fc->vlan));
	}
	return 0;
}
