#!/bin/bash
# tso_peer guests for the offload tests (sourced after lib.sh): a DPDK
# app (tests/tso/tso_peer.c) that sends TCP frames marked for TSO, or
# receives and checks every frame it is given.
TSO_PEER=$VSW_BIN/tso_peer
[ -x "$TSO_PEER" ] || skip "tso_peer not built"

# peer_on NAME VDEV ARGS...: a tso_peer on CPU 0 whose port is VDEV; its
# JSON in $T/NAME.json, its log in $T/NAME.log, its PID in PID_NAME
peer_on() {
	local n=$1 vdev=$2 gp=${PREFIX}p$1
	shift 2
	# shellcheck disable=SC2046
	dpdk_bg "$gp" "$T/$n.json" "$T/$n.log" "$TSO_PEER" -l 0 --file-prefix "$gp" \
		$(mem_args 256) --single-file-segments --no-pci --vdev "$vdev" -- "$@"
	eval "PID_$n=$BG_PID"
}
# peer NAME SOCK -- ARGS...: a tso_peer guest on vsw's vhost-user SOCK
peer() {
	local n=$1 s=$2
	shift 3
	peer_on "$n" "$(virtio_vdev 0 "$s")" "$@"
}
# peer_wait NAME: the exit status of tso_peer NAME
peer_wait() {
	local pid rc=0
	pid=$(eval echo "\$PID_$1")
	reap_pid "$pid" || rc=$?
	rm -rf "/var/run/dpdk/${PREFIX}p$1"
	return "$rc"
}
# pv NAME KEY: KEY of tso_peer NAME's JSON
pv() { jq -r ".$2" "$T/$1.json"; }
