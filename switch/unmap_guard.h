/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The EAL interrupt thread unmaps memory that is not EAL's only after a
 * grace period of the workers (unmap_guard.c: net_memif unmaps a leaving
 * peer's rings under a worker that may still be reading them).
 */
#ifndef VSW_UNMAP_GUARD_H
#define VSW_UNMAP_GUARD_H

#include "datapath/worker.h"

/* Guard with @rt's workers from now on; NULL: no longer (they stopped). */
void vsw_unmap_guard_set(struct vsw_rt *rt);

#endif /* VSW_UNMAP_GUARD_H */
