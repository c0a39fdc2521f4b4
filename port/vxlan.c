/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vxlan ports: a VTEP (RFC 7348) on an underlay ethdev.  To the switch it
 * is one port whose frames are the overlay's; the Linux model of a vxlan
 * device enslaved to a bridge.
 *
 * Receive (worker): the underlay's frames are IPv4/UDP 4789 to local-ip
 * from a known remote VTEP (remote-ips) with the VXLAN I flag and a VNI of
 * the port's (vni, vnis), whose outer headers are checked (IPv4 header
 * checksum, lengths, no fragment, the UDP checksum when it is not 0) and
 * stripped; a VNI of vnis gets its VLAN's 802.1Q tag pushed, so the
 * switch sees the port as a trunk of those VLANs.  ARP for local-ip goes
 * to the control thread through a ring; everything else is dropped and
 * counted by reason (`vswctl vteps PORT`).  An inner frame that carries a
 * VLAN tag is dropped (RFC 7348, section 6.1).  The VTEP a frame came from
 * is kept in the mbuf (hash.usr: index + 1) for the switch.
 *
 * Send (worker): the frame's VLAN (its tag, popped) or the untagged VNI
 * gives the VNI; a copy goes to every remote VTEP of it (head-end
 * replication) whose next hop's MAC is known, under fresh outer headers:
 * Ethernet to the next hop, IPv4 local-ip -> VTEP (DF set, TTL 64, the
 * header checksum computed), UDP from a port the inner flow's hash
 * chooses in 49152..65535 to 4789 with checksum 0 (RFC 7348 allows it for
 * IPv4), the VXLAN header with the I flag.  The last copy is the frame
 * itself when the switch holds its only reference (no copy at all for a
 * frame to one VTEP); a frame shared with other outputs is copied.  Copies
 * are the switch's mbufs, also of a frame in a big mbuf, when the frame
 * fits one (a jumbo frame is copied in its own pool).  The
 * port takes every frame it is given: what the underlay refuses is freed
 * and counted (tx_full).  It offers no offload: the switch finishes
 * checksums and cuts TSO frames before (the outer headers have no room
 * for a NIC's help here yet).
 *
 * Control: ARP.  vsw answers requests for local-ip and asks, once a
 * second until answered and every 30 s after, for the MAC of each VTEP's
 * next hop (the VTEP itself on local-ip's subnet, else the gateway);
 * an ARP request or reply from a next hop gives its MAC.  The underlay is
 * the operator's network: what it says in ARP is believed, as a host
 * believes it.
 *
 * Threads: rx on the worker that owns the rx queue, tx on any worker
 * (counters in rows by the tx queue index, one per worker), the rest on
 * the control thread.  A VTEP's MAC is one 64-bit word (valid bit 63),
 * written by control and read by workers, relaxed: a stale MAC for one
 * burst is what any ARP change costs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_arp.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include <rte_telemetry.h>
#include <rte_udp.h>

#include "ethdev_priv.h"
#include "flow_hash.h"
#include "vxlan_hdr.h"

#define VX_ROWS 64	/* tx counter rows: the tx queue index, mod */
#define VX_BURST 64	/* encapsulated frames sent at once */
#define VX_ARP_RING 256 /* ARP frames waiting for control */
#define VX_MAC_VALID (1ull << 63)
#define VX_ASK_S 1	/* unanswered ARP: ask again after */
#define VX_REFRESH_S 30 /* answered: ask again after */
#define VX_SPORT_MIN 49152
#define VX_NO_MAP 0xff

struct vx_ctrs {
	uint64_t packets;
	uint64_t bytes; /* inner frames' */
};

struct vx_vtep {
	uint32_t ip;   /* host order */
	uint32_t nh;   /* next hop: ip, or the gateway */
	uint64_t vnis; /* bit i: member of map[i]'s flood list */
	uint64_t mac;  /* next hop's MAC | VX_MAC_VALID; control writes */
	uint64_t asked_tsc;
	uint64_t answered_tsc;
};

struct vsw_vxlan_port {
	struct vsw_eth_port eth; /* first: its base is the port's */
	struct vsw_vxlan_conf c;
	struct rte_ether_addr mac;  /* the underlay's */
	uint32_t mask;		    /* local-ip's subnet mask */
	uint8_t vlan_map[4096 + 1]; /* VLAN (4096: untagged) -> map[] index */
	bool tagged;		    /* vnis: frames come and go tagged */
	unsigned int n_vteps;
	struct vx_vtep vtep[VSW_VXLAN_VTEPS_MAX];
	struct rte_ring *arp;
	/* counters: rx rows by rx queue, tx rows by tx queue index */
	struct vx_ctrs rx[VSW_MAX_QUEUES][VSW_VXLAN_VTEPS_MAX];
	struct vx_ctrs tx[VX_ROWS][VSW_VXLAN_VTEPS_MAX];
	uint64_t unicast[VX_ROWS]; /* frames sent to one VTEP: the FDB knew */
	uint64_t rx_drops[VSW_MAX_QUEUES][VSW_VX_DROP_MAX];
	uint64_t tx_drops[VX_ROWS][VSW_VX_DROP_MAX];
	uint64_t arp_in, arp_replies, arp_requests, arp_ignored; /* control */
	uint64_t flow_key; /* outer source ports' hash key, at create */
};

struct vx_hdr {
	struct rte_ether_hdr eth;
	struct rte_ipv4_hdr ip;
	struct rte_udp_hdr udp;
	uint8_t flags;
	uint8_t rsvd1[3];
	rte_be32_t vni; /* VNI << 8 */
} __rte_packed __rte_aligned(2);
_Static_assert(sizeof(struct vx_hdr) == VSW_VXLAN_OVERHEAD, "outer headers");

static inline struct vsw_vxlan_port *vx_cast(struct vsw_port *p)
{
	return container_of(p, struct vsw_vxlan_port, eth.base);
}

/* VTEPs only grow (control appends one, then publishes the count); a
 * VTEP's VNIs change under the workers (relaxed: one burst late). */
static inline unsigned int vteps_n(const struct vsw_vxlan_port *x)
{
	return __atomic_load_n(&x->n_vteps, __ATOMIC_ACQUIRE);
}

static inline uint64_t vnis_of(const struct vx_vtep *t)
{
	return __atomic_load_n(&t->vnis, __ATOMIC_RELAXED);
}

static inline int vtep_of(const struct vsw_vxlan_port *x, uint32_t ip)
{
	unsigned int n = vteps_n(x);

	for (unsigned int i = 0; i < n; i++)
		if (x->vtep[i].ip == ip)
			return (int)i;
	return -1;
}

static inline int map_of_vni(const struct vsw_vxlan_port *x, uint32_t vni)
{
	for (unsigned int i = 0; i < x->c.n_vnis; i++)
		if (x->c.map[i].vni == vni)
			return (int)i;
	return -1;
}

/* ---- receive ---- */

/* Take VXLAN frame @m (vsw_vxlan_parse said so in @r): the UDP checksum,
 * the VTEP and the VNI; strip the outer headers and push the VLAN's tag.
 * VSW_VX_OK or a drop reason. */
static int decap(struct vsw_vxlan_port *x, uint16_t q, struct rte_mbuf *m,
		 const struct vsw_vxlan_rx *r)
{
	int v, mi;

	/* (Ethernet padding after the datagram is not the inner frame's) */
	if (m->pkt_len > r->len)
		rte_pktmbuf_trim(m, (uint16_t)(m->pkt_len - r->len));
	if (r->udp_csum &&
	    rte_ipv4_udptcp_cksum_mbuf_verify(
		    m,
		    rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *,
					    r->l3),
		    (uint16_t)(r->inner - 16)) != 0)
		return VSW_VX_DROP_BAD_UDP;
	v = vtep_of(x, r->src);
	if (v < 0)
		return VSW_VX_DROP_UNKNOWN_VTEP;
	mi = map_of_vni(x, r->vni);
	if (mi < 0 || !(vnis_of(&x->vtep[v]) >> mi & 1))
		return VSW_VX_DROP_UNKNOWN_VNI;
	if (r->inner_tagged)
		return VSW_VX_DROP_INNER_TAGGED;
	rte_pktmbuf_adj(m, r->inner);
	if (x->c.map[mi].vlan != VSW_NO_VLAN) {
		/* push the VLAN's tag (the adj left 50 bytes of room) */
		uint8_t *h = (uint8_t *)rte_pktmbuf_prepend(m, 4);

		if (h == NULL) /* (never: the adj left the room) */
			return VSW_VX_DROP_BAD_VXLAN;
		memmove(h, h + 4, 12);
		h[12] = 0x81;
		h[13] = 0x00;
		h[14] = (uint8_t)(x->c.map[mi].vlan >> 8);
		h[15] = (uint8_t)x->c.map[mi].vlan;
	}
	m->ol_flags &= RTE_MBUF_F_EXTERNAL | RTE_MBUF_F_INDIRECT;
	m->packet_type = 0;
	m->hash.usr = (uint32_t)v + 1;
	x->rx[q][v].packets++;
	x->rx[q][v].bytes += m->pkt_len;
	return VSW_VX_OK;
}

static uint16_t vx_rx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
		      uint16_t n)
{
	struct vsw_vxlan_port *x = vx_cast(p);
	uint16_t k = 0;

	n = rte_eth_rx_burst(x->eth.port_id, q, pkts, n);
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		struct vsw_vxlan_rx h;
		int r = vsw_vxlan_parse(rte_pktmbuf_mtod(m, const uint8_t *),
					m->data_len, m->pkt_len, x->c.local_ip,
					&h);

		if (r == VSW_VX_OK)
			r = decap(x, q, m, &h);
		if (r == VSW_VX_OK) {
			pkts[k++] = m;
			continue;
		}
		if (r == VSW_VX_ARP) {
			if (rte_ring_mp_enqueue(x->arp, m) == 0)
				continue;
			r = VSW_VX_DROP_ARP_FULL;
		}
		x->rx_drops[q][r]++;
		rte_pktmbuf_free(m);
	}
	return k;
}

/* ---- send ---- */

/* The outer UDP source port: the inner flow's hash (flow_hash.h, keyed
 * by the port), in 49152..65535. */
static inline uint16_t flow_port(const uint8_t *d, uint16_t len, uint64_t key)
{
	return (uint16_t)(VX_SPORT_MIN + (vsw_flow_hash(d, len, key) & 0x3fff));
}

/*
 * The outer headers toward one VTEP in one VNI, built once per burst (and
 * again when the VTEP, the VNI or its next hop's MAC changes): per frame
 * only the lengths, the UDP source port and the IPv4 checksum, added to
 * the template's partial sum, are written.
 */
struct vx_tmpl {
	struct vx_hdr h; /* total_length, checksum, lengths, port: 0 */
	uint32_t sum;	 /* __rte_raw_cksum of h.ip as it is */
	int vtep;	 /* -1: none built */
	uint32_t vni;
	uint64_t mac;
	uint64_t flow_key; /* the port's (flow_port) */
};

static void tmpl_build(const struct vsw_vxlan_port *x, struct vx_tmpl *tp,
		       int i, uint32_t vni, uint64_t mac)
{
	struct vx_hdr *h = &tp->h;

	memset(h, 0, sizeof(*h));
	for (int k = 0; k < 6; k++)
		h->eth.dst_addr.addr_bytes[k] = (uint8_t)(mac >> (40 - 8 * k));
	rte_ether_addr_copy(&x->mac, &h->eth.src_addr);
	h->eth.ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	h->ip.version_ihl = RTE_IPV4_VHL_DEF;
	h->ip.fragment_offset = RTE_BE16(RTE_IPV4_HDR_DF_FLAG);
	h->ip.time_to_live = 64;
	h->ip.next_proto_id = IPPROTO_UDP;
	h->ip.src_addr = rte_cpu_to_be_32(x->c.local_ip);
	h->ip.dst_addr = rte_cpu_to_be_32(x->vtep[i].ip);
	h->udp.dst_port = RTE_BE16(VSW_VXLAN_UDP_PORT);
	h->flags = 0x08;
	h->vni = rte_cpu_to_be_32(vni << 8);
	tp->sum = __rte_raw_cksum(&h->ip, sizeof(h->ip), 0);
	tp->vtep = i;
	tp->vni = vni;
	tp->mac = mac;
	tp->flow_key = x->flow_key;
}

/* Prepend the outer headers of @tp to @m (its only owner, direct,
 * untagged); false when it has no room for them (never from the pools
 * vsw makes). */
static __rte_always_inline bool encap(struct rte_mbuf *m,
				      const struct vx_tmpl *tp)
{
	uint16_t sport = flow_port(rte_pktmbuf_mtod(m, const uint8_t *),
				   m->data_len, tp->flow_key);
	struct vx_hdr *h = (struct vx_hdr *)rte_pktmbuf_prepend(m, sizeof(*h));
	uint16_t tot = (uint16_t)(m->pkt_len - sizeof(struct rte_ether_hdr));
	rte_be16_t be_tot = rte_cpu_to_be_16(tot);

	if (h == NULL)
		return false;
	memcpy(h, &tp->h, sizeof(*h));
	h->ip.total_length = be_tot;
	h->ip.hdr_checksum =
		(uint16_t)~__rte_raw_cksum_reduce(tp->sum + be_tot);
	h->udp.src_port = rte_cpu_to_be_16(sport);
	h->udp.dgram_len = rte_cpu_to_be_16((uint16_t)(tot - sizeof(h->ip)));
	m->ol_flags &= RTE_MBUF_F_EXTERNAL | RTE_MBUF_F_INDIRECT;
	m->l2_len = 0;
	m->l3_len = 0;
	m->l4_len = 0;
	return true;
}

/* A copy of @m for one more VTEP, in the switch's mbufs when it fits one:
 * a guest that sends TSO frames has all its frames in 64 KiB big mbufs,
 * and a copy in @m's pool would take one of those per VTEP.  (A longer
 * frame, a jumbo one, is copied as it came: one buffer, which an underlay
 * without chained frames takes; vsw_pool_holding.) */
static inline struct rte_mbuf *vx_copy(const struct vsw_vxlan_port *x,
				       struct rte_mbuf *m)
{
	struct rte_mempool *mp = x->eth.base.mp;

	return rte_pktmbuf_copy(m,
				mp == NULL ? m->pool : vsw_pool_holding(mp, m),
				0, UINT32_MAX);
}

/* @m may be changed in place: ours alone, direct, with room in front. */
static inline bool own_frame(const struct rte_mbuf *m)
{
	return RTE_MBUF_DIRECT(m) && rte_mbuf_refcnt_read(m) == 1 &&
	       rte_pktmbuf_headroom(m) >= sizeof(struct vx_hdr);
}

struct vx_out {
	struct rte_mbuf *m[VX_BURST];
	uint16_t n;
	struct vx_tmpl tmpl; /* the last VTEP and VNI sent to */
};

static void out_flush(struct vsw_vxlan_port *x, uint16_t q, struct vx_out *o)
{
	uint16_t sent = vsw_eth_tx(&x->eth, q, o->m, o->n);

	if (sent < o->n) {
		x->tx_drops[q % VX_ROWS][VSW_VX_DROP_TX_FULL] += o->n - sent;
		rte_pktmbuf_free_bulk(o->m + sent, o->n - sent);
	}
	o->n = 0;
}

/* Encapsulate @c (ours to change) toward VTEP @i (next hop @mac) in @vni
 * and queue it; consumes @c.  @tagged: @c carries the VLAN tag its VNI
 * came from, which it loses. */
static __rte_always_inline void send_to(struct vsw_vxlan_port *x, uint16_t q,
					struct vx_out *o, struct rte_mbuf *c,
					unsigned int i, uint32_t vni,
					uint64_t mac, bool tagged)
{
	if (tagged) {
		uint8_t *d = rte_pktmbuf_mtod(c, uint8_t *);

		memmove(d + 4, d, 12);
		rte_pktmbuf_adj(c, 4);
	}
	x->tx[q % VX_ROWS][i].packets++;
	x->tx[q % VX_ROWS][i].bytes += c->pkt_len;
	if (o->tmpl.vtep != (int)i || o->tmpl.vni != vni || o->tmpl.mac != mac)
		tmpl_build(x, &o->tmpl, (int)i, vni, mac);
	if (unlikely(!encap(c, &o->tmpl))) {
		x->tx_drops[q % VX_ROWS][VSW_VX_DROP_NO_MBUF]++;
		rte_pktmbuf_free(c);
		return;
	}
	o->m[o->n++] = c;
	if (o->n == VX_BURST)
		out_flush(x, q, o);
}

/*
 * Send @m to the VTEPs of map entry @mi that @only holds (a bit per VTEP)
 * and whose next hop is resolved, a copy each; consumes @m.  @tagged: @m
 * carries the VLAN tag its VNI came from, which every copy loses.  One
 * candidate (a unicast to a MAC learned behind a VTEP, a flood on a port
 * of one VTEP) takes a short way: no second look at the others.
 */
static void send_vni(struct vsw_vxlan_port *x, uint16_t q, struct vx_out *o,
		     struct rte_mbuf *m, int mi, bool tagged, uint64_t only)
{
	uint64_t *drops = x->tx_drops[q % VX_ROWS];
	uint32_t vni = x->c.map[mi].vni;
	unsigned int n = vteps_n(x);
	uint64_t cand = only & (n >= 64 ? UINT64_MAX : (1ull << n) - 1);
	unsigned int first;
	uint64_t mac;
	int last = -1;

	if (unlikely(cand == 0)) {
		drops[VSW_VX_DROP_NO_VTEP]++;
		rte_pktmbuf_free(m);
		return;
	}
	first = (unsigned int)__builtin_ctzll(cand);
	if ((cand & (cand - 1)) == 0) {
		struct rte_mbuf *c = m;

		mac = __atomic_load_n(&x->vtep[first].mac, __ATOMIC_RELAXED);
		if (unlikely(!(vnis_of(&x->vtep[first]) >> mi & 1) ||
			     !(mac & VX_MAC_VALID))) {
			if (vnis_of(&x->vtep[first]) >> mi & 1)
				drops[VSW_VX_DROP_UNRESOLVED]++;
			drops[VSW_VX_DROP_NO_VTEP]++;
			rte_pktmbuf_free(m);
			return;
		}
		if (unlikely(!own_frame(m))) {
			c = vx_copy(x, m);
			rte_pktmbuf_free(m);
			if (c == NULL) {
				drops[VSW_VX_DROP_NO_MBUF]++;
				return;
			}
		}
		send_to(x, q, o, c, first, vni, mac, tagged);
		return;
	}
	for (unsigned int i = first; i < n; i++) {
		if (!(vnis_of(&x->vtep[i]) >> mi & 1) || !(cand >> i & 1))
			continue;
		if (!(__atomic_load_n(&x->vtep[i].mac, __ATOMIC_RELAXED) &
		      VX_MAC_VALID)) {
			drops[VSW_VX_DROP_UNRESOLVED]++;
			continue;
		}
		last = (int)i;
	}
	if (last < 0) {
		drops[VSW_VX_DROP_NO_VTEP]++;
		rte_pktmbuf_free(m);
		return;
	}
	for (unsigned int i = first; i <= (unsigned int)last; i++) {
		const struct vx_vtep *t = &x->vtep[i];
		struct rte_mbuf *c;

		mac = __atomic_load_n(&t->mac, __ATOMIC_RELAXED);
		if (!(vnis_of(t) >> mi & 1) || !(cand >> i & 1) ||
		    !(mac & VX_MAC_VALID))
			continue;
		if (i == (unsigned int)last && own_frame(m)) {
			c = m;
			m = NULL;
		} else {
			c = vx_copy(x, m);
			if (c == NULL) {
				drops[VSW_VX_DROP_NO_MBUF]++;
				continue;
			}
		}
		send_to(x, q, o, c, i, vni, mac, tagged);
	}
	if (m != NULL) /* (not a call per frame: the common case gave it on) */
		rte_pktmbuf_free(m);
}

static uint16_t vx_tx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
		      uint16_t n)
{
	struct vsw_vxlan_port *x = vx_cast(p);
	unsigned int nv = vteps_n(x);
	uint64_t unicast = 0;
	struct vx_out o;

	o.n = 0;
	o.tmpl.vtep = -1;
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
		bool tagged = m->data_len >= 18 && d[12] == 0x81 && d[13] == 0;
		unsigned int v = tagged ? ((d[14] & 0xfu) << 8 | d[15]) : 4096;
		uint8_t mi = x->vlan_map[v];
		uint32_t ep = m->hash.usr - 1; /* (0, none: wraps) */
		uint64_t mac;

		if (unlikely(mi == VX_NO_MAP)) {
			x->tx_drops[q % VX_ROWS][VSW_VX_DROP_NO_VNI]++;
			rte_pktmbuf_free(m);
			continue;
		}
		/* the VTEP the switch learned the destination behind, if it
		 * is one of this VNI's; else (none, or one gone) every VTEP */
		if (ep >= nv || !(vnis_of(&x->vtep[ep]) >> mi & 1)) {
			send_vni(x, q, &o, m, mi, tagged, UINT64_MAX);
			continue;
		}
		unicast++;
		/* the common case here: resolved, ours to change */
		mac = __atomic_load_n(&x->vtep[ep].mac, __ATOMIC_RELAXED);
		if (likely((mac & VX_MAC_VALID) && own_frame(m)))
			send_to(x, q, &o, m, ep, x->c.map[mi].vni, mac, tagged);
		else
			send_vni(x, q, &o, m, mi, tagged, 1ull << ep);
	}
	if (o.n > 0)
		out_flush(x, q, &o);
	x->unicast[q % VX_ROWS] += unicast;
	return n;
}

/* ---- control: ARP ---- */

static uint64_t mac_word(const struct rte_ether_addr *a)
{
	uint64_t w = 0;

	for (int i = 0; i < 6; i++)
		w = w << 8 | a->addr_bytes[i];
	return w;
}

/* Send one ARP frame (@op) to @tha/@tip from us, on tx queue 0. */
static void arp_send(struct vsw_vxlan_port *x, uint16_t op,
		     const struct rte_ether_addr *tha, uint32_t tip)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(x->eth.base.mp);
	struct rte_ether_hdr *eh;
	struct rte_arp_hdr *a;

	if (m == NULL)
		return;
	eh = (struct rte_ether_hdr *)rte_pktmbuf_append(m, sizeof(*eh) +
								   sizeof(*a));
	a = (struct rte_arp_hdr *)(eh + 1);
	if (op == RTE_ARP_OP_REQUEST)
		memset(&eh->dst_addr, 0xff, sizeof(eh->dst_addr));
	else
		rte_ether_addr_copy(tha, &eh->dst_addr);
	rte_ether_addr_copy(&x->mac, &eh->src_addr);
	eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_ARP);
	a->arp_hardware = RTE_BE16(RTE_ARP_HRD_ETHER);
	a->arp_protocol = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	a->arp_hlen = RTE_ETHER_ADDR_LEN;
	a->arp_plen = 4;
	a->arp_opcode = rte_cpu_to_be_16(op);
	rte_ether_addr_copy(&x->mac, &a->arp_data.arp_sha);
	a->arp_data.arp_sip = rte_cpu_to_be_32(x->c.local_ip);
	if (op == RTE_ARP_OP_REQUEST)
		memset(&a->arp_data.arp_tha, 0, sizeof(a->arp_data.arp_tha));
	else
		rte_ether_addr_copy(tha, &a->arp_data.arp_tha);
	a->arp_data.arp_tip = rte_cpu_to_be_32(tip);
	if (vsw_eth_tx(&x->eth, 0, &m, 1) == 1) {
		if (op == RTE_ARP_OP_REQUEST)
			x->arp_requests++;
		else
			x->arp_replies++;
	} else {
		rte_pktmbuf_free(m);
	}
}

/* One ARP frame from the underlay: answer, learn a next hop's MAC. */
static void arp_in(struct vsw_vxlan_port *x, struct rte_mbuf *m, uint64_t now)
{
	const struct rte_arp_hdr *a;
	uint32_t sip, tip;
	uint16_t op;
	bool used = false;

	x->arp_in++;
	if (m->data_len < sizeof(struct rte_ether_hdr) + sizeof(*a)) {
		x->arp_ignored++;
		return;
	}
	a = rte_pktmbuf_mtod_offset(m, const struct rte_arp_hdr *,
				    sizeof(struct rte_ether_hdr));
	op = rte_be_to_cpu_16(a->arp_opcode);
	sip = rte_be_to_cpu_32(a->arp_data.arp_sip);
	tip = rte_be_to_cpu_32(a->arp_data.arp_tip);
	if (a->arp_hardware != RTE_BE16(RTE_ARP_HRD_ETHER) ||
	    a->arp_protocol != RTE_BE16(RTE_ETHER_TYPE_IPV4) ||
	    a->arp_hlen != RTE_ETHER_ADDR_LEN || a->arp_plen != 4 ||
	    !rte_is_unicast_ether_addr(&a->arp_data.arp_sha) ||
	    (sip & x->mask) != (x->c.local_ip & x->mask) ||
	    sip == x->c.local_ip) {
		x->arp_ignored++;
		return;
	}
	for (unsigned int i = 0; i < x->n_vteps; i++) {
		struct vx_vtep *t = &x->vtep[i];

		if (t->nh != sip)
			continue;
		__atomic_store_n(&t->mac,
				 mac_word(&a->arp_data.arp_sha) | VX_MAC_VALID,
				 __ATOMIC_RELAXED);
		t->answered_tsc = now;
		used = true;
	}
	if (op == RTE_ARP_OP_REQUEST && tip == x->c.local_ip) {
		arp_send(x, RTE_ARP_OP_REPLY, &a->arp_data.arp_sha, sip);
		used = true;
	}
	if (!used)
		x->arp_ignored++;
}

static void vx_upkeep(struct vsw_port *p)
{
	struct vsw_vxlan_port *x = vx_cast(p);
	uint64_t now = rte_get_tsc_cycles(), hz = rte_get_tsc_hz();
	struct rte_mbuf *m;
	uint32_t asked[VSW_VXLAN_VTEPS_MAX];
	unsigned int n_asked = 0;

	while (rte_ring_sc_dequeue(x->arp, (void **)&m) == 0) {
		arp_in(x, m, now);
		rte_pktmbuf_free(m);
	}
	if (!vsw_port_is_up(p))
		return;
	for (unsigned int i = 0; i < x->n_vteps; i++) {
		struct vx_vtep *t = &x->vtep[i];
		bool valid = __atomic_load_n(&t->mac, __ATOMIC_RELAXED) &
			     VX_MAC_VALID;
		bool dup = false;

		if (t->vnis == 0) /* (an EVPN VTEP no VNI has now) */
			continue;
		if (now - t->asked_tsc <
			    (valid ? VX_REFRESH_S : VX_ASK_S) * hz &&
		    t->asked_tsc != 0)
			continue;
		if (valid && now - t->answered_tsc < VX_REFRESH_S * hz)
			continue;
		for (unsigned int k = 0; k < n_asked; k++)
			dup |= asked[k] == t->nh;
		t->asked_tsc = now;
		if (dup)
			continue;
		asked[n_asked++] = t->nh;
		arp_send(x, RTE_ARP_OP_REQUEST, NULL, t->nh);
	}
}

/* ---- life cycle, views ---- */

static void vx_destroy(struct vsw_port *p)
{
	struct vsw_vxlan_port *x = vx_cast(p);
	struct rte_mbuf *m;

	vsw_eth_close(&x->eth);
	while (x->arp != NULL && rte_ring_sc_dequeue(x->arp, (void **)&m) == 0)
		rte_pktmbuf_free(m);
	rte_ring_free(x->arp);
	PORT_LOG(INFO, "%s: removed", p->name);
}

static void ip_str(uint32_t a, char *b, size_t len)
{
	snprintf(b, len, "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff,
		 (a >> 8) & 0xff, a & 0xff);
}

static void vnis_str(const struct vsw_vxlan_port *x, uint64_t bits, char *b,
		     size_t len)
{
	size_t o = 0;

	b[0] = '\0';
	for (unsigned int i = 0; i < x->c.n_vnis && o < len; i++) {
		if (!(bits >> i & 1))
			continue;
		if (x->c.map[i].vlan == VSW_NO_VLAN)
			o += (size_t)snprintf(b + o, len - o, "%s%u",
					      o ? " " : "", x->c.map[i].vni);
		else
			o += (size_t)snprintf(b + o, len - o, "%s%u:%u",
					      o ? " " : "", x->c.map[i].vlan,
					      x->c.map[i].vni);
	}
}

/* Control: the VTEP's view (`vswctl vteps PORT`, /vsw/vteps). */
static int vx_view(struct vsw_port *p, struct rte_tel_data *d)
{
	struct vsw_vxlan_port *x = vx_cast(p);
	char b[VSW_VXLAN_LIST_MAX];
	struct rte_tel_data *dr = rte_tel_data_alloc();

	if (dr == NULL)
		return -ENOMEM;
	ip_str(x->c.local_ip, b, sizeof(b));
	snprintf(b + strlen(b), sizeof(b) - strlen(b), "/%u", x->c.plen);
	rte_tel_data_add_dict_string(d, "local_ip", b);
	rte_ether_format_addr(b, sizeof(b), &x->mac);
	rte_tel_data_add_dict_string(d, "mac", b);
	vnis_str(x, UINT64_MAX, b, sizeof(b));
	rte_tel_data_add_dict_string(d, "vnis", b);
	{
		uint64_t u = 0;

		for (int q = 0; q < VX_ROWS; q++)
			u += x->unicast[q];
		rte_tel_data_add_dict_u64(d, "tx_unicast", u);
	}
	rte_tel_data_add_dict_u64(d, "arp_in", x->arp_in);
	rte_tel_data_add_dict_u64(d, "arp_replies", x->arp_replies);
	rte_tel_data_add_dict_u64(d, "arp_requests", x->arp_requests);
	rte_tel_data_add_dict_u64(d, "arp_ignored", x->arp_ignored);
	rte_tel_data_start_dict(dr);
	for (int r = 0; r < VSW_VX_DROP_MAX; r++) {
		uint64_t s = 0;

		for (int q = 0; q < VSW_MAX_QUEUES; q++)
			s += x->rx_drops[q][r];
		for (int q = 0; q < VX_ROWS; q++)
			s += x->tx_drops[q][r];
		rte_tel_data_add_dict_u64(dr, vsw_vx_drop_names[r], s);
	}
	rte_tel_data_add_dict_container(d, "drops", dr, 0);
	for (unsigned int i = 0; i < x->n_vteps; i++) {
		const struct vx_vtep *t = &x->vtep[i];
		struct rte_tel_data *v = rte_tel_data_alloc();
		uint64_t mac = __atomic_load_n(&t->mac, __ATOMIC_RELAXED);
		struct vx_ctrs rx = {0, 0}, tx = {0, 0};
		char name[24];

		if (v == NULL)
			return -ENOMEM;
		for (int q = 0; q < VSW_MAX_QUEUES; q++) {
			rx.packets += x->rx[q][i].packets;
			rx.bytes += x->rx[q][i].bytes;
		}
		for (int q = 0; q < VX_ROWS; q++) {
			tx.packets += x->tx[q][i].packets;
			tx.bytes += x->tx[q][i].bytes;
		}
		rte_tel_data_start_dict(v);
		ip_str(t->ip, b, sizeof(b));
		rte_tel_data_add_dict_string(v, "ip", b);
		ip_str(t->nh, b, sizeof(b));
		rte_tel_data_add_dict_string(v, "next_hop", b);
		if (mac & VX_MAC_VALID)
			snprintf(b, sizeof(b), "%02x:%02x:%02x:%02x:%02x:%02x",
				 (unsigned int)(mac >> 40) & 0xff,
				 (unsigned int)(mac >> 32) & 0xff,
				 (unsigned int)(mac >> 24) & 0xff,
				 (unsigned int)(mac >> 16) & 0xff,
				 (unsigned int)(mac >> 8) & 0xff,
				 (unsigned int)mac & 0xff);
		else
			snprintf(b, sizeof(b), "unresolved");
		rte_tel_data_add_dict_string(v, "next_hop_mac", b);
		vnis_str(x, t->vnis, b, sizeof(b));
		rte_tel_data_add_dict_string(v, "vnis", b);
		rte_tel_data_add_dict_u64(v, "rx_packets", rx.packets);
		rte_tel_data_add_dict_u64(v, "rx_bytes", rx.bytes);
		rte_tel_data_add_dict_u64(v, "tx_packets", tx.packets);
		rte_tel_data_add_dict_u64(v, "tx_bytes", tx.bytes);
		/* (a telemetry key holds no '.': vtep_0, vtep_1...) */
		snprintf(name, sizeof(name), "vtep_%u", i);
		rte_tel_data_add_dict_container(d, name, v, 0);
	}
	return 0;
}

static int vx_endpoint(struct vsw_port *p, unsigned int ep, char *buf,
		       size_t len)
{
	struct vsw_vxlan_port *x = vx_cast(p);

	if (ep == 0 || ep > x->n_vteps)
		return -ENOENT;
	ip_str(x->vtep[ep - 1].ip, buf, len);
	return 0;
}

static int vx_endpoint_get(struct vsw_port *p, uint32_t ip, bool create)
{
	struct vsw_vxlan_port *x = vx_cast(p);
	int v = vtep_of(x, ip);
	struct vx_vtep *t;

	if (v >= 0)
		return v + 1;
	if (!create)
		return -ENOENT;
	if (x->n_vteps == VSW_VXLAN_VTEPS_MAX)
		return -ENOSPC;
	t = &x->vtep[x->n_vteps];
	memset(t, 0, sizeof(*t));
	t->ip = ip;
	t->nh = (ip & x->mask) == (x->c.local_ip & x->mask) ? ip : x->c.gateway;
	if (t->nh == 0)
		return -EHOSTUNREACH; /* (not taken: no slot used) */
	__atomic_store_n(&x->n_vteps, x->n_vteps + 1, __ATOMIC_RELEASE);
	return (int)x->n_vteps;
}

static int vx_endpoint_vni(struct vsw_port *p, unsigned int ep, uint32_t vni,
			   bool on)
{
	struct vsw_vxlan_port *x = vx_cast(p);
	int mi = map_of_vni(x, vni);
	struct vx_vtep *t;
	uint64_t v;

	if (ep == 0 || ep > x->n_vteps || mi < 0)
		return -ENOENT;
	t = &x->vtep[ep - 1];
	v = on ? t->vnis | 1ull << mi : t->vnis & ~(1ull << mi);
	__atomic_store_n(&t->vnis, v, __ATOMIC_RELAXED);
	return 0;
}

static void vx_info(struct vsw_port *p, struct vsw_port_info *pi)
{
	pi->tx_queues_shared = vx_cast(p)->eth.txq_shared;
}

static const struct vsw_port_ops vx_port_ops = {
	.rx = vx_rx,
	.tx = vx_tx,
	.poll = vsw_eth_poll,
	.destroy = vx_destroy,
	.set_mtu = vsw_eth_set_mtu,
	.upkeep = vx_upkeep,
	.info = vx_info,
	.view = vx_view,
	.endpoint = vx_endpoint,
	.endpoint_get = vx_endpoint_get,
	.endpoint_vni = vx_endpoint_vni,
};

static int vx_create(struct vsw_port *p, const struct vsw_port_env *env,
		     char *err, size_t errlen)
{
	struct vsw_vxlan_port *x = vx_cast(p);
	char what[160], name[RTE_RING_NAMESIZE];
	const char *key = "";
	static unsigned int gen;
	int rc;

	if (vsw_config_vxlan(&p->conf, &x->c, &key, what, sizeof(what)) < 0) {
		snprintf(err, errlen, "port %s: %s: %s", p->name, key, what);
		return -EINVAL;
	}
	x->mask = x->c.plen == 32 ? UINT32_MAX : ~(UINT32_MAX >> x->c.plen);
	x->flow_key = vsw_flow_key_new();
	memset(x->vlan_map, VX_NO_MAP, sizeof(x->vlan_map));
	for (unsigned int i = 0; i < x->c.n_vnis; i++) {
		uint16_t v = x->c.map[i].vlan;

		x->vlan_map[v == VSW_NO_VLAN ? 4096 : v] = (uint8_t)i;
		x->tagged |= v != VSW_NO_VLAN;
	}
	for (unsigned int i = 0; i < x->c.n_remotes; i++) {
		struct vx_vtep *t = &x->vtep[x->n_vteps++];

		t->ip = x->c.remotes[i];
		t->nh = (t->ip & x->mask) == (x->c.local_ip & x->mask)
				? t->ip
				: x->c.gateway;
		/* static remote-ips: every VTEP floods every VNI */
		t->vnis = x->c.n_vnis == 64 ? UINT64_MAX
					    : (1ull << x->c.n_vnis) - 1;
	}
	snprintf(name, sizeof(name), "vsw_vxarp%u_%u", p->id, gen++);
	x->arp = rte_ring_create(name, VX_ARP_RING, SOCKET_ID_ANY,
				 RING_F_SC_DEQ);
	if (x->arp == NULL) {
		snprintf(err, errlen, "port %s: cannot make its ARP ring: %s",
			 p->name, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	x->eth.ctl_tx = true;
	x->eth.mtu_extra = VSW_VXLAN_OVERHEAD;
	p->offloads = false; /* (outer headers: the switch finishes all) */
	rc = vsw_eth_open(&x->eth, env, err, errlen);
	if (rc == 0 && rte_eth_macaddr_get(x->eth.port_id, &x->mac) != 0) {
		snprintf(err, errlen,
			 "port %s: the underlay has no MAC address", p->name);
		vsw_eth_close(&x->eth);
		rc = -ENODEV;
	}
	if (rc < 0) {
		rte_ring_free(x->arp);
		x->arp = NULL;
		return rc;
	}
	p->tx_offloads = 0;
	p->endpoints = true;
	p->ops = &vx_port_ops;
	PORT_LOG(INFO, "%s: vxlan VTEP %s, %u remote VTEPs, %u VNIs", p->name,
		 p->conf.local_ip, x->n_vteps, x->c.n_vnis);
	return 0;
}

/* clang-format off */
static const char *const vx_keys[] = {
	"type", "devargs", "queues", "rxq", "txq", "workers", "mtu",
	"max-macs", "allowed-macs", "offloads", "local-ip", "gateway",
	"remote-ips", "vni", "vnis", "evpn", NULL,
};
/* clang-format on */

const struct vsw_port_kind vsw_vxlan_port_kind = {
	.name = "vxlan",
	.type = VSW_PORT_VXLAN,
	.size = sizeof(struct vsw_vxlan_port),
	.create = vx_create,
	.keys = vx_keys,
};
