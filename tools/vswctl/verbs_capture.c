/*
 * capture, capture-stop, captures: packet capture to a pcapng file
 * (docs/cli.md).  vsw writes the file (the socket is root's, vsw runs as
 * root): vswctl sends /vsw/capture/start, polls /vsw/capture,PORT every
 * 100 ms until --count frames are written or it is interrupted
 * (SIGINT, SIGTERM, SIGHUP), then sends /vsw/capture/stop, which returns once
 * the file is complete, and prints what was written, what the capture
 * dropped (it could not keep up) and what the filter refused.
 */
#define _GNU_SOURCE
#include "vswctl.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CMD_MAX 1023
#define PARAMS_MAX 255 /* vsw's limit on a command's parameters */
#define POLL_NS 100000000L

struct cap_opts {
	const char *port, *dir, *file, *filter;
	long count, ring, snaplen;
};

/* Value of option @name at argv[*i] ("--opt V" or "--opt=V"), or NULL. */
static const char *opt_arg(int argc, char **argv, int *i, const char *name,
			   int *bad)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (strcmp(argv[*i], name) != 0)
		return NULL;
	if (*i + 1 >= argc) {
		*bad = usage_error("option '%s' expects a value", name);
		return NULL;
	}
	return argv[++*i];
}

static int num_opt(const char *v, const char *name, long min, long max,
		   long *out)
{
	if (parse_int(v, min, max, out) == 0)
		return 0;
	return usage_error("%s expects an integer %ld..%ld, got '%s'", name,
			   min, max, v);
}

/* One option or positional at argv[*i]; 0 or a usage error. */
static int cap_arg(struct cap_opts *o, int argc, char **argv, int *i)
{
	const char *v;
	int bad = 0;

	if ((v = opt_arg(argc, argv, i, "--filter", &bad)))
		o->filter = v;
	else if ((v = opt_arg(argc, argv, i, "-w", &bad)))
		o->file = v;
	else if ((v = opt_arg(argc, argv, i, "--count", &bad)))
		return num_opt(v, "--count", 1, 4294967295L, &o->count);
	else if ((v = opt_arg(argc, argv, i, "--ring", &bad)))
		return num_opt(v, "--ring", 8, 65536, &o->ring);
	else if ((v = opt_arg(argc, argv, i, "--snaplen", &bad)))
		return num_opt(v, "--snaplen", 64, 65535, &o->snaplen);
	else if (bad)
		return bad;
	else if (argv[*i][0] == '-')
		return usage_error("capture: unknown option '%s'", argv[*i]);
	else if (o->port == NULL)
		o->port = argv[*i];
	else if (o->dir == NULL)
		o->dir = argv[*i];
	else
		return usage_error("capture: extra argument '%s'", argv[*i]);
	return bad;
}

static int cap_check(const struct cap_opts *o)
{
	if (o->port == NULL || !port_name_ok(o->port))
		return usage_error("capture expects a port NAME, got '%s'",
				   o->port ? o->port : "");
	if (strcmp(o->dir, "rx") != 0 && strcmp(o->dir, "tx") != 0 &&
	    strcmp(o->dir, "both") != 0)
		return usage_error("capture: expected rx, tx or both, got '%s'",
				   o->dir);
	if (o->file == NULL)
		return usage_error("capture expects -w FILE (a new pcapng "
				   "file, written by vsw)");
	if (o->file[0] != '/')
		return usage_error("capture: -w FILE must be an absolute path "
				   "(vsw writes it, from its own working "
				   "directory), got '%s'",
				   o->file);
	if (strchr(o->file, ',') != NULL)
		return usage_error("capture: -w FILE must not contain ','");
	return 0;
}

static int cap_parse(struct cap_opts *o, int argc, char **argv)
{
	int rc = 0;

	memset(o, 0, sizeof(*o));
	o->ring = 2048;
	o->snaplen = 65535;
	for (int i = 0; i < argc && rc == 0; i++)
		rc = cap_arg(o, argc, argv, &i);
	if (rc == 0 && o->dir == NULL)
		o->dir = "both";
	return rc ? rc : cap_check(o);
}

static void print_stats(const char *port, const char *file, json_t *d)
{
	printf("%s: %" PRIu64 " frames written to %s\n", port,
	       u64_of(d, "written"), file);
	printf("captured %" PRIu64 ", dropped by the capture %" PRIu64
	       " (could not keep up), filtered out %" PRIu64 "\n",
	       u64_of(d, "captured"), u64_of(d, "dropped"),
	       u64_of(d, "filtered"));
	if (str_of(d, "write_error") && str_of(d, "write_error")[0])
		printf("write error: %s\n", str_of(d, "write_error"));
}

/*
 * Poll the capture every 100 ms until done or one of the signals @sigs
 * (blocked) arrives: 0 (stop it now), or 1 when it is gone (port
 * deleted, vsw stopping), *last its last status.
 */
static int cap_wait(struct ctl *ctl, const char *cmd, const sigset_t *sigs,
		    json_t **last)
{
	const struct timespec ts = {0, POLL_NS};
	json_t *reply, *data;

	while (sigtimedwait(sigs, NULL, &ts) < 0) {
		if (ctl_request(ctl, cmd, &reply) != 0)
			return 1;
		data = reply_data(reply);
		if (data == NULL || json_object_get(data, "error") != NULL) {
			json_decref(reply);
			return 1;
		}
		json_decref(*last);
		*last = json_incref(data);
		json_decref(reply);
		if (u64_of(*last, "done"))
			return 0;
	}
	return 0;
}

/* The summary of the stopped capture (or its reply, --json). */
static int cap_stop(struct ctl *ctl, const struct cap_opts *o, const char *stop)
{
	json_t *reply, *data;
	int rc = ctl_query(ctl, stop, &reply, &data);

	if (rc)
		return rc;
	if (ctl->json)
		return print_json(reply, data);
	print_stats(o->port, o->file, data);
	json_decref(reply);
	return EXIT_OK;
}

/*
 * Start, wait, stop.  SIGINT, SIGTERM and SIGHUP (a closed terminal) are
 * blocked from before the start and taken only between polls, so one at
 * any time stops the capture it started, and none cuts a request short
 * (the socket's timeout makes a read return EINTR whatever SA_RESTART
 * says); only SIGKILL leaves the capture running (capture-stop).
 */
static int cap_run(struct ctl *ctl, const struct cap_opts *o, const char *cmd)
{
	char *poll = xasprintf("/vsw/capture,%s", o->port);
	char *stop = xasprintf("/vsw/capture/stop,%s", o->port);
	json_t *reply, *data, *last = NULL;
	sigset_t sigs;
	int rc;

	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	rc = ctl_query(ctl, cmd, &reply, &data);
	if (rc == 0) {
		json_decref(reply);
		if (!ctl->json)
			fprintf(stderr, "capturing %s (%s) to %s\n", o->port,
				o->dir, o->file);
		if (cap_wait(ctl, poll, &sigs, &last) == 0)
			rc = cap_stop(ctl, o, stop);
		else {
			rc = error("the capture of %s ended in vsw (port "
				   "deleted or vsw stopping); its file is "
				   "complete",
				   o->port);
			if (last != NULL && !ctl->json)
				print_stats(o->port, o->file, last);
		}
	}
	json_decref(last);
	free(poll);
	free(stop);
	return rc;
}

int verb_capture(struct ctl *ctl, int argc, char **argv)
{
	struct cap_opts o;
	int rc = cap_parse(&o, argc, argv);
	char *cmd;

	if (rc)
		return rc;
	cmd = xasprintf("/vsw/capture/start,%s,%s,%ld,%ld,%ld,%s%s%s", o.port,
			o.dir, o.count, o.ring, o.snaplen, o.file,
			o.filter ? "," : "", o.filter ? o.filter : "");
	if (strlen(cmd) - strlen("/vsw/capture/start,") > PARAMS_MAX)
		rc = usage_error("capture: FILE and --filter too long "
				 "together (vsw takes %d characters of "
				 "parameters)",
				 PARAMS_MAX);
	else
		rc = cap_run(ctl, &o, cmd);
	free(cmd);
	return rc;
}

int verb_capture_stop(struct ctl *ctl, int argc, char **argv)
{
	json_t *reply, *data;
	char *cmd;
	int rc;

	(void)argc;
	if (!port_name_ok(argv[0]))
		return usage_error("capture-stop expects a port NAME");
	cmd = xasprintf("/vsw/capture/stop,%s", argv[0]);
	rc = ctl_query(ctl, cmd, &reply, &data);
	free(cmd);
	if (rc)
		return rc;
	if (ctl->json)
		return print_json(reply, data);
	print_stats(argv[0], "its file", data);
	json_decref(reply);
	return EXIT_OK;
}

int verb_captures(struct ctl *ctl, int argc, char **argv)
{
	static const char *const heads[] = {"PORT",	"DIR",	   "WRITTEN",
					    "CAPTURED", "DROPPED", "FILTERED",
					    "FILE",	"FILTER"};
	static const char *const keys[] = {"port",     "dir",	  "written",
					   "captured", "dropped", "filtered",
					   "file",     "filter"};
	struct table t = {.ncols = 8, .heads = heads, .align = "llrrrrll"};
	json_t *reply, *data, *m;
	const char *key;
	int rc;

	(void)argc;
	(void)argv;
	rc = ctl_query(ctl, "/vsw/capture", &reply, &data);
	if (rc)
		return rc;
	if (ctl->json)
		return print_json(reply, data);
	json_object_foreach (data, key, m) {
		char *row[8];

		if (!json_is_object(m))
			continue;
		for (int i = 0; i < 8; i++)
			row[i] = cell(m, keys[i]);
		table_add(&t, row);
	}
	table_print(&t);
	json_decref(reply);
	return EXIT_OK;
}
