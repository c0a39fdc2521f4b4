/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pcapng blocks a capture file is made of (pcapng.c): a section
 * header, one interface (the captured port, Ethernet, nanosecond
 * timestamps), an enhanced packet block per frame with its direction, and
 * an interface statistics block at the end (frames received, dropped by
 * the capture, accepted by the filter).  Plain C on a FILE, no EAL: vsw
 * writes its own blocks because DPDK 22.11's librte_pcapng describes
 * ethdev ports only, and a vhost-user port is not one.
 */
#ifndef VSW_PCAPNG_H
#define VSW_PCAPNG_H

#include <stdint.h>
#include <stdio.h>

/* Section header and interface 0 named @ifname (@descr: a description). */
int vsw_pcapng_header(FILE *f, const char *ifname, const char *descr,
		      uint32_t snaplen);
/* A frame of interface 0: @ts_ns since the epoch, @caplen bytes of @data
 * (a frame of @origlen), @dir 1 inbound, 2 outbound (0: unknown). */
int vsw_pcapng_packet(FILE *f, uint64_t ts_ns, const void *data,
		      uint32_t caplen, uint32_t origlen, unsigned int dir);
/* Interface 0's statistics block; 0 or -1 (errno). */
int vsw_pcapng_stats(FILE *f, uint64_t ts_ns, uint64_t recv, uint64_t drop,
		     uint64_t accepted);

#endif /* VSW_PCAPNG_H */
