/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Offloads a running guest acked.  QEMU keeps the features its guest
 * acked and, when it reconnects (vsw restarted, the port deleted and
 * added again), refuses a backend that offers fewer ("vhost lacks
 * feature mask ... for backend"): it closes the socket right after
 * reading the features, and again at each reconnect, so a port whose
 * offloads were turned off under a running Linux guest would stay down
 * until that QEMU restarts (docs/offloads.md, "Turning them off").
 *
 * So, for a port with offloads = off: when its frontend leaves before
 * any SET_FEATURES, within a second of connecting, and the last guest
 * on that socket acked offloads (the marker below), vsw offers them
 * again (control, through the library's enable_features) to the next
 * connection, which then gets the guest back.  vsw cuts and fills for
 * that guest as for any port with offloads off (tx_offloads stays 0) and
 * takes its TSO frames.  When a connection that negotiated closes by the
 * frontend's doing, the offer ends: a QEMU that restarts acks what it is
 * offered, and offloads = off holds.
 *
 * The marker, <run-dir>/offloads-acked/<port> holding the socket's path,
 * is what keeps a guest that never had offloads on from getting them
 * here (offloads = off also keeps an untrusted guest away from the
 * library's offload code, docs/security.md): control writes it when a
 * guest negotiates offloads and removes it when a frontend that
 * negotiated goes away by itself or a guest negotiates none; vsw's own
 * closes (port-del, exit, a crash) leave it, since the QEMU behind them
 * runs on.  run-dir is a tmpfs (/run): a reboot, which ends every QEMU,
 * clears it.
 *
 * Threads: the library's vhost-events thread records (legacy_want,
 * acked_note, atomics) and wakes control; control acts in upkeep (the
 * library's global lock and file I/O, which no callback may wait for).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/virtio_net.h>

#include <rte_cycles.h>

#include "vhost_priv.h"

/* what vsw offers a guest with offloads on (vhost.c's register) */
#define ACKED_FEATURES (VHOST_OFFLOAD_FEATURES & ~VHOST_NEVER_FEATURES)

void vsw_vhost_acked_init(struct vsw_vhost_port *vp, const char *run_dir)
{
	char buf[VSW_PATH_MAX] = "";
	ssize_t n;
	int fd;

	vp->legacy_want = -1;
	vp->acked_note = -1;
	vp->acked_file[0] = '\0';
	if (run_dir == NULL || run_dir[0] == '\0' ||
	    (size_t)snprintf(vp->acked_file, sizeof(vp->acked_file),
			     "%s/offloads-acked/%s", run_dir,
			     vp->base.name) >= sizeof(vp->acked_file)) {
		vp->acked_file[0] = '\0';
		return;
	}
	fd = open(vp->acked_file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	vp->acked_before = n > 0 && (size_t)n == strlen(vp->base.conf.path) &&
			   memcmp(buf, vp->base.conf.path, (size_t)n) == 0;
}

static void note(struct vsw_vhost_port *vp, int what)
{
	if (vp->acked_file[0] == '\0')
		return;
	__atomic_store_n(&vp->acked_note, what, __ATOMIC_RELEASE);
	vsw_vhost_wake_control(vp);
}

void vsw_vhost_acked_connected(struct vsw_vhost_port *vp, uint64_t features)
{
	note(vp, (features & ACKED_FEATURES) != 0);
}

void vsw_vhost_acked_closed(struct vsw_vhost_port *vp, int vid)
{
	bool legacy = __atomic_load_n(&vp->legacy, __ATOMIC_RELAXED);
	uint64_t f = 0;

	rte_vhost_get_negotiated_features(vid, &f);
	if (f != 0 && !__atomic_load_n(&vp->closing, __ATOMIC_ACQUIRE)) {
		/* the frontend went by itself: its QEMU may be gone */
		note(vp, 0);
		if (legacy) {
			__atomic_store_n(&vp->legacy_want, 0, __ATOMIC_RELEASE);
			vsw_vhost_wake_control(vp);
		}
		return;
	}
	if (f == 0 && !legacy && !vp->base.offloads &&
	    __atomic_load_n(&vp->acked_before, __ATOMIC_ACQUIRE) &&
	    rte_rdtsc() - vp->conn_tsc < rte_get_tsc_hz()) {
		__atomic_store_n(&vp->legacy_want, 1, __ATOMIC_RELEASE);
		vsw_vhost_wake_control(vp);
	}
}

/* The marker written (@on) or removed; logged when that fails. */
static void marker(struct vsw_vhost_port *vp, bool on)
{
	const char *path = vp->base.conf.path;
	char dir[VSW_PATH_MAX];
	char *slash;
	bool ok;
	int fd, err;

	__atomic_store_n(&vp->acked_before, on, __ATOMIC_RELEASE);
	if (!on) {
		if (unlink(vp->acked_file) < 0 && errno != ENOENT)
			PORT_LOG(WARNING, "%s: cannot remove %s: %s",
				 vp->base.name, vp->acked_file,
				 strerror(errno));
		return;
	}
	/* written in place: a marker cut short (a crash) names no socket,
	 * which offers nothing (init compares it whole) */
	snprintf(dir, sizeof(dir), "%s", vp->acked_file);
	slash = strrchr(dir, '/');
	if (slash != NULL) {
		*slash = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			goto fail;
	}
	fd = open(vp->acked_file,
		  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		goto fail;
	errno = ENOSPC; /* what a short write means */
	ok = write(fd, path, strlen(path)) == (ssize_t)strlen(path);
	err = errno;
	if (close(fd) == 0 && ok)
		return;
	if (ok)
		err = errno;
	unlink(vp->acked_file);
	errno = err; /* the write's or close's, not the unlink's */
fail:
	__atomic_store_n(&vp->acked_before, false, __ATOMIC_RELEASE);
	PORT_LOG(WARNING,
		 "%s: cannot record in %s that its guest acked offloads (%s): "
		 "should offloads be turned off under it, it would stay "
		 "down until its QEMU restarts",
		 vp->base.name, vp->acked_file, strerror(errno));
}

void vsw_vhost_acked_upkeep(struct vsw_vhost_port *vp)
{
	struct vsw_port *p = &vp->base;
	int note_now =
		__atomic_exchange_n(&vp->acked_note, -1, __ATOMIC_ACQ_REL);
	int want = __atomic_exchange_n(&vp->legacy_want, -1, __ATOMIC_ACQ_REL);

	if (note_now >= 0 &&
	    (note_now == 1) !=
		    __atomic_load_n(&vp->acked_before, __ATOMIC_RELAXED))
		marker(vp, note_now == 1);
	if (want < 0 || (want == 1) == vp->legacy)
		return;
	if (want == 1 ? rte_vhost_driver_enable_features(p->conf.path,
							 ACKED_FEATURES)
		      : rte_vhost_driver_disable_features(p->conf.path,
							  ACKED_FEATURES)) {
		PORT_LOG(ERR, "%s: cannot %s the offload features", p->name,
			 want == 1 ? "offer" : "withdraw");
		return;
	}
	__atomic_store_n(&vp->legacy, want == 1, __ATOMIC_RELAXED);
	if (want == 1)
		PORT_LOG(WARNING,
			 "%s: its frontend left before negotiating: a QEMU "
			 "whose guest acked offloads that this port (offloads "
			 "= off) does not offer refuses it (QEMU: 'vhost lacks "
			 "feature mask'). Offering them to its next connection "
			 "so that the running guest gets its port back; "
			 "offloads = off holds from the guest's next start "
			 "(its QEMU restarted)",
			 p->name);
	else
		PORT_LOG(INFO,
			 "%s: the guest that had offloads left: offloads = off "
			 "from its next connection",
			 p->name);
}
