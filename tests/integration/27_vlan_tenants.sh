#!/bin/bash
# Objective: the worked example of docs/security.md ("two tenants and a
# trunk uplink"), run exactly as written there: the config block is read
# from the doc (only run-dir and the uplink's iface=eth1 are replaced).
# Tenant VMs are vswgen virtio-user guests on the vhost-user access ports
# a1, a2 (VLAN 100) and b1 (VLAN 200); the trunk uplink is a net_af_packet
# port on a veth whose other end sits in a network namespace, where scapy
# (vlan_frames.py) sends tagged frames and captures what vsw sends.
# Checks: a1's broadcasts reach a2 and the uplink tagged 100, never b1;
# the uplink's VLAN 100 frames reach a1 and a2, its VLAN 200 frames only
# b1, its VLAN 300 frames nobody (drop_vlan_not_allowed).
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
FR=$VSW_SRC/tests/integration/vlan_frames.py
DOC=$VSW_SRC/docs/security.md
ls /usr/lib/x86_64-linux-gnu/dpdk/pmds-*/librte_net_af_packet.so* >/dev/null 2>&1 ||
	skip "DPDK net_af_packet PMD not installed"
"$PY" -c 'import scapy.all' 2>/dev/null ||
	skip "python3-scapy is not installed for $PY (tools/deps installs it)"
NS=vswvl$ID-up
DEV=vt$ID
ip netns add "$NS" 2>/dev/null || skip "cannot create network namespaces"
ip netns del "$NS"
netns_veth "$NS" "$DEV"

# the doc's config, as written, with our run-dir and veth
CFG=$T/tenants.conf
sed -n '/^<!-- tenant example: begin/,/^<!-- tenant example: end/p' "$DOC" |
	sed -e '1,2d' -e '$d' | sed -e '$d' >"$CFG"
grep -q '^\[port uplink\]' "$CFG" && grep -q '^run-dir = /run/vsw$' "$CFG" &&
	grep -q 'iface=eth1$' "$CFG" || fail "no tenant example in $DOC: $(cat "$CFG")"
sed -i -e "s|^run-dir = /run/vsw\$|run-dir = $RUN|" -e "s|iface=eth1\$|iface=$DEV|" "$CFG"
cat "$CFG"
start_vsw "$CFG"
wait_for 30 "uplink up" port_is uplink up
[ "$(port_ctr a1 vlan_mode)/$(port_ctr a1 tag)" = access/100 ] &&
	[ "$(port_ctr uplink vlan_mode)/$(port_ctr uplink trunks)" = trunk/100,200 ] ||
	fail "ports: $(jctl ports | jq -c '.')"

UMAC=02:00:00:00:0e:01
bg "$T/sniff.log" "$T/sniff.log" ip netns exec "$NS" "$PY" "$FR" sniff "${DEV}p" \
	"$T/got-up" "$T/ready-up" "$UMAC"
wait_for 60 "sniffer in $NS" test -e "$T/ready-up"

A1=02:00:00:00:a1:01 A2=02:00:00:00:a2:01 B1=02:00:00:00:b1:01
# one after the other: each takes hugepages (mem_args) when enough are free
start_guest a2 "$(virtio "$RUN/a2.sock")" -- --src-mac "$A2" --rx-only --duration 30
wait_for 60 "a2 up" port_is a2 up
start_guest b1 "$(virtio "$RUN/b1.sock")" -- --src-mac "$B1" --rx-only --duration 25
wait_for 60 "b1 up" port_is b1 up

note "uplink -> tenants: 50 frames each in VLANs 100, 200 and 300"
BC=ff:ff:ff:ff:ff:ff
ip netns exec "$NS" "$PY" "$FR" send "${DEV}p" "$UMAC/$BC/q100/u100/50/2" \
	"$UMAC/$BC/q200/u200/50/2" "$UMAC/$BC/q300/u300/50/2" || fail "scapy send"
note "tenant A: 500 broadcasts from a1"
start_guest a1 "$(virtio "$RUN/a1.sock")" -- --src-mac "$A1" --dst-mac "$BC" \
	--count 500 --rate 1000 --duration 3
wait_guest a1
# the receivers' trials end once vsw has given them what they expect (and
# vsw's own count below catches any frame more that it sent later)
wait_for 30 "a2 served 550" ctr_at_least a2 tx_packets 550
wait_for 30 "b1 served 50" ctr_at_least b1 tx_packets 50
sleep 1
finish_guest a2
finish_guest b1
a2_rx=$(guest_val a2 rx_total) b1_rx=$(guest_val b1 rx_total)
up_a1=$(grep -c "^from-$A1 q100p0\$" "$T/got-up")
other=$(grep -v "^from-$A1 q100p0\$" "$T/got-up" | sort | uniq -c)
note "a2 received $a2_rx, b1 $b1_rx, the uplink $up_a1 from a1 tagged 100"
jctl port uplink | jq -c '{rx_packets, tx_packets, drop_vlan_not_allowed}'
[ "$a2_rx" -eq 550 ] || fail "a2 received $a2_rx frames, expected 50 (uplink VLAN 100) + 500 (a1)"
[ "$b1_rx" -eq 50 ] || fail "b1 received $b1_rx frames, expected the uplink's 50 of VLAN 200"
[ "$(port_ctr a2 tx_packets)" -eq 550 ] && [ "$(port_ctr b1 tx_packets)" -eq 50 ] ||
	fail "vsw sent a2 $(port_ctr a2 tx_packets) frames and b1 $(port_ctr b1 tx_packets), expected 550 and 50"
[ "$up_a1" -eq 500 ] || fail "the uplink got $up_a1 of a1's 500 broadcasts tagged 100"
[ -z "$other" ] || fail "the uplink got other frames: $other"
[ "$(port_ctr uplink drop_vlan_not_allowed)" -eq 50 ] ||
	fail "uplink drop_vlan_not_allowed = $(port_ctr uplink drop_vlan_not_allowed), expected 50 (VLAN 300)"
[ "$(port_ctr a1 rx_packets)" -eq 500 ] && [ "$(port_ctr a1 drops)" -eq 0 ] ||
	fail "a1: rx $(port_ctr a1 rx_packets), drops $(port_ctr a1 drops)"
stop_vsw
echo "PASS: docs/security.md's two tenants and trunk uplink are isolated as documented"
