/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A frame's flow hash, for ports that spread frames over queues or
 * source ports and must keep each flow on one (a vhost-user guest's rx
 * queues, vhost_rxtx.c; a vxlan port's outer UDP source port, vxlan.c).
 *
 * Plain C on a byte pointer and a length (unit test: test_flow_hash).
 * It reads only d[0..len) and hashes the MACs and, behind at most two
 * VLAN tags, an IPv4 or IPv6 packet's addresses and, where the packet is
 * not a fragment and carries TCP, UDP or SCTP right after its fixed
 * header (IPv4 options skipped, no IPv6 extension header), its ports.
 * Every fragment of a datagram hashes like its first (no ports), so one
 * flow never splits over two queues; a frame too short for a field
 * hashes without it.
 *
 * Keyed: each port draws its key when it is made (vsw_flow_key_new), so
 * which flows share a queue (or a source port) differs from port to port
 * and from start to start, and a sender cannot work out offline which of
 * its flows land on one rx queue of another guest.  Not a cryptographic
 * function: it spreads, and it makes aiming a matter of observing, which
 * a guest cannot do on another guest's queues.
 */
#ifndef VSW_FLOW_HASH_H
#define VSW_FLOW_HASH_H

#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static inline uint64_t vsw_fh_mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 31);
}

/* bytes at any alignment */
static inline uint64_t vsw_fh_load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t vsw_fh_load32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A port's key: random (getrandom); where the kernel has none to give,
 * the clock and the process id, which differ from start to start. */
static inline uint64_t vsw_flow_key_new(void)
{
	struct timespec ts;
	uint64_t k;

	if (getrandom(&k, sizeof(k), GRND_NONBLOCK) == (ssize_t)sizeof(k))
		return k;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	k = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return vsw_fh_mix(k, (uint64_t)getpid());
}

static inline uint32_t vsw_flow_hash(const uint8_t *d, uint32_t len,
				     uint64_t key)
{
	uint64_t h = 0x6a09e667f3bcc908ull ^ key;
	uint32_t l3, l4 = 0;
	uint16_t et;
	uint8_t proto = 0;

	if (len < 14)
		return 0;
	h = vsw_fh_mix(h, vsw_fh_load64(d));
	h = vsw_fh_mix(h, vsw_fh_load32(d + 8));
	l3 = 14;
	et = (uint16_t)(d[12] << 8 | d[13]);
	for (int i = 0; i < 2 && (et == 0x8100 || et == 0x88a8); i++) {
		if (len < l3 + 4)
			goto out;
		et = (uint16_t)(d[l3 + 2] << 8 | d[l3 + 3]);
		l3 += 4;
	}
	if (et == 0x0800 && len >= l3 + 20 && d[l3] >> 4 == 4 &&
	    (d[l3] & 0xf) >= 5) {
		h = vsw_fh_mix(h, vsw_fh_load64(d + l3 + 12));
		/* more fragments, or an offset: no ports */
		if (((d[l3 + 6] & 0x3f) | d[l3 + 7]) == 0) {
			proto = d[l3 + 9];
			l4 = l3 + (uint32_t)(d[l3] & 0xf) * 4;
		}
	} else if (et == 0x86dd && len >= l3 + 40 && d[l3] >> 4 == 6) {
		for (uint32_t o = 8; o < 40; o += 8)
			h = vsw_fh_mix(h, vsw_fh_load64(d + l3 + o));
		proto = d[l3 + 6];
		l4 = l3 + 40;
	}
	if ((proto == 6 || proto == 17 || proto == 132) && len >= l4 + 4)
		h = vsw_fh_mix(h, vsw_fh_load32(d + l4));
out:
	/* the high bits are as good as the low ones (callers take either) */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (uint32_t)(h ^ (h >> 32));
}

#endif /* VSW_FLOW_HASH_H */
