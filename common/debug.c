/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Quarantine of retired objects and mbuf sanity checks (see debug.h).
 * The quarantine is a FIFO owned by the control side: retire() is called
 * with ctl_lock held (tables, ports) or from the vhost thread's port
 * teardown, so a small mutex guards it.
 */
#include "debug.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_debug.h>

#include "log.h"

struct held {
	void *obj;
	void (*release)(void *);
};

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static struct held quarantine[VSW_QUARANTINE_LEN];
static unsigned int q_head, q_len;

void vsw_retire(void *obj, size_t size, void (*release)(void *))
{
	struct held old = {NULL, NULL};

	if (obj == NULL)
		return;
	if (!VSW_DEBUG_BUILD) {
		release(obj);
		return;
	}
	memset(obj, VSW_POISON, size);
	pthread_mutex_lock(&q_lock);
	if (q_len == VSW_QUARANTINE_LEN) {
		old = quarantine[q_head];
		q_len--;
		q_head = (q_head + 1) % VSW_QUARANTINE_LEN;
	}
	quarantine[(q_head + q_len) % VSW_QUARANTINE_LEN] =
		(struct held){obj, release};
	q_len++;
	pthread_mutex_unlock(&q_lock);
	if (old.obj != NULL)
		old.release(old.obj);
}

void vsw_retire_flush(void)
{
	pthread_mutex_lock(&q_lock);
	while (q_len > 0) {
		struct held h = quarantine[q_head];

		q_head = (q_head + 1) % VSW_QUARANTINE_LEN;
		q_len--;
		h.release(h.obj);
	}
	pthread_mutex_unlock(&q_lock);
}

unsigned int vsw_retire_held(void)
{
	unsigned int n;

	pthread_mutex_lock(&q_lock);
	n = q_len;
	pthread_mutex_unlock(&q_lock);
	return n;
}

#ifdef VSW_DEBUG
void vsw_debug_check_mbuf(const struct rte_mbuf *m, const char *where)
{
	const char *why = NULL;
	uint16_t ref;

	if (rte_mbuf_check(m, 1, &why) != 0)
		rte_panic("vsw debug: bad mbuf %p at %s: %s\n", (const void *)m,
			  where, why);
	ref = rte_mbuf_refcnt_read(m);
	for (const struct rte_mbuf *s = m->next; s != NULL; s = s->next)
		if (rte_mbuf_refcnt_read(s) != ref)
			rte_panic("vsw debug: mbuf %p at %s: segment %p has "
				  "refcnt %u, head %u\n",
				  (const void *)m, where, (const void *)s,
				  rte_mbuf_refcnt_read(s), ref);
}
#endif

unsigned int vsw_test_hook_n(const char *name, const char *what,
			     const char *unit)
{
	const char *v = getenv(name);
	unsigned long n;
	char *end;

	if (v == NULL)
		return 0;
	n = strtoul(v, &end, 10);
	if (*end != '\0' || n > 10 * 1000 * 1000) {
		VSW_LOG(WARNING,
			"test hook %s=%s ignored: expected 0..10000000", name,
			v);
		return 0;
	}
	VSW_LOG(WARNING, "test hook %s: %s %lu %s", name, what, n, unit);
	return (unsigned int)n;
}

unsigned int vsw_test_hook_us(const char *name, const char *what)
{
	return vsw_test_hook_n(name, what, "us");
}
