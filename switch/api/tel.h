/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the telemetry command files (ctl.c, ctl_cmd.c). */
#ifndef VSW_CTL_PRIV_H
#define VSW_CTL_PRIV_H

#include <stdbool.h>

#include <rte_telemetry.h>

#include "ctl_args.h"

/* Reply {"error": fmt % arg}; returns 0 (the reply itself carries it). */
int vsw_ctl_reply_error(struct rte_tel_data *d, const char *fmt,
			const char *arg);
/*
 * Start a command: parse @params (ctl_args.c), refuse a @mutating one when
 * control is read-only, take ctl_lock, refuse once vsw is stopping.  false:
 * the error reply is written and the lock is not held; true: call
 * vsw_ctl_end() when done.
 */
bool vsw_ctl_begin(struct rte_tel_data *d, const char *cmd, const char *params,
		   struct vsw_args *a, bool mutating);
void vsw_ctl_end(void);
/* Add num/den as a "%.2f" string (telemetry 22.11 has no floats). */
void vsw_ctl_add_ratio(struct rte_tel_data *d, const char *key, uint64_t num,
		       uint64_t den);
/* Register the mutating commands. */
int vsw_ctl_register_writes(void);

#endif
