/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vhost_hostile: a hostile vhost-user frontend (the side QEMU plays) for
 * testing a vhost-user backend such as vsw.  It speaks the wire format
 * itself -- a 12-byte header (request, flags with version 1, payload size),
 * the payload, file descriptors passed with SCM_RIGHTS -- and can bring a
 * device up properly (features, owner, protocol features, a memfd as guest
 * memory, vrings 0 and 1 with eventfds, enable, status), so that attacks
 * come before and after the device runs: truncated and oversized messages,
 * unknown requests, absurd ring sizes, indices and addresses, bad memory
 * tables and fds, malicious descriptors in the guest TX ring (vring 1),
 * notification fds that block, and connection storms.
 *
 * Each scenario runs on fresh connections and prints one line: what it
 * sent and how the backend reacted (closed the connection, replied an
 * error, accepted or ignored it, or did not answer).  The backend's PID
 * comes from SO_PEERCRED; when its /proc is readable the line also says
 * how its open fds and its mappings of our guest memory changed.  The exit
 * status is non-zero only for usage or local set-up errors: the caller
 * judges the backend.  libc and Linux UAPI constants only.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* ---- vhost-user wire format --------------------------------------------- */

enum vu_req {
	VU_GET_FEATURES = 1,
	VU_SET_FEATURES = 2,
	VU_SET_OWNER = 3,
	VU_RESET_OWNER = 4,
	VU_SET_MEM_TABLE = 5,
	VU_SET_LOG_BASE = 6,
	VU_SET_VRING_NUM = 8,
	VU_SET_VRING_ADDR = 9,
	VU_SET_VRING_BASE = 10,
	VU_GET_VRING_BASE = 11,
	VU_SET_VRING_KICK = 12,
	VU_SET_VRING_CALL = 13,
	VU_GET_PROTOCOL_FEATURES = 15,
	VU_SET_PROTOCOL_FEATURES = 16,
	VU_SET_VRING_ENABLE = 18,
	VU_SET_INFLIGHT_FD = 32,
	VU_SET_STATUS = 39,
};

#define VU_VERSION 0x1u
#define VU_REPLY 0x4u
#define VU_NEED_REPLY 0x8u
#define VU_NOFD 0x100u /* SET_VRING_KICK/CALL: no fd attached */
#define VU_MAX_REGIONS 8
#define VU_PAYLOAD_MAX 4096 /* more than any real payload */
#define VU_HDR 12u
#define MAX_SEND_FDS 253 /* SCM_MAX_FD */

/* Feature bits (virtio and vhost-user). */
#define F_MRG_RXBUF (1ull << 15)
#define F_MQ (1ull << 22)
#define F_CSUM (1ull << 0)
#define F_HOST_TSO4 (1ull << 11)
#define F_HOST_TSO6 (1ull << 12)
#define F_INDIRECT_DESC (1ull << 28)
#define F_PROTOCOL_FEATURES (1ull << 30)
#define F_VERSION_1 (1ull << 32)
#define PF_REPLY_ACK (1ull << 3)
#define PF_STATUS (1ull << 16)
#define STATUS_RUNNING 0x0full /* ACK | DRIVER | DRIVER_OK | FEATURES_OK */

struct vu_region {
	uint64_t gpa, size, uaddr, offset;
};

struct vu_mem {
	uint32_t nregions, padding;
	struct vu_region regions[VU_MAX_REGIONS];
};

struct vu_state {
	uint32_t index, num;
};

struct vu_addr {
	uint32_t index, flags;
	uint64_t desc, used, avail, log;
};

struct vu_inflight {
	uint64_t mmap_size, mmap_offset;
	uint16_t num_queues, queue_size;
};

struct vu_msg {
	uint32_t req, flags, size;
	union {
		uint64_t u64;
		struct vu_state state;
		struct vu_addr addr;
		struct vu_mem mem;
		struct vu_inflight inflight;
		uint8_t raw[VU_PAYLOAD_MAX];
	} p;
} __attribute__((packed));

/* ---- split virtqueue layout --------------------------------------------- */

#define VRING_F_NEXT 1
#define VRING_F_INDIRECT 4
#define QSZ 256u
#define MEM_SIZE (4u << 20)
#define GPA_BASE 0x100000000ull		  /* guest physical address of mem[0] */
#define RING_OFF(q) ((size_t)(q)*0x10000) /* desc; avail +4K; used +8K */
#define BUF_OFF 0x100000u
#define BUF_SIZE 2048u
#define NET_HDR 12u /* virtio_net_hdr_mrg_rxbuf: VERSION_1 is negotiated */
#define FRAME_LEN 60u

struct vdesc {
	uint64_t addr;
	uint32_t len;
	uint16_t flags, next;
};

struct vavail {
	uint16_t flags, idx, ring[];
};

struct vused {
	uint16_t flags, idx;
	struct {
		uint32_t id, len;
	} ring[];
};

/* ---- options and reports ------------------------------------------------ */

static struct {
	const char *path;  /* the backend's socket */
	const char *probe; /* a socket for "is anyone else served?" */
	int timeout_ms;	   /* an answer later than this counts as none */
	int hold_ms;	   /* how long a blocking attack is held */
	int storm;	   /* reconnect_storm iterations */
	int flood;	   /* conn_flood connections held at once */
} opt = {NULL, NULL, 5000, 3000, 1100, 1100};

struct report {
	char sent[512];
	char got[1024];
};

static void add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Append to a report field, "; "-separated. */
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n > 0 && n + 2 < len) {
		memcpy(buf + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

#define SENT(r, ...) add((r)->sent, sizeof((r)->sent), __VA_ARGS__)
#define GOT(r, ...) add((r)->got, sizeof((r)->got), __VA_ARGS__)

/* Local failures the scenario cannot go on without: exit 2. */
static void die(const char *what)
{
	fprintf(stderr, "vhost_hostile: %s: %s\n", what, strerror(errno));
	exit(2);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* ---- socket I/O --------------------------------------------------------- */

static int sock_connect(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

/* Send @len bytes at @buf with @nfds descriptors in one sendmsg. */
static int send_raw(int fd, const void *buf, size_t len, const int *fds,
		    int nfds, int flags)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * MAX_SEND_FDS)];
		struct cmsghdr align;
	} u;
	struct iovec iov = {.iov_base = (void *)(uintptr_t)buf, .iov_len = len};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	struct cmsghdr *cm;
	ssize_t n;

	if (nfds > 0) {
		memset(&u, 0, sizeof(u));
		mh.msg_control = u.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * (size_t)nfds);
	}
	n = sendmsg(fd, &mh, MSG_NOSIGNAL | flags);
	if (n < 0)
		return -errno;
	return n == (ssize_t)len ? 0 : -EIO;
}

/* One message: header (version 1 | @flags) and @size payload bytes, sent
 * with sendmsg @sflags (MSG_DONTWAIT or 0). */
static int vu_send_flags(int fd, uint32_t req, uint32_t flags, const void *pl,
			 uint32_t size, const int *fds, int nfds, int sflags)
{
	struct vu_msg m;

	memset(&m, 0, VU_HDR);
	m.req = req;
	m.flags = VU_VERSION | flags;
	m.size = size;
	if (size > 0)
		memcpy(m.p.raw, pl, size);
	return send_raw(fd, &m, VU_HDR + size, fds, nfds, sflags);
}

static int vu_send(int fd, uint32_t req, uint32_t flags, const void *pl,
		   uint32_t size, const int *fds, int nfds)
{
	return vu_send_flags(fd, req, flags, pl, size, fds, nfds, 0);
}

/* Read exactly @len bytes: 1 done, 0 peer closed, -ETIMEDOUT, -errno. */
static int recv_exact(int fd, void *buf, size_t len, int timeout_ms)
{
	uint64_t end = now_ms() + (uint64_t)timeout_ms;
	size_t got = 0;

	while (got < len) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int64_t left = (int64_t)(end - now_ms());
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)left) == 0)
			return -ETIMEDOUT;
		n = recv(fd, (char *)buf + got, len - got, MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno == ECONNRESET))
			return 0;
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (n > 0)
			got += (size_t)n;
	}
	return 1;
}

static int vu_recv(int fd, struct vu_msg *m, int timeout_ms)
{
	int rc = recv_exact(fd, m, VU_HDR, timeout_ms);

	if (rc <= 0)
		return rc;
	if (m->size > sizeof(m->p))
		return -EPROTO;
	return m->size ? recv_exact(fd, &m->p, m->size, timeout_ms) : 1;
}

/* How the backend took a message. */
enum out { OUT_OK, OUT_NACK, OUT_CLOSED, OUT_HUNG };

static const char *out_str(enum out o)
{
	static char hung[64];

	switch (o) {
	case OUT_OK:
		return "accepted";
	case OUT_NACK:
		return "replied an error";
	case OUT_CLOSED:
		return "closed the connection";
	default:
		snprintf(hung, sizeof(hung), "did not answer within %d ms",
			 opt.timeout_ms);
		return hung;
	}
}

static enum out rc_out(int rc)
{
	return rc == -ETIMEDOUT ? OUT_HUNG : OUT_CLOSED;
}

/* Wait for the reply to @req (older replies are skipped). */
static enum out wait_reply(int fd, uint32_t req, struct vu_msg *m)
{
	for (int i = 0; i < 64; i++) {
		int rc = vu_recv(fd, m, opt.timeout_ms);

		if (rc <= 0)
			return rc_out(rc);
		if (m->req == req && (m->flags & VU_REPLY))
			return OUT_OK;
	}
	return OUT_CLOSED; /* a stream of unrelated messages: give up */
}

/* ---- a connection and its negotiated state ------------------------------ */

struct conn {
	int fd;
	bool ack;	   /* REPLY_ACK negotiated: every set is acked */
	uint64_t features; /* negotiated virtio features */
	uint64_t proto;	   /* negotiated protocol features */
	uint32_t nvr;	   /* vrings handshake() set up; 0: two */
};

static int conn_open(struct conn *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->fd = sock_connect(path);
	return c->fd < 0 ? c->fd : 0;
}

static void conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* Once the backend closed a connection, forget it. */
static enum out seen(struct conn *c, enum out o)
{
	if (o == OUT_CLOSED)
		conn_close(c);
	return o;
}

/* A request with a reply (GET_*). */
static enum out vu_get(struct conn *c, uint32_t req, const void *pl,
		       uint32_t size, struct vu_msg *reply)
{
	if (vu_send(c->fd, req, 0, pl, size, NULL, 0) < 0)
		return seen(c, OUT_CLOSED);
	return seen(c, wait_reply(c->fd, req, reply));
}

/* A request without a reply; with REPLY_ACK, wait for its ack. */
static enum out vu_set(struct conn *c, uint32_t req, const void *pl,
		       uint32_t size, const int *fds, int nfds)
{
	struct vu_msg m;
	enum out o;

	if (vu_send(c->fd, req, c->ack ? VU_NEED_REPLY : 0, pl, size, fds,
		    nfds) < 0)
		return seen(c, OUT_CLOSED);
	if (!c->ack)
		return OUT_OK;
	o = seen(c, wait_reply(c->fd, req, &m));
	if (o != OUT_OK)
		return o;
	return m.p.u64 == 0 ? OUT_OK : OUT_NACK;
}

static enum out vu_set_u64(struct conn *c, uint32_t req, uint64_t v)
{
	return vu_set(c, req, &v, sizeof(v), NULL, 0);
}

static enum out vu_set_state(struct conn *c, uint32_t req, uint32_t index,
			     uint32_t num)
{
	struct vu_state s = {index, num};

	return vu_set(c, req, &s, sizeof(s), NULL, 0);
}

/* Is the connection still served?  A GET_FEATURES round trip. */
static enum out probe(struct conn *c)
{
	struct vu_msg m;

	return vu_get(c, VU_GET_FEATURES, NULL, 0, &m);
}

/*
 * After an attack message: did the backend ack it (when @acked asked for
 * one), and does it still serve the connection?
 */
static const char *react(struct conn *c, bool acked)
{
	static char buf[160];
	struct vu_msg m;
	enum out then;
	int rc = 1;

	if (acked) {
		rc = vu_recv(c->fd, &m, opt.timeout_ms);
		if (rc <= 0) {
			conn_close(c);
			return out_str(rc_out(rc));
		}
	}
	then = probe(c);
	if (then != OUT_OK) {
		conn_close(c);
		return out_str(then);
	}
	if (!acked)
		return "kept the connection, reported no error";
	snprintf(buf, sizeof(buf), "%s, kept the connection",
		 m.p.u64 ? "replied an error" : "acked it as accepted");
	return buf;
}

/* ---- the backend's resources, seen through /proc ------------------------ */

static pid_t peer_pid(int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0)
		return -1;
	return cr.pid;
}

static int count_fds(pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* Mappings of any guest memory of ours (our memfds are named so). */
static int count_maps(pid_t pid)
{
	char path[64], line[512];
	FILE *f;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, "memfd:vhost-hostile") != NULL)
			n++;
	fclose(f);
	return n;
}

static pid_t backend_pid = -1;

/* Alive and not a zombie (its parent may not have reaped it yet). */
static bool backend_alive(void)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)backend_pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	p = strrchr(buf, ')');
	return p != NULL && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

struct peer {
	int fds, maps;
};

/* The fewest of three looks: the last scenario's fds may still be closing. */
static void peer_snap(struct peer *p)
{
	p->fds = p->maps = -1;
	for (int i = 0; i < 3 && backend_pid > 0; i++) {
		int fds = count_fds(backend_pid),
		    maps = count_maps(backend_pid);

		if (p->fds < 0 || fds < p->fds)
			p->fds = fds;
		if (p->maps < 0 || maps < p->maps)
			p->maps = maps;
		sleep_ms(100);
	}
}

/* After a scenario: wait up to 3 s for the backend to let go, then tell. */
static void peer_diff(const struct peer *before, struct report *r)
{
	uint64_t end = now_ms() + 3000;
	int fds, maps;

	if (before->fds < 0)
		return;
	sleep_ms(300); /* a backend that was just killed may still be dying */
	do {
		if (!backend_alive()) {
			GOT(r, "backend process %d is gone", (int)backend_pid);
			return;
		}
		fds = count_fds(backend_pid);
		maps = count_maps(backend_pid);
		if (fds <= before->fds && maps <= before->maps)
			return;
		sleep_ms(100);
	} while (now_ms() < end);
	if (fds > before->fds)
		GOT(r, "backend holds %d more fds than before (%d -> %d)",
		    fds - before->fds, before->fds, fds);
	if (maps > before->maps)
		GOT(r, "backend still maps our guest memory (%d mappings)",
		    maps);
}

/* ---- guest memory and rings --------------------------------------------- */

static const uint8_t our_mac[6] = {0x02, 0x68, 0x6f, 0x73, 0x74, 0x01};

#define MAX_VR 4 /* vrings: two queue pairs at most (rx_pair0_off_mq) */

struct guest {
	int memfd;
	uint8_t *mem;
	/* sent for vrings 0..3 (2 and 3 only by a device with two pairs,
	 * guest.pairs); -1: "no fd" */
	int kick[MAX_VR], call[MAX_VR];
	uint16_t avail_idx; /* next free slot of vring 1's avail ring */
	uint32_t pairs;	    /* queue pairs handshake() brings up: 1, 2 */
};

static void guest_init(struct guest *g)
{
	memset(g, 0, sizeof(*g));
	g->memfd = memfd_create("vhost-hostile", MFD_CLOEXEC);
	if (g->memfd < 0 || ftruncate(g->memfd, MEM_SIZE) < 0)
		die("guest memory");
	g->mem = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		      g->memfd, 0);
	if (g->mem == MAP_FAILED)
		die("mmap guest memory");
	g->pairs = 1;
	for (int q = 0; q < MAX_VR; q++) {
		g->kick[q] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		g->call[q] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (g->kick[q] < 0 || g->call[q] < 0)
			die("eventfd");
	}
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void guest_fini(struct guest *g)
{
	munmap(g->mem, MEM_SIZE);
	close_fd(&g->memfd);
	for (int q = 0; q < MAX_VR; q++) {
		close_fd(&g->kick[q]);
		close_fd(&g->call[q]);
	}
}

static uint64_t uaddr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static struct vdesc *ring_desc(struct guest *g, int q)
{
	return (struct vdesc *)(g->mem + RING_OFF(q));
}

static struct vavail *ring_avail(struct guest *g, int q)
{
	return (struct vavail *)(g->mem + RING_OFF(q) + 0x1000);
}

static struct vused *ring_used(struct guest *g, int q)
{
	return (struct vused *)(g->mem + RING_OFF(q) + 0x2000);
}

/* A 60-byte frame to ourselves (vsw drops it as a hairpin: harmless). */
static uint64_t frame_write(struct guest *g, unsigned int slot)
{
	uint8_t *b = g->mem + BUF_OFF + (size_t)slot * BUF_SIZE;

	memset(b, 0, NET_HDR + FRAME_LEN);
	memcpy(b + NET_HDR, our_mac, 6);
	memcpy(b + NET_HDR + 6, our_mac, 6);
	b[NET_HDR + 12] = 0x88; /* local experimental ethertype */
	b[NET_HDR + 13] = 0xb5;
	return GPA_BASE + BUF_OFF + (uint64_t)slot * BUF_SIZE;
}

static void desc_set(struct guest *g, uint16_t i, uint64_t addr, uint32_t len,
		     uint16_t flags, uint16_t next)
{
	struct vdesc *d = &ring_desc(g, 1)[i];

	d->addr = addr;
	d->len = len;
	d->flags = flags;
	d->next = next;
}

static void kick(int fd)
{
	uint64_t one = 1;

	if (fd >= 0 && write(fd, &one, sizeof(one)) < 0) {
		/* a full or foreign kick fd: the backend polls anyway */
	}
}

/* Offer the chain at @head on vring 1 (guest TX) and kick. */
static void tx_post(struct guest *g, uint16_t head)
{
	struct vavail *av = ring_avail(g, 1);

	av->ring[g->avail_idx % QSZ] = head;
	g->avail_idx++;
	__atomic_store_n(&av->idx, g->avail_idx, __ATOMIC_RELEASE);
	kick(g->kick[1]);
}

/* A valid frame in descriptor @slot (16 and up; 0..15 are for attacks). */
static void tx_valid(struct guest *g, uint16_t slot)
{
	desc_set(g, slot, frame_write(g, slot), NET_HDR + FRAME_LEN, 0, 0);
	tx_post(g, slot);
}

static uint16_t used_idx(struct guest *g)
{
	return __atomic_load_n(&ring_used(g, 1)->idx, __ATOMIC_ACQUIRE);
}

/* Wait until vring 1's used index reaches @want; returns what it is. */
static uint16_t tx_wait(struct guest *g, uint16_t want, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;

	while ((int16_t)(used_idx(g) - want) < 0 && now_ms() < end)
		sleep_ms(2);
	return used_idx(g);
}

/* ---- handshake steps ---------------------------------------------------- */

#define TRY(name, expr)                                                        \
	do {                                                                   \
		enum out o_ = (expr);                                          \
		if (o_ != OUT_OK) {                                            \
			*step = (name);                                        \
			return o_;                                             \
		}                                                              \
	} while (0)

static enum out hs_protocol(struct conn *c, const char **step)
{
	struct vu_msg m;

	if (!(c->features & F_PROTOCOL_FEATURES))
		return OUT_OK;
	TRY("GET_PROTOCOL_FEATURES",
	    vu_get(c, VU_GET_PROTOCOL_FEATURES, NULL, 0, &m));
	c->proto = m.p.u64 & (PF_REPLY_ACK | PF_STATUS);
	TRY("SET_PROTOCOL_FEATURES",
	    vu_set_u64(c, VU_SET_PROTOCOL_FEATURES, c->proto));
	c->ack = (c->proto & PF_REPLY_ACK) != 0;
	return OUT_OK;
}

/* Scenarios that lie in virtio-net headers take the offloads offered. */
static bool want_offloads;

/* GET_FEATURES, SET_FEATURES (with @extra when offered), SET_OWNER,
 * protocol features. */
static enum out hs_negotiate_with(struct conn *c, uint64_t extra,
				  const char **step)
{
	struct vu_msg m;

	TRY("GET_FEATURES", vu_get(c, VU_GET_FEATURES, NULL, 0, &m));
	c->features =
		m.p.u64 &
		(F_VERSION_1 | F_PROTOCOL_FEATURES | F_INDIRECT_DESC |
		 F_MRG_RXBUF | extra |
		 (want_offloads ? F_CSUM | F_HOST_TSO4 | F_HOST_TSO6 : 0));
	TRY("SET_FEATURES", vu_set_u64(c, VU_SET_FEATURES, c->features));
	TRY("SET_OWNER", vu_set(c, VU_SET_OWNER, NULL, 0, NULL, 0));
	return hs_protocol(c, step);
}

static enum out hs_negotiate(struct conn *c, const char **step)
{
	return hs_negotiate_with(c, 0, step);
}

static enum out set_mem(struct conn *c, const struct vu_region *regs,
			uint32_t n, const int *fds, int nfds)
{
	struct vu_mem mem;

	memset(&mem, 0, sizeof(mem));
	mem.nregions = n;
	memcpy(mem.regions, regs, sizeof(*regs) * (n < 8 ? n : 8));
	return vu_set(c, VU_SET_MEM_TABLE, &mem, sizeof(mem), fds, nfds);
}

static struct vu_region guest_region(const struct guest *g)
{
	return (struct vu_region){GPA_BASE, MEM_SIZE, uaddr(g->mem), 0};
}

static enum out hs_mem(struct conn *c, struct guest *g, const char **step)
{
	struct vu_region reg = guest_region(g);

	TRY("SET_MEM_TABLE", set_mem(c, &reg, 1, &g->memfd, 1));
	return OUT_OK;
}

/* SET_VRING_KICK/CALL: @fd < 0 sends the "no fd" flag instead. */
static enum out set_vring_fd(struct conn *c, uint32_t req, uint32_t q, int fd)
{
	uint64_t v = q | (fd < 0 ? VU_NOFD : 0);

	return vu_set(c, req, &v, sizeof(v), &fd, fd < 0 ? 0 : 1);
}

static enum out set_vring_addr(struct conn *c, uint32_t q, uint64_t desc,
			       uint64_t avail, uint64_t used)
{
	struct vu_addr a = {q, 0, desc, used, avail, 0};

	return vu_set(c, VU_SET_VRING_ADDR, &a, sizeof(a), NULL, 0);
}

static enum out hs_vring(struct conn *c, struct guest *g, uint32_t q,
			 const char **step)
{
	TRY("SET_VRING_NUM", vu_set_state(c, VU_SET_VRING_NUM, q, QSZ));
	TRY("SET_VRING_BASE", vu_set_state(c, VU_SET_VRING_BASE, q, 0));
	TRY("SET_VRING_ADDR", set_vring_addr(c, q, uaddr(ring_desc(g, (int)q)),
					     uaddr(ring_avail(g, (int)q)),
					     uaddr(ring_used(g, (int)q))));
	TRY("SET_VRING_KICK",
	    set_vring_fd(c, VU_SET_VRING_KICK, q, g->kick[q]));
	TRY("SET_VRING_CALL",
	    set_vring_fd(c, VU_SET_VRING_CALL, q, g->call[q]));
	return OUT_OK;
}

/* Enable the vrings (two, or c->nvr), set DRIVER_OK, and wait for it to
 * be processed. */
static enum out hs_start(struct conn *c, const char **step)
{
	for (uint32_t q = 0; (c->features & F_PROTOCOL_FEATURES) &&
			     q < (c->nvr > 0 ? c->nvr : 2);
	     q++)
		TRY(q == 0 ? "SET_VRING_ENABLE 0" : "SET_VRING_ENABLE 1..",
		    vu_set_state(c, VU_SET_VRING_ENABLE, q, 1));
	if (c->proto & PF_STATUS)
		TRY("SET_STATUS", vu_set_u64(c, VU_SET_STATUS, STATUS_RUNNING));
	/* the backend starts the device after acking the last message */
	TRY("GET_FEATURES (sync)", probe(c));
	return OUT_OK;
}

/* Up with @g's queue pairs (VIRTIO_NET_F_MQ negotiated for two). */
static enum out handshake(struct conn *c, struct guest *g, const char **step)
{
	enum out o = hs_negotiate_with(c, g->pairs > 1 ? F_MQ : 0, step);

	c->nvr = g->pairs > 1 && (c->features & F_MQ) ? MAX_VR : 2;
	if (o == OUT_OK)
		o = hs_mem(c, g, step);
	for (uint32_t q = 0; q < c->nvr && o == OUT_OK; q++)
		o = hs_vring(c, g, q, step);
	if (o == OUT_OK)
		o = hs_start(c, step);
	return o;
}

/* A normal stop: GET_VRING_BASE on every vring (as QEMU does), close. */
static enum out hs_stop(struct conn *c)
{
	struct vu_state s = {0, 0};
	struct vu_msg m;
	enum out o = OUT_OK;

	for (uint32_t q = 0; q < (c->nvr > 0 ? c->nvr : 2) && o == OUT_OK;
	     q++) {
		s.index = q;
		o = vu_get(c, VU_GET_VRING_BASE, &s, sizeof(s), &m);
	}
	conn_close(c);
	return o;
}

/* ---- scenario helpers --------------------------------------------------- */

struct dev {
	struct conn c;
	struct guest g;
};

static int fresh(struct conn *c, struct report *r)
{
	int rc = conn_open(c, opt.path);

	if (rc < 0)
		GOT(r, "cannot connect: %s", strerror(-rc));
	return rc;
}

/* A fresh connection that negotiates, then sends @reg, a region the
 * scenario bent, as the memory table (result in *o). -1 (guest released)
 * when it cannot connect. */
static int bent_mem(struct dev *d, struct report *r,
		    const struct vu_region *reg, enum out *o, const char **step)
{
	if (fresh(&d->c, r) < 0) {
		guest_fini(&d->g);
		return -1;
	}
	*o = hs_negotiate(&d->c, step);
	if (*o == OUT_OK)
		*o = set_mem(&d->c, reg, 1, &d->g.memfd, 1);
	GOT(r, "SET_MEM_TABLE: %s", out_str(*o));
	return 0;
}

/* A connection with a running device; guest fds may be swapped first. */
static int dev_up_with(struct dev *d, struct report *r, bool init)
{
	const char *step = "";
	enum out o;

	if (init)
		guest_init(&d->g);
	if (fresh(&d->c, r) < 0)
		return -1;
	o = handshake(&d->c, &d->g, &step);
	if (o != OUT_OK) {
		GOT(r, "handshake failed at %s: %s", step, out_str(o));
		conn_close(&d->c);
		return -1;
	}
	return 0;
}

static int dev_up(struct dev *d, struct report *r)
{
	return dev_up_with(d, r, true);
}

static void dev_down(struct dev *d, struct report *r)
{
	if (d->c.fd >= 0)
		GOT(r, "normal stop: %s", out_str(hs_stop(&d->c)));
	guest_fini(&d->g);
}

/* Negotiated features and memory, no vrings yet. */
static int dev_mem(struct dev *d, struct report *r)
{
	const char *step = "";
	enum out o;

	guest_init(&d->g);
	if (fresh(&d->c, r) < 0)
		return -1;
	o = hs_negotiate(&d->c, &step);
	if (o == OUT_OK)
		o = hs_mem(&d->c, &d->g, &step);
	if (o != OUT_OK)
		GOT(r, "set-up failed at %s: %s", step, out_str(o));
	return o == OUT_OK ? 0 : -1;
}

/* Send one attack message without asking for an ack; how was it taken? */
static const char *attack(struct conn *c, uint32_t req, const void *pl,
			  uint32_t size, const int *fds, int nfds)
{
	if (vu_send(c->fd, req, 0, pl, size, fds, nfds) < 0) {
		conn_close(c);
		return out_str(OUT_CLOSED);
	}
	return react(c, false);
}

/* Send a GET_FEATURES on a new connection to @path (-errno: refused). */
static int probe_start(const char *path)
{
	int fd = sock_connect(path);

	if (fd >= 0 && vu_send(fd, VU_GET_FEATURES, 0, NULL, 0, NULL, 0) < 0) {
		close(fd);
		return -EPIPE;
	}
	return fd;
}

/* Its answer within @ms: 1 answered, 0 closed, -ETIMEDOUT. */
static int probe_finish(int fd, int ms)
{
	struct vu_msg m;
	int rc = vu_recv(fd, &m, ms);

	return rc == 1 ? 1 : rc == -ETIMEDOUT ? -ETIMEDOUT : 0;
}

/* Is a new connection served now? */
static const char *served(void)
{
	int fd = probe_start(opt.path), rc;

	if (fd < 0)
		return "a new connection is refused";
	rc = probe_finish(fd, opt.timeout_ms);
	close(fd);
	return rc == 1	 ? "a new connection is served"
	       : rc == 0 ? "a new connection is closed unanswered"
			 : "a new connection gets no answer";
}

/* ---- scenarios: framing ------------------------------------------------- */

/* Wait for the peer to close (1) or not (0) within @ms; data is dropped. */
static int wait_eof(int fd, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;
	char buf[256];

	while (now_ms() < end) {
		int rc =
			recv_exact(fd, buf, sizeof(buf), (int)(end - now_ms()));

		if (rc == 0)
			return 1;
		if (rc == -ETIMEDOUT)
			return 0;
	}
	return 0;
}

static void s_handshake_ok(struct report *r, uint64_t arg)
{
	struct dev d;
	uint16_t u;

	(void)arg;
	SENT(r, "correct handshake, 8 valid frames on vring 1, normal stop");
	if (dev_up(&d, r) == 0) {
		for (uint16_t i = 0; i < 8; i++)
			tx_valid(&d.g, (uint16_t)(16 + i));
		u = tx_wait(&d.g, 8, opt.timeout_ms);
		GOT(r, "device ran: %u of 8 frames consumed", u);
	}
	dev_down(&d, r);
}

static void s_trunc_header(struct report *r, uint64_t arg)
{
	struct vu_msg m = {.req = VU_GET_FEATURES, .flags = VU_VERSION};
	struct conn c;

	SENT(r, "%u of the 12 header bytes, then nothing", (unsigned)arg);
	if (fresh(&c, r) < 0)
		return;
	if (send_raw(c.fd, &m, arg, NULL, 0, 0) < 0)
		GOT(r, "send failed");
	else if (wait_eof(c.fd, 2000))
		GOT(r, "closed the connection");
	else
		GOT(r, "kept the connection open for 2 s (waiting for more)");
	conn_close(&c);
	GOT(r, "%s", served());
}

/* A header announcing a payload, then part of it (or none), then close. */
static void s_cut_close(struct report *r, uint64_t arg)
{
	struct vu_msg m;
	struct guest g;
	struct conn c;

	guest_init(&g);
	memset(&m, 0, sizeof(m));
	m.req = VU_SET_MEM_TABLE;
	m.flags = VU_VERSION;
	m.size = sizeof(struct vu_mem);
	m.p.mem.nregions = 1;
	m.p.mem.regions[0] = guest_region(&g);
	SENT(r,
	     "SET_MEM_TABLE header announcing %u bytes + memfd, %u payload "
	     "bytes, then close",
	     m.size, (unsigned)arg);
	if (fresh(&c, r) == 0) {
		if (send_raw(c.fd, &m, VU_HDR + arg, &g.memfd, 1, 0) < 0)
			GOT(r, "send failed");
		sleep_ms(200);
		conn_close(&c);
		sleep_ms(200);
		GOT(r, "%s", served());
	}
	guest_fini(&g);
}

static void s_size(struct report *r, uint64_t arg)
{
	static uint8_t zeros[VU_PAYLOAD_MAX];
	struct vu_msg m = {.req = VU_GET_FEATURES, .flags = VU_VERSION};
	size_t len = VU_HDR;
	struct conn c;

	m.size = (uint32_t)arg;
	if (arg <= VU_PAYLOAD_MAX)
		len += arg; /* the payload really follows */
	SENT(r, "GET_FEATURES with size %#x%s", m.size,
	     arg <= VU_PAYLOAD_MAX ? " and that many bytes" : ", no payload");
	if (fresh(&c, r) < 0)
		return;
	memcpy(m.p.raw, zeros, len - VU_HDR);
	if (send_raw(c.fd, &m, len, NULL, 0, 0) < 0)
		GOT(r, "%s", out_str(OUT_CLOSED));
	else
		GOT(r, "%s", react(&c, false));
	conn_close(&c);
}

/* SET_MEM_TABLE whose size covers nregions only: regions are not sent. */
static void s_mem_short(struct report *r, uint64_t arg)
{
	uint32_t n[2] = {1, 0};
	struct dev d;

	(void)arg;
	SENT(r, "SET_MEM_TABLE with size 8 (nregions 1, no region) + memfd");
	if (dev_mem(&d, r) == 0)
		GOT(r, "%s",
		    attack(&d.c, VU_SET_MEM_TABLE, n, 8, &d.g.memfd, 1));
	conn_close(&d.c);
	guest_fini(&d.g);
}

static void s_unknown(struct report *r, uint64_t arg)
{
	struct conn c;

	SENT(r, "request %#x before anything else, no reply asked",
	     (unsigned)arg);
	if (fresh(&c, r) < 0)
		return;
	GOT(r, "%s", attack(&c, (uint32_t)arg, NULL, 0, NULL, 0));
	conn_close(&c);
}

static void s_unknown_ack(struct report *r, uint64_t arg)
{
	const char *step = "";
	struct conn c;

	SENT(r, "negotiation, then request %u with NEED_REPLY", (unsigned)arg);
	if (fresh(&c, r) < 0)
		return;
	if (hs_negotiate(&c, &step) != OUT_OK)
		GOT(r, "negotiation failed at %s", step);
	else if (vu_send(c.fd, (uint32_t)arg, VU_NEED_REPLY, NULL, 0, NULL, 0) <
		 0)
		GOT(r, "%s", out_str(OUT_CLOSED));
	else
		GOT(r, "%s", react(&c, true));
	conn_close(&c);
}

static void s_bad_version(struct report *r, uint64_t arg)
{
	struct vu_msg m = {.req = VU_GET_FEATURES, .flags = (uint32_t)arg};
	struct conn c;
	int rc;

	SENT(r, "GET_FEATURES with flags %#x (version %u)", (unsigned)arg,
	     (unsigned)arg & 3);
	if (fresh(&c, r) < 0)
		return;
	rc = send_raw(c.fd, &m, VU_HDR, NULL, 0, 0);
	if (rc == 0)
		rc = vu_recv(c.fd, &m, opt.timeout_ms);
	GOT(r, "%s", rc == 1 ? "answered it anyway" : out_str(rc_out(rc)));
	conn_close(&c);
}

/* Can many fds in one message leak?  Acked ones, then one with 253. */
static void s_fd_flood(struct report *r, uint64_t arg)
{
	int fds[MAX_SEND_FDS], nacks = 0, rounds = (int)arg;
	struct dev d;

	SENT(r,
	     "%d x SET_OWNER with NEED_REPLY and 8 fds; then GET_FEATURES "
	     "with %d fds",
	     rounds, MAX_SEND_FDS);
	for (int i = 0; i < MAX_SEND_FDS; i++)
		if ((fds[i] = eventfd(0, EFD_CLOEXEC)) < 0)
			die("eventfd");
	if (dev_mem(&d, r) == 0) {
		for (int i = 0; i < rounds && d.c.ack; i++)
			nacks += vu_set(&d.c, VU_SET_OWNER, NULL, 0, fds, 8) ==
				 OUT_NACK;
		GOT(r, "%d of %d fd-carrying SET_OWNERs nacked", nacks,
		    d.c.ack ? rounds : 0);
		GOT(r, "%s",
		    attack(&d.c, VU_GET_FEATURES, NULL, 0, fds, MAX_SEND_FDS));
	}
	for (int i = 0; i < MAX_SEND_FDS; i++)
		close(fds[i]);
	conn_close(&d.c);
	guest_fini(&d.g);
}

/* ---- scenarios: vrings -------------------------------------------------- */

/* After a tolerated attack: does the same connection still run a device? */
static void then_run(struct dev *d, struct report *r)
{
	const char *step = "";
	enum out o = hs_vring(&d->c, &d->g, 0, &step);
	uint16_t u;

	if (o == OUT_OK)
		o = hs_vring(&d->c, &d->g, 1, &step);
	if (o == OUT_OK)
		o = hs_start(&d->c, &step);
	if (o != OUT_OK) {
		GOT(r, "then the handshake failed at %s: %s", step, out_str(o));
		conn_close(&d->c);
		return;
	}
	for (uint16_t i = 0; i < 4; i++)
		tx_valid(&d->g, (uint16_t)(16 + i));
	u = tx_wait(&d->g, 4, opt.timeout_ms);
	GOT(r, "then the device ran: %u of 4 frames consumed", u);
}

static void s_vring_num(struct report *r, uint64_t arg)
{
	const char *how;
	struct vu_state st = {1, (uint32_t)arg};
	struct dev d;

	SENT(r, "SET_VRING_NUM vring 1 size %u (no reply asked)",
	     (unsigned)arg);
	if (dev_mem(&d, r) == 0) {
		how = attack(&d.c, VU_SET_VRING_NUM, &st, sizeof(st), NULL, 0);
		GOT(r, "%s", how);
		if (d.c.fd >= 0 && strncmp(how, "kept", 4) == 0)
			then_run(&d, r);
	}
	dev_down(&d, r);
}

static void s_vring_idx(struct report *r, uint64_t arg)
{
	struct vu_state st = {(uint32_t)arg, QSZ};
	const char *how;
	struct dev d;

	SENT(r, "SET_VRING_NUM on vring index %u", (unsigned)arg);
	if (dev_mem(&d, r) == 0) {
		how = attack(&d.c, VU_SET_VRING_NUM, &st, sizeof(st), NULL, 0);
		GOT(r, "%s", how);
		if (strncmp(how, "kept", 4) == 0)
			then_run(&d, r);
	}
	dev_down(&d, r);
}

/* The same, with 8 eventfds attached to the message. */
static void s_idx_fds(struct report *r, uint64_t arg)
{
	struct vu_state st = {(uint32_t)arg, QSZ};
	int fds[8];
	struct dev d;

	SENT(r, "SET_VRING_NUM on vring index %u with 8 eventfds attached",
	     (unsigned)arg);
	for (int i = 0; i < 8; i++)
		if ((fds[i] = eventfd(0, EFD_CLOEXEC)) < 0)
			die("eventfd");
	if (dev_mem(&d, r) == 0)
		GOT(r, "%s",
		    attack(&d.c, VU_SET_VRING_NUM, &st, sizeof(st), fds, 8));
	for (int i = 0; i < 8; i++)
		close(fds[i]);
	conn_close(&d.c);
	guest_fini(&d.g);
}

/* Vring 1's addresses, by variant. */
enum addr_kind { ADDR_OUTSIDE, ADDR_WRAP, ADDR_STRADDLE, ADDR_NOMEM };

static void bad_addrs(struct guest *g, uint64_t kind, uint64_t a[3])
{
	uint64_t end = uaddr(g->mem) + MEM_SIZE;

	if (kind == ADDR_OUTSIDE) {
		a[0] = end + 0x100000;
		a[1] = end + 0x101000;
		a[2] = end + 0x102000;
	} else if (kind == ADDR_WRAP) {
		a[0] = 0xfffffffffffff000ull;
		a[1] = 0xffffffffffffff00ull;
		a[2] = 0xfffffffffffffff0ull;
	} else { /* straddle the end; NOMEM: valid, but no table yet */
		a[0] = kind == ADDR_STRADDLE ? end - 0x800
					     : uaddr(ring_desc(g, 1));
		a[1] = uaddr(ring_avail(g, 1));
		a[2] = uaddr(ring_used(g, 1));
	}
}

static const char *const addr_names[] = {
	"outside the memory table", "that wrap around 2^64",
	"whose desc table straddles the end of memory",
	"before any SET_MEM_TABLE"};

static void s_ring_addr(struct report *r, uint64_t kind)
{
	const char *step = "";
	struct vu_addr a = {1, 0, 0, 0, 0, 0};
	uint64_t v[3];
	struct dev d;
	enum out o;

	SENT(r, "vring 1 addresses %s, then KICK/CALL/enable",
	     addr_names[kind]);
	guest_init(&d.g);
	if (fresh(&d.c, r) < 0 || hs_negotiate(&d.c, &step) != OUT_OK ||
	    (kind != ADDR_NOMEM &&
	     (hs_mem(&d.c, &d.g, &step) != OUT_OK ||
	      hs_vring(&d.c, &d.g, 0, &step) != OUT_OK))) {
		GOT(r, "set-up failed at %s", step);
		dev_down(&d, r);
		return;
	}
	bad_addrs(&d.g, kind, v);
	a.desc = v[0], a.avail = v[1], a.used = v[2];
	o = vu_set_state(&d.c, VU_SET_VRING_NUM, 1, QSZ);
	if (o == OUT_OK)
		o = vu_set(&d.c, VU_SET_VRING_ADDR, &a, sizeof(a), NULL, 0);
	GOT(r, "SET_VRING_ADDR: %s", out_str(o));
	if (o == OUT_OK) {
		o = set_vring_fd(&d.c, VU_SET_VRING_KICK, 1, d.g.kick[1]);
		if (o == OUT_OK)
			o = set_vring_fd(&d.c, VU_SET_VRING_CALL, 1,
					 d.g.call[1]);
		if (o == OUT_OK)
			o = hs_start(&d.c, &step);
		GOT(r, "rest of the handshake: %s", out_str(o));
	}
	dev_down(&d, r);
}

/* A running device whose vring 1 moves outside memory, then back. */
static void s_ring_addr_running(struct report *r, uint64_t arg)
{
	uint64_t v[3];
	struct dev d;
	enum out o;

	(void)arg;
	SENT(r, "running device; vring 1 moved outside memory, a frame "
		"posted, vring 1 moved back");
	if (dev_up(&d, r) < 0) {
		dev_down(&d, r);
		return;
	}
	bad_addrs(&d.g, ADDR_OUTSIDE, v);
	o = set_vring_addr(&d.c, 1, v[0], v[1], v[2]);
	GOT(r, "move out: %s", out_str(o));
	tx_valid(&d.g, 16);
	GOT(r, "frame meanwhile: %s",
	    tx_wait(&d.g, 1, 1000) == 1 ? "consumed" : "not consumed");
	o = set_vring_addr(&d.c, 1, uaddr(ring_desc(&d.g, 1)),
			   uaddr(ring_avail(&d.g, 1)),
			   uaddr(ring_used(&d.g, 1)));
	GOT(r, "move back: %s, frame %s", out_str(o),
	    tx_wait(&d.g, 1, opt.timeout_ms) == 1 ? "consumed"
						  : "still not consumed");
	dev_down(&d, r);
}

/* ---- scenarios: memory tables ------------------------------------------- */

enum mem_kind {
	MEM_ZERO_REGIONS,
	MEM_TOO_MANY,
	MEM_FDS_FEWER,
	MEM_FDS_MORE,
	MEM_FD_PIPE,
	MEM_FD_DEVNULL,
	MEM_FD_SOCKET,
	MEM_FD_READONLY,
	MEM_ZERO_SIZE,
	MEM_OVERLAP,
	MEM_HUGE,
	MEM_OVERFLOW,
	MEM_GPA_WRAP,
	MEM_PAST_EOF,
};

static const char *const mem_names[] = {
	"0 regions, no fd",
	"9 regions, 8 fds",
	"2 regions, 1 fd",
	"1 region, 3 fds",
	"1 region whose fd is a pipe",
	"1 region whose fd is /dev/null",
	"1 region whose fd is a socket",
	"1 region whose fd is a read-only regular file",
	"1 region of size 0",
	"2 overlapping regions on one memfd",
	"1 region of size 2^63 - 2^24",
	"1 region whose size + mmap_offset overflow",
	"1 region whose guest address range wraps around 2^64",
	"1 region 16x larger than its 4 MiB memfd (valid offset)",
};

/* The fd(s) a variant sends; *owned says which ones to close after. */
static int mem_fds(struct guest *g, uint64_t kind, int fds[9], int *owned)
{
	int p[2], n = 1;

	*owned = 0;
	fds[0] = g->memfd;
	if (kind == MEM_ZERO_REGIONS)
		return 0;
	if (kind == MEM_TOO_MANY || kind == MEM_FDS_MORE ||
	    kind == MEM_OVERLAP) {
		n = kind == MEM_TOO_MANY ? 8 : kind == MEM_OVERLAP ? 2 : 3;
		for (int i = 0; i < n; i++)
			fds[i] = g->memfd;
	} else if (kind == MEM_FD_PIPE && pipe(p) == 0) {
		fds[0] = p[0], fds[1] = p[1], *owned = 2;
	} else if (kind == MEM_FD_DEVNULL || kind == MEM_FD_READONLY) {
		fds[0] = open(kind == MEM_FD_DEVNULL ? "/dev/null"
						     : "/proc/self/exe",
			      O_RDONLY | O_CLOEXEC);
		*owned = 1;
	} else if (kind == MEM_FD_SOCKET &&
		   socketpair(AF_UNIX, SOCK_STREAM, 0, p) == 0) {
		fds[0] = p[0], fds[1] = p[1], *owned = 2;
	}
	if (fds[0] < 0)
		die("mem fd");
	return n;
}

static uint32_t mem_regions(struct guest *g, uint64_t kind,
			    struct vu_region reg[9])
{
	struct vu_region base = guest_region(g);
	uint32_t n = 1;

	for (int i = 0; i < 9; i++)
		reg[i] = base;
	if (kind == MEM_ZERO_REGIONS)
		n = 0;
	else if (kind == MEM_TOO_MANY)
		n = 9;
	else if (kind == MEM_FDS_FEWER || kind == MEM_OVERLAP)
		n = 2;
	if (kind == MEM_ZERO_SIZE)
		reg[0].size = 0;
	if (kind == MEM_OVERLAP) /* second: 1 MiB in, overlaps the first */
		reg[1] = (struct vu_region){GPA_BASE + 0x100000, MEM_SIZE / 2,
					    uaddr(g->mem) + 0x100000, 0x100000};
	if (kind == MEM_HUGE)
		reg[0].size = 0x7fffffffff000000ull;
	if (kind == MEM_OVERFLOW)
		reg[0].size = 0xfffffffffffff000ull, reg[0].offset = 0x2000;
	if (kind == MEM_GPA_WRAP)
		reg[0].gpa = 0xffffffffffff0000ull;
	if (kind == MEM_PAST_EOF)
		reg[0].size = 16ull * MEM_SIZE;
	return n;
}

static void s_mem(struct report *r, uint64_t kind)
{
	struct vu_region reg[9];
	int fds[9], nfds, owned;
	const char *how;
	struct vu_mem mem;
	struct dev d;

	SENT(r, "SET_MEM_TABLE: %s", mem_names[kind]);
	guest_init(&d.g);
	memset(&mem, 0, sizeof(mem));
	nfds = mem_fds(&d.g, kind, fds, &owned);
	mem.nregions = mem_regions(&d.g, kind, reg);
	memcpy(mem.regions, reg, sizeof(mem.regions));
	if (fresh(&d.c, r) == 0) {
		const char *step = "";

		if (hs_negotiate(&d.c, &step) != OUT_OK)
			GOT(r, "negotiation failed at %s", step);
		how = attack(&d.c, VU_SET_MEM_TABLE, &mem, sizeof(mem), fds,
			     nfds);
		GOT(r, "%s", how);
		if (strncmp(how, "kept", 4) == 0 &&
		    (kind == MEM_OVERLAP || kind == MEM_PAST_EOF))
			then_run(&d, r);
	}
	for (int i = 0; i < owned; i++)
		close(fds[i]);
	dev_down(&d, r);
}

/* ---- scenarios: malicious descriptors on a running device --------------- */

enum tx_kind {
	TX_LEN_MAX,
	TX_LEN_ZERO,
	TX_HDR_ONLY,
	TX_ADDR_OUTSIDE,
	TX_ADDR_WRAP,
	TX_CHAIN_LOOP,
	TX_NEXT_OOB,
	TX_HEAD_OOB,
	TX_IND_LEN,
	TX_IND_EMPTY,
	TX_IND_OUTSIDE,
	TX_IND_LOOP,
	TX_IND_STRADDLE,
	TX_PAST_EOF,
};

static const char *const tx_names[] = {
	"a descriptor of length 0xffffffff",
	"a descriptor of length 0",
	"a descriptor holding only the 12-byte virtio-net header",
	"a descriptor addressing 1 MiB past the end of guest memory",
	"a descriptor whose address range wraps around 2^64",
	"a two-descriptor next-chain loop",
	"a next index beyond the ring",
	"an avail ring entry 0xffff (head beyond the ring)",
	"an indirect table longer than the ring",
	"an indirect table of length 0",
	"an indirect table outside guest memory",
	"an indirect table whose chain loops",
	"an indirect table straddling the end of guest memory",
	"a descriptor in the declared region but past the end of its memfd",
};

/* Write the malicious chain for @kind at descriptor 0 (table at slot 8). */
static void tx_bad_chain(struct guest *g, uint64_t kind)
{
	uint64_t buf = frame_write(g, 0), end = GPA_BASE + MEM_SIZE;
	uint64_t tbl = GPA_BASE + BUF_OFF + 8 * BUF_SIZE;
	struct vdesc *t = (struct vdesc *)(g->mem + BUF_OFF + 8 * BUF_SIZE);
	static const uint32_t len[] = {0xffffffffu, 0, NET_HDR};
	static const uint32_t ind_len[] = {16 * (QSZ + 1), 0, 32, 32, 64};

	if (kind <= TX_HDR_ONLY)
		desc_set(g, 0, buf, len[kind], 0, 0);
	else if (kind == TX_ADDR_OUTSIDE)
		desc_set(g, 0, end + 0x100000, 1514, 0, 0);
	else if (kind == TX_ADDR_WRAP)
		desc_set(g, 0, 0xfffffffffffff800ull, 0x1000, 0, 0);
	else if (kind == TX_CHAIN_LOOP || kind == TX_IND_LOOP) {
		struct vdesc *d = kind == TX_IND_LOOP ? t : ring_desc(g, 1);

		d[0] = (struct vdesc){buf, 64, VRING_F_NEXT, 1};
		d[1] = (struct vdesc){buf, 64, VRING_F_NEXT, 0};
	} else if (kind == TX_NEXT_OOB)
		desc_set(g, 0, buf, 64, VRING_F_NEXT, 0x7fff);
	else if (kind == TX_PAST_EOF)
		desc_set(g, 0, GPA_BASE + 8 * MEM_SIZE, 64, 0, 0);
	if (kind == TX_IND_OUTSIDE)
		tbl = end + 0x1000;
	if (kind == TX_IND_STRADDLE)
		tbl = end - 16;
	if (kind >= TX_IND_LEN && kind <= TX_IND_STRADDLE)
		desc_set(g, 0, tbl, ind_len[kind - TX_IND_LEN],
			 VRING_F_INDIRECT, 0);
	tx_post(g, kind == TX_HEAD_OOB ? 0xffff : 0);
}

static void s_tx(struct report *r, uint64_t kind)
{
	struct dev d;
	uint16_t u;

	SENT(r, "running device; on vring 1: %s, kick; then a valid frame",
	     tx_names[kind]);
	if (dev_up(&d, r) < 0) {
		dev_down(&d, r);
		return;
	}
	tx_bad_chain(&d.g, kind);
	u = tx_wait(&d.g, 1, 1000);
	GOT(r, "%s", u == 1 ? "consumed it" : "did not consume it");
	tx_valid(&d.g, 16);
	u = tx_wait(&d.g, (uint16_t)(u + 1), 1000);
	GOT(r, "used idx now %u (%s)", u,
	    u == 2   ? "the valid frame went through"
	    : u == 1 ? "consumed one of the two"
		     : "the ring is wedged on the bad chain");
	dev_down(&d, r);
}

/* A descriptor beyond the memfd's end inside a region declared larger. */
static void s_tx_past_eof(struct report *r, uint64_t arg)
{
	struct vu_region reg;
	const char *step = "";
	struct dev d;
	enum out o;

	(void)arg;
	SENT(r, "memory region declared 16x its 4 MiB memfd; running device; "
		"a TX descriptor 32 MiB in");
	guest_init(&d.g);
	reg = guest_region(&d.g);
	reg.size = 16ull * MEM_SIZE;
	if (bent_mem(&d, r, &reg, &o, &step) < 0)
		return;
	if (o == OUT_OK)
		o = hs_vring(&d.c, &d.g, 0, &step);
	if (o == OUT_OK)
		o = hs_vring(&d.c, &d.g, 1, &step);
	if (o == OUT_OK)
		o = hs_start(&d.c, &step);
	if (o == OUT_OK) {
		tx_bad_chain(&d.g, TX_PAST_EOF);
		sleep_ms(1000);
		GOT(r, "then: %s", out_str(probe(&d.c)));
	}
	dev_down(&d, r);
}

/* Frames far larger than the backend's mbuf pool, re-posted for a while. */
static void s_tx_giant(struct report *r, uint64_t arg)
{
	uint64_t end;
	unsigned int sent = 0;
	struct dev d;
	uint16_t u = 0;

	SENT(r,
	     "running device; for %d ms, frames chaining %u descriptors of "
	     "the whole 4 MiB guest memory (%u MiB each)",
	     opt.hold_ms, (unsigned)arg, (unsigned)arg * (MEM_SIZE >> 20));
	if (dev_up(&d, r) < 0) {
		dev_down(&d, r);
		return;
	}
	frame_write(&d.g, 0); /* the first bytes: a frame to ourselves */
	for (uint16_t i = 0; i < arg; i++)
		desc_set(&d.g, i, GPA_BASE, MEM_SIZE,
			 (uint64_t)i + 1 < arg ? VRING_F_NEXT : 0,
			 (uint16_t)(i + 1));
	end = now_ms() + (uint64_t)opt.hold_ms;
	while (now_ms() < end) {
		tx_post(&d.g, 0);
		sent++;
		u = tx_wait(&d.g, (uint16_t)sent, opt.timeout_ms);
		if (u != (uint16_t)sent)
			break;
	}
	GOT(r, "consumed %u of %u giant frames", u, sent);
	tx_valid(&d.g, 16);
	GOT(r, "a valid frame after them: %s",
	    tx_wait(&d.g, (uint16_t)(u + 1), opt.timeout_ms) == u + 1
		    ? "consumed"
		    : "not consumed");
	dev_down(&d, r);
}

/* ---- scenarios: offload headers that lie --------------------------------- */

#define HDR_NEEDS_CSUM 1
#define GSO_TCPV4 1
#define GSO_UDP 3
#define GSO_TCPV6 4

struct lie {
	const char *what;
	uint8_t flags, gso_type;
	uint16_t gso_size, csum_start, csum_offset;
	uint8_t proto, doff;   /* IP protocol, TCP data offset (words) */
	uint16_t ip_len;       /* IPv4 total length; 0: the true one */
	uint16_t payload, cut; /* L4 payload bytes; cut: frame length */
	bool bad;	       /* vsw must drop it as bad_offload */
	/* IPv6 with these extension headers (the first of type nh0) */
	const uint8_t *ext;
	uint8_t ext_len, nh0;
};

/* IPv6 extension headers: a type 0 routing header with a segment left
 * (its final destination is not vsw to find), a segment routing header
 * of 8 bytes with a segment left (no room for the final destination), a
 * home address option of 15 bytes, and a valid segment routing header
 * with a segment left (fd00::3 next, fd00::2 final) */
static const uint8_t ext_rt0[24] = {6, 2, 0, 1, [8] = 0xfd, [23] = 0x99};
static const uint8_t ext_srh8[8] = {6, 0, 4, 1};
static const uint8_t ext_hao15[24] = {6, 2, 0xc9, 15};
static const uint8_t ext_srh[40] = {
	6, 4, 4, 1, 1, [8] = 0xfd, [23] = 2, [24] = 0xfd, [39] = 3};

static const struct lie lies[] = {
	{"gso_size 1 (1400 segments)", HDR_NEEDS_CSUM, GSO_TCPV4, 1, 34, 16, 6,
	 5, 0, 1400, 0, true, NULL, 0, 0},
	{"IP length 60000 in a 1454-byte frame", HDR_NEEDS_CSUM, GSO_TCPV4,
	 1448, 34, 16, 6, 5, 60000, 1400, 0, true, NULL, 0, 0},
	{"IP length 540, descriptors 1454", HDR_NEEDS_CSUM, GSO_TCPV4, 100, 34,
	 16, 6, 5, 540, 1400, 0, true, NULL, 0, 0},
	{"UFO (not negotiated) on UDP", HDR_NEEDS_CSUM, GSO_UDP, 100, 34, 6, 17,
	 5, 0, 1400, 0, true, NULL, 0, 0},
	{"TCP header of 60 bytes cut at 30", HDR_NEEDS_CSUM, GSO_TCPV4, 100, 34,
	 16, 6, 15, 0, 0, 64, true, NULL, 0, 0},
	{"csum_start past the frame", HDR_NEEDS_CSUM, 0, 0, 3000, 0xffff, 6, 5,
	 0, 400, 0, false, NULL, 0, 0},
	{"checksum asked on ICMP", HDR_NEEDS_CSUM, 0, 0, 34, 2, 1, 5, 0, 400, 0,
	 false, NULL, 0, 0},
	{"gso_size 65535 on 1400 bytes", HDR_NEEDS_CSUM, GSO_TCPV4, 65535, 34,
	 16, 6, 5, 0, 1400, 0, false, NULL, 0, 0},
	{"IPv6 TSO through a type 0 routing header with a segment left",
	 HDR_NEEDS_CSUM, GSO_TCPV6, 1000, 78, 16, 6, 5, 0, 1400, 0, true,
	 ext_rt0, sizeof(ext_rt0), 43},
	{"IPv6 checksum after an 8-byte segment routing header, a segment left",
	 HDR_NEEDS_CSUM, 0, 0, 62, 16, 6, 5, 0, 400, 0, true, ext_srh8,
	 sizeof(ext_srh8), 43},
	{"IPv6 checksum after a 15-byte home address option", HDR_NEEDS_CSUM, 0,
	 0, 78, 16, 6, 5, 0, 400, 0, true, ext_hao15, sizeof(ext_hao15), 60},
	{"IPv6 TSO through a segment routing header (valid)", HDR_NEEDS_CSUM,
	 GSO_TCPV6, 1000, 94, 16, 6, 5, 0, 1400, 0, false, ext_srh,
	 sizeof(ext_srh), 43},
};

/* Lie @l in slot @slot: its header and frame; returns the desc length. */
static uint32_t lie_write(struct guest *g, unsigned int slot,
			  const struct lie *l)
{
	uint8_t *b = g->mem + BUF_OFF + (size_t)slot * BUF_SIZE,
		*f = b + NET_HDR;
	uint32_t l3 = l->ext != NULL ? 40u + l->ext_len : 20u;
	uint32_t l4 = l->proto == 6 ? 20 : 8, len = 14 + l3 + l4 + l->payload;
	uint16_t ipl = l->ip_len ? l->ip_len : (uint16_t)(l3 + l4 + l->payload);

	memset(b, 0, NET_HDR + len);
	b[0] = l->flags;
	b[1] = l->gso_type;
	b[2] = 54, b[3] = 0; /* hdr_len (a hint the backend ignores) */
	b[4] = (uint8_t)l->gso_size, b[5] = (uint8_t)(l->gso_size >> 8);
	b[6] = (uint8_t)l->csum_start, b[7] = (uint8_t)(l->csum_start >> 8);
	b[8] = (uint8_t)l->csum_offset, b[9] = (uint8_t)(l->csum_offset >> 8);
	memcpy(f, our_mac, 6);
	memcpy(f + 6, our_mac, 6);
	if (l->ext != NULL) {
		ipl = (uint16_t)(ipl - 40);
		f[12] = 0x86, f[13] = 0xdd;
		f[14] = 0x60;
		f[18] = (uint8_t)(ipl >> 8), f[19] = (uint8_t)ipl;
		f[20] = l->nh0;
		f[21] = 64;
		f[22] = 0xfd, f[37] = 1, f[38] = 0xfd, f[53] = 2;
		memcpy(f + 54, l->ext, l->ext_len);
	} else {
		f[12] = 0x08;
		f[14] = 0x45;
		f[16] = (uint8_t)(ipl >> 8), f[17] = (uint8_t)ipl;
		f[22] = 64;
		f[23] = l->proto;
		f[26] = 10, f[29] = 1, f[30] = 10, f[33] = 2;
	}
	f[14 + l3 + 12] = (uint8_t)(l->doff << 4);
	if (l->cut)
		len = l->cut;
	return NET_HDR + len;
}

static void s_tx_offload_lies(struct report *r, uint64_t arg)
{
	const unsigned int n = sizeof(lies) / sizeof(lies[0]);
	unsigned int bad = 0;
	struct dev d;
	uint16_t u;

	(void)arg;
	SENT(r,
	     "offloads negotiated (csum, host_tso4/6); on vring 1 %u frames "
	     "whose virtio-net headers lie:",
	     n);
	for (unsigned int i = 0; i < n; i++) {
		SENT(r, " %s%s", lies[i].what, i + 1 < n ? "," : "");
		bad += lies[i].bad;
	}
	SENT(r, " (%u of them bad_offload); then a valid frame", bad);
	want_offloads = true;
	if (dev_up(&d, r) < 0) {
		want_offloads = false;
		dev_down(&d, r);
		return;
	}
	want_offloads = false;
	if (!(d.c.features & F_HOST_TSO4))
		GOT(r, "the backend offered no TSO; ");
	for (unsigned int i = 0; i < n; i++) {
		desc_set(&d.g, (uint16_t)(16 + i),
			 GPA_BASE + BUF_OFF + (uint64_t)(16 + i) * BUF_SIZE,
			 lie_write(&d.g, 16 + i, &lies[i]), 0, 0);
		tx_post(&d.g, (uint16_t)(16 + i));
	}
	u = tx_wait(&d.g, (uint16_t)n, opt.timeout_ms);
	GOT(r, "%u of %u frames consumed; ", u, n);
	tx_valid(&d.g, (uint16_t)(16 + n));
	u = tx_wait(&d.g, (uint16_t)(n + 1), opt.timeout_ms);
	GOT(r, "then the valid one: %u of %u frames consumed", u, n + 1);
	dev_down(&d, r);
}

/* ---- scenarios: notification fds ---------------------------------------- */

/* KICK/CALL whose fd does not match the "no fd" flag. */
static void s_vring_fd_mismatch(struct report *r, uint64_t arg)
{
	uint32_t req = arg & 1 ? VU_SET_VRING_CALL : VU_SET_VRING_KICK;
	bool with_fd = arg & 2;
	uint64_t v = 1 | (with_fd ? VU_NOFD : 0);
	struct dev d;

	SENT(r, "SET_VRING_%s vring 1 %s", arg & 1 ? "CALL" : "KICK",
	     with_fd ? "with the no-fd flag and an eventfd"
		     : "without the no-fd flag and without an fd");
	if (dev_mem(&d, r) == 0)
		GOT(r, "%s",
		    attack(&d.c, req, &v, sizeof(v), &d.g.kick[1],
			   with_fd ? 1 : 0));
	dev_down(&d, r);
}

enum fd_kind { FD_KICK_NONE, FD_CALL_NONE, FD_KICK_SOCKET, FD_CALL_DEVNULL };

static const char *const fd_names[] = {"no kick fd (polling guest)",
				       "no call fd", "a socket as kick fd",
				       "/dev/null as call fd"};

/* A whole device whose vring 1 kick or call fd is odd but legal-ish. */
static void s_vring_fd_odd(struct report *r, uint64_t kind)
{
	int *slot, sp[2] = {-1, -1};
	struct dev d;
	uint16_t u;

	SENT(r, "running device with %s on vring 1, 4 frames", fd_names[kind]);
	guest_init(&d.g);
	slot = kind == FD_KICK_NONE || kind == FD_KICK_SOCKET ? &d.g.kick[1]
							      : &d.g.call[1];
	close_fd(slot);
	if (kind == FD_KICK_SOCKET &&
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sp) == 0)
		*slot = sp[0];
	else if (kind == FD_CALL_DEVNULL)
		*slot = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (dev_up_with(&d, r, false) == 0) {
		for (uint16_t i = 0; i < 4; i++)
			tx_valid(&d.g, (uint16_t)(16 + i));
		u = tx_wait(&d.g, 4, opt.timeout_ms);
		GOT(r, "device ran: %u of 4 frames consumed", u);
	}
	close_fd(&sp[1]);
	dev_down(&d, r);
}

/*
 * Blocking fds.  The backend gets a descriptor of an open file description
 * we share: its O_NONBLOCK is ours to clear, its buffer ours to fill.
 */
static void set_blocking(int fd, bool block)
{
	int fl = fcntl(fd, F_GETFL);

	fcntl(fd, F_SETFL, block ? fl & ~O_NONBLOCK : fl | O_NONBLOCK);
}

static void drain(int fd)
{
	char buf[4096];

	set_blocking(fd, false);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

/* Post @n valid frames and say how many the backend consumed in @ms. */
static uint16_t tx_some(struct guest *g, uint16_t n, int ms)
{
	uint16_t want = (uint16_t)(g->avail_idx + n);

	for (uint16_t i = 0; i < n; i++)
		tx_valid(g, (uint16_t)(16 + (g->avail_idx % 64)));
	return tx_wait(g, want, ms);
}

/*
 * vring 1's kick fd is a pipe we also read; once the device runs we clear
 * O_NONBLOCK on it.  A backend that reads kick fds (vsw's control thread
 * counts kicks) then blocks; we close the connection and see whether a new
 * one is served, then write to the pipe to let it go.
 */
static void s_kick_blocking(struct report *r, uint64_t arg)
{
	int p[2], fd;
	struct dev d;
	uint64_t t0;

	(void)arg;
	SENT(r,
	     "running device whose vring 1 kick fd is a pipe; O_NONBLOCK "
	     "cleared on it after start; disconnect; after %d ms a write "
	     "to the pipe",
	     opt.hold_ms);
	guest_init(&d.g);
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
		die("pipe");
	close_fd(&d.g.kick[1]);
	d.g.kick[1] = p[0];
	if (dev_up_with(&d, r, false) == 0) {
		set_blocking(p[0], true);
		sleep_ms(1000); /* a kick-reading backend is now stuck */
		conn_close(&d.c);
		fd = probe_start(opt.probe);
		t0 = now_ms();
		GOT(r, "a new connection to %s %s", opt.probe,
		    fd < 0 ? "was refused"
		    : probe_finish(fd, opt.hold_ms) == 1
			    ? "was served at once"
			    : "got no answer while the pipe stayed empty");
		kick(p[1]);
		if (fd >= 0 && probe_finish(fd, opt.timeout_ms) == 1)
			GOT(r, "it was answered %u ms after the write",
			    (unsigned)(now_ms() - t0 - (uint64_t)opt.hold_ms));
		close_fd(&fd);
	}
	close_fd(&p[1]);
	dev_down(&d, r);
}

/*
 * vring 1's call fd cannot take a write: a full blocking pipe, or an
 * eventfd whose counter we set to its maximum.  The backend writes it when
 * it returns TX buffers to us (interrupts are not suppressed): does its
 * data path stop?  After hold_ms we drain it.
 */
static int full_call_fd(uint64_t pipe_kind, int *peer)
{
	uint64_t max = 0xfffffffffffffffeull;
	char buf[4096] = {0};
	int p[2], fd;

	if (pipe_kind) {
		if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
			die("pipe");
		while (write(p[1], buf, sizeof(buf)) > 0)
			;
		set_blocking(p[1], true);
		*peer = p[0];
		return p[1];
	}
	fd = eventfd(0, EFD_CLOEXEC);
	if (fd < 0 || write(fd, &max, sizeof(max)) != sizeof(max))
		die("eventfd");
	*peer = -1;
	return fd;
}

/*
 * Raise a running ring's call eventfd to its maximum and leave it
 * blocking.  The backend's call for a frame already consumed may land at
 * any moment (a worker descheduled between its used-ring update and its
 * write): a blocking write of the maximum over a counter of 1 would wait
 * for a read that never comes.  So the write is non-blocking, after a
 * drain, until it takes (a backend that calls between every drain and
 * write 1000 times in a row ends the run).
 */
static void raise_to_max(int fd)
{
	uint64_t max = 0xfffffffffffffffeull;
	int tries = 1000;

	for (;;) {
		drain(fd); /* leaves it non-blocking */
		if (write(fd, &max, sizeof(max)) == sizeof(max))
			break;
		if (errno != EAGAIN || --tries == 0)
			die("eventfd: cannot raise it to its maximum");
	}
	set_blocking(fd, true);
}

static void s_call_full(struct report *r, uint64_t pipe_kind)
{
	int peer;
	struct dev d;
	uint16_t before, u;

	SENT(r,
	     "running device whose vring 1 call fd is %s; 1 frame, then 4 "
	     "more; drained after %d ms",
	     pipe_kind == 3   ? "an eventfd, raised to its maximum after the "
				"first frame"
	     : pipe_kind == 2 ? "a full blocking pipe, kept full that long"
	     : pipe_kind      ? "a full blocking pipe"
			      : "an eventfd at its maximum",
	     opt.hold_ms);
	guest_init(&d.g);
	if (pipe_kind != 3) {
		close_fd(&d.g.call[1]);
		d.g.call[1] = full_call_fd(pipe_kind, &peer);
	} else {
		peer = -1; /* guest_init's eventfd, blocking */
	}
	if (dev_up_with(&d, r, false) == 0) {
		u = tx_some(&d.g, 1, 1000);
		before = u;
		if (pipe_kind == 3) { /* a running ring's call fd goes bad */
			raise_to_max(d.g.call[1]);
		}
		if (pipe_kind ==
		    2) /* held: the backend's writer stays blocked */
			usleep((useconds_t)opt.hold_ms * 1000);
		u = tx_some(&d.g, 4, opt.hold_ms);
		if (pipe_kind == 3) /* held full that long, consumed or not */
			usleep((useconds_t)opt.hold_ms * 1000);
		GOT(r, "first frame %s; %u of the 4 next consumed in %d ms",
		    before == 1 ? "consumed" : "not consumed",
		    (uint16_t)(u - before), opt.hold_ms);
		drain(peer >= 0 ? peer : d.g.call[1]);
		u = tx_wait(&d.g, d.g.avail_idx, opt.timeout_ms);
		GOT(r, "after draining: %u of 5 consumed", u);
	}
	close_fd(&peer);
	dev_down(&d, r);
}

/*
 * vring 1's call fd is a full blocking pipe, kept full: a backend that
 * relays calls from a thread of its own has that thread blocked in it.
 * Meanwhile @n SET_VRING_CALL messages give vring 0 a fresh eventfd
 * each.  A backend that closes the fds it replaced behind its blocked
 * writer's back may close one that writer still holds a number for; one
 * that keeps them all runs out of fds.  Then the pipe is drained.
 */
static void s_call_churn(struct report *r, uint64_t n)
{
	int peer, fd;
	struct dev d;
	enum out o = OUT_OK;
	uint64_t i = 0;

	SENT(r,
	     "running device whose vring 1 call fd is a full blocking pipe; "
	     "1 frame; then %" PRIu64 " SET_VRING_CALL vring 0, a fresh "
	     "eventfd each; the pipe drained after",
	     n);
	guest_init(&d.g);
	close_fd(&d.g.call[1]);
	d.g.call[1] = full_call_fd(1, &peer);
	if (dev_up_with(&d, r, false) == 0) {
		tx_some(&d.g, 1, 1000);
		sleep_ms(200); /* the backend's call writer is now stuck */
		for (i = 0; i < n && o == OUT_OK; i++) {
			fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
			if (fd < 0)
				die("eventfd");
			o = set_vring_fd(&d.c, VU_SET_VRING_CALL, 0, fd);
			close(fd);
		}
		GOT(r, "SET_VRING_CALL %" PRIu64 " of %" PRIu64 ": %s", i, n,
		    out_str(o));
		drain(peer);
	}
	close_fd(&peer);
	dev_down(&d, r);
}

/*
 * vring 1's call fd is an eventfd that @n watches (CALL_DUPS duplicates
 * of it in each of @n / CALL_DUPS epoll sets: few fds) wait on: every
 * write to it walks them all (about 3 ms for 30000 here).  A backend
 * writing it from its data path spends that much per call.  32 frames,
 * one at a time, each answered with a call.
 */
#define CALL_DUPS 200
static void s_call_slow(struct report *r, uint64_t n)
{
	struct dev d;
	struct epoll_event ev = {.events = EPOLLIN};
	int dups[CALL_DUPS], *eps, n_eps = (int)(n / CALL_DUPS), fd;
	uint64_t t0, one = 1, made = 0;
	uint16_t u = 0;

	SENT(r,
	     "running device whose vring 1 call fd is an eventfd with "
	     "%" PRIu64 " epoll watches; 32 frames, one at a time",
	     n);
	eps = calloc((size_t)n_eps, sizeof(int));
	if (eps == NULL)
		die("calloc");
	guest_init(&d.g);
	fd = d.g.call[1];
	for (int i = 0; i < CALL_DUPS; i++)
		dups[i] = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	for (int e = 0; e < n_eps; e++) {
		eps[e] = epoll_create1(EPOLL_CLOEXEC);
		for (int i = 0; eps[e] >= 0 && i < CALL_DUPS; i++)
			if (dups[i] >= 0 &&
			    epoll_ctl(eps[e], EPOLL_CTL_ADD, dups[i], &ev) == 0)
				made++;
	}
	t0 = now_us();
	if (write(fd, &one, sizeof(one)) != sizeof(one))
		die("eventfd");
	t0 = now_us() - t0;
	drain(fd);
	if (dev_up_with(&d, r, false) == 0) {
		GOT(r, "%" PRIu64 " watches; one write %" PRIu64 " us", made,
		    t0);
		t0 = now_ms();
		for (int i = 0; i < 32; i++)
			u = tx_some(&d.g, 1, opt.timeout_ms);
		GOT(r, "%u of 32 frames consumed in %" PRIu64 " ms", u,
		    now_ms() - t0);
	}
	for (int e = 0; e < n_eps; e++)
		if (eps[e] >= 0)
			close(eps[e]);
	for (int i = 0; i < CALL_DUPS; i++)
		if (dups[i] >= 0)
			close(dups[i]);
	free(eps);
	dev_down(&d, r);
}

/*
 * vring 1's call fd is a pipe whose read end we close once the device
 * runs: the backend's next call write gets EPIPE -- or SIGPIPE, which
 * kills a process that does not ignore it.
 */
static void s_call_broken(struct report *r, uint64_t arg)
{
	int p[2];
	struct dev d;
	uint16_t u;

	(void)arg;
	SENT(r, "running device whose vring 1 call fd is a pipe; its read "
		"end closed; 1 frame");
	guest_init(&d.g);
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
		die("pipe");
	close_fd(&d.g.call[1]);
	d.g.call[1] = p[1];
	if (dev_up_with(&d, r, false) == 0) {
		close_fd(&p[0]);
		u = tx_some(&d.g, 1, 1000);
		GOT(r, "frame %s", u == 1 ? "consumed" : "not consumed");
		GOT(r, "then: %s", out_str(probe(&d.c)));
	}
	close_fd(&p[0]);
	dev_down(&d, r);
}

/* ---- scenarios: one connection against the backend's other ones --------- */

/*
 * While @fd misbehaves (the caller set it up), is a new connection to
 * opt.probe served within hold_ms?  Then close @fd and time the answer.
 */
static void others_while(struct report *r, int fd)
{
	int pfd = probe_start(opt.probe);
	uint64_t t0 = now_ms();
	int rc;

	if (pfd < 0) {
		GOT(r, "a new connection to %s was refused", opt.probe);
		close(fd);
		return;
	}
	rc = probe_finish(pfd, opt.hold_ms);
	close(fd);
	if (rc == 1) {
		GOT(r, "a new connection to %s was served meanwhile",
		    opt.probe);
	} else if (rc == -ETIMEDOUT) {
		GOT(r, "a new connection to %s got no answer for %d ms",
		    opt.probe, opt.hold_ms);
		rc = probe_finish(pfd, opt.timeout_ms);
		GOT(r, "%s %u ms after we closed",
		    rc == 1 ? "it was answered" : "still nothing",
		    (unsigned)(now_ms() - t0 - (uint64_t)opt.hold_ms));
	} else {
		GOT(r, "a new connection to %s was closed", opt.probe);
	}
	close(pfd);
}

/* A header announcing 8 payload bytes that never come. */
static void s_stall(struct report *r, uint64_t arg)
{
	struct vu_msg m = {
		.req = VU_SET_FEATURES, .flags = VU_VERSION, .size = 8};
	struct conn c;

	(void)arg;
	SENT(r,
	     "SET_FEATURES header announcing 8 bytes, no payload, "
	     "connection held %d ms",
	     opt.hold_ms);
	if (fresh(&c, r) < 0)
		return;
	if (send_raw(c.fd, &m, VU_HDR, NULL, 0, 0) < 0) {
		GOT(r, "send failed");
		conn_close(&c);
		return;
	}
	sleep_ms(200);
	others_while(r, c.fd);
}

/* GET_FEATURES requests without ever reading a reply. */
static void s_reply_flood(struct report *r, uint64_t arg)
{
	struct vu_msg m = {.req = VU_GET_FEATURES, .flags = VU_VERSION};
	uint64_t end = now_ms() + 2000;
	unsigned int n = 0;
	struct conn c;

	(void)arg;
	if (fresh(&c, r) < 0)
		return;
	while (n < 1000000 && now_ms() < end) {
		int rc = send_raw(c.fd, &m, VU_HDR, NULL, 0, MSG_DONTWAIT);

		if (rc == -EAGAIN) {
			sleep_ms(10);
			continue;
		}
		if (rc < 0)
			break;
		n++;
	}
	SENT(r, "%u GET_FEATURES in 2 s, never reading a reply", n);
	others_while(r, c.fd);
}

/* Connect, handshake, disconnect, N times (alternately abrupt/normal). */
/* @arg (0: opt.storm) times: connect, handshake, close, and connect
 * again at once (the backend may not have seen the close yet). */
static void s_reconnect_storm(struct report *r, uint64_t arg)
{
	int ok = 0, first_bad = -1, n = arg != 0 ? (int)arg : opt.storm;
	const char *why = "";
	struct guest g;

	SENT(r,
	     "%d x (connect, full handshake, disconnect; odd ones with "
	     "GET_VRING_BASE first)",
	     n);
	guest_init(&g);
	for (int i = 0; i < n; i++) {
		const char *step = "connect";
		struct conn c;
		enum out o = conn_open(&c, opt.path) < 0
				     ? OUT_CLOSED
				     : handshake(&c, &g, &step);

		if (o == OUT_OK && i % 2)
			o = hs_stop(&c);
		conn_close(&c);
		if (o == OUT_OK) {
			ok++;
		} else if (first_bad < 0) {
			first_bad = i;
			why = step;
		}
	}
	GOT(r, "%d of %d handshakes completed", ok, n);
	if (first_bad >= 0)
		GOT(r, "first failure at #%d (%s)", first_bad, why);
	guest_fini(&g);
	sleep_ms(500);
	GOT(r, "%s", served());
}

/* Hold N connections at once; are others (opt.probe) still served? */
static void s_conn_flood(struct report *r, uint64_t arg)
{
	int *fds = calloc((size_t)opt.flood, sizeof(int));
	int held = 0, refused = 0, pfd;

	(void)arg;
	if (fds == NULL)
		die("calloc");
	SENT(r,
	     "%d connections held open at once (each answered one "
	     "GET_FEATURES)",
	     opt.flood);
	for (int i = 0; i < opt.flood; i++) {
		fds[i] = probe_start(opt.path);
		if (fds[i] >= 0 && probe_finish(fds[i], opt.timeout_ms) == 1) {
			held++;
			continue;
		}
		refused++;
		close_fd(&fds[i]);
	}
	GOT(r, "%d served, %d refused or closed", held, refused);
	pfd = probe_start(opt.probe);
	GOT(r, "meanwhile a new connection to %s: %s", opt.probe,
	    pfd >= 0 && probe_finish(pfd, opt.timeout_ms) == 1 ? "served"
							       : "not served");
	close_fd(&pfd);
	for (int i = 0; i < opt.flood; i++)
		close_fd(&fds[i]);
	free(fds);
	sleep_ms(500);
	GOT(r, "after closing them all, %s", served());
}

#define HOG_CONNS 8

/*
 * Size the vrings of @d, 32768 entries each (about 1.25 MiB of backend
 * heap); after a refusal, halve the size, so that the heap ends up full.
 * Returns the entries taken; *size becomes 0 once even 1 is refused.
 */
static uint64_t hog_one(struct dev *d, uint32_t *size)
{
	uint64_t taken = 0;

	/* vring 255 first: the backend allocates all 256 vrings at once */
	if (vu_set_state(&d->c, VU_SET_VRING_NUM, 255, 1) != OUT_OK)
		return 0;
	for (uint32_t q = 0; q < 256 && *size > 0; q++) {
		enum out o = vu_set_state(&d->c, VU_SET_VRING_NUM, q, *size);

		if (o == OUT_OK)
			taken += *size;
		else if (o == OUT_NACK)
			*size /= 2, q--; /* retry this vring smaller */
		else
			break;
	}
	return taken;
}

/* Could another guest (on opt.probe) even size its two rings now? */
static const char *hog_victim(struct report *r)
{
	const char *step = "";
	struct dev v;
	enum out o;

	guest_init(&v.g);
	if (conn_open(&v.c, opt.probe) < 0) {
		guest_fini(&v.g);
		return "could not connect";
	}
	o = hs_negotiate(&v.c, &step);
	if (o == OUT_OK)
		o = hs_mem(&v.c, &v.g, &step);
	if (o == OUT_OK)
		o = vu_set_state(&v.c, VU_SET_VRING_NUM, 0, QSZ);
	if (o == OUT_OK)
		o = vu_set_state(&v.c, VU_SET_VRING_NUM, 1, QSZ);
	conn_close(&v.c);
	guest_fini(&v.g);
	(void)r;
	return o == OUT_OK     ? "it could"
	       : o == OUT_NACK ? "it was refused"
			       : out_str(o);
}

/*
 * Every vring index at the largest legal size, on up to HOG_CONNS
 * connections, until the backend's heap is full: can a guest on opt.probe
 * set up its rings meanwhile?  Is everything given back afterwards?
 */
static void s_heap_hog(struct report *r, uint64_t arg)
{
	struct dev d[HOG_CONNS];
	uint32_t size = 32768;
	uint64_t total = 0;
	int n = 0;

	(void)arg;
	SENT(r,
	     "SET_VRING_NUM (acked) on vrings 0..255 of up to %d "
	     "connections, 32768 entries, halved on each refusal; then a "
	     "guest on %s sizes two rings",
	     HOG_CONNS, opt.probe);
	while (n < HOG_CONNS && size > 0) {
		if (dev_mem(&d[n], r) < 0 || !d[n].c.ack) {
			conn_close(&d[n].c);
			guest_fini(&d[n].g);
			break;
		}
		total += hog_one(&d[n++], &size);
	}
	GOT(r,
	    "%" PRIu64 " ring entries on %d connections (about %" PRIu64
	    " MiB), %s",
	    total, n, total * 40 >> 20,
	    size > 0 ? "never refused" : "until even 1 entry was refused");
	GOT(r, "the other guest: %s", hog_victim(r));
	for (int i = 0; i < n; i++) {
		conn_close(&d[i].c);
		guest_fini(&d[i].g);
	}
	sleep_ms(500);
	GOT(r, "after closing: %s", served());
}

/* Acked messages whose fds the backend's error paths might not close. */
static void s_inflight_leak(struct report *r, uint64_t arg)
{
	struct vu_inflight inf = {0, 0, 1, QSZ}; /* mmap_size 0: mmap fails */
	int nacks = 0;
	struct dev d;

	SENT(r, "%u x SET_INFLIGHT_FD (mmap_size 0) + memfd, NEED_REPLY",
	     (unsigned)arg);
	if (dev_mem(&d, r) == 0 && d.c.ack) {
		for (uint64_t i = 0; i < arg; i++)
			nacks += vu_set(&d.c, VU_SET_INFLIGHT_FD, &inf,
					sizeof(inf), &d.g.memfd, 1) == OUT_NACK;
		GOT(r, "%d nacked; %s", nacks, out_str(probe(&d.c)));
	} else {
		GOT(r, "no REPLY_ACK: skipped");
	}
	conn_close(&d.c);
	guest_fini(&d.g);
}

/* ---- scenarios: device life cycle --------------------------------------- */

/* RESET_OWNER on a running device, then the whole handshake again. */
static void s_reset_rerun(struct report *r, uint64_t arg)
{
	const char *step = "";
	struct dev d;
	enum out o;

	(void)arg;
	SENT(r, "running device; RESET_OWNER; full handshake again on the "
		"same connection; 4 frames");
	if (dev_up(&d, r) < 0) {
		dev_down(&d, r);
		return;
	}
	o = vu_set(&d.c, VU_RESET_OWNER, NULL, 0, NULL, 0);
	if (o == OUT_OK && !d.c.ack)
		o = seen(&d.c, probe(&d.c));
	GOT(r, "RESET_OWNER: %s", out_str(o));
	if (o == OUT_CLOSED) { /* refused, and so the connection ends */
		dev_down(&d, r);
		return;
	}
	d.c.ack = false; /* the reset forgets the protocol features */
	memset(ring_used(&d.g, 1), 0, 0x1000);
	d.g.avail_idx = 0;
	ring_avail(&d.g, 1)->idx = 0;
	if (o == OUT_OK)
		o = handshake(&d.c, &d.g, &step);
	if (o != OUT_OK) {
		GOT(r, "second handshake failed at %s: %s", step, out_str(o));
		conn_close(&d.c);
	} else {
		GOT(r, "second run: %u of 4 frames consumed",
		    tx_some(&d.g, 4, opt.timeout_ms));
	}
	dev_down(&d, r);
}

/* Size two big rings, RESET_OWNER, again: is the ring memory given back? */
static void s_reset_loop(struct report *r, uint64_t arg)
{
	const char *step = "";
	int done = 0;
	struct dev d;
	enum out o = OUT_OK;

	SENT(r,
	     "%u x (negotiation, SET_VRING_NUM 32768 on vrings 0 and 1, "
	     "RESET_OWNER) on one connection",
	     (unsigned)arg);
	guest_init(&d.g);
	if (fresh(&d.c, r) < 0) {
		guest_fini(&d.g);
		return;
	}
	for (uint64_t i = 0; i < arg && o == OUT_OK; i++) {
		d.c.ack = false; /* each reset forgets the protocol features */
		o = hs_negotiate(&d.c, &step);
		for (uint32_t q = 0; q < 2 && o == OUT_OK; q++)
			o = vu_set_state(&d.c, VU_SET_VRING_NUM, q, 32768);
		if (o == OUT_OK)
			o = vu_set(&d.c, VU_RESET_OWNER, NULL, 0, NULL, 0);
		done += o == OUT_OK;
	}
	GOT(r, "%d of %u rounds accepted%s%s", done, (unsigned)arg,
	    o == OUT_OK ? "" : ", then ", o == OUT_OK ? "" : out_str(o));
	dev_down(&d, r);
}

/*
 * GET_VRING_BASE stops vring 1 (the backend frees its per-ring arrays);
 * then ADDR/KICK/CALL restart it without a SET_VRING_NUM, and a frame.
 */
static void s_restart_no_num(struct report *r, uint64_t arg)
{
	struct vu_state s = {1, 0};
	const char *step = "";
	struct vu_msg m;
	struct dev d;
	enum out o;

	(void)arg;
	SENT(r, "running device; GET_VRING_BASE vring 1; SET_VRING_ADDR/"
		"KICK/CALL vring 1 again without SET_VRING_NUM; 1 frame");
	if (dev_up(&d, r) < 0) {
		dev_down(&d, r);
		return;
	}
	o = vu_get(&d.c, VU_GET_VRING_BASE, &s, sizeof(s), &m);
	GOT(r, "GET_VRING_BASE: %s", out_str(o));
	close_fd(&d.g.kick[1]); /* the backend closed its copies */
	close_fd(&d.g.call[1]);
	d.g.kick[1] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	d.g.call[1] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	o = set_vring_addr(&d.c, 1, uaddr(ring_desc(&d.g, 1)),
			   uaddr(ring_avail(&d.g, 1)),
			   uaddr(ring_used(&d.g, 1)));
	if (o == OUT_OK)
		o = set_vring_fd(&d.c, VU_SET_VRING_KICK, 1, d.g.kick[1]);
	if (o == OUT_OK)
		o = set_vring_fd(&d.c, VU_SET_VRING_CALL, 1, d.g.call[1]);
	if (o == OUT_OK)
		o = hs_start(&d.c, &step);
	GOT(r, "restart: %s", out_str(o));
	if (o == OUT_OK) {
		GOT(r, "frame %s",
		    tx_some(&d.g, 1, 2000) ? "consumed" : "not consumed");
		GOT(r, "then: %s", out_str(probe(&d.c)));
	}
	dev_down(&d, r);
}

/*
 * With REPLY_ACK an error does not close the connection: size vring 1
 * for 4 entries, then ask for 32767 (refused, not a power of 2) and run
 * the ring anyway with 32 frames in flight.
 */
#define BIG_DESC 0x200000u  /* 32767 descriptors end below 0x280000 */
#define BIG_AVAIL 0x280000u /* 64 KiB */
#define BIG_USED 0x2a0000u  /* 256 KiB */

static enum out big_ring(struct dev *d, const char **step)
{
	uint8_t *m = d->g.mem;

	TRY("SET_VRING_NUM 4", vu_set_state(&d->c, VU_SET_VRING_NUM, 1, 4));
	*step = "SET_VRING_NUM 32767";
	if (vu_set_state(&d->c, VU_SET_VRING_NUM, 1, 32767) == OUT_CLOSED)
		return OUT_CLOSED;
	TRY("SET_VRING_BASE", vu_set_state(&d->c, VU_SET_VRING_BASE, 1, 0));
	TRY("SET_VRING_ADDR",
	    set_vring_addr(&d->c, 1, uaddr(m + BIG_DESC), uaddr(m + BIG_AVAIL),
			   uaddr(m + BIG_USED)));
	TRY("SET_VRING_KICK",
	    set_vring_fd(&d->c, VU_SET_VRING_KICK, 1, d->g.kick[1]));
	TRY("SET_VRING_CALL",
	    set_vring_fd(&d->c, VU_SET_VRING_CALL, 1, d->g.call[1]));
	return hs_start(&d->c, step);
}

static void s_bad_num_acked(struct report *r, uint64_t arg)
{
	struct vdesc *desc;
	struct vavail *av;
	const char *step = "";
	struct dev d;
	enum out o;

	(void)arg;
	SENT(r, "vring 1: SET_VRING_NUM 4, then 32767 with NEED_REPLY "
		"(refused), ring run anyway at 32767; 32 frames at once");
	if (dev_mem(&d, r) < 0 || !d.c.ack) {
		if (d.c.fd >= 0 && !d.c.ack)
			GOT(r, "no REPLY_ACK: skipped");
		dev_down(&d, r);
		return;
	}
	o = hs_vring(&d.c, &d.g, 0, &step);
	if (o == OUT_OK)
		o = big_ring(&d, &step);
	if (o != OUT_OK) {
		GOT(r, "set-up failed at %s: %s", step, out_str(o));
		dev_down(&d, r);
		return;
	}
	desc = (struct vdesc *)(d.g.mem + BIG_DESC);
	av = (struct vavail *)(d.g.mem + BIG_AVAIL);
	for (uint16_t i = 0; i < 32; i++) {
		desc[i] = (struct vdesc){frame_write(&d.g, 16u + i),
					 NET_HDR + FRAME_LEN, 0, 0};
		av->ring[i] = i;
	}
	__atomic_store_n(&av->idx, 32, __ATOMIC_RELEASE);
	kick(d.g.kick[1]);
	sleep_ms(1000);
	GOT(r, "used idx %u of 32",
	    __atomic_load_n(&((struct vused *)(d.g.mem + BIG_USED))->idx,
			    __ATOMIC_ACQUIRE));
	GOT(r, "then: %s", out_str(probe(&d.c)));
	dev_down(&d, r);
}

/* Guest memory whose file ends before the region does: rings beyond. */
static void s_mem_offset(struct report *r, uint64_t arg)
{
	struct vu_region reg;
	const char *step = "";
	struct dev d;
	enum out o;

	(void)arg;
	SENT(r, "SET_MEM_TABLE region with mmap_offset 64 MiB into a 4 MiB "
		"memfd (acked), then the vrings in it");
	guest_init(&d.g);
	reg = guest_region(&d.g);
	reg.offset = 64ull << 20;
	if (bent_mem(&d, r, &reg, &o, &step) < 0)
		return;
	if (o == OUT_OK)
		o = hs_vring(&d.c, &d.g, 0, &step);
	GOT(r, "vring 0 set-up: %s", out_str(o));
	if (o == OUT_OK)
		GOT(r, "then: %s", out_str(probe(&d.c)));
	dev_down(&d, r);
}

/* The guest shrinks its memory file under a running device. */
static void s_mem_shrink(struct report *r, uint64_t arg)
{
	struct dev d;

	(void)arg;
	SENT(r, "running device; ftruncate(memfd, 0); 1 s later a probe");
	if (dev_up(&d, r) == 0) {
		if (ftruncate(d.g.memfd, 0) < 0)
			die("ftruncate");
		sleep_ms(1000);
		GOT(r, "probe: %s", out_str(probe(&d.c)));
		conn_close(&d.c);
	}
	/* our own mapping is beyond EOF now: do not touch it */
	dev_down(&d, r);
}

/* ---- scenarios: ring state and unread replies --------------------- */

/*
 * A running device whose vring 1 lives at the very end of a small region
 * of its own, mapped by the backend right after a zeroed "sentinel"
 * region (the library maps regions in table order and Linux places each
 * new mapping just below the last one: the ring region is the last entry,
 * the sentinel the one before it).  A backend that accesses vring 1 past
 * its validated bounds then writes into the sentinel, which we can see,
 * or into nothing (it dies).  Vring 0 and the frame buffers are in the
 * normal guest memory.
 */
#define EDGE_RING_SIZE 0x4000u	 /* the ring's region */
#define EDGE_SENTINEL (1u << 20) /* the region mapped above it */
#define EDGE_GPA_SENTINEL 0x200000000ull
#define EDGE_GPA_RING 0x300000000ull
#define F_RING_PACKED (1ull << 34)
#define PF_LOG_SHMFD (1ull << 1)

struct edge {
	struct dev d;
	int sfd, rfd;
	uint8_t *sent, *ring; /* our mappings */
};

static int memfd_of(const char *name, size_t size, uint8_t **map)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		die("memfd");
	*map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (*map == MAP_FAILED)
		die("mmap memfd");
	return fd;
}

static void edge_init(struct edge *e)
{
	memset(e, 0, sizeof(*e));
	guest_init(&e->d.g);
	e->sfd = memfd_of("vhost-hostile-sentinel", EDGE_SENTINEL, &e->sent);
	e->rfd = memfd_of("vhost-hostile-ring", EDGE_RING_SIZE, &e->ring);
}

static void edge_fini(struct edge *e, struct report *r)
{
	dev_down(&e->d, r);
	munmap(e->sent, EDGE_SENTINEL);
	munmap(e->ring, EDGE_RING_SIZE);
	close_fd(&e->sfd);
	close_fd(&e->rfd);
}

/* Bytes of the sentinel that are no longer zero. */
static size_t sentinel_dirty(const struct edge *e)
{
	size_t n = 0;

	for (size_t i = 0; i < EDGE_SENTINEL; i++)
		n += e->sent[i] != 0;
	return n;
}

/* After the attack: did the backend write where it must not? */
static void edge_verdict(struct edge *e, struct report *r, size_t before)
{
	size_t dirty = sentinel_dirty(e);

	if (dirty > before)
		GOT(r,
		    "UNSAFE: the backend wrote %zu bytes past the ring's "
		    "region (into the region mapped after it)",
		    dirty - before);
	if (!backend_alive())
		GOT(r, "UNSAFE: the backend died");
}

/* Negotiate (plus @extra features and @proto protocol features when
 * offered) and send the three-region memory table. */
static enum out edge_negotiate(struct edge *e, uint64_t extra, uint64_t proto,
			       const char **step)
{
	struct conn *c = &e->d.c;
	struct vu_region regs[3] = {
		guest_region(&e->d.g),
		{EDGE_GPA_SENTINEL, EDGE_SENTINEL, uaddr(e->sent), 0},
		{EDGE_GPA_RING, EDGE_RING_SIZE, uaddr(e->ring), 0},
	};
	int fds[3] = {e->d.g.memfd, e->sfd, e->rfd};
	struct vu_msg m;

	TRY("GET_FEATURES", vu_get(c, VU_GET_FEATURES, NULL, 0, &m));
	c->features = m.p.u64 & (F_VERSION_1 | F_PROTOCOL_FEATURES |
				 F_INDIRECT_DESC | F_MRG_RXBUF | extra);
	TRY("SET_FEATURES", vu_set_u64(c, VU_SET_FEATURES, c->features));
	TRY("SET_OWNER", vu_set(c, VU_SET_OWNER, NULL, 0, NULL, 0));
	TRY("GET_PROTOCOL_FEATURES",
	    vu_get(c, VU_GET_PROTOCOL_FEATURES, NULL, 0, &m));
	c->proto = m.p.u64 & (PF_REPLY_ACK | PF_STATUS | proto);
	TRY("SET_PROTOCOL_FEATURES",
	    vu_set_u64(c, VU_SET_PROTOCOL_FEATURES, c->proto));
	c->ack = (c->proto & PF_REPLY_ACK) != 0;
	TRY("SET_MEM_TABLE", set_mem(c, regs, 3, fds, 3));
	return OUT_OK;
}

/* Vring @q set up with @size entries at base @base, rings at @desc,
 * @avail (driver area) and @used (device area). */
static enum out vring_at(struct conn *c, struct guest *g, uint32_t q,
			 uint32_t size, uint32_t base, const void *desc,
			 const void *avail, const void *used, const char **step)
{
	TRY("SET_VRING_NUM", vu_set_state(c, VU_SET_VRING_NUM, q, size));
	TRY("SET_VRING_BASE", vu_set_state(c, VU_SET_VRING_BASE, q, base));
	TRY("SET_VRING_ADDR",
	    set_vring_addr(c, q, uaddr(desc), uaddr(avail), uaddr(used)));
	TRY("SET_VRING_KICK",
	    set_vring_fd(c, VU_SET_VRING_KICK, q, g->kick[q]));
	TRY("SET_VRING_CALL",
	    set_vring_fd(c, VU_SET_VRING_CALL, q, g->call[q]));
	return OUT_OK;
}

/* Split vring 1 of 32 entries: its used ring ends where the region does. */
#define EDGE_SPLIT_AVAIL 0x1000u /* room for 4096 avail entries */
#define EDGE_SPLIT_USED (EDGE_RING_SIZE - 4 - 32 * 8)

static struct vdesc *edge_desc(struct edge *e)
{
	return (struct vdesc *)e->ring;
}

static struct vavail *edge_avail(struct edge *e)
{
	return (struct vavail *)(e->ring + EDGE_SPLIT_AVAIL);
}

static struct vused *edge_used(struct edge *e)
{
	return (struct vused *)(e->ring + EDGE_SPLIT_USED);
}

/* Post @n frames on the edge split ring (descriptors 0..31 reused). */
static uint16_t edge_tx(struct edge *e, uint16_t n, int ms)
{
	struct vavail *av = edge_avail(e);
	uint16_t want;

	for (uint16_t i = 0; i < n; i++) {
		uint16_t slot = (uint16_t)(e->d.g.avail_idx % 32);

		edge_desc(e)[slot] =
			(struct vdesc){frame_write(&e->d.g, 16u + slot),
				       NET_HDR + FRAME_LEN, 0, 0};
		av->ring[e->d.g.avail_idx % 4096] = slot;
		e->d.g.avail_idx++;
	}
	__atomic_store_n(&av->idx, e->d.g.avail_idx, __ATOMIC_RELEASE);
	kick(e->d.g.kick[1]);
	want = e->d.g.avail_idx;
	for (uint64_t end = now_ms() + (uint64_t)ms;
	     __atomic_load_n(&edge_used(e)->idx, __ATOMIC_ACQUIRE) != want &&
	     now_ms() < end;)
		sleep_ms(2);
	return __atomic_load_n(&edge_used(e)->idx, __ATOMIC_ACQUIRE);
}

static int edge_up_split(struct edge *e, struct report *r)
{
	const char *step = "";
	enum out o;

	edge_init(e);
	if (fresh(&e->d.c, r) < 0)
		return -1;
	o = edge_negotiate(e, 0, 0, &step);
	if (o == OUT_OK)
		o = hs_vring(&e->d.c, &e->d.g, 0, &step);
	if (o == OUT_OK)
		o = vring_at(&e->d.c, &e->d.g, 1, 32, 0, edge_desc(e),
			     edge_avail(e), edge_used(e), &step);
	if (o == OUT_OK)
		o = hs_start(&e->d.c, &step);
	if (o != OUT_OK) {
		GOT(r, "handshake failed at %s: %s", step, out_str(o));
		conn_close(&e->d.c);
		return -1;
	}
	return 0;
}

/* C1 (a): a running split ring resized from 32 to 4096 entries. */
static void s_vring_num_running(struct report *r, uint64_t arg)
{
	struct edge e;
	enum out o;
	uint16_t u;

	(void)arg;
	SENT(r, "running device, vring 1 of 32 entries ending at its "
		"region's end; 32 frames; SET_VRING_NUM 4096 on the running "
		"vring 1; 16 more frames");
	if (edge_up_split(&e, r) == 0) {
		u = edge_tx(&e, 32, opt.timeout_ms);
		GOT(r, "%u of 32 frames consumed", u);
		o = vu_set_state(&e.d.c, VU_SET_VRING_NUM, 1, 4096);
		if (o == OUT_OK && !e.d.c.ack)
			o = seen(&e.d.c, probe(&e.d.c));
		GOT(r, "SET_VRING_NUM 4096 on the running vring 1: %s",
		    out_str(o));
		if (o == OUT_OK) {
			GOT(r, "UNSAFE: a running ring was resized");
			u = edge_tx(&e, 16, 1000);
			GOT(r, "then %u of 48 frames consumed", u);
		}
		edge_verdict(&e, r, 0);
	}
	edge_fini(&e, r);
}

/*
 * Packed vring 1 of 32 descriptors at the end of the ring region: desc
 * ring [0x3e00, 0x4000), driver and device areas at its start.  The
 * sentinel is filled with descriptors that look available, so a backend
 * that reads past the ring also consumes one and writes it back.
 */
#define PK_AVAIL (1u << 7)
#define PK_USED (1u << 15)

struct pdesc {
	uint64_t addr;
	uint32_t len;
	uint16_t id, flags;
};

static void fill_sentinel_packed(struct edge *e, uint16_t flags)
{
	struct pdesc *p = (struct pdesc *)e->sent;

	for (size_t i = 0; i < EDGE_SENTINEL / sizeof(*p); i++)
		p[i] = (struct pdesc){GPA_BASE + BUF_OFF, NET_HDR + FRAME_LEN,
				      0, flags};
	frame_write(&e->d.g, 0);
}

/* Negotiate packed; vring 0 packed in the guest memory.  0: running. */
static enum out edge_packed_start(struct edge *e, uint32_t base1,
				  const char **step)
{
	uint8_t *m = e->d.g.mem;
	struct pdesc *d1 = (struct pdesc *)(e->ring + EDGE_RING_SIZE - 32 * 16);

	TRY("vring 0", vring_at(&e->d.c, &e->d.g, 0, 256, 0x8000, m, m + 0x1000,
				m + 0x1010, step));
	TRY("vring 1", vring_at(&e->d.c, &e->d.g, 1, 32, base1, d1, e->ring,
				e->ring + 0x10, step));
	return hs_start(&e->d.c, step);
}

/* C1 (b): a packed ring whose base lies far beyond its 32 entries. */
static void s_vring_base_packed(struct report *r, uint64_t arg)
{
	const char *step = "";
	struct edge e;
	size_t before;
	enum out o;

	(void)arg;
	SENT(r, "packed rings; vring 1 of 32 descriptors at the end of its "
		"region, SET_VRING_BASE 0x7ff0 (wrap 1); started and kicked");
	edge_init(&e);
	if (fresh(&e.d.c, r) < 0) {
		edge_fini(&e, r);
		return;
	}
	o = edge_negotiate(&e, F_RING_PACKED, 0, &step);
	if (o == OUT_OK && !(e.d.c.features & F_RING_PACKED)) {
		GOT(r, "packed rings not offered: nothing to attack");
		edge_fini(&e, r);
		return;
	}
	/* wrap counter 1: available = AVAIL set, USED clear */
	fill_sentinel_packed(&e, PK_AVAIL);
	before = sentinel_dirty(&e);
	if (o == OUT_OK)
		o = edge_packed_start(&e, 0x7ff0 | 0x8000, &step);
	GOT(r, "start at base 0x7ff0: %s%s%s", o == OUT_OK ? "" : step,
	    o == OUT_OK ? "" : ": ", out_str(o));
	if (o == OUT_OK) {
		GOT(r, "UNSAFE: a packed ring started at a base beyond it");
		kick(e.d.g.kick[1]);
		sleep_ms(1000);
	}
	edge_verdict(&e, r, before);
	edge_fini(&e, r);
}

/* A broadcast from a device of our own on the probe port: the backend
 * floods it to every other port, ours on the attacked socket too. */
static const char *probe_broadcast(int n)
{
	static char buf[96];
	struct dev p;
	struct report dummy;
	uint16_t u;

	memset(&dummy, 0, sizeof(dummy));
	guest_init(&p.g);
	if (conn_open(&p.c, opt.probe) < 0 ||
	    handshake(&p.c, &p.g, &(const char *){""}) != OUT_OK) {
		dev_down(&p, &dummy);
		return "the probe port could not be brought up";
	}
	for (uint16_t i = 0; i < n; i++) {
		uint8_t *b =
			p.g.mem + BUF_OFF + (size_t)(16 + i % 32) * BUF_SIZE;

		frame_write(&p.g, 16u + i % 32);
		memset(b + NET_HDR, 0xff, 6);
		b[NET_HDR + 11] = 0x02;
		desc_set(&p.g, (uint16_t)(16 + i % 32),
			 GPA_BASE + BUF_OFF +
				 (uint64_t)(16 + i % 32) * BUF_SIZE,
			 NET_HDR + FRAME_LEN, 0, 0);
		tx_post(&p.g, (uint16_t)(16 + i % 32));
		tx_wait(&p.g, (uint16_t)(i + 1), 200);
	}
	u = tx_wait(&p.g, (uint16_t)n, opt.hold_ms);
	snprintf(buf, sizeof(buf),
		 "%u of %d broadcasts from the probe port "
		 "consumed",
		 u, n);
	dev_down(&p, &dummy);
	return buf;
}

/* C1 (c): vring 0 sized as a split ring, then the device switched to
 * packed and vring 0 started with tiny mergeable buffers. */
static void s_packed_after_num(struct report *r, uint64_t arg)
{
	const char *step = "";
	struct conn *c;
	uint8_t *m;
	struct edge e;
	enum out o;

	(void)arg;
	SENT(r, "split features, SET_VRING_NUM vring 0 = 32; SET_FEATURES "
		"with RING_PACKED; vring 0 started packed with 31 buffers of "
		"3 bytes; a broadcast from the probe port");
	edge_init(&e);
	c = &e.d.c;
	m = e.d.g.mem;
	if (fresh(c, r) < 0) {
		edge_fini(&e, r);
		return;
	}
	o = edge_negotiate(&e, 0, 0, &step);
	if (o == OUT_OK)
		o = vu_set_state(c, VU_SET_VRING_NUM, 0, 32);
	if (o == OUT_OK) {
		struct vu_msg g;

		o = vu_get(c, VU_GET_FEATURES, NULL, 0, &g);
		if (o == OUT_OK && !(g.p.u64 & F_RING_PACKED)) {
			GOT(r, "packed rings not offered: nothing to attack");
			edge_fini(&e, r);
			return;
		}
	}
	if (o == OUT_OK) {
		c->features |= F_RING_PACKED | F_MRG_RXBUF;
		o = vu_set_u64(c, VU_SET_FEATURES, c->features);
		if (o == OUT_OK && !c->ack)
			o = seen(c, probe(c));
	}
	GOT(r, "SET_FEATURES with RING_PACKED after sizing: %s", out_str(o));
	if (o == OUT_OK) {
		struct pdesc *d0 = (struct pdesc *)m;

		GOT(r, "UNSAFE: a sized ring was switched to packed");
		for (uint16_t i = 0; i < 31; i++)
			d0[i] = (struct pdesc){GPA_BASE + BUF_OFF + i * 64u, 3,
					       i, PK_AVAIL};
		o = vu_set_state(c, VU_SET_VRING_BASE, 0, 0x8000);
		if (o == OUT_OK)
			o = set_vring_addr(c, 0, uaddr(m), uaddr(m + 0x1000),
					   uaddr(m + 0x1010));
		if (o == OUT_OK)
			o = set_vring_fd(c, VU_SET_VRING_KICK, 0,
					 e.d.g.kick[0]);
		if (o == OUT_OK)
			o = set_vring_fd(c, VU_SET_VRING_CALL, 0,
					 e.d.g.call[0]);
		if (o == OUT_OK)
			o = vring_at(c, &e.d.g, 1, 32, 0x8000, m + 0x20000,
				     m + 0x21000, m + 0x21010, &step);
		if (o == OUT_OK)
			o = hs_start(c, &step);
		GOT(r, "vring 0 started packed: %s", out_str(o));
		if (o == OUT_OK)
			GOT(r, "%s", probe_broadcast(1));
	}
	edge_verdict(&e, r, 0);
	edge_fini(&e, r);
}

/* M2: guest memory in a file on a disk filesystem (/var/tmp). */
static void s_mem_fd_disk(struct report *r, uint64_t arg)
{
	char path[] = "/var/tmp/vhost-hostile-XXXXXX";
	struct vu_region reg;
	struct statfs sfs;
	const char *step = "";
	struct dev d;
	enum out o;
	int fd;

	(void)arg;
	SENT(r, "SET_MEM_TABLE region backed by a file in /var/tmp");
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0 || unlink(path) < 0 || ftruncate(fd, MEM_SIZE) < 0)
		die("/var/tmp file");
	if (fstatfs(fd, &sfs) == 0 &&
	    (sfs.f_type == 0x01021994 || sfs.f_type == 0x958458f6)) {
		GOT(r, "/var/tmp is tmpfs or hugetlbfs here: skipped");
		close(fd);
		return;
	}
	guest_init(&d.g);
	close_fd(&d.g.memfd);
	munmap(d.g.mem, MEM_SIZE);
	d.g.memfd = fd;
	d.g.mem =
		mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (d.g.mem == MAP_FAILED)
		die("mmap /var/tmp file");
	reg = guest_region(&d.g);
	if (bent_mem(&d, r, &reg, &o, &step) < 0)
		return;
	if (o == OUT_OK && !d.c.ack)
		o = seen(&d.c, probe(&d.c));
	if (o == OUT_OK)
		GOT(r,
		    "UNSAFE: guest memory on a disk filesystem (type "
		    "0x%lx) was accepted",
		    (unsigned long)sfs.f_type);
	dev_down(&d, r);
}

/*
 * H1: a running device on the attacked socket stops reading and sends
 * @arg-kind messages the library answers with every virtqueue lock of
 * the device held (SET_VRING_ENABLE with REPLY_ACK, or SET_LOG_BASE),
 * for 2 s or until the backend takes no more; meanwhile a device on the
 * probe port, brought up before, floods broadcasts (to the attacked port
 * too).  Then, still without reading, hold_ms more; then close.
 */
/* A running device on the probe port (the frames' other end); -1 when
 * it cannot be brought up (said in @r, released). */
static int probe_dev_up(struct dev *p, struct report *r)
{
	struct report dummy;

	guest_init(&p->g);
	if (conn_open(&p->c, opt.probe) < 0 ||
	    handshake(&p->c, &p->g, &(const char *){""}) != OUT_OK) {
		GOT(r, "the probe port could not be brought up");
		memset(&dummy, 0, sizeof(dummy));
		dev_down(p, &dummy);
		return -1;
	}
	return 0;
}

/* Descriptor @slot of the probe port's device: a frame from ...:02 to
 * our MAC, or a broadcast (@bcast); not posted yet. */
static void probe_frame(struct guest *p, uint16_t slot, bool bcast)
{
	uint8_t *b = p->mem + BUF_OFF + (size_t)slot * BUF_SIZE;

	frame_write(p, slot);
	if (bcast)
		memset(b + NET_HDR, 0xff, 6);
	b[NET_HDR + 11] = 0x02;
	desc_set(p, slot, GPA_BASE + BUF_OFF + (uint64_t)slot * BUF_SIZE,
		 NET_HDR + FRAME_LEN, 0, 0);
}

enum { BLOCK_ENABLE_ACK, BLOCK_LOG_BASE };

static int block_msgs(struct conn *c, uint64_t kind, unsigned int *sent)
{
	struct vu_state st = {0, 1};
	struct {
		uint64_t size, offset;
	} log = {4096, 0};
	uint64_t end = now_ms() + 2000;
	uint8_t *lm;
	int lfd = kind == BLOCK_LOG_BASE
			  ? memfd_of("vhost-hostile-log", 4096, &lm)
			  : -1;

	*sent = 0;
	while (*sent < 20000 && now_ms() < end) {
		int rc = kind == BLOCK_LOG_BASE
				 ? vu_send_flags(c->fd, VU_SET_LOG_BASE, 0,
						 &log, sizeof(log), &lfd, 1,
						 MSG_DONTWAIT)
				 : vu_send_flags(c->fd, VU_SET_VRING_ENABLE,
						 VU_NEED_REPLY, &st, sizeof(st),
						 NULL, 0, MSG_DONTWAIT);

		if (rc == -EAGAIN) {
			sleep_ms(10);
			continue;
		}
		if (rc < 0)
			break;
		(*sent)++;
	}
	if (lfd >= 0) {
		munmap(lm, 4096);
		close(lfd);
	}
	return 0;
}

static void s_reply_block_running(struct report *r, uint64_t kind)
{
	struct dev d, p;
	struct report dummy;
	unsigned int sent;
	uint16_t u;
	int eof;

	SENT(r,
	     "running device that never reads its socket; %s for 2 s; "
	     "meanwhile broadcasts from a device on the probe port; held "
	     "%d ms",
	     kind == BLOCK_LOG_BASE ? "SET_LOG_BASE (always answered)"
				    : "SET_VRING_ENABLE with NEED_REPLY",
	     opt.hold_ms);
	memset(&dummy, 0, sizeof(dummy));
	if (probe_dev_up(&p, r) < 0)
		return;
	if (dev_up(&d, r) < 0 || (kind == BLOCK_ENABLE_ACK && !d.c.ack)) {
		if (d.c.fd >= 0)
			GOT(r, "no REPLY_ACK: skipped");
		dev_down(&d, r);
		dev_down(&p, &dummy);
		return;
	}
	if (kind == BLOCK_LOG_BASE) {
		/* LOG_SHMFD: renegotiate the protocol features */
		struct vu_msg m;

		if (vu_get(&d.c, VU_GET_PROTOCOL_FEATURES, NULL, 0, &m) !=
			    OUT_OK ||
		    !(m.p.u64 & PF_LOG_SHMFD) ||
		    vu_set_u64(&d.c, VU_SET_PROTOCOL_FEATURES,
			       d.c.proto | PF_LOG_SHMFD) != OUT_OK) {
			GOT(r, "LOG_SHMFD not negotiated: skipped");
			dev_down(&d, r);
			dev_down(&p, &dummy);
			return;
		}
	}
	block_msgs(&d.c, kind, &sent);
	GOT(r, "%u messages taken", sent);
	for (uint16_t i = 0; i < 50; i++) {
		uint16_t slot = (uint16_t)(16 + i % 32);

		probe_frame(&p.g, slot, true);
		tx_post(&p.g, slot);
		tx_wait(&p.g, (uint16_t)(i + 1), 100);
	}
	u = tx_wait(&p.g, 50, opt.hold_ms);
	GOT(r,
	    "%u of 50 broadcasts from the probe port consumed while the "
	    "attacker did not read",
	    u);
	if (u != 50)
		GOT(r, "UNSAFE: an unread socket stopped the datapath");
	eof = wait_eof(d.c.fd, 100);
	GOT(r, "the backend %s",
	    eof ? "closed the connection" : "kept the connection");
	conn_close(&d.c);
	dev_down(&d, r);
	dev_down(&p, &dummy);
}

/*
 * Ring state, the rx side: a running frontend disables pair 0's rx ring
 * (vring 0; one that never enabled it looks the same to vsw), then
 * enables it again.  A device on the probe port sends unicast to our MAC
 * (learned on the attacked port from one frame of ours): 8 before, 20
 * while the ring is disabled (then held hold_ms), 20 after.  While
 * disabled nothing may be written into the ring (the backend drops what
 * it cannot place: drop_tx_full, which the test counts); once enabled,
 * delivery resumes.
 */
#define VRING_F_WRITE 2
/* rx buffers: slots 512..639 of the buffer area for vring 0, 640..767
 * for vring 2 */
#define RX_SLOT 512u
#define RX_BUFS 128u
#define MARKS 4 /* to_us's marks 1..3 and 0, none */

/* The rx buffers' first slot for guest RX vring @q (0 or 2). */
static size_t rx_slot(uint32_t q)
{
	return RX_SLOT + (size_t)(q / 2) * RX_BUFS;
}

/* Offer RX_BUFS writable buffers on vring @q (guest RX: 0, 2) and kick. */
static void rx_post(struct guest *g, uint32_t q)
{
	struct vavail *av = ring_avail(g, (int)q);
	struct vdesc *d = ring_desc(g, (int)q);

	for (uint16_t i = 0; i < RX_BUFS; i++) {
		d[i] = (struct vdesc){GPA_BASE + BUF_OFF +
					      (uint64_t)(rx_slot(q) + i) *
						      BUF_SIZE,
				      BUF_SIZE, VRING_F_WRITE, 0};
		av->ring[i] = i;
	}
	__atomic_store_n(&av->idx, (uint16_t)RX_BUFS, __ATOMIC_RELEASE);
	kick(g->kick[q]);
}

/* Frames from @src the backend placed on vring @q since *@seen, added to
 * @by by their mark (to_us; 0: none or another). */
static void rx_from(struct guest *g, uint32_t q, uint16_t *seen,
		    const uint8_t *src, uint16_t by[MARKS])
{
	struct vused *u = ring_used(g, (int)q);
	uint16_t end = __atomic_load_n(&u->idx, __ATOMIC_ACQUIRE);

	for (; *seen != end; (*seen)++) {
		uint32_t id = u->ring[*seen % QSZ].id;
		const uint8_t *b;

		if (id >= RX_BUFS) /* not a buffer we offered */
			continue;
		b = g->mem + BUF_OFF + (rx_slot(q) + id) * BUF_SIZE;
		if (memcmp(b + NET_HDR + 6, src, 6) == 0)
			by[b[NET_HDR + 14] < MARKS ? b[NET_HDR + 14] : 0]++;
	}
}

/* @n unicast frames from the probe port's device to our MAC, the first
 * payload byte @mark (which phase of a scenario sent them), consumed? */
static uint16_t to_us(struct guest *p, uint16_t n, uint8_t mark)
{
	uint16_t start = p->avail_idx;

	for (uint16_t i = 0; i < n; i++) {
		uint16_t slot = (uint16_t)(16 + (p->avail_idx % 32));

		probe_frame(p, slot, false);
		p->mem[BUF_OFF + (size_t)slot * BUF_SIZE + NET_HDR + 14] = mark;
		tx_post(p, slot);
		if (i % 16 == 15) /* at most 32 slots in flight */
			tx_wait(p, (uint16_t)(start + i + 1), opt.timeout_ms);
	}
	return (uint16_t)(tx_wait(p, (uint16_t)(start + n), opt.timeout_ms) -
			  start);
}

/* rx_from on the rx rings of @g's queue pairs: by[k] counts pair k's. */
static uint16_t rx_pairs(struct guest *g, uint16_t seen[2], const uint8_t *src,
			 uint16_t by[2][MARKS], uint8_t mark)
{
	for (uint32_t k = 0; k < g->pairs && k < 2; k++)
		rx_from(g, 2 * k, &seen[k], src, by[k]);
	return (uint16_t)(by[0][mark] + by[1][mark]);
}

/* Wait up to @ms for @want frames from @src marked @mark on @g's rx
 * rings (rx_pairs); how many of them came. */
static uint16_t rx_wait(struct guest *g, uint16_t seen[2], const uint8_t *src,
			uint16_t by[2][MARKS], uint8_t mark, uint16_t want,
			int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;

	while (rx_pairs(g, seen, src, by, mark) < want && now_ms() < end)
		sleep_ms(5);
	return rx_pairs(g, seen, src, by, mark);
}

/*
 * A running device with @pairs queue pairs (1, or 2 with
 * VIRTIO_NET_F_MQ) disables pair 0's rx ring, then enables it again,
 * while a device on the probe port sends it unicast: nothing goes into
 * the disabled ring, then or later; with one pair the frames sent
 * meanwhile are dropped, with two they go to pair 1 (OVS remaps its tx
 * queues so too).
 */
static void s_rx_disabled_running(struct report *r, uint64_t pairs)
{
	enum { BEFORE = 1, DISABLED, AFTER }; /* the frames' marks */
	uint8_t src[6];
	struct dev d, p;
	struct report dummy;
	uint16_t seen[2] = {0}, k, by[2][MARKS] = {{0}};

	memcpy(src, our_mac, 6);
	src[5] = 0x02;
	SENT(r,
	     "running device with %u queue pair(s) disables pair 0's rx "
	     "ring (vring 0)%s and enables it again; unicast to it from a "
	     "device on the probe port, 8 before, 20 while disabled (held "
	     "%d ms), 20 after",
	     (unsigned int)pairs, pairs > 1 ? ", keeps pair 1's (vring 2)" : "",
	     opt.hold_ms);
	memset(&dummy, 0, sizeof(dummy));
	if (probe_dev_up(&p, r) < 0)
		return;
	guest_init(&d.g);
	d.g.pairs = (uint32_t)pairs;
	if (dev_up_with(&d, r, false) < 0 || d.c.nvr != 2 * pairs) {
		if (d.c.fd >= 0)
			GOT(r, "handshake failed: VIRTIO_NET_F_MQ not offered");
		dev_down(&d, r);
		dev_down(&p, &dummy);
		return;
	}
	for (uint32_t q = 0; q < d.c.nvr; q += 2)
		rx_post(&d.g, q);
	tx_valid(&d.g, 16); /* our MAC, learned on the attacked port */
	tx_wait(&d.g, 1, opt.timeout_ms);
	k = to_us(&p.g, 8, BEFORE);
	GOT(r, "enabled: %u of 8 sent, %u of 8 delivered", k,
	    rx_wait(&d.g, seen, src, by, BEFORE, 8, opt.timeout_ms));
	GOT(r, "SET_VRING_ENABLE vring 0 off: %s",
	    out_str(vu_set_state(&d.c, VU_SET_VRING_ENABLE, 0, 0)));
	k = to_us(&p.g, 20, DISABLED);
	sleep_ms(opt.hold_ms);
	GOT(r, "disabled: %u of 20 sent, %u of 20 delivered", k,
	    rx_pairs(&d.g, seen, src, by, DISABLED));
	GOT(r, "SET_VRING_ENABLE vring 0 on: %s",
	    out_str(vu_set_state(&d.c, VU_SET_VRING_ENABLE, 0, 1)));
	k = to_us(&p.g, 20, AFTER);
	GOT(r, "enabled again: %u of 20 sent, %u of 20 delivered", k,
	    rx_wait(&d.g, seen, src, by, AFTER, 20, opt.timeout_ms));
	rx_pairs(&d.g, seen, src, by, 0);
	GOT(r,
	    "of the 20 sent while disabled, %u delivered into pair 0 in all "
	    "(none may outlive tx-hold-us), %u into pair 1; %u unmarked",
	    by[0][DISABLED], by[1][DISABLED], by[0][0] + by[1][0]);
	dev_down(&d, r);
	dev_down(&p, &dummy);
}

/* ---- the scenario table and main ---------------------------------------- */

typedef void scen_fn(struct report *r, uint64_t arg);

struct scenario {
	const char *name;
	scen_fn *fn;
	uint64_t arg;
};

/* In the order "all" runs them: the ones that may kill a backend last. */
static const struct scenario scenarios[] = {
	{"handshake_ok", s_handshake_ok, 0},
	{"trunc_header", s_trunc_header, 8},
	{"trunc_header_1", s_trunc_header, 1},
	{"hdr_then_close", s_cut_close, 0},
	{"cut_then_close", s_cut_close, 20},
	{"size_too_big", s_size, VU_PAYLOAD_MAX},
	{"size_huge", s_size, 0xffffffffu},
	{"mem_table_short", s_mem_short, 0},
	{"unknown_0", s_unknown, 0},
	{"unknown_23", s_unknown, 23},
	{"unknown_42", s_unknown, 42},
	{"unknown_200", s_unknown, 200},
	{"unknown_ffffffff", s_unknown, 0xffffffffu},
	{"unknown_42_ack", s_unknown_ack, 42},
	{"bad_version", s_bad_version, 0},
	{"vring_num_0", s_vring_num, 0},
	{"vring_num_3", s_vring_num, 3},
	{"vring_num_32769", s_vring_num, 32769},
	{"vring_num_65536", s_vring_num, 65536},
	{"vring_num_ffffffff", s_vring_num, 0xffffffffu},
	{"vring_idx_255", s_vring_idx, 255},
	{"vring_idx_256", s_vring_idx, 256},
	{"vring_idx_4096", s_vring_idx, 4096},
	{"vring_idx_ffffffff", s_vring_idx, 0xffffffffu},
	{"ring_addr_no_mem", s_ring_addr, ADDR_NOMEM},
	{"ring_addr_outside", s_ring_addr, ADDR_OUTSIDE},
	{"ring_addr_wrap", s_ring_addr, ADDR_WRAP},
	{"ring_addr_straddle", s_ring_addr, ADDR_STRADDLE},
	{"ring_addr_running", s_ring_addr_running, 0},
	{"mem_zero_regions", s_mem, MEM_ZERO_REGIONS},
	{"mem_too_many", s_mem, MEM_TOO_MANY},
	{"mem_fds_fewer", s_mem, MEM_FDS_FEWER},
	{"mem_fds_more", s_mem, MEM_FDS_MORE},
	{"mem_fd_pipe", s_mem, MEM_FD_PIPE},
	{"mem_fd_devnull", s_mem, MEM_FD_DEVNULL},
	{"mem_fd_socket", s_mem, MEM_FD_SOCKET},
	{"mem_fd_readonly", s_mem, MEM_FD_READONLY},
	{"mem_zero_size", s_mem, MEM_ZERO_SIZE},
	{"mem_overlap", s_mem, MEM_OVERLAP},
	{"mem_huge", s_mem, MEM_HUGE},
	{"mem_overflow", s_mem, MEM_OVERFLOW},
	{"mem_gpa_wrap", s_mem, MEM_GPA_WRAP},
	{"mem_past_eof", s_mem, MEM_PAST_EOF},
	{"kick_missing_fd", s_vring_fd_mismatch, 0},
	{"call_missing_fd", s_vring_fd_mismatch, 1},
	{"kick_nofd_with_fd", s_vring_fd_mismatch, 2},
	{"call_nofd_with_fd", s_vring_fd_mismatch, 3},
	{"kick_none_running", s_vring_fd_odd, FD_KICK_NONE},
	{"call_none_running", s_vring_fd_odd, FD_CALL_NONE},
	{"kick_socket_running", s_vring_fd_odd, FD_KICK_SOCKET},
	{"call_devnull_running", s_vring_fd_odd, FD_CALL_DEVNULL},
	{"fd_flood", s_fd_flood, 100},
	{"tx_len_max", s_tx, TX_LEN_MAX},
	{"tx_len_zero", s_tx, TX_LEN_ZERO},
	{"tx_hdr_only", s_tx, TX_HDR_ONLY},
	{"tx_addr_outside", s_tx, TX_ADDR_OUTSIDE},
	{"tx_addr_wrap", s_tx, TX_ADDR_WRAP},
	{"tx_chain_loop", s_tx, TX_CHAIN_LOOP},
	{"tx_next_oob", s_tx, TX_NEXT_OOB},
	{"tx_head_oob", s_tx, TX_HEAD_OOB},
	{"tx_indirect_len", s_tx, TX_IND_LEN},
	{"tx_indirect_empty", s_tx, TX_IND_EMPTY},
	{"tx_indirect_outside", s_tx, TX_IND_OUTSIDE},
	{"tx_indirect_loop", s_tx, TX_IND_LOOP},
	{"tx_indirect_straddle", s_tx, TX_IND_STRADDLE},
	{"tx_giant", s_tx_giant, 16},
	{"tx_offload_lies", s_tx_offload_lies, 0},
	{"reset_owner_rerun", s_reset_rerun, 0},
	{"reset_owner_loop", s_reset_loop, 20},
	{"reconnect_quick", s_reconnect_storm, 40},
	{"reconnect_storm", s_reconnect_storm, 0},
	{"conn_flood", s_conn_flood, 0},
	{"heap_hog", s_heap_hog, 0},
	{"payload_stall", s_stall, 0},
	{"reply_flood", s_reply_flood, 0},
	{"kick_blocking", s_kick_blocking, 0},
	{"call_pipe_full", s_call_full, 1},
	{"call_pipe_held", s_call_full, 2},
	{"call_eventfd_full", s_call_full, 0},
	{"call_eventfd_filled", s_call_full, 3},
	{"call_eventfd_slow", s_call_slow, 60000},
	{"call_churn_blocked", s_call_churn, 400},
	{"fds_on_bad_index", s_idx_fds, 4096},
	{"inflight_fd_leak", s_inflight_leak, 16},
	{"call_pipe_broken", s_call_broken, 0},
	{"tx_past_eof", s_tx_past_eof, 0},
	{"mem_offset_past_eof", s_mem_offset, 0},
	{"mem_shrink_running", s_mem_shrink, 0},
	{"restart_without_num", s_restart_no_num, 0},
	{"vring_num_bad_acked", s_bad_num_acked, 0},
	{"vring_num_running", s_vring_num_running, 0},
	{"vring_base_packed", s_vring_base_packed, 0},
	{"packed_after_num", s_packed_after_num, 0},
	{"mem_fd_disk", s_mem_fd_disk, 0},
	{"reply_block_running", s_reply_block_running, BLOCK_ENABLE_ACK},
	{"log_block_running", s_reply_block_running, BLOCK_LOG_BASE},
	{"rx_disabled_running", s_rx_disabled_running, 1},
	{"rx_pair0_off_mq", s_rx_disabled_running, 2},
};

#define N_SCEN (sizeof(scenarios) / sizeof(scenarios[0]))

static void run(const struct scenario *s)
{
	struct report r;
	struct peer before;

	memset(&r, 0, sizeof(r));
	peer_snap(&before);
	s->fn(&r, s->arg);
	peer_diff(&before, &r);
	printf("%s | sent: %s | backend: %s\n", s->name, r.sent, r.got);
	fflush(stdout);
}

static const struct scenario *find(const char *name)
{
	for (size_t i = 0; i < N_SCEN; i++)
		if (strcmp(scenarios[i].name, name) == 0)
			return &scenarios[i];
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vhost_hostile [options] SOCKET [SCENARIO...|all]\n"
		"  --list          print the scenario names and exit\n"
		"  --timeout MS    an answer later than this is none "
		"(default 5000)\n"
		"  --hold MS       how long blocking attacks last (default "
		"3000)\n"
		"  --storm N       reconnect_storm iterations (default 1100)\n"
		"  --flood N       conn_flood connections (default 1100)\n"
		"  --probe PATH    socket whose service is checked during "
		"attacks on the vhost-user control thread (default SOCKET)\n"
		"One line per scenario: NAME | sent: ... | backend: ...\n"
		"Exit status 2 only for usage or local set-up errors.\n");
}

static int num_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (*s == '\0' || *end != '\0' || v < 0 || v > 10000000) {
		fprintf(stderr, "vhost_hostile: bad number '%s'\n", s);
		exit(2);
	}
	return (int)v;
}

/* Options first; returns the index of SOCKET. */
static int parse(int argc, char **argv)
{
	int i;

	/* every option that does not exit takes a value: two at a time */
	for (i = 1; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(o, "--list") == 0) {
			for (size_t k = 0; k < N_SCEN; k++)
				printf("%s\n", scenarios[k].name);
			exit(0);
		}
		if (strcmp(o, "--help") == 0) {
			usage(stdout);
			exit(0);
		}
		if (v == NULL)
			break;
		if (strcmp(o, "--timeout") == 0)
			opt.timeout_ms = num_arg(v);
		else if (strcmp(o, "--hold") == 0)
			opt.hold_ms = num_arg(v);
		else if (strcmp(o, "--storm") == 0)
			opt.storm = num_arg(v);
		else if (strcmp(o, "--flood") == 0)
			opt.flood = num_arg(v);
		else if (strcmp(o, "--probe") == 0)
			opt.probe = v;
		else
			break;
	}
	if (i >= argc || strncmp(argv[i], "--", 2) == 0) {
		usage(stderr);
		exit(2);
	}
	return i;
}

/* Enough fds for conn_flood; SIGPIPE off (a closed peer is a result). */
static void setup(int fd)
{
	struct rlimit rl;

	signal(SIGPIPE, SIG_IGN);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	backend_pid = peer_pid(fd);
	close(fd);
}

int main(int argc, char **argv)
{
	int first = parse(argc, argv), fd;

	opt.path = argv[first];
	if (opt.probe == NULL)
		opt.probe = opt.path;
	for (int i = first + 1; i < argc; i++)
		if (strcmp(argv[i], "all") != 0 && find(argv[i]) == NULL) {
			fprintf(stderr, "vhost_hostile: no scenario '%s'\n",
				argv[i]);
			return 2;
		}
	/*
	 * Who serves us (peer credentials): asked on the probe socket, a
	 * port of its own when given, so that the backend, which takes one
	 * frontend per port, is not still closing this connection when a
	 * scenario connects to the attacked port.
	 */
	fd = sock_connect(opt.probe);
	if (fd < 0) {
		fprintf(stderr, "vhost_hostile: cannot connect to %s: %s\n",
			opt.probe, strerror(-fd));
		return 2;
	}
	setup(fd);
	if (opt.probe == opt.path)
		usleep(300 * 1000); /* the same port: let it see the close */
	for (int i = first + 1; i <= argc; i++) {
		bool all = i == argc ? first + 1 == argc
				     : strcmp(argv[i], "all") == 0;

		for (size_t k = 0; all && k < N_SCEN; k++)
			run(&scenarios[k]);
		if (!all && i < argc)
			run(find(argv[i]));
	}
	return 0;
}
