#!/bin/bash
# Objective: adaptive polling. An idle worker sleeps (it is asleep most of
# the time and its thread uses little CPU), wakes when a guest sends, and
# loses nothing: a burst that arrives while it sleeps and a steady flow
# are forwarded whole.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b)
sed -i 's/^\[switch\]/[switch]\npoll-mode = adaptive\nidle-threshold-us = 200\nmax-sleep-us = 1000/' "$CFG"
start_vsw "$CFG"
[ "$(info_val poll_mode)" = adaptive ] || fail "poll mode is not adaptive"
w() { jctl raw /vsw/workers | jq -r ".[].worker0.$1"; }
worker_tid() {
	for t in /proc/"$VSW_PID"/task/*; do
		[ "$(cat "$t/comm")" = rte-worker-1 ] && { echo "${t##*/}"; return; }
	done
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$VSW_PID/task/$1/stat"; }


tid=$(worker_tid)
[ -n "$tid" ] || fail "no worker thread"
s0=$(w sleep_us); c0=$(cpu_ticks "$tid"); t0=$(date +%s%N)
sleep 3
s1=$(w sleep_us); c1=$(cpu_ticks "$tid"); t1=$(date +%s%N)
el_us=$(( (t1 - t0) / 1000 ))
asleep=$(( (s1 - s0) * 100 / el_us ))
cpu=$(( (c1 - c0) * 1000000 / $(getconf CLK_TCK) * 100 / el_us ))
note "idle: asleep ${asleep}% of the time, worker thread CPU ${cpu}%"
[ "$asleep" -ge 80 ] || fail "idle worker asleep only ${asleep}%"
[ "$cpu" -le 10 ] || fail "idle worker used ${cpu}% CPU"

note "steady flow at 2000 pps"
run_v2v steady --poll-sleep-us 50 --rate 2000 --duration 4
jq -c '{tx_packets, rx_packets, lost, latency_ns}' "$T/steady.json"
[ "$(jq .lost "$T/steady.json")" -eq 0 ] || fail "steady flow lost frames"
[ "$(w wakeups_rx)" -gt 0 ] || fail "no wake-up by a guest kick"

note "a 512-frame burst into a sleeping worker"
sleep 1
run_v2v burst --poll-sleep-us 50 --count 512 --rate 0 --duration 2
jq -c '{tx_packets, rx_packets, lost}' "$T/burst.json"
[ "$(jq .tx_packets "$T/burst.json")" -eq 512 ] || fail "generator sent $(jq .tx_packets "$T/burst.json")"
[ "$(jq .lost "$T/burst.json")" -eq 0 ] || fail "burst lost frames"
[ "$(jctl port b | jq '.drops - .drop_no_port')" -eq 0 ] || fail "drops on b: $(jctl port b)"

ctl raw /vsw/set,poll-mode,busy >/dev/null || fail "set poll-mode busy"
sleep 1
s2=$(w sleeps); sleep 1
[ "$(w sleeps)" -eq "$s2" ] || fail "busy mode still sleeps"
stop_vsw
echo "PASS: adaptive mode sleeps when idle and loses nothing"
