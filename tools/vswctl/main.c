/*
 * vswctl: command-line client of vsw's runtime interface (DPDK telemetry,
 * docs/telemetry.md; user reference docs/cli.md). Each verb of the CLI
 * (table `verbs` below) turns one or more commands into a human table or
 * key: value list, or with --json into one line of JSON. This file holds
 * the verb table, usage and the command line; transport.c speaks to vsw,
 * table.c prints, verbs_*.c implement the verbs.
 */
#include "config/vsw_keys.h"
#include "vswctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_PREFIX "vsw"
#define RUNTIME_DIR "/var/run/dpdk"
#define SOCKET_NAME "dpdk_telemetry.v2"

struct verb {
	const char *name;
	int min_args;
	int max_args; /* -1: no limit */
	const char *args;
	const char *help;
	int (*fn)(struct ctl *ctl, int argc, char **argv);
	const char *what; /* what a wrong count expects; NULL: args */
};

static int verb_help(struct ctl *ctl, int argc, char **argv);

static const struct verb verbs[] = {
	{"info", 0, 0, "", "daemon information and settings", verb_info, NULL},
	{"ports", 0, 0, "", "all ports with their counters", verb_ports, NULL},
	{"port", 1, 1, "NAME", "one port: every counter", verb_port,
	 "a port NAME"},
	{"fdb", 0, 2, "[--port NAME]", "MAC table (forwarding database)",
	 verb_fdb, NULL},
	{"workers", 0, 0, "", "workers: load, cycles/packet, rx queues, stalls",
	 verb_workers, NULL},
	{"queues", 1, 1, "PORT", "rx queues of a port, guest interrupts",
	 verb_queues, "a PORT name"},
	{"vteps", 1, 1, "PORT", "a vxlan port: remote VTEPs, ARP, drops",
	 verb_vteps, "a vxlan PORT name"},
	{"fdb-stats", 0, 0, "", "MAC table statistics", verb_fdb_stats, NULL},
	{"show-config", 0, 0, "",
	 "the running config as INI (what the state file\nholds)",
	 verb_show_config, NULL},
	{"watch", 0, 4, "[--interval SEC] [--count N]",
	 "live rates of ports and workers", verb_watch, NULL},
	{"metrics", 0, 0, "", "every counter, Prometheus text format",
	 verb_metrics, NULL},
	{"port-add", 2, -1, "NAME KEY=VALUE...",
	 "add a port; KEY=VALUE: type=vhost-user path=SOCK\n"
	 "mode=server|client [queues=N], or type=ethdev\n"
	 "devargs=ARGS [rxq=N] [txq=N]; any type: [lcores=L]\n"
	 "[mtu=N] [max-macs=N] [allowed-macs=\"MAC...\"]\n"
	 "[vlan-mode=M] [tag=N] [trunks=10,20-30]\n"
	 "[allowed-ips=\"IP[/LEN]...\"] [storm-broadcast-pps=N]\n"
	 "[storm-multicast-pps=N] [storm-unknown-pps=N]",
	 verb_port_add, "NAME type=vhost-user|ethdev KEY=VALUE..."},
	{"port-del", 1, 1, "NAME", "remove a port", verb_port_del,
	 "a port NAME"},
	{"port-set", 2, -1, "NAME KEY=VALUE...",
	 "change a port at run time; KEY=VALUE: mtu=N\n"
	 "max-macs=N allowed-macs=\"MAC MAC...\"|any\n"
	 "vlan-mode=access|trunk|native-untagged|native-tagged\n"
	 "tag=N trunks=all|10,20-30\n"
	 "allowed-ips=\"IP[/LEN] ...\"|any storm-broadcast-pps=N\n"
	 "storm-multicast-pps=N storm-unknown-pps=N (0 = off)",
	 verb_port_set, NULL},
	{"rxq-move", 3, 3, "PORT QUEUE WORKER",
	 "move an rx queue to another worker", verb_rxq_move, NULL},
	{"rxq-rebalance", 0, 0, "", "spread rx queues over the workers by load",
	 verb_rxq_rebalance, NULL},
	{"set", 2, 2, "KEY VALUE", "change a [switch] setting at run time",
	 verb_set, NULL},
	{"fdb-flush", 0, 1, "[PORT]", "remove dynamic MAC entries",
	 verb_fdb_flush, NULL},
	{"fdb-add", 2, 3, "MAC PORT [vlan=N]", "add a static MAC entry",
	 verb_fdb_add, NULL},
	{"fdb-del", 1, 2, "MAC [vlan=N]", "remove a MAC entry", verb_fdb_del,
	 NULL},
	{"stats-clear", 0, 0, "", "zero every counter", verb_stats_clear, NULL},
	{"capture", 1, -1, "PORT [rx|tx|both] [OPTS] -w FILE",
	 "capture a port's frames (default both) to a new\n"
	 "pcapng FILE (absolute: vsw writes it) until\n"
	 "--count N are written or Ctrl-C; OPTS: --filter\n"
	 "EXPR (tcpdump's syntax) --count N --ring N\n"
	 "(frames, 2048) --snaplen N (bytes, 65535);\n"
	 "prints frames written, dropped by the capture\n"
	 "(could not keep up) and filtered out",
	 verb_capture, "a PORT name and -w FILE"},
	{"capture-stop", 1, 1, "PORT",
	 "stop a capture (its vswctl capture was killed)", verb_capture_stop,
	 "a PORT name"},
	{"captures", 0, 0, "", "running captures and their counters",
	 verb_captures, NULL},
	{"raw", 1, -1, "CMD...",
	 "send telemetry commands on one connection, print each reply",
	 verb_raw, "command strings, e.g. /vsw/info"},
	{"help", 0, 0, "", "this help", verb_help, NULL},
	{NULL, 0, 0, NULL, NULL, NULL, NULL},
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: vswctl [--file-prefix P | -s SOCKET] [--json] "
		"[--timeout SEC] VERB [ARGS...]\n\n"
		"Client of vsw's runtime interface (DPDK telemetry socket\n"
		"%s/<P>/%s; P defaults to $VSW_FILE_PREFIX or \"%s\").\n\n"
		"Verbs:\n",
		RUNTIME_DIR, SOCKET_NAME, DEFAULT_PREFIX);
	for (const struct verb *v = verbs; v->name != NULL; v++) {
		char left[48];

		const char *h = v->help, *nl;

		snprintf(left, sizeof(left), "%s %s", v->name, v->args);
		if (strlen(left) > 22)
			fprintf(f, "  %s\n%25s", left, "");
		else
			fprintf(f, "  %-22s ", left);
		while ((nl = strchr(h, '\n')) != NULL) {
			fprintf(f, "%.*s\n%25s", (int)(nl - h), h, "");
			h = nl + 1;
		}
		fprintf(f, "%s\n", h);
	}
	fprintf(f, "\nOptions:\n"
		   "  --file-prefix P        DPDK file prefix vsw runs with\n"
		   "  -s, --socket SOCKET    telemetry socket path\n"
		   "  --json                 print machine-readable JSON\n"
		   "  --timeout SEC          reply timeout (default 5)\n"
		   "\nExit: 0 ok, 1 error (from vsw or connection), "
		   "2 usage error.\n");
}

static int verb_help(struct ctl *ctl, int argc, char **argv)
{
	(void)ctl;
	(void)argc;
	(void)argv;
	usage(stdout);
	return EXIT_OK;
}

/* ---- command line ---------------------------------------------------- */

static int check_args(const struct verb *v, int argc)
{
	const char *what = v->what ? v->what : v->args;
	char keys[256], buf[320];

	if (v->fn == verb_port_set) { /* the keys a running port takes */
		snprintf(buf, sizeof(buf), "%s (%s)", v->args,
			 vsw_keys_list(keys, sizeof(keys), VSW_SECT_PORT,
				       VSW_KEY_ANY, 1));
		what = buf;
	}

	if (argc < v->min_args)
		return usage_error("'%s' expects %s", v->name, what);
	if (v->max_args >= 0 && argc > v->max_args) {
		if (v->max_args == 0)
			return usage_error("'%s' takes no argument", v->name);
		return usage_error("'%s' expects %s, got extra arguments",
				   v->name, what);
	}
	return 0;
}

/* Value of an option: "--opt=V" or the next argument. */
static const char *opt_value(const char *arg, const char *name, int *i,
			     int argc, char **argv)
{
	size_t n = strlen(name);

	if (strncmp(arg, name, n) == 0 && arg[n] == '=')
		return arg + n + 1;
	if (strcmp(arg, name) != 0)
		return NULL;
	if (*i + 1 >= argc) {
		usage_error("option '%s' expects a value", name);
		exit(EXIT_USAGE);
	}
	return argv[++*i];
}

static int set_timeout(struct ctl *ctl, const char *s)
{
	char *end;

	ctl->timeout = strtod(s, &end);
	if (*end != '\0' || end == s || !(ctl->timeout > 0) ||
	    ctl->timeout > 86400)
		return usage_error("--timeout expects seconds > 0, got '%s'",
				   s);
	return 0;
}

/* Consume one global option at argv[*i]: 1 if taken, 0 if not, <0 usage. */
static int global_option(struct ctl *ctl, int *i, int argc, char **argv,
			 const char **sock)
{
	const char *a = argv[*i], *v;

	if (strcmp(a, "--json") == 0) {
		ctl->json = 1;
	} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
		ctl->help = 1;
	} else if ((v = opt_value(a, "--file-prefix", i, argc, argv))) {
		ctl->prefix = v;
	} else if ((v = opt_value(a, "--socket", i, argc, argv)) ||
		   (v = opt_value(a, "-s", i, argc, argv))) {
		*sock = v;
	} else if ((v = opt_value(a, "--timeout", i, argc, argv))) {
		if (set_timeout(ctl, v))
			return -1;
	} else {
		return 0;
	}
	return 1;
}

/* Options of single verbs, passed on to them: --port, --interval... */
static int verb_option(const char *arg)
{
	static const char *const opts[] = {"--port",   "--interval", "--count",
					   "--filter", "-w",	     "--ring",
					   "--snaplen"};

	for (size_t i = 0; i < sizeof(opts) / sizeof(*opts); i++) {
		size_t n = strlen(opts[i]);

		if (strncmp(arg, opts[i], n) == 0 &&
		    (arg[n] == '\0' || arg[n] == '='))
			return 1;
	}
	return 0;
}

/* Global options may appear anywhere; the rest go to pos[] in order. */
static int parse_args(struct ctl *ctl, int argc, char **argv, char **pos,
		      int *npos)
{
	const char *sock = NULL;
	int rc, dashdash = 0;

	for (int i = 1; i < argc; i++) {
		if (!dashdash && strcmp(argv[i], "--") == 0) {
			dashdash = 1;
			continue;
		}
		rc = dashdash ? 0 : global_option(ctl, &i, argc, argv, &sock);
		if (rc < 0)
			return EXIT_USAGE;
		if (rc == 0 && !dashdash && argv[i][0] == '-' &&
		    !verb_option(argv[i]))
			return usage_error("unknown option '%s'", argv[i]);
		if (rc == 0)
			pos[(*npos)++] = argv[i];
	}
	if (sock != NULL && strlen(sock) >= sizeof(ctl->path))
		return usage_error("socket path too long: %s", sock);
	if (sock != NULL) {
		snprintf(ctl->path, sizeof(ctl->path), "%s", sock);
		ctl->prefix = NULL;
	} else if (snprintf(ctl->path, sizeof(ctl->path), "%s/%s/%s",
			    RUNTIME_DIR, ctl->prefix,
			    SOCKET_NAME) >= (int)sizeof(ctl->path)) {
		return usage_error("file prefix too long: %s", ctl->prefix);
	}
	return 0;
}

static const struct verb *find_verb(const char *name)
{
	for (const struct verb *v = verbs; v->name != NULL; v++)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}

int main(int argc, char **argv)
{
	struct ctl ctl = {.timeout = 5, .fd = -1};
	char **pos = calloc((size_t)argc + 1, sizeof(*pos));
	const struct verb *v = NULL;
	int npos = 0, rc;

	ctl.prefix = getenv("VSW_FILE_PREFIX");
	if (ctl.prefix == NULL || ctl.prefix[0] == '\0')
		ctl.prefix = DEFAULT_PREFIX;
	rc = parse_args(&ctl, argc, argv, pos, &npos);
	if (rc == 0 && ctl.help)
		pos[0] = "help", npos = 1;
	if (rc == 0 && npos == 0)
		rc = usage_error("expected a verb");
	if (rc == 0 && (v = find_verb(pos[0])) == NULL)
		rc = usage_error("unknown verb '%s'", pos[0]);
	if (rc == 0)
		rc = check_args(v, npos - 1);
	if (rc == 0)
		rc = v->fn(&ctl, npos - 1, pos + 1);
	if (ctl.fd >= 0)
		close(ctl.fd);
	free(ctl.buf);
	free(pos);
	return rc;
}
