/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frame classification unit test (no EAL): unicast, broadcast, multicast,
 * runts (with and without a VLAN tag), invalid source, VLAN id in the key.
 */
#include <string.h>

#include "datapath/frame.h"
#include "vsw_test.h"

static uint8_t fr[64];

static void mk(const char *dst, const char *src, uint16_t type)
{
	memset(fr, 0, sizeof(fr));
	memcpy(fr, dst, 6);
	memcpy(fr + 6, src, 6);
	fr[12] = (uint8_t)(type >> 8);
	fr[13] = (uint8_t)type;
}

static const char A[6] = {0x02, 0, 0, 0, 0, 0x0a};
static const char B[6] = {0x02, 0, 0, 0, 0, 0x0b};
static const char BC[6] = {-1, -1, -1, -1, -1, -1};
static const char MC[6] = {0x01, 0x00, 0x5e, 0, 0, 1};

static void test_unicast(void)
{
	struct vsw_frame f;

	mk(B, A, 0x0800);
	CHECK(vsw_frame_parse(fr, 60, &f) == VSW_FRAME_UNICAST);
	CHECK(f.dst_key == vsw_fdb_key((const uint8_t *)B, 0));
	CHECK(f.src_key == vsw_fdb_key((const uint8_t *)A, 0));
	CHECK(f.vlan == 0);
	CHECK(vsw_frame_parse(fr, 14, &f) == VSW_FRAME_UNICAST);
}

static void test_broadcast_multicast(void)
{
	struct vsw_frame f;

	mk(BC, A, 0x0806);
	CHECK(vsw_frame_parse(fr, 60, &f) == VSW_FRAME_BROADCAST);
	mk(MC, A, 0x0800);
	CHECK(vsw_frame_parse(fr, 60, &f) == VSW_FRAME_MULTICAST);
}

static void test_runts(void)
{
	struct vsw_frame f;

	mk(B, A, 0x0800);
	CHECK(vsw_frame_parse(fr, 0, &f) == VSW_FRAME_RUNT);
	CHECK(vsw_frame_parse(fr, 13, &f) == VSW_FRAME_RUNT);
	mk(B, A, 0x8100);
	CHECK(vsw_frame_parse(fr, 17, &f) == VSW_FRAME_RUNT);
	CHECK(vsw_frame_parse(fr, 18, &f) == VSW_FRAME_UNICAST);
}

static void test_src_multicast(void)
{
	struct vsw_frame f;

	mk(B, BC, 0x0800);
	CHECK(vsw_frame_parse(fr, 60, &f) == VSW_FRAME_SRC_MULTICAST);
	mk(B, MC, 0x0800);
	CHECK(vsw_frame_parse(fr, 60, &f) == VSW_FRAME_SRC_MULTICAST);
}

static void test_vlan_key(void)
{
	struct vsw_frame f;

	mk(B, A, 0x8100);
	fr[14] = 0x20 | 0x01; /* PCP 1, VID 0x123 */
	fr[15] = 0x23;
	CHECK(vsw_frame_parse(fr, 64, &f) == VSW_FRAME_UNICAST);
	CHECK(f.vlan == 0x123);
	CHECK(f.dst_key == vsw_fdb_key((const uint8_t *)B, 0x123));
	CHECK(f.dst_key != vsw_fdb_key((const uint8_t *)B, 0));
}

int main(void)
{
	RUN(test_unicast);
	RUN(test_broadcast_multicast);
	RUN(test_runts);
	RUN(test_src_multicast);
	RUN(test_vlan_key);
	return TEST_EXIT();
}
