/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet capture, control's side: start, stop, status (control.h), the
 * file and the writer thread.  The workers' side is datapath/capture.c.
 *
 * A capture is control state published like the rest: start makes the
 * capture (filter compiled by libpcap to classic BPF, converted to eBPF
 * for librte_bpf; a ring and an mbuf pool of its own; the file, opened by
 * vsw, never followed through a symlink and never overwritten) and
 * publishes a table that points the port's rx and/or tx at it; stop
 * publishes a table without it, and after the table's two grace periods
 * (no worker holds it any more) the writer drains the ring, writes the
 * statistics block and the file is closed.  Deleting the port or
 * stopping vsw ends its capture the same way.
 *
 * The writer is a plain thread per capture (vsw-cap-PORT), not an lcore:
 * it sleeps 1 ms when the ring is empty, so a capture costs no core; a
 * ring it does not empty fast enough is the workers' counted drop, never
 * their wait.  At most VSW_MAX_CAPTURES captures run, one per port.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include <rte_bpf.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "control.h"
#include "pcapng.h"

#define WRITE_BURST 64
#define FILE_BUF (256 * 1024)
#define COPY_ROOM 2048 /* a copy's data room: longer frames chain */

/* One capture: the workers' part first, then control's and the writer's. */
struct vsw_cap_run {
	struct vsw_capture dp; /* what the table points to */
	char port[VSW_PORT_NAME_MAX];
	char file[VSW_CAPTURE_STR];
	char filter[VSW_CAPTURE_STR];
	uint64_t count; /* frames to write; 0: no limit */
	unsigned int ring_size;
	FILE *f;
	pthread_t thread;
	uint64_t tsc0, ns0, hz; /* the TSC at ns0 (realtime) */
	bool stop;		/* control -> writer: drain and finish */
	/* writer -> readers (relaxed atomics) */
	uint64_t written;
	bool done;     /* count written */
	int write_err; /* errno of the first failed write; 0 none */
	uint8_t buf[UINT16_MAX + 1]; /* a chained copy made contiguous */
};

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t ts_of(const struct vsw_cap_run *r, uint64_t tsc)
{
	uint64_t d = tsc > r->tsc0 ? tsc - r->tsc0 : 0;

	return r->ns0 + (uint64_t)((__uint128_t)d * 1000000000u / r->hz);
}

/* Sum of the workers' counts (exact once no worker holds the capture). */
static void sum(const struct vsw_cap_run *r, struct vsw_capture_stats *s)
{
	memset(s, 0, sizeof(*s));
	for (unsigned int i = 0; i < VSW_CAPTURE_WORKERS; i++) {
		s->captured += r->dp.w[i].captured;
		s->dropped += r->dp.w[i].dropped;
		s->filtered += r->dp.w[i].filtered;
	}
	s->written = __atomic_load_n(&r->written, __ATOMIC_RELAXED);
	s->done = __atomic_load_n(&r->done, __ATOMIC_RELAXED);
	s->write_err = __atomic_load_n(&r->write_err, __ATOMIC_RELAXED);
}

static void write_one(struct vsw_cap_run *r, struct rte_mbuf *m)
{
	const struct vsw_capture_meta *meta = vsw_capture_meta(m);
	const void *data;

	if (r->count != 0 && r->written >= r->count) {
		__atomic_store_n(&r->done, true, __ATOMIC_RELAXED);
		return;
	}
	if (r->write_err != 0) /* the file is broken: nothing more */
		return;
	data = rte_pktmbuf_read(m, 0, m->pkt_len, r->buf);
	if (vsw_pcapng_packet(r->f, ts_of(r, meta->tsc), data, m->pkt_len,
			      meta->orig_len,
			      meta->dir == VSW_CAPTURE_RX ? 1 : 2) < 0) {
		__atomic_store_n(&r->write_err, errno ? errno : EIO,
				 __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&r->written, r->written + 1, __ATOMIC_RELAXED);
	if (r->count != 0 && r->written >= r->count)
		__atomic_store_n(&r->done, true, __ATOMIC_RELAXED);
}

/* The writer: ring to file until told to stop and the ring is empty. */
static void *writer_main(void *arg)
{
	struct vsw_cap_run *r = arg;
	struct rte_mbuf *m[WRITE_BURST];
	struct vsw_capture_stats s;

	for (;;) {
		bool stop = __atomic_load_n(&r->stop, __ATOMIC_ACQUIRE);
		unsigned int n = rte_ring_dequeue_burst(r->dp.ring, (void **)m,
							WRITE_BURST, NULL);

		for (unsigned int i = 0; i < n; i++)
			write_one(r, m[i]);
		rte_pktmbuf_free_bulk(m, n);
		if (n > 0)
			continue;
		if (stop)
			break;
		/* idle: what is buffered goes out (a reader sees it); a full
		 * disk shows here first */
		if (fflush(r->f) != 0 && r->write_err == 0)
			__atomic_store_n(&r->write_err, errno ? errno : EIO,
					 __ATOMIC_RELAXED);
		usleep(1000);
	}
	sum(r, &s);
	if (r->write_err == 0 &&
	    vsw_pcapng_stats(r->f, realtime_ns(), s.captured + s.dropped,
			     s.dropped, s.captured) < 0)
		r->write_err = errno ? errno : EIO;
	return NULL;
}

/* The filter @expr (libpcap syntax) as a librte_bpf program in *@out. */
static int compile_filter(const char *expr, uint32_t snaplen,
			  struct rte_bpf **out, char *err, size_t errlen)
{
	pcap_t *pc = pcap_open_dead(DLT_EN10MB, (int)snaplen);
	struct rte_bpf_prm *prm;
	struct bpf_program prog;

	if (pc == NULL) {
		snprintf(err, errlen, "libpcap: out of memory");
		return -ENOMEM;
	}
	if (pcap_compile(pc, &prog, expr, 1, PCAP_NETMASK_UNKNOWN) < 0) {
		snprintf(err, errlen, "bad filter '%s': %s", expr,
			 pcap_geterr(pc));
		pcap_close(pc);
		return -EINVAL;
	}
	prm = rte_bpf_convert(&prog);
	pcap_freecode(&prog);
	pcap_close(pc);
	if (prm == NULL) {
		snprintf(err, errlen, "filter '%s': cannot convert it: %s",
			 expr, rte_strerror(rte_errno));
		return -EINVAL;
	}
	*out = rte_bpf_load(prm);
	rte_free(prm);
	if (*out == NULL) {
		snprintf(err, errlen, "filter '%s': cannot load it: %s", expr,
			 rte_strerror(rte_errno));
		return -EINVAL;
	}
	return 0;
}

/*
 * A new file at @path: absolute, in an existing directory, not there yet
 * (O_EXCL: never an existing file, never through a symlink at the end).
 */
static int open_file(const char *path, FILE **f, char *err, size_t errlen)
{
	char dir[VSW_CAPTURE_STR];
	struct stat st;
	int fd;

	if (path[0] != '/') {
		snprintf(err, errlen, "FILE must be an absolute path, got '%s'",
			 path);
		return -EINVAL;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	if (stat(dirname(dir), &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "directory of '%s' does not exist", path);
		return -ENOENT;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
			 errno == EEXIST ? " (vsw writes new files only)" : "");
		return -errno;
	}
	*f = fdopen(fd, "w");
	if (*f == NULL) {
		close(fd);
		unlink(path);
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -ENOMEM;
	}
	return 0;
}

/* Free what make() made (the file closed and, with @unlink_it, removed). */
static void destroy(struct vsw_cap_run *r, bool unlink_it)
{
	if (r->f != NULL) {
		if (fclose(r->f) != 0 && r->write_err == 0)
			r->write_err = errno;
		if (unlink_it)
			unlink(r->file);
	}
	if (r->dp.bpf != NULL)
		rte_bpf_destroy(r->dp.bpf);
	rte_ring_free(r->dp.ring);
	rte_mempool_free(r->dp.mp);
	rte_free(r);
}

/* The ring and the copies' pool (names unique per start). */
static int make_queues(struct vsw_cap_run *r, char *err, size_t errlen)
{
	static unsigned int seq;
	uint16_t room = (uint16_t)(RTE_PKTMBUF_HEADROOM +
				   RTE_MIN(r->dp.snaplen, COPY_ROOM));
	char name[RTE_RING_NAMESIZE];

	seq++;
	snprintf(name, sizeof(name), "vswcap_r%u", seq);
	r->dp.ring = rte_ring_create(name, r->ring_size, SOCKET_ID_ANY,
				     RING_F_EXACT_SZ | RING_F_SC_DEQ);
	snprintf(name, sizeof(name), "vswcap_m%u", seq);
	r->dp.mp = rte_pktmbuf_pool_create(
		name, r->ring_size * 2 + WRITE_BURST, 0,
		RTE_ALIGN_CEIL(sizeof(struct vsw_capture_meta),
			       RTE_MBUF_PRIV_ALIGN),
		room, SOCKET_ID_ANY);
	if (r->dp.ring == NULL || r->dp.mp == NULL) {
		snprintf(err, errlen,
			 "no memory for a capture ring of %u frames: %s",
			 r->ring_size, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}

static struct vsw_cap_run *make(const struct vsw_capture_req *q, uint16_t id,
				char *err, size_t errlen, int *rc)
{
	struct vsw_cap_run *r =
		rte_zmalloc("vsw_capture", sizeof(*r), RTE_CACHE_LINE_SIZE);

	if (r == NULL) {
		snprintf(err, errlen, "out of memory for a capture");
		*rc = -ENOMEM;
		return NULL;
	}
	r->dp.port = id;
	r->dp.dir = (uint8_t)q->dir;
	r->dp.snaplen = q->snaplen;
	r->count = q->count;
	r->ring_size = q->ring;
	snprintf(r->port, sizeof(r->port), "%s", q->port);
	snprintf(r->file, sizeof(r->file), "%s", q->file);
	snprintf(r->filter, sizeof(r->filter), "%s", q->filter);
	*rc = q->filter[0] != '\0' ? compile_filter(q->filter, q->snaplen,
						    &r->dp.bpf, err, errlen)
				   : 0;
	if (*rc == 0)
		*rc = make_queues(r, err, errlen);
	if (*rc == 0)
		*rc = open_file(q->file, &r->f, err, errlen);
	if (*rc < 0) {
		destroy(r, false);
		return NULL;
	}
	return r;
}

/* Header, clock, thread: the capture is ready to be published. */
static int launch(struct vsw_cap_run *r, const char *port, char *err,
		  size_t errlen)
{
	char descr[96], tname[16];
	int rc;

	setvbuf(r->f, NULL, _IOFBF, FILE_BUF);
	snprintf(descr, sizeof(descr), "vsw port %s (%s)", port,
		 r->dp.dir == VSW_CAPTURE_RX   ? "rx"
		 : r->dp.dir == VSW_CAPTURE_TX ? "tx"
					       : "rx and tx");
	if (vsw_pcapng_header(r->f, port, descr, r->dp.snaplen) < 0 ||
	    fflush(r->f) != 0) {
		snprintf(err, errlen, "%s: %s", r->file, strerror(errno));
		return -EIO;
	}
	r->hz = rte_get_tsc_hz();
	r->ns0 = realtime_ns();
	r->tsc0 = rte_rdtsc();
	rc = pthread_create(&r->thread, NULL, writer_main, r);
	if (rc != 0) {
		snprintf(err, errlen, "cannot start the capture's writer: %s",
			 strerror(rc));
		return -rc;
	}
	snprintf(tname, sizeof(tname), "vsw-cap-%.7s", port);
	pthread_setname_np(r->thread, tname);
	return 0;
}

/* Stop the writer (no worker holds @r any more) and free @r. */
static void finish(struct vsw_ctl *ctl, uint16_t id,
		   struct vsw_capture_stats *out)
{
	struct vsw_cap_run *r = ctl->cap[id];
	struct vsw_capture_stats s;

	ctl->cap[id] = NULL;
	ctl->n_caps--;
	__atomic_store_n(&r->stop, true, __ATOMIC_RELEASE);
	pthread_join(r->thread, NULL);
	if (fflush(r->f) != 0 && r->write_err == 0)
		r->write_err = errno;
	sum(r, &s);
	VSW_LOG(INFO,
		"capture of %s ended: %" PRIu64 " written, %" PRIu64
		" dropped, %" PRIu64 " filtered out%s%s",
		r->port, s.written, s.dropped, s.filtered,
		s.write_err ? ", write error: " : "",
		s.write_err ? strerror(s.write_err) : "");
	destroy(r, false);
	if (out != NULL)
		*out = s;
}

int vsw_ctl_capture_start(struct vsw_ctl *ctl, const struct vsw_capture_req *q,
			  char *err, size_t errlen)
{
	struct vsw_port *p = vsw_ctl_port_by_name(ctl, q->port);
	struct vsw_cap_run *r;
	int rc;

	if (p == NULL) {
		snprintf(err, errlen, "unknown port '%s'", q->port);
		return -ENOENT;
	}
	if (ctl->cap[p->id] != NULL) {
		snprintf(err, errlen,
			 "port '%s' is captured already (one capture per "
			 "port: vswctl capture-stop %s)",
			 q->port, q->port);
		return -EBUSY;
	}
	if (ctl->n_caps >= VSW_MAX_CAPTURES) {
		snprintf(err, errlen, "%d captures run already (at most %d)",
			 VSW_MAX_CAPTURES, VSW_MAX_CAPTURES);
		return -EBUSY;
	}
	r = make(q, p->id, err, errlen, &rc);
	if (r == NULL)
		return rc;
	rc = launch(r, q->port, err, errlen);
	if (rc < 0) {
		destroy(r, true);
		return rc;
	}
	ctl->cap[p->id] = r;
	ctl->n_caps++;
	rc = vsw_table_publish(ctl, err, errlen);
	if (rc < 0)
		finish(ctl, p->id, NULL); /* the old table never held it */
	else
		VSW_LOG(INFO, "capture of %s started: %s", q->port, q->file);
	return rc;
}

int vsw_ctl_capture_stop(struct vsw_ctl *ctl, const char *port,
			 struct vsw_capture_stats *out, char *err,
			 size_t errlen)
{
	struct vsw_port *p = vsw_ctl_port_by_name(ctl, port);
	struct vsw_cap_run *r;
	int rc;

	if (p == NULL || ctl->cap[p->id] == NULL) {
		snprintf(err, errlen, "%s '%s'",
			 p == NULL ? "unknown port" : "no capture on port",
			 port);
		return -ENOENT;
	}
	r = ctl->cap[p->id];
	ctl->cap[p->id] = NULL; /* the table to publish has none */
	rc = vsw_table_publish(ctl, err, errlen);
	ctl->cap[p->id] = r;
	if (rc < 0)
		return rc;
	finish(ctl, p->id, out);
	return 0;
}

int vsw_ctl_capture_info(const struct vsw_ctl *ctl, uint16_t id,
			 struct vsw_capture_info *ci)
{
	const struct vsw_cap_run *r = ctl->cap[id];

	if (r == NULL)
		return -ENOENT;
	ci->dir = r->dp.dir;
	ci->snaplen = r->dp.snaplen;
	ci->ring = r->ring_size;
	ci->count = r->count;
	ci->file = r->file;
	ci->filter = r->filter;
	sum(r, &ci->st);
	return 0;
}

void vsw_ctl_capture_ptrs(const struct vsw_ctl *ctl,
			  struct vsw_capture *caps[VSW_MAX_PORTS])
{
	for (int i = 0; i < VSW_MAX_PORTS; i++)
		caps[i] = ctl->cap[i] != NULL ? &ctl->cap[i]->dp : NULL;
}

void vsw_ctl_capture_port_gone(struct vsw_ctl *ctl, uint16_t id)
{
	if (ctl->cap[id] != NULL)
		finish(ctl, id, NULL);
}
