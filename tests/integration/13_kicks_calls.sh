#!/bin/bash
# Objective: interrupt-less queues with virtio-PMD guests. Under traffic
# the guest's kicks stay at 0 (vsw suppresses them on every ring it
# polls, also after the guest reconnects), vsw sends no interrupt to a
# guest that polls, /vsw/queues says why, and turning suppression off
# (kick-suppression = off, for measuring) makes the kicks appear.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b)
start_vsw "$CFG"
q() { jctl raw "/vsw/queues,$1" | jq -r ".[].q0.$2"; }
check_guest_view() { # while the generator is attached
	wait_for 60 "a up" port_is a up
	wait_for 30 "traffic" ctr_at_least b tx_packets 20000
	[ "$(q b guest_wants)" = poll ] || fail "b: guest_wants $(q b guest_wants), expected poll"
	[ "$(q a kicks_suppressed)" = 1 ] || fail "a: kicks not suppressed"
}

for round in 1 2; do # the second round is a reconnect
	ctl raw /vsw/stats/clear >/dev/null
	start_v2v gen --rate 50000 --duration 6
	check_guest_view
	wait "$GEN" || fail "generator failed"
	pk=$(q a rx_packets); kicks=$(q a kicks); calls=$(q b calls); enq=$(q b enqueued)
	note "round $round: $pk packets from a, $kicks kicks; $enq packets to b, $calls calls"
	[ "$pk" -gt 100000 ] || fail "too little traffic ($pk)"
	[ "$kicks" -le 2 ] || fail "the guest kicked $kicks times with suppression on"
	[ "$calls" -eq 0 ] || fail "vsw sent $calls interrupts to a polling guest"
	# Loss is not what this test is about, but none is allowed unless vsw
	# counted every lost frame as b's drop_tx_full (lib.sh).
	loss_accounted gen "$T/gen.json" b
done

ctl raw /vsw/set,kick-suppression,off >/dev/null || fail "set kick-suppression off"
ctl raw /vsw/stats/clear >/dev/null
run_v2v gen --rate 50000 --duration 4
kicks=$(q a kicks); pk=$(q a rx_packets)
note "suppression off: $kicks kicks for $pk packets"
[ "$kicks" -gt 100 ] || fail "with suppression off the guest should kick ($kicks)"
stop_vsw
echo "PASS: no kicks and no calls for virtio-PMD guests"
