#!/bin/bash
# Objective: vswgen's request/response mode (--rr N) against a reflector
# (--reflect) whose rx queue is interrupt driven (--rx-mode interrupt):
# transactions complete, latency percentiles are reported in order, vsw
# sends calls to the reflector's queue (it asked for interrupts, as a
# kernel guest does) and the reflector was woken by them. A window of 8
# requests in flight works too. SIGUSR1 ends the sleeping reflector's
# trial early, reported, exit 0 (vswgen's finish, which tests use).
# tx-flush-adaptive: with tx-flush-interval-us 2000 (set live) the one
# request or answer in flight gathers nothing while it waits, so both
# ports flush early (tx_flushes_early, most of their flushes); set off
# live, none does and
# each port flushes at most once per interval (its flushes against the
# trial's length). Functional only: no rate is asserted.
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

# early flushes (tx-flush-adaptive, on by default) with a 2 ms interval
ctl set tx-flush-interval-us 2000 >/dev/null || fail "set tx-flush-interval-us"
[ "$(info_val tx_flush_adaptive)" = on ] || fail "tx_flush_adaptive $(info_val tx_flush_adaptive), expected on by default"
rr_round rr1i 1 3
for p in a b; do
	f=$(port_ctr $p tx_flushes)
	e=$(port_ctr $p tx_flushes_early)
	note "interval 2000 us, adaptive on: $p $e of $f flushes early"
	[ "$e" -gt 0 ] && [ $((e * 2)) -ge "$f" ] ||
		fail "adaptive on: only $e of $p's $f flushes early (one frame in flight: waiting gathers nothing)"
done
ctl set tx-flush-adaptive off >/dev/null || fail "set tx-flush-adaptive off"
[ "$(info_val tx_flush_adaptive)" = off ] || fail "tx_flush_adaptive $(info_val tx_flush_adaptive) after set off"
t0=$(date +%s%N)
rr_round rr1o 1 2
ms=$((($(date +%s%N) - t0) / 1000000))
for p in a b; do
	f=$(port_ctr $p tx_flushes)
	e=$(port_ctr $p tx_flushes_early)
	note "interval 2000 us, adaptive off: $p $f flushes in $ms ms, $e early"
	[ "$e" -eq 0 ] || fail "adaptive off: $p flushed early $e times"
	[ $((f * 2)) -le "$ms" ] || fail "adaptive off: $p flushed $f times in $ms ms (at most one partial flush per 2 ms)"
done
stop_vsw
echo "PASS: request/response through vsw to an interrupt-driven reflector"
