/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Offloaded frames where they enter and leave (offload.h): the checks of
 * a guest's TSO frames and checksum requests, the checksum filled in for
 * an output that takes none, and the software segmentation of a TSO frame
 * for an output that cannot cut it (or whose mtu is below its segments).
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "frame.h"
#include "offload.h"
#include "txbuf.h"

#define ETH_HLEN 14u
#define TAG_HLEN 4u
#define IP4_HLEN 20u
#define IP6_HLEN 40u
#define TCP_HLEN 20u
#define UDP_HLEN 8u
#define PROTO_TCP 6
#define PROTO_UDP 17
#define TCP_FIN 0x01
#define TCP_PSH 0x08
#define TCP_CWR 0x80
#define TX_L3_MASK                                                             \
	(RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IPV6 | RTE_MBUF_F_TX_IP_CKSUM)

/* The headers of an offloaded frame, as its own bytes say. */
struct ol_hdrs {
	uint16_t l2, l3, l4; /* lengths */
	uint32_t ip_len;     /* the IP header's: l3 + l4 + payload */
	uint8_t proto;	     /* TCP or UDP */
	bool v6;
	/* IPv6: where the pseudo header's addresses are, from the IPv6
	 * header (RFC 8200 8.1: the final destination, the home address) */
	uint16_t src_at, dst_at;
};

static inline uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* A checksum as DPDK's functions return it: stored in memory order. */
static inline void put_sum(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

static inline bool is_tag(uint16_t et)
{
	return et == 0x8100 || et == 0x88a8 || et == 0x9100 || et == 0x9200;
}

/*
 * The extension headers of the IPv6 packet @ip (@len bytes of it in the
 * first segment) into @h: l3, proto, and where the pseudo header's
 * addresses are.  A routing header with segments left names the final
 * destination: type 2 (Mobile IPv6) its home address, type 4 (segment
 * routing) its segment list's first entry, both 8 bytes in; other types,
 * or two of them: -1.  A destination options header's home address
 * option (Mobile IPv6, type 0xc9) names the source.  0, or -1.
 */
static int ip6_ext(const uint8_t *ip, uint32_t len, struct ol_hdrs *h)
{
	uint32_t p = IP6_HLEN, q;
	uint8_t nh = ip[6], t;

	h->src_at = 8;
	h->dst_at = 24;
	for (unsigned int i = 0; i <= VSW_OL_IP6_EXT_MAX; i++, p = q) {
		if (!vsw_ip6_is_ext(nh))
			break;
		t = nh;
		q = vsw_ip6_skip_ext(ip, p, len, &nh, 1);
		if (i == VSW_OL_IP6_EXT_MAX || q == 0 || q > len ||
		    q > IP6_HLEN + VSW_OL_IP6_EXT_BYTES)
			return -1;
		if (t == 43 && ip[p + 3] != 0) { /* segments left */
			if (h->dst_at != 24 || q - p < 24 ||
			    (ip[p + 2] != 2 && ip[p + 2] != 4))
				return -1;
			h->dst_at = (uint16_t)(p + 8);
		}
		for (uint32_t o = p + 2; t == 60 && o < q;) {
			if (ip[o] == 0) { /* Pad1 */
				o++;
				continue;
			}
			if (o + 2 > q || o + 2 + ip[o + 1] > q)
				return -1;
			if (ip[o] == 0xc9) { /* home address */
				if (ip[o + 1] != 16 || h->src_at != 8)
					return -1;
				h->src_at = (uint16_t)(o + 2);
			}
			o += 2u + ip[o + 1];
		}
	}
	h->l3 = (uint16_t)p;
	h->proto = nh;
	return 0;
}

/*
 * Parse @m's headers, all of them in its first segment: Ethernet with up
 * to two VLAN tags, IPv4 (options, not a fragment) or IPv6 (extension
 * headers as offload.h allows), then TCP (options) or UDP; the IP length
 * within the frame.  0, or -1 for anything else.
 */
static int parse(const struct rte_mbuf *m, struct ol_hdrs *h)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *), *ip, *l4;
	uint32_t seg = m->data_len;
	uint16_t et;

	h->l2 = ETH_HLEN;
	if (seg < ETH_HLEN)
		return -1;
	et = be16(d + 12);
	for (int t = 0; t < 2 && is_tag(et); t++) {
		if (seg < h->l2 + TAG_HLEN)
			return -1;
		h->l2 += TAG_HLEN;
		et = be16(d + h->l2 - 2);
	}
	ip = d + h->l2;
	if (et == 0x0800) {
		if (seg < h->l2 + IP4_HLEN || ip[0] >> 4 != 4)
			return -1;
		h->l3 = (uint16_t)((ip[0] & 0x0f) * 4);
		h->ip_len = be16(ip + 2);
		if (h->l3 < IP4_HLEN || (be16(ip + 6) & 0x3fff) != 0)
			return -1; /* a fragment (MF, or an offset) */
		h->proto = ip[9];
		h->v6 = false;
	} else if (et == 0x86dd) {
		if (seg < h->l2 + IP6_HLEN || ip[0] >> 4 != 6 ||
		    ip6_ext(ip, seg - h->l2, h) < 0)
			return -1;
		h->ip_len = IP6_HLEN + (uint32_t)be16(ip + 4);
		h->v6 = true;
	} else {
		return -1;
	}
	if (h->ip_len < h->l3 || h->l2 + h->ip_len > m->pkt_len)
		return -1;
	l4 = ip + h->l3;
	if (h->proto == PROTO_TCP) {
		if (seg < (uint32_t)h->l2 + h->l3 + TCP_HLEN)
			return -1;
		h->l4 = (uint16_t)((l4[12] >> 4) * 4);
		if (h->l4 < TCP_HLEN)
			return -1;
	} else if (h->proto == PROTO_UDP) {
		h->l4 = UDP_HLEN;
	} else {
		return -1;
	}
	if ((uint32_t)h->l3 + h->l4 > h->ip_len ||
	    (uint32_t)h->l2 + h->l3 + h->l4 > seg)
		return -1;
	return 0;
}

enum vsw_drop_reason vsw_offload_in(struct rte_mbuf *m, uint32_t max_frame)
{
	uint64_t ol = m->ol_flags &
		      ~(RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_MASK);
	uint32_t hl, payload, seg;
	struct ol_hdrs h;

	if (parse(m, &h) < 0)
		return VSW_DROP_BAD_OFFLOAD;
	hl = (uint32_t)h.l2 + h.l3 + h.l4;
	if (m->ol_flags & RTE_MBUF_F_RX_LRO) {
		/* the lengths the descriptors gave must be the IP header's */
		if (h.proto != PROTO_TCP || m->tso_segsz < VSW_TSO_MIN_SEGSZ ||
		    h.l2 + h.ip_len != m->pkt_len || m->pkt_len <= hl)
			return VSW_DROP_BAD_OFFLOAD;
		payload = m->pkt_len - hl;
		if ((payload + m->tso_segsz - 1) / m->tso_segsz >
		    VSW_TSO_MAX_SEGS)
			return VSW_DROP_BAD_OFFLOAD;
		seg = payload < m->tso_segsz ? payload : m->tso_segsz;
		if (hl + seg > max_frame)
			return VSW_DROP_OVERSIZE; /* its segments' mtu */
		ol |= RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_TCP_CKSUM |
		      (h.v6 ? RTE_MBUF_F_TX_IPV6
			    : RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM);
	} else {
		if (m->pkt_len > max_frame)
			return VSW_DROP_OVERSIZE;
		ol |= (h.proto == PROTO_TCP ? RTE_MBUF_F_TX_TCP_CKSUM
					    : RTE_MBUF_F_TX_UDP_CKSUM) |
		      (h.v6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4);
	}
	m->l2_len = h.l2;
	m->l3_len = h.l3;
	m->l4_len = h.l4;
	m->ol_flags = ol;
	return VSW_DROP_MAX;
}

/* @s folded to 16 bits (one's complement). */
static inline uint16_t fold(uint64_t s)
{
	s = (s & 0xffffffff) + (s >> 32);
	s = (s & 0xffffffff) + (s >> 32);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/*
 * The one's-complement sum (RFC 1071) of @len bytes at @p in memory
 * order, folded: 32 bytes a step into a 64-bit sum of 32-bit words, which
 * folds to the sum of the 16-bit words (rte_raw_cksum adds 2 bytes a
 * step: this is the segmentation's hottest loop after the copy).
 */
static uint16_t sum_bytes(const uint8_t *p, uint32_t len)
{
	uint64_t s0 = 0, s1 = 0;
	uint64_t v[4];
	uint16_t t = 0;

	for (; len >= 32; p += 32, len -= 32) {
		memcpy(v, p, 32);
		s0 += (v[0] & 0xffffffff) + (v[0] >> 32) + (v[1] & 0xffffffff) +
		      (v[1] >> 32);
		s1 += (v[2] & 0xffffffff) + (v[2] >> 32) + (v[3] & 0xffffffff) +
		      (v[3] >> 32);
	}
	for (; len >= 8; p += 8, len -= 8) {
		memcpy(v, p, 8);
		s0 += (v[0] & 0xffffffff) + (v[0] >> 32);
	}
	for (; len >= 2; p += 2, len -= 2) {
		memcpy(&t, p, 2);
		s1 += t;
	}
	if (len == 1) { /* the last byte, as the first of a zero-padded word */
		t = 0;
		memcpy(&t, p, 1);
		s1 += t;
	}
	return fold(s0 + s1);
}

/*
 * The sum of @len bytes of the chain @m from @off, folded: a segment that
 * starts at an odd offset of the range adds its sum byte-swapped.
 */
static int sum_mbuf(const struct rte_mbuf *m, uint32_t off, uint32_t len,
		    uint16_t *out)
{
	uint64_t s = 0;
	uint32_t done = 0;

	while (m != NULL && off >= m->data_len) {
		off -= m->data_len;
		m = m->next;
	}
	for (; m != NULL && done < len; m = m->next, off = 0) {
		uint32_t n = m->data_len - off;
		uint16_t x;

		if (n > len - done)
			n = len - done;
		x = sum_bytes(rte_pktmbuf_mtod_offset(m, const uint8_t *, off),
			      n);
		s += done & 1 ? (uint16_t)(x << 8 | x >> 8) : x;
		done += n;
	}
	*out = fold(s);
	return done == len ? 0 : -1;
}

/*
 * The pseudo header's sum (memory order, not folded) of the packet at @ip
 * with @len bytes of protocol @h->proto after its IP headers.  IPv6: the
 * addresses ip6_ext found, that length and that protocol (RFC 8200 8.1),
 * never the fixed header's payload length and next header, which count
 * and name extension headers (rte_ipv6_phdr_cksum takes them).
 */
static uint32_t pseudo_sum(const uint8_t *ip, const struct ol_hdrs *h,
			   uint32_t len)
{
	if (!h->v6)
		return rte_ipv4_phdr_cksum((const struct rte_ipv4_hdr *)ip, 0);
	return (uint32_t)sum_bytes(ip + h->src_at, 16) +
	       sum_bytes(ip + h->dst_at, 16) +
	       rte_cpu_to_be_16((uint16_t)(len >> 16)) +
	       rte_cpu_to_be_16((uint16_t)len) + rte_cpu_to_be_16(h->proto);
}

/* The TCP/UDP checksum of the L4 bytes of @m at @h, its field zero. */
static uint16_t l4_csum(const struct rte_mbuf *m, const struct ol_hdrs *h)
{
	const uint8_t *ip = rte_pktmbuf_mtod_offset(m, const uint8_t *, h->l2);
	uint32_t off = (uint32_t)h->l2 + h->l3, len = h->ip_len - h->l3;
	uint32_t sum;
	uint16_t raw = 0, c;

	sum = pseudo_sum(ip, h, len);
	if (sum_mbuf(m, off, len, &raw) < 0)
		return 0;
	sum += raw;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	c = (uint16_t)~sum;
	if (c == 0 && h->proto == PROTO_UDP)
		c = 0xffff; /* RFC 768: zero is sent as all ones */
	return c;
}

/* Zero @m's L4 checksum field, compute it, write it (network order). */
static void put_l4_csum(struct rte_mbuf *m, const struct ol_hdrs *h)
{
	uint8_t *f = rte_pktmbuf_mtod_offset(m, uint8_t *, h->l2 + h->l3) +
		     (h->proto == PROTO_TCP ? 16 : 6);

	put_sum(f, 0);
	put_sum(f, l4_csum(m, h));
}

/* @m's checksum at @h filled in, its tx requests cleared. */
static void fill_csum(struct rte_mbuf *m, const struct ol_hdrs *h)
{
	put_l4_csum(m, h);
	m->ol_flags &= ~(VSW_OL_TX_MASK | TX_L3_MASK);
}

int vsw_offload_fill_csum(struct rte_mbuf *m)
{
	struct ol_hdrs h;

	if (parse(m, &h) < 0)
		return -1;
	fill_csum(m, &h);
	return 0;
}

/*
 * Append @len bytes of @src from offset @off to the chain @s, allocating
 * mbufs from @mp as each fills.  0, or -1 (no mbuf).
 */
static int copy_bytes(struct rte_mbuf *s, const struct rte_mbuf *src,
		      uint32_t off, uint32_t len, struct rte_mempool *mp)
{
	struct rte_mbuf *last = rte_pktmbuf_lastseg(s);

	while (src != NULL && off >= src->data_len) {
		off -= src->data_len;
		src = src->next;
	}
	while (len > 0 && src != NULL) {
		uint32_t n = src->data_len - off, room;

		if (n > len)
			n = len;
		room = rte_pktmbuf_tailroom(last);
		if (room == 0) {
			struct rte_mbuf *nm = rte_pktmbuf_alloc(mp);

			if (nm == NULL)
				return -1;
			last->next = nm;
			last = nm;
			s->nb_segs++;
			continue;
		}
		if (n > room)
			n = room;
		memcpy(rte_pktmbuf_mtod_offset(last, uint8_t *, last->data_len),
		       rte_pktmbuf_mtod_offset(src, const uint8_t *, off), n);
		last->data_len = (uint16_t)(last->data_len + n);
		s->pkt_len += n;
		len -= n;
		off += n;
		if (off == src->data_len) {
			src = src->next;
			off = 0;
		}
	}
	return len == 0 ? 0 : -1;
}

/* Segment @i of @n, @plen payload bytes from @off: its headers fixed. */
static void fix_headers(struct rte_mbuf *s, const struct ol_hdrs *h,
			uint32_t seq, uint16_t id, uint32_t off, uint32_t plen,
			unsigned int i, unsigned int n)
{
	uint8_t *ip = rte_pktmbuf_mtod_offset(s, uint8_t *, h->l2);
	uint8_t *tcp = ip + h->l3;
	struct ol_hdrs sh = *h;

	sh.ip_len = (uint32_t)h->l3 + h->l4 + plen;
	if (h->v6) {
		put16(ip + 4, (uint16_t)(sh.ip_len - IP6_HLEN));
	} else {
		put16(ip + 2, (uint16_t)sh.ip_len);
		put16(ip + 4, (uint16_t)(id + i));
		put_sum(ip + 10, 0);
		put_sum(ip + 10,
			rte_ipv4_cksum((const struct rte_ipv4_hdr *)ip));
	}
	seq += off;
	tcp[4] = (uint8_t)(seq >> 24);
	tcp[5] = (uint8_t)(seq >> 16);
	tcp[6] = (uint8_t)(seq >> 8);
	tcp[7] = (uint8_t)seq;
	if (i + 1 < n)
		tcp[13] &= (uint8_t) ~(TCP_FIN | TCP_PSH);
	if (i > 0)
		tcp[13] &= (uint8_t)~TCP_CWR;
	put_l4_csum(s, &sh);
}

int vsw_offload_segment(const struct rte_mbuf *m, uint32_t mss,
			struct rte_mempool *mp, struct rte_mbuf **segs,
			unsigned int max)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t hl, payload, off = 0, seq;
	unsigned int n, i;
	struct ol_hdrs h;
	int rc = -ENOBUFS;
	uint16_t id;

	if (parse(m, &h) < 0 || h.proto != PROTO_TCP || mss == 0)
		return -EINVAL;
	hl = (uint32_t)h.l2 + h.l3 + h.l4;
	payload = h.l2 + h.ip_len - hl;
	n = payload == 0 ? 1 : (payload + mss - 1) / mss;
	if (n > max)
		return -EINVAL;
	seq = (uint32_t)be16(d + hl - h.l4 + 4) << 16 | be16(d + hl - h.l4 + 6);
	id = h.v6 ? 0 : be16(d + h.l2 + 4);
	for (i = 0; i < n; i++) {
		uint32_t plen = payload - off < mss ? payload - off : mss;
		struct rte_mbuf *s = rte_pktmbuf_alloc(mp);

		if (s == NULL)
			goto fail;
		segs[i] = s;
		if (rte_pktmbuf_tailroom(s) < hl) {
			rc = -EINVAL;
			goto fail_this;
		}
		memcpy(rte_pktmbuf_append(s, (uint16_t)hl), d, hl);
		if (copy_bytes(s, m, hl + off, plen, mp) < 0)
			goto fail_this;
		s->port = m->port;
		s->hash.usr = m->hash.usr; /* (the endpoint: port.h) */
		fix_headers(s, &h, seq, id, off, plen, i, n);
		off += plen;
	}
	return (int)n;
fail_this:
	i++;
fail:
	while (i > 0)
		rte_pktmbuf_free(segs[--i]);
	return rc;
}

/* Is @m's data ours alone: one reference, and a frame in an external
 * buffer (vhost's EXTBUF for one longer than an mbuf) only when that
 * buffer has one reference too. */
static bool ours_alone(const struct rte_mbuf *m)
{
	return rte_mbuf_refcnt_read(m) == 1 &&
	       (RTE_MBUF_DIRECT(m) ||
		(RTE_MBUF_HAS_EXTBUF(m) &&
		 rte_mbuf_ext_refcnt_read(m->shinfo) == 1));
}

/* @m with one reference that is ours alone (a copy from @mp when
 * shared): NULL when no mbuf was left for the copy (@m freed). */
static struct rte_mbuf *own(struct rte_mbuf *m, struct rte_mempool *mp)
{
	struct rte_mbuf *c;

	if (ours_alone(m))
		return m;
	c = rte_pktmbuf_copy(m, mp, 0, UINT32_MAX);
	rte_pktmbuf_free(m);
	return c;
}

/*
 * An IPv4 TSO frame whole to an output that does not fill its header
 * checksum (VSW_TXO_IPCSUM): written here and the flag cleared, since a
 * PMD must not get RTE_MBUF_F_TX_IP_CKSUM without offering IPV4_CKSUM
 * (ethdev's contract: rte_net_intel_cksum_prepare, which most PMDs'
 * preparation runs, zeroes the field for a device to fill; the virtio
 * PMD happens to write it again for a TSO frame, vmxnet3's leaves it
 * to its device).  Ours alone first (own: a copy when the
 * frame is shared, whose flags and bytes other outputs still use; the
 * copy is a chain, which the caller made sure the output takes).  NULL:
 * no mbuf for the copy, @m freed.
 */
static struct rte_mbuf *ip_csum_here(struct rte_mbuf *m,
				     const struct ol_hdrs *h,
				     struct rte_mempool *mp)
{
	uint8_t *ip;

	m = own(m, mp);
	if (m == NULL)
		return NULL;
	ip = rte_pktmbuf_mtod_offset(m, uint8_t *, h->l2);
	put_sum(ip + 10, 0);
	put_sum(ip + 10, rte_ipv4_cksum((const struct rte_ipv4_hdr *)ip));
	m->ol_flags &= ~RTE_MBUF_F_TX_IP_CKSUM;
	return m;
}

/*
 * Buffer @m for @out, which takes it as it is (whole, or its checksum
 * left) by the terms of its peer's connection @gen: if the peer
 * reconnects before the frame leaves, flush drops it (txbuf.c).
 */
static void append_left(struct vsw_worker *w, const struct vsw_table *dp,
			uint16_t out, struct rte_mbuf *m, uint64_t now,
			uint32_t gen)
{
	struct vsw_txbuf *b = &w->txb[out];

	if (!b->ol) {
		b->ol = true;
		b->ol_gen = gen;
	}
	vsw_append_plain(w, dp, out, m, now);
}

void vsw_offload_out(struct vsw_worker *w, const struct vsw_table *dp,
		     uint16_t out, struct rte_mbuf *m, uint64_t now)
{
	struct rte_mbuf *segs[VSW_TSO_MAX_SEGS];
	const struct vsw_table_port *op = &dp->pp[out];
	const struct vsw_port *p = dp->ports[out];
	struct vsw_port_ctrs *c = &w->ctrs[out];
	/* the connection first: tx_offloads is cleared before it moves */
	uint32_t gen = __atomic_load_n(&p->conn_gen, __ATOMIC_ACQUIRE);
	uint32_t txo = __atomic_load_n(&p->tx_offloads, __ATOMIC_RELAXED);
	uint32_t max = op->max_frame, hl, mss, room;
	/* segments and copies in the switch's mbufs, never in the frame's
	 * pool: that may be the big mbufs (64 KiB a segment) */
	struct rte_mempool *mp = vsw_copy_pool(dp, m);
	struct ol_hdrs h;
	bool ip_ours, ext_ok;
	int n;

	if (parse(m, &h) < 0) { /* it did at ingress: a bug, not a guest */
		drop_pkt(c, VSW_DROP_BAD_OFFLOAD, m);
		return;
	}
	m->l2_len = h.l2; /* a VLAN tag may have come or gone since */
	/* IPv6 extension headers: only for an output that takes them */
	ext_ok = !h.v6 || h.l3 == IP6_HLEN || (txo & VSW_TXO_IP6EXT);
	if (!(m->ol_flags & RTE_MBUF_F_TX_TCP_SEG)) {
		if (m->nb_segs != 1 && !op->tx_chains &&
		    (m = vsw_tx_linear(w, dp, out, m)) == NULL)
			return;
		if (too_big_for(dp, out, m)) {
			drop_pkt(c, VSW_DROP_TOO_BIG, m);
			return;
		}
		if (!(txo & VSW_TXO_CSUM) || !ext_ok) {
			m = own(m, vsw_copy_pool_for(dp, m, op->tx_chains));
			if (m == NULL) {
				c->drops[VSW_DROP_NO_MBUF]++;
				return;
			}
			if (too_big_for(dp, out, m)) { /* a chain after all */
				drop_pkt(c, VSW_DROP_TOO_BIG, m);
				return;
			}
			fill_csum(m, &h);
			c->csum_filled++;
			vsw_append_plain(w, dp, out, m, now);
			return;
		}
		append_left(w, dp, out, m, now, gen);
		return;
	}
	hl = (uint32_t)h.l2 + h.l3 + h.l4;
	if (p->tx_refuses_big && max > VSW_SMALL_BUF_FRAME)
		max = VSW_SMALL_BUF_FRAME;
	/* the IPv4 header checksum ours to write (ip_csum_here): whole only
	 * where the frame is ours or its copy, a chain, can go */
	ip_ours = !h.v6 && !(txo & VSW_TXO_IPCSUM);
	if ((txo & (h.v6 ? VSW_TXO_TSO6 : VSW_TXO_TSO4)) && ext_ok &&
	    hl + m->tso_segsz <= max && (m->nb_segs == 1 || op->tx_chains) &&
	    (!ip_ours || op->tx_chains || ours_alone(m))) {
		if (ip_ours && (m = ip_csum_here(m, &h, mp)) == NULL) {
			c->drops[VSW_DROP_NO_MBUF]++;
			return;
		}
		append_left(w, dp, out, m, now, gen);
		return;
	}
	/* cut here, into segments that fit (one mbuf each without chains) */
	room = rte_pktmbuf_data_room_size(mp) - RTE_PKTMBUF_HEADROOM;
	if (!op->tx_chains && max > room)
		max = room;
	mss = max > hl ? max - hl : 0;
	if (mss > m->tso_segsz)
		mss = m->tso_segsz;
	n = mss == 0 ? -1
		     : vsw_offload_segment(m, mss, mp, segs, VSW_TSO_MAX_SEGS);
	if (n < 0) { /* too small an mtu for it, or no mbuf left */
		drop_pkt(c, n == -ENOBUFS ? VSW_DROP_NO_MBUF : VSW_DROP_TOO_BIG,
			 m);
		return;
	}
	c->tso_segmented++;
	c->tso_segments += (uint64_t)n;
	rte_pktmbuf_free(m);
	for (int i = 0; i < n; i++)
		vsw_append_plain(w, dp, out, segs[i], now);
}
