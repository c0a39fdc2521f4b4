/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control loop (the main lcore, every 100 ms or when woken): the FDB
 * clock, port upkeep (links, kick settings, queues, kick counting:
 * ports.c), aging and trimming the FDB, automatic rebalance,
 * socket-directory watching (watch.c).
 */
#include <poll.h>
#include <stdint.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "control.h"

#define CTL_PERIOD_US 100000
#define CTL_GAP_US 5000

void vsw_wake_control(struct vsw_ctl *ctl)
{
	uint64_t one = 1;

	if (ctl->wake_fd >= 0 && write(ctl->wake_fd, &one, sizeof(one)) < 0)
		return; /* already pending: fine */
}

/*
 * Wait CTL_PERIOD_US, or less when someone calls vsw_wake_control, but
 * leave ctl_lock free at least CTL_GAP_US between two passes: a guest that
 * keeps changing its rings must not starve telemetry clients.
 */
static void sleep_or_wake(struct vsw_ctl *ctl)
{
	struct pollfd pfd = {.fd = ctl->wake_fd, .events = POLLIN};
	uint64_t v;

	rte_delay_us_sleep(CTL_GAP_US);
	if (poll(&pfd, 1, (CTL_PERIOD_US - CTL_GAP_US) / 1000) > 0 &&
	    read(ctl->wake_fd, &v, sizeof(v)) < 0)
		return;
}

/* The control loop: clock, links, aging; until a signal. */
void vsw_control_loop(struct vsw_ctl *ctl)
{
	uint64_t hz = rte_get_tsc_hz();
	uint32_t last_age = 0;

	vsw_ctl_watch_init(ctl);
	while (!__atomic_load_n(&ctl->rt->quit, __ATOMIC_RELAXED)) {
		uint32_t now =
			1 + (uint32_t)((rte_rdtsc() - ctl->start_tsc) / hz);
		uint32_t aging = ctl->cfg.sw.fdb_aging_s;

		__atomic_store_n(&ctl->rt->now_s, now, __ATOMIC_RELAXED);
		pthread_mutex_lock(&ctl->ctl_lock);
		vsw_ctl_ports_upkeep(ctl);
		/* age every quarter of the aging time, at least once a second */
		if (aging && now - last_age >= (aging / 4 ? aging / 4 : 1)) {
			vsw_fdb_age(ctl->rt->fdb, now, aging);
			last_age = now;
		}
		vsw_fdb_trim(ctl->rt->fdb, now); /* port limits, overshoot */
		vsw_ctl_auto_rebalance(ctl, now);
		vsw_ctl_watch_poll(ctl);
		vsw_ctl_evpn_poll(ctl);
		pthread_mutex_unlock(&ctl->ctl_lock);
		sleep_or_wake(ctl);
	}
	vsw_ctl_watch_fini(ctl);
	pthread_mutex_lock(&ctl->ctl_lock);
	vsw_ctl_evpn_fini(ctl);
	pthread_mutex_unlock(&ctl->ctl_lock);
}
