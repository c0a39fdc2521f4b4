#!/bin/bash
# Objective: no lock-order deadlock between the vhost library's thread and
# vsw's control thread (review H1). A testpmd guest with two queue pairs
# stops and starts its port in a loop (each start sends ring messages
# that the library handles with every virtqueue lock held, and calls vsw
# back) while vswctl flips kick-suppression (vsw then re-applies the kick
# setting to the guest's rings, taking virtqueue locks). A test hook
# (VSW_TEST_UPKEEP_DELAY_US) makes vsw's periodic upkeep hold its lock
# 20 ms at a time, so the two meet often. Every vswctl call must answer
# within 2 s, and afterwards the guest and vsw still work.
. "$(dirname "$0")/lib.sh"
command -v dpdk-testpmd >/dev/null || skip "dpdk-testpmd not installed"

CFG=$(vhost_config a b)
VSW_TEST_UPKEEP_DELAY_US=20000 start_vsw "$CFG"

gp=${PREFIX}tp; PREFIXES+=("$gp")
cmds=$T/testpmd.cmds
for _ in $(seq 10); do
	for n in 1 2; do
		printf 'port stop 0\nport config all rxq %d\nport config all txq %d\nport start 0\n' $n $n
	done
done >"$cmds"
# shellcheck disable=SC2046
dpdk-testpmd --lcores 0@0,1@0 --file-prefix "$gp" $(mem_args 512) --single-file-segments --no-pci \
	--vdev "net_virtio_user0,path=$RUN/a.sock,queues=2,queue_size=256" -- \
	--rxq=2 --txq=2 --nb-cores=1 --total-num-mbufs=8192 --no-lsc-interrupt --cmdline-file="$cmds" -i \
	</dev/null >"$T/testpmd.log" 2>&1 &
TP=$!; PIDS+=("$TP")

slow=0; calls=0; end=$(( $(date +%s) + 25 ))
while kill -0 "$TP" 2>/dev/null && [ "$(date +%s)" -lt "$end" ]; do
	for v in "set kick-suppression off" "set kick-suppression on" info "queues a"; do
		calls=$((calls + 1))
		# shellcheck disable=SC2086
		"$VSWCTL" --file-prefix "$PREFIX" --timeout 2 $v >/dev/null 2>"$T/ctl.err" ||
			{ slow=$((slow + 1)); note "vswctl $v: $(cat "$T/ctl.err")"; }
		[ "$slow" -lt 3 ] || break 2
	done
done
ups=$(grep -c 'Link up' "$T/testpmd.log")
note "$calls vswctl calls while the guest changed its queue pairs $ups times; $slow failed"
if [ "$slow" -gt 0 ]; then
	gdb -p "$VSW_PID" -batch -ex 'thread apply all bt 8' >"$T/gdb.log" 2>&1 || true
	grep -E "^Thread|vring_state_changed|upkeep|enable_guest_notification|lll_lock" "$T/gdb.log" | head -20
	fail "vswctl calls did not answer within 2 s: vsw is stuck"
fi
[ "$ups" -ge 2 ] || fail "the guest restarted its port only $ups times: $(tail -5 "$T/testpmd.log")"
kill -KILL "$TP" 2>/dev/null; wait "$TP" 2>/dev/null; note "guest killed"
wait_for 30 "a down" port_is a down
# still forwarding: a fresh guest pair exchanges frames
run_v2v gen --rate 20000 --duration 2
[ "$(jq .lost "$T/gen.json")" -eq 0 ] || fail "lost frames after the loop"
[ "$(jq .rx_packets "$T/gen.json")" -gt 10000 ] || fail "no traffic after the loop"
stop_vsw
echo "PASS: guest ring changes and kick changes never deadlock vsw"
