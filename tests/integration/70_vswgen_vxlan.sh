#!/bin/bash
# Objective: vswgen --vxlan, the remote VTEP of tools/bench's VXLAN block,
# against vsw's vxlan port on a memif underlay. vswgen learns the port's
# MAC with ARP (and so teaches vsw its own), then its frames cross both
# ways: a VM's frames arrive encapsulated to 198.18.0.2, VNI 100 (vswgen
# finds its header inside: every frame counted, none foreign, in order),
# and encapsulated frames from 198.18.0.2 reach the VM decapsulated; vsw's
# VTEP counters agree with vswgen's. (--rx-queues, for OVS's second
# memif ring, only as usage errors here: a memif client asks for a ring
# per rx queue and vsw's memif server has one tx queue, so the link would
# not come up; tools/bench's OVS trials use it.) A peer that never answers ARP: exit 1 with a message. Bad
# arguments are usage errors. Functional only: no rate is asserted.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a)
cat >>"$CFG" <<EOF
[port ul]
type = vxlan
devargs = net_memif0,role=server,socket=$RUN/memif.sock,socket-abstract=no
local-ip = 198.18.0.1/24
remote-ips = 198.18.0.2
vni = 100
EOF
start_vsw "$CFG"

VX="--vxlan 1,198.18.0.2,198.18.0.1,100"
gen() { # NAME VSWGEN_OPTS...: port 0 the VM (vsw's a), port 1 the underlay
	local name=$1 gp=${PREFIX}g$1
	shift
	# shellcheck disable=SC2046
	dpdk_bg "$gp" "$T/$name.json" "$T/$name.log" \
		"$VSWGEN" -l 0 --file-prefix "$gp" $(mem_args 512) --single-file-segments --no-pci \
		--vdev "$(virtio_vdev 0 "$RUN/a.sock")" \
		--vdev "net_memif0,role=client,socket=$RUN/memif.sock,socket-abstract=no,mac=02:c0:00:00:00:02" -- \
		--announce 3 --json --quiet --link-wait 20 "$@"
	reap_pid "$BG_PID" || fail "generator $name: $(tail -3 "$T/$name.log")"
}
vtep() { jctl vteps ul | jq -r ".vtep_0.$1"; }
check_gen() { # NAME: every frame sent arrived, none foreign or out of order
	local tx rx
	tx=$(guest_val "$1" tx_packets) rx=$(guest_val "$1" rx_packets)
	note "$1: $(jq -c '{tx_packets, rx_packets, rx_foreign, lost, reordered, rx_bytes}' "$T/$1.json")"
	[ "$tx" -gt 0 ] && [ "$rx" -gt 0 ] || fail "$1: tx $tx rx $rx"
	[ "$(guest_val "$1" reordered)" = 0 ] && [ "$(guest_val "$1" duplicates)" = 0 ] ||
		fail "$1: reordered or duplicated frames"
	# a lost frame is one vsw could not hand on (a full ring on a busy
	# 2-core machine), counted by vsw
	[ "$((tx - rx))" -le "$(($(jctl vteps ul | jq '.drops.tx_full') + $(port_ctr a drop_tx_full)))" ] ||
		fail "$1: $((tx - rx)) frames lost that vsw did not count"
}

# encapsulation: the VM (port 0) to the remote VM behind 198.18.0.2
gen encap --tx-port 0 --rx-port 1 $VX --rate 200000 --duration 1
check_gen encap
[ "$(guest_val encap rx_bytes)" = $(($(guest_val encap rx_packets) * 114)) ] ||
	fail "encap: $(guest_val encap rx_bytes) bytes: not 64 + 50 per frame"
[ "$(jctl vteps ul | jq -r .mac)" != null ] || fail "no vtep mac"
[ "$(vtep next_hop_mac)" = 02:c0:00:00:00:02 ] || fail "vsw did not learn the generator's MAC: $(vtep next_hop_mac)"
[ "$(vtep tx_packets)" -ge "$(guest_val encap rx_packets)" ] ||
	fail "vtep tx_packets $(vtep tx_packets) < $(guest_val encap rx_packets) received"
where=$(jctl fdb | jq -r '.entries[] | select(.mac == "02:c0:00:00:00:02") | "\(.port)@\(.endpoint)"')
[ "$where" = "ul@198.18.0.2" ] || fail "the remote MAC is at '$where'"

# decapsulation
rx0=$(vtep rx_packets)
gen decap --tx-port 1 --rx-port 0 $VX --rate 200000 --duration 1
check_gen decap
[ "$(guest_val decap rx_bytes)" = $(($(guest_val decap rx_packets) * 64)) ] ||
	fail "decap: $(guest_val decap rx_bytes) bytes: not 64 per frame"
[ $(($(vtep rx_packets) - rx0)) -ge "$(guest_val decap tx_packets)" ] ||
	fail "vtep rx_packets grew by $(($(vtep rx_packets) - rx0)), $(guest_val decap tx_packets) sent"
[ "$(jctl vteps ul | jq '[.drops[]] | add')" -eq "$(jctl vteps ul | jq '.drops.tx_full')" ] ||
	fail "drops other than tx_full: $(jctl vteps ul | jq -c .drops)"

# a peer that does not answer (nobody at 198.18.0.9): exit 1, said why
rc=0
prefix_add "${PREFIX}gn"
"$VSWGEN" -l 0 --file-prefix "${PREFIX}gn" $(mem_args 256) --single-file-segments --no-pci \
	--vdev "$(virtio_vdev 0 "$RUN/a.sock")" \
	--vdev "net_memif0,role=client,socket=$RUN/memif.sock,socket-abstract=no" -- \
	--tx-port 0 --rx-port 1 --vxlan 1,198.18.0.2,198.18.0.9,100 --duration 1 --link-wait 20 \
	>"$T/noarp.out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "no ARP reply from 198.18.0.9 on port 1" "$T/noarp.out" ||
	fail "no ARP answer: exit $rc: $(tail -2 "$T/noarp.out")"
stop_vsw

gen_usage_errors "--vxlan\|--rx-queues" "--vxlan 1,198.18.0.2,198.18.0.1" \
	"--vxlan 1,198.18.0.2,198.18.0.2,100" "--vxlan 1,198.18.0.2,198.18.0.1,16777216" \
	"--vxlan x,198.18.0.2,198.18.0.1,100" "--vxlan 1,198.18.0.256,198.18.0.1,100" \
	"--vxlan 1,198.18.0.2,198.18.0.1,100 --tcp 1460" "--vxlan 1,198.18.0.2,198.18.0.1,100 --verify" \
	"--rx-queues 0" "--rx-queues 9" "--rx-queues 2 --rr"
echo "PASS: vswgen --vxlan: ARP, encapsulated both ways through vsw's vxlan port, counters agree"
