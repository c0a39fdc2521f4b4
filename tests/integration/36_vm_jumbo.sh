#!/bin/bash
# Objective: a Linux guest (QEMU/TCG, the kernel's virtio-net driver) given
# host_mtu=9000 on a vsw vhost-user port at mtu 9000 exchanges 9014-byte
# frames with a kernel stack in a namespace behind vsw's net_af_packet port
# (issue 10 items 4, 5: guest -> vsw -> ethdev with a real guest):
#   - the guest's eth0 has MTU 9000 (VIRTIO_NET_F_MTU) and vsw shows
#     guest_mtu 9000 (QEMU told it with VHOST_USER_NET_SET_MTU);
#   - the namespace pings the guest with `ping -M "do" -s 8972`: every reply
#     comes back, ping finds every byte right, and the guest's replies
#     enter vsw as 9014-byte frames (not fragments);
#   - the port at mtu 1500: vsw warns that the guest's mtu is above it and
#     the jumbo ping fails, counted as drop_too_big on the guest's port.
# Skips (77) when QEMU or the guest image cannot be had here.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_veth.sh"
PREFIX=vmj$ID
# shellcheck disable=SC2034 # (lib.sh cleans them up)
PREFIXES=("$PREFIX")
. "$(dirname "$0")/lib_vm.sh"

NS=vswm${ID}
veth_ns "$NS" "vmH$ID" 10.96.0.1/24 9000
CFG=$(guest_uplink_config "vmH$ID")
start_vsw "$CFG"
GIP=10.96.0.2 GMAC=52:54:00:00:00:31
# the guest answers pings until it has seen 21 and then 10 quiet seconds
# shellcheck disable=SC2016 # (expanded in the guest)
vm_start guest --sock "$RUN/vm0.sock" --mac $GMAC --ip $GIP/24 \
	--host-mtu 9000 --timeout 280 \
	--cmd '[ "$(cat /sys/class/net/eth0/mtu)" = 9000 ] || { echo "eth0 mtu $(cat /sys/class/net/eth0/mtu)"; exit 3; }; vsw-serve 21 10 240'
G=$VM_PID
wait_for 200 "the guest's eth0 up" grep -aq '^VSW-READY:' "$T/guest.log"
grep -a '^VSW-READY:' "$T/guest.log"
wait_for 30 "vm0 up" port_is vm0 up
[ "$(port_ctr vm0 guest_mtu)" -eq 9000 ] || fail "vm0: guest_mtu $(port_ctr vm0 guest_mtu), QEMU gave host_mtu=9000"
wait_until 60 ip netns exec "$NS" ping -c 1 -W 1 $GIP || fail "the guest does not answer pings"

note "namespace -> guest: 10 pings of 8972 bytes with DF"
rx0=$(port_ctr vm0 rx_packets); rb0=$(port_ctr vm0 rx_bytes)
ns_ping "$NS" -M "do" -s 8972 -p 5aa5c33c -c 10 -i 0.5 -W 5 $GIP || fail "jumbo ping to the guest failed"
grep -q " 10 received" "$T/ping.out" || fail "jumbo ping: not 10 replies"
n=$(( $(port_ctr vm0 rx_packets) - rx0 )); b=$(( $(port_ctr vm0 rx_bytes) - rb0 ))
note "vm0 took $n frames, $b bytes from the guest"
# (fragments at 1500 would be 70 frames; ARP and the like add a few)
{ [ "$n" -ge 10 ] && [ "$n" -le 25 ] && [ "$b" -ge $(( 10 * 9014 )) ]; } ||
	fail "the guest's replies were not 10 9014-byte frames ($n frames, $b bytes)"

note "vm0 at mtu 1500: vsw warns, the jumbo ping fails (too_big on vm0)"
ctl port-set vm0 mtu=1500 || fail "port-set vm0 mtu=1500"
wait_for 10 "the mtu warning" grep -q "vm0: the guest's mtu is 9000, the port's 1500" "$T/vsw.log"
big0=$(port_ctr vm0 drop_too_big)
! ns_ping "$NS" -M "do" -s 8972 -c 3 -i 0.5 -W 2 $GIP || fail "jumbo ping passed vm0 at mtu 1500"
[ $(( $(port_ctr vm0 drop_too_big) - big0 )) -ge 3 ] || fail "vm0: no too_big drops at mtu 1500"
ctl port-set vm0 mtu=9000 || fail "port-set vm0 mtu=9000"
ns_ping "$NS" -M "do" -s 8972 -c 10 -i 0.5 -W 5 $GIP || fail "jumbo ping failed at mtu 9000 again"

rc=0; wait "$G" || rc=$?
grep -a '^VSW-' "$T/guest.log"
[ "$rc" -eq 0 ] || fail "the guest failed (run-guest exit $rc)"
jctl port vm0 | jq -c '{guest_mtu, rx_packets, tx_packets, drop_oversize, drop_too_big}'
stop_vsw
echo "PASS: a Linux guest with host_mtu=9000 exchanged 9014-byte frames with a namespace through vsw intact"
