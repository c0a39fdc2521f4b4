/* SPDX-License-Identifier: BSD-3-Clause */
/* The names of a vxlan port's drop reasons (the checks: vxlan_hdr.h). */
#include "vxlan_hdr.h"

const char *const vsw_vx_drop_names[VSW_VX_DROP_MAX] = {
	"not_ipv4",	"not_vxlan",   "bad_ip",       "bad_udp",  "bad_vxlan",
	"unknown_vtep", "unknown_vni", "inner_tagged", "arp_full", "no_vni",
	"no_vtep",	"unresolved",  "no_mbuf",      "tx_full",
};
