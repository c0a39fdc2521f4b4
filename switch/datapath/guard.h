/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port security as the worker applies it (worker.c, its only includer):
 * allowed-macs and allowed-ips behind one flag of the table entry, with
 * the source that passed last in the burst remembered, and storm control
 * on the worker's own buckets.  The rules themselves are portsec.h.
 */
#ifndef VSW_GUARD_H
#define VSW_GUARD_H

#include <rte_common.h>
#include <rte_mbuf.h>

#include "frame.h"
#include "portsec.h"
#include "table.h"
#include "worker.h"

/* Is the source MAC of @key one the port may use? (allowed-macs set) */
static bool src_allowed(const struct vsw_table_port *pp, uint64_t key)
{
	uint64_t mac = key & VSW_FDB_MAC_MASK;

	for (uint8_t i = 0; i < pp->n_allowed; i++)
		if (pp->allowed[i] == mac)
			return true;
	return false;
}

/*
 * src_allowed, remembering in *@ok the last source that passed: a burst
 * mostly comes from one MAC, which is then looked for once.
 */
static inline bool src_ok(const struct vsw_table_port *pp, uint64_t key,
			  uint64_t *ok)
{
	if (key == *ok)
		return true;
	if (!src_allowed(pp, key))
		return false;
	*ok = key;
	return true;
}

/* What the guard saw pass last in this burst (a burst is mostly one
 * source): a source MAC key (0: none) and an IPv4 source (0: none). */
struct guard_cache {
	uint64_t src;
	uint32_t ip4;
};

/*
 * allowed-macs and allowed-ips of a port that has either: the reason to
 * drop @m (source key @src), or VSW_DROP_MAX.  Out of line: the loop of a
 * port without them stays as it was.
 */
static __rte_noinline enum vsw_drop_reason
guard(const struct vsw_table_port *ip, const struct rte_mbuf *m, uint64_t src,
      struct guard_cache *gc)
{
	if (ip->n_allowed && !src_ok(ip, src, &gc->src))
		return VSW_DROP_SRC_NOT_ALLOWED;
	if (!ip->check_ips)
		return VSW_DROP_MAX;
	return vsw_portsec_check_burst(&ip->sec,
				       rte_pktmbuf_mtod(m, const uint8_t *),
				       m->data_len, &gc->ip4);
}

_Static_assert(VSW_FRAME_UNICAST == 0 && VSW_FRAME_BROADCAST == 1 &&
		       VSW_FRAME_MULTICAST == 2,
	       "storm_cls[] and storm[][] are indexed by frame class");

/*
 * Storm control: the reason to drop a flood of class @cls from port @in
 * (over its limit), or VSW_DROP_MAX.
 */
static inline enum vsw_drop_reason storm_over(struct vsw_worker *w,
					      const struct vsw_table_port *ip,
					      uint16_t in, uint8_t cls,
					      uint64_t now)
{
	static const enum vsw_drop_reason why[3] = {VSW_DROP_STORM_UNKNOWN,
						    VSW_DROP_STORM_BROADCAST,
						    VSW_DROP_STORM_MULTICAST};
	const struct vsw_table_storm *s = &ip->storm_cls[cls];

	if (s->cost == 0 || vsw_storm_take(&w->storm[in][cls], s, now))
		return VSW_DROP_MAX;
	return why[cls];
}

#endif /* VSW_GUARD_H */
