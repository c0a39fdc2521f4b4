#!/bin/bash
# Objective: a crash at any point of a change leaves the state file as it
# was before the change or as it is after, never torn.  A reference run
# records show-config after each change of a fixed sequence (set, port-add,
# fdb-add, port-del, ...).  Then, in a loop, vsw starts from the state the
# last crash left (and shows exactly that config), the next change is sent
# in the background and vsw is killed (SIGKILL) after a delay spread over
# 0..150 ms; each save is slowed by the test hook VSW_TEST_STATE_DELAY_US
# (a pause halfway through the temporary file and one before the rename),
# so kills land before, inside and after saves.  After each kill the state
# file must parse (vsw --print-config, no EAL) to the config before or
# after the change; a temporary file left by a kill inside a save is
# removed by the next start.  Finally vsw starts from the last state.
. "$(dirname "$0")/lib.sh"

ITER=${VSW_STATE_CRASH_ITER:-20}
CFG=$(vhost_config a b)
STATE=$RUN/vsw.state

# change K: the K-th change of the sequence (each one changes the state)
change() {
	local k=$1
	case $((k % 4)) in
	1) ctl set burst $((k + 1)) ;;
	2) ctl port-add "x$k" type=vhost-user mtu=$((1000 + k)) max-macs="$k" ;;
	3) ctl fdb-add "$(mac_of $((100 + k)))" "x$((k - 1))" ;;
	0) ctl port-del "x$((k - 2))" ;;
	esac >/dev/null
}
offline() { "$VSW" --print-config -c "$CFG"; }

note "reference run: the config after each of $ITER changes"
start_vsw "$CFG"
ctl show-config >"$T/s0.ini" || fail "show-config"
for ((k = 1; k <= ITER; k++)); do
	change "$k" || fail "change $k"
	ctl show-config >"$T/s$k.ini" || fail "show-config after change $k"
	cmp -s "$T/s$((k - 1)).ini" "$T/s$k.ini" && fail "change $k changed nothing"
done
offline | cmp -s - "$T/s$ITER.ini" || fail "the state file does not give the config shown"
stop_vsw
rm -f "$STATE"

note "crash loop"
export VSW_TEST_STATE_DELAY_US=30000
k=1 before=0 after=0 tmp=0
for ((i = 0; i < ITER; i++)); do
	start_vsw "$CFG"
	[ ! -e "$STATE.tmp" ] || fail "iteration $i: $STATE.tmp still there after the start"
	ctl show-config | cmp -s - "$T/s$((k - 1)).ini" || fail "iteration $i: vsw did not start with state $((k - 1))"
	ms=$(( (i * 150 / ITER + RANDOM % 8) ))
	change "$k" &
	cpid=$!
	sleep "$(printf '0.%03d' "$ms")"
	vsw_stop KILL 5 || true
	wait "$cpid" 2>/dev/null || true
	[ -e "$STATE.tmp" ] && tmp=$((tmp + 1))
	offline >"$T/now.ini" 2>"$T/now.err" || fail "iteration $i (change $k, kill at $ms ms): the state does not load: $(cat "$T/now.err")"
	if cmp -s "$T/now.ini" "$T/s$k.ini"; then
		after=$((after + 1)) k=$((k + 1))
	elif cmp -s "$T/now.ini" "$T/s$((k - 1)).ini"; then
		before=$((before + 1))
	else
		diff "$T/s$((k - 1)).ini" "$T/now.ini"
		fail "iteration $i (change $k, kill at $ms ms): the state is neither before nor after the change"
	fi
done
note "$ITER kills: $before left the state before the change, $after after it, $tmp inside a save (a temporary file)"
[ "$before" -ge 1 ] && [ "$after" -ge 1 ] || fail "the kills did not land both before and after saves"
[ "$tmp" -ge 1 ] || fail "no kill landed inside a save"

note "vsw starts from the last state"
unset VSW_TEST_STATE_DELAY_US
start_vsw "$CFG"
ctl show-config | cmp -s - "$T/s$((k - 1)).ini" || fail "the final start is not state $((k - 1))"
[ ! -e "$STATE.tmp" ] || fail "a temporary file left"
stop_vsw
echo "PASS: $ITER crashes around saves: state before or after each change, never torn"
