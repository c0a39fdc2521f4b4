/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * OVS port names and VLAN columns as vsw keys (ovs_map.h): the rule that
 * vsw-vsctl and the OVSDB client share.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ovs_map.h"
#include "vsw_config.h"

int vsw_ovs_port_name(const char *ovs, char *out, size_t len, char *err,
		      size_t errlen)
{
	size_t n = strlen(ovs);

	if (n == 0 || n >= len || n > VSW_PORT_NAME_MAX - 1) {
		snprintf(err, errlen,
			 "port name \"%s\": vsw takes 1..%d characters", ovs,
			 VSW_PORT_NAME_MAX - 1);
		return -1;
	}
	/* the name goes into a "NAME,path=DIR/NAME,..." list and into
	 * external-ids: a ',', '=' or space would add keys there */
	if (strspn(ovs, VSW_OVS_NAME_CHARS) != n) {
		snprintf(err, errlen,
			 "port name \"%s\": vsw takes only [A-Za-z0-9_.:@+-]",
			 ovs);
		return -1;
	}
	for (size_t i = 0; i <= n; i++)
		out[i] = (char)(ovs[i] == '\0' || isalnum((unsigned char)ovs[i])
					? ovs[i]
					: '_');
	return 0;
}

/* trunks without VLAN 4095 (the dead VLAN carries nothing) into @out. */
static bool drop_dead(const char *trunks, char *out, size_t len)
{
	bool dead = false;
	size_t off = 0;

	out[0] = '\0';
	for (const char *p = trunks; *p != '\0';) {
		size_t n = strcspn(p, ", ");

		if (n == 4 && strncmp(p, "4095", 4) == 0)
			dead = true;
		else if (n > 0 && off < len)
			off += (size_t)snprintf(out + off, len - off, "%s%.*s",
						off ? "," : "", (int)n, p);
		p += n;
		p += strspn(p, ", ");
	}
	return dead;
}

int vsw_ovs_vlan_keys(const struct vsw_ovs_vlan *v, char *buf, size_t len,
		      char *err, size_t errlen)
{
	char trunks[sizeof(v->trunks)];
	bool dead = drop_dead(v->trunks, trunks, sizeof(trunks));
	const char *mode = v->mode[0]	 ? v->mode
			   : v->tag >= 0 ? "access"
					 : "trunk";

	if (strcmp(mode, "trunk") == 0) {
		if (dead &&
		    trunks[0] == '\0') /* trunks=4095: carries nothing */
			snprintf(buf, len, "vlan-mode=access,tag=%d,trunks=all",
				 VSW_VLAN_DEAD);
		else
			snprintf(buf, len, "vlan-mode=trunk,tag=0,trunks=%s",
				 trunks[0] ? trunks : "all");
		return 0;
	}
	if (strcmp(mode, "access") != 0 && strcmp(mode, "native-tagged") != 0 &&
	    strcmp(mode, "native-untagged") != 0) {
		snprintf(err, errlen,
			 "unsupported: vlan_mode=%s (vsw takes "
			 "access, trunk, native-tagged, native-untagged)",
			 mode);
		return -1;
	}
	if (v->tag <= 0) {
		snprintf(err, errlen,
			 "vlan_mode=%s needs a tag (vsw: an access or native "
			 "port has a VLAN)",
			 mode);
		return -1;
	}
	/* a native port's trunks of only 4095 carry no tagged VLAN: "0"
	 * (a native port's trunks never carry VLAN 0), not "all" */
	snprintf(buf, len, "vlan-mode=%s,tag=%ld,trunks=%s", mode, v->tag,
		 strcmp(mode, "access") == 0 ? "all"
		 : trunks[0] != '\0'	     ? trunks
		 : dead			     ? "0"
					     : "all");
	return 0;
}

int vsw_ovsdb_remote_parse(const char *s, struct vsw_ovsdb_remote *r)
{
	unsigned char a[16];
	const char *colon;
	char *end;
	unsigned long port;
	size_t hl;

	memset(r, 0, sizeof(*r));
	if (strncmp(s, "unix:", 5) == 0) {
		s += 5;
		if (s[0] != '/' || strlen(s) >= sizeof(r->path))
			return -1;
		r->is_unix = true;
		snprintf(r->path, sizeof(r->path), "%s", s);
		return 0;
	}
	if (strncmp(s, "tcp:", 4) != 0)
		return -1;
	s += 4;
	if (s[0] == '[') { /* [IPv6]:PORT */
		const char *close = strchr(s, ']');

		if (close == NULL || close[1] != ':')
			return -1;
		hl = (size_t)(close - s - 1);
		s++;
		colon = close + 1;
	} else {
		colon = strrchr(s, ':');
		if (colon == NULL)
			return -1;
		hl = (size_t)(colon - s);
	}
	if (hl == 0 || hl >= sizeof(r->host))
		return -1;
	memcpy(r->host, s, hl);
	r->host[hl] = '\0';
	if (inet_pton(AF_INET, r->host, a) != 1 &&
	    (s[-1] != '[' || inet_pton(AF_INET6, r->host, a) != 1))
		return -1;
	if (!isdigit((unsigned char)colon[1]))
		return -1;
	port = strtoul(colon + 1, &end, 10);
	if (*end != '\0' || port == 0 || port > 65535)
		return -1;
	r->port = (unsigned int)port;
	return 0;
}
