/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vsw: start-up, the control loop and shutdown.
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

#include "common/debug.h"
#include "control/control.h"
#include "eal_args.h"
#include "notify.h"
#include "api/tel.h"
#include "vsw.h"
#include "config/vsw_keys.h"

struct vsw_switch vsw = {.ctl_lock = PTHREAD_MUTEX_INITIALIZER, .wake_fd = -1};

struct app_opts {
	const char *config;
	const char *run_dir;
	bool check;
	bool help_config, markdown;
	bool print_config, reset_state;
	char state_note[VSW_ERR_MAX]; /* logged once running */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vsw [EAL args] -- [-c FILE] [--check] [--reset-state]\n"
		"  -c, --config FILE  switch config (INI); default: two "
		"vhost-user ports vm0, vm1\n"
		"                     in the run directory\n"
		"  -r, --run-dir DIR  run directory of the embedded default "
		"(default /run/vsw)\n"
		"  --check            validate the config (and state file), "
		"exit\n"
		"  --print-config     print the config vsw would start with "
		"(the\n"
		"                     state file over the config file), exit\n"
		"  --reset-state      start from the config file: the state "
		"file\n"
		"                     (run-time changes) is moved to "
		"STATE.old\n"
		"  --help-config [--markdown]\n"
		"                     every config key: type, range, default, "
		"run time, help\n"
		"  -h, --help         this text\n"
		"EAL defaults added when absent: --file-prefix vsw; --no-huge "
		"-m 1024 when no\nhugepage is free. vswctl talks to the "
		"telemetry socket of that prefix.\n");
}

/* Parse the part after "--". Returns 0, 1 (help shown) or -EINVAL. */
static int parse_app_args(int argc, char **argv, struct app_opts *o)
{
	static const struct option lo[] = {
		{"config", required_argument, NULL, 'c'},
		{"check", no_argument, NULL, 'C'},
		{"run-dir", required_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{"help-config", no_argument, NULL, 'K'},
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
			usage(stdout);
			return 1;
		case 'K':
			o->help_config = true;
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
	if (o->help_config) {
		vsw_keys_print(stdout, o->markdown);
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
		rc = vsw_state_startup(
			cfg, o->reset_state, o->check || o->print_config,
			o->state_note, sizeof(o->state_note), err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "vsw: %s\n", err);
	return rc;
}

static bool lcore_is_worker(unsigned int lcore, void *arg)
{
	(void)arg;
	return lcore < RTE_MAX_LCORE && rte_lcore_is_enabled(lcore) &&
	       lcore != rte_get_main_lcore();
}

static void on_signal(int sig)
{
	(void)sig;
	__atomic_store_n(&vsw.quit, true, __ATOMIC_RELAXED);
}

static void fdb_sync(void *arg)
{
	(void)arg;
	vsw_quiesce();
}

static void *fdb_alloc(size_t size, void *arg)
{
	(void)arg;
	return rte_zmalloc("vsw_fdb", size, RTE_CACHE_LINE_SIZE);
}

static void fdb_free(void *p, void *arg)
{
	(void)arg;
	rte_free(p);
}

static int setup_core(struct vsw_switch *sw)
{
	struct vsw_fdb_params fp = {
		.max_entries = sw->cfg.sw.fdb_size,
		.sync = fdb_sync,
		.alloc = fdb_alloc,
		.free = fdb_free,
	};
	size_t qsz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);

	sw->mp = rte_pktmbuf_pool_create(
		"vsw_mbufs", sw->cfg.sw.mbufs, VSW_MBUF_CACHE, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	sw->qs = rte_zmalloc("vsw_qsbr", qsz, RTE_CACHE_LINE_SIZE);
	sw->fdb = vsw_fdb_create(&fp);
	if (sw->mp == NULL || sw->qs == NULL || sw->fdb == NULL) {
		VSW_LOG(ERR,
			"out of memory for mbufs, RCU or FDB (%u mbufs, "
			"fdb-size %u)",
			sw->cfg.sw.mbufs, sw->cfg.sw.fdb_size);
		return -ENOMEM;
	}
	rte_rcu_qsbr_init(sw->qs, RTE_MAX_LCORE);
	sw->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (sw->wake_fd < 0)
		return -errno;
	vsw_ctl_fdb_refresh(sw);
	memset(sw->rxq_owner, VSW_RXQ_UNASSIGNED, sizeof(sw->rxq_owner));
	sw->now_s = 1;
	sw->start_tsc = rte_rdtsc();
	sw->test_qs_delay_us =
		vsw_test_hook_us("VSW_TEST_QS_DELAY_US",
				 "workers sleep after each quiescent report");
	return 0;
}

static int setup_workers(struct vsw_switch *sw)
{
	unsigned int lcore;

	RTE_LCORE_FOREACH_WORKER(lcore)
	{
		struct vsw_worker *w;

		if (sw->n_workers == VSW_MAX_WORKERS)
			break;
		w = rte_zmalloc("vsw_worker", sizeof(*w), RTE_CACHE_LINE_SIZE);
		if (w == NULL)
			return -ENOMEM;
		w->lcore = lcore;
		w->idx = sw->n_workers;
		sw->workers[sw->n_workers++] = w;
	}
	if (sw->n_workers == 0) {
		fprintf(stderr, "vsw: no worker lcore: give EAL at least two "
				"lcores, e.g. -l 0,1 (lcore 0 runs control)\n");
		return -EINVAL;
	}
	return 0;
}

static int setup_ports(struct vsw_switch *sw)
{
	struct vsw_port_env env;
	char err[VSW_ERR_MAX];
	int rc;

	vsw_port_env_fill(sw, &env);
	vsw_port_lib_init(&env);
	for (unsigned int i = 0; i < sw->cfg.n_ports; i++) {
		rc = vsw_port_create(&sw->cfg.ports[i], (uint16_t)i, &env,
				     &sw->ports[i], err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "vsw: %s\n", err);
			return rc;
		}
		vsw_fdb_set_port_limit(sw->fdb, (uint16_t)i,
				       sw->cfg.ports[i].max_macs);
	}
	rc = vsw_dp_build(sw, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "vsw: %s\n", err);
	return rc;
}

static void teardown(struct vsw_switch *sw)
{
	__atomic_store_n(&sw->quit, true, __ATOMIC_RELAXED);
	rte_eal_mp_wait_lcore();
	/* Telemetry threads live on: from now on every command refuses. */
	pthread_mutex_lock(&sw->ctl_lock);
	sw->stopping = true;
	for (int i = 0; i < VSW_MAX_PORTS; i++) {
		vsw_port_destroy(sw->ports[i]);
		sw->ports[i] = NULL;
	}
	pthread_mutex_unlock(&sw->ctl_lock);
	vsw_fdb_destroy(sw->fdb);
	rte_mempool_free(sw->mp);
	rmdir(sw->cfg.sw.run_dir); /* only if we left it empty */
}

static int run(struct vsw_switch *sw, const char *state_note)
{
	unsigned int workers = rte_lcore_count() - 1;
	char err[VSW_ERR_MAX];
	int rc;

	rc = vsw_config_check_mbufs(
		&sw->cfg, workers < VSW_MAX_WORKERS ? workers : VSW_MAX_WORKERS,
		err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "vsw: %s\n", err);
		return rc;
	}
	rc = setup_core(sw);
	if (rc == 0)
		rc = setup_workers(sw);
	if (rc == 0 && (rc = setup_ports(sw)) < 0 &&
	    strncmp(state_note, "state restored", 14) == 0)
		fprintf(stderr,
			"vsw: the ports came from the state file (%s); "
			"--reset-state starts from the config file alone\n",
			state_note);
	if (rc == 0 && (rc = vsw_state_init(sw, err, sizeof(err))) < 0)
		fprintf(stderr, "vsw: %s\n", err);
	if (rc == 0 && state_note[0] != '\0')
		VSW_LOG(INFO, "%s", state_note);
	if (rc == 0 &&
	    (vsw_tel_register_show() < 0 || vsw_tel_register_stats() < 0 ||
	     vsw_tel_register_cmds() < 0)) {
		VSW_LOG(ERR, "cannot register telemetry commands");
		rc = -EIO;
	}
	if (rc == 0) {
		for (unsigned int i = 0; i < sw->n_workers; i++)
			rte_eal_remote_launch(vsw_worker_main, sw->workers[i],
					      sw->workers[i]->lcore);
		VSW_LOG(INFO, "forwarding: %u ports, %u workers, config %s",
			sw->cfg.n_ports, sw->n_workers, sw->cfg.source);
		/* systemd (Type=notify): ready once ports and workers are */
		vsw_notify("READY=1\nSTATUS=forwarding: %u ports, %u workers",
			   sw->cfg.n_ports, sw->n_workers);
		vsw_control_loop(sw);
		VSW_LOG(INFO, "stopping");
		vsw_notify("STOPPING=1\nSTATUS=stopping: removing ports");
	}
	teardown(sw);
	return rc;
}

int main(int argc, char **argv)
{
	char *eal_argv[VSW_MAX_EAL_ARGS], err[VSW_ERR_MAX];
	struct app_opts o = {0};
	int sep = argc, n, rc;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			sep = i;
			break;
		}
	if (argc > 1 && (strcmp(argv[1], "--help-config") == 0 ||
			 strcmp(argv[1], "--print-config") == 0))
		sep = 0; /* vsw --help-config: no EAL arguments */
	rc = parse_app_args(argc - sep, argv + sep, &o);
	if (rc != 0)
		return rc > 0 ? 0 : 2;
	if (load_config(&o, &vsw.cfg) < 0)
		return 1;
	if (o.check) {
		printf("%s: ok, %u port(s)%s%s\n", vsw.cfg.source,
		       vsw.cfg.n_ports, o.state_note[0] ? "; " : "",
		       o.state_note);
		return 0;
	}
	if (o.print_config)
		return vsw_config_write(&vsw.cfg, stdout, err, sizeof(err)) < 0
			       ? (fprintf(stderr, "vsw: %s\n", err), 1)
			       : 0;
	n = vsw_eal_args(&vsw.cfg, sep, argv, eal_argv, vsw.file_prefix,
			 sizeof(vsw.file_prefix));
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
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	/* a guest's call fd may be a pipe it closed: EPIPE, not death */
	signal(SIGPIPE, SIG_IGN);
	rc = vsw_config_validate(&vsw.cfg, lcore_is_worker, NULL, err,
				 sizeof(err));
	if (rc < 0)
		fprintf(stderr, "vsw: %s\n", err);
	else
		rc = run(&vsw, o.state_note);
	if (rc < 0)
		vsw_notify("STATUS=failed: %s\nERRNO=%d", strerror(-rc), -rc);
	vsw_dp_free(&vsw);
	rte_eal_cleanup();
	return rc < 0 ? 1 : 0;
}
