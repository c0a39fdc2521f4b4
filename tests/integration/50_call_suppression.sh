#!/bin/bash
# Objective: call-suppression (a [switch] key, set live). on (default):
# a polling virtio-PMD guest gets no calls. off (for measuring): vsw calls
# after every enqueue, asked or not, through the port's interrupt relay:
# /vsw/queues counts about one call per enqueue and the guest's call
# eventfds (read in /proc/PID/fdinfo of the generator, which polls and
# never reads them) really receive them. Back on: no calls again.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b)
start_vsw "$CFG"
q() { jctl raw "/vsw/queues,$1" | jq -r ".[].q0.$2"; }
# the sum of the counts waiting on every eventfd of process $1
eventfd_sum() {
	local f s=0 c
	for f in /proc/"$1"/fdinfo/*; do
		c=$(sed -n 's/^eventfd-count: *//p' "$f" 2>/dev/null)
		s=$((s + 16#${c:-0}))
	done
	echo "$s"
}
trial() { # MODE: one short v2v run at 20 kpps; sets CALLS ENQ EVFD
	ctl raw "/vsw/set,call-suppression,$1" >/dev/null || fail "set call-suppression $1"
	[ "$(info_val call_suppression)" = "$1" ] || fail "/vsw/info: call_suppression $(info_val call_suppression), expected $1"
	ctl raw /vsw/stats/clear >/dev/null
	start_v2v gen --rate 20000 --duration 4
	wait_for 30 "traffic" ctr_at_least b tx_packets 20000
	EVFD=$(eventfd_sum "$GEN")
	reap_pid "$GEN" || fail "generator: $(tail -3 "$T/gen.log")"
	CALLS=$(q b calls) ENQ=$(q b enqueues)
	note "call-suppression $1: $CALLS calls, $ENQ enqueues, $(q b enqueued) packets; guest call eventfds hold $EVFD"
	[ "$ENQ" -gt 1000 ] || fail "too little traffic ($ENQ enqueues)"
}

trial on
[ "$CALLS" -eq 0 ] || fail "on: $CALLS calls to a polling guest"
[ "$EVFD" -le 10 ] || fail "on: the guest's eventfds hold $EVFD"
trial off
[ $((CALLS * 10)) -ge $((ENQ * 9)) ] || fail "off: $CALLS calls for $ENQ enqueues, expected one each"
[ "$EVFD" -ge 100 ] || fail "off: the guest's call eventfds hold only $EVFD"
trial on
[ "$CALLS" -eq 0 ] || fail "back on: $CALLS calls"
stop_vsw
echo "PASS: call-suppression on: no calls; off: one per enqueue, delivered"
