#!/bin/bash
# Objective: a guest that blocks its interrupt relay cannot stall control.
# vsw hands librte_vhost an eventfd of its own for each guest call fd and
# a relay thread per port copies each interrupt to the guest's fd
# (port/vhost_guard.c). A hostile guest makes that write block (a full
# pipe whose O_NONBLOCK it cleared: vhost_hostile's call_pipe_held, held
# HOLD s). While the relay of port c is blocked there:
#  1. `vswctl port-del c` returns within 5 s and vsw answers telemetry
#     (before the fix the delete joined the relay thread with ctl_lock
#     held and every command hung until the guest let go);
#  2. c is added back, the guest blocks its relay again, and SIGTERM stops
#     vsw within 10 s, exit 0.
. "$(dirname "$0")/lib.sh"

HOSTILE=${VSW_HOSTILE:-$VSW_BIN/vhost_hostile}
[ -x "$HOSTILE" ] || skip "vhost_hostile is not built ($HOSTILE)"
HOLD=20

# relay_blocked PORT: vsw's relay thread of PORT sleeps in a pipe write
relay_blocked() {
	local t
	for t in /proc/"$VSW_PID"/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = "vsw-irq-$1" ] || continue
		case $(cat "$t/wchan" 2>/dev/null) in *pipe_write*) return 0 ;; esac
	done
	return 1
}
# attack: the hostile guest on c, its relay blocked for HOLD s
attack() {
	bg "$T/hostile$1.out" "$T/hostile$1.log" \
		"$HOSTILE" --timeout 5000 --hold $((HOLD * 1000)) --probe "$RUN/a.sock" \
		"$RUN/c.sock" call_pipe_held
	HPID=$BG_PID
	wait_for 30 "c's relay blocked in the guest's pipe" relay_blocked c
}

CFG=$(vhost_config a c)
start_vsw "$CFG"
cat /proc/self/wchan >/dev/null 2>&1 || skip "no /proc/PID/wchan here"

note "1. port-del c while the guest blocks c's relay"
attack 1
t0=$(date +%s%N)
timeout 15 "$VSWCTL" --file-prefix "$PREFIX" port-del c >"$T/del.out" 2>&1 ||
	fail "port-del c did not return within 15 s (or failed): $(cat "$T/del.out")"
ms=$((($(date +%s%N) - t0) / 1000000))
note "port-del c returned in $ms ms"
[ "$ms" -lt 5000 ] || fail "port-del c took $ms ms with c's relay blocked"
timeout 5 "$VSWCTL" --file-prefix "$PREFIX" info >/dev/null || fail "vsw does not answer after port-del"
stop_pid "$HPID"

note "2. SIGTERM while the guest blocks c's relay"
ctl port-add c type=vhost-user "path=$RUN/c.sock" >/dev/null || fail "port-add c"
attack 2
t0=$(date +%s%N)
rc=0
vsw_stop TERM 10 || rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
note "vsw exited $rc in $ms ms"
[ "$rc" -eq 0 ] && [ "$ms" -lt 10000 ] || fail "vsw did not stop cleanly within 10 s (exit $rc, $ms ms)"
stop_pid "$HPID"
echo "PASS: a guest blocking its interrupt relay stalls neither port-del nor shutdown"
