/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the telemetry command files (ctl.c, ctl_cmd.c). */
#ifndef VSW_CTL_PRIV_H
#define VSW_CTL_PRIV_H

#include <rte_telemetry.h>

/* Reply {"error": fmt % arg}; returns 0 (the reply itself carries it). */
int vsw_ctl_reply_error(struct rte_tel_data *d, const char *fmt,
			const char *arg);
/* Parse up to @n comma-separated unsigned ints; -EINVAL when malformed. */
int vsw_ctl_parse_uints(const char *params, unsigned long *v, int n);
/* Add num/den as a "%.2f" string (telemetry 22.11 has no floats). */
void vsw_ctl_add_ratio(struct rte_tel_data *d, const char *key, uint64_t num,
		       uint64_t den);
/* Register the mutating commands. */
int vsw_ctl_register_writes(void);

#endif
