/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vsw: options, the config, EAL, signals; the switch itself is switch.c.
 *
 * The config is read and checked before EAL starts, so a wrong file
 * touches nothing.  EAL gets a default --file-prefix (vsw) and, when no
 * hugepage is free, --no-huge, so that `vsw` alone just works.  The main
 * lcore is the control thread: it advances the FDB clock, polls link
 * states and ages the FDB; every other lcore runs a worker.  SIGINT and
 * SIGTERM stop the workers, remove the ports (and their sockets) and
 * release EAL's memory.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_pdump.h>

#include "common/debug.h"
#include "control/control.h"
#include "eal_args.h"
#include "notify.h"
#include "api/tel.h"
#include "help.h"
#include "switch.h"
#include "config/vsw_keys.h"

struct app_opts {
	const char *config;
	const char *run_dir;
	bool check;
	bool help_config, help_counters, markdown;
	bool print_config, reset_state;
	char state_note[VSW_ERR_MAX]; /* logged once running */
};

/* Parse the part after "--". Returns 0, 1 (help shown) or -EINVAL. */
static int parse_app_args(int argc, char **argv, struct app_opts *o)
{
	static const struct option lo[] = {
		{"config", required_argument, NULL, 'c'},
		{"check", no_argument, NULL, 'C'},
		{"run-dir", required_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{"help-config", no_argument, NULL, 'K'},
		{"help-counters", no_argument, NULL, 'N'},
		{"markdown", no_argument, NULL, 'M'},
		{"print-config", no_argument, NULL, 'P'},
		{"reset-state", no_argument, NULL, 'R'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "c:r:h", lo, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->config = optarg;
			break;
		case 'C':
			o->check = true;
			break;
		case 'r':
			o->run_dir = optarg;
			break;
		case 'h':
			vsw_help_usage(stdout);
			return 1;
		case 'K':
			o->help_config = true;
			break;
		case 'N':
			o->help_counters = true;
			break;
		case 'M':
			o->markdown = true;
			break;
		case 'P':
			o->print_config = true;
			break;
		case 'R':
			o->reset_state = true;
			break;
		default:
			fprintf(stderr,
				"vsw: unknown or incomplete option "
				"'%s'; expected -c FILE, --check or --help\n",
				argv[optind - 1]);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "vsw: unexpected argument '%s'\n",
			argv[optind]);
		return -EINVAL;
	}
	if (o->help_config || o->help_counters) {
		if (o->help_config)
			vsw_keys_print(stdout, o->markdown);
		else
			vsw_help_counters(stdout, o->markdown);
		return 1;
	}
	if (o->run_dir != NULL && (o->config != NULL || o->run_dir[0] != '/')) {
		fprintf(stderr,
			"vsw: --run-dir expects an absolute path and "
			"applies to the embedded default only (set run-dir "
			"in the [switch] section of a config file)\n");
		return -EINVAL;
	}
	return 0;
}

/* The config file (or the embedded default), the state file over it. */
static int load_config(struct app_opts *o, struct vsw_config *cfg)
{
	char err[VSW_ERR_MAX];
	int rc = 0;

	if (o->config == NULL)
		vsw_config_default(cfg, o->run_dir);
	else
		rc = vsw_config_load(o->config, cfg, err, sizeof(err));
	if (rc == 0)
		rc = vsw_statefile_startup(
			cfg, o->reset_state, o->check || o->print_config,
			o->state_note, sizeof(o->state_note), err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "vsw: %s\n", err);
	return rc;
}

/* An lcore the switch may pin a queue to: enabled, not the main one. */
static bool lcore_usable(unsigned int lcore, void *arg)
{
	(void)arg;
	return lcore < RTE_MAX_LCORE && rte_lcore_is_enabled(lcore) &&
	       lcore != rte_get_main_lcore();
}

static struct vsw_switch *running;

static void on_signal(int sig)
{
	(void)sig;
	vsw_switch_stop(running);
}

/* EAL up: signals, then the switch (config checked against the lcores). */
static int run(struct vsw_switch *sw, const struct app_opts *o)
{
	char err[VSW_ERR_MAX];
	int rc;

	running = sw;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* a guest's call fd may be a pipe it closed: EPIPE, not death */
	signal(SIGPIPE, SIG_IGN);
	rc = vsw_config_validate(&sw->ctl.cfg, lcore_usable, NULL, err,
				 sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "vsw: %s\n", err);
		return rc;
	}
	rc = vsw_switch_create(sw, o->state_note);
	if (rc == 0)
		vsw_switch_run(sw);
	vsw_switch_destroy(sw);
	return rc;
}

int main(int argc, char **argv)
{
	char *eal_argv[VSW_MAX_EAL_ARGS], err[VSW_ERR_MAX];
	struct vsw_switch *sw = vsw_switch_get();
	struct vsw_config *cfg = &sw->ctl.cfg;
	struct app_opts o = {0};
	int sep = argc, n, rc;
	bool pdump;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			sep = i;
			break;
		}
	if (argc > 1 && (strcmp(argv[1], "--help-config") == 0 ||
			 strcmp(argv[1], "--help-counters") == 0 ||
			 strcmp(argv[1], "--print-config") == 0))
		sep = 0; /* vsw --help-config: no EAL arguments */
	rc = parse_app_args(argc - sep, argv + sep, &o);
	if (rc != 0)
		return rc > 0 ? 0 : 2;
	if (load_config(&o, cfg) < 0)
		return 1;
	if (o.check) {
		printf("%s: ok, %u port(s)%s%s\n", cfg->source, cfg->n_ports,
		       o.state_note[0] ? "; " : "", o.state_note);
		return 0;
	}
	if (o.print_config)
		return vsw_config_write(cfg, stdout, err, sizeof(err)) < 0
			       ? (fprintf(stderr, "vsw: %s\n", err), 1)
			       : 0;
	n = vsw_eal_args(cfg, sep, argv, eal_argv, sw->ctl.file_prefix,
			 sizeof(sw->ctl.file_prefix));
	if (n < 0)
		return 2;
	if (rte_eal_init(n, eal_argv) < 0) {
		fprintf(stderr, "vsw: EAL init failed: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	/* vhost's per-message INFO lines drown ours; --log-level overrides. */
	if (!vsw_has_arg(sep, argv, "--log-level"))
		rte_log_set_level_pattern("lib.vhost.*", RTE_LOG_NOTICE);
	/* dpdk-dumpcap (a secondary process) captures ethdev ports through
	 * rte_pdump; without multiprocess (--in-memory) it cannot attach */
	pdump = rte_pdump_init() == 0;
	if (!pdump)
		VSW_LOG(NOTICE,
			"rte_pdump_init: %s: dpdk-dumpcap cannot attach",
			rte_strerror(rte_errno));
	rc = run(sw, &o);
	if (pdump)
		rte_pdump_uninit();
	if (rc < 0)
		vsw_notify("STATUS=failed: %s\nERRNO=%d", strerror(-rc), -rc);
	rte_eal_cleanup();
	return rc < 0 ? 1 : 0;
}
