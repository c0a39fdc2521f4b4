/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Config values as text, and OVS's VLAN meanings: a port's vlan mode and
 * VLAN membership, its trunks, its allowed MACs and IPs; one MAC parser
 * and formatter for config/ and the telemetry API.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cfgfile.h>

#include "config_priv.h"

/* ---- VLANs (OVS's vlan_mode, tag, trunks) ---- */

enum vsw_vlan_mode vsw_config_vlan_mode(const struct vsw_port_conf *pc)
{
	if (pc->vlan_mode != VSW_VLAN_AUTO)
		return pc->vlan_mode;
	return pc->tag != 0 ? VSW_VLAN_ACCESS : VSW_VLAN_TRUNK;
}

static bool trunks_has(const struct vsw_port_conf *pc, unsigned int v)
{
	return !pc->trunks_set || (pc->trunks[v / 64] >> (v % 64) & 1);
}

/*
 * As OVS: an access port carries its tag; a trunk the trunks VLANs (0 =
 * its untagged frames); a native-* port its tag (its untagged frames)
 * and the trunks VLANs but 0.
 */
bool vsw_config_vlan_member(const struct vsw_port_conf *pc, unsigned int v)
{
	if (v > VSW_VLAN_MAX)
		return false;
	switch (vsw_config_vlan_mode(pc)) {
	case VSW_VLAN_ACCESS:
		return v == pc->tag;
	case VSW_VLAN_TRUNK:
		return trunks_has(pc, v);
	default:
		return v == pc->tag || (v != 0 && trunks_has(pc, v));
	}
}

void vsw_config_trunks_str(const struct vsw_port_conf *pc, char *buf,
			   size_t len)
{
	size_t off = 0;

	snprintf(buf, len, pc->trunks_set ? "" : "all");
	for (unsigned int v = 0; pc->trunks_set && v <= VSW_VLAN_MAX; v++) {
		unsigned int hi = v;

		if (!trunks_has(pc, v))
			continue;
		while (hi < VSW_VLAN_MAX && trunks_has(pc, hi + 1))
			hi++;
		if (off < len)
			off += (size_t)(hi > v ? snprintf(buf + off, len - off,
							  "%s%u-%u",
							  off ? "," : "", v, hi)
					       : snprintf(buf + off, len - off,
							  "%s%u",
							  off ? "," : "", v));
		v = hi;
	}
}

void vsw_config_allowed_str(const struct vsw_port_conf *pc, char *buf,
			    size_t len)
{
	size_t off = 0;

	snprintf(buf, len, "any");
	for (unsigned int i = 0; i < pc->n_allowed && off < len; i++) {
		const uint8_t *m = pc->allowed[i];

		char one[VSW_MAC_STR];

		vsw_config_mac_str(m, one);
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? " " : "", one);
	}
}

void vsw_config_ip_str(const struct vsw_ip_prefix *ip, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	if (inet_ntop(ip->family == 4 ? AF_INET : AF_INET6, ip->addr, a,
		      sizeof(a)) == NULL)
		snprintf(a, sizeof(a), "?");
	if (ip->plen == (ip->family == 4 ? 32 : 128))
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s/%u", a, ip->plen);
}

bool vsw_config_parse_mac(const char *s, size_t len, uint8_t mac[6])
{
	if (len != 17)
		return false;
	for (int i = 0; i < 6; i++) {
		const char *h = s + 3 * i;

		if (!isxdigit((unsigned char)h[0]) ||
		    !isxdigit((unsigned char)h[1]) || (i < 5 && h[2] != ':'))
			return false;
		mac[i] = (uint8_t)((isdigit((unsigned char)h[0])
					    ? h[0] - '0'
					    : (tolower((unsigned char)h[0]) -
					       'a' + 10))
					   << 4 |
				   (isdigit((unsigned char)h[1])
					    ? h[1] - '0'
					    : (tolower((unsigned char)h[1]) -
					       'a' + 10)));
	}
	return true;
}

void vsw_config_mac_str(const uint8_t m[6], char buf[VSW_MAC_STR])
{
	snprintf(buf, VSW_MAC_STR, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1],
		 m[2], m[3], m[4], m[5]);
}
