/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vsw under systemd: Type=notify readiness through libsystemd's
 * sd_notify. systemd starts units that depend on vsw (and libvirt guests
 * ordered after it) only once READY=1 arrives, so main.c sends it after
 * the ports exist and the workers forward, never earlier. Without
 * libsystemd at build time the calls compile to nothing: a vsw that
 * cannot tell systemd it is ready must run as Type=simple or exec.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "notify.h"
#include "common/log.h"

#ifdef VSW_SYSTEMD
#include <systemd/sd-daemon.h>

void vsw_notify(const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* 0: not under a service manager ($NOTIFY_SOCKET unset) */
	rc = sd_notify(0, msg);
	if (rc < 0)
		VSW_LOG(WARNING, "sd_notify to $NOTIFY_SOCKET failed: %s",
			strerror(-rc));
}
#else
void vsw_notify(const char *fmt, ...)
{
	(void)fmt;
}
#endif
