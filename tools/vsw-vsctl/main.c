/*
 * vsw-vsctl: the ovs-vsctl commands os-vif (vsctl mode) and Kubernetes'
 * userspace CNI run, on vsw (docs/vsw-vsctl.md).  Installed as vsw-vsctl;
 * a symlink named ovs-vsctl makes it answer to that name (messages then
 * start "ovs-vsctl: ", as scripts expect).
 *
 * Like ovs-vsctl: every command is parsed before anything runs, all run
 * as one transaction, and output is printed only once it committed.
 * Exit codes: 0 done, 1 any error (nothing changed, or what changed was
 * undone), 2 br-exists of a missing bridge; --timeout=N ends the process
 * with SIGALRM after N seconds, as ovs-vsctl's does.
 */
#include "vsctl.h"
#include "tools/telclient/telclient.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_PREFIX "vsw"
#define RUNTIME_DIR "/var/run/dpdk"
#define SOCKET_NAME "dpdk_telemetry.v2"
#define DEFAULT_WAIT 10 /* seconds per reply without --timeout */

static void usage(void)
{
	printf("%s: vsw's ovs-vsctl (docs/vsw-vsctl.md)\n"
	       "usage: %s [OPTIONS] COMMAND [ARG...] [-- COMMAND...]\n\n"
	       "Bridge commands (vsw has one bridge):\n"
	       "  add-br BRIDGE, del-br BRIDGE, list-br, br-exists BRIDGE\n"
	       "Port commands:\n"
	       "  add-port BRIDGE PORT [COLUMN=VALUE]..., del-port [BRIDGE] "
	       "PORT,\n"
	       "  list-ports BRIDGE, list-ifaces BRIDGE, port-to-br PORT, "
	       "iface-to-br IFACE\n"
	       "Database commands (tables Bridge, Port, Interface):\n"
	       "  set TABLE RECORD COLUMN[:KEY]=VALUE..., get TABLE RECORD "
	       "COLUMN[:KEY]...,\n"
	       "  list TABLE [RECORD]..., find TABLE COLUMN[:KEY]=VALUE..., "
	       "comment [ARG]...\n"
	       "Options: --may-exist, --if-exists, --columns=COLS, --bare, "
	       "--oneline,\n"
	       "  -f/--format=list|table|json, -d/--data=string|bare|json, "
	       "--no-headings,\n"
	       "  -t/--timeout=SECS, --dry-run, --db=DB (ignored),\n"
	       "  --file-prefix=P (vsw's DPDK file prefix, default "
	       "$VSW_FILE_PREFIX or \"%s\"),\n"
	       "  -s/--socket=PATH (vsw's telemetry socket)\n",
	       ctl_prog, ctl_prog, DEFAULT_PREFIX);
}

/* SIGALRM: --timeout ran out; end by the signal, as ovs-vsctl does. */
static void on_alarm(int sig)
{
	static const char msg[] = ": timed out (--timeout), terminating\n";

	if (write(STDERR_FILENO, ctl_prog, strlen(ctl_prog)) > 0 &&
	    write(STDERR_FILENO, msg, sizeof(msg) - 1) > 0) {
		/* said */
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static int set_path(struct ctl *ctl, const struct vs_opts *o)
{
	const char *prefix = o->prefix ? o->prefix : getenv("VSW_FILE_PREFIX");

	if (prefix == NULL || prefix[0] == '\0')
		prefix = DEFAULT_PREFIX;
	ctl->prefix = o->sock ? NULL : prefix;
	if (o->sock != NULL && snprintf(ctl->path, sizeof(ctl->path), "%s",
					o->sock) < (int)sizeof(ctl->path))
		return 0;
	if (o->sock == NULL &&
	    snprintf(ctl->path, sizeof(ctl->path), "%s/%s/%s", RUNTIME_DIR,
		     prefix, SOCKET_NAME) < (int)sizeof(ctl->path))
		return 0;
	return error("socket path too long");
}

/* Run every command on the model, commit, print; the exit code. */
static int run(struct ctl *ctl, const struct vs_opts *o, struct vs_cmd *cmds,
	       int n)
{
	struct vs_model *m = calloc(1, sizeof(*m));
	struct vs_out *outs = calloc((size_t)n, sizeof(*outs));
	char err[VS_ERR_MAX];
	bool rw = false;
	int rc = vs_model_load(ctl, m);

	for (int i = 0; rc == 0 && i < n; i++) {
		rw |= cmds[i].syn->rw;
		rc = vs_run(m, &cmds[i], &outs[i], err, sizeof(err));
		if (rc == -2) /* br-exists: no such bridge */
			rc = 2;
		else if (rc < 0)
			rc = error("%s", err);
	}
	if (rc == 0 && rw && vs_check(m, err, sizeof(err)) < 0)
		rc = error("%s", err);
	if (rc == 0 && rw && !o->dry_run &&
	    vs_commit(ctl, m, err, sizeof(err)) < 0)
		rc = error("%s", err);
	for (int i = 0; i < n; i++) /* output only once it all committed */
		if (rc == 0)
			vs_print(o, &outs[i]);
		else
			vs_out_free(&outs[i]);
	free(outs);
	free(m);
	return rc;
}

int main(int argc, char **argv)
{
	struct vs_opts o = {.headings = true};
	struct ctl ctl = {.fd = -1, .timeout = DEFAULT_WAIT};
	struct vs_cmd *cmds = NULL;
	char err[VS_ERR_MAX];
	const char *slash = strrchr(argv[0], '/');
	int n = 0, rc;

	ctl_prog = slash ? slash + 1 : argv[0];
	if (vs_parse(argc, argv, &o, &cmds, &n, err, sizeof(err)) < 0) {
		free(cmds);
		return error("%s", err);
	}
	if (o.help || o.version) {
		if (o.help)
			usage();
		else
			printf("%s (vsw) %s\n", ctl_prog, VSW_VERSION);
		free(cmds);
		return 0;
	}
	if (o.timeout > 0) {
		signal(SIGALRM, on_alarm);
		alarm(o.timeout);
		ctl.timeout = o.timeout;
	}
	rc = set_path(&ctl, &o);
	if (rc == 0)
		rc = run(&ctl, &o, cmds, n);
	if (ctl.fd >= 0)
		close(ctl.fd);
	free(ctl.buf);
	free(cmds);
	return rc;
}
