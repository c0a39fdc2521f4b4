#!/bin/bash
# Objective: VLAN isolation with a real Linux guest (tools/vm, QEMU/TCG,
# virtio-net) on an access port. The guest (vm0, VLAN 10, 10.99.0.1)
# pings 10.99.0.2, a network namespace behind an af_packet access port of
# VLAN 10 (n10), then 10.99.0.3, a namespace behind an access port of
# VLAN 20 (n20): the first answers, the second never hears a frame
# (vsw's n20 tx_packets stays 0) and the guest gets no reply.
# Skips (77) when QEMU, the guest image or namespaces cannot be had.
. "$(dirname "$0")/lib.sh"
PREFIX=vmt$ID
PREFIXES=("$PREFIX")
COUNT=10

ls /usr/lib/x86_64-linux-gnu/dpdk/pmds-*/librte_net_af_packet.so* >/dev/null 2>&1 ||
	skip "DPDK net_af_packet PMD not installed"
. "$(dirname "$0")/lib_vm.sh"
ip netns add "vswvm$ID-probe" 2>/dev/null || skip "cannot create network namespaces"
ip netns del "vswvm$ID-probe"

# n10 (VLAN 10, 10.99.0.2) and n20 (VLAN 20, 10.99.0.3)
for n in 10 20; do
	netns_veth "vswvm$ID-$n" "vm$ID-$n"
	ip netns exec "vswvm$ID-$n" ip addr add "10.99.0.$((n / 10 + 1))/24" dev "vm$ID-${n}p"
done
CFG=$(vhost_config vm0)
sed -i 's/^mbufs = 8191$/mbufs = 16383/' "$CFG"
cat >>"$CFG" <<EOC
tag = 10
[port n10]
type = ethdev
tag = 10
devargs = net_af_packet0,iface=vm$ID-10
[port n20]
type = ethdev
tag = 20
devargs = net_af_packet1,iface=vm$ID-20
EOC
start_vsw "$CFG"
[ "$(port_ctr vm0 vlan_mode)/$(port_ctr vm0 tag)" = access/10 ] || fail "vm0 is not an access port of VLAN 10"

vm_start guest --sock "$RUN/vm0.sock" --mac 52:54:00:00:00:01 --ip 10.99.0.1/24 --timeout 240 \
	--cmd "vsw-waitpeer 10.99.0.2 200 && ping -c $COUNT -i 0.2 10.99.0.2 && ! ping -c 3 -W 1 10.99.0.3"
G=$VM_PID
rc=0; wait "$G" || rc=$?
grep -a '^VSW-' "$T/guest.log"
ctl ports
res=$(grep -a '^VSW-RESULT:' "$T/guest.log" | tail -1)
[ -n "$res" ] || fail "the guest printed no VSW-RESULT (run-guest exit $rc)"
[ "$rc" -eq 0 ] || fail "the guest's commands failed: $res; $(grep -a -A12 '^VSW-CMD' "$T/guest.log" | tail -12)"
got=$(grep -a "^$COUNT packets transmitted" "$T/guest.log" | sed -n 's/.*, \([0-9]*\) packets received.*/\1/p')
[ "${got:-0}" -ge $((COUNT - 1)) ] || fail "the guest got ${got:-no} of $COUNT replies from VLAN 10"
n10=$(port_ctr n10 tx_packets) n20=$(port_ctr n20 tx_packets)
note "n10 tx $n10, n20 tx $n20"
[ "$n10" -ge "$COUNT" ] || fail "n10 was sent $n10 frames, expected at least $COUNT"
[ "$n20" -eq 0 ] || fail "n20 (VLAN 20) was sent $n20 frames from VLAN 10"
stop_vsw
echo "PASS: a Linux guest on an access port of VLAN 10 reaches VLAN 10 only: $res"
