/* SPDX-License-Identifier: BSD-3-Clause */
/* What `vsw --help-...` prints beyond the config keys (help.c). */
#ifndef VSW_HELP_H
#define VSW_HELP_H

#include <stdbool.h>
#include <stdio.h>

/* The port counters and drop reasons: text, or docs/telemetry.md's
 * tables (@markdown). */
void vsw_help_counters(FILE *f, bool markdown);
/* vsw's command line. */
void vsw_help_usage(FILE *f);

#endif /* VSW_HELP_H */
