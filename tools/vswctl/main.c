/*
 * vswctl: command-line client of vsw's runtime interface.
 *
 * Speaks the DPDK telemetry v2 protocol (docs/telemetry.md) on the
 * SOCK_SEQPACKET socket /var/run/dpdk/<file-prefix>/dpdk_telemetry.v2:
 * one JSON greeting on connect, then one JSON reply {"<cmd>": data} per
 * command string sent. Each verb of the CLI (table `verbs` below) turns
 * one or more commands into a human table or key: value list, or with
 * --json into one line of JSON. Plain C, libc only; docs/cli.md is the
 * user reference.
 */
#define _GNU_SOURCE /* asprintf, open_memstream, strndup */
#include "vswctl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_PREFIX "vsw"
#define RUNTIME_DIR "/var/run/dpdk"
#define SOCKET_NAME "dpdk_telemetry.v2"
#define MIN_REPLY_BUF 16384
#define FDB_PAGE 100
#define MAX_PAGES 100000

struct verb {
	const char *name;
	int min_args;
	int max_args; /* -1: no limit */
	const char *args;
	const char *help;
	int (*fn)(struct ctl *ctl, int argc, char **argv);
};

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("vswctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'vswctl help'.\n", stderr);
	return EXIT_USAGE;
}

int error(const char *fmt, ...)
{
	va_list ap;

	fputs("vswctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ERR;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (p == NULL) {
		perror("vswctl: realloc");
		exit(EXIT_ERR);
	}
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		perror("vswctl: asprintf");
		exit(EXIT_ERR);
	}
	return s;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (d == NULL) {
		perror("vswctl: strdup");
		exit(EXIT_ERR);
	}
	return d;
}

int parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (s[0] == '\0' || s[strspn(s, "0123456789")] != '\0')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* ---- socket ---------------------------------------------------------- */

static int ctl_set_timeouts(struct ctl *ctl)
{
	struct timeval tv;

	tv.tv_sec = (time_t)ctl->timeout;
	tv.tv_usec = (suseconds_t)((ctl->timeout - (double)tv.tv_sec) * 1e6);
	if (setsockopt(ctl->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(ctl->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return error("setsockopt: %s", strerror(errno));
	return 0;
}

/* Receive one message into ctl->buf; 0 or an exit code. */
static int ctl_recv(struct ctl *ctl, const char *what)
{
	struct iovec iov = {ctl->buf, ctl->bufsz - 1};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	ssize_t n = recvmsg(ctl->fd, &msg, 0);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return error("no %s from %s within %g s", what, ctl->path,
			     ctl->timeout);
	if (n < 0)
		return error("reading %s from %s: %s", what, ctl->path,
			     strerror(errno));
	if (n == 0 && ctl->quiet_close)
		return -1;
	if (n == 0)
		return error("%s closed the connection (too many clients?)",
			     ctl->path);
	if (msg.msg_flags & MSG_TRUNC)
		return error("%s from %s exceeds %zu bytes", what, ctl->path,
			     ctl->bufsz - 1);
	ctl->buf[n] = '\0';
	ctl->replylen = (size_t)n;
	return 0;
}

/* Read the greeting; grow the buffer to the server's max_output_len. */
static int ctl_greeting(struct ctl *ctl)
{
	struct json *g;
	uint64_t max = 0;
	char err[160];
	int rc = ctl_recv(ctl, "greeting");

	if (rc)
		return rc;
	g = json_parse(ctl->buf, ctl->replylen, err, sizeof(err));
	if (g == NULL)
		return error("bad greeting from %s: %s", ctl->path, err);
	if (json_u64(json_get(g, "max_output_len"), &max) == 0 &&
	    max >= ctl->bufsz && max < (1u << 30)) {
		ctl->bufsz = (size_t)max + 1;
		ctl->buf = xrealloc(ctl->buf, ctl->bufsz);
	}
	json_free(g);
	return 0;
}

static int ctl_connect_once(struct ctl *ctl)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int rc;

	ctl->fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (ctl->fd < 0)
		return error("socket: %s", strerror(errno));
	rc = ctl_set_timeouts(ctl);
	if (rc)
		return rc;
	memcpy(sa.sun_path, ctl->path, sizeof(sa.sun_path));
	if (connect(ctl->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (ctl->prefix != NULL)
			return error("cannot connect to %s: %s; is vsw "
				     "running with --file-prefix %s?",
				     ctl->path, strerror(errno), ctl->prefix);
		return error("cannot connect to %s: %s; is vsw running?",
			     ctl->path, strerror(errno));
	}
	ctl->bufsz = MIN_REPLY_BUF * 4;
	ctl->buf = xrealloc(ctl->buf, ctl->bufsz);
	return ctl_greeting(ctl);
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Connect and read the greeting. DPDK telemetry closes new connections
 * at once while its client limit is reached: retry those, with a short
 * randomised pause, until the timeout.
 */
static int ctl_connect(struct ctl *ctl)
{
	double end = mono_now() + ctl->timeout;
	int rc;

	srand((unsigned)getpid());
	for (;;) {
		ctl->quiet_close = mono_now() < end;
		rc = ctl_connect_once(ctl);
		ctl->quiet_close = 0;
		if (rc >= 0)
			return rc;
		close(ctl->fd);
		ctl->fd = -1;
		usleep(10000 + (useconds_t)(rand() % 40000));
	}
}

/* Send cmd and parse the reply into *reply; 0 or an exit code. */
static int ctl_request(struct ctl *ctl, const char *cmd, struct json **reply)
{
	char err[160];
	int rc;

	if (ctl->fd < 0 && (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (send(ctl->fd, cmd, strlen(cmd), MSG_NOSIGNAL) < 0)
		return error("sending '%s' to %s: %s", cmd, ctl->path,
			     strerror(errno));
	rc = ctl_recv(ctl, "reply");
	if (rc)
		return rc;
	*reply = json_parse(ctl->buf, ctl->replylen, err, sizeof(err));
	if (*reply == NULL)
		return error("bad reply to '%s': %s", cmd, err);
	if ((*reply)->type != JSON_OBJECT || json_count(*reply) != 1) {
		json_free(*reply);
		*reply = NULL;
		return error("bad reply to '%s': not {\"<cmd>\": data}", cmd);
	}
	return 0;
}

/*
 * vsw's error text: "error", continued in "error_2", "error_3"... since a
 * telemetry string holds 127 characters. Exit 1 with it.
 */
static int vsw_error(const struct json *data)
{
	char buf[1024] = "", key[24];
	const struct json *e = json_get(data, "error");

	for (int i = 2; e != NULL && e->type == JSON_STRING; i++) {
		strncat(buf, e->str, sizeof(buf) - strlen(buf) - 1);
		snprintf(key, sizeof(key), "error_%d", i);
		e = json_get(data, key);
	}
	return error("vsw: %s", buf[0] ? buf : "error");
}

/*
 * Send cmd; on success *data is the reply's data (owned by *reply).
 * A null data or a dict with an "error" key is an error reported by vsw.
 */
int ctl_query(struct ctl *ctl, const char *cmd, struct json **reply,
	      struct json **data)
{
	int rc = ctl_request(ctl, cmd, reply);

	if (rc)
		return rc;
	*data = (*reply)->child;
	if ((*data)->type == JSON_NULL)
		rc = error("vsw: '%s' failed (unknown command or bad "
			   "parameters)",
			   cmd);
	else if (json_get(*data, "error") != NULL)
		rc = vsw_error(*data);
	if (rc) {
		json_free(*reply);
		*reply = NULL;
		*data = NULL;
	}
	return rc;
}

/* ---- multi-page listings --------------------------------------------- */

static void pages_add_items(struct pages *pg, const struct json *data)
{
	struct json *m;

	for (m = data->child; m != NULL; m = m->next) {
		if (m->type != JSON_OBJECT)
			continue; /* total, offset, next_offset */
		if (pg->nitems == pg->cap) {
			pg->cap = pg->cap ? pg->cap * 2 : 64;
			pg->items = xrealloc(pg->items,
					     pg->cap * sizeof(*pg->items));
		}
		pg->items[pg->nitems++] = m;
	}
}

/* Fetch base,OFFSET,count for every page until next_offset is 0. */
int pages_fetch(struct ctl *ctl, const char *base, unsigned count,
		struct pages *pg)
{
	uint64_t off = 0, next;
	struct json *reply, *data;
	char cmd[128];
	int rc;

	for (size_t i = 0; i < MAX_PAGES; i++) {
		snprintf(cmd, sizeof(cmd), "%s,%" PRIu64 ",%u", base, off,
			 count);
		rc = ctl_query(ctl, cmd, &reply, &data);
		if (rc)
			return rc;
		pg->trees = xrealloc(pg->trees,
				     (pg->ntrees + 1) * sizeof(*pg->trees));
		pg->trees[pg->ntrees++] = reply;
		if (data->type != JSON_OBJECT ||
		    json_u64(json_get(data, "next_offset"), &next) < 0)
			return error("bad reply to '%s': no next_offset", cmd);
		pages_add_items(pg, data);
		if (next == 0)
			return 0;
		if (next <= off)
			return error("bad reply to '%s': next_offset %" PRIu64
				     " does not advance",
				     cmd, next);
		off = next;
	}
	return error("%s: more than %d pages", base, MAX_PAGES);
}

void pages_free(struct pages *pg)
{
	for (size_t i = 0; i < pg->ntrees; i++)
		json_free(pg->trees[i]);
	free(pg->trees);
	free(pg->items);
}

/* ---- tables ---------------------------------------------------------- */

/* Append a row, taking ownership of the ncols malloc'd strings. */
void table_add(struct table *t, char **row)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->cells = xrealloc(t->cells,
				    t->cap * t->ncols * sizeof(*t->cells));
	}
	memcpy(&t->cells[t->nrows * t->ncols], row, t->ncols * sizeof(*row));
	t->nrows++;
}

static void table_line(const struct table *t, const char *const *row,
		       const int *width)
{
	for (size_t c = 0; c < t->ncols; c++) {
		int last = c + 1 == t->ncols;
		const char *sep = last ? "\n" : t->gap ? t->gap : "  ";

		if (t->align[c] == 'r')
			printf("%*s%s", width[c], row[c], sep);
		else if (last)
			printf("%s%s", row[c], sep);
		else
			printf("%-*s%s", width[c], row[c], sep);
	}
}

void table_print(struct table *t)
{
	int *width = calloc(t->ncols, sizeof(*width));
	size_t r, c;

	for (c = 0; c < t->ncols && t->heads != NULL; c++)
		width[c] = (int)strlen(t->heads[c]);
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			int n = (int)strlen(t->cells[r * t->ncols + c]);

			width[c] = n > width[c] ? n : width[c];
		}
	if (t->heads != NULL)
		table_line(t, t->heads, width);
	for (r = 0; r < t->nrows; r++)
		table_line(t, (const char *const *)&t->cells[r * t->ncols],
			   width);
	for (r = 0; r < t->nrows * t->ncols; r++)
		free(t->cells[r]);
	free(t->cells);
	free(width);
}

/* Value of member key of obj for a table cell ("-" if absent or ""). */
char *cell(const struct json *obj, const char *key)
{
	const struct json *v = key ? json_get(obj, key) : obj;

	if (v == NULL || (v->type == JSON_STRING && v->len == 0))
		return xstrdup("-");
	return json_text(v);
}

/* Add "label:" / value to a two-column key: value list. */
void kv_add(struct table *t, const char *indent, const struct json *m)
{
	char *row[2];

	if (asprintf(&row[0], "%s%s:", indent, m->key) < 0) {
		perror("vswctl: asprintf");
		exit(EXIT_ERR);
	}
	row[1] = cell(m, NULL);
	table_add(t, row);
}

const char kv_align[] = "ll";

/* ---- verbs ----------------------------------------------------------- */

int print_json(struct json *reply, const struct json *data)
{
	json_write(stdout, data);
	putchar('\n');
	json_free(reply);
	return EXIT_OK;
}

static int verb_info(struct ctl *ctl, int argc, char **argv)
{
	struct table t = {.ncols = 2, .align = kv_align, .gap = " "};
	struct json *reply, *data, *m;
	int rc = ctl_query(ctl, "/vsw/info", &reply, &data);

	(void)argc;
	(void)argv;
	if (rc)
		return rc;
	if (ctl->json)
		return print_json(reply, data);
	if (data->type != JSON_OBJECT) {
		json_free(reply);
		return error("bad reply to '/vsw/info': not a dict");
	}
	for (m = data->child; m != NULL; m = m->next)
		kv_add(&t, "", m);
	table_print(&t);
	json_free(reply);
	return EXIT_OK;
}

static void ports_json(const struct pages *pg)
{
	printf("{\"total\":%zu,\"ports\":{", pg->nitems);
	for (size_t i = 0; i < pg->nitems; i++) {
		if (i > 0)
			putchar(',');
		json_write(stdout,
			   &(struct json){.type = JSON_STRING,
					  .str = pg->items[i]->key,
					  .len = strlen(pg->items[i]->key)});
		putchar(':');
		json_write(stdout, pg->items[i]);
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
		const struct json *p = pg->items[i];

		row[0] = xstrdup(p->key);
		row[1] = cell(p, "type");
		for (size_t k = 0; k < 7; k++)
			row[2 + k] = cell(p, keys[k]);
		table_add(&t, row);
	}
	table_print(&t);
}

static int verb_ports(struct ctl *ctl, int argc, char **argv)
{
	struct pages pg = {0};
	int rc = pages_fetch(ctl, "/vsw/ports", PORTS_PAGE, &pg);

	(void)argc;
	(void)argv;
	if (rc == 0 && ctl->json)
		ports_json(&pg);
	else if (rc == 0)
		ports_table(&pg);
	pages_free(&pg);
	return rc;
}

int port_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > PORT_NAME_MAX)
		return 0;
	return strspn(name, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

static int is_drop_reason(const struct json *m)
{
	return strncmp(m->key, "drop_", 5) == 0;
}

static int is_zero(const struct json *m)
{
	uint64_t v;

	return json_u64(m, &v) == 0 && v == 0;
}

/* A true or non-zero value (fdb "static" is 0/1 today). */
static int is_true(const struct json *m)
{
	if (m == NULL)
		return 0;
	if (m->type == JSON_BOOL)
		return m->boolean;
	return m->type == JSON_NUMBER && strspn(m->str, "-0.eE+") != m->len;
}

/* The drop_* reasons of a port, indented, non-zero ones first. */
static void port_drop_reasons(struct table *t, const struct json *data)
{
	const struct json *m;

	for (int zero = 0; zero <= 1; zero++)
		for (m = data->child; m != NULL; m = m->next)
			if (is_drop_reason(m) && is_zero(m) == zero)
				kv_add(t, "  ", m);
}

/* A list of strings as "a b c"; empty: "any" for allowed_macs, else "-". */
static void kv_add_words(struct table *t, const struct json *m)
{
	char *row[2], *s = xstrdup("");

	for (const struct json *e = m->child; e != NULL; e = e->next) {
		char *v = json_text(e), *n;

		n = xasprintf("%s%s%s", s, s[0] ? " " : "", v);
		free(v);
		free(s);
		s = n;
	}
	row[0] = xasprintf("%s:", m->key);
	if (s[0] == '\0') {
		free(s);
		s = xstrdup(strcmp(m->key, "allowed_macs") == 0 ? "any" : "-");
	}
	row[1] = s;
	table_add(t, row);
}

static void port_list(const struct json *data)
{
	struct table t = {.ncols = 2, .align = kv_align, .gap = " "};
	const struct json *m;
	int shown = 0;

	for (m = data->child; m != NULL; m = m->next) {
		if (is_drop_reason(m))
			continue;
		if (m->type == JSON_ARRAY)
			kv_add_words(&t, m);
		else
			kv_add(&t, "", m);
		if (strcmp(m->key, "drops") == 0) {
			port_drop_reasons(&t, data);
			shown = 1;
		}
	}
	if (!shown)
		port_drop_reasons(&t, data);
	table_print(&t);
}

static int verb_port(struct ctl *ctl, int argc, char **argv)
{
	struct json *reply, *data;
	char cmd[64];
	int rc;

	(void)argc;
	if (!port_name_ok(argv[0]))
		return usage_error("bad port name '%s' (letters, digits and "
				   "'_', at most %d)",
				   argv[0], PORT_NAME_MAX);
	snprintf(cmd, sizeof(cmd), "/vsw/port,%s", argv[0]);
	rc = ctl_query(ctl, cmd, &reply, &data);
	if (rc)
		return rc;
	if (ctl->json)
		return print_json(reply, data);
	if (data->type == JSON_OBJECT)
		port_list(data);
	else
		rc = error("bad reply to '%s': not a dict", cmd);
	json_free(reply);
	return rc;
}

static void fdb_json(struct json **items, size_t n)
{
	printf("{\"total\":%zu,\"entries\":[", n);
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			putchar(',');
		json_write(stdout, items[i]);
	}
	printf("]}\n");
}

static void fdb_table(struct json **items, size_t n)
{
	static const char *const heads[] = {"MAC", "VLAN", "PORT", "AGE",
					    "TYPE"};
	struct table t = {.ncols = 5, .heads = heads, .align = "lrlrl"};
	char *row[5];

	for (size_t i = 0; i < n; i++) {
		int is_static = is_true(json_get(items[i], "static"));

		row[0] = cell(items[i], "mac");
		row[1] = cell(items[i], "vlan");
		row[2] = cell(items[i], "port");
		row[3] = is_static ? xstrdup("-") : cell(items[i], "age_s");
		row[4] = xstrdup(is_static ? "static" : "dynamic");
		table_add(&t, row);
	}
	table_print(&t);
}

/* Keep only the entries whose port is name (in place); new count. */
static size_t fdb_filter(struct json **items, size_t n, const char *name)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		const struct json *p = json_get(items[i], "port");

		if (p != NULL && p->type == JSON_STRING &&
		    strcmp(p->str, name) == 0)
			items[kept++] = items[i];
	}
	return kept;
}

static int verb_fdb(struct ctl *ctl, int argc, char **argv)
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
	rc = pages_fetch(ctl, "/vsw/fdb", FDB_PAGE, &pg);
	if (rc == 0 && port != NULL)
		pg.nitems = fdb_filter(pg.items, pg.nitems, port);
	if (rc == 0 && ctl->json)
		fdb_json(pg.items, pg.nitems);
	else if (rc == 0)
		fdb_table(pg.items, pg.nitems);
	pages_free(&pg);
	return rc;
}

/* Print the reply verbatim; still exit 1 when vsw reports an error. */
static int verb_raw(struct ctl *ctl, int argc, char **argv)
{
	struct json *reply, *data;
	int rc;

	(void)argc;
	if (argv[0][0] == '\0')
		return usage_error("'raw' expects a command string");
	rc = ctl_request(ctl, argv[0], &reply);
	if (rc)
		return rc;
	fwrite(ctl->buf, 1, strnlen(ctl->buf, ctl->replylen), stdout);
	putchar('\n');
	data = reply->child;
	if (data->type == JSON_NULL)
		rc = error("vsw: '%s' failed (unknown command or bad "
			   "parameters)",
			   argv[0]);
	else if (data->type == JSON_OBJECT && json_get(data, "error"))
		rc = vsw_error(data);
	json_free(reply);
	return rc;
}

static int verb_help(struct ctl *ctl, int argc, char **argv);

static const struct verb verbs[] = {
	{"info", 0, 0, "", "daemon information and settings", verb_info},
	{"ports", 0, 0, "", "all ports with their counters", verb_ports},
	{"port", 1, 1, "NAME", "one port: every counter", verb_port},
	{"fdb", 0, 2, "[--port NAME]", "MAC table (forwarding database)",
	 verb_fdb},
	{"workers", 0, 0, "", "workers: load, cycles/packet, rx queues",
	 verb_workers},
	{"queues", 1, 1, "PORT", "rx queues of a port, guest interrupts",
	 verb_queues},
	{"fdb-stats", 0, 0, "", "MAC table statistics", verb_fdb_stats},
	{"watch", 0, 4, "[--interval SEC] [--count N]",
	 "live rates of ports and workers", verb_watch},
	{"metrics", 0, 0, "", "every counter, Prometheus text format",
	 verb_metrics},
	{"port-add", 2, -1, "NAME KEY=VALUE...",
	 "add a port; KEY=VALUE: type=vhost-user path=SOCK\n"
	 "mode=server|client [queues=N], or type=ethdev\n"
	 "devargs=ARGS [rxq=N] [txq=N]; any type: [workers=L]\n"
	 "[mtu=N] [max-macs=N] [allowed-macs=\"MAC...\"]",
	 verb_port_add},
	{"port-del", 1, 1, "NAME", "remove a port", verb_port_del},
	{"port-set", 2, -1, "NAME KEY=VALUE...",
	 "change a port at run time; KEY=VALUE: mtu=N\n"
	 "max-macs=N allowed-macs=\"MAC MAC...\"|any",
	 verb_port_set},
	{"rxq-move", 3, 3, "PORT QUEUE WORKER",
	 "move an rx queue to another worker", verb_rxq_move},
	{"rxq-rebalance", 0, 0, "", "spread rx queues over the workers by load",
	 verb_rxq_rebalance},
	{"set", 2, 2, "KEY VALUE", "change a [switch] setting at run time",
	 verb_set},
	{"fdb-flush", 0, 1, "[PORT]", "remove dynamic MAC entries",
	 verb_fdb_flush},
	{"fdb-add", 2, 3, "MAC PORT [vlan=N]", "add a static MAC entry",
	 verb_fdb_add},
	{"fdb-del", 1, 2, "MAC [vlan=N]", "remove a MAC entry", verb_fdb_del},
	{"stats-clear", 0, 0, "", "zero every counter", verb_stats_clear},
	{"raw", 1, 1, "CMD", "send a telemetry command, print the reply",
	 verb_raw},
	{"help", 0, 0, "", "this help", verb_help},
	{NULL, 0, 0, NULL, NULL, NULL},
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: vswctl [--file-prefix P | -s SOCKET] [--json] "
		"[--timeout SEC] VERB [ARGS...]\n\n"
		"Client of vsw's runtime interface (DPDK telemetry socket\n"
		"%s/<P>/%s; P defaults to $VSW_FILE_PREFIX or \"%s\").\n\n"
		"Verbs:\n",
		RUNTIME_DIR, SOCKET_NAME, DEFAULT_PREFIX);
	for (const struct verb *v = verbs; v->name != NULL; v++) {
		char left[48];

		const char *h = v->help, *nl;

		snprintf(left, sizeof(left), "%s %s", v->name, v->args);
		if (strlen(left) > 22)
			fprintf(f, "  %s\n%25s", left, "");
		else
			fprintf(f, "  %-22s ", left);
		while ((nl = strchr(h, '\n')) != NULL) {
			fprintf(f, "%.*s\n%25s", (int)(nl - h), h, "");
			h = nl + 1;
		}
		fprintf(f, "%s\n", h);
	}
	fprintf(f, "\nOptions:\n"
		   "  --file-prefix P        DPDK file prefix vsw runs with\n"
		   "  -s, --socket SOCKET    telemetry socket path\n"
		   "  --json                 print machine-readable JSON\n"
		   "  --timeout SEC          reply timeout (default 5)\n"
		   "\nExit: 0 ok, 1 error (from vsw or connection), "
		   "2 usage error.\n");
}

static int verb_help(struct ctl *ctl, int argc, char **argv)
{
	(void)ctl;
	(void)argc;
	(void)argv;
	usage(stdout);
	return EXIT_OK;
}

static const char *const verb_arg_what[][2] = {
	{"port", "a port NAME"},
	{"raw", "a command string, e.g. /vsw/info"},
	{"queues", "a PORT name"},
	{"port-add", "NAME type=vhost-user|ethdev KEY=VALUE..."},
	{"port-del", "a port NAME"},
	{"port-set", "NAME KEY=VALUE... (mtu, max-macs, allowed-macs)"},
	{"fdb-add", "MAC PORT [vlan=N]"},
	{"fdb-del", "MAC [vlan=N]"},
};

/* ---- command line ---------------------------------------------------- */

static int check_args(const struct verb *v, int argc)
{
	const char *what = v->args;

	for (size_t i = 0; i < sizeof(verb_arg_what) / sizeof(*verb_arg_what);
	     i++)
		if (strcmp(verb_arg_what[i][0], v->name) == 0)
			what = verb_arg_what[i][1];
	if (argc < v->min_args)
		return usage_error("'%s' expects %s", v->name, what);
	if (v->max_args >= 0 && argc > v->max_args) {
		if (v->max_args == 0)
			return usage_error("'%s' takes no argument", v->name);
		return usage_error("'%s' expects %s, got extra arguments",
				   v->name, what);
	}
	return 0;
}

/* Value of an option: "--opt=V" or the next argument. */
static const char *opt_value(const char *arg, const char *name, int *i,
			     int argc, char **argv)
{
	size_t n = strlen(name);

	if (strncmp(arg, name, n) == 0 && arg[n] == '=')
		return arg + n + 1;
	if (strcmp(arg, name) != 0)
		return NULL;
	if (*i + 1 >= argc) {
		usage_error("option '%s' expects a value", name);
		exit(EXIT_USAGE);
	}
	return argv[++*i];
}

static int set_timeout(struct ctl *ctl, const char *s)
{
	char *end;

	ctl->timeout = strtod(s, &end);
	if (*end != '\0' || end == s || !(ctl->timeout > 0) ||
	    ctl->timeout > 86400)
		return usage_error("--timeout expects seconds > 0, got '%s'",
				   s);
	return 0;
}

/* Consume one global option at argv[*i]: 1 if taken, 0 if not, <0 usage. */
static int global_option(struct ctl *ctl, int *i, int argc, char **argv,
			 const char **sock)
{
	const char *a = argv[*i], *v;

	if (strcmp(a, "--json") == 0) {
		ctl->json = 1;
	} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
		ctl->help = 1;
	} else if ((v = opt_value(a, "--file-prefix", i, argc, argv))) {
		ctl->prefix = v;
	} else if ((v = opt_value(a, "--socket", i, argc, argv)) ||
		   (v = opt_value(a, "-s", i, argc, argv))) {
		*sock = v;
	} else if ((v = opt_value(a, "--timeout", i, argc, argv))) {
		if (set_timeout(ctl, v))
			return -1;
	} else {
		return 0;
	}
	return 1;
}

/* Options of single verbs, passed on to them: --port, --interval... */
static int verb_option(const char *arg)
{
	static const char *const opts[] = {"--port", "--interval", "--count"};

	for (size_t i = 0; i < sizeof(opts) / sizeof(*opts); i++) {
		size_t n = strlen(opts[i]);

		if (strncmp(arg, opts[i], n) == 0 &&
		    (arg[n] == '\0' || arg[n] == '='))
			return 1;
	}
	return 0;
}

/* Global options may appear anywhere; the rest go to pos[] in order. */
static int parse_args(struct ctl *ctl, int argc, char **argv, char **pos,
		      int *npos)
{
	const char *sock = NULL;
	int rc, dashdash = 0;

	for (int i = 1; i < argc; i++) {
		if (!dashdash && strcmp(argv[i], "--") == 0) {
			dashdash = 1;
			continue;
		}
		rc = dashdash ? 0 : global_option(ctl, &i, argc, argv, &sock);
		if (rc < 0)
			return EXIT_USAGE;
		if (rc == 0 && !dashdash && argv[i][0] == '-' &&
		    !verb_option(argv[i]))
			return usage_error("unknown option '%s'", argv[i]);
		if (rc == 0)
			pos[(*npos)++] = argv[i];
	}
	if (sock != NULL && strlen(sock) >= sizeof(ctl->path))
		return usage_error("socket path too long: %s", sock);
	if (sock != NULL) {
		snprintf(ctl->path, sizeof(ctl->path), "%s", sock);
		ctl->prefix = NULL;
	} else if (snprintf(ctl->path, sizeof(ctl->path), "%s/%s/%s",
			    RUNTIME_DIR, ctl->prefix,
			    SOCKET_NAME) >= (int)sizeof(ctl->path)) {
		return usage_error("file prefix too long: %s", ctl->prefix);
	}
	return 0;
}

static const struct verb *find_verb(const char *name)
{
	for (const struct verb *v = verbs; v->name != NULL; v++)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}

int main(int argc, char **argv)
{
	struct ctl ctl = {.timeout = 5, .fd = -1};
	char **pos = calloc((size_t)argc + 1, sizeof(*pos));
	const struct verb *v = NULL;
	int npos = 0, rc;

	ctl.prefix = getenv("VSW_FILE_PREFIX");
	if (ctl.prefix == NULL || ctl.prefix[0] == '\0')
		ctl.prefix = DEFAULT_PREFIX;
	rc = parse_args(&ctl, argc, argv, pos, &npos);
	if (rc == 0 && ctl.help)
		pos[0] = "help", npos = 1;
	if (rc == 0 && npos == 0)
		rc = usage_error("expected a verb");
	if (rc == 0 && (v = find_verb(pos[0])) == NULL)
		rc = usage_error("unknown verb '%s'", pos[0]);
	if (rc == 0)
		rc = check_args(v, npos - 1);
	if (rc == 0)
		rc = v->fn(&ctl, npos - 1, pos + 1);
	if (ctl.fd >= 0)
		close(ctl.fd);
	free(ctl.buf);
	free(pos);
	return rc;
}
