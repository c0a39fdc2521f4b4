#!/bin/bash
# Objective: vsw serves every queue pair a guest has (review M1, M5).
# 1. A testpmd guest with 2 queue pairs sends on both (txonly): vsw polls
#    both, on its two workers, and forwards every frame testpmd sent.
# 2. The same guest on a port limited to queues = 1: frames on queue pair
#    1 are not forwarded but counted (drop_unpolled), with a log line and
#    the guest's queue pairs in the port view; rx = unicast + drops.
# 3. 18 workers and a guest with 8 queue pairs (virtio-user's maximum)
#    receiving (rxonly) from a port polled by the 18th worker: the
#    per-queue counters add up to what the guest received. (Review M5,
#    workers >= 16 indexing the 16-entry per-queue arrays when a guest has
#    more than 16 queue pairs, needs a QEMU guest with queues > 16; vsw
#    now maps tx onto at most 16 queue pairs, see port/vhost.c.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_testpmd.sh"

CFG=$T/vsw.conf
cat >"$CFG" <<EOC
[switch]
run-dir = $RUN
mbufs = 16383
[port a]
type = vhost-user
[port b]
type = vhost-user
[port c]
type = vhost-user
queues = 1
EOC
start_vsw_on '0@0,1@1,2@1' "$CFG"
B=$(mac_of 51)
start_guest b "$(virtio "$RUN/b.sock")" -- --src-mac "$B" --announce 3 --rx-only --duration 120
wait_for 60 "b up" port_is b up

note "1. two queue pairs, both polled"
tp_start a "$RUN/a.sock" 2 --forward-mode=txonly --eth-peer="0,$B"
wait_for 60 "a up" port_is a up
wait_for 20 "a polls 2 queues" sh -c "[ \"\$($VSWCTL --file-prefix $PREFIX --json port a | jq .queues)\" = 2 ]"
tp a start; sleep 3; tp a stop
sent=$(tp_stat a TX)
wait_for 20 "vsw to take all $sent frames" ctr_at_least a rx_packets "$sent"
q=$(jctl raw /vsw/queues,a)
echo "$q" | jq -c '.[] | {q0: {worker: .q0.worker, rx: .q0.rx_packets}, q1: {worker: .q1.worker, rx: .q1.rx_packets}}'
[ "$(port_ctr a rx_packets)" -eq "$sent" ] || fail "a: vsw took $(port_ctr a rx_packets) of $sent"
for i in 0 1; do
	[ "$(echo "$q" | jq ".[].q$i.rx_packets")" -gt 0 ] || fail "a: queue $i not polled"
done
[ "$(echo "$q" | jq '.[].q0.worker')" != "$(echo "$q" | jq '.[].q1.worker')" ] ||
	fail "a: both queues on one worker"
[ "$(port_ctr a unicast)" -eq "$sent" ] || fail "a: unicast $(port_ctr a unicast) of $sent"
tp_quit a

note "2. the same guest on c, queues = 1"
tp_start c "$RUN/c.sock" 2 --forward-mode=txonly --eth-peer="0,$B"
wait_for 60 "c up" port_is c up
tp c start; sleep 3; tp c stop
sent=$(tp_stat c TX)
wait_for 20 "vsw to account for $sent frames" ctr_at_least c rx_packets "$sent"
j=$(jctl port c)
echo "$j" | jq -c '{queues, queues_max, guest_queue_pairs, rx_packets, unicast, drop_unpolled}'
[ "$(echo "$j" | jq .guest_queue_pairs)" -eq 2 ] || fail "c: guest_queue_pairs not 2"
[ "$(echo "$j" | jq .drop_unpolled)" -gt 0 ] || fail "c: nothing counted on the unpolled queue pair"
[ "$(echo "$j" | jq .rx_packets)" -eq "$sent" ] || fail "c: rx $(echo "$j" | jq .rx_packets) of $sent sent"
[ "$(echo "$j" | jq '.unicast + .drop_unpolled')" -eq "$sent" ] || fail "c: unicast + unpolled != sent"
grep -q "c: the guest has 2 queue pairs but queues = 1" "$T/vsw.log" || fail "no log line about c's extra queue pair"
tp_quit c
stop_vsw

note "3. 18 workers, a guest with 8 queue pairs"
cat >"$CFG" <<EOC
[switch]
run-dir = $RUN
mbufs = 32767
[port d]
type = vhost-user
[port s]
type = vhost-user
lcores = 18
EOC
start_vsw_on '0@0,(1-18)@1' "$CFG"
[ "$(info_val workers)" -eq 18 ] || fail "expected 18 workers"
tp_start d "$RUN/d.sock" 8 --forward-mode=rxonly
wait_for 60 "d up" port_is d up
wait_for 30 "d's MAC" grep -q 'Port 0: [0-9A-F][0-9A-F]:' "$T/d.log"
D=$(grep -o 'Port 0: [0-9A-F:]*' "$T/d.log" | head -1 | awk '{print tolower($3)}')
ctl fdb-add "$D" d >/dev/null || fail "fdb-add $D"
tp d start
start_guest s "$(virtio "$RUN/s.sock")" -- --src-mac "$(mac_of 52)" --dst-mac "$D" --count 5000 --rate 2000 --duration 10
wait_guest s
sleep 2
tp d stop
got=$(tp_stat d RX)
j=$(jctl port d)
sum=$(jctl raw /vsw/queues,d | jq '[.[] | to_entries[] | select(.key | test("^q[0-9]+$")) | .value.enqueued] | add')
echo "$j" | jq -c '{guest_queue_pairs, queues, tx_packets, drop_tx_full}'
note "testpmd received $got; vsw sent $(echo "$j" | jq .tx_packets); per-queue enqueued sum $sum"
[ "$(echo "$j" | jq .guest_queue_pairs)" -eq 8 ] || fail "d: guest_queue_pairs not 8"
[ "$(echo "$j" | jq .queues)" -eq 8 ] || fail "d: polls $(echo "$j" | jq .queues) queues, not 8"
[ "$got" -eq "$(echo "$j" | jq .tx_packets)" ] || fail "d: testpmd got $got, vsw sent $(echo "$j" | jq .tx_packets)"
[ "$sum" -eq "$(echo "$j" | jq .tx_packets)" ] || fail "d: per-queue enqueued $sum != tx_packets"
[ "$got" -ge 4000 ] || fail "d: only $got of 5000 arrived"
tp_quit d
stop_vsw
echo "PASS: every queue pair a guest has is served, or counted when above queues"
