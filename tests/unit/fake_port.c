/* SPDX-License-Identifier: BSD-3-Clause */
/* A fake port kind over in-memory arrays (see fake_port.h). */
#include "fake_port.h"

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
