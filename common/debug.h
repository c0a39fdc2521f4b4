/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The debug build (cmake -DVSW_DEBUG=ON): turn silent corruption into an
 * immediate crash.
 *
 * - Quarantine: a retired datapath table or port is not freed but
 *   poisoned (every byte 0x6b, so a pointer read from it is
 *   non-canonical and faults at once) and kept; it is freed only after
 *   VSW_QUARANTINE_LEN later retirements.  A worker that still reached
 *   it after its grace period dereferences poison instead of reading
 *   plausible stale data.
 * - mbuf checks: every received mbuf and every mbuf handed to a port is
 *   checked (rte_mbuf_check, plus: each segment's reference count equals
 *   the head's, which is what flooding a chain must keep); a bad one
 *   panics with where it was seen.
 *
 * In the normal build retire() frees at once and the checks compile to
 * nothing.
 */
#ifndef VSW_DEBUG_H
#define VSW_DEBUG_H

#include <stddef.h>

#include <rte_mbuf.h>

#define VSW_POISON 0x6b
#define VSW_QUARANTINE_LEN 64

/*
 * Release @obj of @size bytes with @release (control thread, after its
 * grace period): at once, or in the debug build poisoned and later.
 */
void vsw_retire(void *obj, size_t size, void (*release)(void *));

/* Free everything still in quarantine (shutdown). */
void vsw_retire_flush(void);

/*
 * Objects held in quarantine now (0 outside the debug build): DPDK heap
 * allocations that are neither in use nor freed yet, which a test
 * counting the heap's allocations must leave out (/vsw/info
 * "quarantined").
 */
unsigned int vsw_retire_held(void);

/*
 * A test hook: the microseconds in environment variable @name (read once
 * per call: call it once, at start), logged as a warning with @what when
 * set; 0 when unset.  The three hooks (VSW_TEST_QS_DELAY_US,
 * VSW_TEST_STATE_DELAY_US, VSW_TEST_UPKEEP_DELAY_US) widen race windows
 * for tests; never set them in production.
 */
unsigned int vsw_test_hook_us(const char *name, const char *what);
/* The same for a count of @unit (VSW_TEST_BIG_MBUFS_HOLD: mbufs). */
unsigned int vsw_test_hook_n(const char *name, const char *what,
			     const char *unit);

#ifdef VSW_DEBUG
#define VSW_DEBUG_BUILD 1
void vsw_debug_check_mbuf(const struct rte_mbuf *m, const char *where);
#define VSW_CHECK_MBUF(m, where) vsw_debug_check_mbuf(m, where)
#else
#define VSW_DEBUG_BUILD 0
#define VSW_CHECK_MBUF(m, where)                                               \
	do {                                                                   \
	} while (0)
#endif

#endif /* VSW_DEBUG_H */
