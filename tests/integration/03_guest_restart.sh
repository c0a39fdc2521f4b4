#!/bin/bash
# Objective: a guest killed (SIGKILL) and restarted under traffic. A and B
# keep exchanging traffic while C dies and comes back; the restarted C
# receives again; once traffic stops every mbuf is back in vsw's pool.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b c)
start_vsw "$CFG"
A=$(mac_of 30); B=$(mac_of 31); C=$(mac_of 32)
base=$(info_val mbufs_in_use)

start_guest c "$(virtio "$RUN/c.sock")" -- --src-mac "$C" --announce 3 --rx-only --duration 60
wait_for 60 "c up" port_is c up
# A -> B unicast; B -> broadcast (reaches A and C), both for 25 s
start_guest b "$(virtio "$RUN/b.sock")" -- --src-mac "$B" --announce 3 --rate 5000 --duration 25
start_guest a "$(virtio "$RUN/a.sock")" -- --src-mac "$A" --dst-mac "$B" --announce 3 --rate 5000 --duration 25
wait_for 60 "a up" port_is a up
wait_for 60 "b up" port_is b up
wait_for 30 "c to receive B's broadcasts" ctr_at_least c tx_packets 100

note "SIGKILL guest c (pid ${GUEST_PID[c]})"
kill -KILL "${GUEST_PID[c]}"
wait "${GUEST_PID[c]}" 2>/dev/null
wait_for 30 "c down" port_is c down
b0=$(port_ctr b tx_packets); a0=$(port_ctr a tx_packets)
ad0=$(port_ctr a drop_port_down); bd0=$(port_ctr b drop_port_down)
sleep 2
b1=$(port_ctr b tx_packets); a1=$(port_ctr a tx_packets)
note "while C is gone: b +$((b1 - b0)), a +$((a1 - a0)) in 2 s"
[ $((b1 - b0)) -gt 1000 ] || fail "A->B stalled while C was down"
[ $((a1 - a0)) -gt 1000 ] || fail "B->A stalled while C was down"
# C's death costs the live guests nothing: no frame to them is dropped as
# if their port were down
[ "$(port_ctr a drop_port_down)" -eq "$ad0" ] || fail "a: port_down drops while C was gone"
[ "$(port_ctr b drop_port_down)" -eq "$bd0" ] || fail "b: port_down drops while C was gone"

note "restart guest c"
rm -rf "/var/run/dpdk/${PREFIX}gc"
start_guest c "$(virtio "$RUN/c.sock")" -- --src-mac "$C" --announce 3 --rx-only --duration 8
wait_for 60 "c up again" port_is c up
c0=$(port_ctr c tx_packets)
wait_for 30 "restarted c to receive" ctr_at_least c tx_packets $((c0 + 1000))
[ "$(port_ctr c connects)" -eq 2 ] || fail "c.connects != 2"
wait_guest c
[ "$(guest_val c rx_packets)" -gt 1000 ] || fail "restarted guest c received $(guest_val c rx_packets)"
wait_guest a
wait_guest b
sleep 1
used=$(info_val mbufs_in_use)
note "mbufs in use: before $base, after $used"
[ "$used" -eq "$base" ] || fail "mbuf leak: $used in use, $base before traffic"
stop_vsw
echo "PASS: guests survived a peer's crash and restart, no mbuf leaked"
