/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch-wide settings (`set`, the [switch] keys changeable at run
 * time): validated by config/, put in force with a new table and the
 * ports' kick and call settings, committed to the state file (commit.c).
 * ctl_lock held.
 */
#include "control.h"

void vsw_ctl_fdb_refresh(struct vsw_ctl *ctl)
{
	vsw_fdb_set_refresh(ctl->rt->fdb, ctl->cfg.sw.fdb_aging_s / 60);
}

/* The switch settings @conf in force: a table, FDB refresh, kicks and
 * calls (suppression, the way to guests). */
static int apply_switch(struct vsw_ctl *ctl, const struct vsw_switch_conf *conf,
			char *err, size_t errlen)
{
	struct vsw_switch_conf old = ctl->cfg.sw;
	bool kicks = old.kick_suppression != conf->kick_suppression;
	bool calls = old.call_suppression != conf->call_suppression;
	bool gcalls = old.guest_calls_direct != conf->guest_calls_direct;
	int rc;

	ctl->cfg.sw = *conf;
	rc = vsw_table_publish(ctl, err, errlen);
	if (rc < 0) {
		ctl->cfg.sw = old;
		return rc;
	}
	vsw_ctl_fdb_refresh(ctl);
	for (int i = 0; (kicks || calls || gcalls) && i < VSW_MAX_PORTS; i++) {
		struct vsw_port *p = ctl->ports[i];

		if (p == NULL)
			continue;
		if (kicks && p->ops->set_kick_suppression)
			p->ops->set_kick_suppression(
				p, ctl->cfg.sw.kick_suppression);
		if (calls && p->ops->set_call_suppression)
			p->ops->set_call_suppression(
				p, ctl->cfg.sw.call_suppression);
		if (gcalls && p->ops->set_guest_calls)
			p->ops->set_guest_calls(p,
						ctl->cfg.sw.guest_calls_direct);
	}
	return 0;
}

static int undo_switch(struct vsw_ctl *ctl, void *old)
{
	return apply_switch(ctl, old, NULL, 0);
}

/* `set`: saved in the state file before it returns 0, else undone. */
int vsw_ctl_set(struct vsw_ctl *ctl, const char *key, const char *value,
		char *err, size_t errlen)
{
	struct vsw_switch_conf old = ctl->cfg.sw, conf = old;
	int rc;

	rc = vsw_config_set_switch_key(&conf, key, value, err, errlen);
	if (rc == 0)
		rc = apply_switch(ctl, &conf, err, errlen);
	if (rc == 0)
		rc = vsw_ctl_commit(ctl, undo_switch, &old, "set", err, errlen);
	return rc;
}
