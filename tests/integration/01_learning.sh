#!/bin/bash
# Objective: MAC learning. Once guests A and B have both sent, unicast
# A->B reaches B and not a third guest C; the FDB holds each MAC on its
# port; vsw's per-port counters balance (rx = unicast + flooded + drops).
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b c)
start_vsw "$CFG"
A=$(mac_of 10); B=$(mac_of 11); C=$(mac_of 12)

start_guest b "$(virtio "$RUN/b.sock")" -- --src-mac "$B" --announce 3 --rx-only --duration 40
start_guest c "$(virtio "$RUN/c.sock")" -- --src-mac "$C" --announce 3 --rx-only --duration 40
wait_for 60 "b and c learned" ctl_holds '.entries | length >= 2' fdb

c_tx0=$(port_ctr c tx_packets)
b_tx0=$(port_ctr b tx_packets)
note "unicast A->B: 2000 frames after 3 announcements"
start_guest a "$(virtio "$RUN/a.sock")" -- --src-mac "$A" --dst-mac "$B" --announce 3 --count 2000 --rate 20000 --duration 10
wait_guest a
wait_for 30 "b to get 2003 frames" ctr_at_least b tx_packets $(( b_tx0 + 2003 ))
sleep 1
c_tx=$(( $(port_ctr c tx_packets) - c_tx0 ))
b_tx=$(( $(port_ctr b tx_packets) - b_tx0 ))
note "delta tx: b=$b_tx c=$c_tx"; ctl ports
[ "$c_tx" -eq 3 ] || fail "C got $c_tx frames; expected only A's 3 broadcasts"
[ "$b_tx" -eq 2003 ] || fail "B got $b_tx frames; expected 2003"
[ "$(port_ctr a unicast)" -eq 2000 ] || fail "a.unicast != 2000"
[ "$(port_ctr a flooded)" -eq 3 ] || fail "a.flooded != 3"

for m in "$A:a" "$B:b" "$C:c"; do
	mac=${m%:*}; port=${m##*:}
	got=$(fdb_port "$mac")
	[ "$got" = "$port" ] || fail "fdb: $mac on '$got', expected $port"
done

for p in a b c; do
	j=$(jctl port $p)
	rx=$(echo "$j" | jq .rx_packets); u=$(echo "$j" | jq .unicast)
	f=$(echo "$j" | jq .flooded)
	d=$(echo "$j" | jq '.drop_runt + .drop_src_multicast + .drop_hairpin + .drop_no_port')
	[ "$rx" -eq $(( u + f + d )) ] || fail "port $p: rx $rx != unicast $u + flooded $f + drops $d"
done
stop_vsw
echo "PASS: learned unicast reached only B"
