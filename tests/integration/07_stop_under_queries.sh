#!/bin/bash
# Objective: SIGTERM while telemetry clients keep asking (review L1). vsw
# frees its FDB, mempool and tables at shutdown while telemetry threads
# still run; every command must refuse from then on instead of reading
# freed memory. Four clients hammer read commands (fdb-stats took no lock
# at all) while vsw stops; vsw must exit 0 with no sanitizer report, five
# times in a row.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b)
for round in 1 2 3 4 5; do
	start_vsw "$CFG"
	hammer() {
		while kill -0 "$VSW_PID" 2>/dev/null; do
			for v in fdb-stats info workers fdb ports "port a" "queues a"; do
				# shellcheck disable=SC2086
				"$VSWCTL" --file-prefix "$PREFIX" --timeout 2 $v >/dev/null 2>&1
			done
		done
	}
	hpids=()
	for _ in 1 2 3 4; do hammer & hpids+=($!); done
	sleep 0.5
	kill -TERM "$VSW_PID"
	for _ in $(seq 300); do kill -0 "$VSW_PID" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$VSW_PID" 2>/dev/null && fail "round $round: vsw still running 30 s after SIGTERM"
	rc=0
	wait "$VSW_PID" || rc=$?
	for h in "${hpids[@]}"; do wait "$h"; done
	[ "$rc" -eq 0 ] || fail "round $round: vsw exited with $rc while clients were asking"
	if grep -Eq 'AddressSanitizer|runtime error|Segmentation|PANIC' "$T/vsw.log"; then
		fail "round $round: vsw reported an error at shutdown"
	fi
	PIDS=()
	note "round $round: clean exit under queries"
done
echo "PASS: shutdown under telemetry load is clean"
