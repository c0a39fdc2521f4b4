#!/bin/bash
# Objective: Linux guests with multiqueue virtio-net (QEMU mq=on, 2 queue
# pairs and 2 vCPUs, so that the kernel's driver enables both; TCG with
# vectors=0, the guests' interrupts on INTx) move TCP with TSO through vsw
# on two workers.
# 1. While both guests are connected: each negotiated 2 queue pairs and
#    TSO, vsw polls both of each port's rx queues on different workers;
#    the guests spread their flows over both tx queues (XPS off, so the
#    kernel picks a queue by each flow's hash; sixteen iperf3 streams),
#    and vsw sends into both of each guest's rx queues (worker k: queue
#    pair k), which the guest drains (the transfer completes).
# 2. The sending guest drops to one queue pair under way (`ethtool -L
#    eth0 combined 1`: QEMU disables pair 1's rings): its next transfer
#    completes on pair 0 alone; nothing comes from its tx queue 1 and vsw
#    sends nothing into its disabled rx queue 1 (the worker that served it
#    sends into pair 0, and the port shows tx_queues_shared 1), vsw shows
#    that ring disabled (tx_enabled 0, and in words in vswctl queues).
# 3. Back to two (`combined 2`): a transfer completes and both pairs
#    carry frames again (tx_queues_shared 0).
# Guest 2 runs virtio 1.1 packed rings (QEMU packed=on), guest 1 split
# ones: vsw's port view (guest_rings) and log say which.  No offloaded
# frame is refused, nothing is dropped for an unpolled queue.
. "$(dirname "$0")/lib.sh"
PREFIX=vmq$ID
PREFIXES=("$PREFIX")
. "$(dirname "$0")/lib_vm.sh"
command -v iperf3 >/dev/null || skip "iperf3 is not installed (tools/deps)"
note "kernel $VSW_VM_KERNEL, initrd $VSW_VM_INITRD"

CFG=$(vhost_config vm0 vm1)
sed -i 's/^mbufs = 8191$/mbufs = 32767/' "$CFG"
start_vsw_on '0@0,1@1,2@1' "$CFG"

# in each guest: XPS off (the queue from the flow's hash, not the CPU)
XPS='for f in /sys/class/net/eth0/queues/tx-*/xps_cpus; do echo 0 >$f; done'
# guest 1: a transfer (retried while guest 2's server is not up yet),
# then one on one queue pair, then one on two again.  The test follows
# the steps in vsw's view of the rings, not on the console: a busy TCG
# guest's serial output lags it by up to 20 s here
CLIENT="$XPS; vsw-waitpeer 10.99.0.2 200 && for i in 1 2 3 4 5 6 7 8 9 10; do iperf3 -c 10.99.0.2 -t 5 -P 16 && break; if [ \$i = 10 ]; then exit 1; fi; sleep 1; done && sleep 3 &&
ethtool -L eth0 combined 1 && sleep 3 && iperf3 -c 10.99.0.2 -t 4 -P 8 && sleep 5 &&
ethtool -L eth0 combined 2 && $XPS && iperf3 -c 10.99.0.2 -t 4 -P 16 && sleep 5"
vm_start g2 --sock "$RUN/vm1.sock" --mac 52:54:00:00:02:02 --ip 10.99.0.2/24 \
	--queues 2 --packed --cmd "$XPS; iperf3 -s" --timeout 300
G2=$VM_PID
vm_start g1 --sock "$RUN/vm0.sock" --mac 52:54:00:00:02:01 --ip 10.99.0.1/24 \
	--queues 2 --cmd "$CLIENT" --timeout 300
G1=$VM_PID
declare -A V Q E QV
for p in vm1 vm0; do
	wait_for 120 "$p up" port_is "$p" up
	# what the guest negotiated, while it is connected
	V[$p]=$(jctl port "$p" | jq -c '{guest_queue_pairs, queues, guest_rings, guest_offloads}')
	echo "$p: ${V[$p]}"
done
# snap NAME: both ports' queues (/vsw/queues) into QV[vm0-NAME], QV[vm1-NAME]
snap() {
	local p
	for p in vm0 vm1; do QV[$p-$1]=$(jctl raw "/vsw/queues,$p"); done
}
show() {
	local p
	for p in vm0 vm1; do
		echo "$1 $p: $(jq -c '.[] | with_entries(select(.key | test("^q[0-9]+$"))) | map_values({worker, tx_enabled, rx_packets, enqueued})' <<<"${QV[$p-$1]}")"
	done
}
# qv PORT SNAP QUEUE FIELD
qv() { jq ".[].q$3.$4" <<<"${QV[$1-$2]}"; }
# vm0's pairs now: "1 1" both rings of rx enabled, "1 0" pair 1 disabled,
# "0 0" gone
pairs() { jctl raw /vsw/queues,vm0 | jq -r '.[] | "\(.q0.tx_enabled) \(.q1.tx_enabled)"'; }
one_pair() { [ "$(pairs)" = "1 0" ]; }

note "1. both queue pairs; guest 1's transfer, then it drops to one pair"
# (the counters when pair 1 goes are the first transfer's, and the guest
# still connected shows each queue's worker)
wait_for 200 "guest 1's ethtool -L eth0 combined 1" one_pair
snap first
show first
note "2. guest 1 on one queue pair (ethtool -L eth0 combined 1)"
sleep 1 # (a frame in flight as the ring went)
snap a
show a
# worker 1's frames for vm0 now go to pair 0 too: its tx queue shared
sh1=$(port_ctr vm0 tx_queues_shared)
ctl queues vm0 >"$T/queues-one.txt" || fail "vswctl queues vm0"
grep -q '^q1: the guest disabled this queue pair' "$T/queues-one.txt" ||
	fail "vswctl queues does not say pair 1 is disabled: $(cat "$T/queues-one.txt")"
# the last view that shows one pair, until pair 1 is back (combined 2)
QV[vm0-b]=${QV[vm0-a]} QV[vm1-b]=${QV[vm1-a]}
for _ in $(seq 600); do
	snap c
	[ "$(qv vm0 c 0 tx_enabled) $(qv vm0 c 1 tx_enabled)" = "1 0" ] || break
	QV[vm0-b]=${QV[vm0-c]} QV[vm1-b]=${QV[vm1-c]}
	sleep 0.2
done
[ "$(pairs)" = "1 1" ] || fail "vm0: not back to two queue pairs: $(pairs)"
show b
note "3. two queue pairs again (combined 2)"
grew() { # SNAP: vm0's pair 1 received and was sent frames since SNAP
	snap c
	[ "$(qv vm0 c 1 tx_enabled)" = 1 ] &&
		[ "$(qv vm0 c 1 rx_packets)" -gt "$(qv vm0 "$1" 1 rx_packets)" ] &&
		[ "$(qv vm0 c 1 enqueued)" -gt "$(qv vm0 "$1" 1 enqueued)" ]
}
wait_for 120 "traffic on vm0's queue pair 1 again" grew b
show c
sh2=$(port_ctr vm0 tx_queues_shared)
rc1=0; wait "$G1" || rc1=$?
for _ in $(seq 150); do kill -0 "$G2" 2>/dev/null || break; sleep 0.2; done
kill -TERM "$G2" 2>/dev/null; wait "$G2" 2>/dev/null
grep -a -E '^VSW-(RESULT|ERROR)|SUM.*receiver' "$T/g1.log"
[ "$rc1" -eq 0 ] || fail "guest 1: run-guest exit $rc1: $(grep -a VSW-RESULT "$T/g1.log")"

for p in vm0 vm1; do
	v=${V[$p]}
	[ "$(jq .guest_queue_pairs <<<"$v")" = 2 ] || fail "$p: the guest had $(jq .guest_queue_pairs <<<"$v") queue pairs, not 2"
	[ "$(jq .queues <<<"$v")" = 2 ] || fail "$p: vsw polled $(jq .queues <<<"$v") queues, not 2"
	jq -e '.guest_offloads | index("host_tso4") and index("guest_tso4")' <<<"$v" >/dev/null ||
		fail "$p: the guest did not negotiate TSO: $v"
	# guest 2 (vm1) runs packed rings, guest 1 (vm0) split ones
	r=split
	[ "$p" = vm1 ] && r=packed
	[ "$(jq -r .guest_rings <<<"$v")" = $r ] || fail "$p: guest_rings is not $r: $v"
	grep -q "$p: guest connected (vid [0-9]*, 2 queue pairs, $r rings," "$T/vsw.log" ||
		fail "$p: no log line of a guest with 2 queue pairs on $r rings"
	j=$(jctl port "$p")
	# (a TCG guest's full rx ring drops some: drop_tx_full, not judged)
	echo "$p: $(jq -c '{rx_packets, offload_rx, tx_packets, drops} + with_entries(select((.key | startswith("drop_")) and .value != 0))' <<<"$j")"
	[ "$(jq .drop_unpolled <<<"$j")" = 0 ] || fail "$p: frames dropped on an unpolled queue"
	[ "$(jq .drop_bad_offload <<<"$j")" = 0 ] || fail "$p: a Linux guest's offload refused"
	q=${QV[$p-first]}
	for i in 0 1; do
		Q[$p$i]=$(jq ".[].q$i.rx_packets" <<<"$q")
		E[$p$i]=$(jq ".[].q$i.enqueued" <<<"$q")
	done
	[ "$(jq '.[].q0.worker' <<<"$q")" != "$(jq '.[].q1.worker' <<<"$q")" ] ||
		fail "$p: both queues on one worker"
done
[ "$(port_ctr vm0 offload_rx)" -gt 0 ] || fail "vm0: the guest sent no offloaded frame"
# the sender's data (vm0) and the receiver's ACKs (vm1): seventeen flows
# each way (sixteen streams and iperf3's control connection), each hashed
# onto one of two queues: each guest sent on both (all on one queue: 1 in
# 65536 per guest)
for p in vm0 vm1; do
	[ "${Q[${p}0]}" -gt 0 ] && [ "${Q[${p}1]}" -gt 0 ] ||
		fail "$p: the guest did not send on both its queues: ${Q[${p}0]}/${Q[${p}1]}"
done
# worker k sends into queue pair k, and each worker polls one queue of
# each port: both of each guest's rx queues took frames
for p in vm0 vm1; do
	[ "${E[${p}0]}" -gt 0 ] && [ "${E[${p}1]}" -gt 0 ] ||
		fail "$p: vsw did not send into both its queues: ${E[${p}0]}/${E[${p}1]}"
done
# 2: nothing from guest 1's tx queue 1, nothing into its rx queue 1
# while it had one pair; pair 0 carried the transfer
[ "$(qv vm0 b 1 rx_packets)" = "$(qv vm0 a 1 rx_packets)" ] ||
	fail "vm0: frames from tx queue 1 after the guest disabled it: $(qv vm0 a 1 rx_packets) -> $(qv vm0 b 1 rx_packets)"
[ "$(qv vm0 b 1 enqueued)" = "$(qv vm0 a 1 enqueued)" ] ||
	fail "vm0: vsw sent into the disabled rx queue 1: $(qv vm0 a 1 enqueued) -> $(qv vm0 b 1 enqueued)"
[ "$sh1" = 1 ] || fail "vm0: tx_queues_shared $sh1 while both workers sent into pair 0"
[ "$sh2" = 0 ] || fail "vm0: tx_queues_shared $sh2 with each worker on its own pair again"
[ "$(qv vm0 b 0 rx_packets)" -gt "$(qv vm0 a 0 rx_packets)" ] &&
	[ "$(qv vm0 b 0 enqueued)" -gt "$(qv vm0 a 0 enqueued)" ] ||
	fail "vm0: queue pair 0 did not carry the one-pair transfer"
grep -a 'VSW-IRQ' "$T/g1.log" "$T/g2.log" | head -8
note "iperf3, TCG guests (relative only), two pairs, one, two: $(grep -a 'SUM.*receiver' "$T/g1.log" | grep -o '[0-9.]* [KMG]bits/sec' | tr '\n' ' ')"
stop_vsw
echo "PASS: multiqueue Linux guests moved TCP with TSO through both queue pairs on two workers, and on one pair while the guest had one"
