/*
 * vswctl internals shared by main.c (socket, tables, command line) and
 * the verbs_*.c files (one group of verbs each).
 */
#ifndef VSWCTL_H
#define VSWCTL_H

#include "json.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/un.h>

#define PORT_NAME_MAX 31
#define PORTS_PAGE 32

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

/* Pages of a listing; items are the object-valued members of all pages. */
struct pages {
	struct json **trees;
	size_t ntrees;
	struct json **items;
	size_t nitems, cap;
};

/* Rows of strings printed in aligned columns; 'r' columns right-aligned. */
struct table {
	size_t ncols;
	const char *const *heads; /* NULL: no header line */
	const char *align;
	const char *gap; /* between columns; NULL: two spaces */
	char **cells;
	size_t nrows, cap;
};

extern const char kv_align[];

int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xrealloc(void *p, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xstrdup(const char *s);

int ctl_query(struct ctl *ctl, const char *cmd, struct json **reply,
	      struct json **data);
int pages_fetch(struct ctl *ctl, const char *base, unsigned count,
		struct pages *pg);
void pages_free(struct pages *pg);

void table_add(struct table *t, char **row);
void table_print(struct table *t);
char *cell(const struct json *obj, const char *key);
void kv_add(struct table *t, const char *indent, const struct json *m);

int print_json(struct json *reply, const struct json *data);
int port_name_ok(const char *name);
/* 0 and *out when s is a decimal integer in [min, max]; else -1. */
int parse_int(const char *s, long min, long max, long *out);

/* verbs_view.c */
/* Split "rxq_<port>_<q>_pct" into port and a malloc'd q; 0, or -1. */
int rxq_key(const char *key, char *port, size_t portsz, char **q);
int verb_workers(struct ctl *ctl, int argc, char **argv);
int verb_queues(struct ctl *ctl, int argc, char **argv);
int verb_fdb_stats(struct ctl *ctl, int argc, char **argv);
/* verbs_admin.c */
int verb_port_add(struct ctl *ctl, int argc, char **argv);
int verb_port_del(struct ctl *ctl, int argc, char **argv);
int verb_port_set(struct ctl *ctl, int argc, char **argv);
int verb_rxq_move(struct ctl *ctl, int argc, char **argv);
int verb_rxq_rebalance(struct ctl *ctl, int argc, char **argv);
int verb_set(struct ctl *ctl, int argc, char **argv);
int verb_fdb_flush(struct ctl *ctl, int argc, char **argv);
int verb_fdb_add(struct ctl *ctl, int argc, char **argv);
int verb_fdb_del(struct ctl *ctl, int argc, char **argv);
int verb_stats_clear(struct ctl *ctl, int argc, char **argv);
/* verbs_watch.c */
int verb_watch(struct ctl *ctl, int argc, char **argv);
/* verbs_metrics.c */
int verb_metrics(struct ctl *ctl, int argc, char **argv);

#endif /* VSWCTL_H */
