/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Prometheus text (exposition format 0.0.4) of every counter of vsw,
 * built from the JSON replies of vsw's telemetry commands: the one
 * formatter, printed by `vswctl metrics` and served by vsw itself at
 * GET /metrics when metrics-listen is set (switch/metrics_http.c, a
 * client of its own telemetry socket).  Family names and labels are
 * listed in docs/telemetry.md.
 */
#ifndef VSW_TELCLIENT_METRICS_H
#define VSW_TELCLIENT_METRICS_H

#include "telclient.h"

#include <stdio.h>

/* What one scrape fetched; every pointer owned by the scrape. */
struct metrics_scrape {
	json_t *info_r, *info; /* /vsw/info: reply, its data */
	json_t *wk_r, *wk;     /* /vsw/workers */
	json_t *fdb_r, *fdb;   /* /vsw/fdb/stats */
	struct pages list;     /* /vsw/ports: the names */
	size_t nports;
	json_t **port_r, **port; /* /vsw/port,NAME */
	json_t **q_r, **q;	 /* /vsw/queues,NAME */
};

/*
 * Fetch every source over @ctl into @s (zeroed by the caller); 0, or
 * an exit code with the message printed (telclient.h's error()).  Free
 * @s with metrics_scrape_free either way.
 */
int metrics_scrape(struct ctl *ctl, struct metrics_scrape *s);
void metrics_scrape_free(struct metrics_scrape *s);
/* The Prometheus text of @s. */
void metrics_write(FILE *f, const struct metrics_scrape *s);
/* vswctl metrics --json: everything scraped, in one object, one line. */
void metrics_write_json(FILE *f, const struct metrics_scrape *s);

#endif /* VSW_TELCLIENT_METRICS_H */
