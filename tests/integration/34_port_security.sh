#!/bin/bash
# Objective: port security and storm control with real Linux networking
# (issue 10 items 2, 3, 5). Two veth pairs; one end of each is a vsw
# net_af_packet ethdev port (a, b), the other lives in a network namespace
# this test creates (nsA, nsB). Port a has allowed-macs, allowed-ips and,
# later, storm-broadcast-pps. Frames crafted with scapy in nsA: the
# legitimate ones (its IPv4/IPv6 source, DHCP from 0.0.0.0, its ARP and an
# RFC 5227 probe, a neighbour advertisement for itself) reach nsB; spoofed
# source MACs, IPs (also behind a VLAN tag), ARP and ND (a target or a
# link-layer address not its own) are dropped with
# their reasons and never reach nsB. A ping between the namespaces' kernels
# passes. allowed-ips changes at run time. A broadcast storm from nsA is
# held to its limit over a measured interval (generous bounds).
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
FR=$(dirname "$0")/portsec_frames.py
ls /usr/lib/x86_64-linux-gnu/dpdk/pmds-*/librte_net_af_packet.so* >/dev/null 2>&1 ||
	skip "DPDK net_af_packet PMD not installed"
"$PY" -c 'import scapy.all' 2>/dev/null || skip "python3-scapy not installed for $PY (apt-get install python3-scapy)"
command -v ip >/dev/null || skip "iproute2 not installed"

NA=vswA$ID NB=vswB$ID VA=vsa$ID VB=vsb$ID
MA=02:00:00:00:09:01 MB=02:00:00:00:09:02
on_cleanup "ip netns del $NA 2>/dev/null; ip netns del $NB 2>/dev/null; ip link del $VA 2>/dev/null; ip link del $VB 2>/dev/null"
ip netns add "$NA" && ip netns add "$NB" || skip "cannot create network namespaces"
for s in "A $VA $NA $MA 10.9.0.1" "B $VB $NB $MB 10.9.0.2"; do
	set -- $s
	ip link add "$2" type veth peer name "vn$1" netns "$3" || fail "cannot create veth $2"
	# no IPv6 of the kernels' own (router solicitations, MLD): the
	# counters below hold only what the test sends
	sysctl -qw "net.ipv6.conf.$2.disable_ipv6=1"
	ip netns exec "$3" sysctl -qw "net.ipv6.conf.vn$1.disable_ipv6=1"
	ip netns exec "$3" ip link set "vn$1" address "$4"
	ip netns exec "$3" ip addr add "$5/24" dev "vn$1"
	ip netns exec "$3" ip link set "vn$1" up
	ip link set "$2" up
done

CFG=$T/vsw.conf
cat >"$CFG" <<EOC
[switch]
run-dir = $RUN
[port a]
type = ethdev
devargs = net_af_packet0,iface=$VA
allowed-macs = $MA
allowed-ips = 10.9.0.1 2001:db8:9::1
[port b]
type = ethdev
devargs = net_af_packet1,iface=$VB
EOC
start_vsw "$CFG"
wait_for 30 "both ports up" sh -c "[ \"\$($VSWCTL --file-prefix $PREFIX --json port a | jq -r .state)\" = up ] && [ \"\$($VSWCTL --file-prefix $PREFIX --json port b | jq -r .state)\" = up ]"
[ "$(jctl port a | jq -c .allowed_ips)" = '["10.9.0.1","2001:db8:9::1"]' ] ||
	fail "port a allowed_ips: $(jctl port a | jq -c .allowed_ips)"

note "a legitimate flow: ping nsA -> nsB"
out=$(ip netns exec "$NA" ping -c 10 -i 0.2 -w 20 10.9.0.2) || fail "ping through vsw failed: $out"
got=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' <<<"$out")
note "ping: $got of 10 replies"
[ "${got:-0}" -ge 8 ] || fail "only ${got:-0} of 10 pings answered"

# sniff_bg NAME: scapy capture on nsB's end into $T/NAME.json, in the
# background (SNIFF_PID), 120 s at most; returns once it captures
sniff_bg() {
	rm -f "$T/$1.ready" "$T/$1.stop"
	bg "$T/$1.json" "$T/$1.log" ip netns exec "$NB" "$PY" "$FR" sniff vnB 120 "$T/$1.ready" "$T/$1.stop"
	SNIFF_PID=$BG_PID
	wait_until 60 test -e "$T/$1.ready" || fail "the sniffer in $NB did not start: $(cat "$T/$1.log")"
}
# sniff_wait NAME: stop it (after what is still on its way) and reap it
sniff_wait() {
	touch "$T/$1.stop"
	reap_pid "$SNIFF_PID" || fail "the sniffer failed: $(cat "$T/$1.log")"
}
seen() { jq -r --arg c "$2" '.[$c] // 0' "$T/$1.json"; }
drop() { port_ctr a "drop_$1"; }

note "crafted frames from nsA, 5 of each case"
sniff_bg cap1
ip netns exec "$NA" "$PY" "$FR" send vnA "$MA" "$MB" 5 >"$T/sent1.json" 2>"$T/send1.log" ||
	fail "scapy send failed: $(cat "$T/send1.log")"
sleep 1
sniff_wait cap1
note "nsB saw: $(cat "$T/cap1.json")"
jctl port a | jq -c '{rx_packets, flooded, unicast, drop_src_not_allowed, drop_src_ip_not_allowed, drop_arp_spoof, drop_nd_spoof}'
for c in ok_ip4 ok_dhcp ok_arp ok_arp_probe ok_ip6 ok_na; do
	[ "$(seen cap1 $c)" -ge 4 ] || fail "legitimate $c: nsB saw $(seen cap1 $c) of 5"
done
for c in bad_mac bad_ip4 bad_ip4_tagged bad_ip6 bad_arp_ip bad_arp_mac bad_na bad_na_lladdr; do
	[ "$(seen cap1 $c)" -eq 0 ] || fail "spoofed $c reached nsB ($(seen cap1 $c) times)"
done
[ "$(drop src_not_allowed)" -eq 5 ] || fail "drop_src_not_allowed $(drop src_not_allowed), expected 5"
[ "$(drop src_ip_not_allowed)" -eq 15 ] || fail "drop_src_ip_not_allowed $(drop src_ip_not_allowed), expected 15"
[ "$(drop arp_spoof)" -eq 10 ] || fail "drop_arp_spoof $(drop arp_spoof), expected 10"
[ "$(drop nd_spoof)" -eq 10 ] || fail "drop_nd_spoof $(drop nd_spoof), expected 10"

note "allowed-ips at run time: 10.9.0.66 becomes the port's too"
ctl port-set a allowed-ips="10.9.0.1 10.9.0.66 2001:db8:9::1" >/dev/null || fail "port-set allowed-ips failed"
[ "$(jctl port a | jq -r '.allowed_ips | join(" ")')" = "10.9.0.1 10.9.0.66 2001:db8:9::1" ] || fail "allowed_ips not changed"
sniff_bg cap2
ip netns exec "$NA" "$PY" "$FR" send vnA "$MA" "$MB" 5 bad_ip4 bad_ip6 >/dev/null 2>"$T/send2.log" ||
	fail "scapy send failed: $(cat "$T/send2.log")"
sleep 1
sniff_wait cap2
[ "$(seen cap2 bad_ip4)" -ge 4 ] || fail "10.9.0.66 still refused after port-set (nsB saw $(seen cap2 bad_ip4))"
[ "$(seen cap2 bad_ip6)" -eq 0 ] || fail "2001:db8:9::66 reached nsB"
[ "$(drop src_ip_not_allowed)" -eq 20 ] || fail "drop_src_ip_not_allowed $(drop src_ip_not_allowed), expected 20"

note "storm control off: broadcasts pass unlimited; how fast can the sender go?"
st0=$(drop storm_broadcast) fl0=$(port_ctr a flooded)
ip netns exec "$NA" "$PY" "$FR" storm vnA "$MA" 1 >"$T/free.json" 2>"$T/free.log" ||
	fail "storm sender failed: $(cat "$T/free.log")"
sleep 1
[ "$(drop storm_broadcast)" -eq "$st0" ] || fail "storm drops counted with no limit set"
free=$(jq -n "$(jq .sent "$T/free.json") / $(jq .seconds "$T/free.json") | floor")
note "the sender offers $free pps; vsw passed $(( $(port_ctr a flooded) - fl0 ))"
# The limit: an eighth of what the sender offers (at most 200 pps), so
# that a slow machine (the ASan build, a loaded CI) still overruns it by
# far instead of skipping this part.
LIMIT=$((free / 8)) SECS=4
[ "$LIMIT" -le 200 ] || LIMIT=200
[ "$LIMIT" -ge 20 ] || fail "the raw-socket sender offers only $free pps: cannot test a limit of 20 pps or more"

note "broadcast storm from nsA, storm-broadcast-pps = $LIMIT, for $SECS s"
ctl port-set a storm-broadcast-pps=$LIMIT >/dev/null || fail "port-set storm-broadcast-pps failed"
[ "$(port_ctr a storm_broadcast_pps)" -eq $LIMIT ] || fail "storm_broadcast_pps not shown"
sleep 1 # a full bucket: what passes is at most LIMIT * SECS + its depth
fl0=$(port_ctr a flooded) st0=$(drop storm_broadcast)
sniff_bg cap3
ip netns exec "$NA" "$PY" "$FR" storm vnA "$MA" $SECS >"$T/storm.json" 2>"$T/storm.log" ||
	fail "storm sender failed: $(cat "$T/storm.log")"
sleep 1
sniff_wait cap3
sent=$(jq .sent "$T/storm.json") took=$(jq .seconds "$T/storm.json")
passed=$(( $(port_ctr a flooded) - fl0 )) stormed=$(( $(drop storm_broadcast) - st0 ))
rx=$(seen cap3 storm)
note "sent $sent in ${took}s; vsw passed $passed, dropped $stormed (storm_broadcast); nsB saw $rx"
offered=$(jq -n "$sent / $took | floor")
[ "$offered" -ge $((LIMIT * 2)) ] ||
	fail "the sender offered $offered pps during the trial, under twice the $LIMIT pps limit (it offered $free pps just before)"
lo=$(jq -n "$LIMIT * $took * 0.5 | floor") hi=$(jq -n "$LIMIT * $took * 1.5 + 64 | floor")
[ "$passed" -ge "$lo" ] && [ "$passed" -le "$hi" ] || fail "$passed broadcasts passed in ${took}s; expected $lo..$hi for $LIMIT pps"
[ "$stormed" -gt 0 ] || fail "no storm_broadcast drops counted"
[ "$rx" -le "$passed" ] && [ "$rx" -ge $((passed * 8 / 10)) ] || fail "nsB saw $rx storm frames, vsw passed $passed"

note "storm control off again: broadcasts pass unlimited"
ctl port-set a storm-broadcast-pps=0 >/dev/null || fail "port-set storm-broadcast-pps=0 failed"
st0=$(drop storm_broadcast)
ip netns exec "$NA" "$PY" "$FR" storm vnA "$MA" 1 >/dev/null 2>&1 || fail "storm sender failed"
sleep 1
[ "$(drop storm_broadcast)" -eq "$st0" ] || fail "storm drops counted with the limit off"
stop_vsw
echo "PASS: spoofed MACs, IPs, ARP and ND dropped and counted, legitimate traffic passes, a broadcast storm held to its limit"
