#!/bin/bash
# Objective: vsw starts on its embedded default (vm0 and vm1 vhost-user
# servers in the run dir, one worker), answers vswctl and the stock
# dpdk-telemetry.py, and on SIGTERM and SIGINT exits 0 and removes its
# sockets.
. "$(dirname "$0")/lib.sh"

for sig in TERM INT; do
	start_vsw_eal -l 0,1 -- --run-dir "$RUN"
	[ -S "$RUN/vm0.sock" ] && [ -S "$RUN/vm1.sock" ] || fail "default sockets missing"
	[ "$(info_val config)" = "<default>" ] || fail "config is not the default"
	[ "$(info_val workers)" -eq 1 ] || fail "workers != 1"
	[ "$(jctl ports | jq -r '.ports | keys | join(",")')" = "vm0,vm1" ] || fail "ports: $(jctl ports)"
	if command -v dpdk-telemetry.py >/dev/null; then
		echo /vsw/port,vm0 | dpdk-telemetry.py -f "$PREFIX" 2>&1 | grep -q '"name": "vm0"' ||
			fail "dpdk-telemetry.py cannot read /vsw/port,vm0"
	fi
	stop_vsw "$sig"
	[ ! -e "$RUN/vm0.sock" ] && [ ! -e "$RUN/vm1.sock" ] || fail "sockets left after SIG$sig"
	note "SIG$sig: exit 0, sockets removed"
	mkdir -p "$RUN"
done
echo "PASS: start on the default, stop cleanly"
