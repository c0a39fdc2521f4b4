#!/bin/bash
# Shared helpers of the integration tests: a private temp dir, file
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
VSW=$VSW_BIN/vsw
VSWCTL=$VSW_BIN/vswctl
VSWGEN=$VSW_BIN/vswgen

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
PIDS=()
PREFIXES=("$PREFIX")

dump_logs() {
	[ -n "${KEEP_T:-}" ] && cp -a "$T" "$KEEP_T" 2>/dev/null
	for f in "$T"/*.log; do
		[ -f "$f" ] || continue
		echo "----- $(basename "$f") (last 30 lines)"
		tail -n 30 "$f"
	done
}

cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	for p in "${PREFIXES[@]}"; do
		rm -rf "/var/run/dpdk/$p"
		rm -f /dev/hugepages/"$p"map_* /dev/hugepages/"$p"-* 2>/dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Memory options: hugepages when enough are free, --no-huge otherwise.
hugepages_free() { awk '/HugePages_Free/ {print $2}' /proc/meminfo; }
mem_args() { # MB
	if [ "${VSW_TEST_NO_HUGE:-0}" != 1 ] && grep -q hugetlbfs /proc/mounts &&
		[ "$(hugepages_free)" -ge $(( $1 / 2 + 64 )) ]; then
		echo "-m $1"
	else
		echo "--no-huge -m $1"
	fi
}

ctl() { "$VSWCTL" --file-prefix "$PREFIX" "$@"; }
jctl() { "$VSWCTL" --file-prefix "$PREFIX" --json "$@"; }
# port_ctr PORT KEY: one counter of one port
port_ctr() { jctl port "$1" | jq -r ".$2"; }
info_val() { jctl info | jq -r ".$1"; }

# wait_for SECONDS DESCRIPTION CMD...: poll CMD until it succeeds.
wait_for() {
	local secs=$1 what=$2; shift 2
	local end=$(( $(date +%s) + secs ))
	while ! "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$end" ] || fail "timeout (${secs}s) waiting for $what"
		sleep 0.2
	done
}

port_is() { [ "$(port_ctr "$1" state)" = "$2" ]; }
ctr_at_least() { [ "$(port_ctr "$1" "$2")" -ge "$3" ]; }

# start_vsw CONFIG [extra app args]: vsw on lcores 0 (control), 1 (worker)
start_vsw() { start_vsw_on '0@0,1@1' "$@"; }

# start_vsw_on LCORES CONFIG [extra app args]: vsw with EAL --lcores
# LCORES (e.g. '0@0,1@1,2@1': two workers sharing CPU 1)
start_vsw_on() {
	local lcores=$1 cfg=$2; shift 2
	# shellcheck disable=SC2046
	"$VSW" --lcores "$lcores" --file-prefix "$PREFIX" $(mem_args 512) -- \
		-c "$cfg" "$@" >"$T/vsw.log" 2>&1 &
	VSW_PID=$!
	PIDS+=("$VSW_PID")
	wait_for 60 "vsw telemetry" ctl info
	kill -0 "$VSW_PID" 2>/dev/null || fail "vsw exited"
}

# stop_vsw: SIGTERM, expect exit 0
stop_vsw() {
	kill -TERM "$VSW_PID"
	local rc=0
	wait "$VSW_PID" || rc=$?
	[ "$rc" -eq 0 ] || fail "vsw exited with $rc on SIGTERM"
}

# start_guest NAME VDEV_ARGS -- VSWGEN_OPTS...: a vswgen guest on CPU 0.
# Its JSON result lands in $T/NAME.json, its log in $T/NAME.log; the PID
# is in GUEST_PID[NAME].
declare -A GUEST_PID
start_guest() {
	local name=$1 vdev=$2; shift 3
	local gp=${PREFIX}g$name
	PREFIXES+=("$gp")
	# shellcheck disable=SC2046
	"$VSWGEN" -l 0 --file-prefix "$gp" $(mem_args 256) --single-file-segments \
		--no-pci --vdev "$vdev" -- --tx-port 0 --rx-port 0 --json --quiet \
		--poll-sleep-us 20 "$@" >"$T/$name.json" 2>"$T/$name.log" &
	GUEST_PID[$name]=$!
	PIDS+=("${GUEST_PID[$name]}")
}
virtio() { echo "net_virtio_user0,path=$1,queue_size=1024${2:+,$2}"; }

# wait_guest NAME: wait for a guest to finish its trial, exit 0
wait_guest() {
	local rc=0
	wait "${GUEST_PID[$1]}" || rc=$?
	[ "$rc" -eq 0 ] || fail "guest $1 exited with $rc"
}
guest_val() { jq -r ".$2" "$T/$1.json"; }

# start_v2v NAME VSWGEN_OPTS...: one generator process with a guest port
# on each of vsw's ports a (tx) and b (rx); its JSON result lands in
# $T/NAME.json (exact loss and reordering); PID in GEN.
start_v2v() {
	local name=$1 gp=${PREFIX}g$1; shift
	PREFIXES+=("$gp")
	# shellcheck disable=SC2046
	"$VSWGEN" -l 0 --file-prefix "$gp" $(mem_args 512) --single-file-segments --no-pci \
		--vdev "$(virtio "$RUN/a.sock")" --vdev "net_virtio_user1,path=$RUN/b.sock,queue_size=1024" -- \
		--tx-port 0 --rx-port 1 --announce 3 --json --quiet "$@" \
		>"$T/$name.json" 2>"$T/$name.log" &
	GEN=$!
	PIDS+=("$GEN")
}
# run_v2v NAME VSWGEN_OPTS...: the same, in the foreground; fails on error
run_v2v() {
	start_v2v "$@"
	wait "$GEN" || fail "generator $1: $(tail -3 "$T/$1.log")"
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

mac_of() { printf '02:00:00:00:00:%02x' "$1"; }
