#!/bin/bash
# Objective: in adaptive mode, a queue that moves from a sleeping worker to
# a busy one stops asking its guest for kicks (review L5 of 702c808).  A
# sleeping worker arms its queues' notifications (the guest kicks on every
# transmit) and disarms them when it wakes, but only the queues of the
# table it wakes to: a queue moved away meanwhile stayed armed, and its
# new owner, busy, never slept to disarm it, so the guest kept kicking
# (one VM exit per transmit for a QEMU guest) until that owner slept.
# Two workers share CPU 1: worker 0 polls a and b, kept busy by A->B at
# 50 kpps (frames 20 us apart, idle-threshold-us 5000: it never sleeps);
# worker 1 polls c and d, asleep between C's frames at 20 pps.  c's queue
# moves to worker 0: over the next 4 s c's guest kicks at most a handful
# of times (before the fix: once per frame, ~80).
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b c d)
sed -i 's/^\[switch\]/[switch]\npoll-mode = adaptive\nidle-threshold-us = 5000\nmax-sleep-us = 1000/' "$CFG"
for p in a b; do sed -i "s/^\[port $p\]/[port $p]\nlcores = 1/" "$CFG"; done
for p in c d; do sed -i "s/^\[port $p\]/[port $p]\nlcores = 2/" "$CFG"; done
start_vsw_on '0@0,1@1,2@1' "$CFG"
[ "$(info_val poll_mode)" = adaptive ] || fail "poll mode is not adaptive"
q() { jctl raw "/vsw/queues,$1" | jq -r ".[].q0.$2"; }

start_v2v ab --rate 50000 --burst 1 --duration 16
AB=$GEN
start_v2v cd --ports c d --rate 20 --burst 1 --duration 16 --poll-sleep-us 200
CD=$GEN
for p in a b c d; do wait_for 60 "$p up" port_is "$p" up; done
wait_for 30 "C->D traffic" ctr_at_least d tx_packets 20
[ "$(q c worker)" = 1 ] || fail "c's queue is on worker $(q c worker), expected 1"
k0=$(q c kicks); sleep 2; k1=$(q c kicks)
note "c on the sleeping worker 1: $((k1 - k0)) kicks in 2 s (armed while it sleeps)"
[ $((k1 - k0)) -gt 10 ] || note "WARN: few kicks on a sleeping worker's queue ($((k1 - k0)))"

ctl rxq-move c 0 0 || fail "rxq-move c 0 0"
wait_for 10 "c's queue on worker 0" bash -c "[ \"\$($VSWCTL --file-prefix $PREFIX --json raw /vsw/queues,c | jq -r '.[].q0.worker')\" = 0 ]"
sleep 1
s0=$(jctl raw /vsw/workers | jq '.[].worker0.sleeps')
k0=$(q c kicks); f0=$(port_ctr c rx_packets); sleep 4; k1=$(q c kicks); f1=$(port_ctr c rx_packets)
s1=$(jctl raw /vsw/workers | jq '.[].worker0.sleeps')
note "worker 0 slept $((s1 - s0)) times meanwhile"
note "c on the busy worker 0: $((k1 - k0)) kicks for $((f1 - f0)) frames in 4 s"
[ $((f1 - f0)) -ge 60 ] || fail "C->D stopped after the move ($((f1 - f0)) frames in 4 s)"
[ $((k1 - k0)) -le 10 ] || fail "c's guest still kicks on every frame after its queue moved to a busy worker ($((k1 - k0)) kicks for $((f1 - f0)) frames)"
reap_pid "$AB" || fail "generator ab failed"
reap_pid "$CD" || fail "generator cd failed"
loss_accounted ab "$T/ab.json" b
[ "$(jq .lost "$T/cd.json")" -eq 0 ] || fail "C->D lost $(jq .lost "$T/cd.json") frames"
stop_vsw
echo "PASS: a queue moved from a sleeping worker to a busy one stops asking its guest for kicks"
