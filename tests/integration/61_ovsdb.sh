#!/bin/bash
# Objective: vsw as an OVSDB client (issue 22), with the real programs:
# Debian's ovsdb-server on a private database made with ovsdb-tool from
# the vswitch schema, and the real ovs-vsctl (without --no-wait: it
# returns only once vsw wrote cur_cfg). ovs-vsctl adds a bridge and
# vhost-user ports of both types, sets tags and MTUs; guests attach and
# forward; `ovs-vsctl list Interface` shows vsw's ofport, link state and
# statistics; unsupported rows get an Interface error and no port; a
# port of vsw's config file is never touched. ovsdb-server restarts under
# traffic (vsw keeps forwarding, reconnects, applies what changed); vsw
# restarts while the database changes (its ports come back from the state
# file, then follow the database; other_config:vhost-sock-dir, set
# meanwhile, moves the dpdkvhostuser sockets below OVS's run directory;
# a later change waits for the next restart, one with ".." is refused,
# one that does not exist is made);
# other_config:tx-flush-interval, pmd-auto-lb and its interval and
# improvement threshold are in force while the database has them, `set`
# refuses those keys, the state keeps vsw's own values, which come back
# when the database lets go; a bad value is logged once, however long;
# del-br removes the bridge's ports.
. "$(dirname "$0")/lib.sh"

for b in ovsdb-server ovsdb-tool ovs-vsctl; do
	command -v $b >/dev/null || skip "$b not installed (openvswitch-switch; tools/deps)"
done
[ -f /usr/share/openvswitch/vswitch.ovsschema ] || skip "no vswitch schema (openvswitch-switch)"
iface() { vs get Interface "$1" "$2" | tr -d '"'; }
iface_is() { [ "$(iface "$1" "$2")" = "$3" ]; }
tx_in_db_at_least() { [ "$(vs get Interface "$1" statistics:tx_packets)" -ge "$2" ]; }
ovsdb_vsw_setup "$T/ovs" # OVS's run directory: db.sock, dpdkvhostuser sockets
cat >>"$CFG" <<EOC
[port cfgp]
type = vhost-user
path = $RUN/cfgp.sock
EOC
start_vsw "$CFG"
wait_for 20 "vsw synced with the database" ctl_holds '.ovsdb_state == "synced"' info

note "ovs-vsctl add-br, add-port (dpdkvhostuser, dpdkvhostuserclient)"
vs add-br br0 -- set bridge br0 datapath_type=netdev || fail "add-br"
[ "$(info_val bridge)" = br0 ] || fail "vsw serves bridge '$(info_val bridge)', expected br0"
vs add-port br0 a -- set Interface a type=dpdkvhostuser \
	-- add-port br0 b -- set Interface b type=dpdkvhostuser || fail "add-port a, b"
vs add-port br0 vhu-c1 -- set Interface vhu-c1 type=dpdkvhostuserclient \
	"options:vhost-server-path=$OV/c1.sock" || fail "add-port vhu-c1"
[ "$(port_ctr a path)" = "$OV/a" ] || fail "a's socket: $(port_ctr a path)"
[ "$(port_ctr vhu_c1 mode)" = client ] || fail "vhu-c1 is not a client port: $(jctl port vhu_c1)"
[ "$(port_ctr vhu_c1 path)" = "$OV/c1.sock" ] || fail "vhu-c1's path: $(port_ctr vhu_c1 path)"
jctl port vhu_c1 | jq -e '.external_ids | index("ovs-name=vhu-c1")' >/dev/null ||
	fail "vhu-c1's OVS name not kept: $(jctl port vhu_c1 | jq -c .external_ids)"
for i in a b vhu-c1; do
	o=$(iface $i ofport)
	[ "$o" -ge 1 ] && [ "$o" -le 64 ] || fail "Interface $i ofport '$o'"
	[ "$(iface $i error)" = "[]" ] || fail "Interface $i error: $(iface $i error)"
done
[ "$(iface a ofport)" = "$(( $(port_ctr a id) + 1 ))" ] || fail "a's ofport is not vsw's id + 1"

note "unsupported rows: an Interface error, no port"
out=$(vs add-port br0 sys0 2>&1) && true
echo "$out" | grep -q "Error detected while setting up 'sys0'" || fail "ovs-vsctl add-port sys0: '$out'"
iface sys0 error | grep -q 'interface type .* is not supported' ||
	fail "sys0's error: $(iface sys0 error)"
[ "$(iface sys0 ofport)" = -1 ] || fail "sys0's ofport: $(iface sys0 ofport)"
ctl port sys0 >/dev/null 2>&1 && fail "a port was made of a system interface"
vs del-port sys0
out=$(vs add-port br0 cfgp -- set Interface cfgp type=dpdkvhostuser 2>&1) && true
iface cfgp error | grep -q "was not made from OVSDB" || fail "cfgp's error: $(iface cfgp error) ($out)"
[ "$(port_ctr cfgp path)" = "$RUN/cfgp.sock" ] || fail "the config file's port cfgp was changed"
vs del-port cfgp
ctl port cfgp >/dev/null || fail "the config file's port cfgp went with its row"
iface br0 error | grep -q "local (internal) port" || fail "br0's error: $(iface br0 error)"

note "tags and MTUs"
vs set Port a tag=10 -- set Port b tag=10 -- set Interface a mtu_request=9000 \
	external_ids:iface-id=1b2c3d4e-0000 external_ids:attached-mac=52:54:00:00:00:0a || fail "set"
[ "$(port_ctr a vlan_mode)" = access ] && [ "$(port_ctr a tag)" = 10 ] || fail "a: $(jctl port a | jq -c '{vlan_mode, tag}')"
[ "$(port_ctr a mtu)" = 9000 ] || fail "a's mtu: $(port_ctr a mtu)"
[ "$(iface a mtu)" = 9000 ] || fail "Interface a mtu: $(iface a mtu)"
jctl port a | jq -e '.external_ids | index("iface-id=1b2c3d4e-0000")' >/dev/null ||
	fail "a's external_ids: $(jctl port a | jq -c .external_ids)"
vs set Port b trunks=10,20 -- set Port b vlan_mode=trunk -- clear Port b tag
[ "$(port_ctr b vlan_mode)" = trunk ] && [ "$(port_ctr b trunks)" = 10,20 ] ||
	fail "b: $(jctl port b | jq -c '{vlan_mode, tag, trunks}')"
vs set Port b vlan_mode=access tag=10 -- clear Port b trunks
[ "$(port_ctr b vlan_mode)" = access ] && [ "$(port_ctr b tag)" = 10 ] || fail "b back to access 10"

note "columns vsw does not apply: named in the Interface error, the port stays"
vs set Interface b options:n_rxq=2 ofport_request=7 || fail "set options:n_rxq"
iface b error | grep -q "vsw does not apply: options:n_rxq, ofport_request" ||
	fail "b's error: $(iface b error)"
[ "$(iface b ofport)" -ge 1 ] && ctl port b >/dev/null || fail "b went with an ignored column"
vs remove Interface b options n_rxq -- clear Interface b ofport_request
[ "$(iface b error)" = "[]" ] || fail "b's error after the columns were cleared: $(iface b error)"

note "Open_vSwitch other_config's settings laid over vsw's own while the database has them"
ctl set tx-flush-interval-us 20 >/dev/null || fail "vswctl set tx-flush-interval-us 20"
vs set Open_vSwitch . other_config:tx-flush-interval=50 other_config:pmd-auto-lb=true \
	other_config:pmd-auto-lb-rebal-interval=2 other_config:pmd-auto-lb-improvement-threshold=40 ||
	fail "set other_config"
[ "$(info_val ovsdb_settings)" = "tx-flush-interval-us=50 rebalance-interval-s=120 rebalance-improvement-pct=40" ] ||
	fail "ovsdb_settings: $(info_val ovsdb_settings)"
[ "$(info_val tx_flush_interval_us)" = 50 ] && [ "$(info_val rebalance_interval_s)" = 120 ] &&
	[ "$(info_val rebalance_improvement_pct)" = 40 ] ||
	fail "settings in force: $(jctl info | jq -c '{tx_flush_interval_us, rebalance_interval_s, rebalance_improvement_pct}')"
out=$(ctl set tx-flush-interval-us 10 2>&1) && fail "vswctl set of a key the database sets was taken"
echo "$out" | grep -q "tx-flush-interval-us is 50, set by OVSDB (Open_vSwitch other_config:tx-flush-interval)" ||
	fail "set's refusal: $out"
ctl show-config >"$T/state.ini" || fail "show-config"
grep -q '^tx-flush-interval-us = 20$' "$T/state.ini" && ! grep -q '^rebalance-' "$T/state.ini" ||
	fail "the state holds the database's settings, not vsw's own: $(grep -E 'flush|rebal' "$T/state.ini")"
vs set Open_vSwitch . other_config:tx-flush-interval=abc || fail "set tx-flush-interval=abc"
[ "$(info_val tx_flush_interval_us)" = 20 ] || fail "tx-flush-interval=abc: $(info_val tx_flush_interval_us)"
grep -q 'other_config:tx-flush-interval="abc" is not a number in 0..1000000: ignored' "$T/vsw.log" ||
	fail "no warning for tx-flush-interval=abc"
# a bad value is logged once, however long, not at every sync after it
long=$(printf 'x%.0s' $(seq 100))
vs set Open_vSwitch . other_config:pmd-auto-lb-improvement-threshold=$long || fail "set a long value"
vs set Open_vSwitch . external_ids:vsw-test=1 && vs set Open_vSwitch . external_ids:vsw-test=2 ||
	fail "set external_ids"
[ "$(info_val rebalance_improvement_pct)" = 25 ] || fail "a long bad value: $(info_val rebalance_improvement_pct)"
[ "$(grep -c "pmd-auto-lb-improvement-threshold=\"$long\" is not a number" "$T/vsw.log")" = 1 ] &&
	[ "$(grep -c 'tx-flush-interval="abc" is not a number' "$T/vsw.log")" = 1 ] ||
	fail "bad values not logged once each: $(grep -c 'is not a number' "$T/vsw.log") lines"
vs remove Open_vSwitch . external_ids vsw-test || fail "remove external_ids"
vs remove Open_vSwitch . other_config tx-flush-interval pmd-auto-lb-improvement-threshold \
	-- set Open_vSwitch . other_config:pmd-auto-lb=false || fail "remove other_config keys"
[ "$(info_val ovsdb_settings)" = "rebalance-interval-s=0" ] || fail "ovsdb_settings: $(info_val ovsdb_settings)"
[ "$(info_val tx_flush_interval_us)" = 20 ] && [ "$(info_val rebalance_improvement_pct)" = 25 ] ||
	fail "vsw's own settings not back: $(jctl info | jq -c '{tx_flush_interval_us, rebalance_improvement_pct}')"
# a bad interval that stops counting (pmd-auto-lb=false) is logged again
# when it counts again
for lb in true false true; do
	vs set Open_vSwitch . other_config:pmd-auto-lb=$lb other_config:pmd-auto-lb-rebal-interval=zz ||
		fail "set pmd-auto-lb=$lb"
done
[ "$(info_val rebalance_interval_s)" = 60 ] || fail "pmd-auto-lb-rebal-interval=zz: $(info_val rebalance_interval_s)"
[ "$(grep -c 'pmd-auto-lb-rebal-interval="zz" is not a number' "$T/vsw.log")" = 2 ] ||
	fail "a bad interval counting again not logged again: $(grep -c 'rebal-interval="zz"' "$T/vsw.log") lines"
vs remove Open_vSwitch . other_config pmd-auto-lb pmd-auto-lb-rebal-interval || fail "remove pmd-auto-lb"
[ "$(info_val ovsdb_settings)" = "" ] || fail "ovsdb_settings: $(info_val ovsdb_settings)"
ctl set tx-flush-interval-us 0 >/dev/null || fail "vswctl set tx-flush-interval-us 0 once the database let go"

note "guests on a and b forward; Interface rows show it"
gp=${PREFIX}ggen
dpdk_bg "$gp" "$T/gen.json" "$T/gen.log" "$VSWGEN" -l 0 --file-prefix "$gp" $(mem_args 512) \
	--single-file-segments --no-pci --vdev "$(virtio_vdev 0 "$OV/a")" --vdev "$(virtio_vdev 1 "$OV/b")" -- \
	--tx-port 0 --rx-port 1 --announce 3 --json --quiet --rate 5000 --duration 24
GEN=$BG_PID
wait_for 60 "a up" port_is a up
wait_for 30 "A->B traffic" ctr_at_least b tx_packets 2000
wait_for 15 "Interface a link_state up" iface_is a link_state up
wait_for 15 "Interface b statistics" tx_in_db_at_least b 1000

note "ovsdb-server restarts under traffic: forwarding goes on, changes made after it apply"
ovsdb_stop
wait_for 10 "vsw sees the database gone" ctl_holds '.ovsdb_state == "connecting"' info
b_tx=$(port_ctr b tx_packets)
wait_for 10 "forwarding without the database" ctr_at_least b tx_packets $((b_tx + 1000))
ovsdb_launch "$OV" "$T/ovsdb.log" || fail "ovsdb-server did not start again"
wait_for 20 "vsw synced again" ctl_holds '.ovsdb_state == "synced" and .ovsdb_connects == 2' info
vs del-port vhu-c1 || fail "del-port vhu-c1 after the restart"
ctl port vhu_c1 >/dev/null 2>&1 && fail "vhu_c1 still a port after del-port"
reap_pid "$GEN" || fail "generator: $(tail -3 "$T/gen.log")"
[ "$(jq .lost "$T/gen.json")" -eq 0 ] || fail "A->B lost frames across the ovsdb-server restart: $(cat "$T/gen.json")"

note "vsw restarts while the database changes: ports from the state file, then the database's"
[ "$(info_val ovsdb_vhost_sock_dir)" = "$OV" ] || fail "ovsdb_vhost_sock_dir: $(info_val ovsdb_vhost_sock_dir)"
stop_vsw
vs --no-wait del-port b
vs --no-wait add-port br0 d -- set Interface d type=dpdkvhostuser
# OVS's other_config:vhost-sock-dir (relative to its run directory),
# taken when vsw starts, as ovs-vswitchd takes it
mkdir "$OV/vhu"
vs --no-wait set Open_vSwitch . other_config:vhost-sock-dir=vhu/
start_vsw "$CFG"
ctl port a >/dev/null || fail "a did not come back"
wait_for 20 "vsw synced after its restart" ctl_holds '.ovsdb_state == "synced"' info
wait_for 10 "b deleted, d added" sh -c "! $VSWCTL --file-prefix $PREFIX port b >/dev/null 2>&1 && $VSWCTL --file-prefix $PREFIX port d >/dev/null"
[ "$(info_val ovsdb_vhost_sock_dir)" = "$OV/vhu" ] || fail "ovsdb_vhost_sock_dir: $(info_val ovsdb_vhost_sock_dir)"
wait_for 10 "a's socket moved to vhost-sock-dir" ctl_holds ".path == \"$OV/vhu/a\"" port a
[ "$(port_ctr d path)" = "$OV/vhu/d" ] && [ -S "$OV/vhu/d" ] || fail "d's socket: $(port_ctr d path)"
[ "$(iface d error)" = "[]" ] || fail "Interface d error: $(iface d error)"
note "vhost-sock-dir changed while vsw runs: logged, taken at the next restart"
vs set Open_vSwitch . other_config:vhost-sock-dir=elsewhere
vs add-port br0 e -- set Interface e type=dpdkvhostuser || fail "add-port e"
[ "$(port_ctr e path)" = "$OV/vhu/e" ] || fail "e's socket: $(port_ctr e path)"
wait_for 5 "the change logged" grep -q 'vhost-sock-dir is now "elsewhere".*until vsw restarts' "$T/vsw.log"
vs set Interface e mtu_request=1500 || fail "set e's mtu"
[ "$(grep -c 'vhost-sock-dir is now "elsewhere"' "$T/vsw.log")" = 1 ] || fail "the change not logged once"
[ "$(port_ctr a tag)" = 10 ] && [ "$(port_ctr a mtu)" = 9000 ] || fail "a's settings after the restart"
vs set Interface a mtu_request=1500 || fail "ovs-vsctl (waiting for cur_cfg) after the restart"
[ "$(port_ctr a mtu)" = 1500 ] || fail "a's mtu after the restart: $(port_ctr a mtu)"

note "del-br: the bridge's ports go, the config file's port stays"
vs del-br br0 || fail "del-br"
for p in a d e; do ctl port $p >/dev/null 2>&1 && fail "$p left after del-br"; done
ctl port cfgp >/dev/null || fail "cfgp went with del-br"
[ "$(info_val ovsdb_ports)" = 0 ] || fail "ovsdb_ports: $(info_val ovsdb_ports)"
stop_vsw

note "a vhost-sock-dir with '..' is refused, as OVS refuses it: sockets in the run directory"
vs --no-wait set Open_vSwitch . other_config:vhost-sock-dir=../x
start_vsw "$CFG"
wait_for 20 "vsw synced" ctl_holds '.ovsdb_state == "synced"' info
grep -q 'vhost-sock-dir "../x" has "..": dpdkvhostuser sockets go to '"$OV"'$' "$T/vsw.log" ||
	fail "no error for vhost-sock-dir ../x: $(grep vhost-sock-dir "$T/vsw.log")"
vs add-br br0 -- add-port br0 f -- set Interface f type=dpdkvhostuser || fail "add-port f"
[ "$(port_ctr f path)" = "$OV/f" ] && [ -S "$OV/f" ] || fail "f's socket: $(port_ctr f path)"
stop_vsw

note "a vhost-sock-dir that does not exist: vsw makes it (ovs-vswitchd logs an error and its ports fail)"
vs --no-wait set Open_vSwitch . other_config:vhost-sock-dir=missing/deeper
start_vsw "$CFG"
wait_for 20 "vsw synced" ctl_holds '.ovsdb_state == "synced"' info
vs add-port br0 g -- set Interface g type=dpdkvhostuser || fail "add-port g"
[ "$(iface g error)" = "[]" ] || fail "Interface g's error: $(iface g error)"
[ -S "$OV/missing/deeper/g" ] && [ "$(port_ctr g path)" = "$OV/missing/deeper/g" ] ||
	fail "g's socket: $(port_ctr g path); $(ls -la "$OV/missing/deeper" 2>&1)"
[ "$(stat -c %a "$OV/missing/deeper")" = 755 ] || fail "the directory vsw made: $(stat -c %a "$OV/missing/deeper")"
stop_vsw
echo "PASS: ovs-vsctl drives vsw through the real ovsdb-server"
