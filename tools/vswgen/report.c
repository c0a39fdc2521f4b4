/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vswgen results: derive the reported figures from a trial's counters
 * (loss, rates, L1 bit rate, latency percentiles) and print them, either
 * as a human summary or as the fields of the JSON object (main.c wraps
 * them in braces and may append the search results).
 */
#include <inttypes.h>
#include <stdio.h>

#include "vswgen.h"

void gen_result(const struct gen_ctx *c, const struct trial_stats *s,
		struct trial_result *r)
{
	uint64_t unique = s->rx_packets - s->duplicates;
	double d = s->duration_s > 0 ? s->duration_s : 1e-9;

	(void)c;
	r->rx_foreign = s->rx_total - s->rx_packets;
	r->lost = s->tx_packets > unique ? s->tx_packets - unique : 0;
	r->loss_pct = s->tx_packets
			      ? 100.0 * (double)r->lost / (double)s->tx_packets
			      : 0;
	r->offered_mpps = (double)(s->tx_packets + s->tx_dropped) / d / 1e6;
	r->tx_mpps = (double)s->tx_packets / d / 1e6;
	r->rx_mpps = (double)s->rx_packets / d / 1e6;
	r->rx_gbps = (double)s->rx_l1_bytes * 8 / d / 1e9;
	/* rx_l1_bytes adds the same overhead to each frame's pkt_len. */
	r->rx_bytes = s->rx_l1_bytes - s->rx_packets * GEN_L1_OVERHEAD;
	r->p50 = hist_percentile(&s->lat, 50);
	r->p90 = hist_percentile(&s->lat, 90);
	r->p99 = hist_percentile(&s->lat, 99);
	r->p999 = hist_percentile(&s->lat, 99.9);
}

/* --tcp: TCP payload received per second of the trial window, Gbit/s */
static double tcp_gbps(const struct trial_stats *s)
{
	double d = s->duration_s > 0 ? s->duration_s : 1e-9;

	return (double)s->rx_tcp_payload * 8 / d / 1e9;
}

/* --tcp: payload sent, and the share of it not received (frames cut on
 * the way make the frame counts incomparable: bytes are not) */
static uint64_t tcp_sent(const struct gen_ctx *c, const struct trial_stats *s)
{
	return s->tx_packets * (c->o->size - GEN_TCP_HDRS);
}

static double tcp_loss_pct(const struct gen_ctx *c, const struct trial_stats *s)
{
	uint64_t t = tcp_sent(c, s);

	return t > s->rx_tcp_payload
		       ? 100.0 * (double)(t - s->rx_tcp_payload) / (double)t
		       : 0;
}

void gen_print_human(const struct gen_ctx *c, const struct trial_stats *s)
{
	struct trial_result r;

	gen_result(c, s, &r);
	printf("duration      %.3f s, frame size %u B\n", s->duration_s,
	       c->o->size);
	printf("tx            %" PRIu64 " packets (%.3f Mpps), offered %.3f "
	       "Mpps\n",
	       s->tx_packets, r.tx_mpps, r.offered_mpps);
	printf("tx ring full  %" PRIu64 " times, %" PRIu64 " packets dropped\n",
	       s->tx_ring_full, s->tx_dropped);
	if (s->tx_skipped)
		printf("tx skipped    %" PRIu64 " paced frames (vswgen fell "
		       "behind)\n",
		       s->tx_skipped);
	printf("rx            %" PRIu64 " total, %" PRIu64 " vswgen, %" PRIu64
	       " foreign\n",
	       s->rx_total, s->rx_packets, r.rx_foreign);
	printf("rx rate       %.3f Mpps, %.3f Gbit/s (L1)\n", r.rx_mpps,
	       r.rx_gbps);
	printf("rx bytes      %" PRIu64 ", at most %" PRIu64
	       " segments in a frame\n",
	       r.rx_bytes, s->rx_segs_max);
	if (c->o->tcp_mss > 0)
		printf("tcp           MSS %u%s, %" PRIu64 " payload bytes: "
		       "%.3f Gbit/s, %.4f%% of the sent lost; longest frame "
		       "%" PRIu64 " B\n",
		       c->o->tcp_mss, gen_tcp_tso(c->o) ? " (TSO)" : "",
		       s->rx_tcp_payload, tcp_gbps(s), tcp_loss_pct(c, s),
		       s->rx_len_max);
	if (c->o->verify)
		printf("verify        %" PRIu64 " frames checked, %" PRIu64
		       " payload errors, %" PRIu64 " length errors%s\n",
		       s->verified, s->payload_errors, s->len_errors,
		       c->o->test_corrupt ? " (--test-corrupt)" : "");
	if (c->o->test_corrupt)
		printf("test-corrupt  %" PRIu64 " frames damaged on purpose\n",
		       s->test_corrupted);
	printf("lost          %" PRIu64 " (%.4f%%), reordered %" PRIu64
	       ", duplicates %" PRIu64 "\n",
	       r.lost, r.loss_pct, s->reordered, s->duplicates);
	if (c->o->lean) {
		printf("latency       not measured (--lean)\n");
		return;
	}
	printf("latency ns    p50 %" PRIu64 "  p90 %" PRIu64 "  p99 %" PRIu64
	       "  p99.9 %" PRIu64 "  max %" PRIu64 "  (%" PRIu64 " samples)\n",
	       r.p50, r.p90, r.p99, r.p999, s->lat.max, s->lat.count);
}

/* The per-trial JSON fields, without the enclosing braces. */
void gen_print_json_fields(FILE *f, const struct gen_ctx *c,
			   const struct trial_stats *s)
{
	struct trial_result r;

	gen_result(c, s, &r);
	fprintf(f,
		"\"tx_packets\":%" PRIu64 ",\"tx_ring_full\":%" PRIu64
		",\"tx_dropped\":%" PRIu64 ",\"tx_skipped\":%" PRIu64
		",\"rx_total\":%" PRIu64 ",\"rx_packets\":%" PRIu64
		",\"rx_foreign\":%" PRIu64 ",\"lost\":%" PRIu64
		",\"loss_pct\":%.6f,\"reordered\":%" PRIu64
		",\"duplicates\":%" PRIu64 ",\"duration_s\":%.6f"
		",\"offered_mpps\":%.6f,\"tx_mpps\":%.6f,\"rx_mpps\":%.6f"
		",\"rx_gbps\":%.6f"
		",\"size\":%u",
		s->tx_packets, s->tx_ring_full, s->tx_dropped, s->tx_skipped,
		s->rx_total, s->rx_packets, r.rx_foreign, r.lost, r.loss_pct,
		s->reordered, s->duplicates, s->duration_s, r.offered_mpps,
		r.tx_mpps, r.rx_mpps, r.rx_gbps, c->o->size);
	fprintf(f,
		",\"rx_bytes\":%" PRIu64 ",\"rx_segs_max\":%" PRIu64
		",\"mbuf_size\":%u,\"verify\":%s,\"verified\":%" PRIu64
		",\"payload_errors\":%" PRIu64 ",\"len_errors\":%" PRIu64
		",\"test_corrupted\":%" PRIu64,
		r.rx_bytes, s->rx_segs_max, c->o->mbuf_size,
		c->o->verify ? "true" : "false", s->verified, s->payload_errors,
		s->len_errors, s->test_corrupted);
	fprintf(f, ",\"pairs\":%u,\"lean\":%s", c->npairs,
		c->o->lean ? "true" : "false");
	fprintf(f, ",\"rx_mpps_by_s\":[");
	for (uint32_t i = 0; i < s->n_secs; i++)
		fprintf(f, "%s%.3f", i ? "," : "", (double)s->rx_by_s[i] / 1e6);
	fprintf(f, "]");
	if (c->o->tcp_mss > 0)
		fprintf(f,
			",\"tcp\":{\"mss\":%u,\"tso\":%s,\"payload_bytes\":"
			"%" PRIu64 ",\"gbps\":%.6f,\"rx_len_max\":%" PRIu64
			",\"tx_payload_bytes\":%" PRIu64 ",\"loss_pct\":%.6f}",
			c->o->tcp_mss, gen_tcp_tso(c->o) ? "true" : "false",
			s->rx_tcp_payload, tcp_gbps(s), s->rx_len_max,
			tcp_sent(c, s), tcp_loss_pct(c, s));
	if (c->o->lean) { /* no time stamps: no latency */
		fprintf(f, ",\"latency_ns\":null");
		return;
	}
	fprintf(f,
		",\"latency_ns\":{\"p50\":%" PRIu64 ",\"p90\":%" PRIu64
		",\"p99\":%" PRIu64 ",\"p999\":%" PRIu64 ",\"max\":%" PRIu64
		",\"samples\":%" PRIu64 "}",
		r.p50, r.p90, r.p99, r.p999, s->lat.max, s->lat.count);
}
