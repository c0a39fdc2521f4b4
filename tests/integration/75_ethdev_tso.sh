#!/bin/bash
# Objective: TSO frames given whole to an ethdev whose PMD takes TSO, and
# cut for one whose port has offloads off. The ethdev is DPDK's virtio
# PMD (net_virtio_user, the virtio-net driver of a DPDK guest or of a
# virtio NIC), which offers TCP_TSO and TCP_CKSUM when its host
# negotiated HOST_TSO4/6; its host is a tso_peer on DPDK's vhost PMD
# (net_vhost, tso=1), a vhost-user backend that hands each frame up as
# the virtio-net header says (RX_LRO and the segment size for a whole TSO
# frame). So this is the path of a NIC with TSO (docs/offloads.md: frames
# given whole, rte_eth_tx_prepare) with a real PMD on both ends: vsw must
# mark the frames for the PMD (lengths, segment size, flags) so that the
# far end gets each frame whole with the right segment size and every
# payload byte right. Guest A (tso_peer, virtio-user on a vhost-user port)
# sends TCP frames of 19992 payload bytes marked for TSO, IPv4 then IPv6;
# the receiver behind ethdev port F is reached through a static FDB entry.
# Then the same with `offloads = off` on F: vsw cuts every frame into 14
# segments for it and the receiver gets only segments.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_tso.sh"
for pmd in net_vhost net_virtio; do
	ls /usr/lib/x86_64-linux-gnu/dpdk/pmds-*/librte_"$pmd".so* >/dev/null 2>&1 ||
		skip "DPDK $pmd PMD not installed"
done

A=$(mac_of 50) R=$(mac_of 51)
N=40 P=19992

# round OFFLOADS: a fresh receiver and vsw; A sends N IPv4 then N IPv6
# TSO frames to R through F
round() {
	local off=$1 v mss
	# (the first round's fdb-add wrote a state file, which would bring
	# back its port f over this config: docs/configuration.md)
	rm -f "$RUN/f.sock" "$RUN/vsw.state"
	peer_on r "net_vhost0,iface=$RUN/f.sock,tso=1" --recv --seconds 20 --src "$R"
	wait_for 30 "the receiver's vhost-user socket" test -S "$RUN/f.sock"
	CFG=$(vhost_config a)
	cat >>"$CFG" <<-EOC
	[port f]
	type = ethdev
	devargs = net_virtio_user1,path=$RUN/f.sock,queue_size=1024
	offloads = $off
	EOC
	# a virtio-user port maps vsw's memory in one file per segment list
	start_vsw_eal --single-file-segments --lcores 0@0,1@1 -- -c "$CFG"
	wait_for 30 "f up" port_is f up
	"$VSWCTL" --file-prefix "$PREFIX" fdb-add "$R" f >/dev/null || fail "fdb-add $R f"
	jctl port f | jq -c '{offloads, tx_offloads}'
	if [ "$off" = on ]; then
		ctl_holds '.tx_offloads | index("tso4") and index("tso6") and index("csum")' port f ||
			fail "f: the virtio PMD's TSO not taken: $(jctl port f | jq -c .tx_offloads)"
	else
		ctl_holds '.tx_offloads == []' port f || fail "f: offloads off, tx_offloads not empty"
	fi
	for v in "" --v6; do
		mss=1448
		[ -z "$v" ] || mss=1428
		note "A sends $N TSO frames ($P B, mss $mss) ${v:-ipv4} to R behind f (offloads $off)"
		peer a "$RUN/a.sock" -- --send $v --frames $N --payload $P --mss $mss \
			--src "$A" --dst "$R"
		peer_wait a || fail "sender a: $(cat "$T/a.json" "$T/a.log" | tail -3)"
	done
	sleep 1
	jctl port a | jq -c '{rx_packets, offload_rx, drops}'
	jctl port f | jq -c '{tx_packets, tx_bytes, tso_segmented, tso_segments, csum_filled, drops}'
	peer_wait r || fail "receiver r failed: $(tail -3 "$T/r.log")"
	cat "$T/r.json"
	[ "$(port_ctr a offload_rx)" -eq $(( 2 * N )) ] || fail "a: offload_rx $(port_ctr a offload_rx)"
	[ "$(port_ctr a drops)" -eq 0 ] || fail "a: drops $(jctl port a)"
	[ "$(port_ctr f drops)" -eq 0 ] || fail "f: drops $(jctl port f)"
	for k in bad_csum bad_data; do
		[ "$(pv r $k)" -eq 0 ] || fail "r: $(pv r $k) $k"
	done
	[ "$(pv r payload)" -eq $(( 2 * N * P )) ] || fail "r: payload $(pv r payload), want $(( 2 * N * P ))"
	F_SEGMENTED=$(port_ctr f tso_segmented) F_TX=$(port_ctr f tx_packets)
	# (no mbufs_back: the virtio PMD frees what it sent when its tx ring
	# needs the room, so up to a ring of frames stays in use until then)
	stop_vsw
}

round on
# whole: each frame once, marked a TSO frame by the far end (its segment
# size from the header vsw had the PMD write; the vhost PMD fills the
# checksum left to it in software, so the receiver checks every one)
[ "$(pv r frames)" -eq $(( 2 * N )) ] || fail "r: $(pv r frames) frames, want $(( 2 * N )) whole ones"
[ "$(pv r lro)" -eq $(( 2 * N )) ] || fail "r: $(pv r lro) frames marked TSO, want $(( 2 * N ))"
[ "$(pv r max_len)" -gt 20000 ] || fail "r: its longest frame $(pv r max_len) bytes: not whole"
[ "$F_SEGMENTED" -eq 0 ] || fail "f: $F_SEGMENTED frames cut for a port that takes TSO"
[ "$F_TX" -eq $(( 2 * N )) ] || fail "f: tx_packets $F_TX, want $(( 2 * N ))"

round off
# cut by vsw: 14 segments per frame, full checksums, none marked
[ "$(pv r frames)" -eq $(( 2 * N * 14 )) ] || fail "r: $(pv r frames) frames, want $(( 2 * N * 14 ))"
[ "$(pv r lro)" -eq 0 ] || fail "r: $(pv r lro) TSO frames through a port with offloads off"
[ "$F_SEGMENTED" -eq $(( 2 * N )) ] || fail "f: tso_segmented $F_SEGMENTED, want $(( 2 * N ))"
[ "$F_TX" -eq $(( 2 * N * 14 )) ] || fail "f: tx_packets $F_TX, want $(( 2 * N * 14 ))"
[ "$(pv r max_len)" -le 1514 ] || fail "r: a frame of $(pv r max_len) bytes"
echo "PASS: TSO frames whole through the virtio PMD's TSO, cut when the port's offloads are off, every byte right"
