#!/bin/bash
# Objective: jumbo frames between two kernel network stacks through vsw,
# every byte intact, and a port whose mtu is too small drops and counts
# them (issue 10 items 4, 5). Two namespaces, each joined to vsw by a veth
# pair whose host end is a vsw net_af_packet port (mtu 9000 everywhere):
#   - `ping -M do -s 8972` (9014-byte frames, DF) from A to B succeeds and
#     ping finds every payload byte right;
#   - 200 raw frames of 9014 bytes with vswgen's verify pattern, sent from
#     A's kernel interface, are captured in B and checked byte for byte;
#   - B's port at mtu 1500: the jumbo ping fails, B counts drop_too_big, a
#     1000-byte ping still passes; A's port at mtu 1500: drop_oversize on A;
#   - a net_af_packet port whose ring slots (framesz) cannot hold its mtu's
#     frames whole is refused at port-add and port-set (they would arrive
#     cut), and one whose blocksz is not a multiple of framesz at port-add
#     (DPDK 22.11's PMD would read its ring wrong);
#   - the boundary (review M1): the kernel puts a frame 66 bytes into its
#     slot and cuts it to what the slot holds, so with framesz 2048 mtu
#     1964 is refused, 1963 accepted, and raw frames of 1981 bytes arrive
#     in B whole while 1982..2000-byte ones are dropped as oversize (they
#     arrived cut to 1982 bytes and passed at mtu 1982 before);
#   - framesz 2096 (the PMD copies 2064 bytes, more than a switch mbuf)
#     gets a pool of its own instead of failing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_veth.sh"

python3 "$RAWFRAMES" selftest || fail "rawframes.py cannot tell a wrong frame"
NSA=vswj${ID}a NSB=vswj${ID}b
veth_ns "$NSA" "vjA$ID" 10.98.0.1/24 9000
veth_ns "$NSB" "vjB$ID" 10.98.0.2/24 9000
CFG=$T/vsw.conf
cat >"$CFG" <<EOC
[switch]
run-dir = $RUN
mbufs = 8191
port-add-drivers = net_af_packet
[port a]
type = ethdev
mtu = 9000
devargs = $(afp_devargs 0 "vjA$ID")
[port b]
type = ethdev
mtu = 9000
devargs = $(afp_devargs 1 "vjB$ID")
EOC
start_vsw "$CFG"
wait_for 30 "a up" port_is a up
wait_for 30 "b up" port_is b up
grep -q "own pool of big mbufs" "$T/vsw.log" || fail "no big-mbuf pool for framesz 9216"
base=$(info_val mbufs_in_use)

note "A pings B: 1000 bytes (ARP, learning), then 8972 bytes with DF"
ns_ping "$NSA" -c 1 -W 5 -s 1000 10.98.0.2 || fail "small ping A -> B failed"
rx0=$(port_ctr a rx_bytes)
ns_ping "$NSA" -M "do" -s 8972 -p a55a0ff0 -c 10 -i 0.2 -W 3 10.98.0.2 ||
	fail "jumbo ping A -> B failed"
grep -q " 10 received" "$T/ping.out" || fail "jumbo ping: not 10 replies"
[ $(( $(port_ctr a rx_bytes) - rx0 )) -ge $(( 10 * 9014 )) ] ||
	fail "a: $(( $(port_ctr a rx_bytes) - rx0 )) bytes in for 10 9014-byte requests"
jctl port b | jq -c '{rx_packets, tx_packets, drop_too_big, drop_oversize}'

note "200 raw 9014-byte frames A -> B, checked byte for byte in B"
raw_recv big "$NSB" "vjB${ID}p" 200 30 9014
ip netns exec "$NSA" python3 "$RAWFRAMES" send "vjA${ID}p" "$(ns_mac "$NSB" "vjB${ID}p")" 200 9014 ||
	fail "raw sender failed"
rc=0; reap_pid "$RAW_PID" || rc=$?
cat "$T/big.json"
[ "$rc" -eq 0 ] || fail "B did not receive 200 intact 9014-byte frames"

note "b at mtu 1500: the jumbo ping fails, b counts too_big"
ctl port-set b mtu=1500 || fail "port-set b mtu=1500"
big0=$(port_ctr b drop_too_big)
! ns_ping "$NSA" -M "do" -s 8972 -c 3 -i 0.2 -W 1 10.98.0.2 || fail "jumbo ping passed b at mtu 1500"
[ $(( $(port_ctr b drop_too_big) - big0 )) -ge 3 ] ||
	fail "b: $(( $(port_ctr b drop_too_big) - big0 )) too_big drops for 3 jumbo requests"
ns_ping "$NSA" -c 2 -i 0.2 -W 3 -s 1000 10.98.0.2 || fail "1000-byte ping failed with b at mtu 1500"

note "a at mtu 1500: A's jumbo requests are dropped at ingress (oversize)"
ctl port-set b mtu=9000 || fail "port-set b mtu=9000"
ctl port-set a mtu=1500 || fail "port-set a mtu=1500"
over0=$(port_ctr a drop_oversize)
! ns_ping "$NSA" -M "do" -s 8972 -c 3 -i 0.2 -W 1 10.98.0.2 || fail "jumbo ping passed a at mtu 1500"
[ $(( $(port_ctr a drop_oversize) - over0 )) -ge 3 ] ||
	fail "a: $(( $(port_ctr a drop_oversize) - over0 )) oversize drops for 3 jumbo requests"
ctl port-set a mtu=9000 || fail "port-set a mtu=9000"
ns_ping "$NSA" -M "do" -s 8972 -c 3 -i 0.2 -W 3 10.98.0.2 || fail "jumbo ping failed after mtu 9000 again"

note "framesz too small for the mtu: refused; the largest mtu's frames pass whole, longer ones are dropped, never cut"
# TPACKET_V2 puts a frame 66 bytes into its slot: framesz 2048 holds 1982
# bytes and cuts longer frames to exactly that, so its largest mtu is 1963
# (frames up to 1981 bytes; a cut one is then oversize)
veth_plain "vjC$ID" "vjc$ID"
ip link set "vjC$ID" mtu 9000
ip link set "vjc$ID" mtu 9000
C_DEV="net_af_packet2,iface=vjC$ID"
out=$(ctl port-add c type=ethdev mtu=9000 "devargs=$C_DEV" 2>&1) && fail "port-add c mtu=9000 with framesz 2048 accepted"
echo "$out"
# 9000 + 18 + 1 + 66 = 9085, rounded up to a multiple of 16
echo "$out" | grep -q "framesz >= 9088" || fail "port-add c: no framesz advice (9088)"
out=$(ctl port-add c type=ethdev mtu=1964 "devargs=$C_DEV" 2>&1) &&
	fail "port-add c mtu=1964 accepted with framesz 2048 (a cut frame would look whole)"
echo "$out"
ctl port-add c type=ethdev mtu=1963 "devargs=$C_DEV" || fail "port-add c mtu=1963 (2048 - 66 - 18 - 1) refused"
out=$(ctl port-set c mtu=1964 2>&1) && fail "port-set c mtu=1964 accepted with framesz 2048"
echo "$out"
[ "$(port_ctr c mtu)" -eq 1963 ] || fail "c: mtu changed by a refused port-set"
wait_for 30 "c up" port_is c up
over0=$(port_ctr c drop_oversize)
raw_recv edge "$NSB" "vjB${ID}p" 20 30 1981
for size in 1982 1996 2000; do
	python3 "$RAWFRAMES" send "vjc$ID" "$(ns_mac "$NSB" "vjB${ID}p")" 20 "$size" ||
		fail "raw sender ($size bytes) failed"
done
python3 "$RAWFRAMES" send "vjc$ID" "$(ns_mac "$NSB" "vjB${ID}p")" 20 1981 || fail "raw sender (1981 bytes) failed"
rc=0; reap_pid "$RAW_PID" || rc=$?
cat "$T/edge.json"
[ "$rc" -eq 0 ] || fail "B did not receive 20 intact 1981-byte frames from c, or got cut ones"
[ "$(jq .len_errors "$T/edge.json")" -eq 0 ] || fail "B got frames of the wrong length (cut by the kernel)"
[ $(( $(port_ctr c drop_oversize) - over0 )) -ge 60 ] ||
	fail "c: $(( $(port_ctr c drop_oversize) - over0 )) oversize drops for 60 frames of 1982..2000 bytes"
ctl --timeout 30 port-del c || fail "port-del c"
# framesz 2096: a slot holds 2030 bytes of frame, the PMD copies 2064 of it
# into one mbuf, more than the switch's mbufs hold: c needs its own pool
ctl port-add c type=ethdev mtu=1500 "devargs=$C_DEV,framesz=2096,blocksz=536576" ||
	fail "port-add c with framesz 2096 (more than a switch mbuf holds) refused"
ctl --timeout 30 port-del c || fail "port-del c (framesz 2096)"
out=$(ctl port-add c type=ethdev "devargs=$C_DEV,framesz=9216,blocksz=12288" 2>&1) &&
	fail "port-add c with blocksz not a multiple of framesz accepted"
echo "$out"
echo "$out" | grep -q "not a multiple of framesz" || fail "port-add c: wrong message"
# the PMD takes the last framesz (and atoi): vsw must not read another one
for bad in framesz=2048,framesz=9216; do
	out=$(ctl port-add c type=ethdev mtu=1500 "devargs=$C_DEV,$bad,blocksz=36864" 2>&1) &&
		fail "port-add c with $bad accepted"
	echo "$out"
	echo "$out" | grep -q "at most once, a decimal number" || fail "port-add c ($bad): wrong message"
done

sleep 1
used=$(info_val mbufs_in_use)
[ "$used" -eq "$base" ] || fail "mbufs in use $used, $base before"
stop_vsw
echo "PASS: 9014-byte frames cross vsw between two namespaces intact; too small an mtu drops and counts them"
