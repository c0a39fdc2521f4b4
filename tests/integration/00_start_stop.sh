#!/bin/bash
# Objective: vsw starts on its embedded default (vm0 and vm1 vhost-user
# servers in the run dir, one worker), answers vswctl and the stock
# dpdk-telemetry.py, and on SIGTERM and SIGINT exits 0 and removes its
# sockets.
. "$(dirname "$0")/lib.sh"

for sig in TERM INT; do
	# shellcheck disable=SC2046
	"$VSW" -l 0,1 --file-prefix "$PREFIX" $(mem_args 512) -- --run-dir "$RUN" >"$T/vsw.log" 2>&1 &
	VSW_PID=$!; PIDS+=("$VSW_PID")
	wait_for 60 "vsw telemetry" ctl info
	[ -S "$RUN/vm0.sock" ] && [ -S "$RUN/vm1.sock" ] || fail "default sockets missing"
	[ "$(info_val config)" = "<default>" ] || fail "config is not the default"
	[ "$(info_val workers)" -eq 1 ] || fail "workers != 1"
	[ "$(jctl ports | jq -r '.ports | keys | join(",")')" = "vm0,vm1" ] || fail "ports: $(jctl ports)"
	if command -v dpdk-telemetry.py >/dev/null; then
		echo /vsw/port,vm0 | dpdk-telemetry.py -f "$PREFIX" 2>&1 | grep -q '"name": "vm0"' ||
			fail "dpdk-telemetry.py cannot read /vsw/port,vm0"
	fi
	kill -"$sig" "$VSW_PID"
	rc=0; wait "$VSW_PID" || rc=$?
	[ "$rc" -eq 0 ] || fail "exit $rc on SIG$sig"
	[ ! -e "$RUN/vm0.sock" ] && [ ! -e "$RUN/vm1.sock" ] || fail "sockets left after SIG$sig"
	note "SIG$sig: exit 0, sockets removed"
	mkdir -p "$RUN"
done
echo "PASS: start on the default, stop cleanly"
