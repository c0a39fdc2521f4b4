/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An mbuf pool without EAL, for unit tests that run the datapath.
 *
 * The mempool header and the mbufs live in malloc'd memory; the pool's
 * driver is a mempool ops of our own (registered by a constructor, so no
 * EAL is needed) over a plain array.  rte_pktmbuf_alloc, rte_pktmbuf_free
 * and rte_pktmbuf_free_bulk work on it unchanged.  An mbuf given back
 * twice is counted (double_frees), so a test can check that every mbuf
 * came back exactly once.
 */
#ifndef VSW_FAKE_POOL_H
#define VSW_FAKE_POOL_H

#include <rte_mbuf.h>

struct fake_pool {
	struct rte_mempool *mp;
	unsigned int n;	     /* mbufs in all */
	unsigned int n_free; /* in the pool now */
	unsigned long double_frees;
	void **free;	  /* the pool's stack of free mbufs */
	uint8_t *in_pool; /* by mbuf index: 1 while in the pool */
	char *mem;	  /* the mbufs, `stride` bytes apart */
	size_t stride;
};

/* A pool of @n mbufs with @data_room bytes each (headroom included). */
struct fake_pool *fake_pool_create(unsigned int n, uint16_t data_room);
/* The same with @priv_size bytes of private area per mbuf. */
struct fake_pool *fake_pool_create_priv(unsigned int n, uint16_t data_room,
					uint16_t priv_size);
void fake_pool_destroy(struct fake_pool *fp);
/* @len bytes of @d as a chain of mbufs of @fp holding at most @room bytes
 * each (vhost's chains); NULL when the pool runs out (what was taken
 * given back). */
struct rte_mbuf *fake_pool_chain(struct fake_pool *fp, const uint8_t *d,
				 uint32_t len, uint32_t room);

#endif /* VSW_FAKE_POOL_H */
