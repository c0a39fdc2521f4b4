/*
 * metrics: every counter of vsw in the Prometheus text exposition format,
 * or with --json everything it came from.  The formatter is
 * tools/telclient/metrics.c, which vsw's metrics-listen serves too.
 */
#include "tools/telclient/metrics.h"
#include "vswctl.h"

#include <stdio.h>

int verb_metrics(struct ctl *ctl, int argc, char **argv)
{
	struct metrics_scrape s = {0};
	int rc = metrics_scrape(ctl, &s);

	(void)argc;
	(void)argv;
	if (rc == 0 && ctl->json)
		metrics_write_json(stdout, &s);
	else if (rc == 0)
		metrics_write(stdout, &s);
	metrics_scrape_free(&s);
	return rc;
}
