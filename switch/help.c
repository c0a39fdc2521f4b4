/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vsw's usage, and `vsw --help-counters [--markdown]`: the port counters
 * (the table of
 * config/vsw_counters.h) and the drop reasons (datapath/stats.h), as text
 * or as the two tables of docs/telemetry.md (tests/unit/doc_tables.sh
 * diffs them).
 */
#include <stdbool.h>
#include <stdio.h>

#include "config/vsw_counters.h"
#include "datapath/stats.h"
#include "help.h"

static const struct {
	const char *key, *prom, *type, *help;
} counters[] = {
#define X(k, src, prom, type, help) {#k, prom, type, help},
	VSW_PORT_COUNTERS(X)
#undef X
};

void vsw_help_counters(FILE *f, bool md)
{
	const size_t n = sizeof(counters) / sizeof(counters[0]);

	if (md)
		fprintf(f, "<!-- port counters: begin (generated: vsw "
			   "--help-counters --markdown) -->\n"
			   "| Key | Prometheus | Type | Meaning |\n"
			   "|---|---|---|---|\n");
	else
		fprintf(f, "port counters (/vsw/port,NAME; vswctl metrics)\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f,
			md ? "| `%s` | `%s` | %s | %s |\n"
			   : "  %-18s %-34s %-8s %s\n",
			counters[i].key, counters[i].prom, counters[i].type,
			counters[i].help);
	if (md)
		fprintf(f, "<!-- port counters: end -->\n\n"
			   "<!-- drop reasons: begin (generated: vsw "
			   "--help-counters --markdown) -->\n"
			   "| Key | Side | Meaning |\n|---|---|---|\n");
	else
		fprintf(f, "\ndrop reasons (drop_KEY; "
			   "vsw_port_drops_total{reason=KEY})\n");
	for (int r = 0; r < VSW_DROP_MAX; r++)
		fprintf(f,
			md ? "| `drop_%s` | %s | %s |\n" : "  %-24s %s  %s\n",
			vsw_drop_names[r], vsw_drop_sides[r],
			vsw_drop_descs[r]);
	if (md)
		fprintf(f, "<!-- drop reasons: end -->\n");
}

void vsw_help_usage(FILE *f)
{
	fprintf(f,
		"usage: vsw [EAL args] -- [-c FILE] [--check] [--reset-state]\n"
		"  -c, --config FILE  switch config (INI); default: two "
		"vhost-user ports vm0, vm1\n"
		"                     in the run directory\n"
		"  -r, --run-dir DIR  run directory of the embedded default "
		"(default /run/vsw)\n"
		"  --check            validate the config (and state file), "
		"exit\n"
		"  --print-config     print the config vsw would start with "
		"(the\n"
		"                     state file over the config file), exit\n"
		"  --reset-state      start from the config file: the state "
		"file\n"
		"                     (run-time changes) is moved to "
		"STATE.old\n"
		"  --help-config [--markdown]\n"
		"                     every config key: type, range, default, "
		"run time, help\n"
		"  --help-counters [--markdown]\n"
		"                     every port counter and drop reason\n"
		"  -h, --help         this text\n"
		"EAL defaults added when absent: --file-prefix vsw; --no-huge "
		"-m 1024 when no\nhugepage is free. vswctl talks to the "
		"telemetry socket of that prefix.\n");
}
