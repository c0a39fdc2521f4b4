#!/bin/bash
# Objective: a worker cannot hide a stall (issue 21, item 7). /vsw/workers
# and `vswctl workers` give each worker's longest iteration and its
# iterations by length since the last stats-clear. Stalls made with the
# test hook VSW_TEST_QS_DELAY_US (every iteration sleeps twice, D us each)
# show as a longest iteration of at least 2 D, every iteration in a bucket
# at or above it, and as a Prometheus histogram that promtool accepts; a
# stall of the whole process (SIGSTOP, 350 ms) shows in the right bucket
# and goes after a stats-clear, which also empties the histogram; the
# sleeps of the adaptive poll mode (200 ms each) are not counted as stalls.
. "$(dirname "$0")/lib.sh"

# wk [JQ]: worker 0's member JQ (default the whole object)
wk() { jctl workers | jq -r ".worker0${1:-}"; }
# bucket_of US: the key of the bucket holding an iteration of US us
bucket_of() {
	local us=$1 lo=1 hi=2
	[ "$us" -ge 1 ] || { echo iter_us_0_1; return; }
	while [ "$us" -ge "$hi" ]; do lo=$hi; hi=$((hi * 2)); done
	[ "$lo" -lt 1048576 ] && echo "iter_us_${lo}_${hi}" || echo iter_us_1048576_inf
}
# counted_below US: in worker JSON on stdin, the iterations in buckets
# that end at or below US us
counted_below() {
	jq --argjson us "$1" '[to_entries[] | select(.key | test("^iter_us_[0-9]+_[0-9]+$"))
		| select((.key | split("_")[3] | tonumber) <= $us) | .value] | add // 0'
}
# bucket_sum: in worker JSON on stdin, the buckets' counts added up
bucket_sum() { jq '[to_entries[] | select(.key | startswith("iter_us_")) | .value] | add // 0'; }

D=3000
note "the test hook: every iteration sleeps twice $D us"
VSW_TEST_QS_DELAY_US=$D start_vsw "$(vhost_config a b)"
wait_for 30 "50 iterations" ctl_holds '.worker0.iter_count >= 50' workers
j=$(wk)
echo "$j" | jq -c '{iterations, iter_count, iter_total_us, iter_max_us, iter_max_cycles}'
max=$(echo "$j" | jq .iter_max_us)
[ "$max" -ge $((2 * D)) ] || fail "longest iteration $max us, expected >= $((2 * D)) us (two sleeps of $D)"
hz=$(jctl workers | jq .tsc_hz)
cyc=$(echo "$j" | jq .iter_max_cycles)
[ "$((cyc * 1000000 / hz))" -eq "$max" ] || fail "iter_max_cycles $cyc at $hz Hz is not $max us"
b=$(bucket_of "$max")
[ "$(echo "$j" | jq ".$b // 0")" -ge 1 ] || fail "the longest iteration's bucket $b is empty: $j"
[ "$(echo "$j" | counted_below 4096)" -eq 0 ] || fail "iterations under 4096 us although each slept $((2 * D)) us: $j"
[ "$(echo "$j" | bucket_sum)" -eq "$(echo "$j" | jq .iter_count)" ] || fail "buckets do not add up to iter_count: $j"
tot=$(echo "$j" | jq .iter_total_us)
[ "$tot" -ge $(( $(echo "$j" | jq .iter_count) * 2 * D )) ] || fail "iter_total_us $tot under iter_count * $((2 * D))"

note "vswctl workers prints it"
ctl workers >"$T/workers"
cat "$T/workers"
grep -Eq '^worker 0: longest [0-9.]+ms \([0-9]+ cycles\) of [0-9]+:.* 4\.1-8\.19ms [0-9]+' "$T/workers" ||
	fail "workers: no line with the longest iteration and the 4.1-8.19ms bucket"

note "metrics: vsw_worker_iteration_seconds is a histogram"
ctl metrics >"$T/metrics" || fail "metrics failed"
grep '^vsw_worker_iteration_seconds' "$T/metrics" | head -30
grep -q '^# TYPE vsw_worker_iteration_seconds histogram$' "$T/metrics" || fail "no histogram TYPE line"
lab='worker="0",lcore="1"'
inf=$(grep "^vsw_worker_iteration_seconds_bucket{$lab,le=\"+Inf\"} " "$T/metrics" | cut -d' ' -f2)
cnt=$(grep "^vsw_worker_iteration_seconds_count{$lab} " "$T/metrics" | cut -d' ' -f2)
low=$(grep "^vsw_worker_iteration_seconds_bucket{$lab,le=\"0.004096\"} " "$T/metrics" | cut -d' ' -f2)
[ -n "$inf" ] && [ "$inf" = "$cnt" ] && [ "$inf" -ge 50 ] || fail "+Inf bucket '$inf', _count '$cnt'"
[ "$low" = 0 ] || fail "le=0.004096 holds '$low' iterations, expected 0"
grep -q "^vsw_worker_iteration_seconds_sum{$lab} [0-9]*\.[0-9]\{6\}$" "$T/metrics" || fail "no _sum in seconds"
if [ -x /usr/bin/promtool ]; then
	/usr/bin/promtool check metrics <"$T/metrics" >"$T/promtool" 2>&1 ||
		fail "promtool: $(cat "$T/promtool")"
else
	note "promtool not installed: the format is not checked by it"
fi

note "stats-clear empties the histogram"
before=$(wk .iter_count)
ctl stats-clear >/dev/null || fail "stats-clear failed"
after=$(wk .iter_count)
[ "$after" -lt "$before" ] || fail "iter_count $after after the clear, $before before"
stop_vsw

note "no hook: SIGSTOP stalls the whole process 350 ms"
start_vsw "$(vhost_config a b)"
wait_for 30 "iterations" ctl_holds '.worker0.iter_count >= 1000' workers
ctl stats-clear >/dev/null || fail "stats-clear failed"
calm=$(wk .iter_max_us)
note "longest iteration without a stall: $calm us"
kill -STOP "$VSW_PID"
sleep 0.35
kill -CONT "$VSW_PID"
wait_for 30 "the stall in iter_max_us" ctl_holds '.worker0.iter_max_us >= 300000' workers
j=$(wk)
echo "$j" | jq -c '{iter_count, iter_max_us, iter_max_cycles}'
max=$(echo "$j" | jq .iter_max_us)
b=$(bucket_of "$max")
[ "$(echo "$j" | jq ".$b // 0")" -ge 1 ] || fail "the stall's bucket $b is empty: $j"
[ "$b" = iter_us_262144_524288 ] || [ "$b" = iter_us_524288_1048576 ] ||
	fail "a 350 ms stall in bucket $b"
ctl workers | grep -Eq '^worker 0: longest [0-9.]+ms .*(262-524ms|524ms-1.05s) 1' ||
	fail "workers: the stall not shown: $(ctl workers)"

note "stats-clear: the longest iteration drops back"
ctl stats-clear >/dev/null || fail "stats-clear failed"
wait_for 30 "iterations after the clear" ctl_holds '.worker0.iter_count >= 1000' workers
j=$(wk)
echo "$j" | jq -c '{iter_count, iter_max_us}'
[ "$(echo "$j" | jq .iter_max_us)" -lt 150000 ] || fail "longest iteration after the clear: $(echo "$j" | jq .iter_max_us) us"
[ "$(echo "$j" | jq ".iter_us_262144_524288 // 0")" -eq 0 ] || fail "the stall's bucket survived the clear"

note "adaptive: sleeps of 200 ms are not iterations"
ctl set poll-mode adaptive >/dev/null && ctl set idle-threshold-us 100 >/dev/null &&
	ctl set max-sleep-us 200000 >/dev/null || fail "set failed"
ctl stats-clear >/dev/null || fail "stats-clear failed"
s0=$(wk .sleeps)
wait_for 30 "five sleeps" ctl_holds ".worker0.sleeps >= $((s0 + 5))" workers
j=$(wk)
echo "$j" | jq -c '{sleeps, sleep_us, iter_count, iter_max_us}'
[ "$(echo "$j" | jq .iter_count)" -ge 5 ] || fail "no iterations between the sleeps"
[ "$(echo "$j" | jq .iter_max_us)" -lt 100000 ] || fail "an adaptive sleep counted as an iteration: $j"
stop_vsw
echo "PASS: stalls show in the longest iteration and its bucket, a clear removes them, sleeps are not stalls"
