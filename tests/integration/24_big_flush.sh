#!/bin/bash
# Objective: a flush larger than the vhost library's 32-packet enqueue cap
# loses nothing (review M2). burst = 256 and a 200 us flush interval: A
# sends bursts of 256 frames, vsw receives and buffers 256 at a time for
# B, whose ring (1024) has room. Nothing may be dropped as tx_full, the
# generator loses nothing, and vsw enqueues in calls of at most 32.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b)
sed -i 's/^\[switch\]$/[switch]\nburst = 256\ntx-flush-interval-us = 200\ntx-retries = 0/' "$CFG"
start_vsw "$CFG"
[ "$(info_val burst)" -eq 256 ] || fail "burst not 256"
run_v2v gen --burst 256 --rate 40000 --duration 4
jq -c '{tx_packets, rx_packets, lost}' "$T/gen.json"
b=$(jctl port b); q=$(jctl raw /vsw/queues,b | jq '.[].q0')
echo "$b" | jq -c '{tx_packets, drop_tx_full, pkts_per_flush, flush_32_up}'
echo "$q" | jq -c '{enqueues, enqueued, pkts_per_enqueue}'
[ "$(echo "$b" | jq .flush_32_up)" -gt 0 ] || fail "no flush above 32 packets: the test did not test"
[ "$(echo "$b" | jq .drop_tx_full)" -eq 0 ] || fail "tx_full drops with room in B's ring"
[ "$(jq .lost "$T/gen.json")" -eq 0 ] || fail "lost frames"
awk -v r="$(echo "$q" | jq -r .pkts_per_enqueue)" 'BEGIN { exit !(r <= 32) }' ||
	fail "pkts_per_enqueue above 32"
stop_vsw
echo "PASS: flushes of up to 256 packets reach the guest whole"
