#!/bin/bash
# A TSO stream VM to a NIC that takes TSO: vswgen (CPU 0) sends TCP
# super-frames (--tcp, 65000 bytes, MSS 1448) from a virtio-user port in
# server mode, to which vsw's vhost-user port a connects as client, to
# its net_vhost port (tso=1), to which vsw's ethdev port f, DPDK's virtio
# PMD (net_virtio_user), connects. With f's offloads on, vsw hands each
# frame whole to the PMD (docs/offloads.md); off, vsw cuts it into 45
# segments. Prints per round: the receiver's Gbit/s of TCP payload, vsw's
# worker busy % and its cycles per KiB of payload, what f sent and cut.
#   VSW_BIN=build/bin bash tools/bench.d/tso-nic.sh [ROUNDS] [SECS]
# vsw's worker on CPU 1; --no-huge (memfd) for both processes. Needs root.
. "$(cd "$(dirname "$0")/../.." && pwd)/tools/lib/harness.sh"
rounds=${1:-3} secs=${2:-5}
[[ $rounds =~ ^[1-9][0-9]*$ && $secs =~ ^[1-9][0-9]*$ ]] ||
	{ echo "usage: tso-nic.sh [ROUNDS] [SECS]" >&2; exit 2; }

trial() { # OFFLOADS ROUND
	local off=$1 gp=${PREFIX}g$2$1 cfg=$T/vsw-$1.conf
	rm -f "$RUN/a.sock" "$RUN/f.sock" "$RUN/vsw.state"
	# shellcheck disable=SC2046
	dpdk_bg "$gp" "$T/gen.json" "$T/gen.log" taskset -c 0 "$VSWGEN" -l 0 \
		--file-prefix "$gp" $(eal_mem 0 1024) --single-file-segments --no-pci \
		--vdev "net_vhost0,iface=$RUN/f.sock,tso=1" \
		--vdev "net_virtio_user1,path=$RUN/a.sock,server=1,queue_size=1024" -- \
		--tx-port 1 --rx-port 0 --json --quiet --link-wait 30 --tcp 1448 \
		--size 65000 --duration "$secs" --announce 8 --mbuf-size 16512
	GEN=$BG_PID
	wait_for 30 "the generator's socket a" test -S "$RUN/a.sock"
	printf '[switch]\nrun-dir = %s\nport-add-drivers = net_virtio_user\n[port a]\ntype = vhost-user\nmode = client\npath = %s/a.sock\n' \
		"$RUN" "$RUN" >"$cfg"
	# (the generator's net_vhost socket comes once a is up: f is added then)
	vsw_launch "$PREFIX" "$T/vsw.log" $(eal_mem 0 1024) --single-file-segments \
		--lcores 0@0,1@1 -- -c "$cfg"
	vsw_wait_up 60 || fail "vsw did not come up: $(tail -3 "$T/vsw.log")"
	wait_for 30 "the generator's socket f" test -S "$RUN/f.sock"
	"$VSWCTL" --file-prefix "$PREFIX" port-add f type=ethdev offloads="$off" \
		devargs="net_virtio_user2,path=$RUN/f.sock,queue_size=1024" >/dev/null ||
		fail "port-add f"
	reap_pid "$GEN" || fail "generator: $(tail -3 "$T/gen.log")"
	jctl port f >"$T/f.json"
	jctl workers >"$T/w.json"
	stop_vsw
	python3 - "$off" "$2" "$T/gen.json" "$T/f.json" "$T/w.json" <<-'EOF'
	import json, sys
	off, r, g, f, w = sys.argv[1:]
	g = json.load(open(g)); f = json.load(open(f)); w = json.load(open(w))["worker0"]
	kib = g["tcp"]["payload_bytes"] / 1024
	print(f"round {r} offloads {off}: {g['tcp']['gbps']:.2f} Gbit/s, vsw busy {w['busy_pct']} %, "
	      f"{w['busy_cycles'] / kib:.0f} cycles/KiB; f: tx_packets {f['tx_packets']}, "
	      f"tso_segmented {f['tso_segmented']}, drops {f['drops']}")
	EOF
}
for r in $(seq "$rounds"); do
	trial on "$r"
	trial off "$r"
done
