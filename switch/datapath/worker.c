/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The worker: a run-to-completion loop pinned to one lcore.
 *
 * Each iteration loads the datapath table, polls every (port, queue) it
 * owns, forwards each burst (parse, learn, bulk lookup, append to the
 * output ports' tx buffers) and then applies the flush policy: a buffer
 * leaves when it holds a full burst, and otherwise at the end of the
 * iteration (tx-flush-interval-us = 0, the "bottom half") or, with an
 * interval, at the end of the first iteration that finds the port's last
 * flush an interval old: a port flushes partial bursts at most once per
 * interval, a frame to a quiet port leaves at once and no frame waits
 * longer than one interval (plus the iteration it ends); but for a port
 * whose waits lately gathered nothing (tx-flush-adaptive, flush_due),
 * which flushes at the end of each iteration.  It allocates nothing, logs
 * nothing and takes no lock; every packet it receives is counted as
 * forwarded or dropped by reason.
 *
 * Frames are checked where they enter and leave: longer than the ingress
 * port's mtu + 18, or from a source MAC the port may not use, they are
 * dropped at once (oversize, src_not_allowed), and so are frames from a
 * port with allowed-ips that break its rules (portsec.h); a flood over
 * the port's storm limit is dropped after the lookup that makes it one
 * (storm_*); what a copy must be to leave by an output, and offloaded
 * frames (TSO, checksums left to fill: checked where they enter by
 * offload.c, cut or filled where they leave), are txbuf.h's.  A flooded
 * frame gets one reference per copy on every segment (a chain shares its
 * tail too).
 *
 * With VLANs (datapath/vlan.h) a frame gets its VLAN where it enters (or
 * a vlan_* drop), is learned, looked up and flooded in it and leaves tagged
 * or not as each output wants; without them frames are never touched.
 *
 * When the table changes, the worker first flushes everything it buffered
 * through the old table (valid for one more iteration: the table rule in
 * table.h), so a removed port or a moved rx queue leaves nothing behind and
 * a flow moved to another worker is not reordered.  In adaptive mode a worker
 * whose queues stayed empty for idle-threshold-us arms the peers'
 * notifications and sleeps (offline for RCU) until one fires or
 * max-sleep-us passes.
 *
 * A stall cannot hide: each iteration's length (from the end of the last
 * to after this one's quiescent report, the time asleep in ppoll left
 * out) is counted in a histogram of power-of-two microsecond buckets
 * (config/vsw_iter_hist.h) and kept if it is the longest since the last
 * stats/clear, from the TSC read that ends each iteration (the busy/idle
 * split made it already).
 */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_prefetch.h>

#include "common/debug.h"
#include "frame.h"
#include "vlan.h"
#include "guard.h"
#include "txbuf.h"
#include "common/log.h"

#define DROPPED 0xff

_Static_assert(VSW_MAX_PORTS <= 0xff && VSW_PORT_EP_MAX <= VSW_FDB_EP_MAX,
	       "an FDB owner holds a port id and an endpoint (fdb.h)");
#define PREFETCH_AHEAD 4
#define MAX_SLEEP_FDS 64

/*
 * Where a frame enters, past the fast test: a runt or a multicast source,
 * an offloaded frame's checks (its mtu rule is its segments'), the mtu,
 * port security.  VSW_DROP_MAX: it goes on.
 */
static inline enum vsw_drop_reason rx_check(struct vsw_port_ctrs *ic,
					    const struct vsw_table_port *ip,
					    struct rte_mbuf *m, uint8_t cls,
					    uint64_t src_key,
					    struct guard_cache *gc)
{
	enum vsw_drop_reason r;

	if (cls == VSW_FRAME_RUNT)
		return VSW_DROP_RUNT;
	if (cls == VSW_FRAME_SRC_MULTICAST)
		return VSW_DROP_SRC_MULTICAST;
	if (unlikely(vsw_offload_rx_wants(m))) {
		r = vsw_offload_in(m, ip->max_frame);
		if (r != VSW_DROP_MAX)
			return r;
		ic->offload_rx++;
	} else if (m->pkt_len > ip->max_frame) {
		return VSW_DROP_OVERSIZE;
	}
	return ip->guard ? guard(ip, m, src_key, gc) : VSW_DROP_MAX;
}

/* The ports a frame from @in is flooded to: every up port but @in. */
struct flood_set {
	int16_t k;	 /* -1: not computed yet for this burst */
	uint16_t v;	 /* with VLANs: the VLAN it was computed for */
	int16_t n_untag; /* with VLANs: outs[0..n_untag) send v untagged */
	uint16_t outs[VSW_MAX_PORTS];
};

static void flood_set_fill(struct flood_set *fs, const struct vsw_table *dp,
			   uint16_t in)
{
	fs->k = 0;
	for (uint16_t i = 0; i < dp->n_flood; i++) {
		uint16_t id = dp->flood[i];

		if (id != in && vsw_port_is_up(dp->ports[id]))
			fs->outs[fs->k++] = id;
	}
}

/*
 * Flood @m: one reference per copy, on every segment (test 21_jumbo_flood; a chain's
 * tail must outlive every copy, not just the first one freed); the set is
 * computed once per burst.
 */
static void flood(struct vsw_worker *w, const struct vsw_table *dp, uint16_t in,
		  struct rte_mbuf *m, uint64_t now, struct flood_set *fs)
{
	if (fs->k < 0)
		flood_set_fill(fs, dp, in);
	if (fs->k == 0) {
		drop_pkt(&w->ctrs[in], VSW_DROP_NO_PORT, m);
		return;
	}
	if (unlikely(dp->endpoints))
		m->hash.usr = 0; /* to every endpoint (port.h) */
	w->ctrs[in].flooded++;
	w->ctrs[in].flood_copies += (uint64_t)fs->k;
	if (fs->k > 1)
		rte_pktmbuf_refcnt_update(m, (int16_t)(fs->k - 1));
	for (int16_t i = 0; i < fs->k; i++)
		append(w, dp, fs->outs[i], m, now);
}

/*
 * Give @m (one reference) to the @k ports @outs, as action @a makes it
 * (vlan.h); a frame that cannot be tagged is dropped for each of them.
 */
static inline void vlan_give(struct vsw_worker *w, const struct vsw_table *dp,
			     const uint16_t *outs, int16_t k,
			     struct rte_mbuf *m, enum vsw_vlan_act a,
			     uint16_t v, uint64_t now)
{
	if (k <= 0 || m == NULL || !vsw_vlan_apply(m, a, v)) {
		for (int16_t i = 0; i < k; i++)
			w->ctrs[outs[i]].drops[VSW_DROP_VLAN_NO_ROOM]++;
		rte_pktmbuf_free(m); /* (NULL-safe) */
		return;
	}
	if (k > 1)
		rte_pktmbuf_refcnt_update(m, (int16_t)(k - 1));
	for (int16_t i = 0; i < k; i++)
		append(w, dp, outs[i], m, now);
}

/*
 * Flood @m of VLAN @v: to the VLAN's other up ports; those that send it
 * untagged and those that send it tagged get one frame each (a copy when
 * both are there).
 */
static void flood_vlan(struct vsw_worker *w, const struct vsw_table *dp,
		       uint16_t in, struct rte_mbuf *m, uint16_t v,
		       uint64_t now, struct flood_set *fs)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	enum vsw_vlan_act au, at;
	bool chains;
	int16_t nu, nt;

	if (fs->k < 0 || fs->v != v) {
		fs->k = vsw_vlan_flood_set(dp, in, v, fs->outs, &fs->n_untag);
		fs->v = v;
	}
	if (fs->k == 0) {
		drop_pkt(&w->ctrs[in], VSW_DROP_NO_PORT, m);
		return;
	}
	if (unlikely(dp->endpoints))
		m->hash.usr = 0; /* to every endpoint (port.h) */
	w->ctrs[in].flooded++;
	w->ctrs[in].flood_copies += (uint64_t)fs->k;
	nu = fs->n_untag;
	nt = (int16_t)(fs->k - nu);
	au = vsw_vlan_action(d, v, true);
	at = vsw_vlan_action(d, v, false);
	if (nu == 0 || nt == 0 || au == at) {
		vlan_give(w, dp, fs->outs, fs->k, m, nu ? au : at, v, now);
		return;
	}
	/* the copy first: vlan_give changes m */
	chains = true;
	for (int16_t i = nu; i < fs->k && m->pkt_len > dp->fast_len; i++)
		chains &= dp->pp[fs->outs[i]].tx_chains;
	vlan_give(w, dp, fs->outs + nu, nt,
		  rte_pktmbuf_copy(m, vsw_copy_pool_for(dp, m, chains), 0,
				   UINT32_MAX),
		  at, v, now);
	vlan_give(w, dp, fs->outs, nu, m, au, v, now);
}

/*
 * Forward one received burst.  This is the per-packet hot path, kept in one
 * function so that the three passes (parse+learn, bulk lookup, output) share
 * their arrays on the stack: first classify every packet and collect the
 * sources and unicast destinations (a run of one address counts once),
 * prefetching each one's FDB bucket as soon as it is known so that the
 * misses of a large FDB overlap the parsing, then learn the sources and
 * look up the destinations, then append each packet to its output
 * buffer(s).  Compiled twice, with and without VLANs (@vlans a constant), so that a table
 * without them runs the plain path with no VLAN test at all.
 */
static inline __attribute__((always_inline)) void
forward_burst_t(struct vsw_worker *w, const struct vsw_table *dp, uint16_t in,
		struct rte_mbuf **pkts, uint16_t n, uint32_t now_s,
		uint64_t now, const bool vlans)
{
	struct vsw_port_ctrs *ic = &w->ctrs[in];
	const struct vsw_table_port *ip = &dp->pp[in];
	uint64_t keys[VSW_BURST_MAX], vals[VSW_BURST_MAX], srcs[VSW_BURST_MAX];
	uint64_t sh[VSW_BURST_MAX], dh[VSW_BURST_MAX]; /* their FDB hashes */
	uint8_t cls[VSW_BURST_MAX], uidx[VSW_BURST_MAX];
	uint16_t vid[VSW_BURST_MAX];	/* with VLANs: each frame's VLAN */
	uint16_t owners[VSW_BURST_MAX]; /* @in with endpoints: each source's */
	uint64_t last_src = 0, last_dst = 0;
	uint16_t last_owner = in;
	struct guard_cache gc = {0, 0};
	enum vsw_drop_reason r = VSW_DROP_MAX;
	unsigned int nu = 0, ns = 0;
	struct flood_set fs;
	struct vsw_frame f;

	for (uint16_t i = 0; i < n && i < PREFETCH_AHEAD; i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	fs.k = -1; /* (no initializer: it would zero outs[] every burst) */
	ic->rx_packets += n;
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (i + PREFETCH_AHEAD < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + PREFETCH_AHEAD],
						       void *));
		VSW_CHECK_MBUF(m, "rx");
		ic->rx_bytes += m->pkt_len;
		cls[i] = (uint8_t)vsw_frame_parse(
			rte_pktmbuf_mtod(m, const uint8_t *), m->data_len, &f);
		if (unlikely(cls[i] >= VSW_FRAME_RUNT ||
			     m->pkt_len > ip->max_frame || ip->guard ||
			     vsw_offload_rx_wants(m)) &&
		    (r = rx_check(ic, ip, m, cls[i], f.src_key, &gc)) !=
			    VSW_DROP_MAX) {
			drop_pkt(ic, r, m);
			cls[i] = DROPPED;
			continue;
		}
		if (vlans) {
			int r = vsw_vlan_in(
				dp, in, rte_pktmbuf_mtod(m, const uint8_t *),
				m->data_len, &f, &vid[i]);

			if (r >= 0) {
				drop_pkt(ic, (enum vsw_drop_reason)r, m);
				cls[i] = DROPPED;
				continue;
			}
		}
		if (unlikely(ip->endpoints)) {
			/* learned with the endpoint it came from (port.h) */
			uint16_t o =
				vsw_fdb_owner(in, m->hash.usr <= VSW_PORT_EP_MAX
							  ? (uint8_t)m->hash.usr
							  : 0);

			if (o != last_owner) {
				last_src = 0;
				last_owner = o;
			}
			owners[ns] = o;
		}
		if (f.src_key != last_src) {
			sh[ns] = vsw_fdb_prefetch(w->fdb, f.src_key);
			srcs[ns++] = f.src_key;
			last_src = f.src_key;
		}
		if (cls[i] == VSW_FRAME_UNICAST) {
			/* a run of one destination is looked up once */
			if (f.dst_key != last_dst) {
				dh[nu] = vsw_fdb_prefetch(w->fdb, f.dst_key);
				keys[nu++] = f.dst_key;
				last_dst = f.dst_key;
			}
			uidx[i] = (uint8_t)(nu - 1);
		}
	}
	if (ns > 0) {
		uint64_t limited = w->fdbst.limited;

		if (unlikely(ip->endpoints))
			vsw_fdb_learn_owners(w->fdb, srcs, sh, owners, ns,
					     now_s, &w->fdbst);
		else
			vsw_fdb_learn_hashed(w->fdb, srcs, sh, ns, in, now_s,
					     &w->fdbst);
		ic->macs_limited += w->fdbst.limited - limited;
	}
	if (nu > 0)
		vsw_fdb_lookup_hashed(w->fdb, keys, dh, nu, vals);
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint16_t out;

		if (cls[i] == DROPPED)
			continue;
		out = cls[i] == VSW_FRAME_UNICAST && vals[uidx[i]] != 0
			      ? vsw_fdb_val_port(vals[uidx[i]])
			      : VSW_MAX_PORTS;
		if (out == in) {
			drop_pkt(ic, VSW_DROP_HAIRPIN, m);
		} else if (out >= VSW_MAX_PORTS || dp->ports[out] == NULL ||
			   (vlans && !(dp->vlan_ports[vid[i]] >> out & 1))) {
			/* not known, or stale (port removed, no longer in the
			 * VLAN): a flood, under the storm limits (a stale
			 * entry's unicast as an unknown one) */
			if (unlikely(ip->storm) &&
			    (r = storm_over(w, ip, in, cls[i], now)) !=
				    VSW_DROP_MAX)
				drop_pkt(ic, r, m);
			else if (vlans)
				flood_vlan(w, dp, in, m, vid[i], now, &fs);
			else
				flood(w, dp, in, m, now, &fs);
		} else {
			ic->unicast++;
			if (unlikely(dp->pp[out].endpoints))
				m->hash.usr = vsw_fdb_val_ep(vals[uidx[i]]);
			if (vlans) /* tagged or not as @out wants */
				vlan_give(
					w, dp, &out, 1, m,
					vsw_vlan_action(
						rte_pktmbuf_mtod(m, uint8_t *),
						vid[i],
						dp->pp[out].untag_vid ==
							vid[i]),
					vid[i], now);
			else
				append(w, dp, out, m, now);
		}
	}
}

static __attribute__((noinline)) void
forward_burst_vlans(struct vsw_worker *w, const struct vsw_table *dp,
		    uint16_t in, struct rte_mbuf **pkts, uint16_t n,
		    uint32_t now_s, uint64_t now)
{
	forward_burst_t(w, dp, in, pkts, n, now_s, now, true);
}

/* The worker's clock: the TSC, or the unit test's fake time. */
static inline uint64_t wnow(const struct vsw_worker *w)
{
	return likely(w->fake_tsc == 0) ? rte_rdtsc() : w->fake_tsc;
}

/*
 * Flush every buffer (@all) or those whose port may flush at @now: its
 * last flush an interval old, or (tx-flush-adaptive) waiting has gathered
 * nothing for it lately.  A buffer that must wait notes what it holds
 * (wait_n): its flush tells whether waiting gathered more (txbuf.c
 * flush_adapt).  Waiting buys fewer, fuller bursts (fewer calls to a
 * guest) only when frames come while it waits; a request/response flow
 * sends its next frame after the answer to this one, so for it every
 * wait is a full interval added to each round trip, one frame a call
 * either way.
 */
static void flush_due(struct vsw_worker *w, const struct vsw_table *dp,
		      uint64_t now, bool all)
{
	uint64_t d = w->dirty;

	while (d != 0) {
		uint16_t id = (uint16_t)__builtin_ctzll(d);
		struct vsw_txbuf *b = &w->txb[id];

		d &= d - 1;
		if (all || now - b->last_tsc >= dp->par.flush_tsc) {
			vsw_flush_port(w, dp, id, now);
		} else if (dp->par.flush_adaptive && b->early != 0 &&
			   b->early < 1u << b->probe) {
			w->ctrs[id].tx_flushes_early++;
			vsw_flush_port(w, dp, id, now);
		} else if (dp->par.flush_adaptive && b->wait_n == 0) {
			b->wait_n = b->n;
		}
	}
}

/* Does @next keep every rx queue @dp gave worker @wi?  (A queue moved
 * away: its flows' next frames leave from another worker, which must not
 * overtake what this one holds.) */
static bool queues_kept(const struct vsw_table *dp,
			const struct vsw_table *next, unsigned int wi)
{
	for (uint16_t i = 0; i < dp->wk[wi].n; i++) {
		uint16_t j = 0;

		while (j < next->wk[wi].n &&
		       (next->wk[wi].rxq[j].port != dp->wk[wi].rxq[i].port ||
			next->wk[wi].rxq[j].q != dp->wk[wi].rxq[i].q))
			j++;
		if (j == next->wk[wi].n)
			return false;
	}
	return true;
}

/* Flush every buffer of @dp before moving to table @next (NULL: the
 * exit): what a port of both keeps holding waits for @next's flushes,
 * unless a queue of this worker moved away (the table rule, table.h:
 * a moved flow is not reordered). */
static void flush_switch(struct vsw_worker *w, const struct vsw_table *dp,
			 const struct vsw_table *next, uint64_t now)
{
	uint64_t d = w->dirty;

	if (next != NULL && !queues_kept(dp, next, w->idx))
		next = NULL;
	while (d != 0) {
		uint16_t id = (uint16_t)__builtin_ctzll(d);

		d &= d - 1;
		vsw_flush_port_switch(w, dp, next, id, now);
	}
}

/* One pass over the worker's rx queues; returns packets received. */
static uint32_t poll_once(struct vsw_worker *w, const struct vsw_table *dp,
			  uint32_t now_s)
{
	struct rte_mbuf *pkts[VSW_BURST_MAX];
	uint64_t t0 = wnow(w), t1;
	uint32_t total = 0;

	for (uint16_t i = 0; i < dp->wk[w->idx].n; i++) {
		const struct vsw_rxq_ref *r = &dp->wk[w->idx].rxq[i];
		struct vsw_port *p = dp->ports[r->port];
		uint16_t n;

		if (p == NULL || !vsw_port_is_up(p))
			continue;
		n = p->ops->rx(p, r->q, pkts, dp->par.burst);
		if (n == 0)
			continue;
		/* the one test a burst pays when nobody captures */
		if (unlikely(dp->pp[r->port].cap_rx != NULL))
			vsw_capture_burst(dp->pp[r->port].cap_rx, w->idx, pkts,
					  n, VSW_CAPTURE_RX);
		if (dp->vlans)
			forward_burst_vlans(w, dp, r->port, pkts, n, now_s, t0);
		else
			forward_burst_t(w, dp, r->port, pkts, n, now_s, t0,
					false);
		t1 = wnow(w);
		w->rxq[r->port][r->q].packets += n;
		w->rxq[r->port][r->q].cycles += t1 - t0;
		t0 = t1;
		total += n;
	}
	flush_due(w, dp, t0, dp->par.flush_tsc == 0);
	return total;
}

/*
 * poll_once and flush_due for the unit test (tests/unit/test_datapath.c),
 * which gives the worker its FDB here; vsw_worker_main gives it the
 * runtime's (w->rt->fdb).
 */
uint32_t vsw_worker_poll(struct vsw_worker *w, const struct vsw_table *dp,
			 struct vsw_fdb *fdb, uint32_t now_s)
{
	w->fdb = fdb;
	return poll_once(w, dp, now_s);
}

void vsw_worker_flush(struct vsw_worker *w, const struct vsw_table *dp,
		      uint64_t now, bool all)
{
	flush_due(w, dp, now, all);
}

void vsw_worker_flush_switch(struct vsw_worker *w, const struct vsw_table *dp,
			     const struct vsw_table *next, uint64_t now)
{
	flush_switch(w, dp, next, now);
}

/* Arm notifications on every owned queue; returns fds to wait on. */
static int arm_queues(const struct vsw_table *dp, const struct vsw_worker *w,
		      struct pollfd *fds, bool on)
{
	int nfds = 0;

	for (uint16_t i = 0; i < dp->wk[w->idx].n; i++) {
		const struct vsw_rxq_ref *r = &dp->wk[w->idx].rxq[i];
		struct vsw_port *p = dp->ports[r->port];
		int fd;

		if (p == NULL || !vsw_port_is_up(p))
			continue;
		/* a queue that cannot notify is polled after max-sleep-us */
		fd = p->ops->rx_notify ? p->ops->rx_notify(p, r->q, on) : -1;
		if (fd >= 0 && on && nfds < MAX_SLEEP_FDS)
			fds[nfds++] =
				(struct pollfd){.fd = fd, .events = POLLIN};
	}
	return nfds;
}

/* Read the kicks that woke us so they do not wake the next sleep. */
static void drain_queues(const struct vsw_table *dp, struct vsw_worker *w)
{
	for (uint16_t i = 0; i < dp->wk[w->idx].n; i++) {
		const struct vsw_rxq_ref *r = &dp->wk[w->idx].rxq[i];
		struct vsw_port *p = dp->ports[r->port];

		if (p != NULL && vsw_port_is_up(p) && p->ops->rx_drain)
			w->rxq[r->port][r->q].kicks +=
				p->ops->rx_drain(p, r->q, false);
	}
}

/*
 * Adaptive idle: arm, poll once more (a packet may have slipped in before
 * arming), then sleep offline.  Returns after waking, online again, with
 * the TSC cycles spent in ppoll (0: it did not sleep), which the caller
 * leaves out of the next iteration: only the sleep itself is not part of
 * an iteration, the arming, that last poll and the draining after it are.
 */
static uint64_t idle_sleep(struct vsw_worker *w, const struct vsw_table *dp)
{
	struct pollfd fds[MAX_SLEEP_FDS];
	struct timespec ts;
	uint64_t t0, slept;
	int nfds, rc;

	nfds = arm_queues(dp, w, fds, true);
	if (poll_once(w, dp, w->rt->now_s) > 0) {
		arm_queues(dp, w, fds, false);
		w->last_rx_tsc = rte_rdtsc();
		return 0;
	}
	ts.tv_sec = dp->par.max_sleep_us / 1000000;
	ts.tv_nsec = (long)(dp->par.max_sleep_us % 1000000) * 1000;
	rte_rcu_qsbr_thread_offline(w->rt->qs, w->lcore);
	t0 = rte_rdtsc();
	rc = ppoll(fds, (nfds_t)nfds, &ts, NULL);
	slept = rte_rdtsc() - t0;
	w->sleep_us += slept * 1000000 / rte_get_tsc_hz();
	w->sleeps++;
	if (rc > 0)
		w->wakeups_rx++;
	rte_rcu_qsbr_thread_online(w->rt->qs, w->lcore);
	/* Back online: the old table may be gone; reload it. */
	dp = __atomic_load_n(&w->rt->table, __ATOMIC_ACQUIRE);
	w->last_dp = NULL; /* nothing was buffered: we slept with dirty == 0 */
	drain_queues(dp, w);
	arm_queues(dp, w, fds, false);
	/*
	 * Woken by a guest: busy-poll again for idle-threshold-us.  Timed
	 * out: poll once and sleep again at once, so that an idle worker
	 * costs one short poll per max-sleep-us.
	 */
	if (rc > 0)
		w->last_rx_tsc = rte_rdtsc();
	return slept;
}

/*
 * Apply a stats/clear (rt->clear_gen moved): the histogram's base, the
 * longest iteration zeroed, then clear_seen published for readers.
 */
static void iter_clear(struct vsw_worker *w, uint32_t gen)
{
	memcpy(w->iter_base, w->iter_hist, sizeof(w->iter_base));
	w->iter_cycles_base = w->busy_cycles + w->idle_cycles;
	w->iter_max = 0;
	__atomic_store_n(&w->clear_seen, gen, __ATOMIC_RELEASE);
}

/*
 * Count one iteration of @cyc TSC cycles (@n packets received): busy or
 * idle, its histogram bucket, the longest.  A multiply, a lzcnt, an
 * increment and a compare on the worker's own first cache lines.
 */
static inline void iter_account(struct vsw_worker *w,
				const struct vsw_table *dp, uint32_t n,
				uint64_t cyc)
{
	if (n > 0) {
		w->busy_cycles += cyc;
		w->rx_packets += n;
	} else {
		w->idle_cycles += cyc;
	}
	w->iterations++;
	w->iter_hist[vsw_iter_bucket(vsw_iter_us(cyc, dp->par.iter_us_mul))]++;
	if (unlikely(cyc > w->iter_max))
		w->iter_max = cyc;
}

int vsw_worker_main(void *arg)
{
	struct vsw_worker *w = arg;
	uint64_t t0, t1;

	w->fdb = w->rt->fdb;
	rte_rcu_qsbr_thread_register(w->rt->qs, w->lcore);
	rte_rcu_qsbr_thread_online(w->rt->qs, w->lcore);
	VSW_LOG(INFO, "worker %u running on lcore %u", w->idx, w->lcore);
	t0 = rte_rdtsc();
	w->last_rx_tsc = t0;
	while (!__atomic_load_n(&w->rt->quit, __ATOMIC_RELAXED)) {
		const struct vsw_table *dp =
			__atomic_load_n(&w->rt->table, __ATOMIC_ACQUIRE);
		uint32_t gen =
			__atomic_load_n(&w->rt->clear_gen, __ATOMIC_RELAXED);
		uint32_t n;

		if (unlikely(gen != w->clear_seen))
			iter_clear(w, gen);
		if (dp != w->last_dp && w->last_dp != NULL) {
			flush_switch(w, w->last_dp, dp, t0);
			/* a queue moved here may still be armed by its last
			 * owner's sleep (it disarms only the queues of the
			 * table it wakes to): give it the port's setting */
			if (dp->par.poll_mode == VSW_POLL_ADAPTIVE)
				arm_queues(dp, w, NULL, false);
		}
		w->last_dp = dp;
		n = poll_once(w, dp, w->rt->now_s);
		/* test hook (VSW_TEST_QS_DELAY_US): stall before and after the
		 * report, so tables change mid-iteration and the old one is
		 * freed before the next; a late use of it would show */
		if (unlikely(w->rt->test_qs_delay_us != 0))
			rte_delay_us_sleep(w->rt->test_qs_delay_us);
		rte_rcu_qsbr_quiescent(w->rt->qs, w->lcore);
		if (unlikely(w->rt->test_qs_delay_us != 0))
			rte_delay_us_sleep(w->rt->test_qs_delay_us);
		/* the iteration ends here, its report included; an adaptive
		 * sleep below is not part of any (t0 moves past it) */
		t1 = rte_rdtsc();
		iter_account(w, dp, n, t1 - t0);
		if (n > 0)
			w->last_rx_tsc = t1;
		t0 = t1;
		if (dp->par.poll_mode == VSW_POLL_ADAPTIVE && w->dirty == 0 &&
		    t1 - w->last_rx_tsc > dp->par.idle_tsc)
			t0 += idle_sleep(w, dp);
	}
	if (w->last_dp != NULL)
		flush_switch(w, w->last_dp, NULL, rte_rdtsc());
	rte_rcu_qsbr_thread_offline(w->rt->qs, w->lcore);
	rte_rcu_qsbr_thread_unregister(w->rt->qs, w->lcore);
	return 0;
}
