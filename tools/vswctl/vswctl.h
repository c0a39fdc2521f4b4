/*
 * vswctl internals shared by its files (the telemetry client, socket,
 * replies, pages, messages, is tools/telclient): table.c (tables, key: value lists,
 * JSON output), the verbs_*.c files (one group of verbs each) and main.c
 * (the verb table and the command line). Replies are parsed with jansson.
 */
#ifndef VSWCTL_H
#define VSWCTL_H

#include "tools/telclient/telclient.h"

#include <stdio.h>

/* Rows of strings printed in aligned columns; 'r' columns right-aligned. */
struct table {
	size_t ncols;
	const char *const *heads; /* NULL: no header line */
	const char *align;
	const char *gap; /* between columns; NULL: two spaces */
	char **cells;
	size_t nrows, cap;
};

/* table.c */
extern const char kv_align[];
void table_add(struct table *t, char **row);
void table_print(struct table *t);
char *cell(json_t *obj, const char *key);
void kv_add(struct table *t, const char *indent, const char *key, json_t *v);
/* --json: print data on one line, free reply; EXIT_OK. */
int print_json(json_t *reply, json_t *data);

/* verbs_view.c */
int verb_info(struct ctl *ctl, int argc, char **argv);
int verb_ports(struct ctl *ctl, int argc, char **argv);
int verb_port(struct ctl *ctl, int argc, char **argv);
int verb_vteps(struct ctl *ctl, int argc, char **argv);
int verb_fdb(struct ctl *ctl, int argc, char **argv);
int verb_raw(struct ctl *ctl, int argc, char **argv);
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
/* The watch loop after its options: count blocks (0: no end). */
int watch_run(struct ctl *ctl, double interval, long count);
/* verbs_capture.c */
int verb_capture(struct ctl *ctl, int argc, char **argv);
int verb_capture_stop(struct ctl *ctl, int argc, char **argv);
int verb_captures(struct ctl *ctl, int argc, char **argv);
/* verbs_config.c */
int verb_show_config(struct ctl *ctl, int argc, char **argv);
/* verbs_metrics.c */
int verb_metrics(struct ctl *ctl, int argc, char **argv);

#endif /* VSWCTL_H */
