/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What every telemetry command shares: the error reply, the start and end
 * of a command (parse, read-only check, ctl_lock), a port parameter,
 * ratios, registration.  Calls no command file (tel_show.c, tel_stats.c
 * and tel_cmd.c call it).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_telemetry.h>

#include "control/control.h"
#include "tel.h"

/*
 * {"error": MESSAGE}: a telemetry string holds 127 characters, so a longer
 * message continues in "error_2", "error_3"... (vswctl joins them).
 */
int vsw_tel_reply_error(struct rte_tel_data *d, const char *fmt,
			const char *arg)
{
	char msg[VSW_ERR_MAX], part[RTE_TEL_MAX_STRING_LEN], key[24];
	size_t len, off = 0;

	snprintf(msg, sizeof(msg), fmt, arg ? arg : "");
	len = strlen(msg);
	rte_tel_data_start_dict(d);
	for (int i = 1; i == 1 || off < len; i++) {
		snprintf(part, sizeof(part), "%.*s", (int)(sizeof(part) - 1),
			 msg + off);
		off += strlen(part);
		if (i == 1)
			snprintf(key, sizeof(key), "error");
		else
			snprintf(key, sizeof(key), "error_%d", i);
		rte_tel_data_add_dict_string(d, key, part);
	}
	return 0;
}

/* The switch every command works on (vsw_tel_init): DPDK 22.11's
 * telemetry callbacks take no argument, so it is named here alone. */
static struct vsw_ctl *tel_ctl;

void vsw_tel_init(struct vsw_ctl *ctl)
{
	tel_ctl = ctl;
}

/* The OVSDB client, or NULL: written and read under ctl_lock, so that
 * `info` never reads one being stopped. */
static struct vsw_ovsdb *tel_ovsdb;

void vsw_tel_set_ovsdb(struct vsw_ovsdb *o)
{
	if (tel_ctl == NULL) { /* a start that failed before vsw_tel_init */
		tel_ovsdb = o;
		return;
	}
	pthread_mutex_lock(&tel_ctl->ctl_lock);
	tel_ovsdb = o;
	pthread_mutex_unlock(&tel_ctl->ctl_lock);
}

struct vsw_ovsdb *vsw_tel_ovsdb(void)
{
	return tel_ovsdb;
}

/*
 * The start of every command: check and parse @params for @cmd, refuse a
 * mutating command when control is read-only, take ctl_lock and refuse
 * once the switch is stopping.  Returns NULL with the error reply written
 * (and the lock not held), or control's state with the lock held.
 */
struct vsw_ctl *vsw_tel_begin(struct rte_tel_data *d, const char *cmd,
			      const char *params, struct vsw_args *a,
			      bool mutating)
{
	const struct vsw_args_cmd *c = vsw_args_find(cmd);
	struct vsw_ctl *ctl = tel_ctl;
	char err[VSW_ERR_MAX];

	if (c == NULL || ctl == NULL) {
		vsw_tel_reply_error(d, "no parser for %s", cmd);
		return NULL;
	}
	if (vsw_args_parse(c, params, a, err, sizeof(err)) < 0) {
		vsw_tel_reply_error(d, "%s", err);
		return NULL;
	}
	if (mutating && ctl->cfg.sw.read_only) {
		vsw_tel_reply_error(d,
				    "%s: refused, vsw runs with control = "
				    "read-only",
				    cmd);
		return NULL;
	}
	pthread_mutex_lock(&ctl->ctl_lock);
	if (ctl->stopping) {
		pthread_mutex_unlock(&ctl->ctl_lock);
		vsw_tel_reply_error(d, "vsw is stopping%s", NULL);
		return NULL;
	}
	return ctl;
}

void vsw_tel_end(struct vsw_ctl *ctl)
{
	pthread_mutex_unlock(&ctl->ctl_lock);
}

void vsw_tel_add_ratio(struct rte_tel_data *d, const char *key, uint64_t num,
		       uint64_t den)
{
	char v[32];

	snprintf(v, sizeof(v), "%.2f", den ? (double)num / (double)den : 0.0);
	rte_tel_data_add_dict_string(d, key, v);
}

/*
 * The port named by a command's parameter: returned with ctl_lock held
 * (and *@out set), or NULL (lock released) after replying an error.
 */
struct vsw_port *vsw_tel_port_param(struct rte_tel_data *d, const char *cmd,
				    const char *params, struct vsw_ctl **out)
{
	struct vsw_ctl *ctl;
	struct vsw_port *p;
	struct vsw_args a;

	if ((ctl = vsw_tel_begin(d, cmd, params, &a, false)) == NULL)
		return NULL;
	*out = ctl;
	p = vsw_ctl_port_by_name(ctl, a.name);
	if (p == NULL) {
		vsw_tel_end(ctl);
		vsw_tel_reply_error(d, "unknown port '%s'", a.name);
	}
	return p;
}

int vsw_tel_register(const struct vsw_tel_cmd *cmds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (rte_telemetry_register_cmd(cmds[i].name, cmds[i].fn,
					       cmds[i].help) < 0)
			return -EINVAL;
	return 0;
}

void vsw_tel_add_capture_stats(struct rte_tel_data *d,
			       const struct vsw_capture_stats *s)
{
	rte_tel_data_add_dict_u64(d, "written", s->written);
	rte_tel_data_add_dict_u64(d, "captured", s->captured);
	rte_tel_data_add_dict_u64(d, "dropped", s->dropped);
	rte_tel_data_add_dict_u64(d, "filtered", s->filtered);
	rte_tel_data_add_dict_u64(d, "done", s->done);
	rte_tel_data_add_dict_string(
		d, "write_error", s->write_err ? strerror(s->write_err) : "");
}
