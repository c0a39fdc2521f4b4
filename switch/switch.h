/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch as one object: the workers' runtime (datapath/worker.h) and
 * control's state (control/control.h), and its life cycle: create (mbuf
 * pool, RCU, FDB, workers, ports, the first table, the state file's
 * static MACs, the telemetry commands, metrics-listen's thread), run (the
 * workers, then the control loop until a signal), destroy.  main.c only loads the config, starts
 * EAL and handles signals.
 */
#ifndef VSW_SWITCH_H
#define VSW_SWITCH_H

#include "control/control.h"
#include "datapath/worker.h"
#include "metrics_http.h"

struct vsw_ovsdb;

struct vsw_switch {
	struct vsw_rt rt;
	struct vsw_ctl ctl;
	struct vsw_ovsdb
		*ovsdb; /* the OVSDB client ([switch] ovsdb), or NULL */
	struct vsw_metrics_http http; /* metrics-listen */
};

/* The one switch of the process (its config is loaded into ctl.cfg
 * before EAL starts). */
struct vsw_switch *vsw_switch_get(void);
/*
 * Everything up to the workers' launch, on EAL; @state_note is logged
 * once running.  0, or -errno with the error printed; then destroy.
 */
int vsw_switch_create(struct vsw_switch *sw, const char *state_note);
/* Launch the workers and run the control loop until vsw_switch_stop. */
void vsw_switch_run(struct vsw_switch *sw);
/* Ask the switch to stop (a signal handler may call it). */
void vsw_switch_stop(struct vsw_switch *sw);
/* Stop the workers, remove the ports, free what create made. */
void vsw_switch_destroy(struct vsw_switch *sw);

#endif /* VSW_SWITCH_H */
