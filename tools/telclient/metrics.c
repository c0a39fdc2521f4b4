/*
 * The one formatter of vsw's metrics: every counter of vsw in the
 * Prometheus text exposition format (version 0.0.4): one "# HELP" and
 * "# TYPE" line per metric family, then its samples. Counters end in
 * _total, gauges do not. Sources: /vsw/info, /vsw/ports (names),
 * /vsw/port,NAME and /vsw/queues,NAME for every port, /vsw/workers,
 * /vsw/fdb/stats.  `vswctl metrics` prints it; vsw's metrics-listen
 * (switch/metrics_http.c) serves it at GET /metrics, scraping its own
 * telemetry socket like any client: one text, one code.
 */
#define _GNU_SOURCE /* open_memstream */
#include "config/vsw_counters.h"
#include "config/vsw_iter_hist.h"
#include "metrics.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A labelled object whose members become samples. */
struct target {
	json_t *obj;
	char *labels; /* 'port="vm0"' */
};

struct fam {
	const char *key; /* member of the target objects */
	const char *name;
	const char *type; /* counter or gauge */
	const char *help;
};

/* ---- output helpers -------------------------------------------------- */

static void header(FILE *f, const char *name, const char *type,
		   const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* Label value escaped per the format: \\, \", \n. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* 'k1="v1",k2="v2"' from NULL-terminated pairs; malloc'd. */
static char *labels(const char *k, const char *v, ...)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	va_list ap;

	va_start(ap, v);
	for (int first = 1; k != NULL; first = 0) {
		fprintf(f, "%s%s=\"", first ? "" : ",", k);
		put_escaped(f, v);
		fputc('"', f);
		k = va_arg(ap, const char *);
		if (k != NULL)
			v = va_arg(ap, const char *);
	}
	va_end(ap);
	fclose(f);
	return s;
}

static int is_num(const json_t *v)
{
	return json_is_number(v);
}

/* "name{lab,more} value" (labels NULL or "": none); v is a number. */
static void sample(FILE *f, const char *name, const char *lab, const char *more,
		   json_t *v)
{
	if (more != NULL)
		fprintf(f, "%s{%s,%s} ", name, lab, more);
	else if (lab != NULL && lab[0] != '\0')
		fprintf(f, "%s{%s} ", name, lab);
	else
		fprintf(f, "%s ", name);
	val_write(f, v);
	fputc('\n', f);
}

/*
 * A microsecond count as seconds (Prometheus' base unit, which promtool's
 * lint asks for), exactly: integer division, six decimals.
 */
static void micro_sample(FILE *f, const char *name, const char *lab, json_t *v)
{
	json_int_t us = json_integer_value(v);

	if (!json_is_integer(v) || us < 0) {
		sample(f, name, lab, NULL, v);
		return;
	}
	if (lab != NULL && lab[0] != '\0')
		fprintf(f, "%s{%s} ", name, lab);
	else
		fprintf(f, "%s ", name);
	fprintf(f, "%" JSON_INTEGER_FORMAT ".%06" JSON_INTEGER_FORMAT "\n",
		us / 1000000, us % 1000000);
}

/* A member in microseconds ("_us") whose family counts seconds. */
static bool is_micro(const struct fam *f)
{
	size_t n = strlen(f->key);

	return n > 3 && strcmp(f->key + n - 3, "_us") == 0 &&
	       strstr(f->name, "_seconds") != NULL;
}

/* One family over targets: header, then one sample per target with key. */
static void family(FILE *out, const struct fam *f, const struct target *t,
		   size_t n)
{
	int shown = 0;

	for (size_t i = 0; i < n; i++) {
		json_t *v = json_object_get(t[i].obj, f->key);

		if (!is_num(v))
			continue;
		if (!shown++)
			header(out, f->name, f->type, f->help);
		if (is_micro(f))
			micro_sample(out, f->name, t[i].labels, v);
		else
			sample(out, f->name, t[i].labels, NULL, v);
	}
}

static void families(FILE *out, const struct fam *f, size_t nf,
		     const struct target *t, size_t n)
{
	for (size_t i = 0; i < nf; i++)
		family(out, &f[i], t, n);
}

/* Members whose key starts with prefix, labelled label=<rest of key>. */
static void prefixed(FILE *f, const char *prefix, const char *label,
		     const char *name, const char *help, const struct target *t,
		     size_t n)
{
	size_t pl = strlen(prefix);
	int shown = 0;

	for (size_t i = 0; i < n; i++) {
		const char *key;
		json_t *m;

		json_object_foreach (t[i].obj, key, m) {
			char *lab;

			if (strncmp(key, prefix, pl) != 0 || !is_num(m))
				continue;
			if (!shown++)
				header(f, name, "counter", help);
			lab = labels(label, key + pl, NULL);
			sample(f, name, t[i].labels, lab, m);
			free(lab);
		}
	}
}

static void targets_free(struct target *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(t[i].labels);
	free(t);
}

#define NFAM(a) (sizeof(a) / sizeof(*(a)))

/* ---- sections -------------------------------------------------------- */

static void info_metrics(FILE *f, json_t *info)
{
	static const struct fam fams[] = {
		{"uptime_s", "vsw_uptime_seconds", "gauge",
		 "Seconds since vsw started"},
		{"workers", "vsw_workers", "gauge", "Worker lcores"},
		{"ports", "vsw_ports", "gauge", "Ports"},
		{"mbufs_total", "vsw_mbufs", "gauge",
		 "Mbufs in the pools (big mbufs included)"},
		{"mbufs_in_use", "vsw_mbufs_in_use", "gauge",
		 "Mbufs taken from the pools (big mbufs included)"},
		{"big_mbufs_total", "vsw_big_mbufs", "gauge",
		 "64 KiB mbufs for guests' TSO frames"},
		{"big_mbufs_in_use", "vsw_big_mbufs_in_use", "gauge",
		 "64 KiB mbufs taken from their pool"},
	};
	const char *ver = str_of(info, "version");
	struct target t = {info, NULL};
	char *lab;

	header(f, "vsw_info", "gauge", "vsw version (always 1)");
	lab = labels("version", ver ? ver : "unknown", NULL);
	fprintf(f, "vsw_info{%s} 1\n", lab);
	free(lab);
	families(f, fams, NFAM(fams), &t, 1);
}

static void port_state_metrics(FILE *f, const struct metrics_scrape *s,
			       const struct target *t)
{
	header(f, "vsw_port_up", "gauge",
	       "1 when the port is up (vhost-user: a guest is connected)");
	for (size_t i = 0; i < s->nports; i++) {
		const char *st = str_of(s->port[i], "state");

		fprintf(f, "vsw_port_up{%s} %d\n", t[i].labels,
			st != NULL && strcmp(st, "up") == 0);
	}
	header(f, "vsw_port_info", "gauge", "Port type (always 1)");
	for (size_t i = 0; i < s->nports; i++) {
		const char *ty = str_of(s->port[i], "type");
		char *lab = labels("type", ty ? ty : "", NULL);

		fprintf(f, "vsw_port_info{%s,%s} 1\n", t[i].labels, lab);
		free(lab);
	}
}

static void port_metrics(FILE *f, const struct metrics_scrape *s)
{
	/* config/vsw_counters.h: the port's counters and gauges */
	static const struct fam fams[] = {
#define X(k, src, prom, type, help) {#k, prom, type, help},
		VSW_PORT_COUNTERS(X)
#undef X
	};
	struct target *t = calloc(s->nports + 1, sizeof(*t));

	for (size_t i = 0; i < s->nports; i++) {
		t[i].obj = s->port[i];
		t[i].labels = labels("port", s->list.items[i].key, NULL);
	}
	port_state_metrics(f, s, t);
	families(f, fams, NFAM(fams), t, s->nports);
	prefixed(f, "drop_", "reason", "vsw_port_drops_total",
		 "Packets dropped, by reason", t, s->nports);
	prefixed(f, "flush_", "size", "vsw_port_tx_flush_batches_total",
		 "Transmit bursts by number of packets", t, s->nports);
	targets_free(t, s->nports);
}

static void queue_metrics(FILE *f, const struct metrics_scrape *s)
{
	static const struct fam fams[] = {
		{"rx_packets", "vsw_queue_rx_packets_total", "counter",
		 "Packets received on the rx queue"},
		{"rx_cycles", "vsw_queue_rx_cycles_total", "counter",
		 "TSC cycles spent on the rx queue"},
		{"kicks", "vsw_queue_kicks_total", "counter",
		 "Guest notifications that arrived on the queue"},
		{"calls", "vsw_queue_calls_total", "counter",
		 "Interrupts vsw sent to the guest on the queue"},
		{"enqueues", "vsw_queue_enqueues_total", "counter",
		 "Enqueue calls into the guest's rx ring"},
		{"enqueued", "vsw_queue_enqueued_packets_total", "counter",
		 "Packets enqueued into the guest's rx ring"},
		{"worker", "vsw_queue_worker", "gauge",
		 "Worker polling the queue (-1: none)"},
		{"present", "vsw_queue_present", "gauge",
		 "1 when the guest has the queue pair"},
		{"tx_enabled", "vsw_queue_tx_enabled", "gauge",
		 "1 when the guest's rx ring is enabled"},
		{"kicks_suppressed", "vsw_queue_kicks_suppressed", "gauge",
		 "1 when guest notifications are suppressed"},
		{"ring_size", "vsw_queue_ring_size", "gauge", "Ring entries"},
	};
	struct target *t = NULL;
	size_t n = 0;

	for (size_t i = 0; i < s->nports; i++) {
		const char *key;
		json_t *m;

		json_object_foreach (s->q[i], key, m) {
			if (!json_is_object(m))
				continue;
			t = xrealloc(t, (n + 1) * sizeof(*t));
			t[n].obj = m;
			t[n++].labels = labels("port", s->list.items[i].key,
					       "queue", key + 1, NULL);
		}
	}
	families(f, fams, NFAM(fams), t, n);
	targets_free(t, n);
}

static void rxq_share_metrics(FILE *f, const struct target *t, size_t n)
{
	char port[PORT_NAME_MAX + 2], *q, *lab;
	int shown = 0;

	for (size_t i = 0; i < n; i++) {
		const char *key;
		json_t *m;

		json_object_foreach (t[i].obj, key, m) {
			if (!is_num(m) ||
			    rxq_key(key, port, sizeof(port), &q) < 0)
				continue;
			if (!shown++)
				header(f, "vsw_worker_rxq_share_percent",
				       "gauge",
				       "Share of the worker's rx cycles spent "
				       "on the queue");
			lab = labels("port", port, "queue", q, NULL);
			sample(f, "vsw_worker_rxq_share_percent", t[i].labels,
			       lab, m);
			free(lab);
			free(q);
		}
	}
}

/*
 * vsw_worker_iteration_seconds: each worker's iteration lengths since the
 * last stats-clear as a Prometheus histogram.  The worker's buckets
 * (config/vsw_iter_hist.h; /vsw/workers leaves out the empty ones) made
 * cumulative, `le` their upper bounds in seconds, written exactly (an
 * iteration of exactly a bound, in whole microseconds, counts above it:
 * the worker's buckets leave out their upper bound); _count is the +Inf
 * bucket, _sum iter_total_us.
 */
static void iter_histogram(FILE *f, const struct target *t, size_t n)
{
	static const char name[] = "vsw_worker_iteration_seconds";
	char key[48];
	int shown = 0;

	for (size_t i = 0; i < n; i++) {
		json_t *sum = json_object_get(t[i].obj, "iter_total_us");
		uint64_t cum = 0, hi;

		if (!is_num(sum))
			continue;
		if (!shown++)
			header(f, name, "histogram",
			       "Poll loop iterations by length since the last "
			       "stats-clear (adaptive sleeps left out)");
		for (unsigned int k = 0; k < VSW_ITER_BUCKETS; k++) {
			vsw_iter_bucket_key(k, key, sizeof(key));
			cum += u64_of(t[i].obj, key);
			hi = vsw_iter_bucket_hi(k);
			if (hi != 0)
				fprintf(f,
					"%s_bucket{%s,le=\"%" PRIu64
					".%06" PRIu64 "\"} %" PRIu64 "\n",
					name, t[i].labels, hi / 1000000,
					hi % 1000000, cum);
			else
				fprintf(f,
					"%s_bucket{%s,le=\"+Inf\"} %" PRIu64
					"\n",
					name, t[i].labels, cum);
		}
		micro_sample(f, "vsw_worker_iteration_seconds_sum", t[i].labels,
			     sum);
		fprintf(f, "%s_count{%s} %" PRIu64 "\n", name, t[i].labels,
			cum);
	}
}

static void worker_metrics(FILE *f, json_t *wk)
{
	static const struct fam fams[] = {
		{"iterations", "vsw_worker_iterations_total", "counter",
		 "Poll loop iterations"},
		{"rx_packets", "vsw_worker_rx_packets_total", "counter",
		 "Packets received by the worker"},
		{"busy_cycles", "vsw_worker_busy_cycles_total", "counter",
		 "TSC cycles of iterations that received packets"},
		{"idle_cycles", "vsw_worker_idle_cycles_total", "counter",
		 "TSC cycles of iterations that received nothing"},
		{"sleeps", "vsw_worker_sleeps_total", "counter",
		 "Sleeps (adaptive poll mode)"},
		{"sleep_us", "vsw_worker_sleep_seconds_total", "counter",
		 "Seconds slept (adaptive poll mode)"},
		{"wakeups_rx", "vsw_worker_wakeups_rx_total", "counter",
		 "Wakeups by rx interrupts (adaptive poll mode)"},
		{"rxqs", "vsw_worker_rxqs", "gauge", "Rx queues polled"},
	};
	struct target *t = calloc(json_object_size(wk) + 1, sizeof(*t));
	json_t *tsc = json_object_get(wk, "tsc_hz"), *m;
	const char *key;
	size_t n = 0;

	if (is_num(tsc)) {
		header(f, "vsw_tsc_hz", "gauge", "TSC frequency (cycles/s)");
		sample(f, "vsw_tsc_hz", NULL, NULL, tsc);
	}
	json_object_foreach (wk, key, m) {
		json_t *lc = json_object_get(m, "lcore");
		char *lcore = is_num(lc) ? val_text(lc) : xstrdup("");

		if (json_is_object(m)) {
			t[n].obj = m;
			t[n++].labels = labels("worker", worker_id(key),
					       "lcore", lcore, NULL);
		}
		free(lcore);
	}
	families(f, fams, NFAM(fams), t, n);
	rxq_share_metrics(f, t, n);
	iter_histogram(f, t, n);
	targets_free(t, n);
}

/* entries and size are gauges, every other member a counter. */
static void fdb_metrics(FILE *f, json_t *fdb)
{
	char name[64], help[96];
	const char *key;
	json_t *m;

	json_object_foreach (fdb, key, m) {
		int gauge =
			strcmp(key, "entries") == 0 || strcmp(key, "size") == 0;

		if (!is_num(m) || strlen(key) > 32 ||
		    strspn(key, "abcdefghijklmnopqrstuvwxyz_") != strlen(key))
			continue;
		snprintf(name, sizeof(name), "vsw_fdb_%s%s", key,
			 gauge ? "" : "_total");
		snprintf(help, sizeof(help), "MAC table: %s (/vsw/fdb/stats)",
			 key);
		header(f, name, gauge ? "gauge" : "counter", help);
		sample(f, name, NULL, NULL, m);
	}
}

/* ---- scrape ---------------------------------------------------------- */

/*
 * ctl_query for one port's command: -1, quietly, when vsw no longer
 * knows the port (deleted since /vsw/ports listed it: left out of this
 * scrape, which a monitoring system must not see fail for that).
 */
static int port_query(struct ctl *ctl, const char *cmd, json_t **reply,
		      json_t **data)
{
	const char *e;
	int rc = ctl_request(ctl, cmd, reply);

	if (rc)
		return rc;
	*data = reply_data(*reply);
	e = str_of(*data, "error");
	rc = e != NULL && strncmp(e, "unknown port", 12) == 0
		     ? -1
		     : reply_error(cmd, *data);
	if (rc) {
		json_decref(*reply);
		*reply = NULL;
	}
	return rc;
}

/* Port i's two dicts into slot s->nports; 0, -1 (port gone) or rc. */
static int scrape_port(struct ctl *ctl, struct metrics_scrape *s, size_t i)
{
	const char *name = s->list.items[i].key;
	size_t k = s->nports;
	char cmd[64];
	int rc;

	snprintf(cmd, sizeof(cmd), "/vsw/port,%s", name);
	rc = port_query(ctl, cmd, &s->port_r[k], &s->port[k]);
	if (rc)
		return rc;
	snprintf(cmd, sizeof(cmd), "/vsw/queues,%s", name);
	rc = port_query(ctl, cmd, &s->q_r[k], &s->q[k]);
	if (rc) {
		json_decref(s->port_r[k]);
		return rc;
	}
	s->list.items[k] = s->list.items[i]; /* names stay beside their data */
	s->nports++;
	return 0;
}

static int scrape_ports(struct ctl *ctl, struct metrics_scrape *s)
{
	int rc = pages_fetch(ctl, "/vsw/ports", &s->list);
	size_t n = s->list.nitems;

	if (rc)
		return rc;
	s->port_r = calloc(n + 1, sizeof(*s->port_r));
	s->port = calloc(n + 1, sizeof(*s->port));
	s->q_r = calloc(n + 1, sizeof(*s->q_r));
	s->q = calloc(n + 1, sizeof(*s->q));
	if (!s->port_r || !s->port || !s->q_r || !s->q)
		return error("out of memory");
	for (size_t i = 0; i < n; i++)
		if ((rc = scrape_port(ctl, s, i)) > 0)
			return rc;
	return 0;
}

int metrics_scrape(struct ctl *ctl, struct metrics_scrape *s)
{
	int rc = ctl_query(ctl, "/vsw/info", &s->info_r, &s->info);

	if (rc)
		return rc;
	rc = ctl_query(ctl, "/vsw/workers", &s->wk_r, &s->wk);
	if (rc)
		return rc;
	rc = ctl_query(ctl, "/vsw/fdb/stats", &s->fdb_r, &s->fdb);
	if (rc)
		return rc;
	return scrape_ports(ctl, s);
}

void metrics_scrape_free(struct metrics_scrape *s)
{
	json_decref(s->info_r);
	json_decref(s->wk_r);
	json_decref(s->fdb_r);
	for (size_t i = 0; i < s->nports; i++) {
		json_decref(s->port_r[i]);
		json_decref(s->q_r[i]);
	}
	free(s->port_r);
	free(s->port);
	free(s->q_r);
	free(s->q);
	pages_free(&s->list);
}

static void put_key(FILE *f, const char *k)
{
	str_write(f, k, strlen(k));
	fputc(':', f);
}

void metrics_write_json(FILE *f, const struct metrics_scrape *s)
{
	fputc('{', f);
	put_key(f, "info");
	val_write(f, s->info);
	fputc(',', f);
	put_key(f, "workers");
	val_write(f, s->wk);
	fputc(',', f);
	put_key(f, "fdb_stats");
	val_write(f, s->fdb);
	for (int pass = 0; pass < 2; pass++) {
		fprintf(f, ",\"%s\":{", pass ? "queues" : "ports");
		for (size_t i = 0; i < s->nports; i++) {
			if (i > 0)
				fputc(',', f);
			put_key(f, s->list.items[i].key);
			val_write(f, pass ? s->q[i] : s->port[i]);
		}
		fputc('}', f);
	}
	fputs("}\n", f);
}

void metrics_write(FILE *f, const struct metrics_scrape *s)
{
	info_metrics(f, s->info);
	port_metrics(f, s);
	queue_metrics(f, s);
	worker_metrics(f, s->wk);
	fdb_metrics(f, s->fdb);
}
