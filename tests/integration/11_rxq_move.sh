#!/bin/bash
# Objective: changes under traffic on a switch with two workers. An rx
# queue moved between workers again and again, a rebalance, the flush
# interval changed live and the FDB flushed while forwarding: the flow
# loses nothing and is never reordered (vswgen checks sequence numbers).
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b)
# two workers (lcores 1 and 2), both on CPU 1; control on CPU 0
start_vsw_on '0@0,1@1,2@1' "$CFG"
[ "$(info_val workers)" -eq 2 ] || fail "expected 2 workers"

start_v2v gen --rate 20000 --duration 16
wait_for 60 "a up" port_is a up
wait_for 30 "traffic" ctr_at_least b tx_packets 10000

owner() { jctl raw /vsw/queues,a | jq -r '.[].q0.worker'; }
for i in $(seq 10); do
	o=$(owner)
	[[ "$o" =~ ^[01]$ ]] || fail "a q0 owner is '$o'"
	w=$(( o ^ 1 ))
	ctl raw "/vsw/rxq/move,a,0,$w" >/dev/null || fail "rxq/move failed"
	[ "$(owner)" -eq "$w" ] || fail "a q0 is on worker $(owner), not $w"
	sleep 0.3
done
note "moved a/q0 10 times; now on worker $(owner)"
ctl raw /vsw/rxq/rebalance >/dev/null || fail "rebalance failed"
for v in 50 200 0; do
	ctl raw "/vsw/set,tx-flush-interval-us,$v" >/dev/null || fail "set failed"
	[ "$(info_val tx_flush_interval_us)" -eq "$v" ] || fail "interval not $v"
	sleep 0.5
done
n=$(ctl --json raw /vsw/fdb/flush | jq -r '."/vsw/fdb/flush".flushed')
note "fdb flush removed $n entries while forwarding"
[ "$n" -ge 1 ] || fail "fdb flush removed nothing"
sleep 1
wait "$GEN" || fail "vswgen failed: $(cat "$T/gen.log" | tail -5)"
jq -c '{tx_packets, rx_packets, lost, reordered, duplicates}' "$T/gen.json"
[ "$(jq .lost "$T/gen.json")" -eq 0 ] || fail "lost frames"
[ "$(jq .reordered "$T/gen.json")" -eq 0 ] || fail "reordered frames"
[ "$(jq .duplicates "$T/gen.json")" -eq 0 ] || fail "duplicated frames"
[ "$(jq .tx_packets "$T/gen.json")" -gt 100000 ] || fail "too little traffic"
jctl raw /vsw/workers | jq -c '.[] | .worker0, .worker1 | {lcore, rx_packets}'
for w in worker0 worker1; do
	[ "$(jctl raw /vsw/workers | jq ".[].$w.rx_packets")" -gt 1000 ] ||
		fail "$w forwarded nothing: the queue never moved"
done
stop_vsw
echo "PASS: queue moves, rebalance, flush interval and FDB flush under traffic lose nothing"
