/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A firewall in front of librte_vhost's message handler.
 *
 * A vhost-user frontend is guest-controlled and DPDK 22.11 trusts it too
 * much (found with tests/hostile/vhost_hostile.c and two reviews): a
 * memory region larger than the file behind it, or an fd that is not
 * memory, is mmapped anyway and the first access raises SIGBUS in a
 * worker or leaks the fd; a ring size is stored before it is checked; a
 * running ring can be resized, a packed ring's base is not bounded, a
 * sized ring can be switched to packed (the datapath then reads and
 * writes outside the ring); a ring restarted without SET_VRING_NUM
 * dereferences a freed array; RESET_OWNER and the inflight messages leak;
 * huge rings drain the heap every other guest allocates from.  vsw
 * registers vsw_vhost_guard as the pre-message handler of every
 * connection; the rules themselves are vhost_guard_rules.c (plain C,
 * fuzzed).  A refused message ends the connection: the guard clears
 * NEED_REPLY so that the library, which keeps a connection whose refused
 * message asked for a REPLY_ACK, drops it (a frontend that sent it is
 * broken or hostile either way); the guard closes the fds of what it
 * refuses, which the library would not.
 *
 * Replies (test 51_stalled_frontend): the library sends some replies while it holds every
 * virtqueue lock of the device, with a blocking sendmsg; a frontend that
 * stops reading would block it there once its socket fills, and every
 * worker that enqueues to that port would spin on the lock.  So the guard
 * finds each connection's socket when it connects and, before every
 * message, refuses it when the frontend left more replies unread than a
 * frontend that waits for its replies (QEMU, virtio-user) ever does: the
 * send buffer then never fills and no reply blocks.  Send and receive
 * timeouts on the socket bound whatever else would wait on the frontend
 * (a message whose payload never comes blocked the library's only thread
 * and a port-del of that port).
 *
 * Threads: the guard runs on the vhost-events thread, for some messages
 * with every virtqueue lock held: it takes only leaf locks (the relay's),
 * and its syscalls wait for nothing the frontend controls.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/sockios.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_vhost.h>

#include "vhost_guard_rules.h"
#include "vhost_priv.h"

/* A frontend that waits for each reply leaves at most one unread; a
 * backlog above this (bytes of socket buffer, SIOCOUTQ) means it stopped
 * reading, far below the ~200 KiB at which a reply would block. */
#define GUARD_REPLY_BACKLOG (64 * 1024)
/* What a send or a receive on the connection may wait for the frontend:
 * a correct frontend writes a message in one sendmsg and reads its
 * replies, so neither ever waits. */
#define GUARD_SOCK_TIMEOUT_MS 250

/* Per vid (the library's handle, < RTE_MAX_VHOST_DEVICE): the rings'
 * state and the connection's socket (-1: unknown).  Written at connect
 * (before the library polls the connection) and by the guard on the
 * vhost-events thread; read there (new_device). */
static struct guard_conn {
	struct vsw_guard_state rules;
	int fd;
} conns[RTE_MAX_VHOST_DEVICE];

static enum rte_vhost_msg_result refuse(struct vsw_guard_ctx *c, int vid,
					const char *why)
{
	char path[128] = "?";

	rte_vhost_get_ifname(vid, path, sizeof(path));
	PORT_LOG(WARNING,
		 "vhost-user %s (vid %d): refused request %u: %s; "
		 "connection dropped",
		 path, vid, c->msg.request, why);
	for (int i = 0; i < c->fd_num && i < VSW_GUARD_MAX_FDS; i++)
		if (c->fds[i] >= 0)
			close(c->fds[i]);
	c->fd_num = 0;
	/* no REPLY_ACK: the library then drops the connection */
	c->msg.flags &= ~VSW_GUARD_NEED_REPLY;
	return RTE_VHOST_MSG_RESULT_ERR;
}

/* What the rules need to know of @fd (see struct vsw_guard_fd). */
static void describe_fd(int fd, struct vsw_guard_fd *f)
{
	struct statfs sfs;
	struct stat st;
	int fl;

	memset(f, 0, sizeof(*f));
	if (fd < 0 || fstat(fd, &st) < 0)
		return;
	f->present = true;
	f->regular = S_ISREG(st.st_mode);
	f->size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
	f->mem_fs = fstatfs(fd, &sfs) == 0 &&
		    ((unsigned long)sfs.f_type == TMPFS_MAGIC ||
		     (unsigned long)sfs.f_type == HUGETLBFS_MAGIC);
	fl = fcntl(fd, F_GETFL);
	f->rdwr = fl >= 0 && (fl & O_ACCMODE) == O_RDWR;
}

/* Has the frontend stopped reading its replies? */
static const char *reply_backlog(int fd)
{
	int outq = 0, sndbuf = 0, limit = GUARD_REPLY_BACKLOG;
	socklen_t len = sizeof(sndbuf);

	if (fd < 0 || ioctl(fd, SIOCOUTQ, &outq) < 0)
		return NULL;
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, &len) == 0 &&
	    sndbuf / 4 < limit)
		limit = sndbuf / 4;
	return outq > limit ? "the frontend does not read its replies" : NULL;
}

/*
 * SET_VRING_CALL (every virtqueue lock of the device held): the library
 * gets an eventfd of ours; the guest's fd goes to the relay, and a
 * duplicate of it, if it is an eventfd, to the workers (vhost_call.c).
 */
static bool swap_call_fd(int vid, struct vsw_guard_ctx *c, int ring)
{
	struct vsw_vhost_port *vp = vsw_vhost_port_of(vid);
	struct vsw_call_relay *r = vp != NULL ? vp->call_relay : NULL;
	int lib_fd;

	if (r == NULL || ring < 0)
		return true;
	if ((c->msg.payload.u64 & VSW_GUARD_NOFD) || c->fd_num != 1) {
		if (!vsw_call_relay_detach(r, (uint32_t)ring))
			return false;
		vsw_vhost_call_set(vp, (uint32_t)ring, -1);
		return true;
	}
	lib_fd = vsw_call_relay_attach(r, (uint32_t)ring, c->fds[0]);
	if (lib_fd < 0)
		return false; /* never the guest's own fd to the library */
	vsw_vhost_call_set(vp, (uint32_t)ring, c->fds[0]);
	c->fds[0] = lib_fd; /* the guest's fd is the relay's now */
	return true;
}

/* Is @vid its port's frontend, not a successor still waiting for its
 * predecessor's teardown (vhost.c new_connection)?  The port's call fds
 * (vhost_call.c) are the frontend's. */
static bool is_frontend(int vid)
{
	struct vsw_vhost_port *vp;
	bool yes;

	vsw_vhost_map_lock();
	vp = vsw_vhost_map_find(vid);
	yes = vp == NULL || vp->conn_vid == vid;
	vsw_vhost_map_unlock();
	return yes;
}

enum rte_vhost_msg_result vsw_vhost_guard(int vid, void *arg)
{
	struct vsw_guard_ctx *c = arg;
	struct vsw_guard_fd fds[VSW_GUARD_MAX_FDS];
	uint64_t features = 0;
	const char *why;
	int nfds;

	if (vid < 0 || vid >= RTE_MAX_VHOST_DEVICE)
		return RTE_VHOST_MSG_RESULT_NOT_HANDLED;
	why = reply_backlog(conns[vid].fd);
	if (why != NULL)
		return refuse(c, vid, why);
	nfds = c->fd_num < 0		       ? 0
	       : c->fd_num > VSW_GUARD_MAX_FDS ? VSW_GUARD_MAX_FDS
					       : c->fd_num;
	for (int i = 0; i < nfds; i++)
		describe_fd(c->fds[i], &fds[i]);
	rte_vhost_get_negotiated_features(vid, &features);
	why = vsw_guard_rules(&conns[vid].rules, &c->msg, fds, nfds, features);
	if (why != NULL)
		return refuse(c, vid, why);
	if (c->msg.request == VSW_REQ_SET_VRING_CALL && !is_frontend(vid))
		return refuse(c, vid,
			      "SET_VRING_CALL before this connection is the "
			      "port's frontend (the one before it is not torn "
			      "down yet)");
	if (c->msg.request == VSW_REQ_SET_VRING_CALL &&
	    !swap_call_fd(vid, c, vsw_guard_ring_of(&c->msg)))
		return refuse(c, vid,
			      "its call fd cannot be relayed now (its relay "
			      "is blocked in its own writes, or vsw has no fd "
			      "left)");
	return RTE_VHOST_MSG_RESULT_NOT_HANDLED;
}

static const struct rte_vhost_user_extern_ops guard_ops = {
	.pre_msg_handle = vsw_vhost_guard,
};

/*
 * The socket of a connection to @path made just now: the one unix socket
 * of ours but @beside, not listening, whose own address (a server port's
 * accepted connection) or peer's (a client port's) is @path.  vsw refuses
 * a second connection to a port before it gets here, but for a successor
 * (vhost.c), whose predecessor's socket is @beside; and the library
 * closes a connection's socket before it reports it gone, so there is
 * one; -1 if not.
 */
static int find_conn_fd(const char *path, int beside)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int found = -1, n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		struct sockaddr_un self, peer;
		socklen_t sl = sizeof(self), pl = sizeof(peer),
			  al = sizeof(int);
		int fd = atoi(de->d_name), acc = 1;

		if (de->d_name[0] < '0' || de->d_name[0] > '9' ||
		    fd == dirfd(d) || fd == beside)
			continue;
		memset(&self, 0, sizeof(self));
		memset(&peer, 0, sizeof(peer));
		if (getsockname(fd, (struct sockaddr *)&self, &sl) < 0 ||
		    self.sun_family != AF_UNIX ||
		    getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &acc, &al) < 0 ||
		    acc)
			continue;
		if (getpeername(fd, (struct sockaddr *)&peer, &pl) < 0)
			continue;
		if (strncmp(self.sun_path, path, sizeof(self.sun_path)) == 0 ||
		    strncmp(peer.sun_path, path, sizeof(peer.sun_path)) == 0) {
			found = fd;
			n++;
		}
	}
	closedir(d);
	return n == 1 ? found : -1;
}

static int sock_timeouts(int fd)
{
	struct timeval tv = {0, GUARD_SOCK_TIMEOUT_MS * 1000};

	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		return -errno;
	return 0;
}

int vsw_vhost_guard_attach(int vid, int beside)
{
	char path[PATH_MAX] = "";
	int fd;

	if (vid < 0 || vid >= RTE_MAX_VHOST_DEVICE ||
	    rte_vhost_get_ifname(vid, path, sizeof(path)) < 0)
		return -EINVAL;
	fd = find_conn_fd(path, beside >= 0 && beside < RTE_MAX_VHOST_DEVICE
					? conns[beside].fd
					: -1);
	if (fd < 0 || sock_timeouts(fd) < 0) {
		PORT_LOG(ERR,
			 "vhost-user %s (vid %d): cannot find the "
			 "connection's socket to bound its replies: refused",
			 path, vid);
		return -ENOTCONN;
	}
	vsw_guard_state_reset(&conns[vid].rules);
	conns[vid].fd = fd;
	return rte_vhost_extern_callback_register(vid, &guard_ops, NULL) < 0
		       ? -EIO
		       : 0;
}

bool vsw_vhost_guard_peer_gone(int vid)
{
	struct pollfd pf;

	if (vid < 0 || vid >= RTE_MAX_VHOST_DEVICE || conns[vid].fd < 0)
		return false;
	pf = (struct pollfd){conns[vid].fd, POLLRDHUP, 0};
	return poll(&pf, 1, 0) == 1 &&
	       (pf.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

void vsw_vhost_guard_detach(int vid)
{
	if (vid >= 0 && vid < RTE_MAX_VHOST_DEVICE)
		conns[vid].fd = -1;
}

uint16_t vsw_vhost_guard_rings(int vid)
{
	uint64_t rings;

	if (vid < 0 || vid >= RTE_MAX_VHOST_DEVICE)
		return 0;
	rings = conns[vid].rules.ever_sized;
	return rings == 0 ? 0 : (uint16_t)(64 - __builtin_clzll(rings));
}
