/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The telemetry client that vswctl and vsw-vsctl share: the connection
 * to vsw's DPDK telemetry socket (transport.c: greeting, requests,
 * replies, multi-page listings) and the small helpers both use (util.c:
 * messages, allocation, numbers, names; json.c: values written back as
 * JSON) and the Prometheus text of every counter (metrics.h), which vsw
 * itself links for metrics-listen.  Replies are parsed with jansson.
 */
#ifndef VSW_TELCLIENT_H
#define VSW_TELCLIENT_H

#include "config/vsw_config.h" /* VSW_PORT_NAME_MAX; includes no DPDK header */

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/un.h>

#define PORT_NAME_MAX (VSW_PORT_NAME_MAX - 1) /* characters, without NUL */

/* Exit codes. */
#define EXIT_OK 0
#define EXIT_ERR 1
#define EXIT_USAGE 2

struct ctl {
	const char *prefix; /* file prefix, NULL when -s was given */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	double timeout;
	int json;
	int help;
	int quiet_close; /* greeting: connection closed -> -1, no message */
	int fd;
	char *buf; /* receive buffer */
	size_t bufsz;
	size_t replylen;
};

/* A member of an object: its name and value (both owned by the tree). */
struct member {
	const char *key;
	json_t *val;
};

/* Pages of a listing; items are the object-valued members of all pages. */
struct pages {
	json_t **trees;
	size_t ntrees;
	struct member *items;
	size_t nitems, cap;
};

/* util.c */
extern const char *ctl_prog; /* message prefix: "vswctl" */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xrealloc(void *p, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xstrdup(const char *s);
/* 0 and *out when s is a decimal integer in [min, max]; else -1. */
int parse_int(const char *s, long min, long max, long *out);
int port_name_ok(const char *name);
/* "workerN" -> "N"; any other key as it is. */
const char *worker_id(const char *key);
/* CLOCK_MONOTONIC in seconds. */
double mono_now(void);

/* transport.c */
int ctl_greeting(struct ctl *ctl);
int ctl_request(struct ctl *ctl, const char *cmd, json_t **reply);
int ctl_query(struct ctl *ctl, const char *cmd, json_t **reply, json_t **data);
/* The data of a {"<cmd>": data} reply; vsw's error (exit code) or 0. */
json_t *reply_data(json_t *reply);
int reply_error(const char *cmd, json_t *data);
int pages_fetch(struct ctl *ctl, const char *base, struct pages *pg);
/* After a page of cmd: 0 when next (its next_offset) is 0, -1 to fetch
 * the next from *off = next, or an exit code when it does not advance. */
int page_next(const char *cmd, uint64_t next, uint64_t *off);
void pages_free(struct pages *pg);
/* A non-negative integer; 0, or -1 if v is not one. */
int val_u64(const json_t *v, uint64_t *out);
/* Member key of obj as a u64; 0 when absent or not one. */
uint64_t u64_of(const json_t *obj, const char *key);
/* Member key of obj if it is a string, else NULL. */
const char *str_of(const json_t *obj, const char *key);

/* json.c */
/* Compact JSON on one line (no newline); a JSON string. */
void val_write(FILE *f, json_t *v);
void str_write(FILE *f, const char *s, size_t len);
/* A value for humans: strings unquoted, the rest as JSON; malloc'd. */
char *val_text(json_t *v);
/* Split "rxq_<port>_<q>_pct" into port and a malloc'd q; 0, or -1. */
int rxq_key(const char *key, char *port, size_t portsz, char **q);

#endif /* VSW_TELCLIENT_H */
