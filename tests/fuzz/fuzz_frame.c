/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for the frame parser (switch/datapath/frame.h).
 *
 * The input is one frame, exactly as long as libFuzzer's buffer, so ASan
 * sees any read past its end.  Besides not crashing, the result must agree
 * with the bytes: a frame shorter than an Ethernet header is a runt, a
 * drop leaves struct vsw_frame alone, and a forwarded frame's FDB keys are
 * its two MAC addresses with the VLAN id it reports, which is that of the
 * 802.1Q tag when there is one, 0 for an untagged frame, and for other tag
 * types 0 or one of the tags' ids (VLAN handling may grow: the checks only
 * assume what any version must keep).  Unknown classes are accepted.
 * The same bytes go through port security's allowed-ips rules
 * (switch/datapath/portsec.h), with and without allowed-macs: any
 * answer must be a pass or one of its three reasons, the same twice and
 * through the burst's shortcut (vsw_portsec_check_burst).
 *
 * And through the VLAN rules (switch/datapath/vlan.h) on a table of five
 * ports (access 10; trunk 10,20; native-untagged 10 with trunk 20;
 * native-tagged 20 with trunk 10; a trunk of every VLAN), entering on the
 * port the last byte names: a frame is let in only into a VLAN its port
 * carries, with its keys moved there; an access port never lets in a
 * tagged, S-tagged (0x88a8, 0x9100, 0x9200) or double-tagged frame;
 * then, for every port of that VLAN, the tag action applied to a copy
 * (an mbuf of exactly the frame's length, so ASan sees any overrun)
 * leaves it untagged or tagged with that VLAN as the port wants, the
 * MACs, priority bits and payload as they were.
 *
 * And through the offload path (switch/datapath/offload.c), as a TSO
 * frame whose gso_size is its last two bytes and as a checksum request,
 * in an mbuf that ends where the frame does: the checks answer pass,
 * bad_offload or oversize; a TSO frame that passes is cut into 1 to 256
 * segments of at most its headers plus gso_size each, whose payloads add
 * up to its own and each of which passes the checks again as a checksum
 * request; a checksum request that passes is filled in, its length kept;
 * every mbuf goes back to the pool.
 *
 * And through the flow hash (port/flow_hash.h), which a vhost-user port
 * spreads a guest's received flows by and a vxlan port picks its source
 * port by: the same for the same bytes at another alignment, 0 for a
 * runt, nothing read past the frame.
 */
#include <stdbool.h>

#include "datapath/frame.h"
#include "datapath/offload.h"
#include "fake_pool.h"
#include "fuzz.h"
#include "datapath/portsec.h"
#include "datapath/vlan.h"
#include "config/vsw_config.h"
#include "port/flow_hash.h"

#define TPID_8021Q 0x8100
#define TPID_8021AD 0x88a8
#define TPID_OLD_QINQ 0x9100

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static bool is_tpid(uint16_t t)
{
	return t == TPID_8021Q || t == TPID_8021AD || t == TPID_OLD_QINQ;
}

static bool is_forward(enum vsw_frame_class c)
{
	return c == VSW_FRAME_UNICAST || c == VSW_FRAME_BROADCAST ||
	       c == VSW_FRAME_MULTICAST;
}

static bool is_drop(enum vsw_frame_class c)
{
	return c == VSW_FRAME_RUNT || c == VSW_FRAME_SRC_MULTICAST;
}

/* Is @vlan 0 or the id of one of the (stacked) tags after the MACs? */
static bool vlan_of_a_tag(const uint8_t *d, size_t len, uint16_t vlan)
{
	size_t off = 12;

	if (vlan == 0)
		return true;
	while (off + 4 <= len && is_tpid(be16(d + off))) {
		if ((be16(d + off + 2) & 0x0fff) == vlan)
			return true;
		off += 4;
	}
	return false;
}

static void check_forward(const uint8_t *d, size_t len, enum vsw_frame_class c,
			  const struct vsw_frame *f)
{
	uint16_t type = be16(d + 12);

	FUZZ_CHECK(!(d[6] & 1));
	FUZZ_CHECK(f->vlan <= 0x0fff);
	FUZZ_CHECK(f->src_key == vsw_fdb_key(d + 6, f->vlan));
	FUZZ_CHECK(f->dst_key == vsw_fdb_key(d, f->vlan));
	FUZZ_CHECK((c == VSW_FRAME_UNICAST) == !(d[0] & 1));
	FUZZ_CHECK((c == VSW_FRAME_BROADCAST) == (vsw_frame_is_bcast(d) != 0));
	if (!is_tpid(type))
		FUZZ_CHECK(f->vlan == 0);
	else if (type == TPID_8021Q)
		FUZZ_CHECK(len >= VSW_ETH_HLEN + VSW_VLAN_HLEN &&
			   f->vlan == (be16(d + 14) & 0x0fff));
	else
		FUZZ_CHECK(vlan_of_a_tag(d, len, f->vlan));
}

/* allowed-ips 10.0.0.5, 192.168.0.0/24, 2001:db8::/64, fe80::1 */
static void portsec_init(struct vsw_portsec *ps, bool macs)
{
	static const uint8_t a[4][16] = {
		{10, 0, 0, 5},
		{192, 168, 0, 0},
		{0x20, 0x01, 0x0d, 0xb8},
		{0xfe, 0x80, [15] = 1},
	};
	static const uint8_t plen[4] = {32, 24, 64, 128};
	struct vsw_port_conf pc;

	memset(&pc, 0, sizeof(pc));
	for (unsigned int i = 0; i < 4; i++) {
		pc.ips[i].family = i < 2 ? 4 : 6;
		pc.ips[i].plen = plen[i];
		memcpy(pc.ips[i].addr, a[i], 16);
	}
	pc.n_ips = 4;
	pc.n_allowed = macs;
	vsw_portsec_fill_ips(ps, &pc);
}

static void check_portsec(const uint8_t *d, uint32_t len)
{
	static struct vsw_portsec ps[2];
	static bool init;
	uint32_t ok4;

	if (!init) {
		portsec_init(&ps[0], false);
		portsec_init(&ps[1], true);
		init = true;
	}
	for (int i = 0; i < 2; i++) {
		enum vsw_drop_reason r = vsw_portsec_check(&ps[i], d, len);

		FUZZ_CHECK(r == VSW_DROP_MAX ||
			   r == VSW_DROP_SRC_IP_NOT_ALLOWED ||
			   r == VSW_DROP_ARP_SPOOF || r == VSW_DROP_ND_SPOOF);
		FUZZ_CHECK(vsw_portsec_check(&ps[i], d, len) == r);
		/* with nothing remembered, the burst's shortcut agrees */
		ok4 = 0;
		FUZZ_CHECK(vsw_portsec_check_burst(&ps[i], d, len, &ok4) == r);
	}
}

/* ---- VLANs ---- */

#define VP 5

static struct vsw_table vdp;

static void vlan_table_init(void)
{
	static const char *const kv[VP] = {
		"tag=10",
		"trunks=10,20",
		"vlan-mode=native-untagged,tag=10,trunks=20",
		"vlan-mode=native-tagged,tag=20,trunks=10",
		"",
	};
	static struct vsw_port_conf pc[VP];
	char err[VSW_ERR_MAX];

	for (uint16_t i = 0; i < VP; i++) {
		snprintf(pc[i].name, sizeof(pc[i].name), "p%u", i);
		if (kv[i][0] != '\0' &&
		    vsw_config_port_set_kv(&pc[i], kv[i], err, sizeof(err)) !=
			    0) {
			fprintf(stderr, "%s: %s\n", kv[i], err);
			abort();
		}
		vsw_vlan_fill_port(&vdp, i, &pc[i]);
	}
}

/* @d[0..len) with @a applied, as a worker would, in an mbuf whose data
 * ends exactly where the frame does; NULL if the push found no room. */
static uint8_t *apply_copy(const uint8_t *d, uint32_t len, enum vsw_vlan_act a,
			   uint16_t v, uint32_t *out_len, uint8_t **buf)
{
	struct rte_mbuf *m = calloc(1, sizeof(*m));
	const uint32_t head = 64;

	*buf = malloc(head + len);
	FUZZ_CHECK(m != NULL && *buf != NULL);
	memcpy(*buf + head, d, len);
	m->buf_addr = *buf;
	m->buf_len = (uint16_t)(head + len);
	m->data_off = head;
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	m->nb_segs = 1;
	rte_mbuf_refcnt_set(m, 1);
	FUZZ_CHECK(vsw_vlan_apply(m, a, v));
	*out_len = m->pkt_len;
	FUZZ_CHECK(m->data_len == m->pkt_len);
	d = rte_pktmbuf_mtod(m, uint8_t *);
	free(m);
	return (uint8_t *)(uintptr_t)d;
}

static bool tagged(const uint8_t *d, uint32_t len)
{
	return len >= 18 && be16(d + 12) == TPID_8021Q;
}

/*
 * The frame leaving port @out in VLAN @v, byte for byte: untagged where
 * @out sends @v untagged (the outer tag popped, one only; a VLAN 0 frame
 * as it came), else tagged with @v (pushed with priority 0, or its VID
 * rewritten and its priority bits kept).
 */
static void check_egress(const uint8_t *d, uint32_t len, uint16_t out,
			 uint16_t v)
{
	bool untag = vdp.pp[out].untag_vid == v;
	enum vsw_vlan_act a = vsw_vlan_action(d, v, untag);
	uint8_t *want = malloc(len + 4), *buf, *e;
	uint32_t n, wn;

	FUZZ_CHECK(want != NULL);
	memcpy(want, d, 12);
	if (untag && tagged(d, len) && v != 0) {
		memcpy(want + 12, d + 16, len - 16);
		wn = len - 4;
	} else if (untag || !tagged(d, len)) {
		if (untag) {
			memcpy(want + 12, d + 12, len - 12);
			wn = len;
		} else {
			want[12] = 0x81;
			want[13] = 0x00;
			want[14] = (uint8_t)(v >> 8);
			want[15] = (uint8_t)v;
			memcpy(want + 16, d + 12, len - 12);
			wn = len + 4;
		}
	} else {
		memcpy(want + 12, d + 12, len - 12);
		want[14] = (uint8_t)((d[14] & 0xf0) | (v >> 8));
		want[15] = (uint8_t)v;
		wn = len;
	}
	e = apply_copy(d, len, a, v, &n, &buf);
	FUZZ_CHECK(n == wn && memcmp(e, want, wn) == 0);
	free(buf);
	free(want);
}

static void check_vlans(const uint8_t *d, uint32_t len,
			const struct vsw_frame *f)
{
	static bool init;
	uint16_t in = (uint16_t)(d[len - 1] % VP), vid = 0xffff;
	uint16_t outer = be16(d + 12);
	struct vsw_frame g = *f;
	int r;

	if (!init) {
		vlan_table_init();
		init = true;
	}
	r = vsw_vlan_in(&vdp, in, d, len, &g, &vid);
	FUZZ_CHECK(r == -1 || r == VSW_DROP_VLAN_QINQ ||
		   r == VSW_DROP_VLAN_TAGGED_ON_ACCESS ||
		   r == VSW_DROP_VLAN_NOT_ALLOWED);
	if (vdp.pp[in].access &&
	    (outer == TPID_8021AD || outer == 0x9100 || outer == 0x9200))
		FUZZ_CHECK(r == VSW_DROP_VLAN_QINQ);
	if (r != -1) {
		FUZZ_CHECK(memcmp(&g, f, sizeof(g)) == 0);
		return;
	}
	FUZZ_CHECK(vid < VSW_N_VIDS && (vdp.vlan_ports[vid] >> in & 1));
	FUZZ_CHECK(g.src_key == vsw_fdb_key(d + 6, vid));
	FUZZ_CHECK(g.dst_key == vsw_fdb_key(d, vid));
	if (vdp.pp[in].access) {
		FUZZ_CHECK(vid == vdp.pp[in].vid0);
		FUZZ_CHECK(!tagged(d, len) || (be16(d + 14) & 0x0fff) == 0);
		FUZZ_CHECK(!tagged(d, len) || !is_tpid(be16(d + 16)));
	}
	if (f->vlan == 0)
		FUZZ_CHECK(vid == vdp.pp[in].vid0);
	else
		FUZZ_CHECK(vid == f->vlan);
	for (uint16_t out = 0; out < VP; out++)
		if (out != in && (vdp.vlan_ports[vid] >> out & 1))
			check_egress(d, len, out, vid);
}

/* @d[0..len) in an mbuf whose buffer ends where the frame does */
static struct rte_mbuf *exact_mbuf(const uint8_t *d, uint32_t len,
				   uint8_t **buf)
{
	struct rte_mbuf *m = calloc(1, sizeof(*m));

	*buf = malloc(len + 1);
	FUZZ_CHECK(m != NULL && *buf != NULL);
	memcpy(*buf, d, len);
	m->buf_addr = *buf;
	m->buf_len = (uint16_t)len;
	m->data_off = 0;
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	m->nb_segs = 1;
	rte_mbuf_refcnt_set(m, 1);
	return m;
}

static void check_offload(const uint8_t *d, uint32_t len, bool tso)
{
	static struct fake_pool *fp;
	struct rte_mbuf *segs[VSW_TSO_MAX_SEGS], *m;
	enum vsw_drop_reason r;
	uint64_t pl = 0;
	uint32_t hl;
	uint8_t *buf;
	int n;

	if (fp == NULL)
		fp = fake_pool_create(2048, 2048 + RTE_PKTMBUF_HEADROOM);
	FUZZ_CHECK(fp != NULL);
	if (len > 65535 || len < 2)
		return;
	m = exact_mbuf(d, len, &buf);
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	if (tso) {
		m->ol_flags |= RTE_MBUF_F_RX_LRO;
		m->tso_segsz = be16(d + len - 2);
	}
	r = vsw_offload_in(m, 9018);
	FUZZ_CHECK(r == VSW_DROP_MAX || r == VSW_DROP_BAD_OFFLOAD ||
		   r == VSW_DROP_OVERSIZE);
	if (r == VSW_DROP_MAX && tso) {
		hl = (uint32_t)m->l2_len + m->l3_len + m->l4_len;
		FUZZ_CHECK(m->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
		FUZZ_CHECK(hl < len);
		n = vsw_offload_segment(m, m->tso_segsz, fp->mp, segs,
					VSW_TSO_MAX_SEGS);
		FUZZ_CHECK(n >= 1 && n <= VSW_TSO_MAX_SEGS);
		for (int i = 0; i < n; i++) {
			FUZZ_CHECK(segs[i]->pkt_len <= hl + m->tso_segsz);
			FUZZ_CHECK(segs[i]->pkt_len >= hl);
			pl += segs[i]->pkt_len - hl;
			segs[i]->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
			FUZZ_CHECK(vsw_offload_in(segs[i], 65535) ==
				   VSW_DROP_MAX);
			rte_pktmbuf_free(segs[i]);
		}
		FUZZ_CHECK(pl == len - hl);
	} else if (r == VSW_DROP_MAX) {
		FUZZ_CHECK(!(m->ol_flags & RTE_MBUF_F_TX_TCP_SEG));
		FUZZ_CHECK(vsw_offload_fill_csum(m) == 0 && m->pkt_len == len);
	}
	FUZZ_CHECK(fp->n_free == fp->n && fp->double_frees == 0);
	free(buf);
	free(m);
}

static void check_flow_hash(const uint8_t *data, uint32_t len)
{
	uint8_t *b = malloc((size_t)len + 1);
	uint64_t key = len >= 8 ? vsw_fh_load64(data) : 0;
	uint32_t h = vsw_flow_hash(data, len, key);

	FUZZ_CHECK(b != NULL);
	memcpy(b + 1, data, len);
	FUZZ_CHECK(vsw_flow_hash(b + 1, len, key) == h);
	if (len < VSW_ETH_HLEN)
		FUZZ_CHECK(h == 0);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vsw_frame f, g, untouched;
	enum vsw_frame_class c;
	uint32_t len = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;

	memset(&untouched, 0xa5, sizeof(untouched));
	f = untouched;
	g = untouched;
	c = vsw_frame_parse(data, len, &f);
	FUZZ_CHECK(vsw_frame_parse(data, len, &g) == c);
	FUZZ_CHECK(memcmp(&f, &g, sizeof(f)) == 0);
	if (len < VSW_ETH_HLEN)
		FUZZ_CHECK(c == VSW_FRAME_RUNT);
	if (is_drop(c))
		FUZZ_CHECK(memcmp(&f, &untouched, sizeof(f)) == 0);
	if (c == VSW_FRAME_SRC_MULTICAST)
		FUZZ_CHECK(data[6] & 1);
	if (len >= VSW_ETH_HLEN && !is_tpid(be16(data + 12)))
		FUZZ_CHECK(c != VSW_FRAME_RUNT);
	if (len >= VSW_ETH_HLEN + VSW_VLAN_HLEN &&
	    be16(data + 12) == TPID_8021Q && !is_tpid(be16(data + 16)))
		FUZZ_CHECK(c != VSW_FRAME_RUNT);
	check_offload(data, len, true);
	check_offload(data, len, false);
	check_flow_hash(data, len);
	if (is_forward(c)) {
		check_forward(data, len, c, &f);
		check_portsec(data, len);
		check_vlans(data, len, &f);
	}
	return 0;
}
