/* SPDX-License-Identifier: BSD-3-Clause */
/* A fake port kind over in-memory arrays (see fake_port.h). */
#include "fake_port.h"
#include "datapath/worker.h"

#include <stdio.h>
#include <stdlib.h>

static uint16_t fake_rx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
			uint16_t n)
{
	struct fake_port *fp = fake_port_cast(p);
	uint16_t k = 0;

	while (k < n && fp->rxq[q].head != fp->rxq[q].tail)
		pkts[k++] = fp->rxq[q].m[fp->rxq[q].head++ % FAKE_RING];
	fp->rx_total += k;
	return k;
}

static uint16_t fake_tx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
			uint16_t n)
{
	struct fake_port *fp = fake_port_cast(p);
	uint16_t k = 0;

	(void)q;
	fp->tx_calls++;
	while (k < n && fp->tx_room > 0 && fp->n_sent < FAKE_RING) {
		if (p->tx_refuses_big && pkts[k]->pkt_len > VSW_SMALL_BUF_FRAME)
			break;
		fp->tx_total++;
		fp->tx_bytes += pkts[k]->pkt_len;
		fp->sent[fp->n_sent++] = pkts[k++];
		if (fp->tx_room != UINT32_MAX)
			fp->tx_room--;
	}
	return k;
}

static const struct vsw_port_ops fake_ops = {
	.rx = fake_rx,
	.tx = fake_tx,
};

struct fake_port *fake_port_create(const char *name, uint16_t id,
				   uint16_t n_rxq)
{
	struct fake_port *fp = calloc(1, sizeof(*fp));

	if (fp == NULL)
		return NULL;
	snprintf(fp->up.name, sizeof(fp->up.name), "%s", name);
	fp->up.id = id;
	fp->up.ops = &fake_ops;
	fp->up.n_rxq = n_rxq;
	fp->up.tx_chains = true;
	fp->up.up = true;
	fp->tx_room = UINT32_MAX;
	return fp;
}

bool fake_port_push(struct fake_port *fp, uint16_t q, struct rte_mbuf *m)
{
	if (fp->rxq[q].tail - fp->rxq[q].head >= FAKE_RING)
		return false;
	fp->rxq[q].m[fp->rxq[q].tail++ % FAKE_RING] = m;
	return true;
}

unsigned int fake_port_rx_pending(const struct fake_port *fp, uint16_t q)
{
	return fp->rxq[q].tail - fp->rxq[q].head;
}

static bool is_rx_drop(unsigned int r)
{
	static const char *const side[VSW_DROP_MAX] = {
#define X(e, k, s, d) [VSW_DROP_##e] = #s,
		VSW_DROP_REASONS(X)
#undef X
	};

	return side[r][0] == 'r';
}

#define RULE(cond)                                                             \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: counters: %s\n", __FILE__,     \
				__LINE__, #cond);                              \
			return false;                                          \
		}                                                              \
	} while (0)

bool fake_ports_counters_ok(const struct vsw_worker *w,
			    struct fake_port *const *ps, unsigned int n)
{
	uint64_t out = 0, in = 0;

	for (unsigned int i = 0; i < n; i++) {
		const struct vsw_port_ctrs *c = &w->ctrs[i];
		uint64_t rx_drops = 0, rxq = 0;

		for (unsigned int r = 0; r < VSW_DROP_MAX; r++) {
			if (is_rx_drop(r))
				rx_drops += c->drops[r];
			else
				out += c->drops[r];
		}
		RULE(c->rx_packets == c->unicast + c->flooded + rx_drops);
		RULE(c->rx_packets == ps[i]->rx_total);
		for (unsigned int q = 0; q < VSW_MAX_QUEUES; q++)
			rxq += w->rxq[i][q].packets;
		RULE(rxq == ps[i]->rx_total);
		RULE(c->tx_packets == ps[i]->tx_total);
		RULE(c->tx_bytes == ps[i]->tx_bytes);
		out += c->tx_packets + w->txb[i].n;
		in += c->unicast + c->flood_copies + c->tso_segments -
		      c->tso_segmented;
	}
	RULE(out == in);
	return true;
}

bool fake_ports_refs_ok(struct fake_port *const *ps, unsigned int n,
			const struct vsw_worker *w)
{
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int k = 0; k < ps[i]->n_sent; k++) {
			const struct rte_mbuf *m = ps[i]->sent[k];
			unsigned int refs = 0;

			for (unsigned int j = 0; j < n; j++) {
				for (unsigned int l = 0; l < ps[j]->n_sent; l++)
					refs += ps[j]->sent[l] == m;
				for (unsigned int l = 0;
				     w != NULL && l < w->txb[j].n; l++)
					refs += w->txb[j].pkts[l] == m;
			}
			for (const struct rte_mbuf *s = m; s != NULL;
			     s = s->next)
				if (rte_mbuf_refcnt_read(s) != refs)
					return false;
		}
	return true;
}

void fake_port_free_sent(struct fake_port *fp)
{
	for (unsigned int i = 0; i < fp->n_sent; i++)
		rte_pktmbuf_free(fp->sent[i]);
	fp->n_sent = 0;
}

void fake_port_destroy(struct fake_port *fp)
{
	if (fp == NULL)
		return;
	fake_port_free_sent(fp);
	for (uint16_t q = 0; q < VSW_MAX_QUEUES; q++) {
		struct rte_mbuf *m[1];

		while (fake_rx(&fp->up, q, m, 1) == 1)
			rte_pktmbuf_free(m[0]);
	}
	free(fp);
}
