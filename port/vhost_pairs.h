/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which of a vhost-user guest's rx queues (queue pairs) each worker sends
 * into.  Plain C (unit test: test_flow_hash); vhost_rxtx.c enqueues by
 * it, vhost.c tells from it whether workers share a pair.
 */
#ifndef VSW_VHOST_PAIRS_H
#define VSW_VHOST_PAIRS_H

#include <stdbool.h>
#include <stdint.h>

#include "config/vsw_config.h"

/*
 * The queue pair tx queue @q (a worker's index) enqueues on: q mod the
 * pairs we serve (@nr); when the guest's RX ring there is not enabled
 * (@en: rx_enabled; it went to fewer pairs, ethtool -L, or a frontend
 * disabled pair 0 and kept others), the lowest of those pairs whose RX
 * ring is, as OVS remaps its tx queues; pair 0 when none is (the frames
 * wait for it, then are dropped as tx_full).
 */
static inline uint16_t vhost_tx_pair(uint16_t q, uint16_t nr, uint32_t en)
{
	uint16_t qp = nr > 0 ? q % nr : 0;
	uint32_t in_use;

	if (qp < VSW_MAX_QUEUES && (en & (1u << qp)))
		return qp;
	in_use = en & (nr < VSW_MAX_QUEUES ? (1u << nr) - 1
					   : (1u << VSW_MAX_QUEUES) - 1);
	return in_use != 0 ? (uint16_t)__builtin_ctz(in_use) : 0;
}

/*
 * How many of the guest's rx queues tx queue @q (a worker's index) spreads
 * its frames over, by flow (vhost_rxtx.c): when the pairs in use (the
 * pairs from 0 whose RX ring is enabled, at most @nr) outnumber the
 * switch's @nw workers, worker q feeds pairs q, q + nw, q + 2 nw, ...
 * below that count, and no two workers feed one pair.  1: it feeds one,
 * vhost_tx_pair's.
 */
static inline uint16_t vhost_tx_spread(uint16_t q, uint16_t nr, uint32_t en,
				       unsigned int nw)
{
	uint16_t used = (uint16_t)__builtin_ctzll(~(uint64_t)en);

	if (used > nr)
		used = nr;
	if (used <= nw || q >= nw)
		return 1;
	return (uint16_t)((used - q + nw - 1) / nw);
}

/*
 * The pairs worker @q feeds, a bit each: vhost_tx_spread's when @spread
 * (guest-rx-spread) and it spreads, else vhost_tx_pair's one.
 */
static inline uint32_t vhost_tx_fed(uint16_t q, uint16_t nr, uint32_t en,
				    unsigned int nw, bool spread)
{
	uint16_t c = spread ? vhost_tx_spread(q, nr, en, nw) : 1;
	uint32_t fed = 0;

	if (c == 1)
		return 1u << vhost_tx_pair(q, nr, en);
	for (uint16_t g = 0; g < c; g++)
		fed |= 1u << (q + g * nw);
	return fed;
}

#endif /* VSW_VHOST_PAIRS_H */
