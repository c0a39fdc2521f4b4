#!/bin/bash
# QEMU test guests for the integration tests (sourced after lib.sh): the
# image of tools/vm/mkimage and a check that QEMU starts here; skips (77)
# when either cannot be had. Sets VM (tools/vm) and VSW_VM_KERNEL,
# VSW_VM_INITRD, VSW_VM_QEMU; vm_start boots a guest.
VM=$VSW_SRC/tools/vm
IMG=$("$VM/mkimage" --quiet 2>"$T/mkimage.log") || {
	rc=$?
	[ "$rc" -eq 77 ] && skip "no guest image: $(tail -1 "$T/mkimage.log")"
	fail "tools/vm/mkimage failed ($rc)"
}
eval "$IMG"
# Can QEMU start at all here (TCG, shared memfd memory)? Paused, 2 s.
"$VSW_VM_QEMU" -machine pc -accel tcg -m 64 -nodefaults -display none \
	-object memory-backend-memfd,id=mem,size=64M,share=on -numa node,memdev=mem \
	-monitor none -serial none -S </dev/null >"$T/qemu-probe.log" 2>&1 &
qp=$!
PIDS+=("$qp")
sleep 2
kill -0 "$qp" 2>/dev/null || { wait "$qp"; skip "QEMU does not start: $(head -3 "$T/qemu-probe.log")"; }
kill -TERM "$qp"; wait "$qp" 2>/dev/null

# vm_start NAME RUN-GUEST-ARGS...: tools/vm/run-guest in the background,
# console in $T/NAME.log, errors in $T/NAME-err.log; run-guest's PID in
# VM_PID; returns once QEMU runs, both processes stopped at cleanup
vm_start() {
	local n=$1
	shift
	"$VM/run-guest" --log "$T/$n.log" --pidfile "$T/$n.pid" "$@" 2>"$T/$n-err.log" &
	VM_PID=$!
	PIDS+=("$VM_PID")
	wait_for 20 "QEMU of $n" test -s "$T/$n.pid"
	PIDS+=("$(cat "$T/$n.pid")")
}
