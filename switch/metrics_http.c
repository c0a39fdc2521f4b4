/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * metrics-listen (metrics_http.h): the HTTP responder of http.c on a
 * control thread (rte_ctrl_thread_create: the control CPU set, never a
 * worker lcore), whose one resource is the Prometheus text of
 * tools/telclient/metrics.c.  A scrape connects to vsw's own telemetry
 * socket, runs the same commands as `vswctl metrics` and disconnects:
 * one formatter, and nothing on this thread reads control state or
 * worker counters directly (each command takes ctl_lock as a vswctl
 * client's would).  Trade-off: a scrape costs a connection and 2 + 2 x
 * ports telemetry round trips (a few ms), in exchange for no second
 * path to the counters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_lcore.h>

#include "common/log.h"
#include "config/vsw_config.h"
#include "http.h"
#include "metrics_http.h"
#include "tools/telclient/metrics.h"

#define SCRAPE_TIMEOUT_S 5.0 /* per telemetry reply */
#define MAX_CONNS 16
#define READ_MS 5000
#define WRITE_MS 10000

/* The body of GET /metrics: one scrape of the telemetry socket. */
static int metrics_body(void *arg, char **body, size_t *len)
{
	struct vsw_metrics_http *m = arg;
	struct ctl ctl = {.timeout = SCRAPE_TIMEOUT_S, .fd = -1};
	struct metrics_scrape s = {0};
	FILE *f;
	int rc;

	memcpy(ctl.path, m->sock, sizeof(ctl.path));
	rc = metrics_scrape(&ctl, &s);
	*body = NULL;
	*len = 0;
	if (rc == 0 && (f = open_memstream(body, len)) != NULL) {
		metrics_write(f, &s);
		fclose(f);
	}
	metrics_scrape_free(&s);
	if (ctl.fd >= 0)
		close(ctl.fd);
	free(ctl.buf);
	if (rc != 0 || *body == NULL) {
		free(*body);
		*body = NULL;
		return -1;
	}
	return 0;
}

static void *metrics_thread(void *arg)
{
	struct vsw_metrics_http *m = arg;
	int rc = vsw_http_run(m->srv);

	if (rc < 0)
		VSW_LOG(ERR, "metrics-listen %s: %s; no longer served",
			m->listen, strerror(-rc));
	return NULL;
}

/* The listening socket and the server on it; 0 or -errno with @err. */
static int server_open(struct vsw_metrics_http *m, const char *what, char *err,
		       size_t errlen)
{
	struct vsw_http_params p = {
		.path = "/metrics",
		.content_type = "text/plain; version=0.0.4; charset=utf-8",
		.body = metrics_body,
		.arg = m,
		.max_conns = MAX_CONNS,
		.read_ms = READ_MS,
		.write_ms = WRITE_MS,
	};
	struct vsw_listen l;
	int fd, rc;

	if (vsw_config_listen_parse(m->listen, &l) < 0) { /* config checked */
		snprintf(err, errlen, "%s: not IPV4:PORT or [IPV6]:PORT", what);
		return -EINVAL;
	}
	fd = vsw_http_listen(&l, what, err, errlen);
	if (fd < 0)
		return fd;
	m->srv = vsw_http_create(fd, &p);
	if (m->srv == NULL) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", what, strerror(-rc));
		return rc;
	}
	return 0;
}

int vsw_metrics_http_start(struct vsw_metrics_http *m, const char *listen,
			   char *err, size_t errlen)
{
	char what[96];
	int rc;

	if (listen[0] == '\0')
		return 0;
	snprintf(m->listen, sizeof(m->listen), "%s", listen);
	snprintf(what, sizeof(what), "[switch] metrics-listen = \"%s\"",
		 listen);
	snprintf(m->sock, sizeof(m->sock), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	ctl_prog = "vsw: metrics-listen"; /* telclient's messages */
	rc = server_open(m, what, err, errlen);
	if (rc < 0)
		return rc;
	/* DPDK 22.11 returns a negative errno (older ones a positive) */
	rc = rte_ctrl_thread_create(&m->thread, "vsw-metrics", NULL,
				    metrics_thread, m);
	if (rc != 0) {
		rc = rc < 0 ? rc : -rc;
		snprintf(err, errlen, "%s: cannot start its thread: %s", what,
			 strerror(-rc));
		vsw_metrics_http_stop(m);
		return rc;
	}
	m->started = true;
	VSW_LOG(INFO, "metrics: http://%s/metrics", listen);
	return 0;
}

void vsw_metrics_http_stop(struct vsw_metrics_http *m)
{
	if (m->srv == NULL)
		return;
	if (m->started) {
		vsw_http_stop(m->srv);
		pthread_join(m->thread, NULL);
		m->started = false;
	}
	vsw_http_destroy(m->srv);
	m->srv = NULL;
}
