#!/bin/bash
# Objective: flooding. Broadcast, multicast and unknown-unicast frames from
# A reach B and C, never A; nothing is dropped.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b c)
start_vsw "$CFG"
A=$(mac_of 20)
start_guest b "$(virtio "$RUN/b.sock")" -- --src-mac "$(mac_of 21)" --rx-only --duration 40
start_guest c "$(virtio "$RUN/c.sock")" -- --src-mac "$(mac_of 22)" --rx-only --duration 40
wait_for 60 "b up" port_is b up
wait_for 60 "c up" port_is c up

for dst in ff:ff:ff:ff:ff:ff 01:00:5e:00:00:01 02:00:00:00:00:99; do
	a_tx=$(port_ctr a tx_packets); b_tx=$(port_ctr b tx_packets); c_tx=$(port_ctr c tx_packets)
	note "A sends 500 frames to $dst"
	start_guest a "$(virtio "$RUN/a.sock")" -- --src-mac "$A" --dst-mac "$dst" --count 500 --rate 20000 --duration 10
	wait_guest a
	wait_for 30 "b to get 500" ctr_at_least b tx_packets $(( b_tx + 500 ))
	wait_for 30 "c to get 500" ctr_at_least c tx_packets $(( c_tx + 500 ))
	sleep 0.5
	[ "$(port_ctr a tx_packets)" -eq "$a_tx" ] || fail "a frame went back to A"
	[ "$(port_ctr b tx_packets)" -eq $(( b_tx + 500 )) ] || fail "B got more than 500"
	[ "$(port_ctr c tx_packets)" -eq $(( c_tx + 500 )) ] || fail "C got more than 500"
done
[ "$(port_ctr a flooded)" -eq 1500 ] || fail "a.flooded != 1500"
[ "$(port_ctr a drops)" -eq 0 ] || fail "drops on a"
stop_vsw
echo "PASS: floods reach every other port and never the sender"
