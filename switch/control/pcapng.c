/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcapng blocks (pcapng.h), in the host's byte order (little-endian on
 * the machines vsw runs on; a reader takes the order from the section
 * header's magic).  Each writer builds its block's head and options in a
 * small buffer and the frame's bytes go straight from the caller's.
 * Returns 0, or -1 when the FILE refused a write.
 */
#include "pcapng.h"

#include <string.h>

#define BT_SHB 0x0A0D0D0Au
#define BT_IDB 0x00000001u
#define BT_ISB 0x00000005u
#define BT_EPB 0x00000006u
#define LINKTYPE_ETHERNET 1
#define PAD4(n) (((n) + 3u) & ~3u)

struct blk {
	uint8_t b[512];
	uint32_t len;
};

static void put(struct blk *k, const void *v, uint32_t n)
{
	if (k->len + n <= sizeof(k->b))
		memcpy(k->b + k->len, v, n);
	k->len += n;
}

static void put32(struct blk *k, uint32_t v)
{
	put(k, &v, 4);
}

/* An option: code, length, value padded to 4 (at most 128 bytes). */
static void opt(struct blk *k, uint16_t code, const void *v, uint32_t n)
{
	static const uint8_t zero[4];
	uint16_t h[2] = {code, (uint16_t)n};

	if (n > 128)
		n = h[1] = 128;
	put(k, h, 4);
	put(k, v, n);
	put(k, zero, PAD4(n) - n);
}

static void opt_str(struct blk *k, uint16_t code, const char *s)
{
	if (s != NULL && s[0] != '\0')
		opt(k, code, s, (uint32_t)strlen(s));
}

static void opt_u64(struct blk *k, uint16_t code, uint64_t v)
{
	opt(k, code, &v, 8);
}

/* End of options, the trailing length; writes @k whole. */
static int finish(FILE *f, struct blk *k)
{
	uint32_t total;

	put32(k, 0); /* opt_endofopt */
	total = k->len + 4;
	memcpy(k->b + 4, &total, 4);
	put32(k, total);
	return k->len <= sizeof(k->b) && fwrite(k->b, k->len, 1, f) == 1 ? 0
									 : -1;
}

int vsw_pcapng_header(FILE *f, const char *ifname, const char *descr,
		      uint32_t snaplen)
{
	struct blk k = {.len = 0};
	uint16_t ver[2] = {1, 0}, lt[2] = {LINKTYPE_ETHERNET, 0};
	int64_t section = -1;
	uint8_t tsresol = 9; /* nanoseconds */

	put32(&k, BT_SHB);
	put32(&k, 0);
	put32(&k, 0x1A2B3C4Du);
	put(&k, ver, 4);
	put(&k, &section, 8);
	opt_str(&k, 4, "vsw"); /* shb_userappl */
	if (finish(f, &k) < 0)
		return -1;
	k.len = 0;
	put32(&k, BT_IDB);
	put32(&k, 0);
	put(&k, lt, 4);
	put32(&k, snaplen);
	opt_str(&k, 2, ifname); /* if_name */
	opt_str(&k, 3, descr);	/* if_description */
	opt(&k, 9, &tsresol, 1);
	return finish(f, &k);
}

int vsw_pcapng_packet(FILE *f, uint64_t ts_ns, const void *data,
		      uint32_t caplen, uint32_t origlen, unsigned int dir)
{
	static const uint8_t zero[4];
	struct blk head = {.len = 0}, tail = {.len = 0};
	uint32_t total, flags = dir & 3u; /* epb_flags: 1 in, 2 out */

	/* head: type, length, interface, timestamp, lengths */
	put32(&head, BT_EPB);
	put32(&head, 0);
	put32(&head, 0);
	put32(&head, (uint32_t)(ts_ns >> 32));
	put32(&head, (uint32_t)ts_ns);
	put32(&head, caplen);
	put32(&head, origlen);
	if (flags != 0)
		opt(&tail, 2, &flags, 4);
	put32(&tail, 0); /* opt_endofopt */
	total = head.len + PAD4(caplen) + tail.len + 4;
	memcpy(head.b + 4, &total, 4);
	put32(&tail, total);
	if (fwrite(head.b, head.len, 1, f) != 1 ||
	    (caplen > 0 && fwrite(data, caplen, 1, f) != 1) ||
	    (PAD4(caplen) > caplen &&
	     fwrite(zero, PAD4(caplen) - caplen, 1, f) != 1) ||
	    fwrite(tail.b, tail.len, 1, f) != 1)
		return -1;
	return 0;
}

int vsw_pcapng_stats(FILE *f, uint64_t ts_ns, uint64_t recv, uint64_t drop,
		     uint64_t accepted)
{
	struct blk k = {.len = 0};

	put32(&k, BT_ISB);
	put32(&k, 0);
	put32(&k, 0);
	put32(&k, (uint32_t)(ts_ns >> 32));
	put32(&k, (uint32_t)ts_ns);
	opt_u64(&k, 4, recv);	  /* isb_ifrecv */
	opt_u64(&k, 5, drop);	  /* isb_ifdrop */
	opt_u64(&k, 6, accepted); /* isb_filteraccept */
	return finish(f, &k);
}
