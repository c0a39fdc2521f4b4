/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A fake port kind for unit tests of the datapath: struct vsw_port_ops
 * over in-memory arrays.  rx returns the mbufs the test queued on a
 * queue, in order; tx takes up to `tx_room` frames in all (a full ring
 * when it runs out) and keeps what it took, in order, for the test to
 * check and free.  With the generic `tx_refuses_big` flag set, tx stops
 * at a frame longer than VSW_SMALL_BUF_FRAME, as vhost does for a guest
 * without mergeable rx buffers.
 */
#ifndef VSW_FAKE_PORT_H
#define VSW_FAKE_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include "port/port.h"

#define FAKE_RING 1024

struct fake_port {
	struct vsw_port up; /* the generic part: all the switch reads */
	struct {
		unsigned int head, tail;
		struct rte_mbuf *m[FAKE_RING];
	} rxq[VSW_MAX_QUEUES];
	unsigned int tx_room; /* frames tx may still take; UINT32_MAX: any */
	unsigned int tx_calls;
	uint64_t rx_total, tx_total, tx_bytes; /* since creation */
	unsigned int n_sent;
	struct rte_mbuf *sent[FAKE_RING];
};

static inline struct fake_port *fake_port_cast(struct vsw_port *p)
{
	return (struct fake_port *)p;
}

/* A port named @name with id @id, @n_rxq rx queues, up, tx unlimited. */
struct fake_port *fake_port_create(const char *name, uint16_t id,
				   uint16_t n_rxq);
/* Free the port and every mbuf still queued or sent on it. */
void fake_port_destroy(struct fake_port *fp);

/* Queue @m for rx queue @q; false when the queue is full. */
bool fake_port_push(struct fake_port *fp, uint16_t q, struct rte_mbuf *m);
/* Frames still queued on rx queue @q. */
unsigned int fake_port_rx_pending(const struct fake_port *fp, uint16_t q);
struct vsw_worker;
/*
 * stats.h's invariants of worker @w's counters over the @n ports @ps
 * (ids 0..n-1), what is still buffered counting as sent and a TSO frame
 * cut into k segments as k frames out, and the counters against what the
 * fake ports really received and took.  false (the broken rule on
 * stderr) when one does not hold.
 */
bool fake_ports_counters_ok(const struct vsw_worker *w,
			    struct fake_port *const *ps, unsigned int n);
/* Does every mbuf sent on the @n ports @ps hold, on each of its
 * segments, one reference per time a port was given it, or worker @w
 * (NULL: none) still holds it in a port's tx buffer? */
bool fake_ports_refs_ok(struct fake_port *const *ps, unsigned int n,
			const struct vsw_worker *w);
/* Free (one reference of) every sent mbuf and forget them. */
void fake_port_free_sent(struct fake_port *fp);

#endif /* VSW_FAKE_PORT_H */
