/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for what vswctl does with a telemetry reply it did not
 * choose: the input is one reply, as a rogue or broken server may send
 * it. vswctl parses replies with jansson; what is fuzzed here is our code
 * around it: tools/vswctl's transport (receive, parse, the reply checks,
 * vsw's error text, paging) and every verb's rendering (tables, key:
 * value lists, metrics, watch, --json output).
 *
 * Each verb runs as vswctl runs it, on one end of a socketpair: the input
 * is queued as the answer to each of its commands (COPIES times, then end
 * of file), stdout and stderr are captured. Checks: no crash, UB or leak;
 * the exit code is 0, or 1 with a message; stderr is lines of printable
 * characters (nothing from the reply drives the terminal); with --json,
 * the verbs that print the reply data print one line that parses back to
 * the same data (the JSON writer), and the others print lines of JSON;
 * raw prints the reply as it came.
 */
#define _GNU_SOURCE /* open_memstream */
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "vswctl.h"

#define COPIES 8	/* answers queued per verb, then end of file */
#define REPLY_BUF 65536 /* what ctl_connect gives before the greeting */

enum out { OUT_DATA, OUT_LINES, OUT_RAW, OUT_ANY };

struct run {
	const char *name;
	int (*fn)(struct ctl *ctl, int argc, char **argv);
	int argc;
	const char *argv[3];
	enum out json_out; /* what --json prints */
};

static int do_watch(struct ctl *ctl, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return watch_run(ctl, 0, 2); /* no sleep: two blocks at once */
}

static const struct run runs[] = {
	{"info", verb_info, 0, {NULL}, OUT_DATA},
	{"ports", verb_ports, 0, {NULL}, OUT_LINES},
	{"port", verb_port, 1, {"vm0"}, OUT_DATA},
	{"fdb", verb_fdb, 0, {NULL}, OUT_LINES},
	{"fdb --port", verb_fdb, 2, {"--port", "vm0"}, OUT_LINES},
	{"workers", verb_workers, 0, {NULL}, OUT_DATA},
	{"queues", verb_queues, 1, {"vm0"}, OUT_DATA},
	{"fdb-stats", verb_fdb_stats, 0, {NULL}, OUT_DATA},
	{"metrics", verb_metrics, 0, {NULL}, OUT_LINES},
	{"watch", do_watch, 0, {NULL}, OUT_LINES},
	{"raw", verb_raw, 1, {"/vsw/info"}, OUT_RAW},
	{"rxq-rebalance", verb_rxq_rebalance, 0, {NULL}, OUT_DATA},
	{"stats-clear", verb_stats_clear, 0, {NULL}, OUT_DATA},
};

struct capture {
	FILE *saved_out, *saved_err;
	char *out, *err;
	size_t outlen, errlen;
};

static void capture_start(struct capture *c)
{
	c->saved_out = stdout;
	c->saved_err = stderr;
	stdout = open_memstream(&c->out, &c->outlen);
	stderr = open_memstream(&c->err, &c->errlen);
	FUZZ_CHECK(stdout != NULL && stderr != NULL);
}

static void capture_end(struct capture *c)
{
	FUZZ_CHECK(fclose(stdout) == 0 && fclose(stderr) == 0);
	stdout = c->saved_out;
	stderr = c->saved_err;
}

/* A connection whose next copies messages are the reply, then EOF; the
 * server's end is returned. */
static int ctl_open(struct ctl *ctl, const uint8_t *data, size_t size,
		    int copies)
{
	int sv[2];

	FUZZ_CHECK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) == 0);
	for (int i = 0; i < copies; i++)
		if (send(sv[1], data, size, MSG_DONTWAIT) < 0)
			break; /* socket buffer full: fewer answers */
	FUZZ_CHECK(shutdown(sv[1], SHUT_WR) == 0);
	*ctl = (struct ctl){.timeout = 5, .fd = sv[0], .bufsz = REPLY_BUF};
	snprintf(ctl->path, sizeof(ctl->path), "%s", "fuzz.sock");
	ctl->buf = malloc(ctl->bufsz);
	FUZZ_CHECK(ctl->buf != NULL);
	return sv[1];
}

static void ctl_close(struct ctl *ctl, int peer)
{
	close(ctl->fd);
	close(peer);
	free(ctl->buf);
}

/* stderr: lines of printable characters, and one at least on error. */
static void check_err(const struct capture *c, int rc)
{
	FUZZ_CHECK(rc == 0 || rc == EXIT_ERR);
	FUZZ_CHECK(rc == 0 || c->errlen > 0);
	FUZZ_CHECK(c->errlen == 0 || c->err[c->errlen - 1] == '\n');
	for (size_t i = 0; i < c->errlen; i++)
		if (c->err[i] != '\n' && fuzz_is_control((uint8_t)c->err[i])) {
			fprintf(stderr,
				"control byte 0x%02x in: ", (uint8_t)c->err[i]);
			fuzz_print_escaped(stderr, c->err, c->errlen);
			fputc('\n', stderr);
			FUZZ_CHECK(!"stderr is printable");
		}
}

/* The reply's data as vswctl parses it; NULL if it does not. */
static json_t *parse_data(const uint8_t *data, size_t size, json_t **reply)
{
	while (size > 0 && data[size - 1] == '\0')
		size--;
	*reply = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
			    NULL);
	if (!json_is_object(*reply) || json_object_size(*reply) != 1)
		return NULL;
	return reply_data(*reply);
}

/* Each line of out is one JSON value; returns the first (or NULL). */
static json_t *check_lines(const char *out, size_t len)
{
	json_t *first = NULL;
	json_error_t e;

	for (size_t at = 0; at < len;) {
		const char *nl = memchr(out + at, '\n', len - at);
		json_t *j;

		FUZZ_CHECK(nl != NULL);
		j = json_loadb(out + at, (size_t)(nl - out - at),
			       JSON_DECODE_ANY, &e);
		if (j == NULL) {
			fprintf(stderr,
				"--json printed no JSON (%s): ", e.text);
			fuzz_print_escaped(stderr, out + at,
					   (size_t)(nl - out - at));
			fputc('\n', stderr);
		}
		FUZZ_CHECK(j != NULL);
		if (first == NULL)
			first = j;
		else
			json_decref(j);
		at = (size_t)(nl - out) + 1;
	}
	return first;
}

static void check_out(const struct run *r, const struct capture *c, int rc,
		      const uint8_t *data, size_t size)
{
	json_t *reply = NULL, *want, *got;
	size_t n;

	if (r->json_out == OUT_RAW && c->outlen > 0) {
		n = strnlen((const char *)data, size);
		FUZZ_CHECK(c->outlen == n + 1 && c->out[n] == '\n' &&
			   memcmp(c->out, data, n) == 0);
		return;
	}
	if (r->json_out == OUT_ANY || r->json_out == OUT_RAW)
		return;
	got = check_lines(c->out, c->outlen);
	if (r->json_out == OUT_DATA && rc == 0) {
		want = parse_data(data, size, &reply);
		FUZZ_CHECK(want != NULL && got != NULL);
		FUZZ_CHECK(memchr(c->out, '\n', c->outlen) ==
			   c->out + c->outlen - 1);
		FUZZ_CHECK(json_equal(want, got));
	}
	json_decref(got);
	json_decref(reply);
}

static void run_verb(const struct run *r, int json, const uint8_t *data,
		     size_t size)
{
	struct capture c;
	struct ctl ctl;
	char *argv[3];
	int rc, peer;

	memcpy(argv, r->argv, sizeof(argv));
	peer = ctl_open(&ctl, data, size, COPIES);
	ctl.json = json;
	capture_start(&c);
	rc = r->fn(&ctl, r->argc, argv);
	capture_end(&c);
	ctl_close(&ctl, peer);
	check_err(&c, rc);
	if (json)
		check_out(r, &c, rc, data, size);
	free(c.out);
	free(c.err);
}

/* The input as the greeting. */
static void run_greeting(const uint8_t *data, size_t size)
{
	struct capture c;
	struct ctl ctl;
	int rc, peer;

	peer = ctl_open(&ctl, data, size, 1);
	capture_start(&c);
	rc = ctl_greeting(&ctl);
	capture_end(&c);
	FUZZ_CHECK(ctl.bufsz >= REPLY_BUF && ctl.bufsz <= (1u << 30));
	ctl_close(&ctl, peer);
	check_err(&c, rc);
	free(c.out);
	free(c.err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run_greeting(data, size);
	for (size_t i = 0; i < sizeof(runs) / sizeof(*runs); i++)
		for (int json = 0; json <= 1; json++)
			run_verb(&runs[i], json, data, size);
	return 0;
}
