/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vswgen: shared declarations of vsw's packet generator.
 *
 * The generator is split into: opts.c (command line), hist.c (log-linear
 * latency histogram), gen.c (frame template, TX pacing, RX accounting, the
 * trial loop), payload.c (chained frames, the --verify payload pattern and
 * its check), rr.c (--rr request/response, --reflect and --rx-mode
 * interrupt loops), report.c (human and JSON output) and main.c (EAL, ports,
 * signals, the single-trial and zero-loss search modes). Everything a trial
 * needs travels in struct gen_ctx; the only global is the stop flag set by
 * the signal handler.
 */
#ifndef VSWGEN_H
#define VSWGEN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <netinet/in.h>

#include <rte_byteorder.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#define GEN_PORT_DEFAULT (-2) /* option not given */
#define GEN_PORT_NONE (-1)    /* "none" */

#define GEN_MAGIC 0x56535747u /* "VSWG" */
#define GEN_ETHERTYPE 0x88b5  /* IEEE local experimental ethertype 1 */
#define GEN_MAX_FLOWS 1024    /* sequence tracking is per flow */
#define GEN_SEQ_WINDOW 4096   /* duplicate bitmap, in sequence numbers */
#define GEN_MAX_BURST 512
#define GEN_SECONDS_MAX 3600 /* rx_by_s: the seconds of a trial kept */
#define GEN_L1_OVERHEAD 24   /* FCS 4 + preamble/SFD 8 + IFG 12 */
#define GEN_MIN_SIZE 60
#define GEN_MAX_SIZE 9018 /* 9000-byte MTU + Ethernet 14 + one 802.1Q tag */
/* --tcp: Ethernet 14, IPv4 20, TCP 20; a frame is one mbuf (uint16 room) */
#define GEN_TCP_HDRS 54u
/* --vxlan: outer Ethernet 14, IPv4 20, UDP 8, VXLAN 8 */
#define GEN_VXLAN_HDRS 50u
#define GEN_VXLAN_UDP_PORT 4789
#define GEN_TCP_MAX_SIZE (UINT16_MAX - RTE_PKTMBUF_HEADROOM)
/*
 * Smallest --mbuf-size: a segment must hold at least GEN_MIN_SEG_ROOM bytes
 * after the headroom, as the 64-byte template is copied whole into the first.
 */
#define GEN_MIN_MBUF_SIZE 256
#define GEN_MIN_SEG_ROOM (GEN_MIN_MBUF_SIZE - RTE_PKTMBUF_HEADROOM)
#define GEN_MAX_SEGS ((GEN_MAX_SIZE + GEN_MIN_SEG_ROOM - 1) / GEN_MIN_SEG_ROOM)

/* Payload header, right after the Ethernet (and 802.1Q) header. */
struct gen_hdr {
	uint32_t magic;
	uint32_t run_id; /* random per process */
	uint32_t trial;	 /* trial number inside this run */
	uint32_t flow;
	uint64_t seq;
	uint64_t tsc;	/* rte_rdtsc() when the burst was built */
	uint16_t len;	/* frame length the sender built, without FCS */
	uint16_t flags; /* GEN_HF_* */
} __attribute__((packed));

/* The payload after struct gen_hdr holds the pattern (sent with --verify). */
#define GEN_HF_PATTERN 0x0001
/* A --lean frame: prebuilt once, no sequence number or timestamp. */
#define GEN_HF_LEAN 0x0002

struct gen_opts {
	int tx_port; /* GEN_PORT_DEFAULT, GEN_PORT_NONE or a port id */
	int rx_port;
	bool src_mac_set;
	struct rte_ether_addr src_mac;
	bool dst_mac_set;
	struct rte_ether_addr dst_mac;
	uint32_t macs;
	int vlan; /* -1: untagged */
	uint32_t size;
	uint32_t mbuf_size; /* data room incl. headroom, as DPDK counts it */
	bool verify;
	uint32_t test_corrupt; /* damage every Nth checked frame; 0: never */
	uint64_t rate;
	uint64_t count;
	double duration;
	uint32_t burst;
	uint32_t announce;
	bool rx_only;
	uint32_t drain_ms;
	double link_wait;
	uint32_t poll_sleep_us;
	bool json;
	bool quiet;
	bool search;
	double search_trial;
	double loss_tol;
	uint32_t search_steps;
	double latency_at; /* 0: no latency trial after the search */
	bool rx_intr;	   /* --rx-mode interrupt */
	uint32_t rr;	   /* --rr window; 0: not a request/response run */
	uint32_t rr_timeout_ms;
	bool reflect;	    /* --reflect: send every vswgen frame back */
	bool pairs;	    /* --pairs: port 2k sends to port 2k+1 */
	bool lean;	    /* --lean: prebuilt frames, counters only */
	uint32_t tcp_mss;   /* --tcp MSS: a TCP/IPv4 stream (tcp.c); 0: not */
	bool tcp_no_lro;    /* --no-lro: the rx port asks for no LRO */
	uint32_t rx_queues; /* --rx-queues: polled per port (at most) */
	int vx_port;	    /* --vxlan PORT (vxlan.c); -1: none */
	uint32_t vx_my_ip, vx_peer_ip; /* host order */
	uint32_t vx_vni;
};

/* Log-linear histogram: 64 sub-buckets per power of two (~1.6 %). */
#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_EXP 40 /* values up to 2^41 ns (~36 min) */
#define HIST_BUCKETS ((HIST_MAX_EXP - HIST_SUB_BITS + 2) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t max;
	uint64_t bucket[HIST_BUCKETS];
};

/* Counters of one trial. */
struct trial_stats {
	uint64_t tx_packets;
	uint64_t tx_ring_full;
	uint64_t tx_dropped;
	uint64_t tx_skipped; /* paced frames given up: vswgen fell behind */
	uint64_t rx_total;
	uint64_t rx_packets;
	uint64_t rx_stale;	 /* own frames from an earlier trial */
	uint64_t rx_l1_bytes;	 /* of rx_packets, + FCS, preamble and IFG */
	uint64_t rx_segs_max;	 /* most segments in one rx_packets frame */
	uint64_t rx_tcp_payload; /* --tcp: TCP payload bytes received */
	uint64_t rx_len_max;	 /* --tcp: longest frame received */
	uint64_t verified; /* frames whose length and payload were checked */
	uint64_t payload_errors;
	uint64_t len_errors;
	uint64_t test_corrupted; /* frames --test-corrupt damaged */
	uint64_t reordered;
	uint64_t duplicates;
	double duration_s; /* time the trial window was open */
	/* rr.c: --rr, --reflect and --rx-mode interrupt runs only */
	uint64_t rx_polls;	  /* rte_eth_rx_burst() calls on the rx port */
	uint64_t intr_sleeps;	  /* epoll waits with rx interrupts armed */
	uint64_t wakeups;	  /* of those, returned with an event */
	uint64_t cpu_ns;	  /* thread CPU time of the loop */
	uint64_t rr_transactions; /* responses matched to a request */
	uint64_t rr_timeouts;	  /* requests re-sent after --rr-timeout-ms */
	uint64_t rr_late;	  /* responses to requests already re-sent */
	uint64_t reflected;	  /* --reflect: frames sent back */
	uint64_t loop_ns;	  /* wall time of the loop cpu_ns is of */
	uint32_t n_secs;	  /* whole seconds of the window in rx_by_s */
	struct hist lat;
	/* frames received in each whole second of the trial window (its
	 * first n_secs): a host that slows both processes for a while
	 * shows here, not in the trial's mean (tools/bench: slow_s_pct) */
	uint32_t rx_by_s[GEN_SECONDS_MAX];
};

/* Derived figures, as reported. */
struct trial_result {
	uint64_t rx_foreign;
	uint64_t lost;
	double loss_pct;
	double offered_mpps;
	double tx_mpps;
	double rx_mpps;
	double rx_gbps;
	uint64_t rx_bytes; /* frame bytes (pkt_len) of rx_packets */
	uint64_t p50, p90, p99, p999;
};

struct flow_rx {
	uint64_t top; /* highest sequence seen + 1; 0: none yet */
	uint64_t win[GEN_SEQ_WINDOW / 64];
};

/* Most pairs: one port each way, RTE_MAX_ETHPORTS ports in all. */
#define GEN_MAX_PAIRS (RTE_MAX_ETHPORTS / 2)
/* --lean: mbufs per sending pair (a 1024-entry tx ring, bursts, cache). */
#define GEN_LEAN_MBUFS 4095

/*
 * One sender and its receiver. Without --pairs there is one pair: the
 * --tx-port and --rx-port (either may be GEN_PORT_NONE, or both the same).
 */
struct gen_pair {
	int tx_port;
	int rx_port;
	uint32_t flow;	   /* first flow of this pair's frames */
	uint64_t src_base; /* first source MAC as a 48-bit number */
	uint32_t len;	   /* frame length: --size, + 50 sent on --vxlan */
	uint16_t eth_off;  /* the (inner) Ethernet header: 0, or 50 */
	uint16_t hdr_off;  /* struct gen_hdr */
	/* copied whole into every frame: 64 bytes, or 128 on --vxlan */
	uint8_t tmpl[128];
	struct rte_mempool *tx_mp; /* --lean: frames prebuilt at creation */
};

/* Everything the trial loop needs; lives for the whole process. */
struct gen_ctx {
	const struct gen_opts *o;
	struct rte_mempool *mp;
	uint16_t nb_ports;
	int tx_port; /* resolved: GEN_PORT_NONE or an id (pair 0's) */
	int rx_port;
	struct gen_pair pair[GEN_MAX_PAIRS];
	uint16_t npairs;
	uint64_t rx_ports; /* bit per port that is some pair's receiver */
	uint64_t hz;
	double ns_per_cycle; /* 1e9 / hz: latency without a division */
	uint32_t run_id;
	uint32_t trial;
	uint32_t nflows;
	uint32_t hdr_off; /* offset of struct gen_hdr in pair 0's frames */
	uint32_t tmpl_len;
	uint32_t seg_room; /* frame bytes one mbuf holds */
	uint32_t tx_segs;  /* segments of one --size frame */
	bool tx_slow;	   /* frames need gen_tx_complete() (chain, pattern) */
	uint64_t tx_seq[GEN_MAX_FLOWS];
	struct flow_rx *flows; /* nflows entries */
	bool progress;
	struct rte_ether_addr vx_peer_mac; /* --vxlan: from ARP */
	uint16_t nrxq[RTE_MAX_ETHPORTS];   /* rx queues set up per port */
};

extern volatile sig_atomic_t gen_stop;	 /* SIGINT, SIGTERM: interrupted */
extern volatile sig_atomic_t gen_finish; /* SIGUSR1: end the trial now */

/* The trial's sending (or its request/response loop) is over early. */
static inline bool gen_cut_short(void)
{
	return gen_stop || gen_finish;
}

/* vxlan.c */
int gen_parse_vxlan(const char *arg, struct gen_opts *o);
void gen_vx_outer(const struct gen_ctx *c, uint8_t *p, uint32_t inner_len);
int gen_vx_resolve(struct gen_ctx *c);

/* opts.c */
int gen_parse_opts(int argc, char **argv, struct gen_opts *o);
void gen_usage(FILE *f);

/* hist.c */
void hist_reset(struct hist *h);

/* Bucket of value v (inline: called per received frame). */
static inline unsigned int hist_index(uint64_t v)
{
	unsigned int e;

	if (v < HIST_SUB)
		return (unsigned int)v;
	e = 63 - (unsigned int)__builtin_clzll(v);
	if (e > HIST_MAX_EXP)
		return HIST_BUCKETS - 1;
	return (e - HIST_SUB_BITS + 1) * HIST_SUB +
	       (unsigned int)((v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->bucket[hist_index(v)]++;
	h->count++;
	if (v > h->max)
		h->max = v;
}
uint64_t hist_percentile(const struct hist *h, double pct);

/* gen.c */
int gen_ctx_init(struct gen_ctx *c);
void gen_ctx_free(struct gen_ctx *c);
void gen_announce(struct gen_ctx *c);
void gen_run_trial(struct gen_ctx *c, uint64_t rate, double duration, bool send,
		   struct trial_stats *s);

/* The vswgen header of a frame (untagged or 802.1Q), or NULL. */
/*
 * The header of a vswgen frame inside VXLAN (--vxlan): IPv4 without
 * options, UDP to 4789, an untagged inner frame.
 */
static inline const struct gen_hdr *find_vxlan_hdr(struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const uint32_t off = GEN_VXLAN_HDRS + 12;
	uint16_t v;

	if (m->data_len < off + 2 + sizeof(struct gen_hdr) || p[14] != 0x45 ||
	    p[23] != IPPROTO_UDP)
		return NULL;
	memcpy(&v, p + 36, 2);
	if (v != rte_cpu_to_be_16(GEN_VXLAN_UDP_PORT))
		return NULL;
	memcpy(&v, p + off, 2);
	if (v != rte_cpu_to_be_16(GEN_ETHERTYPE))
		return NULL;
	return (const struct gen_hdr *)(p + off + 2);
}

static inline const struct gen_hdr *find_hdr(struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t off = 12;
	uint16_t et;

	if (m->data_len < 14 + sizeof(struct gen_hdr))
		return NULL;
	memcpy(&et, p + off, 2);
	if (et == rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN)) {
		off += 4;
		if (m->data_len < 18 + sizeof(struct gen_hdr))
			return NULL;
		memcpy(&et, p + off, 2);
	}
	if (et == rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) && off == 12)
		return find_vxlan_hdr(m);
	if (et != rte_cpu_to_be_16(GEN_ETHERTYPE))
		return NULL;
	return (const struct gen_hdr *)(p + off + 2);
}

/*
 * Up to n frames from every rx queue of a port in turn (--rx-queues: a
 * sender that picks its tx queue per thread, as OVS's pmd threads do,
 * reaches the second).
 */
static inline uint16_t gen_rx_burst(const struct gen_ctx *c, uint16_t port,
				    struct rte_mbuf **m, uint16_t n)
{
	uint16_t got = rte_eth_rx_burst(port, 0, m, n);

	for (uint16_t q = 1; q < c->nrxq[port] && got < n; q++)
		got += rte_eth_rx_burst(port, q, m + got, (uint16_t)(n - got));
	return got;
}

void gen_reset_trial(struct gen_ctx *c, struct trial_stats *s);
/* Send n frames on pair 0's tx port as the trial loop does (count, free
 * the rest).
 */
void gen_send_burst(struct gen_ctx *c, struct rte_mbuf **m, unsigned int n,
		    struct trial_stats *s);

/* rr.c */
int gen_rx_intr_setup(struct gen_ctx *c);
bool gen_rr_mode(const struct gen_opts *o);
void gen_run_rr(struct gen_ctx *c, struct trial_stats *s);
void gen_print_rr_json(FILE *f, const struct gen_ctx *c,
		       const struct trial_stats *s);
void gen_print_rr_human(const struct gen_ctx *c, const struct trial_stats *s);

/* tcp.c */
bool gen_tcp_tso(const struct gen_opts *o);
struct rte_eth_conf;
int gen_tcp_port_conf(uint16_t p, const struct gen_opts *o, bool tx, bool rx,
		      struct rte_eth_conf *conf);
void gen_tcp_frame(const struct gen_ctx *c, const struct gen_pair *pp,
		   uint8_t *p);
void gen_tcp_tx_prep(const struct gen_ctx *c, struct rte_mbuf **m,
		     unsigned int n);

/* payload.c */
uint32_t gen_segs(uint32_t size, uint32_t seg_room);
unsigned int gen_tx_complete(struct gen_ctx *c, struct rte_mbuf **m,
			     unsigned int n, bool hdr);
void gen_rx_verify(struct gen_ctx *c, struct rte_mbuf *m,
		   const struct gen_hdr *h, struct trial_stats *s);

/* report.c */
void gen_result(const struct gen_ctx *c, const struct trial_stats *s,
		struct trial_result *r);
void gen_print_human(const struct gen_ctx *c, const struct trial_stats *s);
void gen_print_json_fields(FILE *f, const struct gen_ctx *c,
			   const struct trial_stats *s);

#endif /* VSWGEN_H */
