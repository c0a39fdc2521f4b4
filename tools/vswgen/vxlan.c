/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vswgen --vxlan PORT,MY_IP,PEER_IP,VNI: port PORT is an underlay whose
 * other end is a VTEP at PEER_IP (a switch's VXLAN port); vswgen plays the
 * remote host's VTEP at MY_IP.  Before anything is sent it asks for
 * PEER_IP's MAC with ARP on PORT (the request also tells the switch where
 * MY_IP is), then every frame it sends on PORT (trial frames and
 * announcements) is its plain --size frame under 50 bytes of outer
 * headers: Ethernet PORT's MAC -> the peer, IPv4 MY_IP -> PEER_IP (DF,
 * TTL 64, checksum), UDP 49152 -> 4789 (checksum 0), VXLAN with the I flag
 * and VNI.  Frames received on PORT count on the wire (outer headers
 * included); find_hdr() looks inside them.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <rte_arp.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "vswgen.h"

#define VX_SPORT 49152
#define VX_ARP_WAIT_S 5

static int bad_vxlan(const char *arg)
{
	fprintf(stderr,
		"vswgen: --vxlan \"%s\": expected PORT,MY_IP,PEER_IP,VNI "
		"(a port id, two IPv4 addresses, a VNI 0..16777215)\n",
		arg);
	return -1;
}

int gen_parse_vxlan(const char *arg, struct gen_opts *o)
{
	char buf[96], *f[4], *save = NULL, *end;
	struct in_addr a;
	unsigned long v;
	int n = 0;

	if (strlen(arg) >= sizeof(buf))
		return bad_vxlan(arg);
	strcpy(buf, arg);
	for (char *t = strtok_r(buf, ",", &save); t != NULL;
	     t = strtok_r(NULL, ",", &save)) {
		if (n == 4)
			return bad_vxlan(arg);
		f[n++] = t;
	}
	if (n != 4)
		return bad_vxlan(arg);
	v = strtoul(f[0], &end, 10);
	if (*f[0] == '\0' || *end != '\0' || v >= RTE_MAX_ETHPORTS)
		return bad_vxlan(arg);
	o->vx_port = (int)v;
	if (inet_pton(AF_INET, f[1], &a) != 1)
		return bad_vxlan(arg);
	o->vx_my_ip = ntohl(a.s_addr);
	if (inet_pton(AF_INET, f[2], &a) != 1 || ntohl(a.s_addr) == o->vx_my_ip)
		return bad_vxlan(arg);
	o->vx_peer_ip = ntohl(a.s_addr);
	v = strtoul(f[3], &end, 0);
	if (*f[3] == '\0' || *end != '\0' || v > 0xffffff)
		return bad_vxlan(arg);
	o->vx_vni = (uint32_t)v;
	return 0;
}

/* The 50 outer bytes before an inner frame of inner_len bytes. */
void gen_vx_outer(const struct gen_ctx *c, uint8_t *p, uint32_t inner_len)
{
	const struct gen_opts *o = c->o;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + 14);
	struct rte_udp_hdr *u = (struct rte_udp_hdr *)(p + 34);
	uint16_t et = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	uint32_t w;

	memcpy(p, &c->vx_peer_mac, RTE_ETHER_ADDR_LEN);
	rte_eth_macaddr_get((uint16_t)o->vx_port,
			    (struct rte_ether_addr *)(p + 6));
	memcpy(p + 12, &et, 2);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(inner_len + 36));
	ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(o->vx_my_ip);
	ip->dst_addr = rte_cpu_to_be_32(o->vx_peer_ip);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	u->src_port = rte_cpu_to_be_16(VX_SPORT);
	u->dst_port = rte_cpu_to_be_16(GEN_VXLAN_UDP_PORT);
	u->dgram_len = rte_cpu_to_be_16((uint16_t)(inner_len + 16));
	u->dgram_cksum = 0;
	w = rte_cpu_to_be_32(0x08000000u); /* flags: I */
	memcpy(p + 42, &w, 4);
	w = rte_cpu_to_be_32(o->vx_vni << 8);
	memcpy(p + 46, &w, 4);
}

static void arp_request(const struct gen_ctx *c, uint16_t port)
{
	const struct gen_opts *o = c->o;
	struct rte_ether_hdr *eh;
	struct rte_arp_hdr *a;
	struct rte_mbuf *m = rte_pktmbuf_alloc(c->mp);

	if (m == NULL)
		return;
	eh = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	memset(eh, 0, 60);
	memset(&eh->dst_addr, 0xff, RTE_ETHER_ADDR_LEN);
	rte_eth_macaddr_get(port, &eh->src_addr);
	eh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
	a = (struct rte_arp_hdr *)(eh + 1);
	a->arp_hardware = rte_cpu_to_be_16(RTE_ARP_HRD_ETHER);
	a->arp_protocol = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	a->arp_hlen = RTE_ETHER_ADDR_LEN;
	a->arp_plen = 4;
	a->arp_opcode = rte_cpu_to_be_16(RTE_ARP_OP_REQUEST);
	a->arp_data.arp_sha = eh->src_addr;
	a->arp_data.arp_sip = rte_cpu_to_be_32(o->vx_my_ip);
	a->arp_data.arp_tip = rte_cpu_to_be_32(o->vx_peer_ip);
	m->data_len = 60;
	m->pkt_len = 60;
	if (rte_eth_tx_burst(port, 0, &m, 1) != 1)
		rte_pktmbuf_free(m);
}

/* An ARP reply from the peer in m: its MAC into c->vx_peer_mac. */
static bool arp_reply(struct gen_ctx *c, struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eh =
		rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_arp_hdr *a = (const struct rte_arp_hdr *)(eh + 1);

	if (m->data_len < sizeof(*eh) + sizeof(*a) ||
	    eh->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP) ||
	    a->arp_opcode != rte_cpu_to_be_16(RTE_ARP_OP_REPLY) ||
	    a->arp_data.arp_sip != rte_cpu_to_be_32(c->o->vx_peer_ip))
		return false;
	c->vx_peer_mac = a->arp_data.arp_sha;
	return true;
}

/*
 * Ask for the peer's MAC (every 200 ms, up to VX_ARP_WAIT_S s). 0, or -1
 * with a message when nobody answered.
 */
int gen_vx_resolve(struct gen_ctx *c)
{
	const uint16_t port = (uint16_t)c->o->vx_port;
	const uint64_t end = rte_rdtsc() + VX_ARP_WAIT_S * c->hz;
	uint64_t next = 0;
	struct rte_mbuf *m[32];
	bool got = false;
	uint16_t n;

	while (!got && !gen_stop && rte_rdtsc() < end) {
		if (rte_rdtsc() >= next) {
			arp_request(c, port);
			next = rte_rdtsc() + c->hz / 5;
		}
		n = gen_rx_burst(c, port, m, RTE_DIM(m));
		for (uint16_t i = 0; i < n; i++)
			got = got || arp_reply(c, m[i]);
		if (n > 0)
			rte_pktmbuf_free_bulk(m, n);
		usleep(1000);
	}
	if (!got) {
		struct in_addr a = {.s_addr = htonl(c->o->vx_peer_ip)};

		fprintf(stderr,
			"vswgen: --vxlan: no ARP reply from %s on port %u in "
			"%d s\n",
			inet_ntoa(a), port, VX_ARP_WAIT_S);
		return -1;
	}
	return 0;
}
