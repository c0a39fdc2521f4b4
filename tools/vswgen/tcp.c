/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vswgen --tcp MSS: a TCP/IPv4 stream as a Linux guest sends it, for the
 * offload benchmark (tools/bench --tcp). Frames are --size bytes of
 * Ethernet, IPv4 (DF), TCP (20 bytes) and payload, prebuilt once in the
 * --lean pools. A frame whose payload is above MSS is a TSO super-frame:
 * marked for the port to cut at MSS (RTE_MBUF_F_TX_TCP_SEG, which the
 * virtio PMD turns into a virtio-net header with gso_type TCPV4), its TCP
 * checksum left to the host. A frame of at most MSS bytes of payload is a
 * plain segment with both checksums computed, as a guest without offloads
 * sends it. The receiving port asks for LRO where it is offered (a guest
 * that negotiates GUEST_TSO4 and GUEST_CSUM), so a switch may hand it
 * super-frames whole. Received frames are counted, not read: the TCP
 * payload is pkt_len less the 54 bytes of headers.
 */
#include <inttypes.h>
#include <stdio.h>

#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_tcp.h>

#include "vswgen.h"

#define TCP_SPORT 40000
#define TCP_DPORT 5201

bool gen_tcp_tso(const struct gen_opts *o)
{
	return o->tcp_mss > 0 && o->size - GEN_TCP_HDRS > o->tcp_mss;
}

/*
 * Port offloads for --tcp: TSO and TCP checksum on a port that sends
 * super-frames (-3 when it offers none: the switch negotiated no
 * HOST_TSO4), LRO and TCP checksum on a receiving port where offered.
 */
int gen_tcp_port_conf(uint16_t p, const struct gen_opts *o, bool tx, bool rx,
		      struct rte_eth_conf *conf)
{
	const uint64_t want_tx =
		RTE_ETH_TX_OFFLOAD_TCP_TSO | RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
	const uint64_t want_rx =
		RTE_ETH_RX_OFFLOAD_TCP_LRO | RTE_ETH_RX_OFFLOAD_TCP_CKSUM;
	struct rte_eth_dev_info info;

	if (rte_eth_dev_info_get(p, &info) != 0)
		return -1;
	if (tx && gen_tcp_tso(o)) {
		if ((info.tx_offload_capa & want_tx) != want_tx) {
			fprintf(stderr,
				"vswgen: --tcp: port %u offers no TSO (tx "
				"offload capa 0x%" PRIx64 "): the switch did "
				"not negotiate HOST_TSO4; send frames of at "
				"most MSS + %u bytes\n",
				p, info.tx_offload_capa, GEN_TCP_HDRS);
			return -3;
		}
		conf->txmode.offloads |= want_tx;
	}
	if (rx && !o->tcp_no_lro && (info.rx_offload_capa & want_rx) == want_rx)
		conf->rxmode.offloads |= want_rx;
	return 0;
}

/* A pair's frame, headers and a zero payload, written once at pool init. */
void gen_tcp_frame(const struct gen_ctx *c, const struct gen_pair *pp,
		   uint8_t *p)
{
	const struct gen_opts *o = c->o;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + 14);
	struct rte_tcp_hdr *th = (struct rte_tcp_hdr *)(p + 34);
	uint16_t et = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);

	memcpy(p, pp->tmpl, 12); /* dst, src */
	memcpy(p + 12, &et, 2);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(o->size - 14));
	ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_TCP;
	ip->src_addr = rte_cpu_to_be_32(0x0a000001 + pp->flow * 2);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000002 + pp->flow * 2);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	memset(th, 0, sizeof(*th));
	th->src_port = rte_cpu_to_be_16(TCP_SPORT);
	th->dst_port = rte_cpu_to_be_16(TCP_DPORT);
	th->sent_seq = rte_cpu_to_be_32(1);
	th->recv_ack = rte_cpu_to_be_32(1);
	th->data_off = 5 << 4;
	th->tcp_flags = RTE_TCP_ACK_FLAG;
	th->rx_win = rte_cpu_to_be_16(65535);
	if (gen_tcp_tso(o))
		th->cksum = rte_ipv4_phdr_cksum(ip, RTE_MBUF_F_TX_TCP_SEG);
	else
		th->cksum = rte_ipv4_udptcp_cksum(ip, th);
}

/*
 * Per frame at send: the offload request (reset by the allocation), and
 * for a super-frame the pseudo-header checksum again, as the virtio PMD
 * adds the payload length into it in place on every send.
 */
void gen_tcp_tx_prep(const struct gen_ctx *c, struct rte_mbuf **m,
		     unsigned int n)
{
	struct rte_ipv4_hdr *ip;
	struct rte_tcp_hdr *th;
	uint16_t ph = 0;
	unsigned int i;

	if (!gen_tcp_tso(c->o))
		return;
	ip = rte_pktmbuf_mtod_offset(m[0], struct rte_ipv4_hdr *, 14);
	ph = rte_ipv4_phdr_cksum(ip, RTE_MBUF_F_TX_TCP_SEG);
	for (i = 0; i < n; i++) {
		th = rte_pktmbuf_mtod_offset(m[i], struct rte_tcp_hdr *, 34);
		th->cksum = ph;
		m[i]->ol_flags = RTE_MBUF_F_TX_TCP_SEG |
				 RTE_MBUF_F_TX_TCP_CKSUM | RTE_MBUF_F_TX_IPV4;
		m[i]->l2_len = 14;
		m[i]->l3_len = 20;
		m[i]->l4_len = 20;
		m[i]->tso_segsz = (uint16_t)c->o->tcp_mss;
	}
}
