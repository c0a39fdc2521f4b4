#!/bin/bash
# Objective: a Linux guest's offloaded TCP into and out of a VXLAN tunnel
# (issue 23, item 1: offloads and the tunnel). A QEMU/TCG guest on
# vhost-user port vm0 (offloads on: it negotiates TSO and checksum
# offload) runs iperf3 against iperf3 on the Linux kernel's own vxlan
# device (VNI 100) in namespace K, which vsw reaches through its vxlan
# port vx (net_af_packet underlay on a veth, untagged frames in VNI 100).
# The vxlan port offers no offload: vsw cuts the guest's TSO frames and
# fills their checksums before it puts the outer headers on them, and the
# kernel, which drops a bad inner or outer checksum, takes every segment
# (the transfers complete). Then the reverse (iperf3 -R): the kernel's
# frames decapsulated to the guest. Checked: the guest sent offloaded
# frames (vm0 offload_rx), vx cut them (tso_segmented), nothing over the
# overlay mtu left for the underlay (vx drops: too big, none), each way
# more than 1 MB, no tunnel drop by reason, no mbuf leaked. Throughput
# (TCG: relative only) is printed, never judged.
. "$(dirname "$0")/lib.sh"
PREFIX=vmx$ID
PREFIXES=("$PREFIX")
. "$(dirname "$0")/lib_vm.sh"
. "$(dirname "$0")/lib_veth.sh"
command -v iperf3 >/dev/null || skip "iperf3 is not installed (tools/deps)"
command -v ethtool >/dev/null || skip "ethtool is not installed (tools/deps)"
ip link add "vxprobe$ID" type vxlan id 1 dstport 4789 2>/dev/null ||
	skip "the kernel cannot make vxlan devices"
ip link del "vxprobe$ID"
note "kernel $VSW_VM_KERNEL, initrd $VSW_VM_INITRD"

# the underlay: vsw's af_packet port on vxu$ID, K's end 10.97.0.2 with a
# kernel VTEP for VNI 100 (192.168.100.2, the overlay mtu 1450)
NSK=vswvx${ID}k U=vxu$ID
veth_ns "$NSK" "$U" 10.97.0.2/24 1500
# (the kernel computes its UDP checksums itself: a partial one reaches a
# packet socket as it is; docs/overlay.md)
ip netns exec "$NSK" ethtool -K "${U}p" tx off >/dev/null || fail "ethtool -K ${U}p"
ip -n "$NSK" link add vx100 type vxlan id 100 local 10.97.0.2 remote 10.97.0.1 \
	dstport 4789 dev "${U}p" || fail "kernel vxlan device in $NSK"
ip -n "$NSK" addr add 192.168.100.2/24 dev vx100
ip -n "$NSK" link set vx100 up
kmtu=$(ip -n "$NSK" -j link show vx100 | jq '.[0].mtu')
note "K's vx100: mtu $kmtu"

CFG=$(vhost_config vm0)
sed -i 's/^mbufs = 8191$/mbufs = 32767/' "$CFG"
cat >>"$CFG" <<EOC
[port vx]
type = vxlan
devargs = net_af_packet0,iface=$U
local-ip = 10.97.0.1/24
remote-ips = 10.97.0.2
vni = 100
EOC
start_vsw "$CFG"
wait_for 30 "vx up" port_is vx up
# the baseline once vx has its VTEP's MAC: until control takes the ARP
# reply off the port's ARP ring, that mbuf counts as in use (a baseline
# of 1 taken then made the end's check fail with 0 in use, no leak)
resolved() { [ "$(jctl vteps vx | jq -r '.vtep_0.next_hop_mac')" != unresolved ]; }
wait_for 30 "vx to learn its VTEP's MAC" resolved
base=$(info_val mbufs_in_use)

# iperf TAG ARGS: iperf3 -s in K for one run, the guest on vm0 (CPU 0)
# running iperf3 -c ARGS to it; the guest's log in $T/TAG.log, K's JSON
# in $T/k-TAG.json, vm0's negotiated offloads while it ran in $T/TAG.view
iperf() {
	local tag=$1 g k rc=0
	shift
	bg "$T/k-$tag.json" "$T/k-$tag.err" ip netns exec "$NSK" timeout 250 iperf3 -s -1 -J
	k=$BG_PID
	"$VM/run-guest" --sock "$RUN/vm0.sock" --mac 52:54:00:00:01:01 --ip 192.168.100.1/24 \
		--log "$T/$tag.log" --timeout 280 --mem 256 --pidfile "$T/$tag.pid" \
		--cmd "vsw-waitpeer 192.168.100.2 200 && iperf3 -c 192.168.100.2 -t 4 $*" \
		2>"$T/$tag-err.log" &
	g=$!
	PIDS+=("$g")
	wait_for 20 "QEMU of the guest" test -s "$T/$tag.pid"
	PIDS+=("$(cat "$T/$tag.pid")")
	wait_for 120 "vm0 up" port_is vm0 up
	jctl port vm0 | jq -c '{offloads, tx_offloads, guest_offloads}' >"$T/$tag.view"
	cat "$T/$tag.view"
	wait "$g" || rc=$?
	reap_pid "$k" || true
	grep -a -E 'VSW-(RESULT|ERROR)|receiver|sender' "$T/$tag.log"
	[ "$rc" -eq 0 ] || fail "the guest ($tag): run-guest exit $rc: $(grep -a VSW-RESULT "$T/$tag.log")"
}

note "the guest sends to K (iperf3), its TSO frames cut and encapsulated by vsw"
iperf up
for p in vm0 vx; do
	jctl port "$p" | jq -c '{rx_packets, offload_rx, tx_packets, tso_segmented, tso_segments, csum_filled, drops, drop_too_big}'
done
jctl vteps vx | jq -c .
jq -e '.guest_offloads | index("host_tso4")' "$T/up.view" >/dev/null ||
	fail "vm0: the Linux guest did not negotiate host_tso4: $(cat "$T/up.view")"
[ "$(port_ctr vm0 offload_rx)" -gt 0 ] || fail "vm0: the guest sent no offloaded frame"
[ "$(port_ctr vx tso_segmented)" -gt 0 ] || fail "vx: no TSO frame cut before the tunnel"
k_bytes=$(jq -r '.end.sum_received.bytes // 0' "$T/k-up.json")
note "K's iperf3 received $k_bytes bytes from the guest through the tunnel"
[ "${k_bytes%.*}" -gt 1000000 ] || fail "K received $k_bytes bytes"
up_g=$(grep -a 'receiver' "$T/up.log" | grep -o '[0-9.]* [KMG]bits/sec' | head -1)

note "the reverse: K sends to the guest (iperf3 -R), decapsulated by vsw"
iperf down -R
k_sent=$(jq -r '.end.sum_sent.bytes // 0' "$T/k-down.json")
note "K's iperf3 sent $k_sent bytes to the guest through the tunnel"
[ "${k_sent%.*}" -gt 1000000 ] || fail "K sent $k_sent bytes"
# (K's retransmits, if any, are frames a TCG guest's full ring refused:
# vm0's drops say so)
jctl port vm0 | jq -c '{tx_packets, drops, drop_tx_full}'
jctl vteps vx | jq -c .
ctl_holds '[.[] | objects | select(.ip == "10.97.0.2")][0].rx_packets > 500' vteps vx ||
	fail "vx: fewer than 500 frames in from K"
down_g=$(grep -a 'receiver' "$T/down.log" | grep -o '[0-9.]* [KMG]bits/sec' | head -1)

# nothing dropped by the tunnel for a reason, nothing left behind
drops=$(jctl vteps vx | jq -c '.drops // {}')
note "vx drops by reason: $drops"
jq -e '[to_entries[] | select(.value > 0 and .key != "unresolved")] | length == 0' <<<"$drops" >/dev/null ||
	fail "vx dropped frames: $drops"
[ "$(port_ctr vm0 drop_bad_offload)" -eq 0 ] || fail "vm0: a Linux guest's offload refused"
[ "$(port_ctr vx drop_too_big)" -eq 0 ] || fail "vx: $(port_ctr vx drop_too_big) frames over the overlay mtu"
mbufs_home() { [ "$(info_val mbufs_in_use)" -eq "$base" ]; }
wait_until 20 mbufs_home || fail "mbufs in use $(info_val mbufs_in_use), $base before the guests"
note "iperf3 through the tunnel, TCG guest (relative only): guest to K ${up_g:-?}, K to guest ${down_g:-?}"
stop_vsw
echo "PASS: a Linux guest's TSO frames cut and tunnelled to the kernel's VTEP, and the kernel's tunnelled TCP delivered to the guest"
