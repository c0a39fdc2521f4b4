#!/bin/bash
# Objective: vsw-vsctl takes the exact ovs-vsctl command lines that the
# Kubernetes userspace CNI (intel/userspace-cni-network-plugin @ab5409c,
# cniovs/ovsctrl.go) and os-vif in vsctl mode (openstack/os-vif @e75e5c7,
# vif_plug_ovs/ovsdb/impl_vsctl.py + ovsdb_lib.py) run, also as
# "ovs-vsctl" through a symlink on PATH; the ports they create carry
# frames between two virtio-user guests (counters); os-vif's isolation
# (tag 4095) is a dead VLAN until the port gets its real tag; outputs
# (list-ports, find, get ofport, list --format=json) and exit codes of
# error cases (unsupported command, missing port, a second bridge, a port
# without a type) are ovs-vsctl's, and a failed transaction changes
# nothing.
. "$(dirname "$0")/lib.sh"

VSCTL=$VSW_BIN/vsw-vsctl
[ -x "$VSCTL" ] || skip "vsw-vsctl not built in $VSW_BIN"
mkdir -p "$T/bin" "$RUN/cni"
ln -s "$VSCTL" "$T/bin/ovs-vsctl"; ln -s "$VSCTL" "$T/bin/vsw-vsctl"
export PATH=$T/bin:$PATH VSW_FILE_PREFIX=$PREFIX

BR=br-int
VIF=vhu1b2c3d4e-5f                       # os-vif: "vhu" + vif.id[:11]
VIFVSW=vhu1b2c3d4e_5f                    # its vsw name
IFACE_ID=1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e
VM=6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0
MACA=fa:16:3e:00:00:01
SOCK=0123456789ab-net1                   # CNI: containerID[:12]-ifname
A=$(mac_of 1); B=$(mac_of 2)

# expect RC CMD...: CMD exits RC; its stdout in $T/out, stderr in $T/err
expect() {
	local want=$1 rc=0
	shift
	"$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq "$want" ] ||
		fail "exit $rc (want $want): $* -> $(cat "$T/out" "$T/err")"
}
has_err() { grep -qF -- "$1" "$T/err" || fail "stderr lacks '$1': $(cat "$T/err")"; }
out_is() { [ "$(cat "$T/out")" = "$1" ] || fail "output '$(cat "$T/out")', want '$1'"; }
# os-vif impl_vsctl.py:85-88: every transaction's options; :158-161 puts
# "--" before each command (timeout: ovs.py:75 ovs_vsctl_timeout = 120,
# db: ovs.py:81 ovsdb_connection = tcp:127.0.0.1:6640)
OSVIF=(ovs-vsctl --timeout=120 --oneline --format=json --db=tcp:127.0.0.1:6640)

CFG=$(vhost_config seed)
start_vsw "$CFG"

# The CNI's guest is QEMU's side in client mode: it listens first.
start_guest b "$(virtio "$RUN/cni/$SOCK" server=1)" -- --src-mac "$B" --announce 3 --rx-only --duration 30
wait_for 30 "guest b socket" test -S "$RUN/cni/$SOCK"

note "userspace CNI: add a bridge, a client port, read its mac"
# cniovs/ovsctrl.go:155 findBridge
expect 0 ovs-vsctl --bare --columns=name find bridge name=$BR
out_is ""
# cniovs/ovsctrl.go:114 createBridge
expect 0 ovs-vsctl add-br $BR -- set bridge $BR datapath_type=netdev
# cniovs/ovsctrl.go:68-76 createVhostPort (client: vhost-server-path)
expect 0 ovs-vsctl add-port $BR $SOCK -- set Interface $SOCK type=dpdkvhostuserclient "options:vhost-server-path=$RUN/cni/$SOCK"
# cniovs/ovsctrl.go:142 getVhostPortMac: Port.mac is empty, as in OVS
expect 0 ovs-vsctl --bare --columns=mac find port name=$SOCK
[ "$(cat "$T/out")" = "" ] && [ "$(wc -l <"$T/out")" -eq 1 ] || fail "find port mac: '$(cat "$T/out")'"
expect 0 ovs-vsctl --bare --columns=name find bridge name=$BR
out_is $BR

note "os-vif (vsctl mode, isolate_vif): plug a vhost-user port"
# ovsdb_lib.py:57 _ovs_supports_mtu_requests -> impl_vsctl.py:462 has_table_column
expect 0 "${OSVIF[@]}" -- --columns=mtu_request list Interface
jq -e '.headings == ["mtu_request"] and (.data | length) == 2' "$T/out" >/dev/null || fail "list Interface: $(cat "$T/out")"
# ovs.py:243 _isolate_vif -> ovsdb_lib.py:281 port_exists
expect 0 "${OSVIF[@]}" -- list-ports $BR
out_is "$SOCK\\nseed"
# ovsdb_lib.py:260-278 create_ovs_vif_port (ovs.py:396 _plug_vhostuser,
# vif.mode client (ovs.py:395): OVS is the server), with ovs.py:283-287's
# dead VLAN (isolate_vif = True)
expect 0 "${OSVIF[@]}" -- --may-exist add-br $BR -- set Bridge $BR datapath_type=netdev \
	-- --may-exist add-port $BR $VIF -- set Port $VIF tag=4095 -- set Port $VIF vlan_mode=trunk \
	-- set Port $VIF trunks=4095 -- set Interface $VIF external_ids:iface-id=$IFACE_ID \
	external_ids:iface-status=active external_ids:attached-mac=$MACA external_ids:vm-uuid=$VM \
	type=dpdkvhostuser -- set Interface $VIF mtu_request=1500
[ "$(wc -l <"$T/out")" -eq 8 ] || fail "--oneline: one line per command: $(cat "$T/out")"
[ -S "$RUN/$VIF" ] || fail "no server socket $RUN/$VIF"
ctl_holds '.vlan_mode == "access" and .tag == 4095' port $VIFVSW || fail "os-vif port not in the dead VLAN"
ctl_holds '.external_ids | index(["iface-id='$IFACE_ID'"]) != null' port $VIFVSW ||
	fail "external_ids not kept: $(jctl port $VIFVSW | jq -c .external_ids)"

start_guest a "$(virtio "$RUN/$VIF")" -- --src-mac "$A" --dst-mac "$B" --announce 3 --rate 2000 --duration 30
wait_for 60 "$VIF up" port_is $VIFVSW up
wait_for 60 "$SOCK up" port_is "${SOCK//-/_}" up
wait_for 30 "isolated: frames dropped" ctr_at_least $VIFVSW drop_vlan_not_allowed 200
[ "$(port_ctr "${SOCK//-/_}" tx_packets)" -eq 0 ] || fail "isolated port's frames reached the CNI port"

note "the agent's real VLAN: frames flow"
expect 0 ovs-vsctl set Port $VIF tag=1 vlan_mode=access "trunks=[]" -- set Port $SOCK tag=1
wait_for 30 "A->B traffic" ctr_at_least "${SOCK//-/_}" tx_packets 500

note "outputs"
expect 0 ovs-vsctl list-ports $BR
out_is "$SOCK
seed
$VIF"
expect 0 ovs-vsctl get Interface $VIF ofport
out_is $(($(port_ctr $VIFVSW id) + 1))
expect 0 ovs-vsctl get Interface $VIF external_ids:iface-id type options
out_is "\"$IFACE_ID\"
dpdkvhostuser
{}"
expect 0 ovs-vsctl get Port $VIF tag
out_is 1
expect 0 ovs-vsctl --columns=name,type,options -f table list Interface $SOCK
grep -q "dpdkvhostuserclient.*vhost-server-path" "$T/out" || fail "list -f table: $(cat "$T/out")"

note "errors: exit codes and messages"
expect 1 ovs-vsctl set-controller $BR tcp:127.0.0.1:6653
has_err "ovs-vsctl: unsupported: command 'set-controller'"
expect 1 ovs-vsctl del-port $BR nosuch
has_err "ovs-vsctl: no port named nosuch"
expect 0 ovs-vsctl --if-exists del-port $BR nosuch
expect 1 vsw-vsctl add-br br0
has_err "vsw-vsctl: vsw has one bridge, $BR exists; cannot add br0"
expect 2 ovs-vsctl br-exists br0
n0=$(info_val ports)
expect 1 ovs-vsctl add-port $BR eth9 -- set Port eth9 tag=7
has_err "unsupported: add-port eth9 without a type"
# a transaction vsw refuses half-way (c1's socket is outside run-dir) is
# undone: c0, added before, is deleted again
expect 1 ovs-vsctl add-port $BR c0 -- set Interface c0 type=dpdkvhostuser external_ids:k=v \
	-- add-port $BR c1 -- set Interface c1 type=dpdkvhostuserclient \
	options:vhost-server-path=/nonexistent-dir/c1
has_err "transaction error: /vsw/port/add,c1,"
grep -q "c0: vhost-user server on $RUN/c0" "$T/vsw.log" || fail "c0 was never added, nothing undone: $(tail -5 "$T/vsw.log")"
[ "$(info_val ports)" -eq "$n0" ] && [ ! -e "$RUN/c0" ] || fail "the failed transaction left port c0 behind"
# impl_vsctl.py:466-469: os-vif tells a missing column by this message
expect 1 "${OSVIF[@]}" -- --columns=nosuch list Interface
has_err 'ovs-vsctl: Interface does not contain a column whose name matches "nosuch"'
expect 1 ovs-vsctl get Interface $VIF statistics
has_err 'ovs-vsctl: unsupported: Interface column "statistics"'
expect 1 ovs-vsctl --timeout=0 list-br
has_err "value 0 on -t or --timeout is invalid"

note "unplug: CNI then os-vif, then the bridge"
# cniovs/ovsctrl.go:107 deleteVhostPort, :175 doesBridgeContainInterfaces
expect 0 ovs-vsctl --if-exists del-port $BR $SOCK
expect 0 ovs-vsctl list-ports $BR
[ -n "$(cat "$T/out")" ] || fail "list-ports empty while ports remain"
# ovsdb_lib.py:319 delete_ovs_vif_port
expect 0 "${OSVIF[@]}" -- --if-exists del-port $BR $VIF
out_is ""
# cniovs/ovsctrl.go:133 deleteBridge: with all its ports, as OVS
expect 0 ovs-vsctl del-br $BR
[ "$(info_val ports)" -eq 0 ] && [ "$(info_val bridge)" = "" ] || fail "del-br left $(info_val ports) ports, bridge '$(info_val bridge)'"
expect 0 ovs-vsctl --bare --columns=name find bridge name=$BR
out_is ""
kill "${GUEST_PID[a]}" "${GUEST_PID[b]}" 2>/dev/null
stop_vsw
echo "PASS: vsw-vsctl replays os-vif and userspace CNI command lines"
