#!/bin/bash
# Objective: vsw as a VXLAN VTEP (issue 23, item 1) against the Linux
# kernel's own VXLAN, the real remote VTEP. Three namespaces:
#   K: the kernel VTEP, 10.97.0.2 on the underlay veth whose other end is
#      vsw's vxlan port `vx` (net_af_packet, local-ip 10.97.0.1/24), with
#      vxlan devices for VNI 100 (192.168.100.2) and VNI 200
#      (192.168.200.2);
#   A: a host on vsw access port a, VLAN 100 (192.168.100.1);
#   B: a host on vsw access port b, VLAN 200 (192.168.200.1, and
#      192.168.100.9 to try to reach VNI 100 from VLAN 200).
# vx carries VLAN 100 as VNI 100 and VLAN 200 as VNI 200 (vnis).
#   - vsw resolves K's underlay MAC by ARP and answers K's ARP for
#     10.97.0.1 (`vswctl vteps vx`);
#   - A pings 192.168.100.2 and B 192.168.200.2 through VXLAN both ways:
#     the kernel takes vsw's outer headers (it drops a bad IPv4 checksum,
#     a wrong UDP length or VNI) and vsw takes the kernel's;
#   - head-end replication and VNI isolation: 30 broadcasts from B reach
#     K's VNI 200 device and not its VNI 100 one, and B's ping to
#     192.168.100.2 fails;
#   - hostile underlay frames (tests/integration/vxlan_frames.py, scapy):
#     unknown VNI, no I flag, short inner frame, unknown source VTEP,
#     tagged inner frame, bad IP checksum, fragment, IP length beyond the
#     frame, bad UDP checksum, another UDP port, IPv6: each kind counted
#     under its own drop reason, none forwarded;
#   - a bad vxlan port-add names the key; no mbuf leaks.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_veth.sh"

PY=/usr/bin/python3
"$PY" -c 'import scapy.all, scapy.layers.vxlan' 2>/dev/null ||
	skip "python3-scapy is not installed for $PY (tools/deps installs it)"
ip link add "vxprobe$ID" type vxlan id 1 dstport 4789 2>/dev/null ||
	skip "the kernel cannot make vxlan devices"
ip link del "vxprobe$ID"

NSK=vswx${ID}k NSA=vswx${ID}a NSB=vswx${ID}b
U=vxU$ID
veth_ns "$NSK" "$U" 10.97.0.2/24 1500
veth_ns "$NSA" "vxA$ID" 192.168.100.1/24 1450
veth_ns "$NSB" "vxB$ID" 192.168.200.1/24 1450
ip -n "$NSB" addr add 192.168.100.9/24 dev "vxB${ID}p"
for vni in 100 200; do
	ip -n "$NSK" link add "vx$vni" type vxlan id "$vni" local 10.97.0.2 \
		remote 10.97.0.1 dstport 4789 dev "${U}p" || fail "kernel vxlan $vni"
	ip -n "$NSK" addr add "192.168.$vni.2/24" dev "vx$vni"
	ip -n "$NSK" link set "vx$vni" up
done
# K's veth leaves UDP checksums to an offload that never happens on the
# way to a packet socket (the datagram arrives with the pseudo-header sum
# alone; a NIC would finish it): K computes them itself
command -v ethtool >/dev/null || skip "ethtool is not installed (tools/deps)"
ip netns exec "$NSK" ethtool -K "${U}p" tx off >/dev/null || fail "ethtool -K ${U}p tx off"
# (a strict host: K answers ARP only on the device that has the address)
ip netns exec "$NSK" sysctl -qw net.ipv4.conf.all.arp_ignore=1
CFG=$T/vsw.conf
cat >"$CFG" <<EOC
[switch]
run-dir = $RUN
mbufs = 8191
port-add-drivers = net_af_packet
[port a]
type = ethdev
mtu = 1450
tag = 100
devargs = net_af_packet0,iface=vxA$ID
[port b]
type = ethdev
mtu = 1450
tag = 200
devargs = net_af_packet1,iface=vxB$ID
[port vx]
type = vxlan
devargs = net_af_packet2,iface=$U
local-ip = 10.97.0.1/24
remote-ips = 10.97.0.2
vnis = 100:100 200:200
EOC
start_vsw "$CFG"
for p in a b vx; do wait_for 30 "$p up" port_is "$p" up; done
ctl port vx | grep -E "^(mtu|trunks|vlan_mode):" || true
[ "$(port_ctr vx mtu)" -eq 1450 ] || fail "vx: mtu $(port_ctr vx mtu), want the overlay default 1450"
base=$(info_val mbufs_in_use)

# vtep IP: the remote VTEP's object in `vswctl vteps vx`
vtep() { jctl vteps vx | jq -c "[.[] | objects | select(.ip == \"$1\")][0]"; }

note "vsw resolves the kernel VTEP's MAC by ARP"
KMAC=$(ns_mac "$NSK" "${U}p")
wait_until 20 ctl_holds "[.[] | objects | select(.ip == \"10.97.0.2\")][0].next_hop_mac == \"$KMAC\"" vteps vx || { ctl vteps vx; fail "10.97.0.2 not resolved to $KMAC"; }
ctl vteps vx

note "A pings the kernel in VNI 100, B in VNI 200, through VXLAN both ways"
ns_ping "$NSA" -c 5 -i 0.2 -W 3 192.168.100.2 || { jctl port a | jq -c .; jctl port vx | jq -c .; ctl vteps vx; fail "A -> 192.168.100.2 (VNI 100) failed"; }
ns_ping "$NSB" -c 5 -i 0.2 -W 3 192.168.200.2 || fail "B -> 192.168.200.2 (VNI 200) failed"
ns_ping "$NSA" -c 3 -i 0.2 -W 3 -s 1422 -M do 192.168.100.2 ||
	fail "A -> K with 1450-byte packets (the overlay mtu, DF) failed"
# K learned vsw's MAC from vsw's own request: forget it, so that K asks
ip -n "$NSK" neigh flush dev "${U}p"
ns_ping "$NSA" -c 2 -i 0.2 -W 3 192.168.100.2 || fail "A -> 192.168.100.2 after K forgot vsw's MAC"
jctl vteps vx | jq -c '{arp_in, arp_replies, arp_requests}'
vtep 10.97.0.2
[ "$(vtep 10.97.0.2 | jq .rx_packets)" -ge 15 ] || fail "vx: fewer than 15 frames in from the kernel VTEP"
[ "$(vtep 10.97.0.2 | jq .tx_packets)" -ge 15 ] || fail "vx: fewer than 15 frames out to the kernel VTEP"
[ "$(jctl vteps vx | jq .arp_replies)" -ge 1 ] || fail "vx: the kernel's ARP for 10.97.0.1 was never answered"

note "VNI isolation: B's broadcasts reach VNI 200 only; VLAN 200 cannot reach VNI 100"
k100=$(ip -n "$NSK" -j -s link show vx100 | jq '.[0].stats64.rx.packets')
k200=$(ip -n "$NSK" -j -s link show vx200 | jq '.[0].stats64.rx.packets')
ip netns exec "$NSB" python3 "$RAWFRAMES" send "vxB${ID}p" ff:ff:ff:ff:ff:ff 30 200 ||
	fail "raw broadcast sender failed"
sleep 1
d100=$(( $(ip -n "$NSK" -j -s link show vx100 | jq '.[0].stats64.rx.packets') - k100 ))
d200=$(( $(ip -n "$NSK" -j -s link show vx200 | jq '.[0].stats64.rx.packets') - k200 ))
echo "kernel VTEP: VNI 100 +$d100, VNI 200 +$d200"
[ "$d200" -ge 30 ] || fail "VNI 200 got $d200 of B's 30 broadcasts"
[ "$d100" -eq 0 ] || fail "VNI 100 got $d100 of B's broadcasts (VLAN 200)"
! ns_ping "$NSB" -I 192.168.100.9 -c 2 -i 0.2 -W 1 192.168.100.2 ||
	fail "B (VLAN 200) reached 192.168.100.2 in VNI 100"

note "hostile underlay frames: each kind dropped under its reason"
flooded=$(port_ctr vx flooded)
VMAC=$(cat "/sys/class/net/$U/address")
"$PY" "$VSW_SRC/tests/integration/vxlan_frames.py" list >"$T/kinds" || fail "vxlan_frames.py list"
while read -r kind reason; do
	before=$(jctl vteps vx | jq ".drops.$reason")
	ip netns exec "$NSK" "$PY" "$VSW_SRC/tests/integration/vxlan_frames.py" send "${U}p" \
		"$VMAC" 10.97.0.1 10.97.0.2 5 "$kind" 2>/dev/null || fail "vxlan_frames.py send $kind failed"
	# (not_ipv4: K's kernel may add frames of its own; at least ours)
	if [ "$reason" = not_ipv4 ]; then
		wait_until 10 ctl_holds ".drops.$reason >= $before + 5" vteps vx ||
			fail "$kind: drop $reason +$(( $(jctl vteps vx | jq ".drops.$reason") - before )), want 5"
	else
		wait_until 10 ctl_holds ".drops.$reason == $before + 5" vteps vx ||
			fail "$kind: drop $reason +$(( $(jctl vteps vx | jq ".drops.$reason") - before )), want 5"
	fi
	echo "$kind: 5 frames, drop $reason +5"
done <"$T/kinds"
jctl vteps vx | jq -c .drops
[ "$(port_ctr vx flooded)" -eq "$flooded" ] || fail "vx flooded a hostile frame"

note "a bad vxlan port-add names its key"
veth_plain "vxC$ID" "vxc$ID"
out=$(ctl port-add v2 type=vxlan local-ip=10.97.0.300/24 vni=5 "devargs=net_af_packet3,iface=vxC$ID" 2>&1) &&
	fail "port-add with local-ip 10.97.0.300 accepted"
echo "$out"
echo "$out" | grep -q 'local-ip = "10.97.0.300/24": expected a unicast IPv4 address' || fail "port-add: wrong message"
out=$(ctl port-add v2 type=vxlan local-ip=10.97.0.1/24 remote-ips=10.8.0.1 vni=5 "devargs=net_af_packet3,iface=vxC$ID" 2>&1) &&
	fail "port-add with a remote outside the subnet and no gateway accepted"
echo "$out"
echo "$out" | grep -q 'gateway' || fail "port-add: no word of the gateway"

sleep 1
used=$(info_val mbufs_in_use)
[ "$used" -eq "$base" ] || fail "mbufs in use $used, $base before"
stop_vsw
echo "PASS: vsw and the kernel's VXLAN carry two VNIs both ways, isolated; hostile underlay frames dropped by reason"
