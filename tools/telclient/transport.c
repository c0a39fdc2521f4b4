/*
 * vswctl transport: the DPDK telemetry v2 protocol (docs/telemetry.md) on
 * the SOCK_SEQPACKET socket /var/run/dpdk/<file-prefix>/dpdk_telemetry.v2:
 * one JSON greeting on connect, then one JSON reply {"<cmd>": data} per
 * command string sent. Replies are parsed with jansson; listings that
 * come in pages are fetched whole.
 */
#define _GNU_SOURCE
#include "telclient.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MIN_REPLY_BUF 16384
#define MAX_PAGES 100000

/* ---- values ---------------------------------------------------------- */

/*
 * jansson holds integers as json_int_t, a long long: vsw's u64 counters
 * come through exactly up to 2^63-1. A number above that is refused by
 * json_loadb (json_error_numeric_overflow), so the whole reply is an
 * error (parse_reply says why) and never a wrong number. No counter gets
 * there: 2^63 bytes or TSC cycles are decades away.
 */
int val_u64(const json_t *v, uint64_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1;
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

uint64_t u64_of(const json_t *obj, const char *key)
{
	uint64_t v = 0;

	val_u64(json_object_get(obj, key), &v);
	return v;
}

const char *str_of(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* ---- parsing --------------------------------------------------------- */

/* s into out, every byte outside ' '..'~' as \xNN: it goes to a terminal. */
static void printable(char *out, size_t n, const char *s)
{
	size_t o = 0;

	for (; *s != '\0' && o + 5 < n; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c < 0x7f)
			out[o++] = (char)c;
		else
			o += (size_t)snprintf(out + o, n - o, "\\x%02x", c);
	}
	out[o] = '\0';
}

/*
 * One JSON object or array; NULL with a message in err. Some servers
 * send a NUL after the message: tolerated. A member name twice is an
 * error (jansson would keep only the last).
 */
static json_t *parse_reply(const char *buf, size_t len, char *err,
			   size_t errlen)
{
	json_error_t e;
	char text[4 * JSON_ERROR_TEXT_LENGTH];
	json_t *j;

	while (len > 0 && buf[len - 1] == '\0')
		len--;
	j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &e);
	if (j != NULL)
		return j;
	printable(text, sizeof(text), e.text);
	snprintf(err, errlen, "%s at byte %d%s", text, e.position,
		 json_error_code(&e) == json_error_numeric_overflow
			 ? " (vswctl reads integers up to 2^63-1)"
			 : "");
	return NULL;
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
int ctl_greeting(struct ctl *ctl)
{
	json_t *g;
	uint64_t max = 0;
	char err[800];
	int rc = ctl_recv(ctl, "greeting");

	if (rc)
		return rc;
	g = parse_reply(ctl->buf, ctl->replylen, err, sizeof(err));
	if (g == NULL)
		return error("bad greeting from %s: %s", ctl->path, err);
	if (val_u64(json_object_get(g, "max_output_len"), &max) == 0 &&
	    max >= ctl->bufsz && max < (1u << 30)) {
		ctl->bufsz = (size_t)max + 1;
		ctl->buf = xrealloc(ctl->buf, ctl->bufsz);
	}
	json_decref(g);
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

/* ---- requests -------------------------------------------------------- */

/* Send cmd and parse the reply into *reply; 0 or an exit code. */
int ctl_request(struct ctl *ctl, const char *cmd, json_t **reply)
{
	char err[800];
	int rc;

	if (ctl->fd < 0 && (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (send(ctl->fd, cmd, strlen(cmd), MSG_NOSIGNAL) < 0)
		return error("sending '%s' to %s: %s", cmd, ctl->path,
			     strerror(errno));
	rc = ctl_recv(ctl, "reply");
	if (rc)
		return rc;
	*reply = parse_reply(ctl->buf, ctl->replylen, err, sizeof(err));
	if (*reply == NULL)
		return error("bad reply to '%s': %s", cmd, err);
	if (!json_is_object(*reply) || json_object_size(*reply) != 1) {
		json_decref(*reply);
		*reply = NULL;
		return error("bad reply to '%s': not {\"<cmd>\": data}", cmd);
	}
	return 0;
}

json_t *reply_data(json_t *reply)
{
	return json_object_iter_value(json_object_iter(reply));
}

/*
 * A null data is an unknown command or bad parameters; a dict with an
 * "error" key vsw's error text: "error", continued in "error_2",
 * "error_3"... since a telemetry string holds 127 characters. Exit 1
 * with it (control bytes shown as \xNN).
 */
int reply_error(const char *cmd, json_t *data)
{
	char buf[1024] = "", out[4096], key[24];
	const char *e = str_of(data, "error");

	if (json_is_null(data))
		return error("vsw: '%s' failed (unknown command or bad "
			     "parameters)",
			     cmd);
	if (json_object_get(data, "error") == NULL)
		return 0;
	for (int i = 2; e != NULL; i++) {
		strncat(buf, e, sizeof(buf) - strlen(buf) - 1);
		snprintf(key, sizeof(key), "error_%d", i);
		e = str_of(data, key);
	}
	printable(out, sizeof(out), buf);
	return error("vsw: %s", out[0] ? out : "error");
}

/* Send cmd; on success *data is the reply's data (owned by *reply). */
int ctl_query(struct ctl *ctl, const char *cmd, json_t **reply, json_t **data)
{
	int rc = ctl_request(ctl, cmd, reply);

	if (rc)
		return rc;
	*data = reply_data(*reply);
	rc = reply_error(cmd, *data);
	if (rc) {
		json_decref(*reply);
		*reply = NULL;
		*data = NULL;
	}
	return rc;
}

/* ---- multi-page listings --------------------------------------------- */

static void pages_add_items(struct pages *pg, json_t *data)
{
	const char *key;
	json_t *m;

	json_object_foreach (data, key, m) {
		if (!json_is_object(m))
			continue; /* total, offset, next_offset */
		if (pg->nitems == pg->cap) {
			pg->cap = pg->cap ? pg->cap * 2 : 64;
			pg->items = xrealloc(pg->items,
					     pg->cap * sizeof(*pg->items));
		}
		pg->items[pg->nitems++] = (struct member){key, m};
	}
}

int page_next(const char *cmd, uint64_t next, uint64_t *off)
{
	if (next == 0)
		return 0;
	if (next <= *off)
		return error("bad reply to '%s': next_offset %" PRIu64
			     " does not advance",
			     cmd, next);
	*off = next;
	return -1;
}

/*
 * Fetch base,OFFSET for every page until next_offset is 0. No COUNT:
 * vsw's own page size (docs/telemetry.md), so vswctl keeps no copy.
 */
int pages_fetch(struct ctl *ctl, const char *base, struct pages *pg)
{
	uint64_t off = 0, next;
	json_t *reply, *data;
	char cmd[128];
	int rc;

	for (size_t i = 0; i < MAX_PAGES; i++) {
		snprintf(cmd, sizeof(cmd), "%s,%" PRIu64, base, off);
		rc = ctl_query(ctl, cmd, &reply, &data);
		if (rc)
			return rc;
		pg->trees = xrealloc(pg->trees,
				     (pg->ntrees + 1) * sizeof(*pg->trees));
		pg->trees[pg->ntrees++] = reply;
		if (!json_is_object(data) ||
		    val_u64(json_object_get(data, "next_offset"), &next) < 0)
			return error("bad reply to '%s': no next_offset", cmd);
		pages_add_items(pg, data);
		if ((rc = page_next(cmd, next, &off)) >= 0)
			return rc;
	}
	return error("%s: more than %d pages", base, MAX_PAGES);
}

void pages_free(struct pages *pg)
{
	for (size_t i = 0; i < pg->ntrees; i++)
		json_decref(pg->trees[i]);
	free(pg->trees);
	free(pg->items);
}
