/*
 * Read-only views: info, ports, port NAME, fdb, raw, workers, queues
 * PORT, fdb-stats (docs/cli.md).
 */
#define _GNU_SOURCE /* strndup */
#include "config/vsw_iter_hist.h"
#include "vswctl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Query cmd, expecting a dict; --json prints it. 0, or -1 when done. */
static int query_dict(struct ctl *ctl, const char *cmd, json_t **reply,
		      json_t **data, int *rc)
{
	*rc = ctl_query(ctl, cmd, reply, data);
	if (*rc)
		return -1;
	if (ctl->json) {
		*rc = print_json(*reply, *data);
		return -1;
	}
	if (!json_is_object(*data)) {
		json_decref(*reply);
		*rc = error("bad reply to '%s': not a dict", cmd);
		return -1;
	}
	return 0;
}

/* Query cmd, a dict, and print it as a "key: value" list. */
static int kv_query(struct ctl *ctl, const char *cmd)
{
	struct table t = {.ncols = 2, .align = kv_align, .gap = " "};
	json_t *reply, *data, *m;
	const char *key;
	int rc;

	if (query_dict(ctl, cmd, &reply, &data, &rc) < 0)
		return rc;
	json_object_foreach (data, key, m)
		kv_add(&t, "", key, m);
	table_print(&t);
	json_decref(reply);
	return EXIT_OK;
}

int verb_info(struct ctl *ctl, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return kv_query(ctl, "/vsw/info");
}

/* ---- ports ----------------------------------------------------------- */

static void ports_json(const struct pages *pg)
{
	printf("{\"total\":%zu,\"ports\":{", pg->nitems);
	for (size_t i = 0; i < pg->nitems; i++) {
		if (i > 0)
			putchar(',');
		str_write(stdout, pg->items[i].key, strlen(pg->items[i].key));
		putchar(':');
		val_write(stdout, pg->items[i].val);
	}
	printf("}}\n");
}

static void ports_table(const struct pages *pg)
{
	static const char *const heads[] = {"NAME",    "TYPE",	   "STATE",
					    "QUEUES",  "RX-PKTS",  "RX-BYTES",
					    "TX-PKTS", "TX-BYTES", "DROPS"};
	static const char *const keys[] = {
		"state",      "queues",	  "rx_packets", "rx_bytes",
		"tx_packets", "tx_bytes", "drops"};
	struct table t = {.ncols = 9, .heads = heads, .align = "lllrrrrrr"};
	char *row[9];

	for (size_t i = 0; i < pg->nitems; i++) {
		json_t *p = pg->items[i].val;

		row[0] = xstrdup(pg->items[i].key);
		row[1] = cell(p, "type");
		for (size_t k = 0; k < 7; k++)
			row[2 + k] = cell(p, keys[k]);
		table_add(&t, row);
	}
	table_print(&t);
}

int verb_ports(struct ctl *ctl, int argc, char **argv)
{
	struct pages pg = {0};
	int rc = pages_fetch(ctl, "/vsw/ports", &pg);

	(void)argc;
	(void)argv;
	if (rc == 0 && ctl->json)
		ports_json(&pg);
	else if (rc == 0)
		ports_table(&pg);
	pages_free(&pg);
	return rc;
}

/* ---- port NAME ------------------------------------------------------- */

static int is_drop_reason(const char *key)
{
	return strncmp(key, "drop_", 5) == 0;
}

static int is_zero(const json_t *m)
{
	uint64_t v;

	return val_u64(m, &v) == 0 && v == 0;
}

/* The drop_* reasons of a port, indented, non-zero ones first. */
static void port_drop_reasons(struct table *t, json_t *data)
{
	const char *key;
	json_t *m;

	for (int zero = 0; zero <= 1; zero++)
		json_object_foreach (data, key, m)
			if (is_drop_reason(key) && is_zero(m) == zero)
				kv_add(t, "  ", key, m);
}

/* A list of strings as "a b c"; empty: "any" for allowed_*, else "-". */
static void kv_add_words(struct table *t, const char *key, json_t *m)
{
	char *row[2], *s = xstrdup("");
	json_t *e;
	size_t i;

	json_array_foreach (m, i, e) {
		char *v = val_text(e), *n;

		n = xasprintf("%s%s%s", s, s[0] ? " " : "", v);
		free(v);
		free(s);
		s = n;
	}
	row[0] = xasprintf("%s:", key);
	if (s[0] == '\0') {
		free(s);
		s = xstrdup(strncmp(key, "allowed_", 8) == 0 ? "any" : "-");
	}
	row[1] = s;
	table_add(t, row);
}

static void port_list(json_t *data)
{
	struct table t = {.ncols = 2, .align = kv_align, .gap = " "};
	const char *key;
	json_t *m;
	int shown = 0;

	json_object_foreach (data, key, m) {
		if (is_drop_reason(key))
			continue;
		if (json_is_array(m))
			kv_add_words(&t, key, m);
		else
			kv_add(&t, "", key, m);
		if (strcmp(key, "drops") == 0) {
			port_drop_reasons(&t, data);
			shown = 1;
		}
	}
	if (!shown)
		port_drop_reasons(&t, data);
	table_print(&t);
}

/* Query @cmd_base,NAME for port @name (checked first), a dict, as
 * query_dict does. */
static int port_query(struct ctl *ctl, const char *cmd_base, const char *name,
		      json_t **reply, json_t **data, int *rc)
{
	char cmd[64];

	if (!port_name_ok(name)) {
		*rc = usage_error("bad port name '%s' (letters, digits and "
				  "'_', at most %d)",
				  name, PORT_NAME_MAX);
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "%s,%s", cmd_base, name);
	return query_dict(ctl, cmd, reply, data, rc);
}

int verb_port(struct ctl *ctl, int argc, char **argv)
{
	json_t *reply, *data;
	int rc;

	(void)argc;
	if (port_query(ctl, "/vsw/port", argv[0], &reply, &data, &rc) < 0)
		return rc;
	port_list(data);
	json_decref(reply);
	return EXIT_OK;
}

/* ---- vteps ----------------------------------------------------------- */

/* A vxlan port: its scalars, then each object (drops, every remote VTEP)
 * with its members indented. */
int verb_vteps(struct ctl *ctl, int argc, char **argv)
{
	struct table t = {.ncols = 2, .align = kv_align, .gap = " "};
	json_t *reply, *data, *m, *v;
	const char *key, *k2;
	int rc;

	(void)argc;
	if (port_query(ctl, "/vsw/vteps", argv[0], &reply, &data, &rc) < 0)
		return rc;
	json_object_foreach (data, key, m)
		if (!json_is_object(m))
			kv_add(&t, "", key, m);
	json_object_foreach (data, key, m) {
		char *row[2];

		if (!json_is_object(m))
			continue;
		row[0] = xasprintf("%s:", key);
		row[1] = xstrdup("");
		table_add(&t, row);
		json_object_foreach (m, k2, v)
			kv_add(&t, "  ", k2, v);
	}
	table_print(&t);
	json_decref(reply);
	return EXIT_OK;
}

/* ---- fdb ------------------------------------------------------------- */

static void fdb_json(const struct member *items, size_t n)
{
	printf("{\"total\":%zu,\"entries\":[", n);
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			putchar(',');
		val_write(stdout, items[i].val);
	}
	printf("]}\n");
}

/* A true or non-zero value (fdb "static" is 0/1 today). */
static int is_true(const json_t *m)
{
	return json_is_true(m) ||
	       (json_is_number(m) && json_number_value(m) != 0);
}

static void fdb_table(const struct member *items, size_t n)
{
	static const char *const heads[] = {"MAC", "VLAN", "PORT", "AGE",
					    "TYPE"};
	struct table t = {.ncols = 5, .heads = heads, .align = "lrlrl"};
	char *row[5];

	for (size_t i = 0; i < n; i++) {
		json_t *e = items[i].val;
		int is_static = is_true(json_object_get(e, "static"));

		row[0] = cell(e, "mac");
		row[1] = cell(e, "vlan");
		row[2] = cell(e, "port");
		if (str_of(e, "endpoint") != NULL) { /* vxlan: PORT@VTEP */
			char *pe = xasprintf("%s@%s", row[2],
					     str_of(e, "endpoint"));

			free(row[2]);
			row[2] = pe;
		}
		row[3] = is_static ? xstrdup("-") : cell(e, "age_s");
		row[4] = xstrdup(is_static ? "static" : "dynamic");
		table_add(&t, row);
	}
	table_print(&t);
}

/* Keep only the entries whose port is name (in place); new count. */
static size_t fdb_filter(struct member *items, size_t n, const char *name)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		const char *p = str_of(items[i].val, "port");

		if (p != NULL && strcmp(p, name) == 0)
			items[kept++] = items[i];
	}
	return kept;
}

int verb_fdb(struct ctl *ctl, int argc, char **argv)
{
	struct pages pg = {0};
	const char *port = NULL;
	int rc;

	if (argc == 1 || (argc == 2 && strcmp(argv[0], "--port") != 0))
		return usage_error("'fdb' expects no argument or --port NAME");
	if (argc == 2) {
		port = argv[1];
		if (!port_name_ok(port))
			return usage_error("bad port name '%s'", port);
	}
	rc = pages_fetch(ctl, "/vsw/fdb", &pg);
	if (rc == 0 && port != NULL)
		pg.nitems = fdb_filter(pg.items, pg.nitems, port);
	if (rc == 0 && ctl->json)
		fdb_json(pg.items, pg.nitems);
	else if (rc == 0)
		fdb_table(pg.items, pg.nitems);
	pages_free(&pg);
	return rc;
}

/* ---- raw ------------------------------------------------------------- */

/*
 * Print each reply verbatim, one line per command, all on one connection
 * (nothing but the commands themselves happens between them); still exit
 * 1 when vsw reports an error for any of them.
 */
int verb_raw(struct ctl *ctl, int argc, char **argv)
{
	json_t *reply;
	int rc, worst = 0;

	for (int i = 0; i < argc; i++)
		if (argv[i][0] == '\0')
			return usage_error("'raw' expects command strings");
	for (int i = 0; i < argc; i++) {
		rc = ctl_request(ctl, argv[i], &reply);
		if (rc)
			return rc;
		fwrite(ctl->buf, 1, strnlen(ctl->buf, ctl->replylen), stdout);
		putchar('\n');
		rc = reply_error(argv[i], reply_data(reply));
		json_decref(reply);
		worst = rc > worst ? rc : worst;
	}
	fflush(stdout);
	return worst;
}

/* ---- workers --------------------------------------------------------- */

static void worker_row(struct table *t, const char *name, json_t *w)
{
	static const char *const keys[] = {
		"lcore",      "busy_pct",   "cycles_per_packet",
		"rx_packets", "iterations", "sleeps"};
	char *row[7];

	row[0] = xstrdup(worker_id(name));
	for (size_t k = 0; k < 6; k++)
		row[1 + k] = cell(w, keys[k]);
	table_add(t, row);
}

static void worker_rxqs(struct table *t, const char *name, json_t *w)
{
	char port[PORT_NAME_MAX + 2], *row[4], *v;
	const char *key;
	json_t *m;

	json_object_foreach (w, key, m) {
		if (rxq_key(key, port, sizeof(port), &row[2]) < 0)
			continue;
		row[0] = xstrdup(worker_id(name));
		row[1] = xstrdup(port);
		v = val_text(m);
		row[3] = xasprintf("%s%%", v);
		free(v);
		table_add(t, row);
	}
}

static int dur_unit(uint64_t us)
{
	return us < 1000 ? 0 : us < 1000000 ? 1 : 2;
}

/* A duration in us as a person reads it: "512us", "4.1ms", "1.05s"; in
 * @unit (0 us, 1 ms, 2 s), or its own when @unit is -1. */
static void dur_text(char *buf, size_t len, uint64_t us, int unit)
{
	static const char *const names[] = {"us", "ms", "s"};
	static const double div[] = {1, 1e3, 1e6};

	if (unit < 0)
		unit = dur_unit(us);
	snprintf(buf, len, "%.3g%s", (double)us / div[unit], names[unit]);
}

/* Bucket k as "<1us", "1-2us", "512us-1.02ms", "4.1-8.19ms", ">=1.05s". */
static void bucket_text(char *buf, size_t len, unsigned int k)
{
	uint64_t lo = vsw_iter_bucket_lo(k), hi = vsw_iter_bucket_hi(k);
	char a[16], b[16];

	dur_text(b, sizeof(b), hi ? hi : lo, -1);
	if (k == 0) {
		snprintf(buf, len, "<%s", b);
	} else if (hi == 0) {
		snprintf(buf, len, ">=%s", b);
	} else if (dur_unit(lo) == dur_unit(hi)) {
		dur_text(a, sizeof(a), lo, dur_unit(hi));
		a[strcspn(a, "mus")] = '\0'; /* the unit once, after hi */
		snprintf(buf, len, "%s-%s", a, b);
	} else {
		dur_text(a, sizeof(a), lo, -1);
		snprintf(buf, len, "%s-%s", a, b);
	}
}

/*
 * "worker 0: longest 6.21ms (16146000 cycles) of 1234: <1us 1200, ..."
 * from the iter_* members (since the last stats-clear; a bucket without
 * iterations is not in the reply), under a heading before the first.
 */
static void worker_iters(const char *name, json_t *w, int *shown)
{
	uint64_t n = u64_of(w, "iter_count");
	char key[48], text[32];

	if (json_object_get(w, "iter_count") == NULL)
		return; /* a vsw without the histogram */
	if (!(*shown)++)
		printf("\niteration lengths since the last stats-clear:\n");
	printf("worker %s: ", worker_id(name));
	if (n == 0) {
		printf("no iteration since the last stats-clear\n");
		return;
	}
	dur_text(text, sizeof(text), u64_of(w, "iter_max_us"), -1);
	printf("longest %s (%" PRIu64 " cycles) of %" PRIu64 ":", text,
	       u64_of(w, "iter_max_cycles"), n);
	for (unsigned int k = 0, first = 1; k < VSW_ITER_BUCKETS; k++) {
		uint64_t c;

		vsw_iter_bucket_key(k, key, sizeof(key));
		if ((c = u64_of(w, key)) == 0)
			continue;
		bucket_text(text, sizeof(text), k);
		printf("%s %s %" PRIu64, first ? "" : ",", text, c);
		first = 0;
	}
	putchar('\n');
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
	json_t *reply, *data, *m;
	const char *key;
	int rc, shown = 0;

	(void)argc;
	(void)argv;
	if (query_dict(ctl, "/vsw/workers", &reply, &data, &rc) < 0)
		return rc;
	json_object_foreach (data, key, m)
		if (json_is_object(m)) {
			worker_row(&t, key, m);
			worker_rxqs(&q, key, m);
		}
	table_print(&t);
	if (q.nrows > 0) {
		putchar('\n');
		table_print(&q);
	}
	json_object_foreach (data, key, m)
		if (json_is_object(m))
			worker_iters(key, m, &shown);
	json_decref(reply);
	return EXIT_OK;
}

/* ---- queues ---------------------------------------------------------- */

static void queue_row(struct table *t, const char *name, json_t *qd)
{
	static const char *const keys[] = {
		"worker",	    "rx_packets",    "kicks",
		"guest_wants",	    "calls",	     "enqueues",
		"pkts_per_enqueue", "calls_per_pkt", "present"};
	char *row[10];

	row[0] = xstrdup(name[0] == 'q' ? name + 1 : name);
	for (size_t k = 0; k < 9; k++)
		row[1 + k] = cell(qd, keys[k]);
	table_add(t, row);
}

/* "1 call per 8.3 packets" (or "no call yet") into buf. */
static void call_rate(char *buf, size_t n, const json_t *qd)
{
	uint64_t calls = u64_of(qd, "calls"), pkts = u64_of(qd, "enqueued");

	if (calls == 0)
		snprintf(buf, n, "no call yet (%" PRIu64 " packets)", pkts);
	else
		snprintf(buf, n, "1 call per %.1f packets",
			 (double)pkts / (double)calls);
}

/* One line: why the guest gets interrupts on this queue, or not. */
static void queue_explain(const char *q, const json_t *qd)
{
	const char *w = str_of(qd, "guest_wants");
	char rate[80];

	call_rate(rate, sizeof(rate), qd);
	if (w == NULL)
		printf("%s: ethdev queue: no guest, no interrupts\n", q);
	else if (strcmp(w, "-") == 0 || u64_of(qd, "present") == 0)
		printf("%s: no guest connected\n", q);
	else if (json_object_get(qd, "tx_enabled") != NULL &&
		 u64_of(qd, "tx_enabled") == 0 && strcmp(q, "q0") == 0)
		printf("%s: the guest has not enabled this queue pair's rx "
		       "ring: its frames go to the lowest pair whose rx ring "
		       "is enabled; with none, they wait or are dropped "
		       "(drop_tx_full)\n",
		       q);
	else if (json_object_get(qd, "tx_enabled") != NULL &&
		 u64_of(qd, "tx_enabled") == 0)
		printf("%s: the guest disabled this queue pair (fewer queues "
		       "in use, e.g. ethtool -L): vsw sends nothing into it, "
		       "its frames go to the pairs in use\n",
		       q);
	else if (strcmp(w, "poll") == 0)
		printf("%s: guest polls (virtio PMD or no interrupt vector): "
		       "vsw sends no interrupts (%" PRIu64 " calls)\n",
		       q, u64_of(qd, "calls"));
	else if (strcmp(w, "interrupt") == 0)
		printf("%s: guest wants interrupts (kernel driver): %s\n", q,
		       rate);
	else if (strcmp(w, "event-idx") == 0)
		printf("%s: event-idx: the guest asks for an interrupt only "
		       "when the used index passes its mark: %s\n",
		       q, rate);
	else if (strcmp(w, "unknown") == 0)
		printf("%s: not known yet whether the guest wants interrupts "
		       "(it has an interrupt fd; nothing sent to it yet)\n",
		       q);
	else
		printf("%s: guest wants '%s': %s\n", q, w, rate);
}

int verb_queues(struct ctl *ctl, int argc, char **argv)
{
	static const char *const heads[] = {
		"Q",	 "WORKER", "RX-PKTS",  "KICKS",	    "GUEST-WANTS",
		"CALLS", "ENQ",	   "PKTS/ENQ", "CALLS/PKT", "PRESENT"};
	struct table t = {.ncols = 10, .heads = heads, .align = "lrrrlrrrrr"};
	json_t *reply, *data, *m;
	const char *key;
	char cmd[64];
	int rc;

	(void)argc;
	if (!port_name_ok(argv[0]))
		return usage_error("bad port name '%s'", argv[0]);
	snprintf(cmd, sizeof(cmd), "/vsw/queues,%s", argv[0]);
	if (query_dict(ctl, cmd, &reply, &data, &rc) < 0)
		return rc;
	json_object_foreach (data, key, m)
		if (json_is_object(m))
			queue_row(&t, key, m);
	table_print(&t);
	if (t.nrows > 0)
		putchar('\n');
	json_object_foreach (data, key, m)
		if (json_is_object(m))
			queue_explain(key, m);
	json_decref(reply);
	return EXIT_OK;
}

/* ---- fdb-stats ------------------------------------------------------- */

int verb_fdb_stats(struct ctl *ctl, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return kv_query(ctl, "/vsw/fdb/stats");
}
