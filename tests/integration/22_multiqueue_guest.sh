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
# 4. One worker and a testpmd guest with 4 queue pairs receiving: 64
#    flows from a vswgen guest spread over all four rx queues (the
#    guest's per-queue counts, its xstats, equal what vsw enqueued on
#    each), nothing shared; one flow lands on one queue whole; with
#    guest-rx-spread off (set live) 64 flows go to queue 0 alone; the
#    port's own guest-rx-spread=on (port-set) wins: all four again.
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
tp_mac d
D=$TP_MAC
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
note "4. one worker, a guest with 4 queue pairs: flows spread over its rx queues"
cat >"$CFG" <<EOC
[switch]
run-dir = $RUN
mbufs = 16383
[port e]
type = vhost-user
[port f]
type = vhost-user
EOC
rm -f "$RUN/vsw.state" # step 3's fdb-add: not this one's
start_vsw "$CFG"
[ "$(info_val workers)" -eq 1 ] || fail "expected 1 worker"
tp_start e "$RUN/e.sock" 4 --forward-mode=rxonly
wait_for 60 "e up" port_is e up
tp_mac e
E=$TP_MAC
ctl fdb-add "$E" e >/dev/null || fail "fdb-add $E"
tp e start
# the guest's own count per rx queue (virtio PMD xstats rx_qN_good_packets)
tp_rxq() {
	local before
	before=$(grep -c 'rx_q0_good_packets' "$T/e.log")
	tp e "show port xstats 0"
	wait_for 10 "testpmd e xstats" sh -c "[ \$(grep -c 'rx_q0_good_packets' '$T/e.log') -gt $before ]"
	for i in 0 1 2 3; do
		grep -o "rx_q${i}_good_packets: *[0-9]*" "$T/e.log" | tail -1 | grep -o '[0-9]*$'
	done | tr '\n' ' '
}
enq() { jctl raw /vsw/queues,e | jq -r '[.[] | .q0.enqueued, .q1.enqueued, .q2.enqueued, .q3.enqueued] | map(tostring) | join(" ")'; }
# 64 flows (vswgen's frames are not IP: a flow is a pair of MACs)
start_guest f "$(virtio "$RUN/f.sock")" -- --src-mac "$(mac_of 53)" --dst-mac "$E" --macs 64 --count 4000 --rate 2000 --duration 10
wait_guest f
wait_for 20 "e: 4000 frames sent" ctr_at_least e tx_packets 4000
read -r -a g <<<"$(tp_rxq)"
read -r -a v <<<"$(enq)"
note "64 flows: the guest's rx queues got ${g[*]}, vsw enqueued ${v[*]}"
ctl queues e | tail -5
for i in 0 1 2 3; do
	[ "${g[$i]:-0}" -gt 0 ] || fail "e: rx queue $i got nothing of 64 flows (guest: ${g[*]})"
	[ "${g[$i]}" -eq "${v[$i]}" ] || fail "e: rx queue $i: the guest counted ${g[$i]}, vsw enqueued ${v[$i]}"
done
[ $((g[0] + g[1] + g[2] + g[3])) -eq 4000 ] || fail "e: the guest got $((g[0] + g[1] + g[2] + g[3])) of 4000"
[ "$(port_ctr e tx_queues_shared)" = 0 ] || fail "e: tx_queues_shared with one worker"
[ "$(port_ctr e guest_rx_queues_fed)" = 4 ] || fail "e: guest_rx_queues_fed $(port_ctr e guest_rx_queues_fed), not 4"
# one flow stays on one queue (in order)
start_guest f "$(virtio "$RUN/f.sock")" -- --src-mac "$(mac_of 54)" --dst-mac "$E" --count 2000 --rate 2000 --duration 10
wait_guest f
wait_for 20 "e: 6000 frames sent" ctr_at_least e tx_packets 6000
read -r -a g2 <<<"$(tp_rxq)"
note "one flow: the guest's rx queues now ${g2[*]}"
grew=0
for i in 0 1 2 3; do
	d=$((g2[i] - g[i]))
	[ "$d" -eq 0 ] || { [ "$d" -eq 2000 ] && grew=$((grew + 1)); } ||
		fail "e: one flow split: rx queue $i got $d of its 2000 frames"
done
[ "$grew" -eq 1 ] || fail "e: one flow's 2000 frames on $grew queues"
# guest-rx-spread off (set live): the worker sends into pair 0 alone
ctl set guest-rx-spread off >/dev/null || fail "set guest-rx-spread off"
[ "$(info_val guest_rx_spread)" = off ] || fail "info: guest_rx_spread $(info_val guest_rx_spread)"
[ "$(port_ctr e guest_rx_queues_fed)" = 1 ] || fail "e: guest_rx_queues_fed $(port_ctr e guest_rx_queues_fed) with guest-rx-spread off"
start_guest f "$(virtio "$RUN/f.sock")" -- --src-mac "$(mac_of 55)" --dst-mac "$E" --macs 64 --count 2000 --rate 2000 --duration 10
wait_guest f
wait_for 20 "e: 8000 frames sent" ctr_at_least e tx_packets 8000
read -r -a g3 <<<"$(tp_rxq)"
note "64 flows, guest-rx-spread off: the guest's rx queues now ${g3[*]}"
[ $((g3[0] - g2[0])) -eq 2000 ] && [ "${g3[1]}${g3[2]}${g3[3]}" = "${g2[1]}${g2[2]}${g2[3]}" ] ||
	fail "e: guest-rx-spread off, yet frames beside queue 0: ${g2[*]} -> ${g3[*]}"
# the port's own key wins over the switch's (port-set, live)
ctl port-set e guest-rx-spread=on >/dev/null || fail "port-set e guest-rx-spread=on"
[ "$(port_ctr e guest_rx_spread)" = on ] || fail "e: guest_rx_spread $(port_ctr e guest_rx_spread) after port-set on"
[ "$(port_ctr e guest_rx_queues_fed)" = 4 ] || fail "e: guest_rx_queues_fed $(port_ctr e guest_rx_queues_fed) with the port's key on"
start_guest f "$(virtio "$RUN/f.sock")" -- --src-mac "$(mac_of 56)" --dst-mac "$E" --macs 64 --count 2000 --rate 2000 --duration 10
wait_guest f
wait_for 20 "e: 10000 frames sent" ctr_at_least e tx_packets 10000
read -r -a g4 <<<"$(tp_rxq)"
note "64 flows, the switch's key off, the port's on: the guest's rx queues now ${g4[*]}"
for i in 0 1 2 3; do
	[ "${g4[$i]}" -gt "${g3[$i]}" ] || fail "e: port-set guest-rx-spread=on, yet rx queue $i got nothing: ${g3[*]} -> ${g4[*]}"
done
tp_quit e
stop_vsw
echo "PASS: every queue pair a guest has is served, or counted when above queues; flows spread over a guest's rx queues"
