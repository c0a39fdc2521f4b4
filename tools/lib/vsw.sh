#!/bin/bash
# tools/lib/vsw.sh: the shell helpers shared by tools/lib/harness.sh,
# tools/bench, tools/bench-notify, tools/soak and tools/quickstart. Source
# it; it runs nothing by itself. Safe under set -euo pipefail.
#
#   processes    bg, track, untrack, pid_live, stop_pid, reap_pid
#   DPDK         prefix_add, prefix_clean: --file-prefix runtime dirs and
#                hugepage files, removed at cleanup
#   cleanup      vsw_cleanup (the EXIT trap: on_cleanup_early hooks, every
#                tracked process stopped, every prefix cleaned,
#                on_cleanup hooks last-in first-out); lib_trap installs it
#   hugepages    huge_free_mb, huge_ok, hugepages_reserve, eal_mem, mem_args
#   waiting      wait_until SECS CMD...
#   vsw          vsw_bins, vsw_launch, vsw_wait_up, vsw_stop, pin_threads
#   guests       virtio_vdev, dpdk_bg (vswgen, testpmd: any DPDK app)
#   telemetry    tel, tel_data, tel_multi (vswctl --json raw)
#   OVS-DPDK     ovs_installed, ovs_launch, ovs_vsctl, ovs_appctl,
#                ovs_shutdown (a private ovsdb-server + ovs-vswitchd);
#                ovsdb_launch, ovsdb_stop (ovsdb-server alone)
#
# State: PIDS (tracked processes), PREFIXES (DPDK file prefixes), VSW_PID,
# VSW_PFX (the vsw last launched), BG_PID (the process bg last started).
# Binaries: VSW, VSWCTL, VSWGEN (vsw_bins DIR sets them).

PIDS=()
PREFIXES=()
VSWLIB_EARLY=()
VSWLIB_LATE=()
VSW_PID=
VSW_PFX=
WAIT_POLL=${WAIT_POLL:-0.2}

vsw_bins() { # DIR: vsw, vswctl, vswgen from DIR
	VSW=$1/vsw
	VSWCTL=$1/vswctl
	VSWGEN=$1/vswgen
}

# ---------------------------------------------------------------- processes
track() { PIDS+=("$@"); }
untrack() { # PID: forget it (once reaped its PID may be reused)
	local p keep=()
	for p in "${PIDS[@]}"; do [ "$p" = "$1" ] || keep+=("$p"); done
	PIDS=("${keep[@]}")
}
# bg OUT ERR CMD...: CMD in the background, stdout to OUT, stderr to ERR
# (ERR may be OUT); tracked; its PID in BG_PID
bg() {
	local o=$1 e=$2
	shift 2
	if [ "$o" = "$e" ]; then
		"$@" >"$o" 2>&1 &
	else
		"$@" >"$o" 2>"$e" &
	fi
	BG_PID=$!
	track "$BG_PID"
}
# pid_live PID: the process exists and is not a zombie
pid_live() {
	local s
	s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	s=${s##*) }
	[ "${s%% *}" != Z ]
}
# stop_pid PID [SECS]: SIGTERM, up to SECS (default 5) for it to go, then
# SIGKILL; reaped when it is our child, and untracked
stop_pid() {
	local p=$1 n=$(( ${2:-5} * 10 )) i
	if pid_live "$p"; then
		kill -TERM "$p" 2>/dev/null
		for ((i = 0; i < n; i++)); do pid_live "$p" || break; sleep 0.1; done
		pid_live "$p" && kill -KILL "$p" 2>/dev/null
	fi
	wait "$p" 2>/dev/null || true
	untrack "$p"
	return 0
}
# reap_pid PID: wait for our child PID, untrack it; returns its exit status
reap_pid() {
	local rc=0
	wait "$1" || rc=$?
	untrack "$1"
	return "$rc"
}

# ---------------------------------------------------------------- DPDK prefixes
prefix_add() { PREFIXES+=("$@"); }
hugetlbfs_mounts() { awk '$3 == "hugetlbfs" {print $2}' /proc/mounts; }
# prefix_clean PREFIX: its runtime dir and hugepage files (left by a killed
# process)
prefix_clean() {
	local m
	rm -rf "/var/run/dpdk/$1"
	for m in $(hugetlbfs_mounts); do
		rm -f "$m/$1"map_* "$m/$1"-* 2>/dev/null
	done
	return 0
}

# ---------------------------------------------------------------- cleanup
on_cleanup_early() { VSWLIB_EARLY+=("$*"); } # before processes are stopped
on_cleanup() { VSWLIB_LATE+=("$*"); }        # after; last in, first out
vsw_cleanup() {
	local p i n
	for p in "${VSWLIB_EARLY[@]}"; do eval "$p" || true; done
	VSWLIB_EARLY=()
	# all at once, newest first, then each its 5 s before SIGKILL
	for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
		pid_live "${PIDS[$i]}" && kill -TERM "${PIDS[$i]}" 2>/dev/null
	done
	for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
		p=${PIDS[$i]}
		for ((n = 0; n < 50; n++)); do pid_live "$p" || break; sleep 0.1; done
		pid_live "$p" && kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null || true
	done
	PIDS=()
	for p in "${PREFIXES[@]}"; do prefix_clean "$p"; done
	for ((i = ${#VSWLIB_LATE[@]} - 1; i >= 0; i--)); do eval "${VSWLIB_LATE[$i]}" || true; done
	VSWLIB_LATE=()
	return 0
}
# lib_trap [INT-ACTION]: vsw_cleanup on exit; SIGINT/SIGTERM run
# INT-ACTION (default: exit 1), which exits through it
lib_trap() {
	trap vsw_cleanup EXIT
	# shellcheck disable=SC2064
	trap "${1:-exit 1}" INT TERM
}

# ---------------------------------------------------------------- hugepages
# huge_free_mb: MiB of free hugepages (0 when no hugetlbfs is mounted)
huge_free_mb() {
	[ -n "$(hugetlbfs_mounts)" ] || { echo 0; return; }
	awk '/HugePages_Free/ {f = $2} /Hugepagesize/ {k = $2} END {print int(f * k / 1024)}' /proc/meminfo
}
# huge_ok MB: hugepages usable and at least MB MiB of them free;
# VSW_NO_HUGE=1 says no
huge_ok() { [ "${VSW_NO_HUGE:-0}" != 1 ] && [ "$(huge_free_mb)" -ge "$1" ]; }
# hugepages_reserve MB: mount hugetlbfs on /dev/hugepages if none is, and
# grow the pool until MB MiB are free; cleanup gives both back. Fails
# quietly: callers then see !huge_ok.
hugepages_reserve() {
	local free kb old
	if [ -z "$(hugetlbfs_mounts)" ]; then
		mkdir -p /dev/hugepages
		mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null &&
			on_cleanup "umount /dev/hugepages 2>/dev/null"
	fi
	free=$(huge_free_mb)
	[ "$free" -lt "$1" ] || return 0
	kb=$(awk '/Hugepagesize/ {print $2}' /proc/meminfo)
	old=$(cat /proc/sys/vm/nr_hugepages)
	echo $(( old + ($1 - free) * 1024 / kb )) >/proc/sys/vm/nr_hugepages 2>/dev/null &&
		on_cleanup "echo $old >/proc/sys/vm/nr_hugepages"
	return 0
}
# eal_mem HUGE MB: EAL memory options, hugepages (HUGE=1) or --no-huge
eal_mem() { if [ "$1" = 1 ]; then echo "-m $2"; else echo "--no-huge -m $2"; fi; }
# mem_args MB: hugepages when MB + 128 MiB of them are free, --no-huge
# otherwise (decided per call)
mem_args() {
	if huge_ok $(( $1 + 128 )); then eal_mem 1 "$1"; else eal_mem 0 "$1"; fi
}

# ---------------------------------------------------------------- waiting
# wait_until SECS CMD...: run CMD (quietly) every WAIT_POLL s until it
# succeeds; 1 after SECS. WAIT_HOOK (a command, optional) runs before each
# retry (tools/soak: stop at once when vsw died).
wait_until() {
	local end=$(( $(date +%s) + $1 ))
	shift
	until "$@" >/dev/null 2>&1; do
		[ -z "${WAIT_HOOK:-}" ] || eval "$WAIT_HOOK"
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep "$WAIT_POLL"
	done
}

# ---------------------------------------------------------------- vsw
# vsw_launch PREFIX LOG [WRAPPER... ---] EAL_ARGS... -- VSW_ARGS...: vsw
# in the background with --file-prefix PREFIX, stdout and stderr to LOG;
# VSW_PID, VSW_PFX. WRAPPER: e.g. taskset -c 0,1 ---
vsw_launch() {
	local pfx=$1 log=$2 wrap=()
	shift 2
	if [[ " $* " == *" --- "* ]]; then
		while [ "$1" != --- ]; do wrap+=("$1"); shift; done
		shift
	fi
	VSW_PFX=$pfx
	prefix_add "$pfx"
	bg "$log" "$log" "${wrap[@]}" "$VSW" --file-prefix "$pfx" "$@"
	VSW_PID=$BG_PID
}
vsw_answers() { "$VSWCTL" --file-prefix "$VSW_PFX" info >/dev/null 2>&1; }
# vsw_wait_up SECS: until vsw answers telemetry; 1 at once when it exited
vsw_wait_up() {
	local end=$(( $(date +%s) + $1 ))
	until vsw_answers; do
		pid_live "$VSW_PID" || return 1
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep "$WAIT_POLL"
	done
	pid_live "$VSW_PID"
}
# vsw_stop [SIGNAL [SECS]]: signal vsw (TERM), wait up to SECS (default
# VSW_STOP_SECS, else 60) for it to exit, SIGKILL after; returns its exit
# status. Its runtime dir goes.
vsw_stop() {
	local sig=${1:-TERM} n=$(( ${2:-${VSW_STOP_SECS:-60}} * 10 )) i rc=0
	[ -n "$VSW_PID" ] || return 0
	kill "-$sig" "$VSW_PID" 2>/dev/null || true
	for ((i = 0; i < n; i++)); do pid_live "$VSW_PID" || break; sleep 0.1; done
	pid_live "$VSW_PID" && kill -KILL "$VSW_PID" 2>/dev/null
	reap_pid "$VSW_PID" || rc=$?
	rm -rf "/var/run/dpdk/$VSW_PFX"
	VSW_PID=
	return "$rc"
}
# pin_threads PID WORKER_RE WORKER_CPU OTHER_CPU: every thread of PID whose
# name matches WORKER_RE (e.g. ^rte-worker-) to WORKER_CPU, the others to
# OTHER_CPU (telemetry, vhost, interrupt threads); prints the worker TIDs
pin_threads() {
	local pid=$1 re=$2 t n found=
	for t in /proc/"$pid"/task/*; do
		t=${t##*/}
		n=$(cat /proc/"$pid"/task/"$t"/comm 2>/dev/null) || continue
		if [[ $n =~ $re ]]; then
			taskset -pc "$3" "$t" >/dev/null 2>&1 || true
			found="$found $t"
		else
			taskset -pc "$4" "$t" >/dev/null 2>&1 || true
		fi
	done
	echo "${found# }"
}

# ---------------------------------------------------------------- guests
# virtio_vdev N PATH [DEVARGS]: a virtio-user port on vhost-user socket PATH
virtio_vdev() { echo "net_virtio_user$1,path=$2,queue_size=1024${3:+,${3#,}}"; }
# dpdk_bg PREFIX OUT ERR CMD...: a DPDK app (vswgen, testpmd; CMD carries
# --file-prefix PREFIX) in the background; prefix registered; BG_PID
dpdk_bg() {
	local pfx=$1
	shift
	prefix_add "$pfx"
	bg "$@"
}

# ---------------------------------------------------------------- telemetry
# tel CMD [PREFIX]: one telemetry command, its reply as vsw sends it
# ({"/vsw/port": {...}}); exit 1 when vsw reports an error
tel() { "$VSWCTL" --file-prefix "${2:-$VSW_PFX}" --json raw "$1"; }
# tel_data CMD [PREFIX]: the reply's data only ({...})
tel_data() { local r; r=$(tel "$@") && jq -c '.[]' <<<"$r"; }
# tel_multi CMD...: one JSON object {"CMD": data, ...} on one line (one
# vswctl per command, against VSW_PFX; one jq for all)
tel_multi() {
	local c r out=()
	for c in "$@"; do
		r=$("$VSWCTL" --file-prefix "$VSW_PFX" --json raw "$c" 2>/dev/null) || true
		[ -n "$r" ] || return 1
		out+=("$r")
	done
	printf '%s\n' "${out[@]}" | jq -cs --args '[$ARGS.positional, .] | transpose |
		map({(.[0]): (.[1] | if type == "object" and length == 1 then .[] else . end)}) | add' "$@"
}

# ---------------------------------------------------------------- OVS-DPDK
# A private OVS-DPDK (Debian's openvswitch-switch-dpdk) in a directory of
# its own: ovsdb-server and ovs-vswitchd, bridge br0 (netdev datapath).
OVS_VSWITCHD_DPDK=${OVS_VSWITCHD_DPDK:-/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk}
OVSD= OVS_PID= OVS_UP=0
ovs_installed() { [ -x "$OVS_VSWITCHD_DPDK" ] && command -v ovsdb-server >/dev/null; }
ovs_vsctl() { ovs-vsctl --db="unix:$OVSD/db.sock" --timeout=30 "$@"; }
ovs_appctl() { ovs-appctl --target="$OVSD/ovs-vswitchd.ctl" --timeout=30 "$@"; }
# ovs_launch DIR PREFIX MAIN_CPU PMD_CPU LOG [EAL_MEM...]: OVS in DIR
# (its db, sockets, logs), DPDK --file-prefix PREFIX (cleaned at exit),
# main lcore and ovsdb-server on MAIN_CPU, one pmd on PMD_CPU, no PCI;
# EAL_MEM e.g. --no-huge -m 1024 (default -m 1024). OVSD, OVS_PID.
# OVS_OTHER_CONFIG: more other_config:KEY=VALUE words set before
# ovs-vswitchd starts (e.g. other_config:userspace-tso-enable=true).
# OVS_NETNS: ovs-vswitchd runs in that network namespace (its bridges'
# kernel taps are made there).
ovs_launch() {
	local dir=$1 pfx=$2 mcpu=$3 pcpu=$4 log=$5 mem
	shift 5
	mem=${*:--m 1024}
	export OVS_RUNDIR=$dir OVS_DBDIR=$dir OVS_LOGDIR=$dir OVS_SYSCONFDIR=$dir OVS_PKGDATADIR=/usr/share/openvswitch
	prefix_add "$pfx"
	ovsdb_launch "$dir" "$log" "$mcpu" || return 1
	ovs_vsctl --no-wait set Open_vSwitch . other_config:dpdk-init=true \
		other_config:dpdk-lcore-mask="$(printf 0x%x $((1 << mcpu)))" \
		other_config:pmd-cpu-mask="$(printf 0x%x $((1 << pcpu)))" \
		"other_config:dpdk-extra=--no-pci --file-prefix $pfx $mem" \
		other_config:vhost-iommu-support=false ${OVS_OTHER_CONFIG:-}
	${OVS_NETNS:+ip netns exec "$OVS_NETNS"} \
		"$OVS_VSWITCHD_DPDK" "unix:$OVSD/db.sock" --pidfile="$OVSD/ovs-vswitchd.pid" \
		--unixctl="$OVSD/ovs-vswitchd.ctl" --log-file="$OVSD/ovs-vswitchd.log" \
		--no-chdir --detach >>"$log" 2>&1 || return 1
	OVS_PID=$(cat "$OVSD/ovs-vswitchd.pid")
	ovs_vsctl add-br br0 -- set bridge br0 datapath_type=netdev >>"$log" 2>&1
}
# ovsdb_launch DIR LOG [CPU]: a private ovsdb-server (Debian's
# openvswitch-common) with the vswitch schema's database DIR/conf.db (made
# when missing, kept when there: a restart keeps the rows), socket
# DIR/db.sock, pid, log and control socket in DIR; initialised (ovs-vsctl
# init); on CPU when given. OVSD=DIR. ovsdb_stop stops it alone.
ovsdb_launch() {
	local dir=$1 log=$2 cpu=${3:-}
	OVSD=$dir
	mkdir -p "$OVSD" || return 1
	[ -f "$OVSD/conf.db" ] || ovsdb-tool create "$OVSD/conf.db" \
		/usr/share/openvswitch/vswitch.ovsschema >>"$log" 2>&1 || return 1
	${cpu:+taskset -c "$cpu"} ovsdb-server "$OVSD/conf.db" --remote="punix:$OVSD/db.sock" \
		--pidfile="$OVSD/ovsdb-server.pid" --unixctl="$OVSD/ovsdb-server.ctl" \
		--log-file="$OVSD/ovsdb-server.log" --no-chdir --detach >>"$log" 2>&1 || return 1
	OVS_UP=1
	ovs_vsctl --no-wait init
}
ovsdb_stop() {
	[ -f "$OVSD/ovsdb-server.pid" ] && stop_pid "$(cat "$OVSD/ovsdb-server.pid")"
	rm -f "$OVSD/ovsdb-server.pid"
	return 0
}
# ovs_shutdown: both daemons asked to exit, then stopped; safe to repeat
ovs_shutdown() {
	[ "$OVS_UP" = 1 ] || return 0
	ovs_appctl exit >/dev/null 2>&1
	ovs-appctl --target="$OVSD/ovsdb-server.ctl" exit >/dev/null 2>&1
	local p
	for p in "$OVSD/ovs-vswitchd.pid" "$OVSD/ovsdb-server.pid"; do
		[ -f "$p" ] && stop_pid "$(cat "$p")"
	done
	OVS_UP=0 OVS_PID=
	unset OVS_RUNDIR OVS_DBDIR OVS_LOGDIR OVS_SYSCONFDIR OVS_PKGDATADIR
	return 0
}
