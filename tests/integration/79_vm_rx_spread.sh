#!/bin/bash
# Objective: a Linux guest with more queue pairs than vsw has workers gets
# its received flows spread over all its rx queues, as a tap device with
# vhost-net spreads them (before, vsw's one worker sent everything into
# queue pair 0, so one vCPU took every receive interrupt).
# vsw runs one worker.  Guest 2 (vm1) has 2 queue pairs and 2 vCPUs (its
# kernel enables both); guest 1 (vm0) one pair, and sends it TCP with
# eight iperf3 streams.  vsw sends into both of guest 2's rx queues (each
# flow into one: flow_hash.h; guest_rx_queues_fed 2 in its port view),
# and the guest's own counters (ethtool -S
# eth0: rx_queue_N_packets) show frames on both, no more than vsw
# enqueued on each; no queue shared, nothing dropped as unpolled, no
# offload refused, and the transfer completes.
. "$(dirname "$0")/lib.sh"
PREFIX=vrs$ID
PREFIXES=("$PREFIX")
. "$(dirname "$0")/lib_vm.sh"
command -v iperf3 >/dev/null || skip "iperf3 is not installed (tools/deps)"
note "kernel $VSW_VM_KERNEL, initrd $VSW_VM_INITRD"

CFG=$(vhost_config vm0 vm1)
sed -i 's/^mbufs = 8191$/mbufs = 32767/' "$CFG"
start_vsw "$CFG"
[ "$(info_val workers)" = 1 ] || fail "expected one worker, not $(info_val workers)"

# guest 2: one iperf3 test, then what its driver counted per rx queue
SERVER="iperf3 -s -1 && ethtool -S eth0 | grep -E 'rx_queue_[0-9]+_packets' | sed 's/^ */VSW-RXQ /'"
CLIENT="vsw-waitpeer 10.99.0.2 200 && for i in 1 2 3 4 5 6 7 8 9 10; do iperf3 -c 10.99.0.2 -t 5 -P 8 && break; if [ \$i = 10 ]; then exit 1; fi; sleep 1; done"
vm_start g2 --sock "$RUN/vm1.sock" --mac 52:54:00:00:02:02 --ip 10.99.0.2/24 \
	--queues 2 --cmd "$SERVER" --timeout 240
G2=$VM_PID
vm_start g1 --sock "$RUN/vm0.sock" --mac 52:54:00:00:02:01 --ip 10.99.0.1/24 \
	--cmd "$CLIENT" --timeout 240
G1=$VM_PID
wait_for 120 "vm1 up" port_is vm1 up
# (the guest's driver enables pair 1 after the port is up)
fed_two() { [ "$(port_ctr vm1 guest_rx_queues_fed)" = 2 ]; }
wait_for 60 "vsw to feed both of vm1's rx queues (guest_rx_queues_fed 2)" fed_two
V=$(jctl port vm1 | jq -c '{guest_queue_pairs, guest_rx_queues_fed, queues, guest_offloads}')
echo "vm1: $V"
rc1=0; wait "$G1" || rc1=$?
rc2=0; wait "$G2" || rc2=$?
grep -a -E '^VSW-(RESULT|ERROR|RXQ)|SUM.*receiver' "$T/g1.log" "$T/g2.log"
[ "$rc1" -eq 0 ] || fail "guest 1: run-guest exit $rc1: $(grep -a VSW-RESULT "$T/g1.log")"
[ "$rc2" -eq 0 ] || fail "guest 2: run-guest exit $rc2: $(grep -a VSW-RESULT "$T/g2.log")"
Q=$(jctl raw /vsw/queues,vm1)
ctl queues vm1
j=$(jctl port vm1)
echo "vm1: $(jq -c '{tx_packets, tx_queues_shared} + with_entries(select((.key | startswith("drop_")) and .value != 0))' <<<"$j")"

[ "$(jq .guest_queue_pairs <<<"$V")" = 2 ] || fail "vm1: the guest had $(jq .guest_queue_pairs <<<"$V") queue pairs, not 2"
jq -e '.guest_offloads | index("guest_tso4")' <<<"$V" >/dev/null || fail "vm1: no TSO negotiated: $V"
[ "$(jq .tx_queues_shared <<<"$j")" = 0 ] || fail "vm1: tx_queues_shared with one worker"
for p in vm0 vm1; do
	[ "$(port_ctr $p drop_unpolled)" = 0 ] || fail "$p: frames dropped on an unpolled queue"
	[ "$(port_ctr $p drop_bad_offload)" = 0 ] || fail "$p: a Linux guest's offload refused"
done
for i in 0 1; do
	e=$(jq ".[].q$i.enqueued" <<<"$Q")
	g=$(grep -a -o "^VSW-RXQ rx_queue_${i}_packets: [0-9]*" "$T/g2.log" | grep -o '[0-9]*$')
	note "rx queue $i: vsw enqueued $e, the guest counted ${g:-nothing}"
	[ -n "$g" ] || fail "guest 2 printed no count for rx_queue_$i"
	[ "$e" -gt 0 ] || fail "vm1: vsw sent nothing into rx queue $i (one worker, two pairs)"
	[ "$g" -gt 0 ] || fail "vm1: the guest received nothing on rx queue $i"
	[ "$g" -le "$e" ] || fail "vm1: the guest counted $g on rx queue $i, vsw enqueued $e"
done
note "iperf3, TCG guests (relative only): $(grep -a 'SUM.*receiver' "$T/g1.log" | grep -o '[0-9.]* [KMG]bits/sec')"
stop_vsw
echo "PASS: one worker spread a two-queue Linux guest's received flows over both its rx queues"
