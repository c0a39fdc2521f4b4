#!/bin/bash
# A TSO stream VM to a NIC that takes TSO: vswgen (CPU 0) sends TCP
# super-frames (--tcp, 65000 bytes, MSS 1448) from a virtio-user port in
# server mode, to which vsw's vhost-user port a connects as client, to
# its net_vhost port (tso=1), to which vsw's ethdev port f, DPDK's virtio
# PMD (net_virtio_user), connects. With f's offloads on, vsw hands each
# frame whole to the PMD (docs/offloads.md); off, vsw cuts it into 45
# segments. Then, when openvswitch-switch-dpdk is installed, the same
# through OVS-DPDK (NORMAL, userspace-tso-enable=true, one pmd on CPU 1):
# a dpdkvhostuserclient port a and a dpdk port f on the same PMD.
# Prints per round: the receiver's Gbit/s of TCP payload and its longest
# frame; vsw's worker busy % and cycles per KiB of payload, what f sent
# and cut; OVS's pmd processing cycles per KiB.
#   VSW_BIN=build/bin bash tools/bench.d/tso-nic.sh [ROUNDS] [SECS]
# The switch's worker on CPU 1; vsw and the generator --no-huge (memfd),
# OVS on hugepages (added to the pool, given back); OVS's logs kept in
# $OUT (default /tmp/vsw-tso-nic). Needs root.
. "$(cd "$(dirname "$0")/../.." && pwd)/tools/lib/harness.sh"
rounds=${1:-3} secs=${2:-5}
OUT=${OUT:-/tmp/vsw-tso-nic} # OVS's logs
mkdir -p "$OUT"
[[ $rounds =~ ^[1-9][0-9]*$ && $secs =~ ^[1-9][0-9]*$ ]] ||
	{ echo "usage: tso-nic.sh [ROUNDS] [SECS]" >&2; exit 2; }

# the switch's port f: DPDK's virtio PMD on the generator's net_vhost
F_DEVARGS="net_virtio_user2,path=$RUN/f.sock,queue_size=1024"
gen() { # TAG: the generator (its vhost-user sockets a and f in $RUN)
	rm -f "$RUN/a.sock" "$RUN/f.sock" "$RUN/vsw.state"
	# shellcheck disable=SC2046
	dpdk_bg "${PREFIX}g$1" "$T/gen.json" "$T/gen.log" taskset -c 0 "$VSWGEN" -l 0 \
		--file-prefix "${PREFIX}g$1" $(eal_mem 0 1024) --single-file-segments --no-pci \
		--vdev "net_vhost0,iface=$RUN/f.sock,tso=1" \
		--vdev "net_virtio_user1,path=$RUN/a.sock,server=1,queue_size=1024" -- \
		--tx-port 1 --rx-port 0 --json --quiet --link-wait 30 --tcp 1448 \
		--size 65000 --duration "$secs" --announce 8 --mbuf-size 16512
	GEN=$BG_PID
	wait_for 30 "the generator's socket a" test -S "$RUN/a.sock"
}
gen_line() { # the receiver's figures
	jq -r '"\(.tcp.gbps * 100 | round / 100) Gbit/s, longest frame \(.tcp.rx_len_max)"' "$T/gen.json"
}

trial() { # OFFLOADS ROUND
	local off=$1 cfg=$T/vsw-$1.conf
	gen "$2$1"
	printf '[switch]\nrun-dir = %s\nport-add-drivers = net_virtio_user\n[port a]\ntype = vhost-user\nmode = client\npath = %s/a.sock\n' \
		"$RUN" "$RUN" >"$cfg"
	# (the generator's net_vhost socket comes once a is up: f is added then)
	# shellcheck disable=SC2046
	vsw_launch "$PREFIX" "$T/vsw.log" $(eal_mem 0 1024) --single-file-segments \
		--lcores 0@0,1@1 -- -c "$cfg"
	vsw_wait_up 60 || fail "vsw did not come up: $(tail -3 "$T/vsw.log")"
	wait_for 30 "the generator's socket f" test -S "$RUN/f.sock"
	"$VSWCTL" --file-prefix "$PREFIX" port-add f type=ethdev offloads="$off" \
		devargs="$F_DEVARGS" >/dev/null || fail "port-add f"
	reap_pid "$GEN" || fail "generator: $(tail -3 "$T/gen.log")"
	jctl port f >"$T/f.json"
	jctl workers >"$T/w.json"
	stop_vsw
	python3 - "$off" "$2" "$T/gen.json" "$T/f.json" "$T/w.json" <<-'EOF'
	import json, sys
	off, r, g, f, w = sys.argv[1:]
	g = json.load(open(g)); f = json.load(open(f)); w = json.load(open(w))["worker0"]
	kib = g["tcp"]["payload_bytes"] / 1024
	print(f"round {r} vsw offloads {off}: {g['tcp']['gbps']:.2f} Gbit/s, longest frame "
	      f"{g['tcp']['rx_len_max']}; vsw busy {w['busy_pct']} %, "
	      f"{w['busy_cycles'] / kib:.0f} cycles/KiB; f: tx_packets {f['tx_packets']}, "
	      f"tso_segmented {f['tso_segmented']}, drops {f['drops']}")
	EOF
}
ovs_trial() { # ROUND
	local cyc kib
	OVS_OTHER_CONFIG=other_config:userspace-tso-enable=true \
		ovs_launch "$T/ovs$1" "${PREFIX}o$1" 0 1 "$T/ovs.log" -m 1024 --single-file-segments ||
		fail "OVS did not start: $(tail -3 "$T/ovs.log")"
	gen "$1ovs"
	ovs_vsctl add-port br0 a -- set Interface a type=dpdkvhostuserclient \
		options:vhost-server-path="$RUN/a.sock" >>"$T/ovs.log" 2>&1 || fail "OVS: port a"
	wait_for 30 "the generator's socket f" test -S "$RUN/f.sock"
	ovs_vsctl add-port br0 f -- set Interface f type=dpdk \
		options:dpdk-devargs="$F_DEVARGS" >>"$T/ovs.log" 2>&1 || fail "OVS: port f"
	pin_threads "$OVS_PID" '^pmd' 1 0 >/dev/null
	ovs_appctl dpif-netdev/pmd-stats-clear >/dev/null
	reap_pid "$GEN" || fail "generator (OVS): $(tail -3 "$T/gen.log")"
	cyc=$(ovs_appctl dpif-netdev/pmd-stats-show | awk '/processing cycles:/ {print $3; exit}')
	kib=$(jq -r '.tcp.payload_bytes / 1024' "$T/gen.json")
	echo "round $1 OVS userspace TSO: $(gen_line); pmd $(awk -v c="${cyc:-0}" -v k="$kib" 'BEGIN {if (k > 0) printf "%.0f", c / k; else printf "n/a"}') cycles/KiB; f: tx_packets, tx_dropped $(ovs_vsctl get Interface f statistics:tx_packets statistics:tx_dropped | tr '\n' ' ')"
	cp "$OVSD/ovs-vswitchd.log" "$OUT/ovs-vswitchd-$1.log" 2>/dev/null
	ovs_shutdown
}
ovs=0
if ovs_installed; then
	hugepages_reserve 1200
	ovs=1
	on_cleanup ovs_shutdown
else
	note "OVS-DPDK not installed ($OVS_VSWITCHD_DPDK): vsw only"
fi
for r in $(seq "$rounds"); do
	[ "${TSO_NIC_ONLY:-}" = ovs ] || { trial on "$r"; trial off "$r"; }
	[ $ovs = 0 ] || ovs_trial "$r"
done
