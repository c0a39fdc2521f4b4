#!/bin/bash
# Objective: VLANs per port with real Linux networking. Four veth pairs;
# one end of each is a vsw net_af_packet port, the other sits in a network
# namespace of its own, where scapy (tests/integration/vlan_frames.py)
# sends and captures crafted frames (the kernel has no 8021q module):
#   a, c: access ports of VLAN 10; b: access port of VLAN 20;
#   t: a trunk of VLANs 10 and 20 (the uplink).
# Checks: isolation both ways (a broadcast in VLAN 10 reaches only VLAN
# 10's ports, tagged 10 on the trunk, untagged on access ports), the
# trunk's list (VLAN 30 and untagged frames dropped), tagged,
# priority-tagged and double-tagged frames on access ports, a
# double-tagged frame from the trunk (one tag popped), per-VLAN learning,
# the drop counters, and a runtime `vswctl port-set c tag=20` while a
# stream a -> t keeps flowing without a loss.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
FR=$VSW_SRC/tests/integration/vlan_frames.py
ls /usr/lib/x86_64-linux-gnu/dpdk/pmds-*/librte_net_af_packet.so* >/dev/null 2>&1 ||
	skip "DPDK net_af_packet PMD not installed"
"$PY" -c 'import scapy.all' 2>/dev/null ||
	skip "python3-scapy is not installed for $PY (tools/deps installs it)"
command -v ip >/dev/null || skip "no ip (iproute2)"
ip netns add "vswvl$ID-probe" 2>/dev/null || skip "cannot create network namespaces"
ip netns del "vswvl$ID-probe"

PORTS="a b c t"
declare -A MAC=([a]=02:00:00:00:0a:01 [b]=02:00:00:00:0a:02 [c]=02:00:00:00:0a:03 [t]=02:00:00:00:0a:04)
BC=ff:ff:ff:ff:ff:ff
ns() { echo "vswvl$ID-$1"; }  # the namespace of port $1
dev() { echo "vl$ID$1"; }     # vsw's end of its veth (peer: "${dev}p")

# netns and veth go on any exit (after vsw and the sniffers stopped)
for p in $PORTS; do netns_veth "$(ns "$p")" "$(dev "$p")"; done

# the VLAN keys, as an operator writes them
vlan_keys() {
	case $1 in
	a) echo "tag = 10" ;;
	b) echo "tag = 20" ;;
	c) printf 'vlan-mode = access\ntag = 10\n' ;;
	t) printf 'vlan-mode = trunk\ntrunks = 10,20\n' ;;
	esac
}
CFG=$T/vsw.conf
{
	echo "[switch]"
	echo "run-dir = $RUN"
	echo "mbufs = 16383"
	i=0
	for p in $PORTS; do
		echo "[port $p]"
		echo "type = ethdev"
		vlan_keys "$p"
		echo "devargs = net_af_packet$i,iface=$(dev "$p")"
		i=$((i + 1))
	done
} >"$CFG"
start_vsw "$CFG"
for p in $PORTS; do wait_for 30 "port $p up" port_is "$p" up; done
[ "$(port_ctr c vlan_mode)" = access ] && [ "$(port_ctr c tag)" = 10 ] &&
	[ "$(port_ctr t trunks)" = 10,20 ] && [ "$(port_ctr a vlan_mode)" = access ] ||
	fail "port view: $(jctl port c | jq -c '{vlan_mode, tag, trunks}') $(jctl port t | jq -c '{vlan_mode, trunks}')"

for p in $PORTS; do
	bg "$T/sniff-$p.log" "$T/sniff-$p.log" ip netns exec "$(ns "$p")" \
		"$PY" "$FR" sniff "$(dev "$p")p" "$T/got-$p" "$T/ready-$p" "${MAC[$p]}"
done
for p in $PORTS; do wait_for 60 "sniffer in $(ns "$p")" test -e "$T/ready-$p"; done

# send PORT FRAME...: FRAME = DST/TAGS/MARKER[/COUNT[/MS]], from PORT's MAC
send() {
	local p=$1 f a=()
	shift
	for f in "$@"; do a+=("${MAC[$p]}/$f"); done
	ip netns exec "$(ns "$p")" "$PY" "$FR" send "$(dev "$p")p" "${a[@]}" ||
		fail "scapy could not send from $p"
}
# got PORT MARKER TAGS: PORT's namespace received MARKER with TAGS
got() { grep -qx "$2 $3" "$T/got-$1" 2>/dev/null; }
expect() { wait_for 20 "$2 at $1 with tags $3 (got: $(grep "^$2 " "$T/got-$1" 2>/dev/null | tr '\n' ' '))" got "$@"; }
# none MARKER PORT...: none of PORTs received MARKER (checked at the end)
NONE=()
none() { local m=$1; shift; NONE+=("$m:$*"); }

note "isolation: broadcasts stay in their VLAN"
send a "$BC/-/m1"
expect c m1 -
expect t m1 q10p0
none m1 b
send b "$BC/-/m2"
expect t m2 q20p0
none m2 a c
send t "$BC/q10/m3" "$BC/q20/m4"
expect a m3 -
expect c m3 -
expect b m4 -
none m3 b
none m4 a c

note "the trunk's list: VLAN 30 and untagged frames are not its"
send t "$BC/q30/m5" "$BC/-/m6"
none m5 a b c
none m6 a b c

note "access ports: tagged frames dropped, priority-tagged ones taken"
send a "$BC/q20/m7" "$BC/q10/m7b" "$BC/q0p3/m8"
expect c m8 -
expect t m8 q10p3
none m7 b c t
none m7b b c t

note "double-tagged: dropped on an access port, one tag popped from the trunk"
send a "$BC/q10,q20/m9" "$BC/q0,q20/m9b" "$BC/ad10,q20/m10"
send t "$BC/q10,q20/m11"
expect a m11 q20p0
expect c m11 q20p0
none m9 b c t
none m9b b c t
none m10 b c t
none m11 b

note "learning per VLAN: a's MAC is known in VLAN 10 only"
wait_for 10 "a's MAC learned in VLAN 10" ctl_holds \
	"[.entries[] | select(.mac == \"${MAC[a]}\" and .vlan == 10 and .port == \"a\")] | length == 1" fdb
ctl_holds "[.entries[] | select(.mac == \"${MAC[a]}\" and .vlan != 10)] | length == 0" fdb ||
	fail "a's MAC learned outside VLAN 10: $(jctl fdb | jq -c .entries)"
send c "${MAC[a]}/-/m12"
expect a m12 -
none m12 b t

note "run time: port-set c tag=20 while a streams to t"
send t "${MAC[a]}/q10/m13" # t's MAC known in VLAN 10: a -> t is unicast
expect a m13 -
bg "$T/stream.log" "$T/stream.log" ip netns exec "$(ns a)" "$PY" "$FR" send "$(dev a)p" \
	"${MAC[a]}/${MAC[t]}/-/s/300/10"
STREAM=$BG_PID
sleep 1
ctl port-set c tag=20 || fail "port-set c tag=20"
[ "$(port_ctr c tag)" = 20 ] || fail "c's tag is $(port_ctr c tag) after port-set"
reap_pid "$STREAM" || fail "stream: $(tail -3 "$T/stream.log")"
wait_for 20 "300 stream frames at t" test "$(grep -c '^s q10p0$' "$T/got-t")" -ge 300
n=$(grep -c '^s ' "$T/got-t")
[ "$n" -eq 300 ] || fail "t received $n stream frames, expected exactly 300"
send b "$BC/-/m14"
expect c m14 -
expect t m14 q20p0
send c "$BC/-/m15"
expect b m15 -
expect t m15 q20p0
none m14 a
none m15 a

# a list with commas through vswctl, and a refused combination
ctl port-set t trunks=10,20-21 || fail "port-set t trunks=10,20-21"
[ "$(port_ctr t trunks)" = 10,20-21 ] || fail "t's trunks: $(port_ctr t trunks)"
! ctl port-set t tag=5 2>"$T/refused" || fail "tag=5 on a trunk was taken"
grep -q 'expected 0 on a trunk port' "$T/refused" || fail "refusal: $(cat "$T/refused")"

sleep 2 # the last frames that should not arrive have had their chance
for e in "${NONE[@]}"; do
	m=${e%%:*}
	for p in ${e#*:}; do
		! grep -q "^$m " "$T/got-$p" || fail "$m reached $p: $(grep "^$m " "$T/got-$p")"
	done
done
jctl port a | jq -c '{rx_packets, drop_vlan_tagged_on_access, drop_vlan_qinq, drop_vlan_not_allowed}'
jctl port t | jq -c '{rx_packets, drop_vlan_tagged_on_access, drop_vlan_qinq, drop_vlan_not_allowed}'
[ "$(port_ctr a drop_vlan_tagged_on_access)" -eq 2 ] || fail "a: drop_vlan_tagged_on_access != 2"
[ "$(port_ctr a drop_vlan_qinq)" -eq 3 ] || fail "a: drop_vlan_qinq != 3"
[ "$(port_ctr t drop_vlan_not_allowed)" -eq 2 ] || fail "t: drop_vlan_not_allowed != 2"
stop_vsw
echo "PASS: VLAN isolation, trunk list, tagged/priority/double-tagged frames, per-VLAN learning and a runtime tag change over af_packet ports"
