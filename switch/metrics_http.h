/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * metrics-listen: vsw serves the Prometheus text of `vswctl metrics` at
 * GET /metrics (http.h) from a control thread of its own, which gets the
 * text the way vswctl does: as a client of vsw's telemetry socket, with
 * the one formatter (tools/telclient/metrics.h).  Each command of a
 * scrape takes ctl_lock briefly, like any vswctl client's; no worker is
 * touched.
 */
#ifndef VSW_METRICS_HTTP_H
#define VSW_METRICS_HTTP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/un.h>

struct vsw_http_server;

struct vsw_metrics_http {
	struct vsw_http_server *srv; /* NULL: off */
	pthread_t thread;
	bool started;
	char sock[sizeof(((struct sockaddr_un *)0)->sun_path)]; /* telemetry */
	char listen[64]; /* the key's value, for logs */
};

/*
 * Listen on @listen ("IPV4:PORT" or "[IPV6]:PORT"; "" = off) and start
 * the thread (EAL up, telemetry registered).  0, or -errno with a
 * message in @err (a port in use, say).
 */
int vsw_metrics_http_start(struct vsw_metrics_http *m, const char *listen,
			   char *err, size_t errlen);
/* Stop and join the thread, close every socket; idempotent. */
void vsw_metrics_http_stop(struct vsw_metrics_http *m);

#endif /* VSW_METRICS_HTTP_H */
