/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Guest kicks of vhost-user ports: our duplicates of the guest TX rings'
 * kick eventfds (workers sleep on them in adaptive mode, the control
 * thread counts what still arrives), the kick setting (suppression) on
 * every ring, and the per-queue views for telemetry.  Locks: reg_lock,
 * then the library's vq locks (LOCK ORDER in vhost.c).
 */
#define _GNU_SOURCE /* preadv2 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/virtio_ring.h>

#include "common/debug.h"
#include "vhost_priv.h"

/* test hook (VSW_TEST_UPKEEP_DELAY_US): hold reg_lock this long in upkeep,
 * to show that a guest changing rings meanwhile cannot deadlock us */
static unsigned int upkeep_delay_us;

void vsw_vhost_notify_init(void)
{
	upkeep_delay_us = vsw_test_hook_us("VSW_TEST_UPKEEP_DELAY_US",
					   "upkeep holds its lock");
}

/* 0: suppress guest kicks (vsw polls), 1: leave them on (measuring). */
static int kick_setting(const struct vsw_vhost_port *vp)
{
	return __atomic_load_n(&vp->kicks_off, __ATOMIC_RELAXED) ? 0 : 1;
}

static int load_fd(const int *fd)
{
	return __atomic_load_n(fd, __ATOMIC_ACQUIRE);
}

/* A non-blocking private duplicate of the kick eventfd of guest TX ring
 * @qp, or -1.  Only where that fd cannot change under us: on the vhost
 * thread (which alone replaces it), or with the device stopped. */
int vsw_vhost_dup_kickfd(int vid, uint16_t qp)
{
	struct rte_vhost_vring vr;
	int fd = -1;

	if (rte_vhost_get_vhost_vring(vid, qp * 2 + VIRTIO_TXQ, &vr) == 0 &&
	    vr.kickfd >= 0)
		fd = fcntl(vr.kickfd, F_DUPFD_CLOEXEC, 0);
	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

/* Take every fd of @fds (VSW_MAX_QUEUES, -1: none) and close it. */
static void close_all(int *fds)
{
	for (unsigned int q = 0; q < VSW_MAX_QUEUES; q++) {
		int fd = __atomic_exchange_n(&fds[q], -1, __ATOMIC_ACQ_REL);

		if (fd >= 0)
			close(fd);
	}
}

/* Forget the duplicates nobody installed yet. */
void vsw_vhost_drop_pending_kickfds(struct vsw_vhost_port *vp)
{
	close_all(vp->kick_pending);
}

/* Close the installed duplicates; no worker may read them any more. */
void vsw_vhost_drop_kickfds(struct vsw_vhost_port *vp)
{
	close_all(vp->kickfd);
}

void vsw_vhost_apply_kick_setting(struct vsw_vhost_port *vp, int vid,
				  uint16_t nr)
{
	for (uint16_t q = 0; q < nr && q < 64; q++) {
		rte_vhost_enable_guest_notification(vid, q, kick_setting(vp));
		__atomic_fetch_or(&vp->touched, 1ull << q, __ATOMIC_RELAXED);
	}
}

/* Worker (adaptive mode): let the guest kick us while we sleep. */
int vsw_vhost_rx_notify(struct vsw_port *p, uint16_t q, bool on)
{
	struct vsw_vhost_port *vp = vhost_cast(p);

	if (q >= VSW_MAX_QUEUES || q >= vp->guest_qp)
		return -1;
	rte_vhost_enable_guest_notification(vp->vid, q * 2 + VIRTIO_TXQ,
					    on ? 1 : kick_setting(vp));
	return load_fd(&vp->kickfd[q]);
}

/*
 * The kicks waiting on a guest's kick fd, consumed.  RWF_NOWAIT: the
 * guest shares the file description and may clear O_NONBLOCK on it; a
 * plain read would then block vsw (hostile test kick_blocking).
 */
static uint64_t read_kicks(int fd)
{
	uint64_t v = 0;
	struct iovec iov = {&v, sizeof(v)};

	if (fd < 0 ||
	    preadv2(fd, &iov, 1, -1, RWF_NOWAIT) != (ssize_t)sizeof(v))
		return 0;
	return v;
}

uint64_t vsw_vhost_rx_drain(struct vsw_port *p, uint16_t q, bool control)
{
	struct vsw_vhost_port *vp = vhost_cast(p);
	uint64_t n;

	if (q >= VSW_MAX_QUEUES)
		return 0;
	if (!control)
		return read_kicks(load_fd(&vp->kickfd[q]));
	pthread_mutex_lock(&vsw_vhost_reg_lock);
	n = read_kicks(vp->kickfd[q]);
	pthread_mutex_unlock(&vsw_vhost_reg_lock);
	return n;
}

/*
 * What the guest wants on its RX ring, from facts vsw owns (test 13_kicks_calls:
 * control never reads guest memory, which SET_MEM_TABLE may unmap under
 * it): no call fd means it polls; event-idx is negotiated; otherwise the
 * interrupts it let through tell whether it polls (a PMD keeps
 * VRING_AVAIL_F_NO_INTERRUPT set) or takes interrupts.
 */
static const char *intent_of(int vid, const struct rte_vhost_vring *vr,
			     const struct vsw_queue_info *qi)
{
	uint64_t features = 0;

	if (vr->callfd < 0)
		return "poll";
	rte_vhost_get_negotiated_features(vid, &features);
	if (features & (1ULL << VIRTIO_RING_F_EVENT_IDX))
		return "event-idx";
	if (qi->enqueued == 0)
		return "unknown";
	return qi->calls > 0 ? "interrupt" : "poll";
}

int vsw_vhost_queue_info(struct vsw_port *p, uint16_t q,
			 struct vsw_queue_info *qi)
{
	struct vsw_vhost_port *vp = vhost_cast(p);
	struct rte_vhost_vring vr;
	uint32_t en;

	memset(qi, 0, sizeof(*qi));
	qi->intent = "-";
	if (q >= VSW_MAX_QUEUES)
		return -EINVAL;
	qi->calls = __atomic_load_n(&vp->calls[q], __ATOMIC_RELAXED);
	qi->enqueues = __atomic_load_n(&vp->enqueues[q], __ATOMIC_RELAXED);
	qi->enqueued = __atomic_load_n(&vp->enqueued[q], __ATOMIC_RELAXED);
	pthread_mutex_lock(&vsw_vhost_reg_lock);
	if (vp->vid >= 0 && q < vp->guest_qp) {
		en = __atomic_load_n(&vp->rx_enabled, __ATOMIC_ACQUIRE);
		qi->present = true;
		qi->tx_enabled = (en >> q) & 1;
		qi->rx_enabled = true;
		qi->kicks_off = !kick_setting(vp) &&
				(vp->touched >> (q * 2 + VIRTIO_TXQ) & 1);
		/* copies fields of the library's struct; no guest memory */
		if (rte_vhost_get_vhost_vring(vp->vid, q * 2 + VIRTIO_RXQ,
					      &vr) == 0) {
			qi->intent = intent_of(vp->vid, &vr, qi);
			qi->size = vr.size;
		}
	}
	pthread_mutex_unlock(&vsw_vhost_reg_lock);
	return 0;
}

/* Install kick fds the vhost thread duplicated; close the old ones once
 * no worker can be reading them.  reg_lock held. */
static void install_kickfds(struct vsw_vhost_port *vp)
{
	int old[VSW_MAX_QUEUES];
	bool any = false;

	for (unsigned int q = 0; q < VSW_MAX_QUEUES; q++) {
		int fd = __atomic_exchange_n(&vp->kick_pending[q], -1,
					     __ATOMIC_ACQ_REL);

		old[q] = -1;
		if (fd < 0)
			continue;
		old[q] = __atomic_exchange_n(&vp->kickfd[q], fd,
					     __ATOMIC_ACQ_REL);
		any |= old[q] >= 0;
	}
	if (any && vp->quiesce != NULL)
		vp->quiesce(vp->hook_arg);
	for (unsigned int q = 0; q < VSW_MAX_QUEUES; q++)
		if (old[q] >= 0)
			close(old[q]);
}

/*
 * Control: rings enabled after new_device never had the kick setting
 * applied (22.11 re-applies the last one itself to a ring that had one),
 * queue pairs may have appeared, kick eventfds may have been replaced.
 * Rings that already had a setting are left alone: in adaptive mode a
 * sleeping worker may have armed them (test 52_adaptive_moved_queue).
 */
void vsw_vhost_upkeep(struct vsw_port *p)
{
	struct vsw_vhost_port *vp = vhost_cast(p);
	uint64_t rings;

	pthread_mutex_lock(&vsw_vhost_reg_lock);
	if (upkeep_delay_us)
		usleep(upkeep_delay_us);
	if (vp->vid < 0) {
		pthread_mutex_unlock(&vsw_vhost_reg_lock);
		return;
	}
	__atomic_store_n(&vp->nr_qp, vhost_served_qp(vp->guest_qp),
			 __ATOMIC_RELEASE);
	rings = __atomic_exchange_n(&vp->renotify_rings, 0, __ATOMIC_ACQ_REL);
	rings &= ~vp->touched;
	for (uint16_t q = 0; rings != 0 && q < 64; q++) {
		if (!(rings & (1ull << q)))
			continue;
		rte_vhost_enable_guest_notification(vp->vid, q,
						    kick_setting(vp));
		vp->touched |= 1ull << q;
	}
	install_kickfds(vp);
	pthread_mutex_unlock(&vsw_vhost_reg_lock);
}

/* Control (`set kick-suppression`): the port's setting, then every ring. */
void vsw_vhost_set_kick_suppression(struct vsw_port *p, bool on)
{
	struct vsw_vhost_port *vp = vhost_cast(p);

	pthread_mutex_lock(&vsw_vhost_reg_lock);
	__atomic_store_n(&vp->kicks_off, on, __ATOMIC_RELAXED);
	if (vp->vid >= 0)
		vsw_vhost_apply_kick_setting(vp, vp->vid,
					     rte_vhost_get_vring_num(vp->vid));
	pthread_mutex_unlock(&vsw_vhost_reg_lock);
}

/* Control (`set guest-rx-spread`): workers read it once per burst. */
void vsw_vhost_set_guest_rx_spread(struct vsw_port *p, bool on)
{
	__atomic_store_n(&vhost_cast(p)->rx_spread, on, __ATOMIC_RELAXED);
}

/* Control (`set call-suppression`): workers read it once per burst. */
void vsw_vhost_set_call_suppression(struct vsw_port *p, bool on)
{
	__atomic_store_n(&vhost_cast(p)->calls_forced, !on, __ATOMIC_RELAXED);
}
