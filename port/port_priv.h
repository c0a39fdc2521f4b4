/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the port layer's files, not by the switch: the kind
 * descriptor, the list of kinds (kinds.c) and what kinds share (util.c:
 * the log type, socket files).
 */
#ifndef VSW_PORT_PRIV_H
#define VSW_PORT_PRIV_H

#include <stddef.h>

#include <rte_common.h>
#include <rte_log.h>

#include "port.h"

extern int vsw_port_logtype;
#define PORT_LOG(level, fmt, ...)                                              \
	rte_log(RTE_LOG_##level, vsw_port_logtype, "vsw.port: " fmt "\n",      \
		##__VA_ARGS__)

/*
 * A kind of port.  port.c allocates `size` bytes (zeroed; the kind's
 * struct begins with struct vsw_port), fills the generic part from the
 * config and calls create, which sets up the rest, p->ops and p->n_rxq,
 * or returns -errno with a message in @err (port.c then frees it).
 */
struct vsw_port_kind {
	const char *name;	 /* the config's `type` string */
	enum vsw_port_type type; /* the config's enum value for it */
	size_t size;		 /* of the kind's port struct */
	/* once, before any port; may be NULL.  0 or -errno */
	int (*lib_init)(const struct vsw_port_env *env);
	int (*create)(struct vsw_port *p, const struct vsw_port_env *env,
		      char *err, size_t errlen);
	/* the [port] keys this kind accepts, NULL-terminated */
	const char *const *keys;
};

/* Every kind, NULL-terminated (kinds.c). */
extern const struct vsw_port_kind *const vsw_port_kinds[];

/* util.c: a leaf, calls no kind. */

/*
 * Give the server socket of port @pc its socket-owner, socket-group and
 * socket-mode (the port's, else the switch's in @env).  The library
 * binds it under umask 0077 (test 42_socket_perms), so the socket is private until
 * then.  0 or -errno with a message naming the port.
 */
int vsw_port_socket_perms(const struct vsw_port_conf *pc,
			  const struct vsw_port_env *env, char *err,
			  size_t errlen);
/* A leftover socket nobody listens on is removed; a live one is an error
 * (-EADDRINUSE), so is a file that is not a socket. */
int vsw_port_clear_stale_socket(const char *path, char *err, size_t errlen);
/* mkdir -p of @path's directory (mode 0755). 0 or -errno. */
int vsw_port_make_parent_dir(const char *path);

#endif
