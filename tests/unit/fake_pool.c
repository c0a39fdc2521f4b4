/* SPDX-License-Identifier: BSD-3-Clause */
/* An mbuf pool without EAL (see fake_pool.h). */
#include "fake_pool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mempool.h>

#define FAKE_OPS_NAME "vsw_unit_stack"
#define HDR_ROOM RTE_CACHE_LINE_SIZE /* room for rte_mempool_objhdr */

static struct fake_pool *pool_of(const struct rte_mempool *mp)
{
	return mp->pool_data;
}

static unsigned int index_of(const struct fake_pool *fp, const void *obj)
{
	return (unsigned int)(((const char *)obj - fp->mem - HDR_ROOM) /
			      fp->stride);
}

static int ops_alloc(struct rte_mempool *mp)
{
	(void)mp;
	return 0;
}

static void ops_free(struct rte_mempool *mp)
{
	(void)mp;
}

static int ops_enqueue(struct rte_mempool *mp, void *const *objs,
		       unsigned int n)
{
	struct fake_pool *fp = pool_of(mp);

	for (unsigned int i = 0; i < n; i++) {
		unsigned int k = index_of(fp, objs[i]);

		if (k >= fp->n || fp->in_pool[k]) {
			fp->double_frees++;
			continue;
		}
		fp->in_pool[k] = 1;
		fp->free[fp->n_free++] = objs[i];
	}
	return 0;
}

static int ops_dequeue(struct rte_mempool *mp, void **objs, unsigned int n)
{
	struct fake_pool *fp = pool_of(mp);

	if (n > fp->n_free)
		return -ENOBUFS;
	for (unsigned int i = 0; i < n; i++) {
		objs[i] = fp->free[--fp->n_free];
		fp->in_pool[index_of(fp, objs[i])] = 0;
	}
	return 0;
}

static unsigned int ops_count(const struct rte_mempool *mp)
{
	return pool_of(mp)->n_free;
}

static struct rte_mempool_ops fake_ops = {
	.name = FAKE_OPS_NAME,
	.alloc = ops_alloc,
	.free = ops_free,
	.enqueue = ops_enqueue,
	.dequeue = ops_dequeue,
	.get_count = ops_count,
};

RTE_MEMPOOL_REGISTER_OPS(fake_ops);

struct fake_pool *fake_pool_create(unsigned int n, uint16_t data_room)
{
	return fake_pool_create_priv(n, data_room, 0);
}

struct fake_pool *fake_pool_create_priv(unsigned int n, uint16_t data_room,
					uint16_t priv_size)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = data_room,
		.mbuf_priv_size = priv_size,
	};
	size_t hdr = sizeof(struct rte_mempool) + sizeof(priv);
	struct fake_pool *fp = calloc(1, sizeof(*fp));

	if (fp == NULL)
		return NULL;
	fp->n = n;
	fp->stride =
		RTE_ALIGN_CEIL(sizeof(struct rte_mbuf) + priv_size + data_room,
			       RTE_CACHE_LINE_SIZE) +
		HDR_ROOM;
	fp->mp = aligned_alloc(RTE_CACHE_LINE_SIZE,
			       RTE_ALIGN_CEIL(hdr, RTE_CACHE_LINE_SIZE));
	fp->mem = aligned_alloc(RTE_CACHE_LINE_SIZE, fp->stride * n);
	fp->free = calloc(n, sizeof(*fp->free));
	fp->in_pool = calloc(n, 1);
	if (fp->mp == NULL || fp->mem == NULL || fp->free == NULL ||
	    fp->in_pool == NULL) {
		fake_pool_destroy(fp);
		return NULL;
	}
	memset(fp->mp, 0, hdr);
	snprintf(fp->mp->name, sizeof(fp->mp->name), "fake_pool");
	fp->mp->size = n;
	fp->mp->elt_size = (uint32_t)(fp->stride - HDR_ROOM);
	fp->mp->private_data_size = sizeof(priv);
	fp->mp->pool_data = fp;
	if (rte_mempool_set_ops_byname(fp->mp, FAKE_OPS_NAME, NULL) != 0) {
		fake_pool_destroy(fp);
		return NULL;
	}
	rte_pktmbuf_pool_init(fp->mp, &priv);
	memset(fp->mem, 0, fp->stride * n);
	for (unsigned int i = 0; i < n; i++) {
		char *obj = fp->mem + (size_t)i * fp->stride + HDR_ROOM;
		struct rte_mempool_objhdr *oh =
			(void *)(obj - sizeof(struct rte_mempool_objhdr));

		oh->mp = fp->mp;
		oh->iova = (rte_iova_t)(uintptr_t)obj;
		rte_pktmbuf_init(fp->mp, NULL, obj, i);
		fp->in_pool[i] = 1;
		fp->free[fp->n_free++] = obj;
	}
	return fp;
}

void fake_pool_destroy(struct fake_pool *fp)
{
	if (fp == NULL)
		return;
	free(fp->mp);
	free(fp->mem);
	free(fp->free);
	free(fp->in_pool);
	free(fp);
}

struct rte_mbuf *fake_pool_chain(struct fake_pool *fp, const uint8_t *d,
				 uint32_t len, uint32_t room)
{
	struct rte_mbuf *h = NULL, *last = NULL;
	uint32_t off = 0;

	do {
		struct rte_mbuf *m = rte_pktmbuf_alloc(fp->mp);
		uint32_t k = len - off < room ? len - off : room;

		if (m == NULL) {
			rte_pktmbuf_free(h);
			return NULL;
		}
		memcpy(rte_pktmbuf_append(m, (uint16_t)k), d + off, k);
		off += k;
		if (h == NULL) {
			h = m;
		} else {
			last->next = m;
			h->nb_segs++;
			h->pkt_len += k;
		}
		last = m;
	} while (off < len);
	return h;
}
