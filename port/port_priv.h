/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the port kinds: the log type. */
#ifndef VSW_PORT_PRIV_H
#define VSW_PORT_PRIV_H

#include <rte_log.h>

extern int vsw_port_logtype;
#define PORT_LOG(level, fmt, ...)                                              \
	rte_log(RTE_LOG_##level, vsw_port_logtype, "vsw.port: " fmt "\n",      \
		##__VA_ARGS__)

#endif
