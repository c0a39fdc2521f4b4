/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vswgen loops that are not the streaming trial of gen.c: request/response
 * (--rr N, like netperf TCP_RR), the responder (--reflect) and a receiver
 * (--rx-only) whose rx queue may be interrupt driven (--rx-mode interrupt).
 * None of this runs in the default mode; gen.c's send loop is untouched.
 *
 * Interrupt mode drives the rx queue as a guest kernel's NAPI driver does:
 * poll while frames come; on an empty poll arm the queue's interrupt
 * (virtio: clear VRING_AVAIL_F_NO_INTERRUPT / set used_event), poll once
 * more for a frame that came before arming, sleep in epoll on the queue's
 * eventfd (virtio-user: the vring's callfd, which vsw writes to "call" the
 * guest), disarm, poll again. The switch then sees a guest that wants
 * interrupts, as it would a kernel guest.
 *
 * Requester: N slots, each with one request in flight. A response (the
 * frame back, matched by run id, trial, slot and sequence) completes a
 * transaction; its round-trip time goes into the latency histogram and
 * the slot's next request goes out at once. A slot unanswered for
 * --rr-timeout-ms re-sends with the next sequence (rr_timeouts); its late
 * response, if any, is counted as rr_late and not timed.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_mbuf.h>

#include "vswgen.h"

#define RR_MAX_WAIT_MS 100 /* longest sleep: the stop flag is seen then */

struct rr_slot {
	uint64_t seq;  /* sequence of the request in flight */
	uint64_t sent; /* TSC it was sent at */
};

bool gen_rr_mode(const struct gen_opts *o)
{
	return o->rr > 0 || o->reflect || o->rx_intr;
}

int gen_rx_intr_setup(struct gen_ctx *c)
{
	int rc;

	if (!c->o->rx_intr)
		return 0;
	rc = rte_eth_dev_rx_intr_ctl_q((uint16_t)c->rx_port, 0,
				       RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD,
				       NULL);
	if (rc != 0) {
		fprintf(stderr,
			"vswgen: port %d: cannot wait for rx interrupts: %s\n",
			c->rx_port, rte_strerror(-rc));
		return -1;
	}
	return 0;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Milliseconds from now to then (TSC), in [1, RR_MAX_WAIT_MS]. */
static int wait_ms(const struct gen_ctx *c, uint64_t now, uint64_t then)
{
	uint64_t ms;

	if (then <= now)
		return 1;
	if (then - now >= c->hz) /* also keeps the product below in range */
		return RR_MAX_WAIT_MS;
	ms = (then - now) * 1000 / c->hz + 1;
	return ms < RR_MAX_WAIT_MS ? (int)ms : RR_MAX_WAIT_MS;
}

/*
 * One receive on the rx port (see the top of the file). Polling, or frames
 * waiting: one burst. Interrupt mode on an empty queue: arm, re-poll,
 * sleep up to ms, disarm, poll. Polling with --poll-sleep-us: an empty
 * poll sleeps that long, as in gen.c's loop.
 */
static uint16_t rx_wait(struct gen_ctx *c, struct rte_mbuf **m, int ms,
			struct trial_stats *s)
{
	const uint16_t port = (uint16_t)c->rx_port;
	struct rte_epoll_event ev;
	uint16_t n;

	n = rte_eth_rx_burst(port, 0, m, GEN_MAX_BURST);
	s->rx_polls++;
	if (n == 0 && !c->o->rx_intr && c->o->poll_sleep_us)
		rte_delay_us_sleep(c->o->poll_sleep_us);
	if (n > 0 || !c->o->rx_intr)
		return n;
	rte_eth_dev_rx_intr_enable(port, 0);
	n = rte_eth_rx_burst(port, 0, m, GEN_MAX_BURST);
	s->rx_polls++;
	if (n == 0) {
		s->intr_sleeps++;
		if (rte_epoll_wait(RTE_EPOLL_PER_THREAD, &ev, 1, ms) > 0)
			s->wakeups++;
	}
	rte_eth_dev_rx_intr_disable(port, 0);
	if (n == 0) {
		n = rte_eth_rx_burst(port, 0, m, GEN_MAX_BURST);
		s->rx_polls++;
	}
	return n;
}

/* Send n frames on the tx port; free and count what the ring refused. */
static void tx_all(struct gen_ctx *c, struct rte_mbuf **m, unsigned int n,
		   struct trial_stats *s)
{
	if (n > 0)
		gen_send_burst(c, m, n, s);
}

/* A request of slot i with sequence seq, stamped now; NULL: pool empty. */
static struct rte_mbuf *rr_request(struct gen_ctx *c, uint32_t i, uint64_t seq,
				   uint64_t now)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(c->mp);
	struct gen_hdr *h;
	uint8_t *p;

	if (m == NULL)
		return NULL;
	p = rte_pktmbuf_mtod(m, uint8_t *);
	memcpy(p, c->pair[0].tmpl, 64); /* (no --vxlan with --rr) */
	m->data_len = (uint16_t)c->o->size;
	m->pkt_len = c->o->size;
	h = (struct gen_hdr *)(p + c->hdr_off);
	h->trial = c->trial;
	h->flow = i;
	h->seq = seq;
	h->tsc = now;
	if (c->tx_slow && gen_tx_complete(c, &m, 1, true) == 0)
		return NULL;
	return m;
}

/* Queue slot i's next request in out[*n]; a failed build times out. */
static void rr_next(struct gen_ctx *c, struct rr_slot *sl, uint32_t i,
		    uint64_t now, struct rte_mbuf **out, unsigned int *n,
		    struct trial_stats *s)
{
	struct rte_mbuf *m;

	sl->seq++;
	sl->sent = now;
	m = rr_request(c, i, sl->seq, now);
	if (m != NULL)
		out[(*n)++] = m;
	else
		s->tx_dropped++;
}

/*
 * A response for one of our slots? Times it and queues the slot's next
 * request. Until --dst-mac is given or learned, requests are broadcast;
 * the first response's source becomes their destination.
 */
static void rr_response(struct gen_ctx *c, struct rr_slot *slot,
			struct rte_mbuf *m, uint64_t now, struct rte_mbuf **out,
			unsigned int *n, struct trial_stats *s)
{
	const struct gen_hdr *h = find_hdr(m);
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	struct rr_slot *sl;

	if (h == NULL || h->magic != GEN_MAGIC || h->run_id != c->run_id)
		return;
	if (h->trial != c->trial || h->flow >= c->o->rr) {
		s->rx_stale++;
		return;
	}
	s->rx_packets++;
	s->rx_l1_bytes += m->pkt_len + GEN_L1_OVERHEAD;
	s->rx_segs_max = RTE_MAX(s->rx_segs_max, (uint64_t)m->nb_segs);
	sl = &slot[h->flow];
	if (h->seq != sl->seq) {
		s->rr_late++;
		return;
	}
	hist_add(&s->lat,
		 (uint64_t)((double)(now - sl->sent) * c->ns_per_cycle));
	s->rr_transactions++;
	if ((c->pair[0].tmpl[0] & 1) && !c->o->dst_mac_set)
		memcpy(c->pair[0].tmpl, p + 6, RTE_ETHER_ADDR_LEN);
	rr_next(c, sl, h->flow, now, out, n, s);
}

static void run_requester(struct gen_ctx *c, struct trial_stats *s,
			  uint64_t end)
{
	const uint64_t tmo = c->hz * c->o->rr_timeout_ms / 1000;
	const uint32_t w = c->o->rr;
	struct rte_mbuf *m[GEN_MAX_BURST], *out[GEN_MAX_BURST];
	struct rr_slot slot[GEN_MAX_BURST];
	uint64_t now = rte_rdtsc(), first;
	unsigned int nout = 0;
	uint16_t n, i;
	uint32_t j;

	memset(slot, 0, sizeof(slot));
	for (j = 0; j < w; j++)
		rr_next(c, &slot[j], j, now, out, &nout, s);
	tx_all(c, out, nout, s);
	while (!gen_cut_short() && (now = rte_rdtsc()) < end) {
		first = end;
		for (j = 0; j < w; j++)
			first = RTE_MIN(first, slot[j].sent + tmo);
		n = rx_wait(c, m, wait_ms(c, now, first), s);
		now = rte_rdtsc();
		s->rx_total += n;
		nout = 0;
		for (i = 0; i < n; i++)
			rr_response(c, slot, m[i], now, out, &nout, s);
		if (n > 0)
			rte_pktmbuf_free_bulk(m, n);
		for (j = 0; j < w; j++) {
			if (now - slot[j].sent < tmo)
				continue;
			s->rr_timeouts++;
			rr_next(c, &slot[j], j, now, out, &nout, s);
		}
		tx_all(c, out, nout, s);
	}
}

/*
 * Send every vswgen frame back: destination := its source, source := our
 * port's MAC (the request's destination unless it was a broadcast).
 * Other frames (announcements), and vswgen frames addressed to another
 * MAC (a response flooded to an unlearned requester), are dropped, so two
 * reflectors cannot ping-pong them.
 */
static void run_reflector(struct gen_ctx *c, struct trial_stats *s,
			  uint64_t end)
{
	struct rte_mbuf *m[GEN_MAX_BURST], *out[GEN_MAX_BURST];
	struct rte_ether_addr own;
	unsigned int nout;
	uint64_t now, before;
	uint16_t n, i;
	uint8_t *p;

	rte_eth_macaddr_get((uint16_t)c->tx_port, &own);
	while (!gen_cut_short() && (now = rte_rdtsc()) < end) {
		n = rx_wait(c, m, wait_ms(c, now, end), s);
		s->rx_total += n;
		nout = 0;
		for (i = 0; i < n; i++) {
			const struct rte_ether_addr *dst =
				rte_pktmbuf_mtod(m[i], struct rte_ether_addr *);

			if (find_hdr(m[i]) == NULL ||
			    find_hdr(m[i])->magic != GEN_MAGIC ||
			    !(rte_is_broadcast_ether_addr(dst) ||
			      rte_is_same_ether_addr(dst, &own))) {
				rte_pktmbuf_free(m[i]);
				continue;
			}
			p = rte_pktmbuf_mtod(m[i], uint8_t *);
			memcpy(p, p + 6, RTE_ETHER_ADDR_LEN);
			memcpy(p + 6, &own, RTE_ETHER_ADDR_LEN);
			out[nout++] = m[i];
		}
		s->rx_packets += nout;
		before = s->tx_packets;
		tx_all(c, out, nout, s);
		s->reflected += s->tx_packets - before;
	}
}

/*
 * Count what an --rx-only receiver counts (gen.c's rx_account() for a
 * receiver: every vswgen frame, whatever its run, with its latency; no
 * sequence tracking, which needs the sender's run) and free the burst.
 * Kept apart so that the streaming loop's accounting stays as it is.
 */
static void rx_count(struct gen_ctx *c, struct rte_mbuf **m, uint16_t n,
		     struct trial_stats *s)
{
	const uint64_t now = rte_rdtsc();
	const struct gen_hdr *h;
	uint16_t i;

	s->rx_total += n;
	for (i = 0; i < n; i++) {
		h = find_hdr(m[i]);
		if (h == NULL || h->magic != GEN_MAGIC)
			continue;
		s->rx_packets++;
		s->rx_l1_bytes += m[i]->pkt_len + GEN_L1_OVERHEAD;
		s->rx_segs_max =
			RTE_MAX(s->rx_segs_max, (uint64_t)m[i]->nb_segs);
		hist_add(&s->lat, now > h->tsc
					  ? (uint64_t)((double)(now - h->tsc) *
						       c->ns_per_cycle)
					  : 0);
		if (c->o->verify)
			gen_rx_verify(c, m[i], h, s);
	}
	rte_pktmbuf_free_bulk(m, n);
}

/* --rx-only (or --tx-port none) with --rx-mode interrupt. */
static void run_receiver(struct gen_ctx *c, struct trial_stats *s, uint64_t end)
{
	struct rte_mbuf *m[GEN_MAX_BURST];
	uint64_t now;
	uint16_t n;

	while (!gen_cut_short() && (now = rte_rdtsc()) < end) {
		n = rx_wait(c, m, wait_ms(c, now, end), s);
		if (n > 0)
			rx_count(c, m, n, s);
	}
}

void gen_run_rr(struct gen_ctx *c, struct trial_stats *s)
{
	const struct gen_opts *o = c->o;
	uint64_t start, end, cpu;
	double secs = o->duration;

	gen_reset_trial(c, s);
	if (o->rr == 0 && !o->reflect)
		secs += o->drain_ms / 1000.0;
	cpu = thread_cpu_ns();
	start = rte_rdtsc();
	end = start + (uint64_t)(secs * (double)c->hz);
	if (o->rr > 0)
		run_requester(c, s, end);
	else if (o->reflect)
		run_reflector(c, s, end);
	else
		run_receiver(c, s, end);
	s->cpu_ns = thread_cpu_ns() - cpu;
	s->loop_ns =
		(uint64_t)((double)(rte_rdtsc() - start) * c->ns_per_cycle);
	s->duration_s = RTE_MIN(o->duration, (double)s->loop_ns / 1e9);
}

static double cpu_pct(const struct trial_stats *s)
{
	return s->loop_ns ? 100.0 * (double)s->cpu_ns / (double)s->loop_ns : 0;
}

static double rr_tps(const struct trial_stats *s)
{
	return s->duration_s > 0 ? (double)s->rr_transactions / s->duration_s
				 : 0;
}

/* The fields of these modes, after gen_print_json_fields()'. */
void gen_print_rr_json(FILE *f, const struct gen_ctx *c,
		       const struct trial_stats *s)
{
	const struct gen_opts *o = c->o;

	fprintf(f,
		",\"mode\":\"%s\",\"rx_mode\":\"%s\",\"rx_polls\":%" PRIu64
		",\"intr_sleeps\":%" PRIu64 ",\"wakeups\":%" PRIu64
		",\"cpu_ns\":%" PRIu64 ",\"cpu_pct\":%.2f",
		o->rr	     ? "rr"
		: o->reflect ? "reflect"
			     : "rx",
		o->rx_intr ? "interrupt" : "poll", s->rx_polls, s->intr_sleeps,
		s->wakeups, s->cpu_ns, cpu_pct(s));
	if (o->rr)
		fprintf(f,
			",\"rr_window\":%u,\"rr_transactions\":%" PRIu64
			",\"rr_tps\":%.1f,\"rr_timeouts\":%" PRIu64
			",\"rr_late\":%" PRIu64,
			o->rr, s->rr_transactions, rr_tps(s), s->rr_timeouts,
			s->rr_late);
	if (o->reflect)
		fprintf(f, ",\"reflected\":%" PRIu64, s->reflected);
}

void gen_print_rr_human(const struct gen_ctx *c, const struct trial_stats *s)
{
	const struct gen_opts *o = c->o;

	printf("rx mode       %s: %" PRIu64 " polls, %" PRIu64
	       " sleeps, %" PRIu64 " wakeups; loop CPU %.1f%%\n",
	       o->rx_intr ? "interrupt" : "poll", s->rx_polls, s->intr_sleeps,
	       s->wakeups, cpu_pct(s));
	if (o->rr)
		printf("rr            window %u: %" PRIu64
		       " transactions (%.1f/s), %" PRIu64 " timeouts, %" PRIu64
		       " late responses; latency is the round trip\n",
		       o->rr, s->rr_transactions, rr_tps(s), s->rr_timeouts,
		       s->rr_late);
	if (o->reflect)
		printf("reflect       %" PRIu64 " frames sent back\n",
		       s->reflected);
}
