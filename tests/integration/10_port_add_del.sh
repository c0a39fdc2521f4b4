#!/bin/bash
# Objective: ports added and deleted at run time while two guests exchange
# traffic. Adding port c and a guest on it costs A<->B nothing; deleting
# it (guest still attached) stops its traffic, the others lose nothing,
# and every mbuf comes back.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b)
start_vsw "$CFG"
C=$(mac_of 62)
base=$(info_val mbufs_in_use)
# guests A and B: one generator process with a port on each, A -> B
start_v2v gen --rate 10000 --duration 14
wait_for 60 "a up" port_is a up
wait_for 60 "b up" port_is b up
wait_for 30 "A->B traffic" ctr_at_least b tx_packets 5000

note "port-add c while A->B runs"
ctl raw "/vsw/port/add,c,type=vhost-user,path=$RUN/c.sock,mode=server" >/dev/null || fail "port/add failed"
[ "$(port_ctr c state)" = down ] || fail "new port c is not listed"
wait_for 10 "c socket" test -S "$RUN/c.sock"
# C sends to an unknown MAC: flooded to a and b (not vswgen's own frames)
start_guest c "$(virtio "$RUN/c.sock")" -- --src-mac "$C" --dst-mac 02:00:00:00:00:99 --rate 1000 --duration 30
wait_for 60 "c up" port_is c up
wait_for 30 "c's traffic" ctr_at_least c rx_packets 500
[ "$(port_ctr a tx_packets)" -ge 400 ] || fail "c's floods did not reach a"
note "port-del c while its guest still sends"
ctl raw /vsw/port/del,c >/dev/null || fail "port/del failed"
ctl port c >/dev/null 2>&1 && fail "port c still listed"
[ ! -e "$RUN/c.sock" ] || fail "c's socket left behind"
jctl fdb | jq -e --arg m "$C" '.entries[] | select(.mac == $m)' >/dev/null && fail "c's MAC still in the FDB"
a_tx=$(port_ctr a tx_packets)
sleep 1
[ "$(port_ctr a tx_packets)" -eq "$a_tx" ] || fail "c's traffic still reaches a after delete"

wait "$GEN" || fail "generator failed: $(tail -5 "$T/gen.log")"
kill -TERM "${GUEST_PID[c]}" 2>/dev/null; wait "${GUEST_PID[c]}" 2>/dev/null
jq -c '{tx_packets, rx_packets, lost, reordered}' "$T/gen.json"
[ "$(jq .lost "$T/gen.json")" -eq 0 ] || fail "A->B lost frames"
[ "$(jq .tx_packets "$T/gen.json")" -gt 100000 ] || fail "too little traffic"
# (the generator's 3 announcements may find the other port not up yet:
# no_port drops before the traffic starts; nothing else may drop)
for p in a b; do
	j=$(jctl port $p)
	[ "$(echo "$j" | jq '.drops - .drop_no_port')" -eq 0 ] || fail "drops on $p: $j"
	[ "$(echo "$j" | jq .drop_no_port)" -le 3 ] || fail "no_port drops on $p: $j"
done
sleep 1
used=$(info_val mbufs_in_use)
note "mbufs in use: $used (before traffic: $base)"
[ "$used" -eq "$base" ] || fail "mbufs in use $used, $base before"
stop_vsw
echo "PASS: port add and delete under traffic lose nothing"
