/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Readiness and status for the service manager (systemd's sd_notify
 * protocol, Type=notify). Built on libsystemd when vsw is configured with
 * it (VSW_SYSTEMD); otherwise every call does nothing.
 */
#ifndef VSW_NOTIFY_H
#define VSW_NOTIFY_H

/*
 * Send "KEY=VALUE" lines (printf format) to the service manager, when
 * $NOTIFY_SOCKET names one; nothing otherwise. Called from the main
 * thread only: at start-up (STATUS), once the ports exist and the workers
 * run (READY=1), and when stopping (STOPPING=1). A failure is logged and
 * otherwise ignored: vsw forwards whether or not anybody listens.
 */
void vsw_notify(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
