/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * OVS's port model on vsw's keys: one rule for the two ways OVS tools
 * reach vsw, vsw-vsctl (ovs-vsctl's command line over telemetry) and the
 * OVSDB client in vsw (switch/ovsdb/).  Plain C, no DPDK: vsw-vsctl
 * compiles it too.
 *
 *   names  vsw port names are [A-Za-z0-9_], at most 31 characters; OVS
 *          names are not (os-vif's "vhu" + 11 characters of a UUID hold a
 *          '-', the userspace CNI's "<container id>-<ifname>" too): vsw's
 *          name is the OVS name with every other character turned into
 *          '_', and the OVS name is kept in the port's external-ids as
 *          ovs-name=NAME when the two differ.
 *   VLANs  Port tag, trunks and vlan_mode as vsw's vlan-mode, tag and
 *          trunks, with Neutron's dead VLAN 4095 (carries nothing).
 */
#ifndef VSW_OVS_MAP_H
#define VSW_OVS_MAP_H

#include <stdbool.h>
#include <stddef.h>

/* characters of an OVS port name vsw takes: none that splits a "k=v,..."
 * list or an external-ids "k=v k=v" string */
#define VSW_OVS_NAME_CHARS                                                     \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:@+-"
#define VSW_OVS_NAME_KEY "ovs-name" /* external-ids key: the OVS name */

/* An OVS Port's VLAN columns. */
struct vsw_ovs_vlan {
	char mode[20];	  /* vlan_mode; "" = not set */
	long tag;	  /* -1 = none */
	char trunks[128]; /* "10,20"; "" = none (all) */
};

/*
 * vsw's name for OVS name @ovs into @out (@len bytes); 0, or -1 with a
 * message in @err.
 */
int vsw_ovs_port_name(const char *ovs, char *out, size_t len, char *err,
		      size_t errlen);

/*
 * vsw's VLAN keys for @v: "vlan-mode=..,tag=..,trunks=.." into @buf; 0,
 * or -1 with a message in @err (a vlan_mode vsw lacks, an access or
 * native port without a tag).
 */
int vsw_ovs_vlan_keys(const struct vsw_ovs_vlan *v, char *buf, size_t len,
		      char *err, size_t errlen);

/* Where an OVSDB server listens (the [switch] key ovsdb). */
struct vsw_ovsdb_remote {
	bool is_unix;
	char path[108];	   /* unix: the socket (sun_path) */
	char host[48];	   /* tcp: an IPv4 or IPv6 address, as written */
	unsigned int port; /* tcp: 1..65535 */
};

/*
 * Parse "unix:/absolute/path", "tcp:IPv4:PORT" or "tcp:[IPv6]:PORT" into
 * @r; 0, or -1 when @s is none of them.
 */
int vsw_ovsdb_remote_parse(const char *s, struct vsw_ovsdb_remote *r);

#endif /* VSW_OVS_MAP_H */
