/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch's log (type "vsw", lines "vsw: ..."): every layer of switch/
 * logs through VSW_LOG; the port layer has its own ("vsw.port",
 * port/port_priv.h).  Nothing logs per packet.
 */
#ifndef VSW_LOG_H
#define VSW_LOG_H

#include <rte_log.h>

extern int vsw_logtype;
#define VSW_LOG(level, fmt, ...)                                               \
	rte_log(RTE_LOG_##level, vsw_logtype, "vsw: " fmt "\n", ##__VA_ARGS__)

#endif /* VSW_LOG_H */
