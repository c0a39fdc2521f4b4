/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * JSON-RPC over a stream socket, as OVSDB speaks it (RFC 7047 section
 * 4): concatenated JSON objects, no framing.  rpc_read() gathers bytes
 * and cuts whole values off the front with jansson
 * (JSON_DISABLE_EOF_CHECK reports how many bytes a value took); a value
 * cut short waits for more bytes, anything else is a protocol error that
 * drops the connection.  A message is at most RPC_MAX_MSG bytes: a
 * server that sends more is out of step with us.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ovsdb_priv.h"

#define RPC_MAX_MSG (64u << 20) /* one JSON value at most (a dump) */

static int connect_unix(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

/* tcp: a connect that gives up after @timeout_ms. */
static int connect_tcp(const char *host, unsigned int port, int timeout_ms)
{
	struct sockaddr_storage ss = {0};
	struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	socklen_t sl;
	int fd, e = 0, one = 1;
	struct pollfd pfd;

	if (inet_pton(AF_INET, host, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		sl = sizeof(*s4);
	} else if (inet_pton(AF_INET6, host, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		sl = sizeof(*s6);
	} else {
		return -EINVAL;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&ss, sl) < 0) {
		if (errno != EINPROGRESS) {
			e = errno;
			goto fail;
		}
		pfd = (struct pollfd){.fd = fd, .events = POLLOUT};
		if (poll(&pfd, 1, timeout_ms) != 1) {
			e = ETIMEDOUT;
			goto fail;
		}
		socklen_t el = sizeof(e);
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) < 0)
			e = errno;
		if (e != 0)
			goto fail;
	}
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (fcntl(fd, F_SETFL, 0) < 0) { /* blocking writes, poll for reads */
		e = errno;
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -e;
}

int rpc_connect(struct rpc *r, const struct vsw_ovsdb_remote *at)
{
	struct timeval tv = {.tv_sec = 5};
	int fd;

	rpc_close(r);
	fd = at->is_unix ? connect_unix(at->path)
			 : connect_tcp(at->host, at->port, 5000);
	if (fd < 0)
		return fd;
	/* a server that stops reading cannot hold this thread for long */
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	r->fd = fd;
	r->len = 0;
	return 0;
}

void rpc_close(struct rpc *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	r->len = 0;
}

void rpc_free(struct rpc *r)
{
	rpc_close(r);
	free(r->buf);
	r->buf = NULL;
	r->cap = 0;
}

int rpc_send(struct rpc *r, json_t *msg)
{
	char *text = json_dumps(msg, JSON_COMPACT);
	size_t len, off = 0;
	int rc = 0;

	json_decref(msg);
	if (text == NULL)
		return -ENOMEM;
	len = strlen(text);
	while (off < len) {
		ssize_t n = send(r->fd, text + off, len - off, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -EPIPE;
			break;
		}
		off += (size_t)n;
	}
	free(text);
	return rc;
}

/* Room for @more bytes past r->len. */
static int reserve(struct rpc *r, size_t more)
{
	size_t cap = r->cap ? r->cap : 65536;
	char *b;

	if (r->len + more <= r->cap)
		return 0;
	while (cap < r->len + more)
		cap *= 2;
	if (cap > RPC_MAX_MSG + 65536)
		return -EMSGSIZE;
	b = realloc(r->buf, cap);
	if (b == NULL)
		return -ENOMEM;
	r->buf = b;
	r->cap = cap;
	return 0;
}

int rpc_read(struct rpc *r, rpc_msg_fn fn, void *arg)
{
	ssize_t n;
	size_t off = 0;
	int rc;

	rc = reserve(r, 65536);
	if (rc < 0)
		return rc;
	n = recv(r->fd, r->buf + r->len, r->cap - r->len - 1, MSG_DONTWAIT);
	if (n == 0)
		return -ECONNRESET;
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	r->len += (size_t)n;
	r->buf[r->len] = '\0'; /* strspn stops there */
	while (off < r->len) {
		json_error_t je;
		json_t *v;

		off += strspn(r->buf + off, " \t\r\n");
		if (off == r->len)
			break;
		v = json_loadb(r->buf + off, r->len - off,
			       JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY, &je);
		if (v == NULL) {
			if (json_error_code(&je) ==
			    json_error_premature_end_of_input)
				break; /* the rest comes later */
			snprintf(r->err, sizeof(r->err),
				 "malformed JSON from the server: %s", je.text);
			return -EPROTO;
		}
		off += (size_t)je.position;
		rc = json_is_object(v) ? fn(v, arg) : -EPROTO;
		json_decref(v);
		if (rc < 0)
			return rc;
	}
	memmove(r->buf, r->buf + off, r->len - off);
	r->len -= off;
	r->buf[r->len] = '\0';
	if (r->len > RPC_MAX_MSG) {
		snprintf(r->err, sizeof(r->err),
			 "a message longer than %u bytes", RPC_MAX_MSG);
		return -EMSGSIZE;
	}
	return 0;
}
