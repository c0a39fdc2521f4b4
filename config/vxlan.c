/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A vxlan port's own keys, parsed: local-ip, gateway, remote-ips, vni,
 * vnis.  Plain C (no DPDK): the config's checks and the port kind
 * (port/vxlan.c) both read them through vsw_config_vxlan.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsw_config.h"

/* One dotted IPv4 address of @len characters; false if it is not one. */
static bool ip4(const char *s, size_t len, uint32_t *out)
{
	char buf[INET_ADDRSTRLEN];
	struct in_addr a;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (inet_pton(AF_INET, buf, &a) != 1)
		return false;
	*out = ntohl(a.s_addr);
	return true;
}

/* A number of 1..10 digits in min..max. */
static bool num(const char *s, size_t len, unsigned long min, unsigned long max,
		unsigned long *out)
{
	char buf[12], *end;

	if (len == 0 || len > 10 || s[0] < '0' || s[0] > '9')
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*out = strtoul(buf, &end, 10);
	return *end == '\0' && *out >= min && *out <= max;
}

/* An address a VTEP may have: not 0/8, multicast, class E or broadcast. */
static bool unicast4(uint32_t a)
{
	return (a >> 24) != 0 && (a >> 24) != 127 && (a >> 28) < 14;
}

static int bad(const char **key, const char *k, char *what, size_t wlen,
	       const char *msg)
{
	*key = k;
	snprintf(what, wlen, "%s", msg);
	return -EINVAL;
}

static int parse_remotes(const struct vsw_port_conf *pc,
			 struct vsw_vxlan_conf *o, const char **key, char *what,
			 size_t wlen)
{
	const char *s = pc->remote_ips;

	while (*s != '\0') {
		size_t len = strcspn(s, " ");
		uint32_t a;

		if (len == 0) {
			s++;
			continue;
		}
		if (!ip4(s, len, &a) || !unicast4(a) || a == o->local_ip)
			return bad(key, "remote-ips", what, wlen,
				   "unicast IPv4 addresses separated by "
				   "spaces, none of them local-ip");
		for (unsigned int i = 0; i < o->n_remotes; i++)
			if (o->remotes[i] == a)
				return bad(key, "remote-ips", what, wlen,
					   "each address once");
		if (o->n_remotes == VSW_VXLAN_VTEPS_MAX)
			return bad(key, "remote-ips", what, wlen,
				   "at most 64 addresses");
		o->remotes[o->n_remotes++] = a;
		s += len;
	}
	return 0;
}

static int add_vni(struct vsw_vxlan_conf *o, uint16_t vlan, uint32_t vni,
		   const char *k, const char **key, char *what, size_t wlen)
{
	for (unsigned int i = 0; i < o->n_vnis; i++) {
		if (o->map[i].vni == vni)
			return bad(key, k, what, wlen,
				   "each VNI once (in vni and vnis)");
		if (o->map[i].vlan == vlan)
			return bad(key, k, what, wlen, "each VLAN once");
	}
	if (o->n_vnis == VSW_VXLAN_VNIS_MAX)
		return bad(key, k, what, wlen, "at most 64 VNIs");
	o->map[o->n_vnis].vlan = vlan;
	o->map[o->n_vnis++].vni = vni;
	return 0;
}

static int parse_vnis(const struct vsw_port_conf *pc, struct vsw_vxlan_conf *o,
		      const char **key, char *what, size_t wlen)
{
	const char *s = pc->vnis;

	while (*s != '\0') {
		size_t len = strcspn(s, " ");
		const char *colon = memchr(s, ':', len);
		unsigned long vlan, vni;
		int rc;

		if (len == 0) {
			s++;
			continue;
		}
		if (colon == NULL ||
		    !num(s, (size_t)(colon - s), 1, VSW_VLAN_MAX, &vlan) ||
		    !num(colon + 1, len - (size_t)(colon - s) - 1, 1,
			 VSW_VNI_MAX, &vni))
			return bad(key, "vnis", what, wlen,
				   "VLAN:VNI pairs separated by spaces, VLAN "
				   "1..4094, VNI 1..16777215");
		rc = add_vni(o, (uint16_t)vlan, (uint32_t)vni, "vnis", key,
			     what, wlen);
		if (rc < 0)
			return rc;
		s += len;
	}
	return 0;
}

int vsw_config_vxlan(const struct vsw_port_conf *pc, struct vsw_vxlan_conf *o,
		     const char **key, char *what, size_t wlen)
{
	const char *slash = strchr(pc->local_ip, '/');
	unsigned long plen;
	uint32_t mask;
	int rc;

	memset(o, 0, sizeof(*o));
	if (slash == NULL ||
	    !ip4(pc->local_ip, (size_t)(slash - pc->local_ip), &o->local_ip) ||
	    !unicast4(o->local_ip) ||
	    !num(slash + 1, strlen(slash + 1), 8, 32, &plen))
		return bad(key, "local-ip", what, wlen,
			   "a unicast IPv4 address with its prefix length "
			   "8..32, e.g. 10.0.0.1/24");
	o->plen = (uint8_t)plen;
	mask = plen == 32 ? UINT32_MAX : ~(UINT32_MAX >> plen);
	if (pc->gateway[0] != '\0' &&
	    (!ip4(pc->gateway, strlen(pc->gateway), &o->gateway) ||
	     !unicast4(o->gateway) || o->gateway == o->local_ip ||
	     (o->gateway & mask) != (o->local_ip & mask)))
		return bad(key, "gateway", what, wlen,
			   "a unicast IPv4 address in local-ip's subnet, not "
			   "local-ip itself");
	rc = parse_remotes(pc, o, key, what, wlen);
	if (rc == 0 && pc->vni != 0)
		rc = add_vni(o, VSW_NO_VLAN, pc->vni, "vni", key, what, wlen);
	if (rc == 0)
		rc = parse_vnis(pc, o, key, what, wlen);
	if (rc == 0 && o->n_vnis == 0)
		return bad(key, "vni", what, wlen,
			   "a VNI 1..16777215 in vni or vnis");
	if (rc == 0 && pc->evpn && o->n_remotes > 0)
		return bad(key, "remote-ips", what, wlen,
			   "none with evpn = on (the remote VTEPs come from "
			   "EVPN)");
	if (rc == 0 && pc->vni != 0 && pc->vnis[0] != '\0')
		return bad(key, "vnis", what, wlen,
			   "vni (untagged frames) or vnis (VLANs), not both");
	for (unsigned int i = 0; rc == 0 && i < o->n_remotes; i++)
		if ((o->remotes[i] & mask) != (o->local_ip & mask) &&
		    o->gateway == 0)
			return bad(key, "gateway", what, wlen,
				   "a gateway for remote-ips outside "
				   "local-ip's subnet");
	return rc;
}
