#!/bin/bash
# Objective: the datapath table's grace periods hold with a flush interval
# (review H2). Two workers share one CPU (so either can be preempted
# between its quiescent report and its next flush) and frames wait up to
# 1000 us in the tx buffers, while ports are added and deleted, rx queues
# move between the workers and settings change, in a loop, under an A->B
# flow. The live ports lose nothing: no port_down drop (a buffered frame
# flushed through a freed table finds no port), no loss, no reordering,
# no duplicate; mbufs come back. Run in the debug build too, where a
# freed table is poisoned and any late use crashes vsw.  Twice: busy
# polling, then adaptive, where the workers sleep between bursts (going
# offline and back, with a table that may have changed meanwhile).
. "$(dirname "$0")/lib.sh"

# run_mode MODE [VSWGEN_OPTS]: the whole trial in poll-mode MODE
run_mode() {
note "poll-mode $1"
rm -f "$RUN/vsw.state" # the last run's changes: not this one's config
CFG=$(vhost_config a b)
sed -i 's/^\[switch\]$/[switch]\ntx-flush-interval-us = 1000/' "$CFG"
[ "$1" = busy ] || sed -i 's/^\[switch\]$/[switch]\npoll-mode = adaptive\nidle-threshold-us = 100\nmax-sleep-us = 500/' "$CFG"
VSW_TEST_QS_DELAY_US=${VSW_TEST_QS_DELAY_US:-300} start_vsw_on '0@0,1@1,2@1' "$CFG"
[ "$(info_val workers)" -eq 2 ] || fail "expected 2 workers"
[ "$(info_val poll_mode)" = "$1" ] || fail "poll mode $(info_val poll_mode), expected $1"
[ "$(info_val tx_flush_interval_us)" -eq 1000 ] || fail "flush interval not set"
base=$(info_val mbufs_in_use)

start_v2v gen --rate 20000 --duration 18 "${@:2}"
wait_for 60 "a up" port_is a up
wait_for 30 "traffic" ctr_at_least b tx_packets 10000

owner() { jctl raw "/vsw/queues,$1" | jq -r '.[].q0.worker'; }
end=$(( $(date +%s) + 12 ))
i=0
while [ "$(date +%s)" -lt "$end" ]; do
	i=$((i + 1))
	ctl raw "/vsw/port/add,c$((i % 2)),type=vhost-user,path=$RUN/c$((i % 2)).sock" >/dev/null ||
		fail "port/add c$((i % 2)) failed"
	for p in a b; do
		ctl raw "/vsw/rxq/move,$p,0,$(( $(owner $p) ^ 1 ))" >/dev/null || fail "rxq/move $p failed"
	done
	ctl raw "/vsw/set,burst,$(( i % 2 ? 16 : 32 ))" >/dev/null || fail "set burst failed"
	ctl raw "/vsw/port/del,c$((i % 2))" >/dev/null || fail "port/del failed"
done
note "$1: $i rounds of port add/del, two queue moves and a set"
if [ "$1" = adaptive ]; then
	slept=$(jctl raw /vsw/workers | jq '[.[][] | objects | .sleeps // 0] | add')
	note "$1: the workers slept $slept times"
	[ "$slept" -gt 100 ] || fail "adaptive workers slept only $slept times: the sleep path was not exercised"
fi
wait "$GEN" || fail "vswgen failed: $(tail -5 "$T/gen.log")"
jq -c '{tx_packets, rx_packets, lost, reordered, duplicates}' "$T/gen.json"
[ "$i" -ge 10 ] || fail "only $i rounds"
[ "$(jq .tx_packets "$T/gen.json")" -gt 100000 ] || fail "too little traffic"
for p in a b; do
	j=$(jctl port $p)
	echo "$j" | jq -c '{name, drops, drop_port_down, drop_tx_full, drop_no_port}'
	[ "$(echo "$j" | jq .drop_port_down)" -eq 0 ] || fail "$p: port_down drops on a live port"
	[ "$(echo "$j" | jq '.drops - .drop_no_port')" -eq 0 ] || fail "$p: drops"
done
[ "$(jq .lost "$T/gen.json")" -eq 0 ] || fail "lost frames"
[ "$(jq .reordered "$T/gen.json")" -eq 0 ] || fail "reordered frames"
[ "$(jq .duplicates "$T/gen.json")" -eq 0 ] || fail "duplicated frames"
sleep 1
[ "$(info_val mbufs_in_use)" -eq "$base" ] || fail "mbufs in use $(info_val mbufs_in_use), $base before"
stop_vsw
}

run_mode busy
# adaptive (review gap of 702c808): workers also sleep offline between
# bursts (idle_sleep: armed queues, a table that changed while asleep,
# `last_dp = NULL` after going offline) while ports come and go
run_mode adaptive --poll-sleep-us 50
echo "PASS: table changes with a flush interval lose and reorder nothing, busy and adaptive"
