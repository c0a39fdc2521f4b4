/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * On the EAL interrupt thread, memory that is not EAL's is unmapped only
 * after every worker passed a quiescent state (switch.c starts the guard
 * with the workers and stops it once they are gone).
 *
 * Why: DPDK 22.11's net_memif (and upstream's, unchanged in 2026) tears a
 * connection down on that thread when the peer leaves: memif_disconnect
 * clears the port's CONNECTED flag, then memif_free_regions unmaps the peer's
 * shared rings and buffers at once. eth_memif_rx and eth_memif_tx test that
 * flag (a plain load) and then read the rings, so a worker between the two
 * when the peer goes reads unmapped memory: SIGSEGV in eth_memif_rx (a worker
 * preempted there as the memif client left: the signature of
 * 05_ethdev_memif's CI segfault; test 55_memif_peer_leaves holds a worker
 * there). The PMD offers no hook around its teardown, so the vsw program's
 * munmap stands in front of the C library's for the whole process: called on
 * the interrupt thread for memory outside EAL's memseg lists (a memif region
 * is a peer's memfd), it first waits a grace period, so a worker inside the
 * PMD's rx or tx ends that burst on mapped memory and a later one sees the
 * flag cleared. Every other call goes straight on.
 *
 * Waiting there is safe: workers never wait for the interrupt thread (they
 * take no lock of ours, and net_memif unmaps holding none), and a worker
 * asleep in adaptive mode is offline.  EAL's own unmaps (memory hotplug,
 * under the heap lock that a worker may wait for: EXTBUF allocates on
 * the fast path) are in its memseg lists and never wait.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_interrupts.h>
#include <rte_memory.h>

#include "control/control.h"
#include "unmap_guard.h"

typedef int (*munmap_fn)(void *addr, size_t len);

static struct vsw_rt *guard_rt;
static munmap_fn next_munmap;

void vsw_unmap_guard_set(struct vsw_rt *rt)
{
	__atomic_store_n(&guard_rt, rt, __ATOMIC_RELEASE);
}

/* The munmap we stand in front of (libc's, or a sanitizer's). */
static int unmap(void *addr, size_t len)
{
	munmap_fn f = __atomic_load_n(&next_munmap, __ATOMIC_RELAXED);

	if (f == NULL) {
		f = (munmap_fn)dlsym(RTLD_NEXT, "munmap");
		__atomic_store_n(&next_munmap, f, __ATOMIC_RELAXED);
	}
	if (f == NULL)
		return (int)syscall(SYS_munmap, addr, len);
	return f(addr, len);
}

int munmap(void *addr, size_t len)
{
	struct vsw_rt *rt = __atomic_load_n(&guard_rt, __ATOMIC_ACQUIRE);

	if (rt != NULL && rte_thread_is_intr() &&
	    rte_mem_virt2memseg_list(addr) == NULL)
		vsw_quiesce(rt);
	return unmap(addr, len);
}
