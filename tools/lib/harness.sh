#!/bin/bash
# The test harness (tools/lib/harness.sh), sourced by every integration
# test (through tests/integration/lib.sh) and by tools/soak: a private temp dir, file
# prefixes and run dir per test, vsw and vswgen guests started in the
# background, counters read over telemetry with vswctl --json and jq, and
# a trap that removes every process, socket, hugepage file and runtime dir
# the test made, also when it fails.
#
# Functional tests assert on counters, never on rates; timeouts are
# generous because two cores are shared by busy-polling processes.

set -u
VSW_SRC=${VSW_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
VSW_BIN=${VSW_BIN:-$VSW_SRC/build/bin}
# shellcheck source=vsw.sh
. "$VSW_SRC/tools/lib/vsw.sh"
vsw_bins "$VSW_BIN"
[ "${VSW_TEST_NO_HUGE:-0}" != 1 ] || VSW_NO_HUGE=1

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; dump_logs; exit 1; }
note() { echo "[$(date +%T)] $*"; }

[ "$(id -u)" -eq 0 ] || skip "needs root (EAL, vhost-user sockets)"
command -v jq >/dev/null || skip "jq is not installed (tools/test installs it)"
[ -x "$VSW" ] && [ -x "$VSWCTL" ] && [ -x "$VSWGEN" ] || skip "binaries not built in $VSW_BIN"

T=$(mktemp -d /tmp/vswtest.XXXXXX)
RUN=$T/run
mkdir -p "$RUN"
ID=$$
PREFIX=vswt$ID
prefix_add "$PREFIX"
VSW_PFX=$PREFIX

dump_logs() {
	[ -n "${KEEP_T:-}" ] && cp -a "$T" "$KEEP_T" 2>/dev/null
	for f in "$T"/*.log; do
		[ -f "$f" ] || continue
		echo "----- $(basename "$f") (last 30 lines)"
		tail -n 30 "$f"
	done
}

# every process stopped, every prefix's runtime dir and hugepage files
# and $T removed: on success, failure and interruption alike
on_cleanup 'rm -rf "$T"'
cleanup() { vsw_cleanup; }
lib_trap 'exit 1'

ctl() { "$VSWCTL" --file-prefix "$PREFIX" "$@"; }
jctl() { "$VSWCTL" --file-prefix "$PREFIX" --json "$@"; }
# port_ctr PORT KEY: one counter of one port
port_ctr() { jctl port "$1" | jq -r ".$2"; }
info_val() { jctl info | jq -r ".$1"; }
# ctl_holds JQ_EXPR VSWCTL_ARGS...: the JSON of vswctl --json ARGS makes
# JQ_EXPR true (for wait_for: ctl_holds '.entries | length >= 2' fdb)
ctl_holds() { local e=$1; shift; jctl "$@" | jq -e "$e" >/dev/null; }
# fdb_port MAC: the port MAC is learned on (empty: none)
fdb_port() { jctl fdb | jq -r --arg m "$1" '.entries[] | select(.mac == $m) | .port'; }
fdb_has() { [ -n "$(fdb_port "$1")" ]; }

# wait_for SECONDS DESCRIPTION CMD...: poll CMD until it succeeds.
wait_for() {
	local secs=$1 what=$2
	shift 2
	wait_until "$secs" "$@" || fail "timeout (${secs}s) waiting for $what"
}

port_is() { [ "$(port_ctr "$1" state)" = "$2" ]; }
ctr_at_least() { [ "$(port_ctr "$1" "$2")" -ge "$3" ]; }
# Every frame a generator lost must be one vsw counted as the receiving
# port's drop_tx_full: a guest starved of CPU by other busy pollers on two
# shared cores did not drain its rx ring in time (vsw forwarded it).
# Usage: loss_accounted NAME GEN_JSON RX_PORT
loss_accounted() {
	local lost full
	lost=$(jq .lost "$2")
	[ "$lost" -ne 0 ] || return 0
	full=$(port_ctr "$3" drop_tx_full)
	[ "$lost" -eq "$full" ] ||
		fail "$1 lost $lost frames, $full of them counted as $3's drop_tx_full"
	note "WARN: $1: $lost frames lost, all at $3's full rx ring (guest starved)"
}

# start_vsw_eal EAL_ARGS... -- VSW_ARGS...: vsw (memory: mem_args 512),
# log in $T/vsw.log, PID in VSW_PID; waits until it answers telemetry
start_vsw_eal() {
	# shellcheck disable=SC2046
	vsw_launch "$PREFIX" "$T/vsw.log" $(mem_args 512) "$@"
	vsw_wait_up 60 || fail "vsw did not come up (exited or no telemetry in 60 s)"
}
# start_vsw CONFIG [extra app args]: vsw on lcores 0 (control), 1 (worker)
start_vsw() { start_vsw_on '0@0,1@1' "$@"; }
# start_vsw_on LCORES CONFIG [extra app args]: vsw with EAL --lcores
# LCORES (e.g. '0@0,1@1,2@1': two workers sharing CPU 1)
start_vsw_on() {
	local lcores=$1 cfg=$2
	shift 2
	start_vsw_eal --lcores "$lcores" -- -c "$cfg" "$@"
}

# stop_vsw [SIGNAL]: SIGTERM (or SIGNAL), expect exit 0
stop_vsw() {
	local rc=0
	vsw_stop "${1:-TERM}" || rc=$?
	[ "$rc" -eq 0 ] || fail "vsw exited with $rc on SIG${1:-TERM}"
}

# start_guest NAME VDEV_ARGS -- VSWGEN_OPTS...: a vswgen guest on CPU 0.
# Its JSON result lands in $T/NAME.json, its log in $T/NAME.log; the PID
# is in GUEST_PID[NAME].
declare -A GUEST_PID
start_guest() {
	local name=$1 vdev=$2 gp=${PREFIX}g$1
	shift 3
	# shellcheck disable=SC2046
	dpdk_bg "$gp" "$T/$name.json" "$T/$name.log" \
		"$VSWGEN" -l 0 --file-prefix "$gp" $(mem_args 256) --single-file-segments \
		--no-pci --vdev "$vdev" -- --tx-port 0 --rx-port 0 --json --quiet \
		--poll-sleep-us 20 "$@"
	GUEST_PID[$name]=$BG_PID
}
virtio() { virtio_vdev 0 "$@"; }

# wait_guest NAME: wait for a guest to finish its trial, exit 0
wait_guest() {
	local rc=0
	reap_pid "${GUEST_PID[$1]}" || rc=$?
	[ "$rc" -eq 0 ] || fail "guest $1 exited with $rc"
}
# finish_guest NAME: end a guest's trial now, as at its --duration
# (vswgen's SIGUSR1: drained, reported, exit 0), and wait for it; for a
# receiver that already has what the test waits for
finish_guest() {
	kill -USR1 "${GUEST_PID[$1]}" 2>/dev/null || true
	wait_guest "$1"
}
guest_val() { jq -r ".$2" "$T/$1.json"; }
# mbufs_back BASE: a second to drain, then every mbuf of both pools back
# (mbufs_in_use as it was before the traffic)
mbufs_back() {
	local used
	sleep 1
	used=$(info_val mbufs_in_use)
	[ "$used" -eq "$1" ] || fail "mbufs in use $used, $1 before"
}

# gen_usage_errors PATTERN ARGS...: each ARGS (one string of vswgen
# options) is a usage error: no EAL, exit 2, a message matching PATTERN
gen_usage_errors() {
	local pat=$1 bad rc
	shift
	for bad in "$@"; do
		rc=0
		# shellcheck disable=SC2086
		"$VSWGEN" -- $bad >"$T/bad.out" 2>&1 || rc=$?
		[ "$rc" = 2 ] || fail "vswgen -- $bad: exit $rc, expected 2"
		grep -q -- "$pat" "$T/bad.out" || fail "vswgen -- $bad: $(cat "$T/bad.out")"
	done
}

# start_v2v NAME [--ports TX RX] VSWGEN_OPTS...: one generator process
# with a guest port on each of vsw's ports TX and RX (default a and b,
# sockets $RUN/TX.sock, $RUN/RX.sock); its JSON result lands in
# $T/NAME.json (exact loss and reordering); PID in GEN.
start_v2v() {
	local name=$1 gp=${PREFIX}g$1 tx=a rx=b
	shift
	if [ "${1:-}" = --ports ]; then tx=$2 rx=$3; shift 3; fi
	# shellcheck disable=SC2046
	dpdk_bg "$gp" "$T/$name.json" "$T/$name.log" \
		"$VSWGEN" -l 0 --file-prefix "$gp" $(mem_args 512) --single-file-segments --no-pci \
		--vdev "$(virtio_vdev 0 "$RUN/$tx.sock")" --vdev "$(virtio_vdev 1 "$RUN/$rx.sock")" -- \
		--tx-port 0 --rx-port 1 --announce 3 --json --quiet "$@"
	GEN=$BG_PID
}
# run_v2v NAME VSWGEN_OPTS...: the same, in the foreground; fails on error
run_v2v() {
	start_v2v "$@"
	reap_pid "$GEN" || fail "generator $1: $(tail -3 "$T/$1.log")"
}

# write a config with vhost-user server ports NAME... in $RUN
vhost_config() {
	local f=$T/vsw.conf
	{
		echo "[switch]"
		echo "run-dir = $RUN"
		echo "mbufs = 8191"
		echo "fdb-size = 4096"
		for p in "$@"; do
			echo "[port $p]"
			echo "type = vhost-user"
			echo "path = $RUN/$p.sock"
		done
	} >"$f"
	echo "$f"
}

# ovsdb_vsw_setup DIR: a private ovsdb-server in DIR (stopped at cleanup;
# tools/lib/vsw.sh ovsdb_launch) and, in CFG, an empty switch
# (vhost_config's [switch]) that takes its ports from it, DIR being OVS's
# run directory (socket-dirs); OV=DIR; vs runs the real ovs-vsctl on it
ovsdb_vsw_setup() {
	OV=$1
	on_cleanup ovsdb_stop
	ovsdb_launch "$OV" "$T/ovsdb.log" || fail "ovsdb-server did not start: $(cat "$T/ovsdb.log")"
	CFG=$(vhost_config)
	printf 'ovsdb = unix:%s/db.sock\nsocket-dirs = %s\n' "$OV" "$OV" >>"$CFG"
}
vs() { ovs-vsctl --db="unix:$OV/db.sock" --timeout=20 "$@"; }

mac_of() { printf '02:00:00:00:00:%02x' "$1"; }

# netns_veth NS DEV: network namespace NS and a veth pair, DEV in the root
# namespace (for a vsw net_af_packet port) and DEVp inside NS, both up,
# without IPv6 (no router solicitations or MLD reports on the wire); both
# removed at cleanup, after vsw and every process stopped
netns_veth() {
	local ns=$1 d=$2
	on_cleanup "ip netns del $ns 2>/dev/null; ip link del $d 2>/dev/null"
	ip netns add "$ns" || fail "ip netns add $ns"
	ip link add "$d" type veth peer name "${d}p" || fail "ip link add $d"
	ip link set "${d}p" netns "$ns" || fail "ip link set ${d}p netns $ns"
	sysctl -qw "net.ipv6.conf.$d.disable_ipv6=1" 2>/dev/null
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 2>/dev/null
	ip netns exec "$ns" sysctl -qw "net.ipv6.conf.${d}p.disable_ipv6=1" 2>/dev/null
	ip link set "$d" up
	ip netns exec "$ns" ip link set "${d}p" up
	ip netns exec "$ns" ip link set lo up
}
