#!/bin/bash
# Objective: os-vif (Debian's python3-os-vif 3.0, its ovs plugin, as Nova
# calls it) plugs and unplugs vhost-user VIFs on a host where vsw has
# replaced ovs-vswitchd: the real ovsdb-server stays, os-vif talks to it
# in its default native mode (ovsdbapp) and in vsctl mode (the real
# ovs-vsctl, through sudo as os-vif runs it); vsw turns the rows into
# ports and writes cur_cfg, which both modes wait for. A guest on each
# plugged VIF (one served by vsw, one served by the "QEMU" side) forwards;
# a plug made while vsw is down completes once vsw is back.
. "$(dirname "$0")/lib.sh"

for b in ovsdb-server ovsdb-tool ovs-vsctl sudo; do
	command -v $b >/dev/null || skip "$b not installed (tools/deps)"
done
/usr/bin/python3 -c 'import os_vif, vif_plug_ovs' 2>/dev/null || skip "python3-os-vif not installed (tools/deps)"
osvif() { # MODE(native|vsctl) plug|unplug client|server VIF_ID SOCKET [MTU]
	/usr/bin/python3 "$VSW_SRC/tests/integration/osvif_plug.py" "unix:$OV/db.sock" \
		"$1" "$2" "$3" "$4" "$5" br-int "${6:-1500}" >>"$T/osvif.log" 2>&1
}
ovsdb_vsw_setup "$T/ovs"
start_vsw "$CFG"
wait_for 20 "vsw synced" ctl_holds '.ovsdb_state == "synced"' info

ID1=1b2c3d4e-5f60-4a7b-8c9d-0123456789ab # vsw serves the socket (QEMU client)
ID2=2c3d4e5f-6071-4b8c-9dae-123456789abc # QEMU serves it
N1=vhu1b2c3d4e-5f N2=vhu2c3d4e5f-60
note "native mode (ovsdbapp): plug $N1, vsw serves $OV/$N1"
osvif native plug client $ID1 "$OV/$N1" || fail "os-vif native plug: $(tail -3 "$T/osvif.log")"
P1=vhu1b2c3d4e_5f P2=vhu2c3d4e5f_60
[ "$(port_ctr $P1 mode)" = server ] && [ "$(port_ctr $P1 path)" = "$OV/$N1" ] ||
	fail "$P1: $(jctl port $P1 | jq -c '{mode, path}')"
jctl port $P1 | jq -e ".external_ids | index(\"iface-id=$ID1\")" >/dev/null ||
	fail "$P1's iface-id: $(jctl port $P1 | jq -c .external_ids)"
[ "$(info_val bridge)" = br-int ] || fail "bridge: $(info_val bridge)"

note "vsctl mode (sudo ovs-vsctl): plug $N2, vsw connects to QEMU's $OV/q2.sock"
osvif vsctl plug server $ID2 "$OV/q2.sock" 9000 || fail "os-vif vsctl plug: $(tail -3 "$T/osvif.log")"
[ "$(port_ctr $P2 mode)" = client ] && [ "$(port_ctr $P2 path)" = "$OV/q2.sock" ] &&
	[ "$(port_ctr $P2 mtu)" = 9000 ] || fail "$P2: $(jctl port $P2 | jq -c '{mode, path, mtu}')"

note "a guest on each VIF: traffic both ways"
gp=${PREFIX}ggen
# the second vdev serves q2.sock (server=1) as QEMU would; vsw connects
dpdk_bg "$gp" "$T/gen.json" "$T/gen.log" "$VSWGEN" -l 0 --file-prefix "$gp" $(mem_args 512) \
	--single-file-segments --no-pci --vdev "$(virtio_vdev 0 "$OV/$N1")" \
	--vdev "$(virtio_vdev 1 "$OV/q2.sock" server=1)" -- \
	--tx-port 0 --rx-port 1 --announce 3 --json --quiet --count 20000 --rate 10000 --duration 20
GEN=$BG_PID
reap_pid "$GEN" || fail "generator: $(tail -3 "$T/gen.log")"
[ "$(jq .lost "$T/gen.json")" -eq 0 ] && [ "$(jq .rx_packets "$T/gen.json")" -ge 20000 ] ||
	fail "traffic between the VIFs: $(cat "$T/gen.json")"
wait_for 15 "Interface $N2 statistics" sh -c "[ \"\$(ovs-vsctl --db=unix:$OV/db.sock get Interface $N2 statistics:tx_packets)\" -ge 20000 ]"

note "unplug both"
osvif native unplug client $ID1 "$OV/$N1" || fail "os-vif native unplug: $(tail -3 "$T/osvif.log")"
osvif vsctl unplug server $ID2 "$OV/q2.sock" || fail "os-vif vsctl unplug: $(tail -3 "$T/osvif.log")"
for p in $P1 $P2; do ctl port $p >/dev/null 2>&1 && fail "$p still a port after unplug"; done
[ ! -e "$OV/$N1" ] || fail "$N1's socket left behind"

note "plug while vsw is down: os-vif waits, vsw comes back and applies it"
stop_vsw
osvif native plug client $ID1 "$OV/$N1" &
PLUG=$!
track $PLUG
sleep 2
start_vsw "$CFG"
reap_pid $PLUG || fail "the plug made while vsw was down failed: $(tail -3 "$T/osvif.log")"
[ "$(port_ctr $P1 state)" = down ] || fail "$P1 missing after vsw came back"
stop_vsw
echo "PASS: os-vif plugs and unplugs vhost-user VIFs on vsw through OVSDB, native and vsctl"
