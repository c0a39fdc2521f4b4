/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tso_peer: a DPDK guest (virtio-user) that sends TCP frames of up to
 * 64 KiB for the host to cut (TSO through the virtio PMD), or receives
 * and checks what it is given, for tests/integration/53_offloads.sh.
 *
 *   tso_peer EAL-ARGS -- --send --dst MAC [--frames N] [--payload P]
 *                        [--mss M] [--v6 | --v6-ext | --v6-srh] [--csum-only]
 *                        [--src MAC]
 *   tso_peer EAL-ARGS -- --recv --seconds S [--lro] [--src MAC]
 *
 * --send: N frames of P TCP payload bytes, marked for TSO at segment size
 * M (--csum-only: one frame of P <= M bytes each, the checksum left to
 * the host), every payload byte a function of its TCP sequence number,
 * 200 us apart.  --v6-ext: IPv6 with a 16-byte destination options
 * header before TCP; --v6-srh: with a segment routing header of two
 * segments, one left (the IPv6 destination fd00::3 the next, fd00::2 the
 * final one, which the TCP checksum's pseudo header names).  With either,
 * the virtio PMD's tx preparation writes a wrong pseudo-header sum
 * (DPDK's rte_net_intel_cksum_prepare takes the fixed header's next
 * header and payload length); vsw recomputes the sum of what it cuts or
 * fills, and a TSO guest is told the sum is left.
 * Exits 3 when the port offers no TSO (a host with offloads off).
 * --recv: announces its MAC (one broadcast frame), then receives for S
 * seconds; with --lro it asks for the host's TSO frames whole (the virtio
 * PMD then negotiates GUEST_TSO4/6 and GUEST_CSUM).  Every frame from a
 * sender is parsed and its payload checked against its sequence numbers,
 * and its IPv4 and TCP checksums verified unless the host marked them left
 * to fill (IPv6: after hop-by-hop, routing and destination options
 * headers).  Prints one JSON line of counts.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>

#define ROOM 65535 /* a whole 64 KiB frame in one mbuf */
#define NB 512
#define GAP_US 200 /* between frames sent */
#define SPORT 40000
#define DPORT 5201
#define SEQ0 0xfffff000u /* wraps within the first frames */

struct opts {
	bool send, recv, lro, v6, csum_only;
	int ext; /* IPv6 extension header: 0 none, 60 (options), 43 (SRH) */
	unsigned int frames, payload, mss, seconds;
	struct rte_ether_addr src, dst;
};

static uint8_t pattern(uint32_t seq)
{
	return (uint8_t)(seq * 7 + (seq >> 8));
}

static int parse_mac(const char *s, struct rte_ether_addr *a)
{
	return rte_ether_unformat_addr(s, a);
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{"send", no_argument, NULL, 's'},
		{"recv", no_argument, NULL, 'r'},
		{"lro", no_argument, NULL, 'l'},
		{"v6", no_argument, NULL, '6'},
		{"v6-ext", no_argument, NULL, 'x'},
		{"v6-srh", no_argument, NULL, 'R'},
		{"csum-only", no_argument, NULL, 'c'},
		{"frames", required_argument, NULL, 'n'},
		{"payload", required_argument, NULL, 'p'},
		{"mss", required_argument, NULL, 'm'},
		{"seconds", required_argument, NULL, 't'},
		{"src", required_argument, NULL, 'S'},
		{"dst", required_argument, NULL, 'D'},
		{NULL, 0, NULL, 0},
	};
	int c;

	o->frames = 100;
	o->payload = 20000;
	o->mss = 1448;
	o->seconds = 5;
	parse_mac("02:00:00:00:00:01", &o->src);
	parse_mac("ff:ff:ff:ff:ff:ff", &o->dst);
	optind = 1; /* getopt ran in rte_eal_init */
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			o->send = true;
			break;
		case 'r':
			o->recv = true;
			break;
		case 'l':
			o->lro = true;
			break;
		case '6':
			o->v6 = true;
			break;
		case 'x':
			o->v6 = true;
			o->ext = IPPROTO_DSTOPTS;
			break;
		case 'R':
			o->v6 = true;
			o->ext = IPPROTO_ROUTING;
			break;
		case 'c':
			o->csum_only = true;
			break;
		case 'n':
			o->frames = (unsigned int)atoi(optarg);
			break;
		case 'p':
			o->payload = (unsigned int)atoi(optarg);
			break;
		case 'm':
			o->mss = (unsigned int)atoi(optarg);
			break;
		case 't':
			o->seconds = (unsigned int)atoi(optarg);
			break;
		case 'S':
			if (parse_mac(optarg, &o->src) < 0)
				return -1;
			break;
		case 'D':
			if (parse_mac(optarg, &o->dst) < 0)
				return -1;
			break;
		default:
			return -1;
		}
	}
	if (o->send == o->recv || o->payload == 0 || o->payload > 65000 ||
	    o->mss == 0 || (o->csum_only && o->payload > o->mss))
		return -1;
	return 0;
}

static int port_up(uint16_t port, struct rte_mempool *mp, const struct opts *o)
{
	const uint64_t tso = RTE_ETH_TX_OFFLOAD_TCP_TSO |
			     RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
			     RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	int rc;

	memset(&conf, 0, sizeof(conf));
	if (rte_eth_dev_info_get(port, &info) != 0)
		return -1;
	if (o->send) {
		uint64_t want =
			o->csum_only ? RTE_ETH_TX_OFFLOAD_TCP_CKSUM : tso;

		if ((info.tx_offload_capa & want) != want) {
			printf("{\"error\":\"no tso\",\"tx_offload_capa\":"
			       "%" PRIu64 "}\n",
			       info.tx_offload_capa);
			return 3;
		}
		conf.txmode.offloads = want;
	}
	if (o->recv && o->lro)
		conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_TCP_LRO |
				       RTE_ETH_RX_OFFLOAD_TCP_CKSUM;
	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, NB, rte_socket_id(), NULL,
					    mp);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, NB, rte_socket_id(), NULL);
	if (rc == 0)
		rc = rte_eth_dev_start(port);
	return rc == 0 ? 0 : -1;
}

/* The IP headers' length: IPv4, IPv6 and its extension header (16 bytes
 * of destination options, 8 + 2 x 16 of segment routing) */
static uint32_t l3_len(const struct opts *o)
{
	if (!o->v6)
		return 20;
	return 40 + (o->ext == IPPROTO_DSTOPTS	 ? 16
		     : o->ext == IPPROTO_ROUTING ? 40
						 : 0);
}

/* Ethernet, IPv4 (DF) or IPv6, TCP (20 bytes): returns the header length */
static uint32_t headers(uint8_t *d, const struct opts *o, uint32_t payload,
			uint32_t seq, uint16_t id)
{
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)d;
	uint32_t l3 = l3_len(o);
	struct rte_tcp_hdr *th = (struct rte_tcp_hdr *)(d + 14 + l3);

	eh->dst_addr = o->dst;
	eh->src_addr = o->src;
	eh->ether_type = rte_cpu_to_be_16(o->v6 ? RTE_ETHER_TYPE_IPV6
						: RTE_ETHER_TYPE_IPV4);
	if (o->v6) {
		struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(d + 14);

		memset(ip, 0, l3);
		ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
		ip->payload_len =
			rte_cpu_to_be_16((uint16_t)(l3 - 40 + 20 + payload));
		ip->proto = IPPROTO_TCP;
		ip->hop_limits = 64;
		ip->src_addr[0] = 0xfd, ip->src_addr[15] = 1;
		ip->dst_addr[0] = 0xfd, ip->dst_addr[15] = 2;
		if (o->ext != 0) {
			uint8_t *x = (uint8_t *)(ip + 1);

			ip->proto = (uint8_t)o->ext;
			x[0] = IPPROTO_TCP, x[1] = (uint8_t)((l3 - 40) / 8 - 1);
			if (o->ext == IPPROTO_DSTOPTS) {
				x[2] = 1, x[3] = 12; /* PadN */
			} else { /* type 4, 1 left, last entry 1 */
				x[2] = 4, x[3] = 1, x[4] = 1;
				x[8] = 0xfd, x[23] = 2;	 /* [0]: final */
				x[24] = 0xfd, x[39] = 3; /* [1]: next */
				ip->dst_addr[15] = 3;
			}
		}
	} else {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(d + 14);

		memset(ip, 0, sizeof(*ip));
		ip->version_ihl = 0x45;
		ip->total_length = rte_cpu_to_be_16((uint16_t)(40 + payload));
		ip->packet_id = rte_cpu_to_be_16(id);
		ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
		ip->time_to_live = 64;
		ip->next_proto_id = IPPROTO_TCP;
		ip->src_addr = rte_cpu_to_be_32(0x0a000001);
		ip->dst_addr = rte_cpu_to_be_32(0x0a000002);
		/* as a Linux guest does: virtio has no IP checksum offload */
		ip->hdr_checksum = rte_ipv4_cksum(ip);
	}
	memset(th, 0, sizeof(*th));
	th->src_port = rte_cpu_to_be_16(SPORT);
	th->dst_port = rte_cpu_to_be_16(DPORT);
	th->sent_seq = rte_cpu_to_be_32(seq);
	th->recv_ack = rte_cpu_to_be_32(1);
	th->data_off = 5 << 4;
	th->tcp_flags = RTE_TCP_PSH_FLAG | RTE_TCP_ACK_FLAG;
	th->rx_win = rte_cpu_to_be_16(65535);
	return 14 + l3 + 20;
}

static int do_send(uint16_t port, struct rte_mempool *mp, const struct opts *o)
{
	uint32_t seq = SEQ0, l3 = l3_len(o);
	unsigned int sent = 0, tries = 0;

	while (sent < o->frames && tries < 1000000) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
		uint8_t *d;
		uint32_t hl;

		if (m == NULL)
			return 1;
		d = (uint8_t *)rte_pktmbuf_append(
			m, (uint16_t)(14 + l3 + 20 + o->payload));
		hl = headers(d, o, o->payload, seq, (uint16_t)sent);
		for (uint32_t i = 0; i < o->payload; i++)
			d[hl + i] = pattern(seq + i);
		m->l2_len = 14;
		m->l3_len = l3;
		m->l4_len = 20;
		m->ol_flags = RTE_MBUF_F_TX_TCP_CKSUM |
			      (o->v6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4);
		if (!o->csum_only) {
			m->ol_flags |= RTE_MBUF_F_TX_TCP_SEG;
			m->tso_segsz = (uint16_t)o->mss;
		}
		if (rte_eth_tx_prepare(port, 0, &m, 1) != 1) {
			fprintf(stderr, "tso_peer: tx_prepare refused: %s\n",
				rte_strerror(rte_errno));
			return 1;
		}
		while (rte_eth_tx_burst(port, 0, &m, 1) == 0 &&
		       ++tries < 1000000)
			rte_delay_us(10);
		seq += o->payload;
		sent++;
		/* paced: a receiver that checks every byte (an ASan build)
		 * keeps up with the segments vsw cuts from each frame */
		rte_delay_us_sleep(GAP_US);
	}
	rte_delay_ms(200);
	printf("{\"sent\":%u,\"payload\":%" PRIu64 "}\n", sent,
	       (uint64_t)sent * o->payload);
	return sent == o->frames ? 0 : 1;
}

struct rx_stats {
	uint64_t frames, bytes, payload, max_len, bad_csum, bad_data, partial,
		lro, other;
};

static void check_frame(struct rte_mbuf *m, const struct opts *o,
			struct rx_stats *s)
{
	static uint8_t buf[ROOM];
	const uint8_t *d = rte_pktmbuf_read(m, 0, m->pkt_len, buf);
	const struct rte_ether_hdr *eh = (const void *)d;
	uint16_t et = rte_be_to_cpu_16(eh->ether_type);
	uint32_t l3, pl, seq;
	const struct rte_tcp_hdr *th;
	const uint8_t *ip = d + 14;
	bool left;

	if (d == NULL || m->pkt_len < 54 ||
	    rte_is_same_ether_addr(&eh->src_addr, &o->src) ||
	    (et != RTE_ETHER_TYPE_IPV4 && et != RTE_ETHER_TYPE_IPV6)) {
		s->other++;
		return;
	}
	s->frames++;
	s->bytes += m->pkt_len;
	if (m->pkt_len > s->max_len)
		s->max_len = m->pkt_len;
	if (m->ol_flags & RTE_MBUF_F_RX_LRO)
		s->lro++;
	left = (m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) ==
	       RTE_MBUF_F_RX_L4_CKSUM_NONE;
	if (left)
		s->partial++;
	if (et == RTE_ETHER_TYPE_IPV4) {
		const struct rte_ipv4_hdr *h = (const void *)ip;

		l3 = 20;
		pl = rte_be_to_cpu_16(h->total_length) - 40;
		if (rte_ipv4_cksum(h) != 0) /* over a correct one: 0 */
			s->bad_csum++;
		th = (const void *)(ip + l3);
		if (!left && rte_ipv4_udptcp_cksum_verify(h, th) != 0)
			s->bad_csum++;
	} else {
		/* the fixed header as the pseudo header takes it: the TCP
		 * length and protocol after the extension headers */
		struct rte_ipv6_hdr h;
		uint8_t nh = ip[6];

		memcpy(&h, ip, sizeof(h));
		l3 = 40;
		while ((nh == 0 || nh == 43 || nh == 60) &&
		       14 + l3 + 8 <= m->pkt_len) {
			/* segment routing with segments left: the final
			 * destination is the list's first entry */
			if (nh == 43 && ip[l3 + 2] == 4 && ip[l3 + 3] != 0 &&
			    14 + l3 + 24 <= m->pkt_len)
				memcpy(h.dst_addr, ip + l3 + 8, 16);
			nh = ip[l3];
			l3 += (ip[l3 + 1] + 1u) * 8;
		}
		pl = rte_be_to_cpu_16(h.payload_len) - (l3 - 40);
		if (nh != IPPROTO_TCP || pl < 20 || 14 + l3 + 20 > m->pkt_len) {
			s->bad_data++;
			return;
		}
		h.payload_len = rte_cpu_to_be_16((uint16_t)pl);
		h.proto = IPPROTO_TCP;
		pl -= 20;
		th = (const void *)(ip + l3);
		if (!left && rte_ipv6_udptcp_cksum_verify(&h, th) != 0)
			s->bad_csum++;
	}
	if (14 + l3 + 20 + pl > m->pkt_len) {
		s->bad_data++;
		return;
	}
	seq = rte_be_to_cpu_32(th->sent_seq);
	for (uint32_t i = 0; i < pl; i++)
		if (d[14 + l3 + 20 + i] != pattern(seq + i)) {
			s->bad_data++;
			break;
		}
	s->payload += pl;
}

static int do_recv(uint16_t port, struct rte_mempool *mp, const struct opts *o)
{
	uint64_t end = rte_get_timer_cycles() +
		       (uint64_t)o->seconds * rte_get_timer_hz();
	struct rte_mbuf *pkts[32], *hello = rte_pktmbuf_alloc(mp);
	struct rx_stats s = {0};

	uint8_t *f = hello ? (uint8_t *)rte_pktmbuf_append(hello, 60) : NULL;

	if (f != NULL) { /* the switch learns where we are */
		struct rte_ether_hdr *eh = (struct rte_ether_hdr *)f;

		memset(f, 0, 60);
		memset(&eh->dst_addr, 0xff, 6);
		eh->src_addr = o->src;
		eh->ether_type = rte_cpu_to_be_16(0x88b5);
		if (rte_eth_tx_burst(port, 0, &hello, 1) == 0)
			rte_pktmbuf_free(hello);
	}
	while (rte_get_timer_cycles() < end) {
		uint16_t n = rte_eth_rx_burst(port, 0, pkts, 32);

		for (uint16_t i = 0; i < n; i++) {
			check_frame(pkts[i], o, &s);
			rte_pktmbuf_free(pkts[i]);
		}
		if (n == 0)
			rte_delay_us_sleep(50);
	}
	printf("{\"frames\":%" PRIu64 ",\"bytes\":%" PRIu64
	       ",\"payload\":%" PRIu64 ",\"max_len\":%" PRIu64
	       ",\"bad_csum\":%" PRIu64 ",\"bad_data\":%" PRIu64
	       ",\"partial\":%" PRIu64 ",\"lro\":%" PRIu64 ",\"other\":%" PRIu64
	       "}\n",
	       s.frames, s.bytes, s.payload, s.max_len, s.bad_csum, s.bad_data,
	       s.partial, s.lro, s.other);
	return 0;
}

int main(int argc, char **argv)
{
	struct rte_mempool *mp;
	struct opts o;
	int n, rc;

	memset(&o, 0, sizeof(o));
	n = rte_eal_init(argc, argv);
	if (n < 0)
		return 2;
	if (parse_opts(argc - n, argv + n, &o) < 0) {
		fprintf(stderr, "usage: tso_peer EAL -- --send --dst MAC "
				"[--frames N --payload P --mss M "
				"--v6|--v6-ext|--v6-srh "
				"--csum-only --src MAC] | --recv [--lro "
				"--seconds S --src MAC]\n");
		return 2;
	}
	mp = rte_pktmbuf_pool_create("tso", 1023, 0, 0, ROOM,
				     (int)rte_socket_id());
	if (mp == NULL || rte_eth_dev_count_avail() < 1)
		return 2;
	rc = port_up(0, mp, &o);
	if (rc != 0) { /* (closed and cleaned up: LeakSanitizer watches) */
		rte_eth_dev_close(0);
		rte_eal_cleanup();
		return rc == 3 ? 3 : 2;
	}
	rc = o.send ? do_send(0, mp, &o) : do_recv(0, mp, &o);
	rte_eth_dev_stop(0);
	rte_eth_dev_close(0);
	rte_eal_cleanup();
	return rc;
}
