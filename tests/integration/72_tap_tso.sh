#!/bin/bash
# Objective: TSO frames to an ethdev port whose PMD claims TCP_TSO but
# cannot do it for them: net_tap (DPDK's rte_gso cuts TCP over IPv4
# alone, and refuses a segment whose headers, Ethernet's included, and
# payload exceed the tap's MTU).  vsw runs in a network namespace of this
# test's own, so that the tap interface is born there.  A tso_peer guest
# sends TSO frames (19992 payload bytes, segment size 1448, IPv6 1428,
# IPv6 with a destination options header 1412, with a segment routing
# header (one segment left: the checksum's pseudo header names the final
# destination, not the IPv6 header's) 1388; 1502-byte segments) IPv4,
# IPv6, IPv6 with either extension header, then checksum-only frames the
# four ways, to a MAC nobody has: flooded to the tap port alone.  vsw
# takes only the tap's checksum offload (tx_offloads csum), cuts every
# TSO frame itself (14 segments each, 15 with an extension header), fills
# the checksums of the frames with an extension header itself (a PMD's
# pseudo header would count the extension header as TCP's: the tap
# computes from the fixed header), and the kernel's side of the tap sees
# every segment and frame, none over 1514 bytes, every checksum and
# payload byte right (tcpdump in the namespace, scapy).  Before: vsw took
# net_tap's TCP_TSO for both IP versions and handed the frames whole to a
# PMD that dropped them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_tso.sh"
command -v tcpdump >/dev/null || skip "tcpdump is not installed (tools/deps)"
/usr/bin/python3 -c 'import scapy' 2>/dev/null || skip "python3-scapy missing"
ls /usr/lib/x86_64-linux-gnu/dpdk/pmds-*/librte_net_tap.so* >/dev/null 2>&1 ||
	skip "DPDK net_tap PMD not installed"
[ -e /dev/net/tun ] || skip "no /dev/net/tun"
NS=vswtap$ID TAP=vtap$ID
ip netns add "$NS" 2>/dev/null || skip "cannot create network namespaces"
on_cleanup "ip netns del $NS 2>/dev/null"
ip netns exec "$NS" ip link set lo up
# no IPv6 of its own on the tap (MLD reports would be flooded back)
ip netns exec "$NS" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1

CFG=$(vhost_config a)
sed -i "s/^mbufs = 8191$/mbufs = 32767/" "$CFG"
cat >>"$CFG" <<EOC
[port t]
type = ethdev
devargs = net_tap0,iface=$TAP
EOC
# vsw in the namespace: its tap interface appears there (sockets and
# telemetry are paths, reachable from here)
# shellcheck disable=SC2046
vsw_launch "$PREFIX" "$T/vsw.log" ip netns exec "$NS" --- $(mem_args 512) \
	--lcores 0@0,1@1 -- -c "$CFG"
vsw_wait_up 60 || fail "vsw did not come up in $NS: $(tail -5 "$T/vsw.log")"
wait_for 30 "t up" port_is t up
ip netns exec "$NS" ip link show "$TAP" >/dev/null || fail "no $TAP in $NS"
jctl port t | jq -c '{type, offloads, tx_offloads}'
ctl_holds '.tx_offloads == ["csum"]' port t ||
	fail "t (net_tap): tx_offloads $(jctl port t | jq -c .tx_offloads), want only csum"
base=$(info_val mbufs_in_use)

bg "$T/tcpdump.out" "$T/tcpdump.err" ip netns exec "$NS" tcpdump -i "$TAP" -U -n -s 0 \
	-w "$T/t.pcap" "tcp port 5201 or (ip6 and (ip6[6] == 60 or ip6[6] == 43))"
TCPDUMP=$BG_PID
wait_for 20 "tcpdump listening" grep -q listening "$T/tcpdump.err"

A=$(mac_of 40)
send() { # ARGS...: tso_peer guest a sends, then exits
	peer a "$RUN/a.sock" -- --send --src "$A" --dst 02:00:00:00:00:99 "$@"
	peer_wait a || fail "tso_peer $*: exit $?: $(tail -3 "$T/a.log")"
}
N=20 P=19992
send --frames $N --payload $P --mss 1448
send --v6 --frames $N --payload $P --mss 1428
send --csum-only --frames $N --payload 1000
send --csum-only --v6 --frames $N --payload 1000
send --v6-ext --frames $N --payload $P --mss 1412
send --csum-only --v6-ext --frames $N --payload 1000
send --v6-srh --frames $N --payload $P --mss 1388
send --csum-only --v6-srh --frames $N --payload 1000
SEGS=$(( N * (14 + 14 + 15 + 15) ))
want_n=$(( SEGS + 4 * N )) want_pl=$(( 4 * N * P + 4 * N * 1000 ))
wait_for 20 "the tap's frames" ctr_at_least t tx_packets "$want_n"
sleep 1
kill -INT "$TCPDUMP"; reap_pid "$TCPDUMP" || true
jctl port t | jq -c '{tx_packets, tso_segmented, tso_segments, csum_filled, drops}'
[ "$(port_ctr a offload_rx)" -eq $(( 8 * N )) ] || fail "a: offload_rx $(port_ctr a offload_rx), want $(( 8 * N ))"
[ "$(port_ctr t tso_segmented)" -eq $(( 4 * N )) ] &&
	[ "$(port_ctr t tso_segments)" -eq "$SEGS" ] ||
	fail "t: tso_segmented $(port_ctr t tso_segmented), tso_segments $(port_ctr t tso_segments): vsw did not cut every TSO frame"
[ "$(port_ctr t csum_filled)" -eq $(( 2 * N )) ] ||
	fail "t: csum_filled $(port_ctr t csum_filled), want $(( 2 * N )) (the frames with an IPv6 extension header)"
[ "$(port_ctr t drops)" -eq 0 ] || fail "t: drops $(jctl port t)"
/usr/bin/python3 "$VSW_SRC/tests/integration/tcp_capture.py" "$T/t.pcap" "$want_n" "$want_pl" ||
	fail "the kernel's capture on the tap"
mbufs_back "$base"
stop_vsw
echo "PASS: TSO frames to net_tap cut by vsw (IPv4, IPv6, IPv6 with destination options or segment routing), checksums left to the tap (filled by vsw after an extension header) and right, every byte in the kernel"
