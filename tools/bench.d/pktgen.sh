# tools/bench.d/pktgen.sh: pktgen-dpdk as a second generator for
# tools/bench (sourced by it; runs nothing by itself). See
# docs/benchmarking.md ("pktgen-dpdk as the generator").
#
# The hooks tools/bench calls:
#   pktgen_opt OPTION VALUE   --gen LIST (vswgen, pktgen) / --pktgen PATH
#   pktgen_plan               after the options and blocks: find the
#                             binary, decide; --gen without vswgen: the
#                             main block only (unless blocks were named),
#                             nothing rides on vswgen's main trials
#   pktgen_vswgen             0 when vswgen trials run (--gen has vswgen)
#   pktgen_maybe DUT SCEN SIZE ROUND
#                             after each vswgen trial slot: a pktgen trial
#                             of the same case when it is in the plan
#   pktgen_trial DUT SCEN SIZE ROUND
#                             one trial: DUT fresh, pktgen on --gen-cpu,
#                             one JSON line in $TRIALS (block "pktgen",
#                             generator "pktgen")
#
# Default (no --gen): vswgen for everything plus, when a pktgen binary is
# found, a pktgen cross-check of vsw, v2v, 64 B in every round. --gen with
# pktgen: a pktgen trial of every planned v2v case (each DUT, each size up
# to 1514). The rate is measured over a steady window in the middle of the
# run, both from pktgen's own port counters (DPDK telemetry of the pktgen
# process: /ethdev/stats,0 opackets, /ethdev/stats,1 ipackets) and from
# the DUT's (vsw: /vsw/port,vm1 tx_packets; testpmd: its /ethdev/stats,1
# opackets; OVS: ovs-ofctl dump-ports br0 2, tx pkts).
#
# lcores: pktgen refuses to put a port on its main lcore, so it needs two.
# Both are mapped onto the generator's one CPU (--lcores 0@G,1@G, -m
# '1.[0-1]': lcore 1 does TX on port 0 and RX on port 1). The main lcore
# sleeps in the command file's "delay" for the whole measurement, and
# tools/bench.d/pktgen-23.03-timer-sleep.patch makes pktgen's display timer
# thread sleep instead of spin, so lcore 1 has the CPU to itself.

PKTGEN=${PKTGEN:-}
PKTGEN_GENS=    # --gen LIST; empty: the default
PKTGEN_ON=0     # pktgen trials in this run
PKTGEN_ALL=0    # every planned v2v case (--gen named pktgen), not just vsw 64
PKTGEN_WARM=${PKTGEN_WARM:-2}   # s of traffic before the window
PKTGEN_SPARE=${PKTGEN_SPARE:-3} # s of traffic after it (tests: 1)

pktgen_opt() { # OPTION VALUE
	case $1 in
	--gen)
		local g
		for g in ${2//,/ }; do
			case $g in vswgen | pktgen) ;;
			*) echo "bench: --gen: expected a list of vswgen and pktgen, not '$g'" >&2; exit 2 ;;
			esac
		done
		PKTGEN_GENS=,$2, ;;
	--pktgen) PKTGEN=$2 ;;
	esac
}

pktgen_vswgen() { [ -z "$PKTGEN_GENS" ] || [[ $PKTGEN_GENS == *,vswgen,* ]]; }

pktgen_plan() {
	local want=0
	[[ $PKTGEN_GENS == *,pktgen,* ]] && want=1 PKTGEN_ALL=1
	if [ -z "$PKTGEN" ]; then
		PKTGEN=$(command -v pktgen 2>/dev/null || true)
		[ -n "$PKTGEN" ] || PKTGEN=/opt/pktgen/bin/pktgen
	fi
	if [ ! -x "$PKTGEN" ]; then
		if [ $want = 1 ]; then
			echo "bench: --gen pktgen: no pktgen binary at $PKTGEN (give --pktgen PATH; build it with tools/build-pktgen)" >&2
			exit 2
		fi
		return 0
	fi
	if [ -n "$vlan" ] || [ "$portsec" != none ]; then
		echo "bench: no pktgen trials with --vlan or --portsec (pktgen sends untagged IPv4 frames)" >&2
		[ $want = 0 ] || exit 2
		return 0
	fi
	PKTGEN_ON=1
	if ! pktgen_vswgen; then
		[[ " $ARGS " =~ \ --(main|scale|latency|fdb-scale)\  ]] || blocks=" main"
		LAT_PIGGY=0 SCALE2_FROM_MAIN=0
	fi
	echo "== pktgen: $PKTGEN ($( [ $PKTGEN_ALL = 1 ] && echo "every v2v case" || echo "cross-check: vsw v2v 64 B"))" >&2
}

pktgen_maybe() { # DUT SCEN SIZE ROUND
	[ $PKTGEN_ON = 1 ] && [ "$2" = v2v ] || return 0
	if [ $PKTGEN_ALL = 0 ]; then
		[ "$1" = vsw ] && [ "$3" = 64 ] || return 0
	fi
	if [ "$3" -gt 1514 ]; then
		note "-- pktgen r$4 $1 $2 ${3}B: skipped (pktgen's largest frame is 1514 B without -j)"
		return 0
	fi
	pktgen_trial "$@"
}

# The DUT's forwarded-packet counter towards port B (vm1). -> "NS COUNT"
pktgen_dut_count() { # DUT
	local n= t
	t=$(date +%s%N)
	case $1 in
	vsw) n=$(tel /vsw/port,vm1 | jq '.[].tx_packets') ;;
	testpmd-io) n=$(tel /ethdev/stats,1 "$TP_PFX" | jq '.[].opackets') ;;
	ovs-*) n=$(ovs-ofctl dump-ports br0 2 2>/dev/null |
		awk '/tx pkts=/ {sub(/.*tx pkts=/, ""); sub(/,.*/, ""); print; exit}') ;;
	esac
	echo "$t ${n:-null}"
}
# pktgen's own counters, each with the time it was read:
# "NS TX_PORT0 NS RX_PORT1"
pktgen_count() { # PREFIX
	local t0 a t1 b
	t0=$(date +%s%N)
	a=$(tel /ethdev/stats,0 "$1" 2>/dev/null | jq '.[].opackets')
	t1=$(date +%s%N)
	b=$(tel /ethdev/stats,1 "$1" 2>/dev/null | jq '.[].ipackets')
	echo "$t0 ${a:-null} $t1 ${b:-null}"
}

# A vdev argument for pktgen: the generator's, with speed=200000 on
# virtio-user ports (rate 100 % then means unbounded).
pktgen_vdev() { # --vdev=...
	case $1 in *net_virtio_user*) echo "$1,speed=200000" ;; *) echo "$1" ;; esac
}
pktgen_run() { "$@" </dev/null; } # stdin: pktgen's CLI reads it

PKTGEN_N=0
pktgen_trial() { # DUT SCEN SIZE ROUND
	local dut=$1 scen=$2 size=$3 round=$4 ok=1 probe_ns before=null after=null
	PKTGEN_N=$((PKTGEN_N + 1))
	local tag=p$PKTGEN_N-$dut-$scen-$size-r$round
	local pfx=benchpktgen$$_$PKTGEN_N cmd=$T/$tag.pkt plog=$LOG/$tag.pktgen.log
	local run_ms g0= g1= d0= d1= s0= s1= pid
	run_ms=$(awk -v a="$PKTGEN_WARM" -v d="$duration" -v b="$PKTGEN_SPARE" \
		'BEGIN {printf "%d", (a + d + b) * 1000}')
	probe_ns=$(probe)
	note "-- [${SECONDS}s] pktgen r$round $dut $scen ${size}B: probe ${probe_ns} ns"
	CPP=
	dut_start "$dut" "$scen" "$tag" 65536 || ok=0
	sed -e "s/@SIZE@/$((size + 4))/" -e "s/@MAC_A@/$GEN_MAC_A/" -e "s/@MAC_B@/$GEN_MAC_B/" \
		-e "s/@RUN_MS@/$run_ms/" "$HELP/pktgen-v2v.pkt" >"$cmd"
	if [ $ok = 1 ]; then
		dpdk_bg "$pfx" "$plog" "$plog" pktgen_run taskset -c "$gen_cpu" "$PKTGEN" \
			--lcores "0@$gen_cpu,1@$gen_cpu" --main-lcore 0 --file-prefix "$pfx" $MEM_GEN \
			--no-pci --single-file-segments "$(pktgen_vdev "$GEN_A")" "$(pktgen_vdev "$GEN_B")" \
			-- -m '1.[0-1]' -f "$cmd"
		pid=$BG_PID
		case $dut in ovs-*) ovs_add_ports ;; esac
		[ -n "$DUT_WORKER" ] || note "   (no worker thread found to pin)"
		# the measurement phase has begun when port 0 has sent more than
		# the 64 priming frames
		if pktgen_wait_sending "$pid" "$pfx" 60; then
			sleep "$PKTGEN_WARM"
			[ $dut = vsw ] && before=$(vsw_counters)
			s0=$(sched_snap)
			g0=$(pktgen_count "$pfx") d0=$(pktgen_dut_count "$dut")
			sleep "$duration"
			g1=$(pktgen_count "$pfx") d1=$(pktgen_dut_count "$dut")
			s1=$(sched_snap)
			[ $dut = vsw ] && after=$(vsw_counters)
		else
			note "   pktgen did not start sending (exited: $(pid_live "$pid" && echo no || echo yes); see $plog)"
			ok=0
		fi
		wait_until $((run_ms / 1000 + 15)) pktgen_gone "$pid" || note "   pktgen did not quit: stopped"
		stop_pid "$pid"
		prefix_clean "$pfx"
		dut_cycles "$dut" "$tag" # testpmd, OVS: CPP over their whole run
	fi
	dut_stop "$dut"
	pktgen_record "$dut" "$scen" "$size" "$round" "${probe_ns:-}" "$ok" "$g0" "$g1" \
		"$d0" "$d1" "$before" "$after" "$CPP" "$s0" "$s1" "$plog"
}
# until port 0 has sent more than the priming frames; 1 at once when
# pktgen exited, or after SECS
pktgen_wait_sending() { # PID PREFIX SECS
	local end=$(( $(date +%s) + $3 )) n
	while pid_live "$1" && [ "$(date +%s)" -lt "$end" ]; do
		n=$(tel /ethdev/stats,0 "$2" 2>/dev/null | jq '.[].opackets')
		[ "${n:-0}" -gt 1000 ] 2>/dev/null && return 0
		sleep "$WAIT_POLL"
	done
	return 1
}
pktgen_gone() { ! pid_live "$1"; }

# One JSON line in $TRIALS (tools/bench.d/pktgen_record.py)
pktgen_record() { # DUT SCEN SIZE ROUND PROBE OK G0 G1 D0 D1 BEFORE AFTER CPP S0 S1 LOG
	python3 "$HELP/pktgen_record.py" "$TRIALS" "$@" >&2
}
