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

#include "vsw.h"

RTE_LOG_REGISTER_DEFAULT(vsw_logtype, INFO);

#define CTL_PERIOD_US 100000
#define CTL_GAP_US 5000
#define MAX_EAL_ARGS 128

struct vsw_switch vsw = {.ctl_lock = PTHREAD_MUTEX_INITIALIZER, .wake_fd = -1};

struct app_opts {
	const char *config;
	const char *run_dir;
	bool check;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vsw [EAL args] -- [-c FILE] [--check]\n"
		"  -c, --config FILE  switch config (INI); default: two "
		"vhost-user ports vm0, vm1\n"
		"                     in the run directory\n"
		"  -r, --run-dir DIR  run directory of the embedded default "
		"(default /run/vsw)\n"
		"  --check            validate the config and exit\n"
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
	if (o->run_dir != NULL && (o->config != NULL || o->run_dir[0] != '/')) {
		fprintf(stderr,
			"vsw: --run-dir expects an absolute path and "
			"applies to the embedded default only (set run-dir "
			"in the [switch] section of a config file)\n");
		return -EINVAL;
	}
	return 0;
}

static bool has_arg(int argc, char **argv, const char *name)
{
	size_t len = strlen(name);

	for (int i = 0; i < argc; i++)
		if (strncmp(argv[i], name, len) == 0 &&
		    (argv[i][len] == '\0' || argv[i][len] == '='))
			return true;
	return false;
}

/* Free hugepages, or 0 when no hugetlbfs is mounted to use them. */
static long free_hugepages(void)
{
	char line[256];
	bool mounted = false;
	long n = 0;
	FILE *f = fopen("/proc/mounts", "r");

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, " hugetlbfs ") != NULL)
			mounted = true;
	if (f != NULL)
		fclose(f);
	f = fopen("/proc/meminfo", "r");
	if (f == NULL || !mounted) {
		if (f != NULL)
			fclose(f);
		return 0;
	}
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "HugePages_Free: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

/*
 * Unless the user chose devices, vsw takes only the PCI devices its config
 * names (so it never grabs a NIC the host uses): -a for each, or --no-pci.
 */
static int pci_args(const struct vsw_config *cfg, int argc, char **argv,
		    char **out, int n, int max)
{
	static char allow[VSW_MAX_PORTS][VSW_DEVARGS_MAX + 4];
	int k = 0;

	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "-a", 2) == 0 ||
		    strncmp(argv[i], "-b", 2) == 0 ||
		    strncmp(argv[i], "--allow", 7) == 0 ||
		    strncmp(argv[i], "--block", 7) == 0 ||
		    strcmp(argv[i], "--no-pci") == 0)
			return n;
	for (unsigned int i = 0; i < cfg->n_ports && n < max; i++) {
		const struct vsw_port_conf *pc = &cfg->ports[i];

		if (pc->type != VSW_PORT_ETHDEV ||
		    !vsw_config_devargs_is_pci(pc->devargs))
			continue;
		snprintf(allow[k], sizeof(allow[k]), "-a%.*s",
			 (int)strcspn(pc->devargs, ","), pc->devargs);
		out[n++] = allow[k++];
	}
	if (k == 0 && n < max)
		out[n++] = (char *)"--no-pci";
	return n;
}

/* EAL args plus our defaults; returns the new argc. */
static int eal_args(const struct vsw_config *cfg, int argc, char **argv,
		    char **out, char *prefix, size_t plen)
{
	int n = 0;
	const char *fp = NULL;

	for (int i = 0; i < argc && n < MAX_EAL_ARGS / 2; i++) {
		out[n++] = argv[i];
		if (strncmp(argv[i], "--file-prefix=", 14) == 0)
			fp = argv[i] + 14;
		else if (strcmp(argv[i], "--file-prefix") == 0 && i + 1 < argc)
			fp = argv[i + 1];
	}
	if (fp == NULL) {
		out[n++] = (char *)"--file-prefix=vsw";
		fp = "vsw";
	}
	snprintf(prefix, plen, "%s", fp);
	n = pci_args(cfg, argc, argv, out, n, MAX_EAL_ARGS - 8);
	if (!has_arg(argc, argv, "--no-huge") && free_hugepages() == 0 &&
	    !has_arg(argc, argv, "--in-memory")) {
		out[n++] = (char *)"--no-huge";
		if (!has_arg(argc, argv, "-m") &&
		    !has_arg(argc, argv, "--socket-mem"))
			out[n++] = (char *)"-m1024";
		fprintf(stderr,
			"vsw: no free hugepages; running with "
			"--no-huge (reserve some for better performance)\n");
	}
	out[n] = NULL;
	return n;
}

static int load_config(const struct app_opts *o, struct vsw_config *cfg)
{
	char err[VSW_ERR_MAX];
	int rc;

	if (o->config == NULL) {
		vsw_config_default(cfg, o->run_dir);
		return 0;
	}
	rc = vsw_config_load(o->config, cfg, err, sizeof(err));
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
	if (getenv("VSW_TEST_QS_DELAY_US") != NULL) {
		sw->test_qs_delay_us =
			(unsigned int)atoi(getenv("VSW_TEST_QS_DELAY_US"));
		VSW_LOG(WARNING,
			"test hook: workers sleep %u us after each "
			"quiescent report",
			sw->test_qs_delay_us);
	}
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

void vsw_wake_control(void)
{
	uint64_t one = 1;

	if (vsw.wake_fd >= 0 && write(vsw.wake_fd, &one, sizeof(one)) < 0)
		return; /* already pending: fine */
}

/*
 * Wait CTL_PERIOD_US, or less when someone calls vsw_wake_control, but
 * leave ctl_lock free at least CTL_GAP_US between two passes: a guest that
 * keeps changing its rings must not starve telemetry clients.
 */
static void sleep_or_wake(struct vsw_switch *sw)
{
	struct pollfd pfd = {.fd = sw->wake_fd, .events = POLLIN};
	uint64_t v;

	rte_delay_us_sleep(CTL_GAP_US);
	if (poll(&pfd, 1, (CTL_PERIOD_US - CTL_GAP_US) / 1000) > 0 &&
	    read(sw->wake_fd, &v, sizeof(v)) < 0)
		return;
}

/* The control loop: clock, links, aging; until a signal. */
static void control_loop(struct vsw_switch *sw)
{
	uint64_t hz = rte_get_tsc_hz();
	uint32_t last_age = 0;

	while (!__atomic_load_n(&sw->quit, __ATOMIC_RELAXED)) {
		uint32_t now =
			1 + (uint32_t)((rte_rdtsc() - sw->start_tsc) / hz);
		uint32_t aging = sw->cfg.sw.fdb_aging_s;

		__atomic_store_n(&sw->now_s, now, __ATOMIC_RELAXED);
		pthread_mutex_lock(&sw->ctl_lock);
		for (int i = 0; i < VSW_MAX_PORTS; i++)
			if (sw->ports[i] && sw->ports[i]->ops->poll)
				sw->ports[i]->ops->poll(sw->ports[i]);
		vsw_ctl_poll_kicks(sw);
		/* age every quarter of the aging time, at least once a second */
		if (aging && now - last_age >= (aging / 4 ? aging / 4 : 1)) {
			vsw_fdb_age(sw->fdb, now, aging);
			last_age = now;
		}
		vsw_fdb_trim(sw->fdb, now); /* port limits, overshoot */
		vsw_ctl_auto_rebalance(sw, now);
		pthread_mutex_unlock(&sw->ctl_lock);
		sleep_or_wake(sw);
	}
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

static int run(struct vsw_switch *sw)
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
	if (rc == 0)
		rc = setup_ports(sw);
	if (rc == 0 && vsw_ctl_register() < 0) {
		VSW_LOG(ERR, "cannot register telemetry commands");
		rc = -EIO;
	}
	if (rc == 0) {
		for (unsigned int i = 0; i < sw->n_workers; i++)
			rte_eal_remote_launch(vsw_worker_main, sw->workers[i],
					      sw->workers[i]->lcore);
		VSW_LOG(INFO, "forwarding: %u ports, %u workers, config %s",
			sw->cfg.n_ports, sw->n_workers, sw->cfg.source);
		control_loop(sw);
		VSW_LOG(INFO, "stopping");
	}
	teardown(sw);
	return rc;
}

int main(int argc, char **argv)
{
	char *eal_argv[MAX_EAL_ARGS], err[VSW_ERR_MAX];
	struct app_opts o = {0};
	int sep = argc, n, rc;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			sep = i;
			break;
		}
	rc = parse_app_args(argc - sep, argv + sep, &o);
	if (rc != 0)
		return rc > 0 ? 0 : 2;
	if (load_config(&o, &vsw.cfg) < 0)
		return 1;
	if (o.check) {
		printf("%s: ok, %u port(s)\n", vsw.cfg.source, vsw.cfg.n_ports);
		return 0;
	}
	n = eal_args(&vsw.cfg, sep, argv, eal_argv, vsw.file_prefix,
		     sizeof(vsw.file_prefix));
	if (rte_eal_init(n, eal_argv) < 0) {
		fprintf(stderr, "vsw: EAL init failed: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	/* vhost's per-message INFO lines drown ours; --log-level overrides. */
	if (!has_arg(sep, argv, "--log-level"))
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
		rc = run(&vsw);
	vsw_dp_free(&vsw);
	rte_eal_cleanup();
	return rc < 0 ? 1 : 0;
}
