/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The benchmarks' FDB memory (bench_datapath, bench_fdb): on huge pages
 * as vsw's rte_malloc'd table is (transparent huge pages if none are
 * free), faulted in before the timed loop; never freed (the process ends
 * right after).  The alloc/free pair of struct vsw_fdb_params.
 */
#ifndef VSW_BENCH_HUGE_H
#define VSW_BENCH_HUGE_H

#include <string.h>
#include <sys/mman.h>

static inline void *bench_huge_alloc(size_t size, void *arg)
{
	void *p;

	(void)arg;
	size = (size + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p == MAP_FAILED) {
		p = mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		madvise(p, size, MADV_HUGEPAGE);
	}
	memset(p, 0, size);
	return p;
}

static inline void bench_huge_free(void *p, void *arg)
{
	(void)p;
	(void)arg;
}

#endif /* VSW_BENCH_HUGE_H */
