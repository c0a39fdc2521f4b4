#!/bin/bash
# Objective: a hostile vhost-user frontend on port c cannot hurt the switch.
# vhost_hostile (tests/hostile) speaks vhost-user to c's socket and runs its
# attack scenarios one at a time (malformed messages, absurd rings and
# memory tables, bad fds, malicious TX descriptors, blocking notification
# fds, connection storms) while a v2v generator sends A->B at 20000 pps.
# After every scenario vsw is alive and answers telemetry, and the attacker
# reports no denial of service to other connections and no fd or mapping
# left behind; the DPDK heap holds no more allocations than before it.
# Every generator trial spanning the attack loses nothing and no frame in
# it waits STALL_MS or more, so forwarding A->B never stopped; a loss at
# b's full rx ring is forgiven only up to four times the rate a baseline
# trial without an attack lost there.  At the
# end mbufs_in_use, vsw's open fds and DPDK heap allocations are back to
# what they were before any guest came, vsw maps none of the attacker's
# memory, and c still serves a normal guest that receives broadcasts.
#
# By default (the suite) every scenario runs (~3 min under ASan here; the
# heavy ones were left out until the suite missed reconnect_storm's
# failure); HOSTILE_QUICK=1 leaves out the heavy ones but kick_blocking
# and call_pipe_full (~2.5 min), for a quicker look.  Scenarios
# that only DPDK 22.11 itself fails, and vsw cannot stop from outside the
# library, are left out unless HOSTILE_DPDK=1 (docs/security.md):
# fds_on_bad_index (the library leaks the fds of a vring message whose
# index is >= 256, before any hook runs), mem_shrink_running (guest memory
# truncated under a running device: SIGBUS in the library's copy).
# payload_stall and reply_flood were such until the guard bounded the
# connection's reads and replies; they run now, with the ring-state
# attacks (vring_num_running, vring_base_packed, packed_after_num) and the
# unread-socket ones (reply_block_running, log_block_running).
# reconnect_quick (40) and, heavy, reconnect_storm (1100): connect,
# handshake, close and connect again at once; every one must complete
# (vsw refused each reconnect that came before the library had read the
# old connection's close, until it took such a one as the successor).
# rx_disabled_running: the attacker disables its running pair 0's rx
# ring, then enables it, while a device on p sends it unicast; checked
# here: c's drop_tx_full counts the frames sent while disabled, none was
# written into the ring, then or later (each phase's frames carry their
# own mark), all 20 after enabling arrive, and `vswctl queues c` said
# meanwhile that q0's rx ring is not enabled.
# rx_pair0_off_mq: the attacker brings up two queue pairs (MQ), disables
# pair 0's rx ring and keeps pair 1's: all 20 frames sent meanwhile
# arrive on pair 1, none in the disabled ring, and all 20 after enabling
# it again (vsw dropped them as tx_full until it sent a disabled pair 0's
# frames to the lowest pair whose rx ring is enabled).
# 51_stalled_frontend holds the stalling ones longer, timing vswctl and a
# port-del of the stalled port meanwhile.
# HOSTILE_SCENARIOS="name ..." runs only those (vhost_hostile --list names
# them); HOSTILE_SKIP="name ..." leaves some out.  A scenario that kills or
# wedges vsw ends the attack: the failure names it, with vsw's exit status
# or a gdb backtrace of every thread.  HOSTILE_KEEP=DIR keeps the logs.
# Against DPDK 22.11 several scenarios fail on the library's own bugs
# (fd leaks, memory leaks, blocking reads and writes on the peer's fds,
# SIGBUS on guest memory past the end of its file); see the report of the
# commit that added this test.
. "$(dirname "$0")/lib.sh"

HOSTILE=${VSW_HOSTILE:-$VSW_BIN/vhost_hostile}
[ -x "$HOSTILE" ] || skip "vhost_hostile is not built ($HOSTILE)"
command -v timeout >/dev/null || skip "coreutils timeout is missing"

RATE=20000
# A frame delayed this long means vsw's worker stopped: the blocking
# attacks hold it for 2000 ms.  (Not tx_dropped: on two shared cores a
# descheduled worker lets the generator's ring overflow without any
# attack; frame delays then stay around 100 ms.)
STALL_MS=1000
TRIAL=30  # s per generator trial; trials are chained over the attack
MARGIN=10 # a scenario starts only with this much of its trial left
# Scenarios that stress the data path or the whole control thread: at most
# one per generator trial, so that a trial's loss names its culprit.
HEAVY=" tx_giant reconnect_storm conn_flood heap_hog "
HEAVY+="kick_blocking call_pipe_full call_eventfd_full reset_owner_loop "
HEAVY+="call_eventfd_filled call_eventfd_slow "
QUICK_HEAVY=" kick_blocking call_pipe_full "
KNOWN_DPDK=" fds_on_bad_index mem_shrink_running "

keep_evidence() {
	[ -n "${HOSTILE_KEEP:-}" ] || return 0
	mkdir -p "$HOSTILE_KEEP" && cp -a "$T"/. "$HOSTILE_KEEP"/ 2>/dev/null
	echo "logs kept in $HOSTILE_KEEP"
}
trap 'keep_evidence; cleanup' EXIT

# vsw's open fds: the fewest of three looks (a telemetry client's socket
# may linger a moment after vswctl returns).
vsw_fds() {
	local n min=999999
	for _ in 1 2 3; do
		n=$(find "/proc/$VSW_PID/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
		[ "$n" -lt "$min" ] && min=$n
		sleep 0.3
	done
	echo "$min"
}
vsw_maps() { grep -c 'memfd:vhost-hostile' "/proc/$VSW_PID/maps" 2>/dev/null; }
heap() { # "Alloc_count Alloc_size" of DPDK heap 0; the count leaves out
	# what a debug build holds in quarantine (retired, not freed yet)
	local q
	q=$(jctl info | jq '.quarantined // 0')
	jctl raw /eal/heap_info,0 | jq -r --argjson q "$q" \
		'."/eal/heap_info" | "\(.Alloc_count - $q) \(.Alloc_size)"'
}
drops() { jctl port "$1" | jq -c 'with_entries(select(.key | startswith("drop")))'; }
vsw_alive() {
	local st
	st=$(awk '{print $3}' "/proc/$VSW_PID/stat" 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

# vsw dead or deaf after scenario $1: say how, with evidence, and stop.
vsw_down() {
	local rc=0
	if ! vsw_alive; then
		wait "$VSW_PID" || rc=$?
		[ "$rc" -gt 128 ] && rc="$rc (signal $((rc - 128)): $(kill -l $((rc - 128))))"
		fail "vsw died during scenario $1, exit status $rc"
	fi
	note "vsw does not answer telemetry after scenario $1: backtraces"
	if command -v gdb >/dev/null; then
		timeout 60 gdb -p "$VSW_PID" -batch -ex 'thread apply all bt' \
			>"$T/gdb.log" 2>&1
		grep -E '^Thread|^#' "$T/gdb.log"
	fi
	fail "vsw hangs after scenario $1"
}

# Generator trials: chained so that every scenario runs inside one.
TRIALS=0
TRIAL_HEAVY=0
TRIAL_SCEN=""
trial_start() {
	TRIALS=$((TRIALS + 1))
	local b0
	b0=$(port_ctr b tx_packets)
	B_FULL0=$(port_ctr b drop_tx_full)
	start_v2v "gen$TRIALS" --rate "$RATE" --duration "${1:-$TRIAL}"
	wait_for 60 "a up (trial $TRIALS)" port_is a up
	wait_for 60 "b up (trial $TRIALS)" port_is b up
	wait_for 30 "A->B traffic (trial $TRIALS)" ctr_at_least b tx_packets $((b0 + 1000))
	TRIAL_T0=$(date +%s)
	TRIAL_HEAVY=0
	TRIAL_SCEN=""
}
trial_end() {
	local j lost full
	# the trial ends now, drained and reported (vswgen's SIGUSR1), not
	# at its --duration: the attacks it spans are over
	kill -USR1 "$GEN" 2>/dev/null || true
	wait "$GEN" || fail "generator trial $TRIALS: $(tail -3 "$T/gen$TRIALS.log")"
	j=$(jq -c '{tx_packets, tx_dropped, rx_packets, lost, reordered,
		max_delay_ms: (.latency_ns.max / 1000000 | floor)}' "$T/gen$TRIALS.json")
	note "trial $TRIALS:$TRIAL_SCEN: $j"
	note "  vsw drops so far: a $(drops a), b $(drops b)"
	lost=$(echo "$j" | jq .lost)
	full=$(($(port_ctr b drop_tx_full) - B_FULL0))
	if [ "$lost" -gt 0 ] && [ "$lost" -eq "$full" ] &&
		[ "$(echo "$j" | jq .max_delay_ms)" -lt "$STALL_MS" ] &&
		[ "$full" -le "$FULL_ALLOW" ]; then
		# vsw forwarded them; the generator, starved of CPU by other
		# busy pollers, did not drain its own rx ring in time -- no
		# more often than in the baseline trial without an attack (an
		# attack that stalls the worker for less than STALL_MS makes it
		# forward a pile at once and overflows b's ring too)
		note "WARN: trial $TRIALS lost $lost frames, all at b's full rx ring (generator starved; baseline allows $FULL_ALLOW)"
		lost=0
	fi
	if [ "$lost" -ne 0 ] || [ "$(echo "$j" | jq .rx_packets)" -eq 0 ] ||
		[ "$(echo "$j" | jq .max_delay_ms)" -ge "$STALL_MS" ]; then
		BAD+=("A->B lost or stalled during trial $TRIALS (ran:$TRIAL_SCEN): $j")
	fi
}
trial_room() { # $1: scenario about to run
	local heavy=0
	[[ $HEAVY == *" $1 "* ]] && heavy=1
	if [ $(($(date +%s) - TRIAL_T0)) -gt $((TRIAL - MARGIN)) ] ||
		[ $((heavy + TRIAL_HEAVY)) -gt 1 ]; then
		trial_end
		trial_start
	fi
	TRIAL_HEAVY=$((TRIAL_HEAVY + heavy))
	TRIAL_SCEN="$TRIAL_SCEN $1"
}

# What the attacker saw that is a failure of vsw (see vhost_hostile.c).
judge() { # $1: name, $2: the program's line
	local why=""
	case "$2" in
	*"did not answer within"*) why="stopped answering the attacker" ;;
	*"got no answer"* | *"gets no answer"* | *": not served"* | *"was refused"* | \
		*"is refused"* | *"closed unanswered"* | *"other guest: closed"*)
		why="denied service to other connections" ;;
	*"more fds than before"*) why="leaked fds" ;;
	*"still maps our guest memory"*) why="kept the attacker's memory mapped" ;;
	*"RESET_OWNER: replied an error"*) ;; # vsw refuses it on purpose
	*"handshake failed"*) why="refused a correct handshake" ;;
	esac
	# what vhost_hostile saw the backend accept that breaks a bound (a
	# ring resized or re-laid while sized, a base past the ring, memory
	# outside tmpfs/hugetlbfs, a write past a ring's region, a datapath
	# stopped by an unread socket)
	if [[ $2 == *"UNSAFE:"* ]]; then
		why="${why:+$why, }$(echo "$2" | grep -o 'UNSAFE: [^;]*' | paste -sd, -)"
	fi
	if [[ $2 =~ ([0-9]+)\ of\ ([0-9]+)\ (frames\ consumed|handshakes\ completed) ]] &&
		[ "${BASH_REMATCH[1]}" != "${BASH_REMATCH[2]}" ]; then
		why="${why:+$why, }did not serve a correct device"
	fi
	[ -z "$why" ] || BAD+=("$1: $why")
}

run_scenario() { # $1: name
	local line rc=0 h0 h1
	h0=$(heap)
	timeout 300 "$HOSTILE" --timeout 5000 --hold 2000 --probe "$RUN/p.sock" \
		"$RUN/c.sock" "$1" >"$T/scenario.out" 2>>"$T/hostile.log" || rc=$?
	line=$(cat "$T/scenario.out")
	echo "$line" >>"$T/hostile.out"
	echo "  $line"
	vsw_alive || vsw_down "$1"
	timeout 20 "$VSWCTL" --file-prefix "$PREFIX" info >/dev/null 2>&1 || vsw_down "$1"
	[ "$rc" -eq 0 ] || BAD+=("$1: vhost_hostile exited $rc ($(tail -1 "$T/hostile.log"))")
	[ -n "$line" ] || BAD+=("$1: no result line")
	judge "$1" "$line"
	h1=$(heap)
	if [ "${h1%% *}" -gt "${h0%% *}" ]; then
		BAD+=("$1: DPDK heap allocations $h0 -> $h1 (count bytes)")
		note "heap: $h0 -> $h1"
	fi
}

if [ -n "${HOSTILE_SCENARIOS:-}" ]; then
	read -r -a SCEN <<<"$HOSTILE_SCENARIOS"
else
	SCEN=()
	while read -r s; do
		[[ $KNOWN_DPDK == *" $s "* ]] && [ "${HOSTILE_DPDK:-0}" != 1 ] && continue
		[[ $HEAVY == *" $s "* ]] && [[ $QUICK_HEAVY != *" $s "* ]] &&
			[ "${HOSTILE_QUICK:-0}" = 1 ] && continue
		SCEN+=("$s")
	done < <("$HOSTILE" --list)
fi
for s in ${HOSTILE_SKIP:-}; do
	for i in "${!SCEN[@]}"; do [ "${SCEN[$i]}" = "$s" ] && unset "SCEN[$i]"; done
done
[ "${#SCEN[@]}" -gt 0 ] || fail "no scenario to run"

CFG=$(vhost_config a b c p)
start_vsw "$CFG"
base_mbufs=$(info_val mbufs_in_use)
base_fds=$(vsw_fds)
base_heap=$(heap)
note "before any guest: mbufs_in_use $base_mbufs, fds $base_fds, heap $base_heap"
BAD=()

# Baseline: a trial without an attack.  What b's full rx ring drops in it
# (the generator starved of CPU on two shared cores) is what a trial with
# an attack may lose there and still be forgiven: four times as much per
# second (a trial lasts twice the baseline), and 200 frames for noise.
note "baseline trial, no attack ($((TRIAL / 2)) s)"
trial_start $((TRIAL / 2))
wait "$GEN" || fail "baseline trial: $(tail -3 "$T/gen$TRIALS.log")"
base_full=$(($(port_ctr b drop_tx_full) - B_FULL0))
FULL_ALLOW=$((8 * base_full + 200)) # a trial is twice as long
note "baseline: $(jq -c '{tx_packets, lost, max_delay_ms: (.latency_ns.max / 1000000 | floor)}' "$T/gen$TRIALS.json"), b drop_tx_full $base_full: an attack trial may lose up to $FULL_ALLOW there"

# rx_disabled_running (one pair) and rx_pair0_off_mq (two), after
# scenario $1 with c's drop_tx_full up by $2: the 20 frames sent while
# pair 0's rx ring was disabled are dropped (one pair) or all arrive on
# pair 1 (two; none dropped), none ever in pair 0; the phases before and
# after deliver all
rx_off_check() {
	local line want moved=0
	[ "$1" = rx_pair0_off_mq ] && moved=20
	line=$(cat "$T/scenario.out")
	if [ "$moved" -eq 0 ]; then
		[ "$2" -ge 20 ] || BAD+=("$1: c drop_tx_full +$2, want at least the 20 sent while disabled")
		grep -q "q0: the guest has not enabled this queue pair's rx ring" "$T/queues_c.txt" ||
			BAD+=("$1: vswctl queues c never said q0's rx ring is not enabled")
	else
		[ "$2" -eq 0 ] || BAD+=("$1: c drop_tx_full +$2, want 0 (pair 1 was enabled)")
	fi
	for want in "enabled: 8 of 8 sent, 8 of 8 delivered" \
		"disabled: 20 of 20 sent, $moved of 20 delivered" \
		"enabled again: 20 of 20 sent, 20 of 20 delivered" \
		"of the 20 sent while disabled, 0 delivered into pair 0 in all" \
		"tx-hold-us), $moved into pair 1; 0 unmarked"; do
		[[ $line == *"$want"* ]] || BAD+=("$1: not '$want'")
	done
}

trial_start
note "attacking c with ${#SCEN[@]} scenario(s)"
for s in "${SCEN[@]}"; do
	trial_room "$s"
	bad0=$(port_ctr c drop_bad_offload) off0=$(port_ctr c offload_rx)
	full0=$(port_ctr c drop_tx_full) qpid=
	if [ "$s" = rx_disabled_running ]; then
		# what vswctl says about c's queues meanwhile
		while :; do
			"$VSWCTL" --file-prefix "$PREFIX" queues c 2>&1
			sleep 0.2
		done >"$T/queues_c.txt" &
		qpid=$!
	fi
	run_scenario "$s"
	if [ -n "$qpid" ]; then
		kill "$qpid" 2>/dev/null
		wait "$qpid" 2>/dev/null || true
	fi
	# pair 0's rx ring disabled under a running guest: nothing written
	# into it, what was sent to it dropped as tx_full (after the hold),
	# delivery again once enabled, and vswctl says why meanwhile; with a
	# second pair enabled, all of it delivered there and nothing dropped
	if [ "$s" = rx_disabled_running ] || [ "$s" = rx_pair0_off_mq ]; then
		n=$(( $(port_ctr c drop_tx_full) - full0 ))
		note "$s: c drop_tx_full +$n"
		rx_off_check "$s" "$n"
	fi
	# the lies that must be dropped where they enter, and only they (the
	# eight marked bad in vhost_hostile.c's lies[]); taken as offloaded
	# frames: the two valid ones the library marks (gso_size 65535, the
	# segment routing header)
	if [ "$s" = tx_offload_lies ]; then
		n=$(( $(port_ctr c drop_bad_offload) - bad0 ))
		o=$(( $(port_ctr c offload_rx) - off0 ))
		note "tx_offload_lies: $n frames dropped as bad_offload, $o taken offloaded"
		[ "$n" -eq 8 ] || BAD+=("tx_offload_lies: $n bad_offload drops, want 8")
		[ "$o" -eq 2 ] || BAD+=("tx_offload_lies: $o frames taken offloaded, want 2")
	fi
done
trial_end

sleep 1
used=$(info_val mbufs_in_use)
fds=$(vsw_fds)
maps=$(vsw_maps)
end_heap=$(heap)
note "after the attack, no guest: mbufs_in_use $used, fds $fds, maps of the attacker's memory $maps, heap $end_heap"
[ "$used" -eq "$base_mbufs" ] || BAD+=("mbufs in use $used, $base_mbufs before any guest")
# Tolerance 0: vsw_fds takes the fewest of three looks, which hides a
# telemetry client socket still being closed.
[ "$fds" -le "$base_fds" ] || BAD+=("vsw holds $fds fds, $base_fds before any guest")
[ "${maps:-0}" -eq 0 ] || BAD+=("vsw still maps the attacker's memory ($maps mappings)")
[ "${end_heap%% *}" -le "${base_heap%% *}" ] ||
	BAD+=("DPDK heap: $end_heap allocations (count bytes), $base_heap before any guest")

# c still serves a normal guest: it receives A's broadcasts.
note "a normal guest on c receives broadcasts from a guest on a"
start_guest c "$(virtio "$RUN/c.sock")" -- --src-mac "$(mac_of 71)" --rx-only --duration 20
wait_for 60 "a normal guest on c" port_is c up
start_guest a "$(virtio "$RUN/a.sock")" -- --src-mac "$(mac_of 70)" \
	--dst-mac ff:ff:ff:ff:ff:ff --count 500 --rate 1000 --duration 10
wait_guest a
wait_for 30 "c to receive A's broadcasts" ctr_at_least c tx_packets 500
finish_guest c
[ "$(guest_val c rx_packets)" -ge 500 ] || BAD+=("the normal guest on c received $(guest_val c rx_packets) of 500")

stop_vsw
if [ "${#BAD[@]}" -gt 0 ]; then
	echo "----- attacker's view"
	cat "$T/hostile.out"
	echo "----- failures (${#BAD[@]})"
	printf '  %s\n' "${BAD[@]}"
	fail "vsw did not withstand the hostile frontend"
fi
echo "PASS: ${#SCEN[@]} hostile scenario(s) on c; A->B never stopped; nothing leaked; c serves a normal guest"
