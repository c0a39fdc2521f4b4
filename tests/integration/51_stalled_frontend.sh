#!/bin/bash
# Objective: a vhost-user frontend that stops reading its socket, or
# stalls in the middle of a message, stalls at most its own port (review
# H1 of 702c808).  For each way of stalling, vhost_hostile (tests/hostile)
# holds it on port c for HOLD ms while a v2v generator sends A->B:
#   reply_block_running  a running device that never reads and sends
#                        SET_VRING_ENABLE with REPLY_ACK (answered with
#                        every virtqueue lock of c held), broadcasts from
#                        a device on port p meanwhile (a worker enqueues
#                        to c);
#   log_block_running    the same with SET_LOG_BASE (always answered);
#   reply_flood          GET_FEATURES, never reading a reply;
#   payload_stall        a header whose payload never comes.
# While it holds: `vswctl info` answers within 2 s, A->B keeps flowing,
# and `vswctl port-del c` returns within 5 s; c is added back for the next
# one.  Before the guard bounded replies and reads, the first two stopped
# every worker for good, and port-del hung behind all four.
. "$(dirname "$0")/lib.sh"

HOSTILE=${VSW_HOSTILE:-$VSW_BIN/vhost_hostile}
[ -x "$HOSTILE" ] || skip "vhost_hostile is not built ($HOSTILE)"
command -v timeout >/dev/null || skip "coreutils timeout is missing"

HOLD=10000
KINDS="reply_block_running log_block_running reply_flood payload_stall"
CFG=$(vhost_config a b c p)
start_vsw "$CFG"
# long enough for the four kinds when each ends at once (the fix); a
# frontend that really stalls vsw fails its checks before it runs out
start_v2v gen --rate 20000 --duration 45
wait_for 60 "a up" port_is a up
wait_for 60 "b up" port_is b up
wait_for 30 "A->B traffic" ctr_at_least b tx_packets 1000

# ms that "$@" took; fails past $1 seconds
timed() {
	local lim=$1 t0 rc=0
	shift
	t0=$(date +%s%N)
	timeout "$lim" "$@" >"$T/timed.out" 2>&1 || rc=$?
	echo $(( ($(date +%s%N) - t0) / 1000000 ))
	return "$rc"
}

BAD=()
for k in $KINDS; do
	note "$k on c, held $HOLD ms"
	bg "$T/$k.out" "$T/$k.err" "$HOSTILE" --timeout 3000 --hold "$HOLD" \
		--probe "$RUN/p.sock" "$RUN/c.sock" "$k"
	ATT=$BG_PID
	sleep 3 # the attack is on (it sends for 2 s, then holds)
	b0=$(port_ctr b tx_packets)
	ms=$(timed 2 "$VSWCTL" --file-prefix "$PREFIX" info) ||
		BAD+=("$k: vswctl info did not answer within 2 s")
	note "  vswctl info: $ms ms"
	sleep 1
	b1=$(port_ctr b tx_packets)
	[ "$b1" -gt "$b0" ] || BAD+=("$k: A->B stopped (b tx_packets $b0 -> $b1)")
	note "  A->B: b sent $((b1 - b0)) frames in 1 s"
	ms=$(timed 5 "$VSWCTL" --file-prefix "$PREFIX" --timeout 10 port-del c) ||
		BAD+=("$k: port-del c did not return within 5 s ($(cat "$T/timed.out"))")
	note "  port-del c: $ms ms"
	rc=0
	timeout 30 tail --pid="$ATT" -f /dev/null || true
	reap_pid "$ATT" || rc=$?
	note "  attacker ($rc): $(cut -c1-400 "$T/$k.out")"
	grep -q "UNSAFE:" "$T/$k.out" && BAD+=("$k: $(grep -o 'UNSAFE: [^;]*' "$T/$k.out")")
	ctl port-add c type=vhost-user "path=$RUN/c.sock" >/dev/null ||
		fail "port-add c after $k"
done
kill -USR1 "$GEN" # the trial ends here (drained, reported), not at 45 s
reap_pid "$GEN" || fail "generator: $(tail -3 "$T/gen.log")"
jq -c '{tx_packets, rx_packets, lost, max_delay_ms: (.latency_ns.max / 1000000 | floor)}' "$T/gen.json"
loss_accounted gen "$T/gen.json" b
stop_vsw
if [ "${#BAD[@]}" -gt 0 ]; then
	printf '  %s\n' "${BAD[@]}"
	fail "a stalled frontend stalled more than its own port"
fi
echo "PASS: $KINDS on c: vswctl answered within 2 s, A->B kept flowing, port-del c returned within 5 s"
