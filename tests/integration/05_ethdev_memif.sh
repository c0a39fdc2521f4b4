#!/bin/bash
# Objective: an ethdev port. vsw owns a net_memif server port (the NIC
# stand-in) next to a vhost-user port; a generator on the memif client side
# and a virtio-user guest exchange unicast traffic both ways through vsw.
. "$(dirname "$0")/lib.sh"

ls /usr/lib/x86_64-linux-gnu/dpdk/pmds-*/librte_net_memif.so* >/dev/null 2>&1 ||
	skip "DPDK net_memif PMD not installed"
V=$(mac_of 50); N=$(mac_of 51)
MS=$RUN/memif.sock
CFG=$T/vsw.conf
cat >"$CFG" <<EOC
[switch]
run-dir = $RUN
mbufs = 8191
[port vm0]
type = vhost-user
path = $RUN/vm0.sock
[port uplink]
type = ethdev
devargs = net_memif0,role=server,socket=$MS,socket-abstract=no
EOC
start_vsw "$CFG"
[ "$(port_ctr uplink type)" = ethdev ] || fail "uplink is not an ethdev port"

note "vm -> memif"
start_guest nic "net_memif0,role=client,socket=$MS,socket-abstract=no" -- --src-mac "$N" --announce 3 --rx-only --duration 10
wait_for 60 "uplink link up" port_is uplink up
wait_for 30 "memif MAC learned" fdb_has "$N"
start_guest vm "$(virtio "$RUN/vm0.sock")" -- --src-mac "$V" --dst-mac "$N" --announce 3 --count 3000 --rate 2000 --duration 5
wait_guest vm
wait_for 30 "3003 frames to the uplink" ctr_at_least uplink tx_packets 3003
sleep 0.5
finish_guest nic # its trial ends here, not at its --duration
nic_rx=$(guest_val nic rx_packets)
note "memif side received $nic_rx of 3000"
[ "$(port_ctr uplink tx_packets)" -eq 3003 ] || fail "uplink tx $(port_ctr uplink tx_packets), expected 3003"
[ "$nic_rx" -ge 2970 ] || fail "memif side received only $nic_rx"

note "memif -> vm"
rm -rf "/var/run/dpdk/${PREFIX}gvm" "/var/run/dpdk/${PREFIX}gnic"
start_guest vm "$(virtio "$RUN/vm0.sock")" -- --src-mac "$V" --announce 3 --rx-only --duration 10
wait_for 60 "vm0 up" port_is vm0 up
wait_for 30 "uplink down after the client left" port_is uplink down
start_guest nic "net_memif0,role=client,socket=$MS,socket-abstract=no" -- --src-mac "$N" --dst-mac "$V" --announce 3 --count 3000 --rate 2000 --duration 5
wait_guest nic
wait_for 30 "3000 frames to vm0" ctr_at_least vm0 tx_packets 3000
sleep 0.5
finish_guest vm
vm_rx=$(guest_val vm rx_packets)
note "vm guest received $vm_rx of 3000"
ctl ports
[ "$vm_rx" -ge 2970 ] || fail "vm guest received only $vm_rx"
[ "$(port_ctr uplink connects)" -eq 2 ] || fail "uplink connects != 2"
fdbp=$(fdb_port "$N")
[ "$fdbp" = uplink ] || fail "memif MAC learned on '$fdbp'"
stop_vsw
echo "PASS: traffic crosses between a vhost-user guest and an ethdev port"
