#!/bin/bash
# Objective: TSO and checksum offload through vsw with real virtio
# drivers (DPDK's virtio PMD in tso_peer guests) and a kernel interface.
# Guest A sends TCP frames of 19992 payload bytes marked for TSO (segment
# size 1448, IPv6 1428, IPv6 with a destination options header 1412),
# IPv4, IPv6, then IPv6 with the extension header, first to a MAC nobody
# has (flooded to every output at once) then to B's. B negotiated
# GUEST_TSO4/6 (it asked for LRO): it gets each frame whole.  C did not:
# vsw cuts every frame into 14 segments (15 with the extension header)
# with their own headers and checksums.  The kernel behind the
# net_af_packet port E (a veth into a namespace, no NIC offloads) gets
# the same segments, captured by tcpdump and checked by scapy.  Every
# receiver checks every payload byte against its TCP sequence number and
# every checksum it was not told to leave.  Then checksum-only streams
# (1000-byte frames, the checksum left to the host; IPv4, then IPv6 with
# the extension header) are filled in for C and E and left for B.  Last, offloads = off: A is offered no TSO at all.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_veth.sh"
. "$(dirname "$0")/lib_tso.sh"
command -v tcpdump >/dev/null || skip "tcpdump is not installed (tools/deps)"
/usr/bin/python3 -c 'import scapy' 2>/dev/null || skip "python3-scapy missing"

netns_veth tso0 vswtso0
ip netns exec tso0 ethtool -K vswtso0p gro off lro off >/dev/null 2>&1 || true

write_cfg() { # OFFLOADS
	CFG=$(vhost_config a b c)
	sed -i "s/^mbufs = 8191$/mbufs = 32767\noffloads = $1/" "$CFG"
	cat >>"$CFG" <<-EOC
	[port e]
	type = ethdev
	devargs = $(afp_devargs 0 vswtso0)
	EOC
}
A=$(mac_of 40); B=$(mac_of 41); C=$(mac_of 42)

write_cfg on
start_vsw "$CFG"
base=$(info_val mbufs_in_use)
# (a filter's "tcp" does not look past an IPv6 extension header)
bg "$T/tcpdump.out" "$T/tcpdump.err" ip netns exec tso0 tcpdump -i vswtso0p -U -n -s 0 \
	-w "$T/e.pcap" "tcp port 5201 or (ip6 and ip6[6] == 60)"
TCPDUMP=$BG_PID
wait_for 20 "tcpdump listening" grep -q listening "$T/tcpdump.err"
peer b "$RUN/b.sock" -- --recv --lro --seconds 25 --src "$B"
peer c "$RUN/c.sock" -- --recv --seconds 25 --src "$C"
for p in b c; do wait_for 60 "$p up" port_is "$p" up; done
wait_for 30 "b and c learned" sh -c "$VSWCTL --file-prefix $PREFIX --json fdb | jq -e '[.entries[] | select(.mac == \"$B\" or .mac == \"$C\")] | length == 2' >/dev/null"
jctl port b | jq -c '{offloads, tx_offloads, guest_offloads}'
jctl port c | jq -c '{offloads, tx_offloads, guest_offloads}'
ctl_holds '.guest_offloads | index("guest_tso4") and index("guest_tso6")' port b ||
	fail "b (LRO asked) did not negotiate GUEST_TSO4/6"
ctl_holds '.tx_offloads == ["csum", "tso4", "tso6"]' port b || fail "b: tx_offloads"
ctl_holds '.guest_offloads | index("guest_tso4") | not' port c || fail "c negotiated GUEST_TSO4"
ctl_holds '.tx_offloads == []' port c || fail "c: tx_offloads not empty"
ctl_holds '.tx_offloads == [] and .offloads == "on"' port e || fail "e (af_packet): tx_offloads"

# 19992 payload bytes: 14 segments of 1448 (IPv4) or of 1428 (IPv6), 15
# of 1412 (IPv6 and 16 bytes of extension header), frames of 1502 bytes
declare -A D0 # drops before A's frames (an announcement may meet a ring not yet up)
for p in a b c e; do D0[$p]=$(port_ctr "$p" drops); done
N=50 P=19992
for v in "" --v6 --v6-ext; do
	case $v in
	--v6) mss=1428 ;;
	--v6-ext) mss=1412 ;;
	*) mss=1448 ;;
	esac
	for dst in 02:00:00:00:00:99 "$B"; do
		note "A sends $N TSO frames ($P B, mss $mss) ${v:-ipv4} to $dst"
		peer a "$RUN/a.sock" -- --send $v --frames $N --payload $P --mss $mss \
			--src "$A" --dst "$dst"
		peer_wait a || fail "sender a: $(cat "$T/a.json" "$T/a.log" | tail -3)"
	done
done
for v in "" --v6-ext; do
	note "A sends $N checksum-only frames (1000 B) ${v:-ipv4} to a MAC nobody has"
	peer a "$RUN/a.sock" -- --send --csum-only $v --frames $N --payload 1000 \
		--src "$A" --dst 02:00:00:00:00:99
	peer_wait a || fail "sender a (csum $v): $(tail -3 "$T/a.log")"
done
sleep 2
for p in a b c e; do
	jctl port "$p" | jq -c '{rx_packets, offload_rx, tx_packets, tso_segmented, tso_segments, csum_filled, drops}'
done
peer_wait b || fail "receiver b failed"
peer_wait c || fail "receiver c failed"
kill -INT "$TCPDUMP"; reap_pid "$TCPDUMP" || true
for p in b c; do cat "$T/$p.json"; done

# A: every frame passed the checks; nothing dropped anywhere
[ "$(port_ctr a offload_rx)" -eq $(( 8 * N )) ] || fail "a: offload_rx $(port_ctr a offload_rx), want $(( 8 * N ))"
for p in a b c e; do
	[ "$(port_ctr "$p" drops)" -eq "${D0[$p]}" ] || fail "$p: drops $(jctl port "$p")"
done
# B: 6N TSO frames whole (flooded and unicast) and the checksum-only
# frames, their checksums left for it
[ "$(pv b lro)" -eq $(( 6 * N )) ] || fail "b: $(pv b lro) whole TSO frames, want $(( 6 * N ))"
[ "$(pv b frames)" -eq $(( 8 * N )) ] || fail "b: $(pv b frames) frames, want $(( 8 * N ))"
[ "$(pv b payload)" -eq $(( 6 * N * P + 2 * N * 1000 )) ] || fail "b: payload $(pv b payload)"
[ "$(pv b partial)" -eq $(( 8 * N )) ] || fail "b: $(pv b partial) frames with the checksum left, want $(( 8 * N ))"
[ "$(port_ctr b tso_segmented)" -eq 0 ] || fail "b: frames cut for a TSO guest"
# C: the flooded half, cut: 14 segments per frame (15 with the extension
# header), full checksums
SEGS=$(( N * (14 + 14 + 15) ))
[ "$(pv c frames)" -eq $(( SEGS + 2 * N )) ] || fail "c: $(pv c frames) frames, want $(( SEGS + 2 * N ))"
[ "$(pv c payload)" -eq $(( 3 * N * P + 2 * N * 1000 )) ] || fail "c: payload $(pv c payload)"
[ "$(pv c max_len)" -le 1514 ] || fail "c: a frame of $(pv c max_len) bytes"
[ "$(pv c partial)" -eq 0 ] || fail "c: frames with the checksum left"
[ "$(port_ctr c tso_segmented)" -eq $(( 3 * N )) ] || fail "c: tso_segmented"
[ "$(port_ctr c csum_filled)" -eq $(( 2 * N )) ] || fail "c: csum_filled $(port_ctr c csum_filled)"
for p in b c; do
	[ "$(pv "$p" bad_csum)" -eq 0 ] || fail "$p: $(pv "$p" bad_csum) bad checksums"
	[ "$(pv "$p" bad_data)" -eq 0 ] || fail "$p: $(pv "$p" bad_data) frames with wrong payload bytes"
done
# E: the kernel got the same segments; scapy checks each one
[ "$(port_ctr e tso_segments)" -eq "$SEGS" ] || fail "e: tso_segments $(port_ctr e tso_segments)"
/usr/bin/python3 "$VSW_SRC/tests/integration/tcp_capture.py" "$T/e.pcap" $(( SEGS + 2 * N )) $(( 3 * N * P + 2 * N * 1000 )) ||
	fail "the kernel's capture on E"
mbufs_back "$base"
stop_vsw

note "offloads = off: the guest is offered none"
write_cfg off
start_vsw "$CFG"
rc=0
peer a "$RUN/a.sock" -- --send --frames 1 --src "$A"
peer_wait a || rc=$?
cat "$T/a.json"
[ "$rc" -eq 3 ] || fail "offloads = off: tso_peer exited $rc, want 3 (no TSO offered)"
ctl_holds '.offloads == "off" and .tx_offloads == []' port a || fail "a: offloads view"
stop_vsw
echo "PASS: TSO frames whole to the TSO guest, cut for the others and the kernel, checksums filled where needed, every byte right"
