#!/bin/bash
# Objective: real Linux guests (Debian kernel, virtio-net driver, interrupt
# driven) under QEMU/TCG attached to vsw over vhost-user, vsw in adaptive
# poll mode (its worker sleeps between pings and must be woken by the
# guests' kicks). Guest 1 pings guest 2 20 times through vsw: at most 1
# ping is lost, both ports count traffic both ways, the FDB holds each
# guest's MAC on its port, vsw sent the guests interrupts (calls) and
# /vsw/queues shows they want them. Guest 2 has 1024-descriptor rings
# (run-guest --ring, QEMU's rx_queue_size/tx_queue_size), guest 1
# QEMU's 256: /vsw/queues shows each guest's own.
# Skips (77) when QEMU or the guest image cannot be had here.
# Image: tools/vm/mkimage (cached in $VSW_VM_CACHE or /var/cache/vsw-vm).
. "$(dirname "$0")/lib.sh"
PREFIX=vmt$ID            # DPDK file prefix of vsw (lib.sh's ctl uses it)
PREFIXES=("$PREFIX")
. "$(dirname "$0")/lib_vm.sh"
note "kernel $VSW_VM_KERNEL, initrd $VSW_VM_INITRD"
COUNT=20

CFG=$(vhost_config vm0 vm1)
sed -i 's/^\[switch\]/[switch]\npoll-mode = adaptive/' "$CFG"
start_vsw "$CFG"
[ "$(info_val poll_mode)" = adaptive ] || fail "vsw is not in adaptive mode"
MAC1=52:54:00:00:00:01; MAC2=52:54:00:00:00:02
IP1=10.99.0.1; IP2=10.99.0.2

# Guest 2 answers pings until it has seen $COUNT and then 3 quiet seconds;
# guest 1 waits for guest 2, then pings. Both on CPU 0 (vsw's worker: 1).
ms() { echo $(( $(date +%s%N) / 1000000 )); }
secs() { printf "%d.%01d" $(( $1 / 1000 )) $(( $1 % 1000 / 100 )); }
t0=$(ms)
"$VM/run-guest" --sock "$RUN/vm1.sock" --mac $MAC2 --ip $IP2/24 --log "$T/guest2.log" \
	--cmd "vsw-serve $COUNT 3 200" --timeout 240 --pidfile "$T/guest2.pid" --ring 1024 \
	2>"$T/guest2-err.log" &
G2=$!
PIDS+=("$G2")
"$VM/run-guest" --sock "$RUN/vm0.sock" --mac $MAC1 --ip $IP1/24 --log "$T/guest1.log" \
	--cmd "vsw-waitpeer $IP2 200 && ping -c $COUNT -i 0.2 $IP2" --timeout 240 \
	--pidfile "$T/guest1.pid" 2>"$T/guest1-err.log" &
G1=$!
PIDS+=("$G1")
# QEMU itself too, should a run-guest die without stopping it
for g in 1 2; do
	wait_for 20 "QEMU of guest $g" test -s "$T/guest$g.pid"
	PIDS+=("$(cat "$T/guest$g.pid")")
done

# (a port goes up only once the guest's virtio-net driver is loaded.)
# While guest 1 runs: wait for its READY marker and for both MACs in the
# FDB (a port going down when its guest powers off may flush its entries).
fdb_ok=0 ready=() wants= rings=
while kill -0 "$G1" 2>/dev/null; do
	if [ -n "${ready[1]:-}" ] && [ -n "${ready[2]:-}" ] && [ -z "$rings" ]; then
		rings=$(for p in vm0 vm1; do jctl raw /vsw/queues,$p 2>/dev/null | jq -r '.[].q0.ring_size'; done | xargs)
		[[ $rings =~ ^[0-9]+\ [0-9]+$ ]] && note "rx ring sizes: vm0 ${rings% *}, vm1 ${rings#* }" || rings=
	fi
	if [ -n "${ready[1]:-}" ] && [ -z "$wants" ]; then
		wants=$(jctl raw /vsw/queues,vm0 2>/dev/null | jq -r '.[].q0.guest_wants')
		[ "$wants" = "-" ] && wants=
		[ -n "$wants" ] && note "vm0 q0: the guest wants '$wants'"
	fi
	for g in 1 2; do
		if [ -z "${ready[$g]:-}" ] && grep -aq '^VSW-READY:' "$T/guest$g.log"; then
			ready[$g]=$(secs $(( $(ms) - t0 )))
			note "guest $g ready after ${ready[$g]} s: $(grep -a '^VSW-READY:' "$T/guest$g.log")"
		fi
	done
	if [ "$fdb_ok" = 0 ]; then
		fdb=$(jctl fdb 2>/dev/null) && {
			p1=$(echo "$fdb" | jq -r --arg m $MAC1 '.entries[] | select(.mac == $m) | .port')
			p2=$(echo "$fdb" | jq -r --arg m $MAC2 '.entries[] | select(.mac == $m) | .port')
			[ "$p1" = vm0 ] && [ "$p2" = vm1 ] && { fdb_ok=1; note "fdb: $MAC1 on vm0, $MAC2 on vm1"; ctl fdb; }
			[ -n "$p1" ] && [ "$p1" != vm0 ] && fail "fdb: $MAC1 on $p1, expected vm0"
			[ -n "$p2" ] && [ "$p2" != vm1 ] && fail "fdb: $MAC2 on $p2, expected vm1"
		}
	fi
	sleep 0.5
done
rc1=0; wait "$G1" || rc1=$?
# guest 2 stops 3 s after the last ping; give it 30 s
for _ in $(seq 150); do kill -0 "$G2" 2>/dev/null || break; sleep 0.2; done
kill -0 "$G2" 2>/dev/null && { note "guest 2 still running; stopping it"; kill -TERM "$G2"; }
rc2=0; wait "$G2" || rc2=$?
t1=$(secs $(( $(ms) - t0 )))
note "guest 1 exit $rc1, guest 2 exit $rc2, ${t1} s after boot start"
grep -a '^VSW-' "$T/guest1.log" "$T/guest2.log"
ctl ports

res=$(grep -a '^VSW-RESULT:' "$T/guest1.log" | tail -1)
[ -n "$res" ] || fail "guest 1 printed no VSW-RESULT (run-guest exit $rc1)"
tx=$(echo "$res" | sed -n 's/.* tx=\([0-9]*\).*/\1/p')
rx=$(echo "$res" | sed -n 's/.* rx=\([0-9]*\).*/\1/p')
[ "$tx" = "$COUNT" ] || fail "guest 1 sent ${tx:-no} pings, expected $COUNT: $res"
[ "${rx:-0}" -ge $((COUNT - 1)) ] || fail "guest 1 got $rx/$tx replies: $res"
[ "$rc2" -eq 0 ] || fail "guest 2 failed (run-guest exit $rc2)"
# the virtio-net driver ran on interrupts (INTx under TCG: vectors=0)
irq=$(grep -a '^VSW-IRQ:.*virtio' "$T/guest1.log" |
	awk '{ for (i = 3; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i } END { print n + 0 }')
note "guest 1 virtio interrupts: $irq"
[ "$irq" -gt 0 ] || fail "guest 1 shows no virtio interrupts in /proc/interrupts"
[ "$fdb_ok" = 1 ] || fail "FDB never held $MAC1 on vm0 and $MAC2 on vm1"
for p in vm0 vm1; do
	for c in rx_packets tx_packets; do
		v=$(port_ctr $p $c)
		[ "$v" -ge "$rx" ] || fail "port $p: $c = $v, expected >= $rx"
	done
done
for p in vm0 vm1; do note "$p: $(jctl port $p | jq -c 'with_entries(select(.key | test("^(rx|tx)_packets$|^drop|^guest_")))')"; done
case $wants in interrupt | event-idx) ;; *) fail "vm0's kernel guest shows guest_wants '$wants'" ;; esac
[ "$rings" = "256 1024" ] || fail "rx ring sizes vm0 and vm1 '$rings', expected '256 1024' (run-guest --ring 1024 on guest 2)"
calls=$(port_ctr vm0 guest_calls)
[ "$calls" -gt 0 ] || fail "vsw sent no interrupt to the kernel guest on vm0"
wk=$(jctl raw /vsw/workers | jq -r '.[].worker0 | "\(.sleeps) \(.wakeups_rx)"')
note "worker sleeps / wake-ups by a kick: $wk"
[ "${wk#* }" -gt 0 ] || fail "the adaptive worker was never woken by a guest kick"
stop_vsw
echo "PASS: guests pinged through vsw: $res"
