/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vswgen payloads beyond the header: frames longer than one mbuf (built as
 * chains from the pool), the --verify pattern written by the sender and
 * checked byte for byte by the receiver, and --test-corrupt, which damages
 * received frames on purpose to show that the check sees it.
 *
 * The pattern is a function of the frame's own header (run id, trial,
 * flow, sequence) and the byte position, so any receiver can recompute it
 * without state, and a byte from another frame (a stale or mixed-up
 * buffer) or from another position (a lost or doubled segment) does not
 * pass. Position p counts from the first byte of struct gen_hdr; byte p of
 * the payload is byte p % 8 (little endian) of the 64-bit word
 *     W(p / 8) = seed + (p / 8) * GEN_PAT_STEP
 * with seed = mix(mix(mix(run_id << 32 | trial) ^ flow) ^ seq). Filling and
 * checking go a word at a time, so a 9000-byte frame costs about a
 * thousand additions and compares.
 *
 * None of this runs for frames that fit one mbuf when --verify is off:
 * gen.c calls in here only when gen_ctx.tx_slow is set or --verify is on.
 */
#include <errno.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_mbuf.h>

#include "vswgen.h"

#define GEN_PAT_STEP 0x9e3779b97f4a7c15ull /* odd: 2^64 distinct words */
#define GEN_CORRUPT_STRIDE 997 /* prime: flipped bytes walk the payload */

/* 64-bit finalizer (MurmurHash3 fmix64): every input bit moves the seed. */
static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static uint64_t pattern_seed(const struct gen_hdr *h)
{
	uint64_t s = mix64(((uint64_t)h->run_id << 32) | h->trial);

	s = mix64(s ^ h->flow);
	return mix64(s ^ h->seq);
}

static inline uint64_t pat_word(uint64_t seed, uint32_t pos)
{
	return seed + (uint64_t)(pos / 8) * GEN_PAT_STEP;
}

static inline uint8_t pat_byte(uint64_t seed, uint32_t pos)
{
	return (uint8_t)(pat_word(seed, pos) >> (8 * (pos % 8)));
}

/* Write the pattern of positions [pos, pos + n) to p. */
static void pat_fill(uint8_t *p, uint32_t pos, uint32_t n, uint64_t seed)
{
	uint64_t w;

	for (; n > 0 && pos % 8 != 0; n--)
		*p++ = pat_byte(seed, pos++);
	for (; n >= 8; n -= 8, p += 8, pos += 8) {
		w = rte_cpu_to_le_64(pat_word(seed, pos));
		memcpy(p, &w, 8);
	}
	for (; n > 0; n--)
		*p++ = pat_byte(seed, pos++);
}

/* Do the n bytes at p hold the pattern of positions [pos, pos + n)? */
static bool pat_check(const uint8_t *p, uint32_t pos, uint32_t n, uint64_t seed)
{
	uint64_t w;

	for (; n > 0 && pos % 8 != 0; n--)
		if (*p++ != pat_byte(seed, pos++))
			return false;
	for (; n >= 8; n -= 8, p += 8, pos += 8) {
		memcpy(&w, p, 8);
		if (w != rte_cpu_to_le_64(pat_word(seed, pos)))
			return false;
	}
	for (; n > 0; n--)
		if (*p++ != pat_byte(seed, pos++))
			return false;
	return true;
}

uint32_t gen_segs(uint32_t size, uint32_t seg_room)
{
	return (size + seg_room - 1) / seg_room;
}

/*
 * Turn a head built by build_burst() (data_len = pkt_len = --size) into a
 * chain of c->tx_segs full segments and a partial last one. -ENOBUFS when
 * the pool is empty; the head is then unchanged.
 */
static int chain_extend(const struct gen_ctx *c, struct rte_mbuf *head)
{
	struct rte_mbuf *seg[GEN_MAX_SEGS], *prev = head;
	uint32_t left = head->pkt_len - c->seg_room, j;

	if (rte_pktmbuf_alloc_bulk(c->mp, seg, c->tx_segs - 1) != 0)
		return -ENOBUFS;
	head->data_len = (uint16_t)c->seg_room;
	for (j = 0; j < c->tx_segs - 1; j++) {
		seg[j]->data_len = (uint16_t)RTE_MIN(left, c->seg_room);
		left -= seg[j]->data_len;
		prev->next = seg[j];
		prev = seg[j];
	}
	head->nb_segs = (uint16_t)c->tx_segs;
	return 0;
}

/* Pattern into every byte after the header, across the chain. */
static void fill_payload(struct rte_mbuf *m, uint32_t hoff)
{
	const struct gen_hdr *h =
		rte_pktmbuf_mtod_offset(m, const struct gen_hdr *, hoff);
	const uint64_t seed = pattern_seed(h);
	uint32_t off = hoff + sizeof(*h), base = 0, n;

	for (; m != NULL; base += m->data_len, m = m->next) {
		if (off >= base + m->data_len)
			continue;
		n = base + m->data_len - off;
		pat_fill(rte_pktmbuf_mtod_offset(m, uint8_t *, off - base),
			 off - hoff, n, seed);
		off += n;
	}
}

/*
 * Finish n frames from build_burst(): chain them when --size needs more
 * than one mbuf, write the pattern with --verify (not in announcements,
 * hdr == false). Returns the frames finished; on an empty pool the rest
 * are freed (their sequence numbers are skipped, which is no loss).
 */
unsigned int gen_tx_complete(struct gen_ctx *c, struct rte_mbuf **m,
			     unsigned int n, bool hdr)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (c->tx_segs > 1 && chain_extend(c, m[i]) < 0) {
			rte_pktmbuf_free_bulk(m + i, n - i);
			return i;
		}
		if (hdr && c->o->verify)
			fill_payload(m[i], c->hdr_off);
	}
	return n;
}

/*
 * Walk the whole chain: are the frame bytes [hoff + header, end) the
 * pattern? *sum gets the segments' total data_len.
 */
static bool payload_ok(const struct rte_mbuf *m, uint32_t hoff, uint32_t end,
		       uint64_t seed, uint32_t *sum)
{
	uint32_t off = hoff + sizeof(struct gen_hdr), base = 0, n;
	bool ok = true;

	for (; m != NULL; base += m->data_len, m = m->next) {
		if (!ok || off >= end || off >= base + m->data_len)
			continue;
		n = RTE_MIN(end, base + m->data_len) - off;
		ok = pat_check(
			rte_pktmbuf_mtod_offset(m, const uint8_t *, off - base),
			off - hoff, n, seed);
		off += n;
	}
	*sum = base;
	return ok && off >= end; /* a chain shorter than end is wrong too */
}

/* Byte at frame offset off; NULL when the chain is shorter. */
static uint8_t *byte_at(struct rte_mbuf *m, uint32_t off)
{
	while (m != NULL && off >= m->data_len) {
		off -= m->data_len;
		m = m->next;
	}
	return m != NULL ? rte_pktmbuf_mtod_offset(m, uint8_t *, off) : NULL;
}

/*
 * --test-corrupt: damage a received frame the way a broken switch could,
 * alternately one payload byte flipped (the position walks the payload,
 * so over many frames every segment is hit) and a header length one off.
 * The check must then count exactly one payload or length error for it.
 */
static void corrupt(struct rte_mbuf *m, uint32_t hoff, struct trial_stats *s)
{
	struct gen_hdr *h = rte_pktmbuf_mtod_offset(m, struct gen_hdr *, hoff);
	uint32_t first = hoff + sizeof(*h), plen = m->pkt_len - first;
	uint64_t k = s->test_corrupted++;
	uint8_t *b = NULL;

	if (k % 2 == 0 && plen > 0)
		b = byte_at(m, first + (uint32_t)(k / 2 * GEN_CORRUPT_STRIDE %
						  plen));
	if (b != NULL)
		*b ^= 0x01;
	else
		h->len++;
}

/*
 * --verify on a counted frame: its length against the header's (and the
 * chain's data_len sum against pkt_len), every payload byte against the
 * pattern. Frames without the pattern flag (a sender without --verify)
 * are not checked; `verified` says how many were.
 */
void gen_rx_verify(struct gen_ctx *c, struct rte_mbuf *m,
		   const struct gen_hdr *h, struct trial_stats *s)
{
	const uint32_t hoff = (uint32_t)((const uint8_t *)h -
					 rte_pktmbuf_mtod(m, const uint8_t *));
	uint32_t sum, end;
	bool ok;

	if ((h->flags & GEN_HF_PATTERN) == 0)
		return;
	s->verified++;
	if (c->o->test_corrupt && s->verified % c->o->test_corrupt == 0)
		corrupt(m, hoff, s);
	end = RTE_MIN((uint32_t)h->len, m->pkt_len);
	ok = payload_ok(m, hoff, end, pattern_seed(h), &sum);
	if (h->len != m->pkt_len || sum != m->pkt_len)
		s->len_errors++;
	if (!ok)
		s->payload_errors++;
}
