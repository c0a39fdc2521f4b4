/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The telemetry API (the /vsw/... commands): shared by tel_show.c and
 * tel_stats.c (read-only) and tel_cmd.c (mutating), implemented in
 * tel_util.c.  main.c registers the three sets.
 */
#ifndef VSW_TEL_H
#define VSW_TEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_telemetry.h>

#include "ctl_args.h"

struct vsw_port;
struct vsw_ctl;
struct vsw_capture_stats;

struct vsw_tel_cmd {
	const char *name;
	telemetry_cb fn;
	const char *help;
};

/* Register @n commands. 0 or -EINVAL. */
int vsw_tel_register(const struct vsw_tel_cmd *cmds, size_t n);
/* The three sets: tel_show.c, tel_stats.c, tel_cmd.c. */
int vsw_tel_register_show(void);
int vsw_tel_register_stats(void);
int vsw_tel_register_cmds(void);

/* Reply {"error": fmt % arg}; returns 0 (the reply itself carries it). */
int vsw_tel_reply_error(struct rte_tel_data *d, const char *fmt,
			const char *arg);
/* The control state the commands work on; before registering them. */
void vsw_tel_init(struct vsw_ctl *ctl);
struct vsw_ovsdb;
/* The OVSDB client `info` reports on (NULL: none); set under ctl_lock. */
void vsw_tel_set_ovsdb(struct vsw_ovsdb *o);
/* The client set, or NULL; read with ctl_lock held (a command's). */
struct vsw_ovsdb *vsw_tel_ovsdb(void);
/*
 * Start a command: parse @params (ctl_args.c), refuse a @mutating one when
 * control is read-only, take ctl_lock, refuse once vsw is stopping.  NULL:
 * the error reply is written and the lock is not held; else control's
 * state: call vsw_tel_end() when done.
 */
struct vsw_ctl *vsw_tel_begin(struct rte_tel_data *d, const char *cmd,
			      const char *params, struct vsw_args *a,
			      bool mutating);
void vsw_tel_end(struct vsw_ctl *ctl);
/*
 * The port a command's parameter names: returned with ctl_lock held (and
 * *@out the control state), or NULL (lock released) after replying an
 * error.
 */
struct vsw_port *vsw_tel_port_param(struct rte_tel_data *d, const char *cmd,
				    const char *params, struct vsw_ctl **out);
/* Add num/den as a "%.2f" string (telemetry 22.11 has no floats). */
void vsw_tel_add_ratio(struct rte_tel_data *d, const char *key, uint64_t num,
		       uint64_t den);

/* A capture's counters: written, captured, dropped, filtered, done... */
void vsw_tel_add_capture_stats(struct rte_tel_data *d,
			       const struct vsw_capture_stats *s);

#endif /* VSW_TEL_H */
