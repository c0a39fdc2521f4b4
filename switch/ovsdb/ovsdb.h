/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vsw as an OVSDB client (RFC 7047): with `[switch] ovsdb = unix:PATH` or
 * `tcp:IP:PORT`, vsw monitors ovsdb-server's Open_vSwitch database and
 * turns the Interface rows of its bridge into vsw ports, as ovs-vswitchd
 * does, and writes back what ovs-vswitchd writes (ofport, error, mtu,
 * link_state, admin_state, statistics, status; Open_vSwitch cur_cfg once
 * next_cfg is applied).  docs/integration.md says what maps to what.
 *
 * One thread of its own (a DPDK control thread, never on a worker's CPU)
 * talks to the server; it changes ports through control's operations
 * (control/ports.c) under ctl_lock, like a telemetry command, and never
 * touches a worker.  Losing the server changes nothing in the datapath:
 * the thread reconnects (1, 2, 4, 8 s apart) and resynchronises from a
 * fresh monitor.
 */
#ifndef VSW_OVSDB_H
#define VSW_OVSDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vsw_ctl;
struct vsw_ovsdb;

/*
 * Start the client of ctl->cfg.sw.ovsdb (must be set): 0 with *@out, or
 * -errno with a message in @err.  The connection itself is made by the
 * thread (an unreachable server is not an error here).
 */
int vsw_ovsdb_start(struct vsw_ctl *ctl, struct vsw_ovsdb **out, char *err,
		    size_t errlen);
/* Stop the thread and free @o (NULL: nothing).  Ports stay. */
void vsw_ovsdb_stop(struct vsw_ovsdb *o);

/* What `vswctl info` shows. */
struct vsw_ovsdb_status {
	bool connected, synced;
	char bridge[64];       /* the bridge served ("" = none yet) */
	uint64_t connects;     /* connections made */
	uint64_t syncs;	       /* reconciliations run */
	uint64_t cur_cfg;      /* last cur_cfg written */
	unsigned int n_ports;  /* vsw ports made from OVSDB rows */
	unsigned int n_errors; /* Interface rows reported in error */
	char last_error[256];  /* of the connection ("" = none) */
	char sock_dir[256];    /* where dpdkvhostuser sockets go */
	char settings[128];    /* [switch] keys laid over from other_config */
};
void vsw_ovsdb_get_status(struct vsw_ovsdb *o, struct vsw_ovsdb_status *s);

#endif /* VSW_OVSDB_H */
