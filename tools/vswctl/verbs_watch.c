/*
 * watch: per-port and per-worker rates, refreshed every interval, from
 * the deltas of two samples of /vsw/ports (every page) and /vsw/workers.
 */
#define _GNU_SOURCE /* strndup */
#include "vswctl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct port_snap {
	char name[PORT_NAME_MAX + 1];
	char state[16];
	uint64_t rxp, rxb, txp, txb, drops;
};

struct worker_snap {
	char name[16]; /* index, from "workerN" */
	uint64_t lcore, busy, idle, rx;
};

struct snap {
	double t; /* CLOCK_MONOTONIC seconds */
	struct port_snap *ports;
	size_t nports;
	struct worker_snap *workers;
	size_t nworkers;
};

static void snap_port(struct port_snap *p, const struct member *m)
{
	const char *st = str_of(m->val, "state");

	snprintf(p->name, sizeof(p->name), "%s", m->key);
	snprintf(p->state, sizeof(p->state), "%s", st ? st : "-");
	p->rxp = u64_of(m->val, "rx_packets");
	p->rxb = u64_of(m->val, "rx_bytes");
	p->txp = u64_of(m->val, "tx_packets");
	p->txb = u64_of(m->val, "tx_bytes");
	p->drops = u64_of(m->val, "drops");
}

static int snap_workers(struct ctl *ctl, struct snap *s)
{
	json_t *reply, *data, *m;
	const char *key;
	int rc = ctl_query(ctl, "/vsw/workers", &reply, &data);

	if (rc)
		return rc;
	s->workers = calloc(json_object_size(data) + 1, sizeof(*s->workers));
	json_object_foreach (data, key, m) {
		struct worker_snap *w = &s->workers[s->nworkers];

		if (!json_is_object(m))
			continue;
		snprintf(w->name, sizeof(w->name), "%s", worker_id(key));
		w->lcore = u64_of(m, "lcore");
		w->busy = u64_of(m, "busy_cycles");
		w->idle = u64_of(m, "idle_cycles");
		w->rx = u64_of(m, "rx_packets");
		s->nworkers++;
	}
	json_decref(reply);
	return 0;
}

static int snap_take(struct ctl *ctl, struct snap *s)
{
	struct pages pg = {0};
	int rc = pages_fetch(ctl, "/vsw/ports", &pg);

	memset(s, 0, sizeof(*s));
	if (rc == 0) {
		s->ports = calloc(pg.nitems + 1, sizeof(*s->ports));
		for (size_t i = 0; i < pg.nitems; i++)
			snap_port(&s->ports[s->nports++], &pg.items[i]);
	}
	pages_free(&pg);
	if (rc == 0)
		rc = snap_workers(ctl, s);
	s->t = mono_now();
	return rc;
}

static void snap_free(struct snap *s)
{
	free(s->ports);
	free(s->workers);
	memset(s, 0, sizeof(*s));
}

/* ---- rates ----------------------------------------------------------- */

struct port_rate {
	double rx_mpps, rx_mbps, tx_mpps, tx_mbps, drops_ps;
	int known; /* the port was in the previous sample too */
};

struct worker_rate {
	double busy_pct, cyc_pkt, rx_mpps;
	int known;
};

static double delta(uint64_t now_v, uint64_t prev)
{
	return now_v >= prev ? (double)(now_v - prev) : 0; /* cleared */
}

static struct port_rate port_rate(const struct snap *prev,
				  const struct port_snap *p, double dt)
{
	struct port_rate r = {0};

	for (size_t i = 0; i < prev->nports; i++) {
		const struct port_snap *o = &prev->ports[i];

		if (strcmp(o->name, p->name) != 0)
			continue;
		r.rx_mpps = delta(p->rxp, o->rxp) / dt / 1e6;
		r.rx_mbps = delta(p->rxb, o->rxb) * 8 / dt / 1e6;
		r.tx_mpps = delta(p->txp, o->txp) / dt / 1e6;
		r.tx_mbps = delta(p->txb, o->txb) * 8 / dt / 1e6;
		r.drops_ps = delta(p->drops, o->drops) / dt;
		r.known = 1;
	}
	return r;
}

static struct worker_rate worker_rate(const struct snap *prev,
				      const struct worker_snap *w, double dt)
{
	struct worker_rate r = {0};

	for (size_t i = 0; i < prev->nworkers; i++) {
		const struct worker_snap *o = &prev->workers[i];
		double busy = delta(w->busy, o->busy);
		double all = busy + delta(w->idle, o->idle);
		double rx = delta(w->rx, o->rx);

		if (strcmp(o->name, w->name) != 0)
			continue;
		r.busy_pct = all > 0 ? busy * 100 / all : 0;
		r.cyc_pkt = rx > 0 ? busy / rx : 0;
		r.rx_mpps = rx / dt / 1e6;
		r.known = 1;
	}
	return r;
}

/* ---- output ---------------------------------------------------------- */

static char *num(int known, const char *fmt, double v)
{
	return known ? xasprintf(fmt, v) : xstrdup("-");
}

static void print_ports(const struct snap *prev, const struct snap *cur,
			double dt)
{
	static const char *const heads[] = {"PORT",	 "STATE",   "RX-MPPS",
					    "RX-MBIT/S", "TX-MPPS", "TX-MBIT/S",
					    "DROPS/S"};
	struct table t = {.ncols = 7, .heads = heads, .align = "llrrrrr"};
	char *row[7];

	for (size_t i = 0; i < cur->nports; i++) {
		const struct port_snap *p = &cur->ports[i];
		struct port_rate r = port_rate(prev, p, dt);

		row[0] = xstrdup(p->name);
		row[1] = xstrdup(p->state);
		row[2] = num(r.known, "%.3f", r.rx_mpps);
		row[3] = num(r.known, "%.1f", r.rx_mbps);
		row[4] = num(r.known, "%.3f", r.tx_mpps);
		row[5] = num(r.known, "%.1f", r.tx_mbps);
		row[6] = num(r.known, "%.0f", r.drops_ps);
		table_add(&t, row);
	}
	table_print(&t);
}

static void print_workers(const struct snap *prev, const struct snap *cur,
			  double dt)
{
	static const char *const heads[] = {"WORKER", "LCORE", "BUSY%",
					    "CYC/PKT", "RX-MPPS"};
	struct table t = {.ncols = 5, .heads = heads, .align = "lrrrr"};
	char *row[5];

	for (size_t i = 0; i < cur->nworkers; i++) {
		const struct worker_snap *w = &cur->workers[i];
		struct worker_rate r = worker_rate(prev, w, dt);

		row[0] = xstrdup(w->name);
		row[1] = xasprintf("%" PRIu64, w->lcore);
		row[2] = num(r.known, "%.1f", r.busy_pct);
		row[3] = num(r.known, "%.0f", r.cyc_pkt);
		row[4] = num(r.known, "%.3f", r.rx_mpps);
		table_add(&t, row);
	}
	table_print(&t);
}

static void print_block(const struct snap *prev, const struct snap *cur, int n,
			int tty)
{
	double dt = cur->t - prev->t;
	time_t wall = time(NULL);
	char ts[32];

	strftime(ts, sizeof(ts), "%F %T", localtime(&wall));
	if (tty)
		fputs("\033[H\033[2J", stdout);
	else if (n > 1)
		putchar('\n');
	printf("vsw %s  interval %.2f s  refresh %d\n", ts, dt, n);
	print_ports(prev, cur, dt);
	putchar('\n');
	print_workers(prev, cur, dt);
}

/* "name": (a JSON string: names come from vsw, unchecked) */
static void put_key(const char *sep, const char *name)
{
	fputs(sep, stdout);
	str_write(stdout, name, strlen(name));
	putchar(':');
}

static void json_block(const struct snap *prev, const struct snap *cur, int n)
{
	double dt = cur->t - prev->t;

	printf("{\"refresh\":%d,\"time\":%lld,\"interval_s\":%.3f,"
	       "\"ports\":{",
	       n, (long long)time(NULL), dt);
	for (size_t i = 0; i < cur->nports; i++) {
		struct port_rate r = port_rate(prev, &cur->ports[i], dt);

		put_key(i ? "," : "", cur->ports[i].name);
		fputs("{\"state\":", stdout);
		str_write(stdout, cur->ports[i].state,
			  strlen(cur->ports[i].state));
		printf(",\"rx_mpps\":%.6f,\"rx_mbps\":%.3f,\"tx_mpps\":%.6f,"
		       "\"tx_mbps\":%.3f,\"drops_per_s\":%.1f}",
		       r.rx_mpps, r.rx_mbps, r.tx_mpps, r.tx_mbps, r.drops_ps);
	}
	printf("},\"workers\":{");
	for (size_t i = 0; i < cur->nworkers; i++) {
		const struct worker_snap *w = &cur->workers[i];
		struct worker_rate r = worker_rate(prev, w, dt);

		put_key(i ? "," : "", w->name);
		printf("{\"lcore\":%" PRIu64 ",\"busy_pct\":%.2f,"
		       "\"cycles_per_packet\":%.1f,\"rx_mpps\":%.6f}",
		       w->lcore, r.busy_pct, r.cyc_pkt, r.rx_mpps);
	}
	printf("}}\n");
}

/* ---- verb ------------------------------------------------------------ */

static int watch_opts(int argc, char **argv, double *interval, long *count)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *v = strchr(a, '=');
		char *end;

		if (strncmp(a, "--interval", 10) != 0 &&
		    strncmp(a, "--count", 7) != 0)
			return usage_error("'watch': expected [--interval "
					   "SEC] [--count N], got '%s'",
					   a);
		if (v == NULL && i + 1 < argc)
			v = argv[++i];
		else if (v != NULL)
			v++;
		if (v == NULL)
			return usage_error("'watch': '%s' expects a value", a);
		if (strncmp(a, "--interval", 10) == 0) {
			*interval = strtod(v, &end);
			if (*end || end == v || !(*interval >= 0.05) ||
			    *interval > 3600)
				return usage_error("'watch': --interval "
						   "expects seconds in "
						   "0.05..3600, got '%s'",
						   v);
		} else if (parse_int(v, 1, 1000000000, count) < 0) {
			return usage_error("'watch': --count expects an "
					   "integer >= 1, got '%s'",
					   v);
		}
	}
	return 0;
}

static void sleep_s(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int watch_run(struct ctl *ctl, double interval, long count)
{
	struct snap prev, cur;
	int tty = isatty(STDOUT_FILENO), rc = snap_take(ctl, &prev);

	if (rc) {
		snap_free(&prev);
		return rc;
	}
	for (long n = 1; count == 0 || n <= count; n++) {
		sleep_s(interval - (mono_now() - prev.t));
		if ((rc = snap_take(ctl, &cur)) != 0) {
			snap_free(&cur);
			break;
		}
		if (ctl->json)
			json_block(&prev, &cur, (int)n);
		else
			print_block(&prev, &cur, (int)n, tty);
		fflush(stdout);
		snap_free(&prev);
		prev = cur;
	}
	snap_free(&prev);
	return rc;
}

int verb_watch(struct ctl *ctl, int argc, char **argv)
{
	double interval = 1;
	long count = 0; /* 0: until interrupted */
	int rc = watch_opts(argc, argv, &interval, &count);

	return rc ? rc : watch_run(ctl, interval, count);
}
