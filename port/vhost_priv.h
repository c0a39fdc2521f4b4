/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by vhost.c and vhost_guard.c. */
#ifndef VSW_VHOST_PRIV_H
#define VSW_VHOST_PRIV_H

#include <stddef.h>

#include <rte_vhost.h>

struct vsw_port;
struct vsw_call_relay;

/* The port of @vid's socket (vhost thread; takes only the map lock). */
struct vsw_port *vsw_vhost_port_of(int vid);

/* Put the message firewall in front of connection @vid. 0 or -errno. */
int vsw_vhost_guard_attach(int vid);
enum rte_vhost_msg_result vsw_vhost_guard(int vid, void *msg);

/* A port's interrupt relay thread (see vhost_guard.c). */
struct vsw_call_relay *vsw_call_relay_create(const char *port, char *err,
					     size_t errlen);
void vsw_call_relay_reset(struct vsw_call_relay *r);
void vsw_call_relay_destroy(struct vsw_call_relay *r);

#endif
