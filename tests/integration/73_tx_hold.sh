#!/bin/bash
# Objective: tx-hold-us with a real guest that stops draining its rx ring:
# testpmd (virtio-user, a 256-entry ring, rxonly) not forwarding, a vswgen
# guest sending it 272 frames at a time.
# 1. What its ring cannot take is held (tx_holds 1, no drop_tx_full) and
#    reaches testpmd, in full, once it starts forwarding within the hold.
# 2. Stopped for longer than tx-hold-us: what was held is dropped as
#    tx_full once the hold runs out; frames after that are dropped at once
#    (the port is stuck: no new hold) until the guest takes frames again,
#    after which frames reach it; testpmd gets exactly what vsw sent.
# 3. vswctl set tx-hold-us 0: what the full ring refuses is dropped at
#    once, as before holding existed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_testpmd.sh"

N=272
CFG=$T/vsw.conf
cat >"$CFG" <<EOC
[switch]
run-dir = $RUN
mbufs = 16383
tx-hold-us = 4000000
[port d]
type = vhost-user
[port s]
type = vhost-user
EOC
start_vsw "$CFG"
[ "$(info_val tx_hold_us)" = 4000000 ] || fail "info: tx_hold_us $(info_val tx_hold_us)"
tp_start d "$RUN/d.sock" 1 --forward-mode=rxonly
wait_for 60 "d up" port_is d up
tp_mac d
D=$TP_MAC
ctl fdb-add "$D" d >/dev/null || fail "fdb-add $D"

# send COUNT: guest s sends COUNT frames to d; returns once vsw took them
SENT=0
send() {
	SENT=$((SENT + $1))
	start_guest s "$(virtio "$RUN/s.sock")" -- --src-mac "$(mac_of 52)" --dst-mac "$D" \
		--count "$1" --rate 20000 --duration 30 --rx-port none
	wait_for 30 "vsw to take $SENT frames from s" ctr_at_least s rx_packets "$SENT"
	finish_guest s
}
show() { jctl port d | jq -c '{tx_packets, tx_holds, drop_tx_full, drops}'; }

note "1. testpmd not forwarding: $N frames, held beyond its ring"
send $N
show
c1=$(port_ctr d tx_packets)
held=$((N - c1))
[ "$held" -ge 1 ] && [ "$held" -le 31 ] ||
	fail "the ring took $c1 of $N: expected $((N - 31))..$((N - 1)) (a 256-entry ring)"
[ "$(port_ctr d tx_holds)" = 1 ] || fail "tx_holds $(port_ctr d tx_holds), expected 1"
[ "$(port_ctr d drop_tx_full)" = 0 ] || fail "dropped while holding: $(show)"
tp d start
wait_for 10 "the $held held frames to leave" ctr_at_least d tx_packets $N
tp d stop
show
[ "$(port_ctr d drop_tx_full)" = 0 ] || fail "frames dropped: $(show)"
got=$(tp_stat d RX)
[ "$got" = $N ] || fail "testpmd received $got of $N"

note "2. testpmd stopped for longer than the hold"
send $N
c2=$(($(port_ctr d tx_packets) - N))
held=$((N - c2))
[ "$held" -ge 1 ] && [ "$(port_ctr d tx_holds)" = 2 ] || fail "no second hold: $(show)"
[ "$(port_ctr d drop_tx_full)" = 0 ] || fail "dropped before the hold ran out: $(show)"
wait_for 15 "the hold to run out" ctr_at_least d drop_tx_full "$held"
show
[ "$(port_ctr d drop_tx_full)" = "$held" ] || fail "expected $held dropped: $(show)"
# stuck: dropped at once, no new hold
send 10
[ "$(port_ctr d drop_tx_full)" = $((held + 10)) ] || fail "a stuck port held again: $(show)"
[ "$(port_ctr d tx_holds)" = 2 ] || fail "a stuck port began a hold: $(show)"
tp d start
sleep 1
send 5
wait_for 10 "frames to reach d again" ctr_at_least d tx_packets $((N + c2 + 5))
tp d stop
got=$(tp_stat d RX)
show
[ "$got" = "$(port_ctr d tx_packets)" ] || fail "testpmd received $got, vsw sent $(port_ctr d tx_packets)"

note "3. tx-hold-us 0: dropped at once"
ctl set tx-hold-us 0 >/dev/null || fail "set tx-hold-us 0"
[ "$(info_val tx_hold_us)" = 0 ] || fail "info: tx_hold_us $(info_val tx_hold_us) after set"
full0=$(port_ctr d drop_tx_full) tx0=$(port_ctr d tx_packets)
send $N
show
c3=$(($(port_ctr d tx_packets) - tx0))
[ "$(port_ctr d drop_tx_full)" = $((full0 + N - c3)) ] && [ $c3 -lt $N ] ||
	fail "expected $((N - c3)) more dropped at once: $(show)"
[ "$(port_ctr d tx_holds)" = 2 ] || fail "held with tx-hold-us 0: $(show)"
tp_quit d
stop_vsw
echo "PASS: a full guest ring's frames are held for tx-hold-us, then dropped; 0 drops at once"
