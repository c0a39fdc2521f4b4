/*
 * Read-only views: workers, queues PORT, fdb-stats (docs/cli.md).
 */
#define _GNU_SOURCE /* asprintf */
#include "vswctl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Query cmd, expecting a dict; --json prints it. 0, or -1 when done. */
static int query_dict(struct ctl *ctl, const char *cmd, struct json **reply,
		      struct json **data, int *rc)
{
	*rc = ctl_query(ctl, cmd, reply, data);
	if (*rc)
		return -1;
	if (ctl->json) {
		*rc = print_json(*reply, *data);
		return -1;
	}
	if ((*data)->type != JSON_OBJECT) {
		json_free(*reply);
		*rc = error("bad reply to '%s': not a dict", cmd);
		return -1;
	}
	return 0;
}

/* ---- workers --------------------------------------------------------- */

/*
 * Split "rxq_<port>_<q>_pct" into port and queue (port names may hold
 * '_', so the queue is the last number); 0 or -1 if key is not one.
 */
int rxq_key(const char *key, char *port, size_t portsz, char **q)
{
	size_t n = strlen(key), plen;
	const char *end, *us;

	if (n < 10 || strncmp(key, "rxq_", 4) != 0 ||
	    strcmp(key + n - 4, "_pct") != 0)
		return -1;
	end = key + n - 4;
	for (us = end - 1; us > key + 4 && *us != '_'; us--)
		;
	plen = (size_t)(us - (key + 4));
	if (*us != '_' || us + 1 == end || plen == 0 || plen >= portsz)
		return -1;
	if (strspn(us + 1, "0123456789") != (size_t)(end - us - 1))
		return -1;
	memcpy(port, key + 4, plen);
	port[plen] = '\0';
	*q = strndup(us + 1, (size_t)(end - us - 1));
	return 0;
}

static void worker_row(struct table *t, const struct json *w)
{
	static const char *const keys[] = {
		"lcore",      "busy_pct",   "cycles_per_packet",
		"rx_packets", "iterations", "sleeps"};
	char *row[7];

	row[0] = xstrdup(strncmp(w->key, "worker", 6) == 0 ? w->key + 6
							   : w->key);
	for (size_t k = 0; k < 6; k++)
		row[1 + k] = cell(w, keys[k]);
	table_add(t, row);
}

static void worker_rxqs(struct table *t, const struct json *w)
{
	char port[PORT_NAME_MAX + 2], *row[4];
	const struct json *m;

	for (m = w->child; m != NULL; m = m->next) {
		if (rxq_key(m->key, port, sizeof(port), &row[2]) < 0)
			continue;
		row[0] = xstrdup(strncmp(w->key, "worker", 6) == 0 ? w->key + 6
								   : w->key);
		row[1] = xstrdup(port);
		row[3] = xasprintf("%s%%", m->str);
		table_add(t, row);
	}
}

int verb_workers(struct ctl *ctl, int argc, char **argv)
{
	static const char *const heads[] = {"WORKER",  "LCORE",	  "BUSY%",
					    "CYC/PKT", "RX-PKTS", "ITERATIONS",
					    "SLEEPS"};
	static const char *const qheads[] = {"WORKER", "PORT", "QUEUE",
					     "SHARE"};
	struct table t = {.ncols = 7, .heads = heads, .align = "lrrrrrr"};
	struct table q = {.ncols = 4, .heads = qheads, .align = "llrr"};
	struct json *reply, *data, *m;
	int rc;

	(void)argc;
	(void)argv;
	if (query_dict(ctl, "/vsw/workers", &reply, &data, &rc) < 0)
		return rc;
	for (m = data->child; m != NULL; m = m->next)
		if (m->type == JSON_OBJECT) {
			worker_row(&t, m);
			worker_rxqs(&q, m);
		}
	table_print(&t);
	if (q.nrows > 0) {
		putchar('\n');
		table_print(&q);
	}
	json_free(reply);
	return EXIT_OK;
}

/* ---- queues ---------------------------------------------------------- */

static void queue_row(struct table *t, const struct json *qd)
{
	static const char *const keys[] = {
		"worker",	    "rx_packets",    "kicks",
		"guest_wants",	    "calls",	     "enqueues",
		"pkts_per_enqueue", "calls_per_pkt", "present"};
	char *row[10];

	row[0] = xstrdup(qd->key[0] == 'q' ? qd->key + 1 : qd->key);
	for (size_t k = 0; k < 9; k++)
		row[1 + k] = cell(qd, keys[k]);
	table_add(t, row);
}

static uint64_t u64_of(const struct json *obj, const char *key)
{
	uint64_t v = 0;

	json_u64(json_get(obj, key), &v);
	return v;
}

/* "1 call per 8.3 packets" (or "no call yet") into buf. */
static void call_rate(char *buf, size_t n, const struct json *qd)
{
	uint64_t calls = u64_of(qd, "calls"), pkts = u64_of(qd, "enqueued");

	if (calls == 0)
		snprintf(buf, n, "no call yet (%" PRIu64 " packets)", pkts);
	else
		snprintf(buf, n, "1 call per %.1f packets",
			 (double)pkts / (double)calls);
}

/* One line: why the guest gets interrupts on this queue, or not. */
static void queue_explain(const struct json *qd)
{
	const struct json *gw = json_get(qd, "guest_wants");
	const char *w = gw && gw->type == JSON_STRING ? gw->str : NULL;
	char rate[80];

	call_rate(rate, sizeof(rate), qd);
	if (w == NULL)
		printf("%s: ethdev queue: no guest, no interrupts\n", qd->key);
	else if (strcmp(w, "-") == 0 || u64_of(qd, "present") == 0)
		printf("%s: no guest connected\n", qd->key);
	else if (strcmp(w, "poll") == 0)
		printf("%s: guest polls (virtio PMD or no interrupt vector): "
		       "vsw sends no interrupts (%" PRIu64 " calls)\n",
		       qd->key, u64_of(qd, "calls"));
	else if (strcmp(w, "interrupt") == 0)
		printf("%s: guest wants interrupts (kernel driver): %s\n",
		       qd->key, rate);
	else if (strcmp(w, "event-idx") == 0)
		printf("%s: event-idx: the guest asks for an interrupt only "
		       "when the used index passes its mark: %s\n",
		       qd->key, rate);
	else if (strcmp(w, "unknown") == 0)
		printf("%s: not known yet whether the guest wants interrupts "
		       "(it has an interrupt fd; nothing sent to it yet)\n",
		       qd->key);
	else
		printf("%s: guest wants '%s': %s\n", qd->key, w, rate);
}

int verb_queues(struct ctl *ctl, int argc, char **argv)
{
	static const char *const heads[] = {
		"Q",	 "WORKER", "RX-PKTS",  "KICKS",	    "GUEST-WANTS",
		"CALLS", "ENQ",	   "PKTS/ENQ", "CALLS/PKT", "PRESENT"};
	struct table t = {.ncols = 10, .heads = heads, .align = "lrrrlrrrrr"};
	struct json *reply, *data, *m;
	char cmd[64];
	int rc;

	(void)argc;
	if (!port_name_ok(argv[0]))
		return usage_error("bad port name '%s'", argv[0]);
	snprintf(cmd, sizeof(cmd), "/vsw/queues,%s", argv[0]);
	if (query_dict(ctl, cmd, &reply, &data, &rc) < 0)
		return rc;
	for (m = data->child; m != NULL; m = m->next)
		if (m->type == JSON_OBJECT)
			queue_row(&t, m);
	table_print(&t);
	if (t.nrows > 0)
		putchar('\n');
	for (m = data->child; m != NULL; m = m->next)
		if (m->type == JSON_OBJECT)
			queue_explain(m);
	json_free(reply);
	return EXIT_OK;
}

/* ---- fdb-stats ------------------------------------------------------- */

int verb_fdb_stats(struct ctl *ctl, int argc, char **argv)
{
	struct table t = {.ncols = 2, .align = kv_align, .gap = " "};
	struct json *reply, *data, *m;
	int rc;

	(void)argc;
	(void)argv;
	if (query_dict(ctl, "/vsw/fdb/stats", &reply, &data, &rc) < 0)
		return rc;
	for (m = data->child; m != NULL; m = m->next)
		kv_add(&t, "", m);
	table_print(&t);
	json_free(reply);
	return EXIT_OK;
}
