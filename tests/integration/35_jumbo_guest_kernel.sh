#!/bin/bash
# Objective: jumbo frames between a vhost-user guest and a kernel network
# stack through vsw, every byte intact (issue 10 item 4: guest -> vsw ->
# ethdev). A virtio-user vswgen guest (mergeable rx buffers) on vhost-user
# port vm0 and a namespace joined by a veth pair whose host end is vsw's
# net_af_packet port up, both at mtu 9000:
#   - the guest sends 1000 frames of 9014 bytes (several mbufs each in vsw)
#     with vswgen's verify pattern; a raw socket in the namespace captures
#     them and checks every byte (tests/integration/rawframes.py);
#   - the namespace sends 300 such frames to the guest, which checks them
#     (vswgen --verify) and sees them as chains.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_veth.sh"

python3 "$RAWFRAMES" selftest || fail "rawframes.py cannot tell a wrong frame"
NS=vswk${ID}
veth_ns "$NS" "vkH$ID" 10.97.0.1/24 9000
CFG=$(guest_uplink_config "vkH$ID")
start_vsw "$CFG"
wait_for 30 "up up" port_is up up
G=$(mac_of 60); K=$(ns_mac "$NS" "vkH${ID}p")
base=$(info_val mbufs_in_use)

note "guest -> kernel: 1000 frames of 9014 bytes"
raw_recv k "$NS" "vkH${ID}p" 1000 60 9014
tx0=$(port_ctr up tx_packets)
start_guest g "$(virtio "$RUN/vm0.sock" "mrg_rxbuf=1")" -- --src-mac "$G" --dst-mac "$K" \
	--size 9014 --verify --announce 3 --count 1000 --rate 1000 --duration 20 --rx-port none
wait_guest g
rc=0; reap_pid "$RAW_PID" || rc=$?
cat "$T/k.json"
jctl port up | jq -c '{tx_packets, drop_too_big, drop_tx_full, drops}'
[ "$rc" -eq 0 ] || fail "the namespace did not receive 1000 intact 9014-byte frames"
[ $(( $(port_ctr up tx_packets) - tx0 )) -ge 1000 ] || fail "up: fewer than 1000 frames sent"
[ "$(port_ctr up drop_too_big)" -eq 0 ] || fail "up: too_big drops at mtu 9000"
rm -rf "/var/run/dpdk/${PREFIX}gg"

note "kernel -> guest: 300 frames of 9014 bytes"
start_guest g "$(virtio "$RUN/vm0.sock" "mrg_rxbuf=1")" -- --src-mac "$G" --announce 3 \
	--rx-only --verify --duration 25
wait_for 60 "vm0 up" port_is vm0 up
wait_for 30 "guest MAC learned" fdb_has "$G"
tx0=$(port_ctr vm0 tx_packets)
ip netns exec "$NS" python3 "$RAWFRAMES" send "vkH${ID}p" "$G" 300 9014 || fail "raw sender failed"
# once vsw has given the guest all 300, its trial ends (SIGUSR1) instead
# of sleeping out its --duration
wait_for 30 "300 frames to vm0" ctr_at_least vm0 tx_packets $((tx0 + 300))
finish_guest g
jq -c '{rx_packets, verified, payload_errors, len_errors, rx_segs_max}' "$T/g.json"
[ "$(guest_val g verified)" -eq 300 ] || fail "guest verified $(guest_val g verified) of 300 jumbo frames"
[ "$(guest_val g payload_errors)" -eq 0 ] || fail "guest: payload errors"
[ "$(guest_val g len_errors)" -eq 0 ] || fail "guest: length errors"
[ "$(guest_val g rx_segs_max)" -gt 1 ] || fail "guest: no chained frame seen (mergeable buffers)"
[ "$(port_ctr vm0 guest_mtu)" -eq 0 ] || fail "vm0: a virtio-user guest told an mtu"

sleep 1
used=$(info_val mbufs_in_use)
[ "$used" -eq "$base" ] || fail "mbufs in use $used, $base before"
stop_vsw
echo "PASS: 9014-byte frames cross vsw between a vhost-user guest and a kernel stack intact, both ways"
