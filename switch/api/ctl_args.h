/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Parameters of the /vsw telemetry commands, parsed in plain C (no EAL, no
 * telemetry library) so that they are unit-tested and fuzzed alone.
 *
 * Every command's parameter string first passes vsw_args_check: printable
 * ASCII only and at most VSW_ARGS_MAX characters, so that nothing a client
 * sends can forge a log line, reach DPDK 22.11's JSON escaping with a
 * negative char, or be cut silently.  Then the command's own parser fills
 * a struct vsw_args; on error it writes one sentence saying what was
 * expected and returns -EINVAL.
 */
#ifndef VSW_CTL_ARGS_H
#define VSW_CTL_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/vsw_config.h"

#define VSW_ARGS_MAX 255 /* longest accepted parameter string */

/* What a command's parameters say; which fields are set depends on it. */
struct vsw_args {
	char name[VSW_PORT_NAME_MAX]; /* a port name, validated as in config */
	const char *rest;	      /* port/add, port/set: KEY=VALUE,... */
	char key[64];		      /* set: the [switch] key */
	char value[VSW_ARGS_MAX + 1]; /* set: its value */
	unsigned long n[2];	      /* offset,count; queue,worker */
	uint64_t fdb_key;	      /* fdb/add, fdb/del: MAC + VLAN */
	bool has_name;		      /* optional NAME given (fdb/flush) */
	/* capture/start */
	unsigned int cap_dir; /* 1 rx, 2 tx, 3 both (datapath/capture.h) */
	unsigned long cap_count, cap_ring, cap_snaplen;
	char cap_file[VSW_ARGS_MAX + 1];
	char cap_filter[VSW_ARGS_MAX + 1];
};

/* capture/start's limits (vswctl checks the same) */
#define VSW_CAPTURE_RING_MIN 8
#define VSW_CAPTURE_RING_MAX 65536
#define VSW_CAPTURE_SNAP_MIN 64
#define VSW_CAPTURE_SNAP_MAX 65535

/*
 * Check a raw parameter string (NULL is empty): printable ASCII, at most
 * VSW_ARGS_MAX characters.  0 or -EINVAL with a message in @err.
 */
int vsw_args_check(const char *params, char *err, size_t errlen);

/* Parsers, one per command shape.  0 or -EINVAL with a message in @err. */
/* [OFFSET[,COUNT]] (ports, fdb): a->n[0], a->n[1]; missing ones are 0. */
int vsw_args_page(const char *params, struct vsw_args *a, char *err,
		  size_t errlen);
/* NAME (port, queues, port/del) */
int vsw_args_name(const char *params, struct vsw_args *a, char *err,
		  size_t errlen);
/* [NAME] (fdb/flush) */
int vsw_args_opt_name(const char *params, struct vsw_args *a, char *err,
		      size_t errlen);
/* NAME,KEY=VALUE,... (port/add, port/set): a->rest points into @params */
int vsw_args_name_kv(const char *params, struct vsw_args *a, char *err,
		     size_t errlen);
/* PORT,QUEUE,WORKER (rxq/move) */
int vsw_args_rxq_move(const char *params, struct vsw_args *a, char *err,
		      size_t errlen);
/* KEY,VALUE (set) */
int vsw_args_set(const char *params, struct vsw_args *a, char *err,
		 size_t errlen);
/* MAC,PORT[,VLAN] (fdb/add) */
int vsw_args_fdb_add(const char *params, struct vsw_args *a, char *err,
		     size_t errlen);
/* MAC[,VLAN] (fdb/del) */
int vsw_args_fdb_del(const char *params, struct vsw_args *a, char *err,
		     size_t errlen);
/*
 * PORT,rx|tx|both,COUNT,RING,SNAPLEN,FILE[,FILTER] (capture/start): COUNT
 * 0 = no limit, RING 8..65536 frames, SNAPLEN 64..65535 bytes, FILE
 * without commas (its checks are control's), FILTER the rest (it may hold
 * commas).
 */
int vsw_args_capture(const char *params, struct vsw_args *a, char *err,
		     size_t errlen);
/* nothing (info, workers, rxq/rebalance, stats/clear, ...) */
int vsw_args_none(const char *params, struct vsw_args *a, char *err,
		  size_t errlen);

typedef int (*vsw_args_fn)(const char *params, struct vsw_args *a, char *err,
			   size_t errlen);

/* Every command and its parser: the telemetry layer and the fuzzer use it. */
struct vsw_args_cmd {
	const char *name; /* "/vsw/rxq/move" */
	vsw_args_fn parse;
	const char *usage; /* shown in errors: "PORT,QUEUE,WORKER" */
};
extern const struct vsw_args_cmd vsw_args_cmds[];
extern const unsigned int vsw_args_n_cmds;
const struct vsw_args_cmd *vsw_args_find(const char *name);

/*
 * Check then parse @params for the command @c: the one entry point of the
 * telemetry callbacks.  0 or -EINVAL with "/vsw/CMD,USAGE: PROBLEM" in @err.
 */
int vsw_args_parse(const struct vsw_args_cmd *c, const char *params,
		   struct vsw_args *a, char *err, size_t errlen);

#endif /* VSW_CTL_ARGS_H */
