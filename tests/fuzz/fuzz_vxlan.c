/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for a vxlan port's check of the outer headers
 * (port/vxlan_hdr.c): anyone on the underlay sends whatever it likes.
 * The input is one underlay frame; its first byte picks how much of it is
 * the first segment (the rest: later segments the check must not read),
 * the remaining bytes are the frame, in a buffer exactly as long as the
 * segment, so ASan sees a read past it.  Invariants: ARP and drops need
 * no more than the frame's own bytes; a frame taken is IPv4/UDP 4789 to
 * the VTEP's address with the VXLAN I flag, its inner Ethernet header
 * whole in the segment, and the lengths it reports inside the frame and
 * in order (IPv4 header, UDP, VXLAN, inner frame); the same frame gets the
 * same verdict twice.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "port/vxlan_hdr.h"

#define LOCAL 0x0a600001u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vsw_vxlan_rx r, r2;
	uint32_t seg, len;
	uint8_t *b;
	int rc;

	if (size < 1 || size > 65536)
		return 0;
	len = (uint32_t)size - 1;
	seg = data[0] == 0 ? len : (uint32_t)data[0] * len / 255;
	b = malloc(seg ? seg : 1);
	if (b == NULL)
		return 0;
	memcpy(b, data + 1, seg);
	memset(&r, 0, sizeof(r));
	rc = vsw_vxlan_parse(b, seg, len, LOCAL, &r);
	FUZZ_CHECK(rc == VSW_VX_OK || rc == VSW_VX_ARP ||
		   (rc >= 0 && rc < VSW_VX_DROP_MAX));
	if (rc == VSW_VX_OK) {
		FUZZ_CHECK(seg >= 14u + 20 + 8 + 8 + 14);
		FUZZ_CHECK(b[12] == 0x08 && b[13] == 0x00 && (b[14] >> 4) == 4);
		FUZZ_CHECK(b[14 + 9] == 17);
		FUZZ_CHECK(((uint32_t)b[30] << 24 | (uint32_t)b[31] << 16 |
			    (uint32_t)b[32] << 8 | b[33]) == LOCAL);
		FUZZ_CHECK(r.l3 == 14 && r.inner >= r.l3 + 20 + 16 &&
			   r.inner + 14u <= seg && r.inner + 14u <= r.len &&
			   r.len <= len);
		FUZZ_CHECK(b[r.inner - 16 + 2] == 0x12 &&
			   b[r.inner - 16 + 3] == 0xb5); /* 4789 */
		FUZZ_CHECK(b[r.inner - 8] & 0x08);
		FUZZ_CHECK(r.vni <= 0xffffff);
	} else if (rc == VSW_VX_ARP) {
		FUZZ_CHECK(seg >= 14 && b[12] == 0x08 && b[13] == 0x06);
	}
	memset(&r2, 0, sizeof(r2));
	FUZZ_CHECK(vsw_vxlan_parse(b, seg, len, LOCAL, &r2) == rc);
	FUZZ_CHECK(rc != VSW_VX_OK || memcmp(&r, &r2, sizeof(r)) == 0);
	free(b);
	return 0;
}
