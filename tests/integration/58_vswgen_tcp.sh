#!/bin/bash
# Objective: vswgen --tcp, the TCP stream of tools/bench's TCP block,
# through vsw. With offloads on, 64294-byte super-frames (44 segments of
# 1460) reach a receiver that asked for LRO whole (every frame 64294
# bytes, none cut by vsw) and one that did not (--no-lro) as 1514-byte
# segments, 44 per frame by vsw's own counters; vswgen's TCP payload
# count is exact either way. MSS-sized frames cross untouched. With
# offloads = off vswgen refuses to send super-frames (exit 3: no TSO on
# its port) and sends MSS-sized ones. Bad combinations are usage errors.
# The super-frames come in vsw's big mbufs (rx_pool big, big-mbufs); when
# those run short (VSW_TEST_BIG_MBUFS_HOLD holds all but 6) they come in
# the switch's mbufs instead (rx_big_short), still whole, and every mbuf
# of either pool comes back. A guest without TSO on a port whose mtu is
# raised to 9000 while it is connected gets big mbufs from then on, and
# the switch's again at 1500. With offloads = off for the switch, the big
# mbufs are made when the first port with offloads = on is added.
# Functional only: no rate is asserted.
. "$(dirname "$0")/lib.sh"

write_cfg() { # OFFLOADS [BIG-MBUFS]
	CFG=$(vhost_config a b)
	sed -i "s/^mbufs = 8191$/mbufs = 32767\noffloads = $1\nbig-mbufs = ${2:-1023}/" "$CFG"
}
# whole NAME [RX_PORT]: every frame NAME received is a 64294-byte
# super-frame, none cut by vsw for RX_PORT (default b)
whole() { # NAME [RX_PORT]
	local n rxp=${2:-b}
	n=$(guest_val "$1" rx_packets)
	[ "$n" -gt 0 ] || fail "$1: nothing received"
	[ "$(guest_val "$1" tcp.rx_len_max)" = 64294 ] || fail "$1: longest frame $(guest_val "$1" tcp.rx_len_max)"
	[ "$(guest_val "$1" tcp.payload_bytes)" = $((n * 64240)) ] ||
		fail "$1: payload $(guest_val "$1" tcp.payload_bytes) for $n frames of 64240"
	[ "$(port_ctr "$rxp" tso_segmented)" = 0 ] || fail "$1: vsw cut frames for an LRO receiver"
	[ "$(guest_val "$1" tcp.tx_payload_bytes)" = $(($(guest_val "$1" tx_packets) * 64240)) ] ||
		fail "$1: tx_payload_bytes $(guest_val "$1" tcp.tx_payload_bytes)"
}
TSO="--tcp 1460 --size 64294 --mbuf-size 16512 --duration 1"

write_cfg on
start_vsw "$CFG"
base=$(info_val mbufs_in_use)
[ "$(info_val big_mbufs_total)" = 1023 ] || fail "big_mbufs_total $(info_val big_mbufs_total), not 1023"
for name in whole cut; do
	ctl raw /vsw/stats/clear >/dev/null
	lro=
	[ $name = cut ] && lro=--no-lro
	# shellcheck disable=SC2086
	start_v2v $name $TSO $lro
	# a guest that negotiated TSO: its frames go to big mbufs (DPDK's
	# virtio PMD connects once with its first features, then again with
	# TSO: the port is up on the pool of the first connection meanwhile)
	wait_for 30 "$name: a's guest on big mbufs" ctl_holds '.rx_pool == "big"' port a
	reap_pid "$GEN" || fail "generator $name: $(tail -3 "$T/$name.log")"
	note "$name: $(jq -c '{tx_packets, rx_packets, tcp}' "$T/$name.json")"
	n=$(guest_val $name rx_packets)
	[ "$(guest_val $name tcp.tso)" = true ] || fail "$name: not sent as TSO frames"
	[ "$(port_ctr a offload_rx)" -gt 0 ] || fail "$name: vsw saw no TSO frame on a"
	note "$name: a: $(jctl port a | jq -c '{rx_big_bursts, rx_big_short}')"
	[ "$(port_ctr a rx_big_bursts)" -gt 0 ] && [ "$(port_ctr a rx_big_short)" = 0 ] ||
		fail "$name: a: rx_big_bursts $(port_ctr a rx_big_bursts), rx_big_short $(port_ctr a rx_big_short)"
	if [ $name = whole ]; then
		whole whole
	else
		[ "$n" -gt 44 ] || fail "cut: only $n segments received"
		[ "$(guest_val cut tcp.rx_len_max)" = 1514 ] || fail "cut: longest frame $(guest_val cut tcp.rx_len_max)"
		[ "$(guest_val cut tcp.payload_bytes)" = $((n * 1460)) ] ||
			fail "cut: payload $(guest_val cut tcp.payload_bytes) for $n segments of 1460"
		s=$(port_ctr b tso_segmented)
		[ "$s" -gt 0 ] && [ "$(port_ctr b tso_segments)" = $((s * 44)) ] ||
			fail "cut: b tso_segmented $s, tso_segments $(port_ctr b tso_segments)"
	fi
done
ctl raw /vsw/stats/clear >/dev/null
run_v2v mss --tcp 1460 --size 1514 --duration 1
[ "$(guest_val mss tcp.tso)" = false ] && [ "$(guest_val mss tcp.rx_len_max)" = 1514 ] ||
	fail "mss: $(jq -c .tcp "$T/mss.json")"
[ "$(port_ctr a offload_rx)" = 0 ] || fail "mss: frames without offloads counted as offload_rx"

note "a port-set mtu under a connected guest without TSO: the pool of its frames follows"
start_v2v mtu --tcp 1460 --size 1514 --duration 30
wait_for 30 "mtu: a up" port_is a up
wait_for 10 "mtu: a's guest (no TSO) on the switch's mbufs" ctl_holds '.rx_pool == "port"' port a
ctl port-set a mtu=9000 >/dev/null || fail "port-set a mtu=9000 failed"
wait_for 10 "mtu 9000: a's guest on big mbufs" ctl_holds '.rx_pool == "big"' port a
b0=$(port_ctr a rx_big_bursts)
wait_for 10 "mtu 9000: a's frames in big mbufs" ctr_at_least a rx_big_bursts $((b0 + 1))
ctl port-set a mtu=1500 >/dev/null || fail "port-set a mtu=1500 failed"
wait_for 10 "mtu 1500: a's guest back on the switch's mbufs" ctl_holds '.rx_pool == "port"' port a
kill -USR1 "$GEN" 2>/dev/null # (ends its trial early, reported)
reap_pid "$GEN" || fail "generator mtu: $(tail -3 "$T/mtu.log")"
[ "$(guest_val mtu rx_packets)" -gt 0 ] || fail "mtu: nothing received"
grep -q "a: mtu 9000: the guest's frames now come in big mbufs" "$T/vsw.log" ||
	fail "vsw did not log a's pool change"
mbufs_back "$base"
stop_vsw

note "big mbufs short: 250 of 256 held, the frames come in the switch's mbufs"
write_cfg on 256
VSW_TEST_BIG_MBUFS_HOLD=250 start_vsw "$CFG"
base=$(info_val mbufs_in_use)
[ "$(info_val big_mbufs_in_use)" = 250 ] || fail "big_mbufs_in_use $(info_val big_mbufs_in_use), 250 held"
# shellcheck disable=SC2086
run_v2v short $TSO
note "short: $(jq -c '{tx_packets, rx_packets}' "$T/short.json"); a: $(jctl port a | jq -c '{rx_pool, rx_big_bursts, rx_big_short}')"
whole short
[ "$(port_ctr a rx_big_short)" -gt 0 ] || fail "short: a: no burst counted in rx_big_short"
mbufs_back "$base"
stop_vsw

note "offloads = off: no TSO on vswgen's port"
write_cfg off
start_vsw "$CFG"
rc=0
# shellcheck disable=SC2086
start_v2v off $TSO
reap_pid "$GEN" || rc=$?
[ "$rc" = 3 ] && grep -q "offers no TSO" "$T/off.log" ||
	fail "offloads = off: vswgen exited $rc: $(tail -2 "$T/off.log")"
run_v2v offmss --tcp 1460 --size 1514 --duration 1
[ "$(guest_val offmss rx_packets)" -gt 0 ] || fail "offloads = off: MSS-sized frames not received"
[ "$(info_val big_mbufs_total)" = 0 ] || fail "offloads = off: big mbufs made at start"

note "offloads = off, then two ports added with offloads = on: the big mbufs are made then"
base=$(info_val mbufs_in_use)
for p in c d; do
	ctl port-add $p type=vhost-user "path=$RUN/$p.sock" offloads=on >/dev/null || fail "port-add $p"
done
[ "$(info_val big_mbufs_total)" = 1023 ] || fail "big_mbufs_total $(info_val big_mbufs_total) after port-add c offloads=on"
grep -q "1023 big mbufs" "$T/vsw.log" || fail "vsw did not log the big mbufs"
# shellcheck disable=SC2086
start_v2v late --ports c d $TSO
wait_for 30 "late: c's guest on big mbufs" ctl_holds '.rx_pool == "big"' port c
reap_pid "$GEN" || fail "generator late: $(tail -3 "$T/late.log")"
whole late d
[ "$(port_ctr c rx_big_bursts)" -gt 0 ] || fail "late: c: no burst in big mbufs"
mbufs_back "$base"
stop_vsw

# usage errors need no EAL and exit 2
gen_usage_errors "--tcp\|--size\|--no-lro" "--tcp 1460 --size 70000" \
	"--size 10000" "--no-lro" "--tcp 40" "--tcp 1460 --vlan 5" "--tcp 1460 --verify"
echo "PASS: vswgen --tcp: super-frames whole or cut by vsw, MSS frames untouched, exit 3 without TSO"
