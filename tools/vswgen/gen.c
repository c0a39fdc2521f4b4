/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vswgen data path: the frame template, building a burst (template copy,
 * then patch source MAC, flow, sequence and TSC), TSC pacing, RX accounting
 * (magic check, per-flow reorder/duplicate tracking, latency) and the
 * single-lcore trial loop: tx burst, rx burst, repeat; then drain.
 *
 * Frames are Ethernet (optionally 802.1Q) with ethertype 0x88b5 followed by
 * struct gen_hdr; the rest of the payload is not written (whatever the mbuf
 * held) unless --verify asks for the pattern of payload.c, which also
 * chains frames longer than one mbuf. Source MAC i of --macs N is flow
 * i % 1024; each flow has its own sequence numbers, so reordering is
 * judged per flow.
 *
 * Per-frame costs are kept small so that one lcore can feed a fast switch:
 * the template is copied as one fixed 64-byte block, the data of received
 * frames (written by the switch's core) is prefetched a few frames ahead,
 * latency is converted with a multiply instead of a division, and the
 * other ports are drained every GEN_DRAIN_EVERY passes only.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_random.h>

#include "vswgen.h"

/* Frames prefetched ahead in rx_account(). */
#define GEN_RX_PREFETCH 4
/*
 * Loop passes between two drains of the ports other than the rx port. A
 * pass sends at most one burst (<= GEN_MAX_BURST), so flood copies of 8
 * passes fit a 1024-entry ring at the default burst of 32.
 */
#define GEN_DRAIN_EVERY 8

static uint64_t mac_to_u64(const struct rte_ether_addr *m)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < RTE_ETHER_ADDR_LEN; i++)
		v = (v << 8) | m->addr_bytes[i];
	return v;
}

static void u64_to_mac(uint64_t v, uint8_t *p)
{
	int i;

	for (i = RTE_ETHER_ADDR_LEN - 1; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

/* The template must lie inside the shortest frame, and fit its block. */
_Static_assert(18 + sizeof(struct gen_hdr) <= GEN_MIN_SIZE,
	       "struct gen_hdr too long for a 60-byte tagged frame");
_Static_assert(GEN_MIN_SEG_ROOM >= sizeof(((struct gen_pair *)0)->tmpl),
	       "the template block must fit the first segment");

/*
 * Ethernet (+ 802.1Q) header and a zeroed gen_hdr with the fixed fields;
 * on the --vxlan port under the outer headers.
 */
static void build_template(struct gen_ctx *c, struct gen_pair *pp,
			   const struct rte_ether_addr *src,
			   const struct rte_ether_addr *dst)
{
	const struct gen_opts *o = c->o;
	uint8_t *p = pp->tmpl;
	struct gen_hdr h;
	uint16_t v;

	memset(pp->tmpl, 0, sizeof(pp->tmpl));
	pp->eth_off = 0;
	pp->len = o->size;
	if (o->vx_port >= 0 && pp->tx_port == o->vx_port) {
		gen_vx_outer(c, p, o->size);
		pp->eth_off = GEN_VXLAN_HDRS;
		pp->len = o->size + GEN_VXLAN_HDRS;
		p += GEN_VXLAN_HDRS;
	}
	memcpy(p, dst, RTE_ETHER_ADDR_LEN);
	memcpy(p + 6, src, RTE_ETHER_ADDR_LEN);
	p += 12;
	if (o->vlan >= 0) {
		v = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		memcpy(p, &v, 2);
		v = rte_cpu_to_be_16((uint16_t)o->vlan);
		memcpy(p + 2, &v, 2);
		p += 4;
	}
	v = rte_cpu_to_be_16(GEN_ETHERTYPE);
	memcpy(p, &v, 2);
	p += 2;
	pp->hdr_off = (uint16_t)(p - pp->tmpl);
	if (pp == &c->pair[0])
		c->hdr_off = pp->hdr_off;
	memset(&h, 0, sizeof(h));
	h.magic = GEN_MAGIC;
	h.run_id = c->run_id;
	h.flow = pp->flow; /* --lean frames keep it; others rewrite it */
	h.len = (uint16_t)o->size; /* the same for every frame: no cost */
	h.flags = o->verify ? GEN_HF_PATTERN : o->lean ? GEN_HF_LEAN : 0;
	memcpy(p, &h, sizeof(h));
	c->tmpl_len = pp->hdr_off + sizeof(h);
}

/* A pair's template into a frame: one fixed-size copy (64 or 128 bytes). */
static inline void copy_template(const struct gen_pair *pp, uint8_t *p)
{
	if (likely(pp->eth_off == 0))
		memcpy(p, pp->tmpl, 64);
	else
		memcpy(p, pp->tmpl, sizeof(pp->tmpl));
}

/* The port whose MAC a pair's frames carry as source. */
static int tx_mac_port(const struct gen_pair *pp)
{
	return pp->tx_port != GEN_PORT_NONE ? pp->tx_port : pp->rx_port;
}

struct lean_init {
	const struct gen_ctx *c;
	const struct gen_pair *pp;
};

/* --lean: one frame, written once into an mbuf of a pair's tx pool. */
static void lean_obj_init(struct rte_mempool *mp, void *arg, void *obj,
			  unsigned int idx)
{
	const struct lean_init *li = arg;
	struct rte_mbuf *m = obj;
	uint8_t *p = (uint8_t *)m->buf_addr + RTE_PKTMBUF_HEADROOM;

	(void)mp;
	(void)idx;
	memset(p, 0, m->buf_len - RTE_PKTMBUF_HEADROOM);
	if (li->c->o->tcp_mss > 0)
		gen_tcp_frame(li->c, li->pp, p);
	else
		copy_template(li->pp, p);
}

/*
 * Mbufs of a --lean pool: GEN_LEAN_MBUFS, or for --tcp super-frames as
 * many as 64 MiB holds but at least 2047 (132 MiB of 64 KiB frames): the
 * virtio PMD frees sent mbufs only when its 1024-entry ring needs room,
 * so a pool of a ring's worth would run dry.
 */
static unsigned int lean_count(uint32_t room)
{
	unsigned int n = 2047;

	while (n < GEN_LEAN_MBUFS && (uint64_t)(2 * n + 1) * room <= 64u << 20)
		n = 2 * n + 1;
	return n;
}

/*
 * --lean: a pool per sending pair whose frames are complete from the
 * start. Only the switch reads their data (vhost copies it out), so the
 * sender never writes a frame's cache lines again: per frame it resets the
 * mbuf header (its own line) and sets two lengths (and with --macs the
 * source MAC). Enough mbufs for a full
 * tx ring, bursts in flight and the lcore cache.
 */
static int lean_pools(struct gen_ctx *c)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	struct gen_pair *pp;
	uint16_t room;
	uint16_t i;

	struct lean_init li = {c, NULL};

	for (i = 0; i < c->npairs; i++) {
		pp = &c->pair[i];
		if (pp->tx_port < 0)
			continue;
		/* (at least the 128-byte template of a --vxlan frame) */
		room = (uint16_t)RTE_MIN(
			RTE_ALIGN_CEIL(RTE_PKTMBUF_HEADROOM +
					       RTE_MAX(pp->len, 128u),
				       64),
			UINT16_MAX);
		snprintf(name, sizeof(name), "vswgen-lean%u", i);
		pp->tx_mp =
			rte_pktmbuf_pool_create(name, lean_count(room), 256, 0,
						room, (int)rte_socket_id());
		if (pp->tx_mp == NULL) {
			fprintf(stderr,
				"vswgen: --lean: cannot create pool %s: %s\n",
				name, rte_strerror(rte_errno));
			return -1;
		}
		li.pp = pp;
		rte_mempool_obj_iter(pp->tx_mp, lean_obj_init, &li);
	}
	return 0;
}

int gen_ctx_init(struct gen_ctx *c)
{
	const struct gen_opts *o = c->o;
	struct rte_ether_addr src, dst;
	struct gen_pair *pp;
	uint16_t i;
	int port;

	c->hz = rte_get_tsc_hz();
	c->ns_per_cycle = 1e9 / (double)c->hz;
	c->run_id = (uint32_t)rte_rand();
	/* --pairs: one flow per pair (--macs 1). */
	c->nflows = o->pairs		      ? c->npairs
		    : o->macs < GEN_MAX_FLOWS ? o->macs
					      : GEN_MAX_FLOWS;
	c->seg_room = rte_pktmbuf_data_room_size(c->mp) - RTE_PKTMBUF_HEADROOM;
	c->tx_segs = gen_segs(o->size, c->seg_room);
	c->tx_slow = c->tx_segs > 1 || o->verify;
	c->flows = calloc(c->nflows, sizeof(*c->flows));
	if (c->flows == NULL)
		return -1;
	if (o->vx_port >= 0) {
		if (o->size + GEN_VXLAN_HDRS > c->seg_room) {
			fprintf(stderr,
				"vswgen: --vxlan: a %u-byte frame with its %u "
				"outer bytes does not fit one %u-byte mbuf "
				"(--mbuf-size)\n",
				o->size, GEN_VXLAN_HDRS, c->seg_room);
			return -1;
		}
		if (gen_vx_resolve(c) < 0)
			return -1;
	}
	for (i = 0; i < c->npairs; i++) {
		pp = &c->pair[i];
		port = tx_mac_port(pp);
		pp->flow = o->pairs ? i : 0;
		/* Two ports: send to the receiver's own address by default. */
		dst = o->dst_mac;
		if (!o->dst_mac_set && pp->rx_port >= 0 && pp->tx_port >= 0 &&
		    pp->rx_port != pp->tx_port)
			rte_eth_macaddr_get((uint16_t)pp->rx_port, &dst);
		memset(&src, 0, sizeof(src));
		if (o->src_mac_set)
			src = o->src_mac;
		else if (port >= 0)
			rte_eth_macaddr_get((uint16_t)port, &src);
		pp->src_base = mac_to_u64(&src);
		build_template(c, pp, &src, &dst);
	}
	return o->lean ? lean_pools(c) : 0;
}

/* After the ports are closed: their rings may hold --lean pools' mbufs. */
void gen_ctx_free(struct gen_ctx *c)
{
	uint16_t i;

	free(c->flows);
	c->flows = NULL;
	for (i = 0; i < c->npairs; i++) {
		rte_mempool_free(c->pair[i].tx_mp);
		c->pair[i].tx_mp = NULL;
	}
}

/* Iterates source MAC index and flow together without a division. */
struct mac_cursor {
	uint32_t mac;
	uint32_t flow;
};

static inline void cursor_next(const struct gen_ctx *c, struct mac_cursor *k)
{
	if (++k->mac == c->o->macs)
		k->mac = 0;
	if (++k->flow == c->nflows)
		k->flow = 0;
	if (k->mac == 0)
		k->flow = 0;
}

/*
 * Allocate and fill n frames. With hdr == false the frames are plain
 * announcements (no vswgen magic). Returns the number built (0 when the
 * pool is empty).
 */
static unsigned int build_burst(struct gen_ctx *c, const struct gen_pair *pp,
				struct rte_mbuf **m, unsigned int n,
				struct mac_cursor *k, bool hdr)
{
	const uint32_t size = pp->len;
	const uint64_t tsc = rte_rdtsc();
	const bool many = c->o->macs > 1;
	struct gen_hdr *h;
	unsigned int i;
	uint8_t *p;

	if (rte_pktmbuf_alloc_bulk(c->mp, m, n) != 0)
		return 0;
	for (i = 0; i < n; i++)
		rte_prefetch0(rte_pktmbuf_mtod(m[i], void *));
	for (i = 0; i < n; i++) {
		p = rte_pktmbuf_mtod(m[i], uint8_t *);
		/* Whole template: first segments hold >= GEN_MIN_SEG_ROOM. */
		copy_template(pp, p);
		m[i]->data_len = (uint16_t)size;
		m[i]->pkt_len = size;
		if (many)
			u64_to_mac(pp->src_base + k->mac, p + pp->eth_off + 6);
		h = (struct gen_hdr *)(p + pp->hdr_off);
		if (hdr) {
			h->trial = c->trial;
			h->flow = pp->flow + k->flow;
			h->seq = c->tx_seq[pp->flow + k->flow]++;
			h->tsc = tsc;
		} else {
			h->magic = 0;
			/* announcements are broadcasts */
			memset(p + pp->eth_off, 0xff, 6);
		}
		cursor_next(c, k);
	}
	/* One test per burst: 64-byte frames without --verify skip this. */
	if (unlikely(c->tx_slow))
		return gen_tx_complete(c, m, n, hdr);
	return n;
}

/* Send what was built; count and free what the ring did not take. */
static void send_burst(uint16_t port, struct rte_mbuf **m, unsigned int n,
		       struct trial_stats *s)
{
	uint16_t sent;

	sent = rte_eth_tx_burst(port, 0, m, (uint16_t)n);
	s->tx_packets += sent;
	if (sent < n) {
		s->tx_ring_full++;
		s->tx_dropped += n - sent;
		rte_pktmbuf_free_bulk(m + sent, n - sent);
	}
}

/* Receive and free everything waiting on every port but the skip set. */
static void drain_others(const struct gen_ctx *c, uint64_t skip)
{
	struct rte_mbuf *m[GEN_MAX_BURST];
	uint16_t p, n;

	for (p = 0; p < c->nb_ports; p++) {
		if (skip & (1ull << p))
			continue;
		n = gen_rx_burst(c, p, m, GEN_MAX_BURST);
		if (n > 0)
			rte_pktmbuf_free_bulk(m, n);
	}
}

/* A few 60-byte broadcasts from a port's own MAC, so a switch learns it. */
static void announce_port(struct gen_ctx *c, uint16_t port, uint32_t n)
{
	struct rte_mbuf *m[GEN_MAX_BURST];
	struct rte_ether_addr mac;
	uint16_t sent;
	uint8_t *p;

	n = n < GEN_MAX_BURST ? n : GEN_MAX_BURST;
	if (rte_pktmbuf_alloc_bulk(c->mp, m, n) != 0)
		return;
	rte_eth_macaddr_get(port, &mac);
	for (uint32_t i = 0; i < n; i++) {
		p = rte_pktmbuf_mtod(m[i], uint8_t *);
		m[i]->data_len = 60;
		if (c->o->vx_port == port) {
			gen_vx_outer(c, p, 60);
			p += GEN_VXLAN_HDRS;
			m[i]->data_len += GEN_VXLAN_HDRS;
		}
		m[i]->pkt_len = m[i]->data_len;
		memset(p, 0, 60);
		memset(p, 0xff, 6);
		memcpy(p + 6, &mac, 6);
		p[12] = 0x88; /* local experimental ethertype, no vswgen magic */
		p[13] = 0xb6;
	}
	sent = rte_eth_tx_burst(port, 0, m, (uint16_t)n);
	if (sent < n)
		rte_pktmbuf_free_bulk(m + sent, n - sent);
}

/* --announce frames from every source MAC of a pair, then its receiver. */
static void announce_pair(struct gen_ctx *c, const struct gen_pair *pp)
{
	struct rte_mbuf *m[GEN_MAX_BURST];
	struct trial_stats s;
	struct mac_cursor k = {0, 0};
	uint32_t left = c->o->announce, n;
	int port = tx_mac_port(pp);

	if (port < 0)
		return;
	memset(&s, 0, sizeof(s));
	if (c->o->tcp_mss > 0) { /* a --tcp frame is no announcement */
		announce_port(c, (uint16_t)port, left);
		left = 0;
	}
	while (left > 0 && !gen_stop) {
		n = left < c->o->burst ? left : c->o->burst;
		n = build_burst(c, pp, m, n, &k, false);
		if (n > 0)
			send_burst((uint16_t)port, m, n, &s);
		left -= n;
		drain_others(c, 0);
	}
	if (pp->rx_port >= 0 && pp->rx_port != pp->tx_port)
		announce_port(c, (uint16_t)pp->rx_port, c->o->announce);
}

void gen_announce(struct gen_ctx *c)
{
	uint64_t end;
	uint16_t i;

	if (c->o->announce == 0)
		return;
	for (i = 0; i < c->npairs && !gen_stop; i++)
		announce_pair(c, &c->pair[i]);
	end = rte_rdtsc() + c->hz / 10;
	while (rte_rdtsc() < end && !gen_stop) {
		drain_others(c, 0);
		usleep(1000);
	}
}

/* Move the window top to seq, clearing the bits of the skipped sequences. */
static void window_advance(struct flow_rx *f, uint64_t seq)
{
	uint64_t s;

	if (seq - f->top >= GEN_SEQ_WINDOW) {
		memset(f->win, 0, sizeof(f->win));
	} else {
		for (s = f->top; s < seq; s++)
			f->win[(s / 64) % (GEN_SEQ_WINDOW / 64)] &=
				~(1ull << (s % 64));
	}
	f->top = seq + 1;
}

/*
 * Per-flow sequence check. A sequence above the highest seen opens the
 * window up to it; a lower one is reordered, or a duplicate when its bit
 * in the last GEN_SEQ_WINDOW sequences is already set (an older one is
 * counted as reordered only: duplicates that far back are not detected).
 */
static void track_seq(struct flow_rx *f, uint64_t seq, struct trial_stats *s)
{
	uint64_t bit = 1ull << (seq % 64);
	uint64_t *w = &f->win[(seq / 64) % (GEN_SEQ_WINDOW / 64)];

	if (f->top == 0 || seq >= f->top) {
		window_advance(f, seq);
		*w |= bit;
		return;
	}
	if (f->top - 1 - seq >= GEN_SEQ_WINDOW) {
		s->reordered++;
		return;
	}
	if (*w & bit) {
		s->duplicates++;
		return;
	}
	*w |= bit;
	s->reordered++;
}

/* What a received frame is to the current trial. */
enum rx_kind {
	RX_FOREIGN, /* not a vswgen frame, or another run's we do not count */
	RX_STALE,   /* our run's, from an earlier trial */
	RX_OWN,	    /* our run's, this trial */
	RX_OTHER,   /* another run's, counted by an --rx-only receiver */
};

/*
 * Frames with the magic count as rx_packets: a sender counts only its own
 * run's (so loss stays exact when other traffic reaches its port); an
 * --rx-only receiver counts every vswgen's (the TSC is shared, so their
 * latency is valid too). Our own frames from an earlier trial (a search)
 * are stale, i.e. foreign.
 */
static inline enum rx_kind rx_classify(const struct gen_ctx *c,
				       const struct gen_hdr *h)
{
	if (h == NULL || h->magic != GEN_MAGIC)
		return RX_FOREIGN;
	if (h->run_id != c->run_id)
		return c->o->rx_only || c->tx_port == GEN_PORT_NONE
			       ? RX_OTHER
			       : RX_FOREIGN;
	if (h->trial != c->trial || h->flow >= c->nflows)
		return RX_STALE;
	return RX_OWN;
}

/*
 * --verify: check the frames rx_account() counted. A second pass over the
 * burst (headers still in cache) rather than a test per frame in the
 * plain path.
 */
static void rx_verify_burst(struct gen_ctx *c, struct rte_mbuf **m, uint16_t n,
			    struct trial_stats *s)
{
	const struct gen_hdr *h;
	enum rx_kind k;
	uint16_t i;

	for (i = 0; i < n; i++) {
		h = find_hdr(m[i]);
		k = rx_classify(c, h);
		if (k == RX_OWN || k == RX_OTHER)
			gen_rx_verify(c, m[i], h, s);
	}
}

/*
 * Account one received burst (see rx_classify() for what counts).
 * Sequence tracking only for our own run. Chained frames: the header must
 * be in the first segment (find_hdr), lengths are pkt_len, free_bulk
 * frees whole chains.
 */
static void rx_account(struct gen_ctx *c, struct rte_mbuf **m, uint16_t n,
		       struct trial_stats *s)
{
	const uint64_t now = rte_rdtsc();
	const struct gen_hdr *h;
	uint16_t i, segs_max = 0;
	enum rx_kind k;
	uint64_t tsc;

	s->rx_total += n;
	for (i = 0; i < n && i < GEN_RX_PREFETCH; i++)
		rte_prefetch0(rte_pktmbuf_mtod(m[i], void *));
	for (i = 0; i < n; i++) {
		if (i + GEN_RX_PREFETCH < n)
			rte_prefetch0(rte_pktmbuf_mtod(m[i + GEN_RX_PREFETCH],
						       void *));
		h = find_hdr(m[i]);
		k = rx_classify(c, h);
		if (k == RX_FOREIGN)
			continue;
		if (k == RX_STALE) {
			s->rx_stale++;
			continue;
		}
		if (k == RX_OWN)
			track_seq(&c->flows[h->flow], h->seq, s);
		s->rx_packets++;
		s->rx_l1_bytes += m[i]->pkt_len + GEN_L1_OVERHEAD;
		/* nb_segs shares pkt_len's cache line; the max stays in a
		 * register until the end of the burst.
		 */
		segs_max = RTE_MAX(segs_max, m[i]->nb_segs);
		if (unlikely(h->flags & GEN_HF_LEAN))
			continue; /* another vswgen's: no time stamp */
		tsc = h->tsc;
		hist_add(&s->lat, now > tsc ? (uint64_t)((double)(now - tsc) *
							 c->ns_per_cycle)
					    : 0);
	}
	if (segs_max > s->rx_segs_max)
		s->rx_segs_max = segs_max;
	if (unlikely(c->o->verify))
		rx_verify_burst(c, m, n, s);
	rte_pktmbuf_free_bulk(m, n);
}

/*
 * --lean receive: count frames and bytes from the mbuf headers (the
 * receive path has just written them) and free; the frame data, written
 * by the switch's core, is never read. Everything on a receiving port
 * counts: announcements are over before a trial starts.
 */
static void rx_count_lean(const struct gen_ctx *c, struct rte_mbuf **m,
			  uint16_t n, struct trial_stats *s)
{
	uint64_t bytes = 0;
	uint16_t i;

	for (i = 0; i < n; i++)
		bytes += m[i]->pkt_len;
	if (c->o->tcp_mss > 0) { /* --tcp: every frame has 54 B of headers */
		for (i = 0; i < n; i++) {
			if (m[i]->pkt_len > s->rx_len_max)
				s->rx_len_max = m[i]->pkt_len;
			if (m[i]->pkt_len > GEN_TCP_HDRS)
				s->rx_tcp_payload +=
					m[i]->pkt_len - GEN_TCP_HDRS;
			if (m[i]->nb_segs > s->rx_segs_max)
				s->rx_segs_max = m[i]->nb_segs;
		}
	}
	s->rx_total += n;
	s->rx_packets += n;
	s->rx_l1_bytes += bytes + (uint64_t)n * GEN_L1_OVERHEAD;
	rte_pktmbuf_free_bulk(m, n);
}

void gen_send_burst(struct gen_ctx *c, struct rte_mbuf **m, unsigned int n,
		    struct trial_stats *s)
{
	send_burst((uint16_t)c->tx_port, m, n, s);
}

/* TX pacing state of one pair in one trial. */
struct pacer {
	uint64_t start;
	double per_cycle; /* packets per TSC cycle; 0: unpaced */
	uint64_t attempted;
	uint64_t skipped; /* given up when vswgen itself fell behind */
	uint64_t limit;	  /* 0: none */
	uint64_t max_debt;
	struct mac_cursor k;
};

/*
 * --lean: n prebuilt frames of the pair's pool; 0 when it is empty. With
 * --macs N the source MAC is the one write into a frame.
 */
static unsigned int lean_burst(const struct gen_ctx *c,
			       const struct gen_pair *pp, struct rte_mbuf **m,
			       unsigned int n, struct mac_cursor *k)
{
	const uint32_t size = pp->len;
	unsigned int i;

	if (rte_pktmbuf_alloc_bulk(pp->tx_mp, m, n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		m[i]->data_len = (uint16_t)size;
		m[i]->pkt_len = size;
	}
	if (c->o->tcp_mss > 0)
		gen_tcp_tx_prep(c, m, n);
	if (c->o->macs > 1) {
		for (i = 0; i < n; i++) {
			u64_to_mac(pp->src_base + k->mac,
				   rte_pktmbuf_mtod(m[i], uint8_t *) +
					   pp->eth_off + 6);
			if (++k->mac == c->o->macs)
				k->mac = 0;
		}
	}
	return n;
}

/* One TX step of a pair: send a burst if its pacer says it is due. */
static void tx_step(struct gen_ctx *c, const struct gen_pair *pp,
		    struct pacer *pc, uint64_t now, struct trial_stats *s)
{
	struct rte_mbuf *m[GEN_MAX_BURST];
	uint64_t want = c->o->burst, due;
	unsigned int n;

	if (pc->limit && pc->limit - pc->attempted < want)
		want = pc->limit - pc->attempted;
	if (want == 0)
		return;
	if (pc->per_cycle > 0) {
		due = (uint64_t)((double)(now - pc->start) * pc->per_cycle);
		if (due < pc->attempted + pc->skipped + want)
			return;
		/*
		 * Behind by more than a few bursts: vswgen was not running
		 * (its CPU is shared). Catching up at full speed would offer
		 * the switch a burst far above the rate under test, and the
		 * tx ring it overflows would count as the switch's loss; the
		 * debt is given up instead (tx_skipped) and the measured rate
		 * is what was sent.
		 */
		if (due > pc->attempted + pc->skipped + pc->max_debt) {
			s->tx_skipped += due - pc->max_debt - pc->attempted -
					 pc->skipped;
			pc->skipped = due - pc->max_debt - pc->attempted;
		}
	}
	if (pp->tx_mp != NULL)
		n = lean_burst(c, pp, m, (unsigned int)want, &pc->k);
	else
		n = build_burst(c, pp, m, (unsigned int)want, &pc->k, true);
	if (n == 0)
		return;
	send_burst((uint16_t)pp->tx_port, m, n, s);
	pc->attempted += n;
}

/* Every pair's --count reached (false without --count). */
static bool pacers_done(const struct pacer *pc, uint16_t n)
{
	uint16_t i;

	if (pc[0].limit == 0)
		return false;
	for (i = 0; i < n; i++)
		if (pc[i].attempted < pc[i].limit)
			return false;
	return true;
}

static void progress_line(const struct gen_ctx *c, const struct trial_stats *s,
			  const struct trial_stats *last, double dt)
{
	double tx = (double)(s->tx_packets - last->tx_packets) / dt / 1e6;
	double rx = (double)(s->rx_packets - last->rx_packets) / dt / 1e6;
	double loss = 0;

	if (s->tx_packets > 0 && s->tx_packets > s->rx_packets)
		loss = 100.0 * (double)(s->tx_packets - s->rx_packets) /
		       (double)s->tx_packets;
	(void)c;
	printf("tx %8.3f Mpps  rx %8.3f Mpps  loss %6.3f%%  (drops at tx "
	       "%" PRIu64 ")\n",
	       tx, rx, loss, s->tx_dropped);
	fflush(stdout);
}

void gen_reset_trial(struct gen_ctx *c, struct trial_stats *s)
{
	memset(s, 0, offsetof(struct trial_stats, lat));
	hist_reset(&s->lat);
	memset(c->tx_seq, 0, sizeof(c->tx_seq));
	memset(c->flows, 0, c->nflows * sizeof(*c->flows));
	c->trial++;
}

/*
 * One trial: for `duration` seconds (or until --count frames per pair)
 * send at `rate` (0: as fast as the rings take them; with --pairs the
 * total, split evenly) when `send`, receive all the time, then keep
 * receiving --drain-ms. TX and RX share this lcore: each pass does, pair
 * after pair, one tx step and one rx burst. The loop is kept in one
 * function so the hot path has no indirect calls.
 */
void gen_run_trial(struct gen_ctx *c, uint64_t rate, double duration, bool send,
		   struct trial_stats *s)
{
	struct rte_mbuf *m[GEN_MAX_BURST];
	struct pacer pc[GEN_MAX_PAIRS];
	const bool lean = c->o->lean;
	const struct gen_pair *pp;
	struct trial_stats last;
	uint64_t now, start, tx_end, drain_end = 0, next_sec, rx_sec = 0;
	bool tx_open = true;
	uint32_t pass = 0;
	uint16_t n, got, i;

	gen_reset_trial(c, s);
	memset(pc, 0, sizeof(pc[0]) * c->npairs);
	memset(&last, 0, offsetof(struct trial_stats, lat));
	start = rte_rdtsc();
	for (i = 0; i < c->npairs; i++) {
		pc[i].limit = c->o->count;
		pc[i].per_cycle = (double)rate / c->npairs / (double)c->hz;
		pc[i].start = start;
		pc[i].max_debt = 4ull * c->o->burst;
	}
	tx_end = start + (uint64_t)(duration * (double)c->hz);
	next_sec = start + c->hz;
	for (;;) {
		now = rte_rdtsc();
		if (tx_open && (now >= tx_end || gen_cut_short() ||
				pacers_done(pc, c->npairs))) {
			tx_open = false;
			tx_end = now; /* (cut short: the window's end) */
			s->duration_s = (double)(now - start) / (double)c->hz;
			drain_end = now + c->hz * c->o->drain_ms / 1000;
		}
		if (!tx_open && (now >= drain_end || gen_stop))
			break;
		got = 0;
		for (i = 0; i < c->npairs; i++) {
			pp = &c->pair[i];
			if (tx_open && send && pp->tx_port >= 0)
				tx_step(c, pp, &pc[i], now, s);
			if (pp->rx_port < 0)
				continue;
			n = gen_rx_burst(c, (uint16_t)pp->rx_port, m,
					 GEN_MAX_BURST);
			if (n == 0)
				continue;
			got += n;
			if (lean)
				rx_count_lean(c, m, n, s);
			else
				rx_account(c, m, n, s);
		}
		if (c->rx_ports && (++pass % GEN_DRAIN_EVERY) == 0)
			drain_others(c, c->rx_ports);
		if (got == 0 && c->o->poll_sleep_us)
			rte_delay_us_sleep(c->o->poll_sleep_us);
		if (now < next_sec)
			continue;
		/* a second of the window: what came in it, and --progress */
		if (next_sec <= tx_end && s->n_secs < GEN_SECONDS_MAX)
			s->rx_by_s[s->n_secs++] =
				(uint32_t)(s->rx_packets - rx_sec);
		rx_sec = s->rx_packets;
		if (c->progress) {
			progress_line(c, s, &last, 1.0);
			memcpy(&last, s, offsetof(struct trial_stats, lat));
		}
		next_sec += c->hz;
	}
}
