/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch's life cycle (switch.h): build it on a running EAL, run it,
 * take it down.  The workers get the runtime (struct vsw_rt) and nothing
 * else; control gets its state (struct vsw_ctl) and a pointer to the
 * runtime; the telemetry commands get control's state.  Create fails
 * cleanly at any step: destroy undoes what was made.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>

#include "api/tel.h"
#include "common/debug.h"
#include "common/log.h"
#include "notify.h"
#include "ovsdb/ovsdb.h"
#include "switch.h"
#include "unmap_guard.h"

static struct vsw_switch the_switch = {
	.ctl = {.ctl_lock = PTHREAD_MUTEX_INITIALIZER,
		.wake_fd = -1,
		.watch = {.fd = -1}},
};

struct vsw_switch *vsw_switch_get(void)
{
	return &the_switch;
}

/* The FDB's hooks (datapath/fdb.h): no EAL in the FDB itself. */
static void fdb_sync(void *arg)
{
	vsw_quiesce(arg);
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

/* Offloads on for the switch or for a port of the config file. */
static bool any_offloads(const struct vsw_config *cfg)
{
	if (cfg->sw.offloads == VSW_OFFLOADS_ON)
		return true;
	for (unsigned int i = 0; i < cfg->n_ports; i++)
		if (cfg->ports[i].offloads == VSW_OFFLOADS_ON)
			return true;
	return false;
}

static void free_big_mbufs(struct vsw_rt *rt)
{
	for (unsigned int i = 0; i < rt->n_big_held; i++)
		rte_pktmbuf_free(rt->big_held[i]);
	rte_free(rt->big_held);
	rt->big_held = NULL;
	rt->n_big_held = 0;
	rte_mempool_free(rt->big_mp);
	rt->big_mp = NULL;
}

/* The mbuf pools, RCU, the FDB, the control loop's eventfd. */
static int setup_core(struct vsw_switch *sw)
{
	struct vsw_ctl *ctl = &sw->ctl;
	struct vsw_rt *rt = &sw->rt;
	struct vsw_fdb_params fp = {
		.max_entries = ctl->cfg.sw.fdb_size,
		.sync = fdb_sync,
		.alloc = fdb_alloc,
		.free = fdb_free,
		.sync_arg = rt,
	};
	size_t qsz = rte_rcu_qsbr_get_memsize(RTE_MAX_LCORE);

	ctl->rt = rt;
	rt->mp = rte_pktmbuf_pool_create(
		"vsw_mbufs", ctl->cfg.sw.mbufs, VSW_MBUF_CACHE, 0,
		RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	rt->qs = rte_zmalloc("vsw_qsbr", qsz, RTE_CACHE_LINE_SIZE);
	rt->fdb = vsw_fdb_create(&fp);
	if (rt->mp == NULL || rt->qs == NULL || rt->fdb == NULL) {
		VSW_LOG(ERR,
			"out of memory for mbufs, RCU or FDB (%u mbufs, "
			"fdb-size %u)",
			ctl->cfg.sw.mbufs, ctl->cfg.sw.fdb_size);
		return -ENOMEM;
	}
	rte_rcu_qsbr_init(rt->qs, RTE_MAX_LCORE);
	if (any_offloads(&ctl->cfg))
		vsw_ctl_big_mbufs(ctl);
	ctl->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (ctl->wake_fd < 0)
		return -errno;
	vsw_ctl_fdb_refresh(ctl);
	memset(ctl->rxq_owner, VSW_RXQ_UNASSIGNED, sizeof(ctl->rxq_owner));
	rt->now_s = 1;
	ctl->start_tsc = rte_rdtsc();
	rt->test_qs_delay_us =
		vsw_test_hook_us("VSW_TEST_QS_DELAY_US",
				 "workers sleep after each quiescent report");
	return 0;
}

/* A worker per lcore but the main one. */
static int setup_workers(struct vsw_rt *rt)
{
	unsigned int lcore;

	RTE_LCORE_FOREACH_WORKER(lcore)
	{
		struct vsw_worker *w;

		if (rt->n_workers == VSW_MAX_WORKERS)
			break;
		w = rte_zmalloc("vsw_worker", sizeof(*w), RTE_CACHE_LINE_SIZE);
		if (w == NULL)
			return -ENOMEM;
		w->lcore = lcore;
		w->idx = rt->n_workers;
		w->rt = rt;
		rt->workers[rt->n_workers++] = w;
	}
	if (rt->n_workers == 0) {
		fprintf(stderr, "vsw: no worker lcore: give EAL at least two "
				"lcores, e.g. -l 0,1 (lcore 0 runs control)\n");
		return -EINVAL;
	}
	return 0;
}

/* The config's ports, then the first table. */
static int setup_ports(struct vsw_ctl *ctl)
{
	struct vsw_port_env env;
	char err[VSW_ERR_MAX];
	int rc;

	vsw_port_env_fill(ctl, &env);
	vsw_port_lib_init(&env);
	for (unsigned int i = 0; i < ctl->cfg.n_ports; i++) {
		rc = vsw_port_create(&ctl->cfg.ports[i], (uint16_t)i, &env,
				     &ctl->ports[i], err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "vsw: %s\n", err);
			return rc;
		}
		vsw_fdb_set_port_limit(ctl->rt->fdb, (uint16_t)i,
				       ctl->cfg.ports[i].max_macs);
	}
	rc = vsw_table_publish(ctl, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "vsw: %s\n", err);
	return rc;
}

static int register_telemetry(struct vsw_ctl *ctl)
{
	vsw_tel_init(ctl);
	if (vsw_tel_register_show() < 0 || vsw_tel_register_stats() < 0 ||
	    vsw_tel_register_cmds() < 0) {
		VSW_LOG(ERR, "cannot register telemetry commands");
		return -EIO;
	}
	return 0;
}

int vsw_switch_create(struct vsw_switch *sw, const char *state_note)
{
	unsigned int workers = rte_lcore_count() - 1;
	struct vsw_ctl *ctl = &sw->ctl;
	char err[VSW_ERR_MAX];
	int rc;

	ctl->rt = &sw->rt;
	ctl->sw_own = ctl->cfg.sw;
	rc = vsw_config_check_mbufs(&ctl->cfg,
				    workers < VSW_MAX_WORKERS ? workers
							      : VSW_MAX_WORKERS,
				    err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "vsw: %s\n", err);
		return rc;
	}
	rc = setup_core(sw);
	if (rc == 0)
		rc = setup_workers(&sw->rt);
	if (rc == 0 && (rc = setup_ports(ctl)) < 0 &&
	    strncmp(state_note, "state restored", 14) == 0)
		fprintf(stderr,
			"vsw: the ports came from the state file (%s); "
			"--reset-state starts from the config file alone\n",
			state_note);
	if (rc == 0 && ((rc = vsw_statefile_init(ctl, err, sizeof(err))) < 0 ||
			(rc = vsw_ctl_fdb_init(ctl, err, sizeof(err))) < 0))
		fprintf(stderr, "vsw: %s\n", err);
	if (rc == 0 && state_note[0] != '\0')
		VSW_LOG(INFO, "%s", state_note);
	if (rc == 0)
		rc = register_telemetry(ctl);
	/* last: a scrape may come at once, and finds every command */
	if (rc == 0 &&
	    (rc = vsw_metrics_http_start(&sw->http, ctl->cfg.sw.metrics_listen,
					 err, sizeof(err))) < 0)
		fprintf(stderr, "vsw: %s\n", err);
	return rc;
}

void vsw_switch_run(struct vsw_switch *sw)
{
	struct vsw_ctl *ctl = &sw->ctl;
	struct vsw_rt *rt = &sw->rt;

	/* net_memif's teardown on the interrupt thread waits for them */
	vsw_unmap_guard_set(rt);
	for (unsigned int i = 0; i < rt->n_workers; i++)
		rte_eal_remote_launch(vsw_worker_main, rt->workers[i],
				      rt->workers[i]->lcore);
	VSW_LOG(INFO, "forwarding: %u ports, %u workers, config %s",
		ctl->cfg.n_ports, rt->n_workers, ctl->cfg.source);
	/* systemd (Type=notify): ready once ports and workers are */
	vsw_notify("READY=1\nSTATUS=forwarding: %u ports, %u workers",
		   ctl->cfg.n_ports, rt->n_workers);
	if (ctl->cfg.sw.ovsdb[0] != '\0') {
		char err[VSW_ERR_MAX];

		if (vsw_ovsdb_start(ctl, &sw->ovsdb, err, sizeof(err)) < 0)
			VSW_LOG(ERR, "%s; vsw runs without OVSDB", err);
		vsw_tel_set_ovsdb(sw->ovsdb);
	}
	vsw_control_loop(ctl);
	VSW_LOG(INFO, "stopping");
	vsw_notify("STOPPING=1\nSTATUS=stopping: removing ports");
}

void vsw_switch_stop(struct vsw_switch *sw)
{
	__atomic_store_n(&sw->rt.quit, true, __ATOMIC_RELAXED);
}

void vsw_switch_destroy(struct vsw_switch *sw)
{
	struct vsw_ctl *ctl = &sw->ctl;
	struct vsw_rt *rt = &sw->rt;
	char acked[VSW_PATH_MAX + 16];

	vsw_switch_stop(sw);
	/* first: no scrape runs into the teardown below */
	vsw_metrics_http_stop(&sw->http);
	vsw_tel_set_ovsdb(NULL);
	vsw_ovsdb_stop(sw->ovsdb); /* it changes ports: stopped first */
	sw->ovsdb = NULL;
	rte_eal_mp_wait_lcore();
	vsw_unmap_guard_set(NULL);
	/* Telemetry threads live on: from now on every command refuses. */
	pthread_mutex_lock(&ctl->ctl_lock);
	ctl->stopping = true;
	for (int i = 0; i < VSW_MAX_PORTS; i++) {
		/* the workers stopped: captures end, their files complete */
		vsw_ctl_capture_port_gone(ctl, (uint16_t)i);
		vsw_port_destroy(ctl->ports[i]);
		ctl->ports[i] = NULL;
	}
	pthread_mutex_unlock(&ctl->ctl_lock);
	vsw_fdb_destroy(rt->fdb);
	rt->fdb = NULL;
	rte_mempool_free(rt->mp);
	rt->mp = NULL;
	free_big_mbufs(rt);
	if (ctl->wake_fd >= 0)
		close(ctl->wake_fd);
	ctl->wake_fd = -1;
	/* only if we left them empty (a guest's offload marker stays while
	 * its QEMU may run: port/vhost_acked.c) */
	snprintf(acked, sizeof(acked), "%s/offloads-acked",
		 ctl->cfg.sw.run_dir);
	rmdir(acked);
	rmdir(ctl->cfg.sw.run_dir);
	vsw_table_free(ctl);
}
