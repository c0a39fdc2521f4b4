#!/bin/bash
# Objective: Linux guests (QEMU/TCG, the kernel's virtio-net driver) move
# TCP through vsw with offloads: guest 1 runs iperf3 to guest 2 and then
# to iperf3 in a network namespace behind a net_af_packet port.  The
# guests negotiate TSO and checksum offload (vm0's guest_offloads name
# host_tso4 and guest_tso4, and its frames come into vsw's big mbufs:
# rx_pool big), guest 1 hands vsw TSO frames (offload_rx),
# which go whole to guest 2 (no frame cut for vm1) and are cut by vsw for
# the kernel behind `up`, whose TCP takes every segment (the transfer
# completes: its checksums and sequence numbers are right); guest 1's
# `ethtool -k eth0` says tx-checksumming and tcp-segmentation-offload on.
# Then the same guest-to-guest transfer on two ports with offloads = off:
# nothing negotiated, ethtool says both off (their parts "off [fixed]"),
# no offloaded frame, the transfer still completes.  The throughput
# figures (TCG: relative only) are printed, never judged.
. "$(dirname "$0")/lib.sh"
PREFIX=vmo$ID
PREFIXES=("$PREFIX")
. "$(dirname "$0")/lib_vm.sh"
. "$(dirname "$0")/lib_veth.sh"
command -v iperf3 >/dev/null || skip "iperf3 is not installed (tools/deps)"
note "kernel $VSW_VM_KERNEL, initrd $VSW_VM_INITRD"

veth_ns tcpo vswtcpo0 10.99.0.3/24 1500
# the namespace's kernel must checksum and segment its own frames: what
# it leaves to the veth (a partial checksum, a GSO frame) reaches vsw's
# af_packet socket as it is (docs/configuration.md, ethdev ports)
command -v ethtool >/dev/null || skip "ethtool is not installed (tools/deps)"
ip netns exec tcpo ethtool -K vswtcpo0p tx off tso off gso off >/dev/null ||
	fail "ethtool -K vswtcpo0p"
CFG=$(vhost_config vm0 vm1 vm2 vm3)
sed -i 's/^mbufs = 8191$/mbufs = 32767/' "$CFG"
python3 - "$CFG" <<'EOP'
import sys
p = sys.argv[1]
s = open(p).read()
for port in ("vm2", "vm3"):
    s = s.replace("[port %s]\n" % port, "[port %s]\noffloads = off\n" % port)
s += "[port up]\ntype = ethdev\ndevargs = net_af_packet0,iface=vswtcpo0\n"
open(p, "w").write(s)
EOP
start_vsw "$CFG"

# a guest command: iperf3 -c IP -t 4, again (up to 10 times, 1 s apart)
# while the connection is refused: guest 2's kernel answers vsw-waitpeer's
# ping before its iperf3 server listens (seen: "Connection refused")
iperf_to() {
	echo "for i in 1 2 3 4 5 6 7 8 9 10; do iperf3 -c $1 -t 4 && break;" \
		"if [ \$i = 10 ]; then exit 1; fi; sleep 1; done"
}

# what the guest's kernel says it offloads (docs/vm-guests.md's check),
# on guest 1's console as VSW-ETHTOOL lines
ETHK="ethtool -k eth0 | grep -E 'checksum|segmentation' | sed 's/^[[:space:]]*/VSW-ETHTOOL: /'"
# ethtool_says TAG FEATURE VALUE: guest 1 of run TAG printed exactly that
ethtool_says() {
	tr -d '\r' <"$T/$1-1.log" | grep -a -q -x "VSW-ETHTOOL: $2: $3" ||
		fail "guest 1 ($1): ethtool -k eth0 does not say '$2: $3': $(tr -d '\r' <"$T/$1-1.log" | grep -a "^VSW-ETHTOOL: $2:")"
}

# guests: SERVER-PORT CLIENT-PORT CLIENT-CMD; guest 2 (server) runs one
# iperf3 server, guest 1 the command; both on CPU 0
pair() {
	local sp=$1 cp=$2 cmd=$3 tag=$4
	"$VM/run-guest" --sock "$RUN/$sp.sock" --mac 52:54:00:00:01:02 --ip 10.99.0.2/24 \
		--log "$T/$tag-2.log" --cmd "iperf3 -s -1" --timeout 280 --mem 256 \
		--pidfile "$T/$tag-2.pid" 2>"$T/$tag-2-err.log" &
	G2=$!
	PIDS+=("$G2")
	"$VM/run-guest" --sock "$RUN/$cp.sock" --mac 52:54:00:00:01:01 --ip 10.99.0.1/24 \
		--log "$T/$tag-1.log" --cmd "$ETHK; vsw-waitpeer 10.99.0.2 200 && $cmd" \
		--timeout 280 --mem 256 --pidfile "$T/$tag-1.pid" 2>"$T/$tag-1-err.log" &
	G1=$!
	PIDS+=("$G1")
	for g in 1 2; do
		wait_for 20 "QEMU of $tag guest $g" test -s "$T/$tag-$g.pid"
		PIDS+=("$(cat "$T/$tag-$g.pid")")
	done
}
# the receiver's Mbit/s of the iperf3 run number N in LOG
mbits() { grep -a 'receiver' "$1" | sed -n "${2}p" | grep -o '[0-9.]* [KMG]bits/sec'; }

note "offloads on: guest 1 -> guest 2, then guest 1 -> the namespace"
bg "$T/ns-iperf.json" "$T/ns-iperf.err" ip netns exec tcpo timeout 200 iperf3 -s -1 -J
NSI=$BG_PID
pair vm1 vm0 "$(iperf_to 10.99.0.2) && iperf3 -c 10.99.0.3 -t 4" on
wait_for 120 "vm0 up" port_is vm0 up
view=$(jctl port vm0 | jq -c '{offloads, tx_offloads, guest_offloads, rx_pool}')
echo "$view"
rc1=0; wait "$G1" || rc1=$?
for _ in $(seq 150); do kill -0 "$G2" 2>/dev/null || break; sleep 0.2; done
kill -TERM "$G2" 2>/dev/null; wait "$G2" 2>/dev/null
reap_pid "$NSI" || true
# a Linux guest that negotiated TSO sends into vsw's big mbufs
[ "$(jq -r .rx_pool <<<"$view")" = big ] || fail "vm0: rx_pool is not big: $view"
[ "$(port_ctr vm0 rx_big_bursts)" -gt 0 ] || fail "vm0: no burst in big mbufs"
grep -a -E 'VSW-(RESULT|ERROR|ETHTOOL)|receiver|sender' "$T/on-1.log"
[ "$rc1" -eq 0 ] || fail "guest 1 (offloads on): run-guest exit $rc1: $(grep -a VSW-RESULT "$T/on-1.log")"
for p in vm0 vm1 up; do
	jctl port "$p" | jq -c '{rx_packets, rx_bytes, offload_rx, tx_packets, tso_segmented, tso_segments, csum_filled, drops, drop_bad_offload, drop_oversize}'
done
jq -e '.guest_offloads | index("host_tso4") and index("guest_tso4")' <<<"$view" >/dev/null ||
	fail "vm0: the Linux guest did not negotiate host_tso4 and guest_tso4: $view"
[ "$(port_ctr vm0 offload_rx)" -gt 0 ] || fail "vm0: the guest sent no offloaded frame"
for f in tx-checksumming tx-checksum-ip-generic tcp-segmentation-offload \
	tx-tcp-segmentation tx-tcp6-segmentation; do
	ethtool_says on "$f" on
done
[ "$(port_ctr vm1 tso_segmented)" -eq 0 ] || fail "vm1 (a TSO guest): frames cut for it"
[ "$(port_ctr up tso_segmented)" -gt 0 ] || fail "up: no TSO frame cut for the kernel"
[ "$(port_ctr vm0 drop_bad_offload)" -eq 0 ] || fail "vm0: a Linux guest's offload refused"
ns_bytes=$(jq -r '.end.sum_received.bytes // 0' "$T/ns-iperf.json")
note "the namespace's iperf3 received $ns_bytes bytes"
[ "${ns_bytes%.*}" -gt 1000000 ] || fail "the namespace received $ns_bytes bytes"
on_g=$(mbits "$T/on-1.log" 1); on_ns=$(mbits "$T/on-1.log" 2)

note "offloads off (vm2, vm3): guest 1 -> guest 2"
pair vm3 vm2 "$(iperf_to 10.99.0.2)" off
wait_for 120 "vm2 up" port_is vm2 up
view=$(jctl port vm2 | jq -c '{offloads, tx_offloads, guest_offloads, rx_pool}')
echo "$view"
jq -e '.guest_offloads == [] and .tx_offloads == [] and .rx_pool == "port"' <<<"$view" >/dev/null ||
	fail "vm2 (offloads off): the guest negotiated offloads: $view"
rc1=0; wait "$G1" || rc1=$?
for _ in $(seq 150); do kill -0 "$G2" 2>/dev/null || break; sleep 0.2; done
kill -TERM "$G2" 2>/dev/null; wait "$G2" 2>/dev/null
grep -a -E 'VSW-(RESULT|ERROR|ETHTOOL)|receiver' "$T/off-1.log"
# off, and the device offers them no more (fixed)
ethtool_says off tx-checksumming off
ethtool_says off tcp-segmentation-offload off
for f in tx-checksum-ip-generic tx-tcp-segmentation tx-tcp6-segmentation; do
	ethtool_says off "$f" "off \[fixed\]"
done
[ "$rc1" -eq 0 ] || fail "guest 1 (offloads off): run-guest exit $rc1"
jctl port vm2 | jq -c '{offloads, tx_offloads, rx_packets, offload_rx}'
ctl_holds '.offloads == "off" and .offload_rx == 0 and .rx_packets > 1000' port vm2 ||
	fail "vm2 (offloads off): offloaded frames, or no traffic"
off_g=$(mbits "$T/off-1.log" 1)
note "iperf3, TCG guests (relative only): guest to guest offloads on ${on_g:-?}, off ${off_g:-?}; guest to namespace (cut by vsw) ${on_ns:-?}"
stop_vsw
echo "PASS: Linux guests moved TCP with TSO through vsw (whole to a guest, cut for the kernel), and without offloads"
