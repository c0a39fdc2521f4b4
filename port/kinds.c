/* SPDX-License-Identifier: BSD-3-Clause */
/* The kinds of port vsw has: one line each (see port.h, adding a kind). */
#include <stddef.h>

#include "port_priv.h"

extern const struct vsw_port_kind vsw_vhost_port_kind;	/* vhost.c */
extern const struct vsw_port_kind vsw_ethdev_port_kind; /* ethdev.c */
extern const struct vsw_port_kind vsw_vxlan_port_kind;	/* vxlan.c */

const struct vsw_port_kind *const vsw_port_kinds[] = {
	&vsw_vhost_port_kind,
	&vsw_ethdev_port_kind,
	&vsw_vxlan_port_kind,
	NULL,
};
