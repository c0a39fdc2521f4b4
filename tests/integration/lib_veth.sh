#!/bin/bash
# Kernel networking for the integration tests (sourced after lib.sh):
# network namespaces joined to vsw through veth pairs whose host end is a
# vsw net_af_packet port. Everything made here is removed by lib.sh's
# cleanup, on success, failure and interruption alike.

command -v ip >/dev/null || skip "iproute2 (ip) is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
command -v ping >/dev/null || skip "ping (iputils-ping) is not installed (tools/deps installs it)"
ls /usr/lib/x86_64-linux-gnu/dpdk/pmds-*/librte_net_af_packet.so* >/dev/null 2>&1 ||
	skip "DPDK net_af_packet PMD not installed"
RAWFRAMES=$VSW_SRC/tests/integration/rawframes.py

# veth_ns NS IF_HOST ADDR/PFX MTU: lib.sh's netns_veth (IF_HOST here for
# vsw, IF_HOSTp in NS, no IPv6), both ends at mtu MTU, IF_HOSTp with ADDR;
# skips when namespaces cannot be made
veth_ns() {
	ip netns add "$1-probe" 2>/dev/null || skip "cannot create network namespaces"
	ip netns del "$1-probe"
	netns_veth "$1" "$2"
	ip link set "$2" mtu "$4"
	ip -n "$1" link set "$2p" mtu "$4"
	ip -n "$1" addr add "$3" dev "$2p"
}
# veth_plain IF_HOST IF_PEER: a veth pair in this namespace, both ends up
veth_plain() {
	ip link add "$1" type veth peer name "$2" 2>/dev/null || skip "cannot create veth pairs"
	on_cleanup "ip link del $1 2>/dev/null"
	sysctl -qw "net.ipv6.conf.$1.disable_ipv6=1" "net.ipv6.conf.$2.disable_ipv6=1"
	ip link set "$1" up
	ip link set "$2" up
}
ns_mac() { ip netns exec "$1" cat "/sys/class/net/$2/address"; }
# afp_devargs N IFACE: vsw's devargs for a net_af_packet port on IFACE
# whose ring slots hold 9000-byte MTU frames whole (framesz >= mtu + 66)
afp_devargs() { echo "net_af_packet$1,iface=$2,framesz=9216,blocksz=36864"; }
# ns_ping NS ARGS...: ping in NS; its output in $T/ping.out; fails on a
# payload byte ping found wrong
ns_ping() {
	local ns=$1 rc=0
	shift
	ip netns exec "$ns" ping "$@" >"$T/ping.out" 2>&1 || rc=$?
	tail -n 3 "$T/ping.out"
	! grep -qi "wrong data" "$T/ping.out" || fail "ping saw a wrong payload byte"
	return "$rc"
}
# raw_recv NAME NS IFACE COUNT SECS SIZE: a background raw-socket receiver
# (rawframes.py recv) in NS; JSON in $T/NAME.json, PID in RAW_PID; returns
# once its socket is bound
raw_recv() {
	local n=$1 ns=$2
	shift 2
	bg "$T/$n.json" "$T/$n.err" ip netns exec "$ns" python3 "$RAWFRAMES" recv "$@"
	# shellcheck disable=SC2034 # (the caller's)
	RAW_PID=$BG_PID
	wait_for 20 "receiver $n ready" grep -q ready "$T/$n.err"
}
# guest_uplink_config IF_HOST: a config with vhost-user port vm0 and
# net_af_packet port `up` on IF_HOST, both at mtu 9000, 32767 mbufs
guest_uplink_config() {
	local cfg
	cfg=$(vhost_config vm0)
	sed -i 's/^type = vhost-user$/type = vhost-user\nmtu = 9000/; s/^mbufs = 8191$/mbufs = 32767/' "$cfg"
	printf '[port up]\ntype = ethdev\nmtu = 9000\ndevargs = %s\n' "$(afp_devargs 0 "$1")" >>"$cfg"
	echo "$cfg"
}
