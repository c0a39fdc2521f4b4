/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * OVS port names and VLAN columns as vsw keys (ovs_map.h): the rule that
 * vsw-vsctl and the OVSDB client share.
 */
#include <ctype.h>
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
