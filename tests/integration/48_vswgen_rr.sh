#!/bin/bash
# Objective: vswgen's request/response mode (--rr N) against a reflector
# (--reflect) whose rx queue is interrupt driven (--rx-mode interrupt):
# transactions complete, latency percentiles are reported in order, vsw
# sends calls to the reflector's queue (it asked for interrupts, as a
# kernel guest does) and the reflector was woken by them. A window of 8
# requests in flight works too. SIGUSR1 ends the sleeping reflector's
# trial early, reported, exit 0 (vswgen's finish, which tests use). Functional only: no rate is asserted.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b)
start_vsw "$CFG"
q() { jctl raw "/vsw/queues,$1" | jq -r ".[].q0.$2"; }
q_at_least() { [ "$(q "$1" "$2")" -ge "$3" ]; }

# rr_round NAME WINDOW SECS: a reflector on b, a requester on a
rr_round() {
	local name=$1 w=$2 secs=$3 tx tmo p50 p90 p99 p999 max wk calls wants
	ctl raw /vsw/stats/clear >/dev/null
	start_guest "refl$w" "$(virtio "$RUN/b.sock")" -- --reflect \
		--rx-mode interrupt --announce 3 --duration $((secs + 4))
	wait_for 30 "b up" port_is b up
	start_guest "$name" "$(virtio "$RUN/a.sock")" -- --rr "$w" \
		--announce 3 --duration "$secs"
	# while it runs: vsw sees a guest that takes interrupts on b
	wait_for 30 "calls to b" q_at_least b calls 1
	wants=$(q b guest_wants)
	wait_guest "$name"
	# the reflector, asleep in epoll, ends its trial on SIGUSR1 (exit 0,
	# reported) instead of sleeping out its last 4 s
	finish_guest "refl$w"
	jq -e --argjson s "$secs" '.duration_s < $s + 3' "$T/refl$w.json" >/dev/null ||
		fail "rr $w: the reflector ran $(guest_val "refl$w" duration_s) s after SIGUSR1, not less than $((secs + 3))"
	tx=$(guest_val "$name" rr_transactions)
	tmo=$(guest_val "$name" rr_timeouts)
	read -r p50 p90 p99 p999 max < <(jq -r '.latency_ns |
		"\(.p50) \(.p90) \(.p99) \(.p999) \(.max)"' "$T/$name.json")
	wk=$(guest_val "refl$w" wakeups)
	calls=$(q b calls)
	note "rr $w: $tx transactions ($(guest_val "$name" rr_tps)/s)," \
		"$tmo timeouts; rtt ns p50 $p50 p90 $p90 p99 $p99 p99.9 $p999" \
		"max $max; reflector: $(guest_val "refl$w" reflected) reflected," \
		"$wk wakeups, cpu $(guest_val "refl$w" cpu_pct)%; vsw: $calls" \
		"calls to b (guest_wants $wants)"
	[ "$tx" -gt 100 ] || fail "rr $w: only $tx transactions"
	[ "$tmo" -le 20 ] || fail "rr $w: $tmo timeouts"
	[ "$p50" -gt 0 ] && [ "$p50" -le "$p90" ] && [ "$p90" -le "$p99" ] &&
		[ "$p99" -le "$p999" ] && [ "$p999" -le "$max" ] ||
		fail "rr $w: percentiles out of order: $p50 $p90 $p99 $p999 $max"
	[ "$(guest_val "refl$w" rx_mode)" = interrupt ] || fail "reflector not in interrupt mode"
	[ "$wk" -gt 0 ] || fail "rr $w: the reflector was never woken by an interrupt"
	[ "$calls" -gt 0 ] || fail "rr $w: vsw sent no call to the interrupt-driven reflector"
	[ "$wants" = interrupt ] || fail "rr $w: vsw says the reflector wants $wants, not interrupt"
}

rr_round rr1 1 3
rr_round rr8 8 1
stop_vsw
echo "PASS: request/response through vsw to an interrupt-driven reflector"
