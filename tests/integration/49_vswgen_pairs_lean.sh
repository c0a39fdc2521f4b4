#!/bin/bash
# Objective: vswgen --pairs and --lean. Four pairs of guest ports (one
# vswgen, 8 virtio-user ports) through vsw at once: every pair's frames
# leave by its own receiver's vhost port and nowhere else (vsw's port
# counters), the generator's totals match vsw's, for the normal frames
# (sequence checked: no reordering, exact loss) and the prebuilt --lean
# frames (counted, latency_ns null). A single --lean pair too, and one
# cycling 300 source MACs (vsw learns them all). The pacer gives up what
# it missed while vswgen was stopped instead of bursting it, and its
# frames per second (rx_mpps_by_s) show the stop. Bad
# combinations are usage errors. Functional only: no rate is asserted.
. "$(dirname "$0")/lib.sh"

PORTS=(a b c d e f g h)
CFG=$(vhost_config "${PORTS[@]}")
start_vsw "$CFG"

# pairs_run NAME VSWGEN_OPTS...: one vswgen, port i on vsw's PORTS[i]
pairs_run() {
	local name=$1 gp=${PREFIX}g$1 i v=()
	shift
	for i in "${!PORTS[@]}"; do
		v+=(--vdev "$(virtio_vdev "$i" "$RUN/${PORTS[$i]}.sock")")
	done
	# shellcheck disable=SC2046
	dpdk_bg "$gp" "$T/$name.json" "$T/$name.log" \
		"$VSWGEN" -l 0 --file-prefix "$gp" $(mem_args 512) --single-file-segments \
		--no-pci "${v[@]}" -- --pairs --announce 3 --json --quiet "$@"
	reap_pid "$BG_PID" || fail "vswgen $name: $(tail -3 "$T/$name.log")"
}

# check_pairs NAME: per pair, what vsw took in on the sender's port left
# by the receiver's port only, and the generator counted all of it.
check_pairs() {
	local name=$1 k rx tx sum=0 txp
	[ "$(guest_val "$name" pairs)" = 4 ] || fail "$name: pairs = $(guest_val "$name" pairs)"
	for k in 0 1 2 3; do
		rx=$(port_ctr "${PORTS[$((2 * k))]}" rx_packets)
		tx=$(port_ctr "${PORTS[$((2 * k + 1))]}" tx_packets)
		txp=$(port_ctr "${PORTS[$((2 * k))]}" tx_packets)
		note "$name pair $k: vsw rx $rx on ${PORTS[$((2 * k))]}, tx $tx on ${PORTS[$((2 * k + 1))]}, $txp back to the sender"
		[ "$rx" -gt 1000 ] || fail "$name pair $k: only $rx frames sent"
		# every frame of the pair (minus a ring-full drop) at its receiver
		[ $((tx * 100)) -ge $((rx * 95)) ] || fail "$name pair $k: $rx in, only $tx out at the receiver"
		# not flooded: senders get only announcements
		[ "$txp" -lt 1000 ] || fail "$name pair $k: $txp frames flooded back to the sender"
		sum=$((sum + tx))
	done
	local grx
	grx=$(guest_val "$name" rx_packets)
	[ "$grx" -le "$sum" ] && [ $((grx * 100)) -ge $((sum * 99)) ] ||
		fail "$name: the generator received $grx, vsw sent $sum to the receivers"
}

ctl raw /vsw/stats/clear >/dev/null
pairs_run p4 --duration 2
note "p4: $(jq -c '{offered_mpps, rx_mpps, lost, reordered, duplicates, lat: .latency_ns.p50}' "$T/p4.json")"
check_pairs p4
[ "$(guest_val p4 reordered)" = 0 ] && [ "$(guest_val p4 duplicates)" = 0 ] ||
	fail "p4: reordered or duplicated frames"
[ "$(guest_val p4 latency_ns.samples)" -gt 0 ] || fail "p4: no latency samples"

ctl raw /vsw/stats/clear >/dev/null
pairs_run l4 --lean --duration 2
note "l4: $(jq -c '{offered_mpps, rx_mpps, lost, lean, latency_ns}' "$T/l4.json")"
check_pairs l4
[ "$(guest_val l4 lean)" = true ] && [ "$(guest_val l4 latency_ns)" = null ] ||
	fail "l4: not reported as --lean"

# one --lean pair, the usual two-port form
run_v2v l1 --lean --duration 1
[ "$(guest_val l1 rx_packets)" -gt 1000 ] || fail "l1: $(guest_val l1 rx_packets) received"
[ "$(guest_val l1 pairs)" = 1 ] || fail "l1: pairs = $(guest_val l1 pairs)"

# --lean with --macs: the source MAC is written per frame; vsw learns them
ctl fdb-flush >/dev/null
run_v2v lm --lean --macs 300 --duration 1
# (run_v2v announces 3 of them only: the rest are learned from the frames)
n=$(jctl fdb-stats | jq .entries)
note "lm: $(guest_val lm rx_packets) received, $n MACs in the FDB"
[ "$n" -ge 300 ] || fail "lean --macs 300: only $n MACs learned"

# the pacer after vswgen itself was stopped 0.3 s (SIGSTOP): the missed
# frames are given up (tx_skipped), not sent at full speed into the ring.
# 200 kpps: a rate even an ASan build of vsw forwards without a full ring
start_v2v st --lean --rate 200000 --duration 3
sleep 1.5
kill -STOP "$GEN"
sleep 0.3
kill -CONT "$GEN"
reap_pid "$GEN" || fail "generator st: $(tail -3 "$T/st.log")"
note "st: $(jq -c '{tx_packets, tx_skipped, tx_dropped, lost}' "$T/st.json")"
[ "$(guest_val st tx_skipped)" -ge 40000 ] || fail "st: $(guest_val st tx_skipped) frames skipped after a 0.3 s stop at 200 kpps"
# refused frames: a few from a slow (ASan) switch, never a burst of the
# ~60,000 missed (the old pacer: 0 skipped, 19,520 refused)
[ $(($(guest_val st tx_dropped) * 4)) -lt "$(guest_val st tx_skipped)" ] ||
	fail "st: $(guest_val st tx_dropped) frames refused by the tx ring: the pacer caught up in a burst"
# its frames per second (rx_mpps_by_s, what tools/bench's slow seconds
# are made of): the window's three, adding up to what it received (but
# the drain's few, and 0.0005 M of rounding each), the one with the stop
# short by most of the 60,000 missed
secs=$(jq -c .rx_mpps_by_s "$T/st.json")
note "st: received per second (M) $secs"
[ "$(jq '.rx_mpps_by_s | length' "$T/st.json")" = 3 ] || fail "st: rx_mpps_by_s $secs, want 3 seconds"
jq -e '((.rx_mpps_by_s | add) * 1e6) as $s | $s <= .rx_packets + 2000 and $s >= .rx_packets - 5000' \
	"$T/st.json" >/dev/null || fail "st: rx_mpps_by_s $secs does not add up to rx_packets $(guest_val st rx_packets)"
jq -e '(.rx_mpps_by_s | min) < 0.85 * (.rx_mpps_by_s | max)' "$T/st.json" >/dev/null ||
	fail "st: no second of $secs shows the 0.3 s stop"

# usage errors need no EAL and exit 2
gen_usage_errors "--pairs\|--lean" "--pairs --tx-port 1" "--pairs --macs 4" \
	"--lean --verify" "--lean --rr" "--lean --size 4000"
# an odd number of ports is refused after EAL start
gp=${PREFIX}godd
prefix_add "$gp"
rc=0
# shellcheck disable=SC2046
"$VSWGEN" -l 0 --file-prefix "$gp" $(mem_args 256) --single-file-segments --no-pci \
	--vdev "$(virtio_vdev 0 "$RUN/a.sock")" -- --pairs >"$T/odd.out" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "even number of ports" "$T/odd.out" ||
	fail "--pairs with one port: exit $rc: $(tail -2 "$T/odd.out")"
stop_vsw
echo "PASS: vswgen --pairs and --lean"
