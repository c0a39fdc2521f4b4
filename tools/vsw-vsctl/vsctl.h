/*
 * vsw-vsctl internals.  vsw-vsctl takes the part of ovs-vsctl's command
 * line that os-vif (vsctl mode) and Kubernetes' userspace CNI use and
 * maps it onto vsw's telemetry commands (docs/vsw-vsctl.md):
 *
 *   parse.c   options and "--"-separated commands, as ovs-vsctl parses
 *             them (no vsw needed: tests/unit/test_vsctl_parse.c);
 *   model.c   vsw's state as OVS rows (one Bridge, a Port and an
 *             Interface per vsw port), the OVS name <-> vsw name rule;
 *   cmds.c    every command run on the model, in order, as one
 *             transaction (reads see the writes before them);
 *   commit.c  the model's changes as vsw commands, undone on failure;
 *   output.c  list/table/json/bare output of list, find and get;
 *   main.c    connect, load, run, commit, print; exit codes as ovs-vsctl.
 *
 * Messages go to stderr as "<program>: ..." where <program> is argv[0]'s
 * base name (ovs-vsctl through the symlink), as ovs-vsctl prints them.
 */
#ifndef VSCTL_H
#define VSCTL_H

#include <stdbool.h>
#include <stddef.h>

#include "config/ovs_map.h"
#include "config/vsw_config.h"

#define VS_ERR_MAX 512
#define VS_NAME_CHARS VSW_OVS_NAME_CHARS
#define VS_MAX_PORTS (2 * VSW_MAX_PORTS) /* vsw's, plus those added */
#define VS_MAX_IDS 16			 /* external_ids pairs per port */
#define VS_NAME_MAX 64			 /* OVS port and bridge names */
#define VS_OVS_NAME_KEY VSW_OVS_NAME_KEY /* external-ids key: the OVS name */

/* ---- parse.c ---- */

enum vs_format { VS_FMT_LIST, VS_FMT_TABLE, VS_FMT_JSON };
enum vs_cell { VS_CELL_STRING, VS_CELL_BARE, VS_CELL_JSON };

struct vs_opts {
	unsigned int timeout; /* seconds; 0 = none */
	bool oneline, dry_run, headings;
	enum vs_format format;
	enum vs_cell cell;
	const char *db; /* accepted, ignored */
	const char *prefix, *sock;
	bool help, version;
};

struct vs_cmd {
	const struct vs_syntax *syn;
	char **argv; /* argv[0] is the command name */
	int argc;
	bool may_exist, if_exists, with_iface;
	const char *columns; /* --columns=, or NULL */
};

struct vs_syntax {
	const char *name;
	int min_args, max_args;
	const char *options; /* "--may-exist,--columns=" as ovs-vsctl */
	bool rw;
};

/*
 * Parse argv (argv[0] the program) into @o and *@cmds (*@n of them,
 * malloc'd, pointing into argv).  0, or -1 with ovs-vsctl's message in
 * @err (exit 1).
 */
int vs_parse(int argc, char **argv, struct vs_opts *o, struct vs_cmd **cmds,
	     int *n, char *err, size_t errlen);
const struct vs_syntax *vs_find_syntax(const char *name);

/* ---- model.c ---- */

struct vs_kv {
	char k[VSW_EXTERNAL_IDS_MAX + 1], v[VSW_EXTERNAL_IDS_MAX + 1];
};

struct vs_port {
	char ovs[VS_NAME_MAX];	     /* the OVS name */
	char vsw[VSW_PORT_NAME_MAX]; /* vsw's name */
	bool existed, added, deleted;
	long id; /* vsw port id, -1 for a new one */
	bool up;
	/* Interface */
	char type[32];		 /* dpdkvhostuser, dpdkvhostuserclient, dpdk */
	char path[VSW_PATH_MAX]; /* socket (vhost-server-path for client) */
	bool path_set;		 /* options:vhost-server-path given */
	long mtu;		 /* mtu_request; -1 = unset */
	struct vs_kv ids[VS_MAX_IDS];
	int n_ids;
	/* Port */
	struct vsw_ovs_vlan vlan;
	/* as read from vsw, to see what changed and to undo it */
	char vsw_mode[20], vsw_trunks[128], vsw_ids[VSW_EXTERNAL_IDS_MAX + 1];
	long vsw_tag, vsw_mtu;
};

struct vs_model {
	char bridge[VS_NAME_MAX], bridge0[VS_NAME_MAX];
	char run_dir[VSW_PATH_MAX];
	struct vs_port ports[VS_MAX_PORTS];
	int n;
};

struct ctl;
int vs_model_load(struct ctl *ctl, struct vs_model *m);
/* vsnprintf @fmt into @err; returns -1. */
int vs_fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The live port of OVS name @name, or NULL. */
struct vs_port *vs_port_find(struct vs_model *m, const char *name);
/* "k=v k=v" of @p's ids (the OVS name among them when it differs). */
/* "ovs-name=N k=v ..." of @p into @buf; -1 when it does not fit. */
int vs_ids_str(const struct vs_port *p, char *buf, size_t len);

/* ---- cmds.c ---- */

struct vs_out {
	char *text; /* plain output (malloc'd), or NULL */
	size_t len;
	struct vs_table *table; /* list/find output, or NULL */
};

/* Run @c on @m into @out; 0, or -1 with a message in @err (exit 1). */
int vs_run(struct vs_model *m, const struct vs_cmd *c, struct vs_out *out,
	   char *err, size_t errlen);
/* A check at commit time: every new port has what vsw needs. */
int vs_check(struct vs_model *m, char *err, size_t errlen);

/* ---- commit.c ---- */

int vs_commit(struct ctl *ctl, struct vs_model *m, char *err, size_t errlen);

/* ---- output.c ---- */

/* A cell: an OVSDB datum of strings or integers. */
struct vs_cell_val {
	bool is_int, is_map, is_set; /* set: n_max > 1 (brackets) */
	int n;
	long ints[VS_MAX_IDS];
	const char *keys[VS_MAX_IDS], *vals[VS_MAX_IDS];
};

struct vs_table {
	int ncols, nrows;
	const char *heads[16];
	char *cells[VS_MAX_PORTS][16][3]; /* [row][col][vs_cell] text */
};

void vs_out_append(struct vs_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The three texts of @v: string, bare, json (malloc'd). */
void vs_cell_texts(const struct vs_cell_val *v, char *t[3]);
/* Print @out in @o's format, then free it (vs_out_free). */
void vs_print(const struct vs_opts *o, struct vs_out *out);
void vs_out_free(struct vs_out *out);

#endif /* VSCTL_H */
