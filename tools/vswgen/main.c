/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vswgen: vsw's packet generator. Attaches to one or more ethdev ports
 * (virtio-user guests of vsw, or any PMD), sends vswgen frames on one port,
 * receives on another (or the same) and reports loss, reordering, rates and
 * latency. This file owns the process: option/EAL split, ports and mempool
 * setup, link wait, signal handling, the single-trial mode and the RFC 2544
 * zero-loss search, and the final report. Exit: 0 on a completed run, 1 on
 * a runtime failure or interruption, 2 on a usage error, 3 when --tcp
 * super-frames meet a tx port without TSO.
 */
#include <inttypes.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "vswgen.h"

#define NB_DESC 1024
#define MIN_MBUFS 8191
#define MBUF_CACHE 256

volatile sig_atomic_t gen_stop;
volatile sig_atomic_t gen_finish;
static bool usr1_finishes; /* false with --search: no single trial to end */

static void on_signal(int sig)
{
	if (sig == SIGUSR1 && usr1_finishes)
		gen_finish = 1;
	else
		gen_stop = 1;
}

/* SIGINT, SIGTERM: interrupted (exit 1, the partial trial reported).
 * SIGUSR1: the trial ends now as at --duration, drained and reported
 * (exit 0); with --search it interrupts, like SIGINT. */
static void install_signals(bool search)
{
	struct sigaction sa;

	usr1_finishes = !search;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
}

/* Index of "--" in argv, or argc when there is none. */
static int find_dashdash(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0)
			return i;
	return argc;
}

/*
 * Chained frames need the multi-segment TX offload where a PMD lists it
 * (virtio-user does); asked for only then, as it may cost a PMD its
 * fastest TX path. A PMD that does not list it may still take chains
 * (net_ring passes pointers), so that is a warning, not an error.
 */
static void want_multi_seg(uint16_t p, struct rte_eth_conf *conf)
{
	struct rte_eth_dev_info info;

	if (rte_eth_dev_info_get(p, &info) == 0 &&
	    (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)) {
		conf->txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
		return;
	}
	fprintf(stderr,
		"vswgen: port %u does not list multi-segment TX; chained "
		"frames may fail (a larger --mbuf-size avoids chains)\n",
		p);
}

/* Some pair sends on port p (--tcp: it needs TSO for super-frames). */
static bool is_tx_port(const struct gen_ctx *c, uint16_t p)
{
	uint16_t i;

	for (i = 0; i < c->npairs; i++)
		if (c->pair[i].tx_port == (int)p)
			return true;
	return false;
}

/* -3: --tcp super-frames on a port without TSO; -1: any other failure. */
static int port_setup(struct gen_ctx *c, uint16_t p, bool multi_seg,
		      bool rx_intr)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint16_t nrx = NB_DESC, ntx = NB_DESC, nq = 1;
	int sock = rte_eth_dev_socket_id(p), rc;

	memset(&conf, 0, sizeof(conf));
	if (sock < 0)
		sock = (int)rte_socket_id();
	if (multi_seg)
		want_multi_seg(p, &conf);
	conf.intr_conf.rxq = rx_intr; /* --rx-mode interrupt, rx port */
	if (c->o->tcp_mss > 0) {
		rc = gen_tcp_port_conf(p, c->o, is_tx_port(c, p),
				       (c->rx_ports >> p) & 1, &conf);
		if (rc < 0)
			return rc;
	}
	if (rte_eth_dev_info_get(p, &info) == 0)
		nq = (uint16_t)RTE_MIN(c->o->rx_queues, info.max_rx_queues);
	nq = RTE_MAX(nq, 1);
	c->nrxq[p] = nq;
	rc = rte_eth_dev_configure(p, nq, 1, &conf);
	if (rc == 0)
		rc = rte_eth_dev_adjust_nb_rx_tx_desc(p, &nrx, &ntx);
	for (uint16_t q = 0; rc == 0 && q < nq; q++)
		rc = rte_eth_rx_queue_setup(p, q, nrx, (unsigned int)sock, NULL,
					    c->mp);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(p, 0, ntx, (unsigned int)sock,
					    NULL);
	if (rc == 0)
		rc = rte_eth_dev_start(p);
	if (rc != 0) {
		fprintf(stderr, "vswgen: port %u: setup failed: %s\n", p,
			rte_strerror(-rc));
		return -1;
	}
	rte_eth_promiscuous_enable(p); /* not all PMDs can; fine */
	return 0;
}

/* Wait until every port's link is up; -1 (with a message) on timeout. */
static int link_wait(uint16_t nb_ports, double secs)
{
	uint64_t end =
		rte_rdtsc() + (uint64_t)(secs * (double)rte_get_tsc_hz());
	struct rte_eth_link link;
	uint16_t p;

	for (;;) {
		for (p = 0; p < nb_ports; p++) {
			memset(&link, 0, sizeof(link));
			rte_eth_link_get_nowait(p, &link);
			if (link.link_status != RTE_ETH_LINK_UP)
				break;
		}
		if (p == nb_ports)
			return 0;
		if (rte_rdtsc() >= end || gen_stop) {
			fprintf(stderr,
				"vswgen: port %u: link still down after %.1f s "
				"(is the vhost-user backend there?)\n",
				p, secs);
			return -1;
		}
		usleep(10000);
	}
}

/*
 * Enough mbufs for every port's rx and tx ring, the sender's chains
 * (segs per frame: the tx ring may hold a whole chain per descriptor),
 * a few bursts in flight and the caches; rounded up to 2^k - 1. At
 * --mbuf-size 10240 with two ports that is the minimum, 8191 mbufs of
 * about 10.4 KB: 85 MB.
 */
static struct rte_mempool *
make_pool(uint16_t nb_ports, const struct gen_opts *o, unsigned int *count)
{
	/* --tcp: the tx rings hold the lean pools' one-mbuf frames */
	unsigned int segs =
		o->tcp_mss > 0 ? 1
			       : gen_segs(o->size,
					  o->mbuf_size - RTE_PKTMBUF_HEADROOM);
	/* --lean: the tx rings hold the pairs' own pools' mbufs. */
	unsigned int rings = o->rx_queues + (o->lean ? 0u : 1u);
	unsigned int n = nb_ports * rings * NB_DESC + (segs - 1) * NB_DESC +
			 4 * GEN_MAX_BURST * segs +
			 2 * MBUF_CACHE * rte_lcore_count();
	unsigned int size = MIN_MBUFS;

	while (size < n)
		size = size * 2 + 1;
	*count = size;
	return rte_pktmbuf_pool_create("vswgen", size, MBUF_CACHE, 0,
				       (uint16_t)o->mbuf_size,
				       (int)rte_socket_id());
}

/* --pairs: port 2k sends to port 2k+1. -1: usage error. */
static int resolve_pairs(struct gen_ctx *c)
{
	uint16_t i;

	if (c->nb_ports < 2 || c->nb_ports % 2 != 0) {
		fprintf(stderr,
			"vswgen: --pairs needs an even number of ports "
			"(port 2k sends to port 2k+1), not %u\n",
			c->nb_ports);
		return -1;
	}
	c->npairs = c->nb_ports / 2;
	for (i = 0; i < c->npairs; i++) {
		c->pair[i].tx_port = 2 * i;
		c->pair[i].rx_port = 2 * i + 1;
		c->rx_ports |= 1ull << (2 * i + 1);
	}
	c->tx_port = 0;
	c->rx_port = 1;
	return 0;
}

/* Resolve default ports and check they exist. -1: usage error. */
static int resolve_ports(struct gen_ctx *c, const struct gen_opts *o)
{
	if (c->nb_ports == 0) {
		fprintf(stderr, "vswgen: no ethdev port: give one with --vdev "
				"(e.g. net_virtio_user0,path=SOCK)\n");
		return -1;
	}
	if (o->pairs)
		return resolve_pairs(c);
	c->tx_port = o->tx_port == GEN_PORT_DEFAULT ? 0 : o->tx_port;
	c->rx_port = o->rx_port;
	if (o->rx_port == GEN_PORT_DEFAULT)
		c->rx_port = c->nb_ports >= 2 ? 1 : 0;
	if (c->tx_port >= c->nb_ports) {
		fprintf(stderr,
			"vswgen: --tx-port %d: no such port (%u ports)\n",
			c->tx_port, c->nb_ports);
		return -1;
	}
	if (c->rx_port >= c->nb_ports) {
		fprintf(stderr,
			"vswgen: --rx-port %d: no such port (%u ports)\n",
			c->rx_port, c->nb_ports);
		return -1;
	}
	if (o->vx_port >= 0 && o->vx_port != c->tx_port &&
	    o->vx_port != c->rx_port) {
		fprintf(stderr,
			"vswgen: --vxlan %d: the port must be the tx or the rx "
			"port\n",
			o->vx_port);
		return -1;
	}
	c->npairs = 1;
	c->pair[0].tx_port = c->tx_port;
	c->pair[0].rx_port = c->rx_port;
	if (c->rx_port >= 0)
		c->rx_ports = 1ull << c->rx_port;
	return 0;
}

static int ports_start(struct gen_ctx *c)
{
	const struct gen_opts *o = c->o;
	/* Every port: --announce may send --size frames on the rx port. */
	bool multi_seg =
		gen_segs(o->size, o->mbuf_size - RTE_PKTMBUF_HEADROOM) > 1 &&
		o->tcp_mss == 0;
	unsigned int count;
	uint16_t p;
	int rc;

	c->mp = make_pool(c->nb_ports, o, &count);
	if (c->mp == NULL) {
		fprintf(stderr,
			"vswgen: cannot create the mbuf pool (%u mbufs of "
			"%u bytes; more memory with -m?): %s\n",
			count, o->mbuf_size, rte_strerror(rte_errno));
		return -1;
	}
	for (p = 0; p < c->nb_ports; p++) {
		rc = port_setup(c, p, multi_seg,
				o->rx_intr && (int)p == c->rx_port);
		if (rc < 0)
			return rc;
	}
	if (gen_rx_intr_setup(c) < 0)
		return -1;
	return link_wait(c->nb_ports, c->o->link_wait);
}

static void ports_stop(struct gen_ctx *c)
{
	uint16_t p;

	for (p = 0; p < c->nb_ports; p++) {
		rte_eth_dev_stop(p);
		rte_eth_dev_close(p);
	}
	rte_mempool_free(c->mp);
	c->mp = NULL;
}

/* One search step as reported in "steps". */
struct search_step {
	uint64_t rate_pps; /* 0: as fast as possible */
	double tx_mpps;
	double rx_mpps;
	double loss_pct; /* counts frames the tx ring refused, too */
	bool pass;
};

struct search {
	struct search_step step[65];
	unsigned int nsteps;
	double max_mpps;
	uint64_t zero_loss_pps;
	struct trial_stats cur;
	struct trial_stats best; /* the fastest passing trial */
	bool have_best;
	struct trial_stats lat; /* the --latency-at trial */
};

/* Run one search trial at rate, record it; true when loss is in tolerance. */
static bool search_trial(struct gen_ctx *c, struct search *sr, uint64_t rate)
{
	struct search_step *st = &sr->step[sr->nsteps++];
	struct trial_stats *s = &sr->cur;
	uint64_t offered, unique;
	double d;

	gen_run_trial(c, rate, c->o->search_trial, true, s);
	offered = s->tx_packets + s->tx_dropped;
	unique = s->rx_packets - s->duplicates;
	d = s->duration_s > 0 ? s->duration_s : 1e-9;
	st->rate_pps = rate;
	st->tx_mpps = (double)s->tx_packets / d / 1e6;
	st->rx_mpps = (double)s->rx_packets / d / 1e6;
	st->loss_pct = offered > unique ? 100.0 * (double)(offered - unique) /
						  (double)offered
					: 0;
	st->pass = offered > 0 && st->loss_pct <= c->o->loss_tol;
	if (!c->o->json)
		printf("search: rate %12" PRIu64
		       " pps  tx %8.3f Mpps  rx %8.3f "
		       "Mpps  loss %8.4f%%  %s\n",
		       rate, st->tx_mpps, st->rx_mpps, st->loss_pct,
		       st->pass ? "pass" : "fail");
	if (st->pass &&
	    (!sr->have_best || rate == 0 || rate > sr->zero_loss_pps)) {
		sr->best = *s;
		sr->have_best = true;
	}
	return st->pass;
}

/*
 * RFC 2544 binary search: a first unpaced trial measures the maximum the
 * tx ring accepts; if it is loss free that is the answer, otherwise bisect
 * [0, max] --search-steps times, keeping the highest passing rate.
 */
static void run_search(struct gen_ctx *c, struct search *sr)
{
	uint64_t lo = 0, hi, rate;
	unsigned int i;

	if (search_trial(c, sr, 0)) {
		sr->zero_loss_pps = (uint64_t)(sr->step[0].tx_mpps * 1e6);
		sr->max_mpps = sr->step[0].tx_mpps;
		return;
	}
	sr->max_mpps = sr->step[0].tx_mpps;
	hi = (uint64_t)(sr->max_mpps * 1e6);
	for (i = 0; i < c->o->search_steps && !gen_stop && hi > lo + 1; i++) {
		rate = (lo + hi) / 2;
		if (search_trial(c, sr, rate))
			lo = rate;
		else
			hi = rate;
	}
	sr->zero_loss_pps = lo;
	/* What the passing trial sent, when vswgen skipped some of it. */
	if (sr->have_best && lo > 0 && sr->best.duration_s > 0) {
		rate = (uint64_t)((double)sr->best.tx_packets /
				  sr->best.duration_s);
		if (rate < lo)
			sr->zero_loss_pps = rate;
	}
}

static void print_search_json(const struct gen_ctx *c, const struct search *sr,
			      const struct trial_stats *final)
{
	const struct search_step *st;
	unsigned int i;

	printf("{");
	gen_print_json_fields(stdout, c, final);
	printf(",\"zero_loss_mpps\":%.6f,\"max_mpps\":%.6f"
	       ",\"loss_tolerance_pct\":%g,\"steps\":[",
	       (double)sr->zero_loss_pps / 1e6, sr->max_mpps, c->o->loss_tol);
	for (i = 0; i < sr->nsteps; i++) {
		st = &sr->step[i];
		printf("%s{\"rate_pps\":%" PRIu64 ",\"tx_mpps\":%.6f"
		       ",\"rx_mpps\":%.6f,\"loss_pct\":%.6f,\"pass\":%s}",
		       i ? "," : "", st->rate_pps, st->tx_mpps, st->rx_mpps,
		       st->loss_pct, st->pass ? "true" : "false");
	}
	printf("]");
	if (c->o->latency_at > 0)
		printf(",\"latency_at_pct\":%g,\"latency_rate_pps\":%" PRIu64,
		       c->o->latency_at,
		       (uint64_t)((double)sr->zero_loss_pps * c->o->latency_at /
				  100.0));
	printf("}\n");
}

/* Search mode, then the optional latency trial; prints the report. */
static int search_mode(struct gen_ctx *c)
{
	struct search *sr = calloc(1, sizeof(*sr));
	const struct trial_stats *final;
	uint64_t rate;

	if (sr == NULL)
		return 1;
	run_search(c, sr);
	final = sr->have_best ? &sr->best : &sr->cur;
	if (c->o->latency_at > 0 && sr->zero_loss_pps > 0 && !gen_stop) {
		rate = (uint64_t)((double)sr->zero_loss_pps * c->o->latency_at /
				  100.0);
		gen_run_trial(c, rate ? rate : 1, c->o->duration, true,
			      &sr->lat);
		final = &sr->lat;
	}
	if (c->o->json) {
		print_search_json(c, sr, final);
	} else {
		printf("zero-loss rate %.6f Mpps (max %.6f Mpps)\n",
		       (double)sr->zero_loss_pps / 1e6, sr->max_mpps);
		gen_print_human(c, final);
	}
	free(sr);
	return gen_stop ? 1 : 0;
}

static int trial_mode(struct gen_ctx *c)
{
	struct trial_stats *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return 1;
	if (gen_rr_mode(c->o))
		gen_run_rr(c, s);
	else
		gen_run_trial(c, c->o->rate, c->o->duration, !c->o->rx_only, s);
	if (c->o->json) {
		printf("{");
		gen_print_json_fields(stdout, c, s);
		if (gen_rr_mode(c->o))
			gen_print_rr_json(stdout, c, s);
		printf("}\n");
	} else {
		gen_print_human(c, s);
		if (gen_rr_mode(c->o))
			gen_print_rr_human(c, s);
	}
	free(s);
	return gen_stop ? 1 : 0;
}

/* Everything after EAL init. Returns the exit status. */
static int run(const struct gen_opts *o)
{
	struct gen_ctx *c = calloc(1, sizeof(*c));
	int rc = 1;

	if (c == NULL)
		return 1;
	c->o = o;
	c->nb_ports = rte_eth_dev_count_avail();
	if (resolve_ports(c, o) < 0) {
		free(c);
		return 2;
	}
	c->progress = isatty(STDOUT_FILENO) && !o->quiet && !o->json;
	rc = ports_start(c);
	if (rc == 0 && gen_ctx_init(c) == 0) {
		gen_announce(c);
		rc = 1;
		if (!gen_stop)
			rc = o->search ? search_mode(c) : trial_mode(c);
	} else {
		rc = rc == -3 ? 3 : 1; /* 3: --tcp, no TSO on the tx port */
	}
	ports_stop(c);
	gen_ctx_free(c);
	free(c);
	return rc;
}

int main(int argc, char **argv)
{
	int dd = find_dashdash(argc, argv), rc, i, oargc = 0;
	char **oargv = calloc((size_t)argc + 1, sizeof(char *));
	struct gen_opts o;

	if (oargv == NULL)
		return 1;
	/* Options first, so that usage errors need no EAL. */
	oargv[oargc++] = argv[0];
	for (i = dd + 1; i < argc; i++)
		oargv[oargc++] = argv[i];
	rc = gen_parse_opts(oargc, oargv, &o);
	free(oargv);
	if (rc != 0)
		return rc > 0 ? 0 : 2;
	if (rte_eal_init(dd, argv) < 0) {
		fprintf(stderr, "vswgen: EAL init failed: %s\n",
			rte_strerror(rte_errno));
		return rte_errno == EINVAL ? 2 : 1;
	}
	install_signals(o.search);
	rc = run(&o);
	rte_eal_cleanup();
	return rc;
}
