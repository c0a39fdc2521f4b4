/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vswgen payloads beyond the header: frames longer than one mbuf, built as
 * chains from the pool. None of this runs for frames that fit one mbuf:
 * gen.c calls in here only when gen_ctx.tx_slow is set.
 */
#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include "vswgen.h"

uint32_t gen_segs(uint32_t size, uint32_t seg_room)
{
	return (size + seg_room - 1) / seg_room;
}

/*
 * Turn a head built by build_burst() (data_len = pkt_len = --size) into a
 * chain of c->tx_segs full segments and a partial last one. -ENOBUFS when
 * the pool is empty; the head is then unchanged.
 */
static int chain_extend(const struct gen_ctx *c, struct rte_mbuf *head)
{
	struct rte_mbuf *seg[GEN_MAX_SEGS], *prev = head;
	uint32_t left = head->pkt_len - c->seg_room, j;

	if (rte_pktmbuf_alloc_bulk(c->mp, seg, c->tx_segs - 1) != 0)
		return -ENOBUFS;
	head->data_len = (uint16_t)c->seg_room;
	for (j = 0; j < c->tx_segs - 1; j++) {
		seg[j]->data_len = (uint16_t)RTE_MIN(left, c->seg_room);
		left -= seg[j]->data_len;
		prev->next = seg[j];
		prev = seg[j];
	}
	head->nb_segs = (uint16_t)c->tx_segs;
	return 0;
}

/*
 * Finish n frames from build_burst(): chain them when --size needs more
 * than one mbuf. Returns the frames finished; on an empty pool the rest
 * are freed (their sequence numbers are skipped, which is no loss).
 */
unsigned int gen_tx_complete(struct gen_ctx *c, struct rte_mbuf **m,
			     unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (chain_extend(c, m[i]) < 0) {
			rte_pktmbuf_free_bulk(m + i, n - i);
			return i;
		}
	}
	return n;
}
