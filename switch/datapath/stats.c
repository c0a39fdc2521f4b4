/* SPDX-License-Identifier: BSD-3-Clause */
/* Drop reason names (the X-macro in stats.h) and counter helpers. */
#include "stats.h"

const char *const vsw_drop_names[VSW_DROP_MAX] = {
#define X(e, k, s, d) #k,
	VSW_DROP_REASONS(X)
#undef X
};

const char *const vsw_drop_sides[VSW_DROP_MAX] = {
#define X(e, k, s, d) #s,
	VSW_DROP_REASONS(X)
#undef X
};

const char *const vsw_drop_descs[VSW_DROP_MAX] = {
#define X(e, k, s, d) d,
	VSW_DROP_REASONS(X)
#undef X
};

uint64_t vsw_port_drops_total(const struct vsw_port_ctrs *c)
{
	uint64_t t = 0;

	for (int r = 0; r < VSW_DROP_MAX; r++)
		t += c->drops[r];
	return t;
}
