#!/bin/bash
# Objective: vhost-user client mode. The guest side (virtio-user with
# server=1) starts first, vsw connects to it, traffic flows; the guest is
# killed and restarted, vsw reconnects by itself and traffic flows again.
. "$(dirname "$0")/lib.sh"

A=$(mac_of 40); B=$(mac_of 41)
CFG=$T/vsw.conf
cat >"$CFG" <<EOC
[switch]
run-dir = $RUN
mbufs = 8191
[port a]
type = vhost-user
path = $T/a.sock
mode = client
[port b]
type = vhost-user
path = $T/b.sock
mode = client
EOC
# server=1 blocks in accept() until vsw connects: start the guests first.
start_guest b "$(virtio "$T/b.sock" server=1)" -- --src-mac "$B" --announce 3 --rx-only --duration 40
start_guest a "$(virtio "$T/a.sock" server=1)" -- --src-mac "$A" --dst-mac "$B" --announce 3 --rate 5000 --duration 40
wait_for 30 "guest sockets" test -S "$T/a.sock" -a -S "$T/b.sock"
start_vsw "$CFG"
wait_for 60 "a up" port_is a up
wait_for 60 "b up" port_is b up
wait_for 30 "A->B traffic" ctr_at_least b tx_packets 1000

note "kill guest b, restart it"
kill -KILL "${GUEST_PID[b]}"
wait "${GUEST_PID[b]}" 2>/dev/null
wait_for 30 "b down" port_is b down
rm -f "$T/b.sock"; rm -rf "/var/run/dpdk/${PREFIX}gb"
start_guest b "$(virtio "$T/b.sock" server=1)" -- --src-mac "$B" --announce 3 --rx-only --duration 8
wait_for 60 "b reconnected" port_is b up
b0=$(port_ctr b tx_packets)
wait_for 30 "A->B after reconnect" ctr_at_least b tx_packets $((b0 + 1000))
[ "$(port_ctr b connects)" -eq 2 ] || fail "b.connects != 2"
wait_guest b
[ "$(guest_val b rx_packets)" -gt 1000 ] || fail "reconnected b received $(guest_val b rx_packets)"
stop_vsw
# client mode: the socket is the guest's (still running): vsw leaves it
[ -S "$T/a.sock" ] || fail "vsw removed guest a's socket $T/a.sock on stop"
echo "PASS: client mode connects and reconnects"
