/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vsw-vsctl's command line (tools/vsw-vsctl/parse.c) against ovs-vsctl's
 * rules: global options until the first non-option ("--" ends them),
 * commands split at "--", command options before the command name or
 * before the first command, argument counts, and the exact command
 * lines os-vif (vsctl mode) and the userspace CNI send.  No vsw needed.
 */
#include <stdlib.h>
#include <string.h>

#include "vsctl.h"
#include "vsw_test.h"

static char err[VS_ERR_MAX];
static struct vs_opts o;
static struct vs_cmd *cmds;
static int n;

/* Parse the NULL-terminated words after the program name. */
static int parse(const char *const *words)
{
	char *argv[64] = {"ovs-vsctl"};
	int argc = 1;

	while (words[argc - 1] != NULL)
		argv[argc] = (char *)words[argc - 1], argc++;
	memset(&o, 0, sizeof(o));
	o.headings = true;
	free(cmds);
	cmds = NULL;
	err[0] = '\0';
	return vs_parse(argc, argv, &o, &cmds, &n, err, sizeof(err));
}

#define P(...) parse((const char *const[]){__VA_ARGS__, NULL})

static void test_os_vif(void)
{
	/* os-vif impl_vsctl.py: --timeout --oneline --format=json --db, then
	 * "--" before each command */
	CHECK(P("--timeout=120", "--oneline", "--format=json",
		"--db=tcp:127.0.0.1:6640", "--", "--may-exist", "add-br",
		"br-int", "--", "set", "Bridge", "br-int",
		"datapath_type=netdev", "--", "--may-exist", "add-port",
		"br-int", "vhu1b2c3d4e-5f", "--", "set", "Port",
		"vhu1b2c3d4e-5f", "tag=4095") == 0);
	CHECK(n == 4 && o.timeout == 120 && o.oneline &&
	      o.format == VS_FMT_JSON &&
	      strcmp(o.db, "tcp:127.0.0.1:6640") == 0);
	CHECK(strcmp(cmds[0].syn->name, "add-br") == 0 && cmds[0].may_exist &&
	      cmds[0].argc == 2 && strcmp(cmds[0].argv[1], "br-int") == 0);
	CHECK(strcmp(cmds[1].syn->name, "set") == 0 && cmds[1].argc == 4 &&
	      !cmds[1].may_exist);
	CHECK(cmds[2].may_exist && cmds[2].argc == 3);
	CHECK(P("--timeout=120", "--oneline", "--format=json", "--",
		"--columns=mtu_request", "list", "Interface") == 0);
	CHECK(n == 1 && strcmp(cmds[0].columns, "mtu_request") == 0);
	CHECK(P("--timeout=120", "--oneline", "--format=json", "--",
		"--if-exists", "del-port", "br-int", "vhu1") == 0);
	CHECK(n == 1 && cmds[0].if_exists && cmds[0].argc == 3);
}

static void test_cni(void)
{
	/* userspace CNI cniovs/ovsctrl.go: options before the command */
	CHECK(P("--bare", "--columns=mac", "find", "port", "name=x-net1") == 0);
	CHECK(n == 1 && o.cell == VS_CELL_BARE && !o.headings &&
	      o.format == VS_FMT_LIST && strcmp(cmds[0].columns, "mac") == 0);
	CHECK(P("add-br", "br0", "--", "set", "bridge", "br0",
		"datapath_type=netdev") == 0);
	CHECK(n == 2 && cmds[1].argc == 4);
	CHECK(P("--if-exists", "del-port", "br0", "x-net1") == 0);
	CHECK(n == 1 && cmds[0].if_exists);
}

static void test_errors(void)
{
	CHECK(P("set-controller", "br0", "tcp:1.2.3.4") < 0 &&
	      strstr(err, "unsupported: command 'set-controller'") != NULL);
	CHECK(P("--frobnicate", "list-br") < 0 &&
	      strcmp(err, "unrecognized option '--frobnicate'") == 0);
	CHECK(P("--timeout=0", "list-br") < 0 &&
	      strcmp(err, "value 0 on -t or --timeout is invalid") == 0);
	CHECK(P("--may-exist", "del-br", "br0") < 0 &&
	      strcmp(err, "'del-br' command has no '--may-exist' option") == 0);
	CHECK(P("--columns", "find", "port") < 0 &&
	      strstr(err, "missing argument to '--columns'") != NULL);
	CHECK(P("add-port", "br0") < 0 &&
	      strcmp(err, "'add-port' command requires at least 2 "
			  "arguments") == 0);
	CHECK(P("del-port", "a", "b", "c") < 0 &&
	      strcmp(err, "'del-port' command takes at most 2 arguments") == 0);
	CHECK(P("--oneline") < 0 && strstr(err, "missing command name"));
	CHECK(P("--if-exists", "--if-exists", "del-br", "b") < 0 &&
	      strstr(err, "specified multiple times") != NULL);
	CHECK(P("-t", "5", "-f", "table", "list-br") == 0 && o.timeout == 5 &&
	      o.format == VS_FMT_TABLE);
	CHECK(P("--format=html", "list-br") < 0);
	CHECK(P("--help") == 0 && o.help);
}

int main(void)
{
	RUN(test_os_vif);
	RUN(test_cni);
	RUN(test_errors);
	free(cmds);
	return TEST_EXIT();
}
