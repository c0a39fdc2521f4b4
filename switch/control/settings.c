/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch-wide settings (`set`, the [switch] keys changeable at run
 * time): validated by config/, put in force with a new table and the
 * ports' kick and call settings, committed to the state file (commit.c).
 * ctl_lock held.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/vsw_keys.h"
#include "control.h"

void vsw_ctl_fdb_refresh(struct vsw_ctl *ctl)
{
	vsw_fdb_set_refresh(ctl->rt->fdb, ctl->cfg.sw.fdb_aging_s / 60);
}

/* The switch settings @conf in force: a table, FDB refresh, kicks and
 * calls (suppression, the way to guests), spreading over guests' rx
 * queues. */
static int apply_switch(struct vsw_ctl *ctl, const struct vsw_switch_conf *conf,
			char *err, size_t errlen)
{
	struct vsw_switch_conf old = ctl->cfg.sw;
	bool kicks = old.kick_suppression != conf->kick_suppression;
	bool calls = old.call_suppression != conf->call_suppression;
	bool gcalls = old.guest_calls_direct != conf->guest_calls_direct;
	bool spread = old.guest_rx_spread != conf->guest_rx_spread;
	int rc;

	ctl->cfg.sw = *conf;
	rc = vsw_table_publish(ctl, err, errlen);
	if (rc < 0) {
		ctl->cfg.sw = old;
		return rc;
	}
	vsw_ctl_fdb_refresh(ctl);
	for (int i = 0;
	     (kicks || calls || gcalls || spread) && i < VSW_MAX_PORTS; i++) {
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
		if (spread && p->ops->set_guest_rx_spread)
			p->ops->set_guest_rx_spread(
				p,
				vsw_port_rx_spread_on(
					&p->conf, ctl->cfg.sw.guest_rx_spread));
	}
	return 0;
}

/* What `set` changed: both forms of [switch] before it. */
struct set_undo {
	struct vsw_switch_conf sw, own;
};

static int undo_switch(struct vsw_ctl *ctl, void *arg)
{
	const struct set_undo *u = arg;

	ctl->sw_own = u->own;
	return apply_switch(ctl, &u->sw, NULL, 0);
}

/* The setting laid over [switch] @key (any of its names), or NULL. */
static const struct vsw_override *override_of(const struct vsw_ctl *ctl,
					      const char *key)
{
	const struct vsw_key *k =
		vsw_key_find(VSW_SECT_SWITCH, key, strlen(key));

	for (unsigned int i = 0; k != NULL && i < ctl->n_over; i++)
		if (strcmp(ctl->over[i].key, vsw_key_canon(k)) == 0)
			return &ctl->over[i];
	return NULL;
}

/* `set`: saved in the state file before it returns 0, else undone. */
int vsw_ctl_set(struct vsw_ctl *ctl, const char *key, const char *value,
		char *err, size_t errlen)
{
	struct set_undo old = {ctl->cfg.sw, ctl->sw_own};
	struct vsw_switch_conf conf = old.sw, own = old.own;
	const struct vsw_override *o = override_of(ctl, key);
	int rc;

	if (o != NULL) {
		snprintf(
			err, errlen,
			"%s is %s, set by %s: change or remove it there (vsw's "
			"own value comes back when it is removed)",
			key, o->value, o->from);
		return -EBUSY;
	}
	rc = vsw_config_set_switch_key(&conf, key, value, err, errlen);
	if (rc == 0)
		rc = vsw_config_set_switch_key(&own, key, value, err, errlen);
	if (rc == 0)
		rc = apply_switch(ctl, &conf, err, errlen);
	if (rc < 0)
		return rc;
	ctl->sw_own = own;
	return vsw_ctl_commit(ctl, undo_switch, &old, "set", err, errlen);
}

int vsw_ctl_override(struct vsw_ctl *ctl, const struct vsw_override *ov,
		     unsigned int n, char *err, size_t errlen)
{
	struct vsw_switch_conf conf = ctl->sw_own;
	bool same = n == ctl->n_over;
	int rc;

	if (n > VSW_MAX_OVERRIDES) {
		snprintf(err, errlen, "more than %d settings laid over",
			 VSW_MAX_OVERRIDES);
		return -E2BIG;
	}
	for (unsigned int i = 0; same && i < n; i++)
		same = strcmp(ov[i].key, ctl->over[i].key) == 0 &&
		       strcmp(ov[i].value, ctl->over[i].value) == 0 &&
		       strcmp(ov[i].from, ctl->over[i].from) == 0;
	if (same)
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		rc = vsw_config_set_switch_key(&conf, ov[i].key, ov[i].value,
					       err, errlen);
		if (rc < 0)
			return rc;
	}
	rc = apply_switch(ctl, &conf, err, errlen);
	if (rc < 0)
		return rc;
	memcpy(ctl->over, ov, n * sizeof(*ov));
	ctl->n_over = n;
	return 0;
}
