/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for the whole forwarding pass (switch/datapath/
 * worker.c with offload.c, txbuf.c, vlan.h) over fake ports (tests/unit),
 * where frames meet each other and the outputs' differences: floods to
 * ports that take chains or not, checksums or TSO or not, different mtus,
 * VLAN pushes and pops, tx rings that fill, frames in small chained mbufs
 * or in one big mbuf (a TSO guest's), offered whole or as TSO frames and
 * checksum requests.
 *
 * Input: byte 0 the number of ports (2..4) and the burst; then 3 bytes
 * per port (mtu, what its tx takes, its VLAN setting and tx room); a
 * byte of timing (tx-flush-interval-us, tx-hold-us, tx-retries,
 * tx-flush-adaptive); then
 * records of one frame each: a byte of in-port, kind (plain, checksum
 * request, TSO), buffer (chain, big mbuf), whether a pass follows it and
 * how far the clock (the worker's fake TSC, 1 MHz) moves before it, two
 * bytes of gso_size, two of length, then that many bytes of frame (cut
 * where the input ends).  A pass polls until the rx queues are empty and
 * checks; the frames leave as the flush policy and tx-hold-us say.  The
 * longest clock step also moves the worker to another table
 * (vsw_worker_flush_switch), as control does: the first time to one
 * without a port (what was held for it is dropped), the second time to
 * one where that port is back at its id with the next VLAN setting (a
 * port-set: every other port keeps what it holds).  A plain frame whose
 * gso_size bytes have the top bit set is followed by a reconnect of the
 * next port's guest, which then takes the offloads of their low 5 bits
 * (port.h conn_gen; frames may still wait for it).  At the end the
 * worker leaves its table as at exit (flush_switch to none).
 *
 * Besides not crashing (ASan, UBSan), every frame a port was given must
 * be one it can send: a well-formed chain (segment lengths adding up to
 * pkt_len), one segment for a port that sends no chains, no longer than
 * the port's frames (a TSO frame: its headers plus gso_size), no tx
 * request the port does not take (TSO, an L4 or IPv4 header checksum);
 * the counters keep stats.h's invariants (every frame received counted
 * once as unicast, flooded or dropped; every copy sent, buffered or
 * dropped); each sent mbuf holds exactly one reference per port that got
 * it; and after every port is freed both pools hold every mbuf again,
 * none given back twice.
 */
#include <stdbool.h>

#include "config/vsw_config.h"
#include "datapath/offload.h"
#include "datapath/worker.h"
#include "fake_pool.h"
#include "fake_port.h"
#include "fuzz.h"

#define MAX_PORTS 4
#define ROOM 2048 /* the switch's mbufs (data room after headroom) */
#define SMALL_N 2048
#define BIG_N 32
#define BIG_ROOM 65535
#define MAX_FRAMES 24

static struct fake_pool *small, *big;

static const unsigned int mtus[8] = {1500, 9000, 600,  2000,
				     1500, 9000, 1500, 68};
static const char *const vlans[6] = {
	NULL,
	"tag=10",
	"trunks=10,20",
	"vlan-mode=native-untagged,tag=10,trunks=20",
	"vlan-mode=native-tagged,tag=20,trunks=10",
	"tag=20",
};

#define CFG_LEN (1 + 3 * MAX_PORTS + 1)

static const unsigned int flush_us[4] = {0, 5, 50, 1000};
static const unsigned int hold_us[4] = {0, 10, 1000, 0};
static const unsigned int retries[4] = {1, 0, 2, 3};
static const uint64_t steps[4] = {0, 3, 60, 5000}; /* clock, µs */

struct env {
	struct vsw_switch_conf sw;
	uint32_t max_frame[MAX_PORTS]; /* each port's, from the first table */
	unsigned int vlan[MAX_PORTS];  /* each port's vlans[] setting */
	struct fake_port *p[MAX_PORTS];
	struct vsw_port *ports[VSW_MAX_PORTS];
	int8_t owner[VSW_MAX_PORTS][VSW_MAX_QUEUES];
	unsigned int lcores[2];
	unsigned int n;
	struct vsw_table *dp;
	struct vsw_worker *w;
	struct vsw_fdb *fdb;
};

static struct env env_storage;

/* @len bytes of @d as a chain of 700-byte mbufs, or in one big mbuf. */
static struct rte_mbuf *mk(const uint8_t *d, uint32_t len, bool in_big)
{
	return in_big ? fake_pool_chain(big, d, len,
					BIG_ROOM - RTE_PKTMBUF_HEADROOM)
		      : fake_pool_chain(small, d, len, 700);
}

/* The table of @e's ports (those not NULL) into @t. */
static void build(struct env *e, struct vsw_table *t)
{
	struct vsw_table_src src = {
		.sw = &e->sw,
		.ports = e->ports,
		.owner = e->owner,
		.lcores = e->lcores,
		.n_workers = 1,
		.hz = 1000000,
		.room = ROOM,
		.mp = small->mp,
	};
	char err[VSW_ERR_MAX];

	if (vsw_table_build(&src, t, err, sizeof(err)) != 0) {
		fprintf(stderr, "table build: %s\n", err);
		abort();
	}
}

/* The ports @cfg describes and their table in @dp, worker @w zeroed. */
static void env_up(struct env *e, const uint8_t *cfg, struct vsw_table *dp,
		   struct vsw_worker *w)
{
	struct vsw_fdb_params fp = {.max_entries = 256, .seed = 7};
	char err[VSW_ERR_MAX];

	memset(e, 0, sizeof(*e));
	memset(w, 0, sizeof(*w));
	e->dp = dp;
	e->w = w;
	e->n = 2 + cfg[0] % 3;
	e->fdb = vsw_fdb_create(&fp);
	e->sw.burst = (uint16_t)(1 + (cfg[0] >> 2) % 32);
	e->sw.tx_retries = (uint16_t)retries[cfg[CFG_LEN - 1] >> 4 & 3];
	e->sw.tx_flush_interval_us = flush_us[cfg[CFG_LEN - 1] & 3];
	e->sw.tx_hold_us = hold_us[cfg[CFG_LEN - 1] >> 2 & 3];
	e->sw.tx_flush_adaptive = (cfg[CFG_LEN - 1] >> 6 & 1) != 0;
	e->lcores[0] = 1;
	memset(e->owner, VSW_RXQ_UNASSIGNED, sizeof(e->owner));
	for (unsigned int i = 0; i < e->n; i++) {
		const uint8_t *c = cfg + 1 + 3 * i;
		struct vsw_port *p;
		char name[8];

		snprintf(name, sizeof(name), "p%u", i);
		e->p[i] = fake_port_create(name, (uint16_t)i, 1);
		p = &e->p[i]->up;
		snprintf(p->conf.name, sizeof(p->conf.name), "%s", name);
		p->conf.mtu = mtus[c[0] & 7];
		p->tx_chains = c[1] & 1;
		p->tx_offloads = (uint32_t)(c[1] >> 1) & 0x1f;
		if (p->tx_offloads != 0) /* every kind: none without CSUM */
			p->tx_offloads |= VSW_TXO_CSUM;
		p->tx_refuses_big = c[1] >> 6 & 1;
		p->mp = small->mp;
		e->vlan[i] = c[2] % 6;
		if (vlans[c[2] % 6] != NULL &&
		    vsw_config_port_set_kv(&p->conf, vlans[c[2] % 6], err,
					   sizeof(err)) != 0)
			abort(); /* our own settings */
		/* a ring of 1..4 frames now and then */
		if (c[2] >= 0xc0)
			e->p[i]->tx_room = 1 + (c[2] & 3);
		e->ports[i] = p;
	}
	build(e, dp);
	for (unsigned int i = 0; i < e->n; i++)
		e->max_frame[i] = dp->pp[i].max_frame;
	w->fake_tsc = 1000;
}

/* The next table into @next, as a table switch's: the first one
 * without port @x; the second with @x back, its VLAN setting the next
 * one of vlans[] (its mtu, tx and ring as they were). */
static void build_next(struct env *e, unsigned int k, unsigned int x,
		       struct vsw_table *next)
{
	struct vsw_port *p = &e->p[x]->up;
	char err[VSW_ERR_MAX];

	if (k == 0) {
		e->ports[x] = NULL;
	} else {
		unsigned int v = (e->vlan[x] + 1) % 6;

		p->conf.vlan_mode = VSW_VLAN_AUTO;
		p->conf.tag = 0;
		p->conf.trunks_set = false;
		memset(p->conf.trunks, 0, sizeof(p->conf.trunks));
		if (vlans[v] != NULL &&
		    vsw_config_port_set_kv(&p->conf, vlans[v], err,
					   sizeof(err)) != 0)
			abort();
		e->vlan[x] = v;
		e->ports[x] = p;
	}
	build(e, next);
}

static void env_down(struct env *e)
{
	for (unsigned int i = 0; i < e->n; i++)
		fake_port_destroy(e->p[i]);
	vsw_fdb_destroy(e->fdb);
}

/* Can port @i send @m as it is? */
static void check_sent(const struct env *e, unsigned int i,
		       const struct rte_mbuf *m)
{
	const struct vsw_port *p = &e->p[i]->up;
	uint32_t sum = 0, n = 0, max = e->max_frame[i];

	for (const struct rte_mbuf *s = m; s != NULL; s = s->next) {
		sum += s->data_len;
		n++;
	}
	FUZZ_CHECK(sum == m->pkt_len && n == m->nb_segs);
	FUZZ_CHECK(p->tx_chains || m->nb_segs == 1);
	if (m->ol_flags & RTE_MBUF_F_TX_TCP_SEG) {
		uint32_t want = m->ol_flags & RTE_MBUF_F_TX_IPV6 ? VSW_TXO_TSO6
								 : VSW_TXO_TSO4;

		FUZZ_CHECK(p->tx_offloads & want);
		FUZZ_CHECK((uint32_t)m->l2_len + m->l3_len + m->l4_len +
				   m->tso_segsz <=
			   max);
	} else {
		FUZZ_CHECK(m->pkt_len <= max);
	}
	if (m->ol_flags & RTE_MBUF_F_TX_L4_MASK)
		FUZZ_CHECK(p->tx_offloads & VSW_TXO_CSUM);
	if (m->ol_flags & RTE_MBUF_F_TX_IP_CKSUM)
		FUZZ_CHECK(p->tx_offloads & VSW_TXO_IPCSUM);
}

/* stats.h's invariants, the sent frames, one reference per port. */
static void check_all(const struct env *e)
{
	FUZZ_CHECK(fake_ports_counters_ok(e->w, e->p, e->n));
	for (unsigned int i = 0; i < e->n; i++)
		for (unsigned int k = 0; k < e->p[i]->n_sent; k++)
			check_sent(e, i, e->p[i]->sent[k]);
	FUZZ_CHECK(fake_ports_refs_ok(e->p, e->n, e->w));
}

/* Poll until every rx queue of the table is empty, check. */
static void pass(struct env *e)
{
	bool more = true;

	for (unsigned int k = 0; more && k < MAX_FRAMES; k++) {
		vsw_worker_poll(e->w, e->dp, e->fdb, 100);
		more = false;
		for (unsigned int i = 0; i < e->n; i++)
			more |= e->ports[i] != NULL &&
				fake_port_rx_pending(e->p[i], 0) > 0;
	}
	check_all(e);
}

/*
 * Port @i's guest goes and another comes (vhost's destroy_device and
 * new_connection) that takes @txo (VSW_TXO_*, CSUM added as env_up
 * does), with frames still waiting for it: what it was given so far
 * met the old terms, what it is given from now must meet the new.
 */
static void reconnect(struct env *e, unsigned int i, uint32_t txo)
{
	struct vsw_port *p = &e->p[i]->up;

	check_all(e);
	fake_port_free_sent(e->p[i]);
	p->tx_offloads = txo != 0 ? txo | VSW_TXO_CSUM : 0;
	p->conn_gen++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct env *e = &env_storage;
	uint8_t cfg[CFG_LEN] = {0};
	struct vsw_table *dp, *next[2] = {NULL, NULL};
	struct vsw_worker *w;
	size_t at = sizeof(cfg);
	unsigned int n_frames = 0, n_next = 0, gone = 0;

	if (small == NULL) {
		small = fake_pool_create(SMALL_N, RTE_PKTMBUF_HEADROOM + ROOM);
		big = fake_pool_create(BIG_N, BIG_ROOM);
		if (small == NULL || big == NULL)
			abort();
	}
	memcpy(cfg, data, size < sizeof(cfg) ? size : sizeof(cfg));
	dp = aligned_alloc(64, RTE_ALIGN_CEIL(sizeof(*dp), 64));
	w = aligned_alloc(64, RTE_ALIGN_CEIL(sizeof(*w), 64));
	if (dp == NULL || w == NULL)
		abort();
	env_up(e, cfg, dp, w);
	while (at + 5 <= size && n_frames < MAX_FRAMES) {
		uint8_t h = data[at];
		uint16_t gso = (uint16_t)(data[at + 1] << 8 | data[at + 2]);
		uint32_t len = (uint32_t)(data[at + 3] << 8 | data[at + 4]);
		unsigned int in = (h & 3) % e->n, kind = (h >> 2) & 3;
		struct rte_mbuf *m;

		at += 5;
		if (len > size - at)
			len = (uint32_t)(size - at);
		if (len == 0)
			break;
		m = mk(data + at, len, h >> 4 & 1);
		at += len;
		if (m == NULL)
			break; /* the pools are small: as a guest that stops */
		if (kind == 1) {
			m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
		} else if (kind >= 2) {
			m->ol_flags =
				RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_NONE;
			m->tso_segsz = gso;
		}
		if (!fake_port_push(e->p[in], 0, m))
			rte_pktmbuf_free(m);
		n_frames++;
		if (kind == 0 && gso >> 15)
			reconnect(e, (in + 1) % e->n, gso & 0x1f);
		w->fake_tsc += steps[h >> 6];
		if (h >> 6 == 3 && n_next < 2 && e->n > 2) {
			/* the port after the frame's leaves the table, then
			 * comes back */
			struct vsw_table *t = aligned_alloc(
				64, RTE_ALIGN_CEIL(sizeof(*t), 64));

			if (t == NULL)
				abort();
			if (n_next == 0)
				gone = (in + 1) % e->n;
			build_next(e, n_next, gone, t);
			vsw_worker_flush_switch(w, e->dp, t, w->fake_tsc);
			e->dp = next[n_next++] = t;
		}
		if (h & 0x20) /* a pass now: what follows meets learned MACs,
			       * held frames, a ring already full */
			pass(e);
	}
	pass(e);
	vsw_worker_flush_switch(w, e->dp, NULL, w->fake_tsc); /* at exit */
	check_all(e);
	FUZZ_CHECK(w->dirty == 0);
	env_down(e);
	FUZZ_CHECK(small->n_free == small->n && small->double_frees == 0);
	FUZZ_CHECK(big->n_free == big->n && big->double_frees == 0);
	free(dp);
	free(next[0]);
	free(next[1]);
	free(w);
	return 0;
}
