#!/bin/bash
# Objective: turning offloads off under a running Linux guest does not cut
# it off.  QEMU keeps the features its guest acked and refuses a backend
# that offers fewer when it reconnects ("vhost lacks feature mask ... for
# backend"): without vsw's answer, a port whose offloads were turned off
# (here: the config file edited, vsw restarted) stays down until that
# QEMU restarts.  vsw sees the frontend leave before negotiating, offers
# the offloads again to its next connection, and cuts and fills for that
# guest as for any port with offloads off; once that QEMU goes, the next
# guest on the port negotiates none.
#
# A QEMU/TCG guest (vhost-user server; vsw's port vm0 a client, which
# reconnects) runs iperf3 in a loop to a namespace behind net_af_packet:
#   1. offloads on: the guest negotiates host_tso4, sends TSO frames;
#   2. vsw restarted with offloads = off for vm0: vm0 up again within
#      30 s, the guest's acked offloads kept (guest_offloads), its TSO
#      frames taken and cut for the namespace, vsw's log says why;
#   2b. the same at run time: port-del and port-add with offloads = on
#      (the guest keeps what it acked), then off;
#   3. the guest's QEMU restarted: it negotiates no offload, TCP flows;
#   4. a frontend on another offloads-off port that never had offloads
#      reads the features and leaves, three times: never offered any;
#   5. the same as 2b with vsw the server and QEMU the client
#      (reconnect=1, libvirt's <reconnect>).
# Skips (77) when QEMU, the guest image or namespaces cannot be had here.
. "$(dirname "$0")/lib.sh"
PREFIX=vmf$ID
PREFIXES=("$PREFIX")
. "$(dirname "$0")/lib_vm.sh"
. "$(dirname "$0")/lib_veth.sh"
command -v iperf3 >/dev/null || skip "iperf3 is not installed (tools/deps)"
command -v ethtool >/dev/null || skip "ethtool is not installed (tools/deps)"

veth_ns offo vswoffo0 10.99.0.3/24 1500
ip netns exec offo ethtool -K vswoffo0p tx off tso off gso off >/dev/null ||
	fail "ethtool -K vswoffo0p"
ns_iperf() { # a fresh server (the last one may wait out a client killed mid-test)
	[ -n "${NSI:-}" ] && { kill -TERM "$NSI" 2>/dev/null; reap_pid "$NSI" || true; }
	bg "$T/ns-iperf.out" "$T/ns-iperf.err" ip netns exec offo timeout 400 iperf3 -s
	NSI=$BG_PID
}
ns_iperf
mkdir -p "$RUN"
SOCK=$RUN/vm0.sock
CFG=$T/vsw.conf
cat >"$CFG" <<EOF
[switch]
run-dir = $RUN
mbufs = 16383
[port vm0]
type = vhost-user
mode = client
path = $SOCK
[port up]
type = ethdev
devargs = net_af_packet0,iface=vswoffo0
EOF
LOOP="vsw-waitpeer 10.99.0.3 200 && for i in \$(seq 150); do iperf3 -c 10.99.0.3 -t 1 >/dev/null 2>&1; sleep 0.3; done"
guest() { # TAG CMD
	vm_start "$1" --sock "$SOCK" --server --mac 52:54:00:00:02:01 --ip 10.99.0.1/24 \
		--mem 256 --timeout 300 --cmd "$2"
	GPID=$VM_PID
}
ctr() { port_ctr "$1" "$2"; }
acked() { jctl port vm0 | jq -c .guest_offloads; }

note "1. offloads on: the guest negotiates TSO and sends TSO frames"
guest g1 "$LOOP"
start_vsw "$CFG"
wait_for 120 "vm0 up" port_is vm0 up
acked | grep -q host_tso4 || fail "the guest did not negotiate host_tso4: $(acked)"
wait_for 60 "TSO frames from the guest" ctr_at_least vm0 offload_rx 1
wait_for 10 "vsw's record that vm0's guest acked offloads" \
	grep -qxF "$SOCK" "$RUN/offloads-acked/vm0"
note "vm0: $(jctl port vm0 | jq -c '{offloads, guest_offloads, offload_rx}')"

note "2. vsw restarted with offloads = off for vm0: the running guest comes back"
stop_vsw
sed -i 's/^\[port vm0\]$/[port vm0]\noffloads = off/' "$CFG"
start_vsw "$CFG"
wait_for 30 "vm0 up again (QEMU refuses a backend that offers less than its guest acked)" \
	port_is vm0 up
grep -q "vm0: its frontend left before negotiating" "$T/vsw.log" ||
	fail "no log line saying why the offloads are offered"
view=$(jctl port vm0 | jq -c '{offloads, offloads_kept, tx_offloads, guest_offloads}')
note "vm0: $view"
jq -e '.offloads == "off" and .offloads_kept != null and .tx_offloads == [] and
	(.guest_offloads | index("host_tso4"))' <<<"$view" >/dev/null ||
	fail "vm0 after the restart: $view"
wait_for 60 "the guest's TSO frames taken and cut for the namespace" \
	ctl_holds '.tso_segmented > 0' port up
[ "$(ctr vm0 offload_rx)" -gt 0 ] && [ "$(ctr vm0 drop_bad_offload)" -eq 0 ] ||
	fail "vm0: $(jctl port vm0 | jq -c '{offload_rx, drop_bad_offload}')"
note "up: $(jctl port up | jq -c '{tx_packets, tso_segmented, tso_segments}')"

note "2b. at run time: offloads on again (port-del, port-add), then off again"
for o in on off; do
	ctl port-del vm0 >/dev/null || fail "port-del vm0"
	ctl port-add vm0 type=vhost-user mode=client "path=$SOCK" offloads=$o >/dev/null ||
		fail "port-add vm0 offloads=$o"
	wait_for 30 "vm0 up with offloads=$o" port_is vm0 up
	acked | grep -q host_tso4 || fail "offloads=$o: the guest's offloads: $(acked)"
done
# (vsw.log holds both runs of vsw: the restart's line and this one)
[ "$(grep -c "vm0: its frontend left before negotiating" "$T/vsw.log")" = 2 ] ||
	fail "offloads off at run time: $(grep -c 'left before negotiating' "$T/vsw.log") log lines"
wait_for 30 "TSO frames after the port-add" ctl_holds '.offload_rx > 0' port vm0

note "3. the guest's QEMU restarted: offloads = off holds"
kill -TERM "$GPID"; wait "$GPID" 2>/dev/null || true
wait_for 30 "vm0 down" port_is vm0 down
wait_for 10 "the offer withdrawn" grep -q "vm0: the guest that had offloads left" "$T/vsw.log"
ns_iperf
guest g2 "vsw-waitpeer 10.99.0.3 200 && for i in 1 2 3 4 5; do iperf3 -c 10.99.0.3 -t 2 && exit 0; sleep 1; done; exit 1"
wait_for 120 "vm0 up with the new guest" port_is vm0 up
[ "$(acked)" = "[]" ] || fail "the new guest negotiated offloads on a port with offloads off: $(acked)"
[ "$(port_ctr vm0 offloads_kept)" = null ] || fail "vm0: offloads_kept after the guest left"
rx0=$(ctr vm0 offload_rx)
rc=0; reap_pid "$GPID" || rc=$?
grep -a -E 'VSW-(RESULT|ERROR)|receiver' "$T/g2.log" || true
[ "$rc" -eq 0 ] || fail "the new guest's iperf3: run-guest exit $rc"
[ "$(ctr vm0 offload_rx)" -eq "$rx0" ] || fail "the new guest sent offloaded frames"
[ ! -e "$RUN/offloads-acked/vm0" ] || fail "the record outlived the guest that acked offloads"

note "4. a frontend that never had offloads and leaves early gets none (an untrusted guest)"
ctl port-add vm1 type=vhost-user "path=$RUN/vm1.sock" offloads=off >/dev/null || fail "port-add vm1"
/usr/bin/python3 - "$RUN/vm1.sock" <<'EOP' || fail "vm1 offered offloads to a frontend that never had them"
import socket, struct, sys, time
CSUM, HOST_TSO4 = 1 << 0, 1 << 11
for attempt in range(3):  # each connection reads the features and leaves
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    s.sendall(struct.pack("<III", 1, 1, 0))  # VHOST_USER_GET_FEATURES
    req, flags, size = struct.unpack("<III", s.recv(12))
    f = struct.unpack("<Q", s.recv(size))[0]
    s.close()
    print("connection %d: features %#x" % (attempt, f))
    if f & (CSUM | HOST_TSO4):
        sys.exit(1)
    time.sleep(0.5)
EOP
grep -q "vm1: its frontend left before negotiating" "$T/vsw.log" && fail "vm1: offloads offered"

note "5. vsw the server, QEMU the client (reconnect=1): offloads off under it by port-del, port-add"
ctl port-add vm2 type=vhost-user "path=$RUN/vm2.sock" >/dev/null || fail "port-add vm2"
vm_start g3 --sock "$RUN/vm2.sock" --reconnect 1 --mac 52:54:00:00:02:03 --ip 10.99.0.4/24 \
	--mem 256 --timeout 300 --cmd "$LOOP"
wait_for 120 "vm2 up" port_is vm2 up
wait_for 60 "TSO frames from the guest on vm2" ctr_at_least vm2 offload_rx 1
wait_for 10 "vsw's record for vm2" grep -qxF "$RUN/vm2.sock" "$RUN/offloads-acked/vm2"
ctl port-del vm2 >/dev/null || fail "port-del vm2"
ctl port-add vm2 type=vhost-user "path=$RUN/vm2.sock" offloads=off >/dev/null ||
	fail "port-add vm2 offloads=off"
wait_for 30 "vm2 up again" port_is vm2 up
grep -q "vm2: its frontend left before negotiating" "$T/vsw.log" || fail "vm2: no log line"
wait_for 60 "vm2's TSO frames taken" ctr_at_least vm2 offload_rx 1
stop_vsw
echo "PASS: a running guest kept its port when offloads were turned off under it; its next QEMU negotiated none"
