#!/bin/bash
# Objective: automatic rx queue rebalance. Two workers; every queue is
# first moved onto worker 0 while two flows (a->b, c->d) run; with
# rebalance-interval-s = 1 vsw notices worker 1 idle and moves busy queues
# to it by itself, and neither flow loses or reorders a frame.  Once the
# two busy queues sit on different workers the placement stays, even with
# rebalance-threshold-pct = 1, where every second's noise between the two
# workers triggers a rebalance: a plan that does not lighten the busiest
# worker by rebalance-improvement-pct is not worth a move (vsw once swapped
# the two queues whenever their order of load flipped, parking both).
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b c d)
start_vsw_on '0@0,1@1,2@1' "$CFG"
[ "$(info_val workers)" -eq 2 ] || fail "expected 2 workers"
for p in a b c d; do
	ctl raw "/vsw/rxq/move,$p,0,0" >/dev/null || fail "move $p to worker 0"
done
owner() { jctl raw "/vsw/queues,$1" | jq -r '.[].q0.worker'; }
for p in a b c d; do [ "$(owner $p)" = 0 ] || fail "$p not on worker 0"; done

start_v2v ab --rate 20000 --duration 24
G1=$GEN
start_v2v cd --ports c d --rate 20000 --duration 24
G2=$GEN
wait_for 60 "a->b traffic" ctr_at_least b tx_packets 10000
wait_for 60 "c->d traffic" ctr_at_least d tx_packets 10000
w1=$(jctl raw /vsw/workers | jq -r '.[].worker1.rx_packets')
[ "$w1" -eq 0 ] || fail "worker 1 forwarded before the rebalance"

note "turn on the automatic rebalance"
ctl raw /vsw/set,rebalance-threshold-pct,1 >/dev/null || fail "set rebalance-threshold-pct"
ctl raw /vsw/set,rebalance-interval-s,1 >/dev/null || fail "set rebalance-interval-s"
wait_for 20 "a busy queue on worker 1" ctl_holds '.[].worker1.rx_packets > 1000' raw /vsw/workers
note "both flows go on for 6 s with the rebalance on"
sleep 6
kill -0 "$G1" 2>/dev/null && kill -0 "$G2" 2>/dev/null ||
	fail "a generator ended before the 6 s; nothing was measured"
oa=$(owner a)
oc=$(owner c)
note "after: a on $oa, c on $oc"
[[ "$oa" =~ ^[01]$ && "$oc" =~ ^[01]$ ]] || fail "a or c has no worker: '$oa' '$oc'"
[ "$oa" != "$oc" ] || fail "both busy queues still share a worker"
n=$(grep -c "automatic rebalance moved" "$T/vsw.log")
grep "automatic rebalance moved" "$T/vsw.log"
[ "$n" -eq 1 ] || fail "vsw rebalanced $n times, not once: the balanced placement did not stay"
wait "$G1" || fail "generator ab failed"
wait "$G2" || fail "generator cd failed"
for g in ab cd; do
	jq -c "{gen: \"$g\", tx_packets, rx_packets, lost, reordered}" "$T/$g.json"
	loss_accounted "$g" "$T/$g.json" "${g:1:1}"
	[ "$(jq .reordered "$T/$g.json")" -eq 0 ] || fail "$g reordered frames"
done
stop_vsw
echo "PASS: vsw rebalanced its rx queues by itself without loss"
