#!/bin/bash
# Objective: two vsw hosts whose overlay is driven by BGP EVPN from real
# FRR (zebra, bgpd from Debian), through vsw's kernel shadow devices
# (issue 23, item 2; docs/overlay.md). Each host is a network namespace
# H1, H2 with: vsw (its vxlan port `vx`, evpn = on, local-ip 10.96.0.N,
# on a data veth between the hosts), FRR peering over a second veth
# (10.95.0.N), and two guests, each a namespace on a vsw af_packet port:
# GNa in VLAN 100 (VNI 100, 192.168.100.N) and GNb in VLAN 200 (VNI 200,
# 192.168.200.N).
#   - vsw makes its shadow devices (vsb/vsx/vsl<VNI>), zebra finds the
#     VNIs, the BGP session comes up, and each vsw takes the other VTEP
#     into both VNIs' flood lists from zebra's entries;
#   - G1a pings G2a and G1b pings G2b across the hosts; G1a cannot reach
#     VNI 200 (192.168.200.2 from an address of its own in that subnet);
#   - each vsw writes its guests' MACs to its shadow bridge, zebra
#     advertises them (type-2), the other zebra installs them, and the
#     other vsw holds them at vx@VTEP;
#   - a MAC that moves from host 1 to host 2 (G1a's MAC taken over by a
#     guest on H2: a live migration) is announced by H2 and followed by
#     vsw 1; moved back, vsw 1 learns it with its first frame and vsw 2
#     follows through EVPN;
#   - H2's bgpd killed: vsw 1 drops H2's MACs and flood entries within
#     the BGP hold time (datacenter defaults: 9 s);
#   - vsw 1 restarted: it makes its shadows again, takes a leftover with
#     its alias, and relearns the remote state from zebra; on exit it
#     removes every shadow device and nothing else.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_veth.sh"

[ -x /usr/lib/frr/zebra ] && [ -x /usr/lib/frr/bgpd ] ||
	skip "FRR is not installed (tools/deps installs frr)"
id frr >/dev/null 2>&1 || skip "FRR's user frr does not exist"
ip netns add "vswe$ID-probe" 2>/dev/null || skip "cannot create network namespaces"
ip netns del "vswe$ID-probe"
ip link add "vxprobe$ID" type vxlan id 1 dstport 4789 2>/dev/null ||
	skip "the kernel cannot make vxlan devices"
ip link del "vxprobe$ID"

H=(x "vswe${ID}h1" "vswe${ID}h2")
# ns_new NS: an empty namespace, lo up, no IPv6
ns_new() {
	ip netns add "$1" || fail "ip netns add $1"
	on_cleanup "ip netns del $1 2>/dev/null"
	ip netns exec "$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip -n "$1" link set lo up
}
for i in 1 2; do ns_new "${H[$i]}"; done
# the BGP link and the data link (vsw's underlay) between the hosts
ip link add "eb1$ID" netns "${H[1]}" type veth peer name "eb2$ID" netns "${H[2]}" || fail "BGP veth"
ip link add "eu1$ID" netns "${H[1]}" type veth peer name "eu2$ID" netns "${H[2]}" || fail "data veth"
for i in 1 2; do
	j=$(( 3 - i ))
	ip -n "${H[$i]}" addr add "10.95.0.$i/24" dev "eb$i$ID"
	ip -n "${H[$i]}" link set "eb$i$ID" up
	ip -n "${H[$i]}" link set "eu$i$ID" up
	# zebra takes a remote VTEP's routes only when the kernel can reach
	# its address (here through the BGP link; in production the underlay)
	ip -n "${H[$i]}" route add "10.96.0.$j/32" via "10.95.0.$j"
	# guests: GNa (VLAN 100), GNb (VLAN 200), each on a veth into HN
	for g in a b; do
		gn=vswe${ID}g$i$g
		ns_new "$gn"
		ip link add "eg$i$g$ID" netns "${H[$i]}" type veth peer name "eg$i${g}p" netns "$gn" ||
			fail "guest veth $i$g"
		ip -n "${H[$i]}" link set "eg$i$g$ID" up
		ip -n "$gn" link set "eg$i${g}p" up
		ip -n "$gn" link set "eg$i${g}p" mtu 1450
		[ $g = a ] && net=100 || net=200
		ip -n "$gn" addr add "192.168.$net.$i/24" dev "eg$i${g}p"
	done
done

# frr_start N: zebra and bgpd in host N, vty sockets in $T/frrN
frr_start() {
	local i=$1 j=$(( 3 - $1 )) d=$T/frr$1
	chmod o+x "$T" # (FRR runs as frr: it must reach its directory)
	mkdir -p "$d"
	chown frr:frr "$d"
	cat >"$d/frr.conf" <<EOC
frr defaults datacenter
hostname h$i
router bgp 65000
 bgp router-id 10.95.0.$i
 no bgp default ipv4-unicast
 neighbor 10.95.0.$j remote-as 65000
 address-family l2vpn evpn
  neighbor 10.95.0.$j activate
  advertise-all-vni
 exit-address-family
EOC
	chown frr:frr "$d/frr.conf"
	for dmn in zebra bgpd; do
		ip netns exec "${H[$i]}" /usr/lib/frr/$dmn -d -u frr -g frr -f "$d/frr.conf" \
			-i "$d/$dmn.pid" -z "$d/zserv.api" --vty_socket "$d" \
			--log "file:$d/$dmn.log" || fail "FRR $dmn in host $i did not start"
		wait_until 10 test -s "$d/$dmn.pid" || fail "FRR $dmn in host $i: no pid file"
		# (daemonized: not our child; stopped by PID from its pid file)
		on_cleanup_early "kill $(cat "$d/$dmn.pid") 2>/dev/null"
	done
}
vty() { vtysh --vty_socket "$T/frr$1" -c "$2"; }

# vsw_host N: vsw in host N (file prefix ${PREFIX}hN)
declare -A HPID
vsw_host() {
	local i=$1 cfg=$T/vsw$1.conf
	mkdir -p "$T/run$i"
	cat >"$cfg" <<EOC
[switch]
run-dir = $T/run$i
mbufs = 8191
[port a]
type = ethdev
mtu = 1450
tag = 100
devargs = net_af_packet0,iface=eg${i}a$ID
[port b]
type = ethdev
mtu = 1450
tag = 200
devargs = net_af_packet1,iface=eg${i}b$ID
[port vx]
type = vxlan
devargs = net_af_packet2,iface=eu$i$ID
local-ip = 10.96.0.$i/24
vnis = 100:100 200:200
evpn = on
EOC
	# shellcheck disable=SC2046
	vsw_launch "${PREFIX}h$i" "$T/vsw$i.log" ip netns exec "${H[$i]}" --- \
		$(mem_args 256) --lcores "0@0,1@1" -- -c "$cfg"
	HPID[$i]=$VSW_PID
	vsw_wait_up 60 || { tail -20 "$T/vsw$i.log"; fail "vsw $i did not come up"; }
}
# vsw_host_stop N: SIGTERM, exit 0
vsw_host_stop() {
	VSW_PID=${HPID[$1]} VSW_PFX=${PREFIX}h$1
	vsw_stop TERM || fail "vsw $1 did not exit 0"
	HPID[$1]=
}
c() { local i=$1; shift; "$VSWCTL" --file-prefix "${PREFIX}h$i" --json "$@"; }
vtep_vnis() { c "$1" vteps vx | jq -r "[.[] | objects | select(.ip == \"$2\")][0].vnis // \"\""; }
fdb_at() { c "$1" fdb | jq -r ".entries[] | select(.mac == \"$2\") | .port + \"@\" + (.endpoint // \"\") + (if .static == 1 then \" static\" else \"\" end)"; }
# (remote MACs are dynamic entries vsw refreshes: a VM coming back is
# learned at once)
gmac() { ns_mac "vswe${ID}g$1" "eg$1p"; }
gping() { ns_ping "vswe${ID}g$1" "${@:2}"; }

note "vsw in both hosts makes its shadow devices; FRR comes up over them"
vsw_host 1
vsw_host 2
for i in 1 2; do
	wait_until 20 ip -n "${H[$i]}" link show vsx100 ||
		{ tail -20 "$T/vsw$i.log"; fail "host $i: no shadow vsx100"; }
	ip -n "${H[$i]}" -d link show vsx100 | grep -q "vxlan id 100 local 10.96.0.$i" ||
		fail "host $i: vsx100 is not VNI 100 from 10.96.0.$i"
done
ip -n "${H[1]}" -br link | grep vs
frr_start 1
frr_start 2
wait_until 60 eval 'vty 1 "show bgp l2vpn evpn summary json" | jq -e ".peers[\"10.95.0.2\"].state == \"Established\"" >/dev/null' ||
	{ vty 1 "show bgp l2vpn evpn summary"; fail "no EVPN session between the hosts"; }
vty 1 "show evpn vni"

note "each vsw takes the other VTEP into both VNIs' flood lists"
for i in 1 2; do
	j=$(( 3 - i ))
	wait_until 30 eval '[ "$(vtep_vnis '$i' 10.96.0.'$j')" = "100:100 200:200" ]' ||
		{ c "$i" vteps vx; ip -n "${H[$i]}" -d link show vsx100; fail "host $i: 10.96.0.$j not in both flood lists"; }
done
"$VSWCTL" --file-prefix "${PREFIX}h1" vteps vx

for i in 1 2; do
	j=$(( 3 - i ))
	wait_until 20 eval '[ "$(c '$i' vteps vx | jq -r "[.[] | objects | select(.ip == \"10.96.0.'$j'\")][0].next_hop_mac")" != unresolved ]' ||
		fail "host $i: 10.96.0.$j's MAC not resolved by ARP"
done

note "guests reach each other across the hosts, in their VNI only"
# (the first frames across, retried; the counters below if not)
wait_until 20 ip netns exec "vswe${ID}g1a" ping -c 1 -W 2 192.168.100.2 ||
	echo "G1a -> G2a: no answer in 20 s"
gping 1a -c 3 -i 0.2 -W 3 192.168.100.2 || { c 1 vteps vx; c 1 port a | jq -c .; c 1 port vx | jq -c .; c 2 vteps vx; fail "G1a -> G2a (VNI 100) failed"; }
gping 1b -c 3 -i 0.2 -W 3 192.168.200.2 || fail "G1b -> G2b (VNI 200) failed"
ip -n "vswe${ID}g1a" addr add 192.168.200.9/24 dev eg1ap
! gping 1a -I 192.168.200.9 -c 2 -i 0.2 -W 1 192.168.200.2 || fail "G1a (VLAN 100) reached G2b in VNI 200"

note "local MACs go to zebra, the other side installs them, its vsw holds them"
M2a=$(gmac 2a) M2b=$(gmac 2b)
for mac in "$M2a" "$M2b"; do
	wait_until 30 eval '[ "$(fdb_at 1 '"$mac"')" = "vx@10.96.0.2" ]' ||
		{ c 1 fdb | jq -c .; ip -n "${H[1]}" neigh show; bridge -n "${H[1]}" fdb show dev vsx100; fail "vsw 1: $mac not at vx@10.96.0.2"; }
done
bridge -n "${H[1]}" fdb show dev vsx100 | grep -i "$M2a" | grep -q "dst 10.96.0.2" ||
	fail "host 1's kernel: $M2a not installed by zebra"
"$VSWCTL" --file-prefix "${PREFIX}h1" fdb

note "a MAC moves from host 1 to host 2 (live migration) and vsw 1 follows"
M1a=$(gmac 1a)
[ "$(fdb_at 1 "$M1a")" = "a@" ] || fail "vsw 1: G1a's $M1a at '$(fdb_at 1 "$M1a")', want a@"
# G1a leaves host 1; G2a takes its MAC and speaks (ARP) on host 2
ip -n "vswe${ID}g1a" link set eg1ap down
ip -n "vswe${ID}g2a" link set eg2ap address "$M1a"
gping 2a -c 3 -i 0.5 -W 1 192.168.100.77 || true # (nobody: ARP only)
wait_until 30 eval '[ "$(fdb_at 1 '"$M1a"')" = "vx@10.96.0.2" ]' ||
	{ vty 1 "show evpn mac vni 100"; fail "vsw 1: moved $M1a at '$(fdb_at 1 "$M1a")', want vx@10.96.0.2"; }
gping 1b -c 2 -i 0.2 -W 3 192.168.200.2 || fail "G1b -> G2b after the move"

note "and back: host 1 learns it with its first frame, host 2 follows through EVPN"
# (this topology does not tell the entry kinds apart: the VM's first frame
# is a broadcast that host 2 hears too, so host 2 withdraws at once)
ip -n "vswe${ID}g2a" link set eg2ap down
ip -n "vswe${ID}g1a" link set eg1ap up
gping 1a -c 3 -i 0.5 -W 1 192.168.100.77 || true # (nobody: ARP only)
wait_until 10 eval '[ "$(fdb_at 1 '"$M1a"')" = "a@" ]' ||
	fail "vsw 1: $M1a back on host 1 at '$(fdb_at 1 "$M1a")', want a@"
wait_until 30 eval '[ "$(fdb_at 2 '"$M1a"')" = "vx@10.96.0.1" ]' ||
	{ vty 2 "show evpn mac vni 100"; fail "vsw 2: $M1a at '$(fdb_at 2 "$M1a")', want vx@10.96.0.1"; }

note "host 2's BGP session goes: vsw 1 forgets its MACs and flood entries"
kill "$(cat "$T/frr2/bgpd.pid")"
wait_until 30 eval '[ -z "$(vtep_vnis 1 10.96.0.2)" ]' ||
	{ c 1 vteps vx; fail "vsw 1: 10.96.0.2 still in a flood list after host 2's bgpd went"; }
wait_until 30 eval '[ -z "$(c 1 fdb | jq -r ".entries[] | select(.endpoint == \"10.96.0.2\") | .mac")" ]' ||
	{ c 1 fdb | jq -c .; fail "vsw 1: MACs behind 10.96.0.2 kept after host 2's bgpd went"; }
! gping 1b -c 2 -i 0.2 -W 1 192.168.200.2 || fail "G1b reached G2b with host 2 withdrawn"
# host 2's bgpd back
ip netns exec "${H[2]}" /usr/lib/frr/bgpd -d -u frr -g frr -f "$T/frr2/frr.conf" \
	-i "$T/frr2/bgpd.pid" -z "$T/frr2/zserv.api" --vty_socket "$T/frr2" \
	--log "file:$T/frr2/bgpd.log" || fail "bgpd in host 2 did not start again"
on_cleanup_early "kill \$(cat $T/frr2/bgpd.pid) 2>/dev/null"
wait_until 60 eval '[ "$(vtep_vnis 1 10.96.0.2)" = "100:100 200:200" ]' ||
	fail "vsw 1: 10.96.0.2 not back in the flood lists"

note "vsw 1 stops: its shadow devices go, nothing else; it restarts and relearns"
vsw_host_stop 1
left=$(ip -n "${H[1]}" -br link | awk '$1 ~ /^vs[bxl][0-9]/' | wc -l)
[ "$left" -eq 0 ] || { ip -n "${H[1]}" -br link; fail "host 1: $left shadow devices left after vsw exited"; }
for d in "eb1$ID" "eu1$ID" "eg1a$ID" "eg1b$ID"; do
	ip -n "${H[1]}" link show "$d" >/dev/null || fail "host 1: $d gone with vsw"
done
# a leftover of a crashed vsw (its alias) is taken over; another is not
ip -n "${H[1]}" link add vsb100 type bridge
ip -n "${H[1]}" link set vsb100 alias "vsw:vx"
vsw_host 1
wait_until 30 eval '[ "$(vtep_vnis 1 10.96.0.2)" = "100:100 200:200" ]' ||
	{ c 1 vteps vx; tail -20 "$T/vsw1.log"; fail "vsw 1 (restarted): 10.96.0.2 not in the flood lists"; }
grep -q "removing leftover vsb100" "$T/vsw1.log" || fail "vsw 1: the leftover vsb100 was not replaced"
wait_until 30 eval '[ "$(fdb_at 1 '"$M2b"')" = "vx@10.96.0.2" ]' ||
	fail "vsw 1 (restarted): $M2b not relearned from zebra"
gping 1b -c 2 -i 0.2 -W 3 192.168.200.2 || fail "G1b -> G2b after vsw 1 restarted"
c 1 vteps vx | jq -c '{evpn_remote_macs, evpn_flood_entries, evpn_local_writes, evpn_errors}'

vsw_host_stop 1
vsw_host_stop 2
echo "PASS: two vsw hosts with FRR EVPN: VNIs isolated, MACs advertised and followed, withdrawn with the session, relearned after a restart"
