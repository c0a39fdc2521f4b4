#!/bin/bash
# Objective: a Linux guest (QEMU/TCG, the kernel's virtio-net driver with
# TSO and checksum offload) sends TCP over IPv6 with a segment routing
# header that has a segment left (iproute2's "encap seg6 mode inline"):
# every frame goes to fd00::3, the next segment, while the final
# destination, the one its TCP checksum's pseudo header names, is
# fd00::2.  Both addresses are the kernel's in a network namespace behind
# a net_af_packet port (seg6_enabled: it processes the header and hands
# TCP the frame for fd00::2).  vsw fills in the checksums and cuts the
# TSO frames for that port itself (af_packet takes no offloads), with the
# final destination in the pseudo header: iperf3 in the namespace
# receives the stream and its TCP counts no checksum error, and tcpdump
# there sees the routing header.  Before: vsw dropped every such frame
# as bad_offload (its checksum request over an extension header); with
# the header's destination used instead, the namespace's TCP drops them
# all (InCsumErrors) and iperf3 cannot connect.
. "$(dirname "$0")/lib.sh"
PREFIX=vms$ID
PREFIXES=("$PREFIX")
. "$(dirname "$0")/lib_vm.sh"
. "$(dirname "$0")/lib_veth.sh"
command -v iperf3 >/dev/null || skip "iperf3 is not installed (tools/deps)"
command -v tcpdump >/dev/null || skip "tcpdump is not installed (tools/deps)"
command -v ethtool >/dev/null || skip "ethtool is not installed (tools/deps)"
note "kernel $VSW_VM_KERNEL, initrd $VSW_VM_INITRD"

NS=srv6$ID
veth_ns "$NS" "vswsr6$ID" 10.99.0.3/24 1500
IFP=vswsr6${ID}p
# IPv6 on the namespace's end (veth_ns turns it off), both addresses
# without duplicate detection, segment routing headers processed
ip netns exec "$NS" sysctl -qw net.ipv6.conf.all.disable_ipv6=0 \
	"net.ipv6.conf.$IFP.disable_ipv6=0" net.ipv6.conf.all.seg6_enabled=1 \
	"net.ipv6.conf.$IFP.seg6_enabled=1" || fail "sysctl in $NS"
ip -n "$NS" -6 addr add fd00::2/64 dev "$IFP" nodad || fail "fd00::2"
ip -n "$NS" -6 addr add fd00::3/64 dev "$IFP" nodad || fail "fd00::3"
# the kernel checksums and segments its own frames (the ACKs): what it
# leaves to the veth reaches vsw's af_packet socket as it is
ip netns exec "$NS" ethtool -K "$IFP" tx off tso off gso off >/dev/null ||
	fail "ethtool -K $IFP"
csum_errors() { # the namespace's TCP checksum errors (IPv4 and IPv6)
	ip netns exec "$NS" awk '/^Tcp:/ { if (!h) { for (i = 1; i <= NF; i++)
		if ($i == "InCsumErrors") c = i; h = 1 } else { print $c; exit } }' /proc/net/snmp
}

CFG=$(vhost_config vm0)
sed -i 's/^mbufs = 8191$/mbufs = 32767/' "$CFG"
cat >>"$CFG" <<EOC
[port up]
type = ethdev
devargs = $(afp_devargs 0 "vswsr6$ID")
EOC
start_vsw "$CFG"

bg "$T/tcpdump.out" "$T/tcpdump.err" ip netns exec "$NS" tcpdump -i "$IFP" -U -n -s 128 \
	-w "$T/ns.pcap" "ip6 and ip6[6] == 43"
TCPDUMP=$BG_PID
wait_for 20 "tcpdump listening" grep -q listening "$T/tcpdump.err"
bg "$T/ns-iperf.json" "$T/ns-iperf.err" ip netns exec "$NS" timeout 200 iperf3 -s -1 -J
NSI=$BG_PID
e0=$(csum_errors)

# the guest: fd00::1, a route to fd00::2 through fd00::3 (inline SRH),
# iperf3 to fd00::2 (again while the namespace's server is not up yet)
cmd="ip2 -6 addr add fd00::1/64 dev eth0 nodad &&
ip2 -6 route add fd00::2/128 encap seg6 mode inline segs fd00::3 dev eth0 &&
ip2 -6 route show fd00::2 &&
for i in 1 2 3 4 5 6; do iperf3 -6 -c fd00::2 -t 4 --connect-timeout 5000 && break;
if [ \$i = 6 ]; then exit 1; fi; sleep 1; done"
vm_start g1 --sock "$RUN/vm0.sock" --mac 52:54:00:00:06:01 --cmd "$cmd" \
	--timeout 280 --mem 256
wait_for 120 "vm0 up" port_is vm0 up
view=$(jctl port vm0 | jq -c '{offloads, guest_offloads}')
echo "$view"
rc=0; wait "$VM_PID" || rc=$?
reap_pid "$NSI" || true
sleep 1
kill -INT "$TCPDUMP"; reap_pid "$TCPDUMP" || true
grep -a -E 'VSW-(RESULT|ERROR)|encap|receiver|sender|error' "$T/g1.log" | head -20
for p in vm0 up; do
	jctl port "$p" | jq -c '{rx_packets, offload_rx, tx_packets, tso_segmented, tso_segments, csum_filled, drops, drop_bad_offload}'
done
e1=$(csum_errors)
srh=$(tcpdump -r "$T/ns.pcap" -n 2>/dev/null | wc -l)
ns_bytes=$(jq -r '.end.sum_received.bytes // 0' "$T/ns-iperf.json")
note "namespace: $ns_bytes bytes received, $srh frames with a routing header captured, TCP checksum errors $e0 -> $e1"

jq -e '.guest_offloads | index("host_tso6") and index("csum")' <<<"$view" >/dev/null ||
	fail "vm0: the Linux guest did not negotiate host_tso6 and csum: $view"
[ "$(port_ctr vm0 drop_bad_offload)" -eq 0 ] || fail "vm0: frames with the routing header refused as bad_offload"
[ "$(port_ctr vm0 offload_rx)" -gt 0 ] || fail "vm0: the guest sent no offloaded frame"
[ "$(( $(port_ctr up csum_filled) + $(port_ctr up tso_segmented) ))" -gt 0 ] ||
	fail "up: vsw neither filled a checksum nor cut a frame for the namespace"
[ "$srh" -gt 100 ] || fail "the namespace saw $srh frames with a routing header"
[ "$e1" -eq "$e0" ] || fail "the namespace's TCP counted $((e1 - e0)) checksum errors"
[ "$rc" -eq 0 ] || fail "guest: run-guest exit $rc: $(grep -a VSW-RESULT "$T/g1.log")"
[ "${ns_bytes%.*}" -gt 1000000 ] || fail "the namespace received $ns_bytes bytes"
stop_vsw
echo "PASS: a Linux guest's TCP over an SRv6 inline header (a segment left) through vsw, cut and checksummed for the final destination, taken by the kernel"
