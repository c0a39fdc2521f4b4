#!/bin/bash
# Objective: an empty switch (issue 22). A config with only [switch] is
# valid: vsw starts with no ports and waits for an orchestrator; ports
# added at run time forward; the last port can be deleted; the state file
# then holds no port, and a restart from it comes up empty again (the
# config file's ports stay deleted), ready for the next port-add.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config) # [switch] alone
out=$("$VSW" -- -c "$CFG" --check 2>&1) || fail "--check refused an empty switch: $out"
echo "$out" | grep -qF "ok, 0 port(s)" || fail "--check: '$out'"

note "start with no ports"
start_vsw "$CFG"
[ "$(info_val ports)" = 0 ] || fail "ports: $(info_val ports), expected 0"
[ "$(jctl ports | jq ".total, (.ports | length)" | sort -u)" = 0 ] || fail "vswctl ports: $(jctl ports)"
[ "$(ctl ports | wc -l)" = 1 ] || fail "vswctl ports printed more than its header"
base=$(info_val mbufs_in_use)

note "add two ports, forward between them"
for p in a b; do
	ctl port-add $p type=vhost-user "path=$RUN/$p.sock" mode=server >/dev/null || fail "port-add $p"
done
run_v2v gen --count 20000 --rate 20000 --duration 10
[ "$(jq .lost "$T/gen.json")" -eq 0 ] || fail "A->B lost frames: $(cat "$T/gen.json")"
[ "$(port_ctr b tx_packets)" -ge 20000 ] || fail "b tx $(port_ctr b tx_packets)"

note "delete every port: the switch is empty again"
ctl port-del a >/dev/null || fail "port-del a"
ctl port-del b >/dev/null || fail "port-del b (the last port)"
[ "$(info_val ports)" = 0 ] || fail "ports after deleting all: $(info_val ports)"
[ "$(info_val fdb_entries)" = 0 ] || fail "FDB not empty: $(info_val fdb_entries)"
[ ! -e "$RUN/a.sock" ] && [ ! -e "$RUN/b.sock" ] || fail "sockets left behind"
grep -q '^\[port' "$RUN/vsw.state" && fail "state file still holds a port: $(cat "$RUN/vsw.state")"
sleep 1
[ "$(info_val mbufs_in_use)" -eq "$base" ] || fail "mbufs in use $(info_val mbufs_in_use), $base before"
stop_vsw

note "a config with ports, all deleted: the restart comes up empty"
cat >>"$CFG" <<EOC
[port a]
type = vhost-user
path = $RUN/a.sock
EOC
rm -f "$RUN/vsw.state"
start_vsw "$CFG"
[ "$(info_val ports)" = 1 ] || fail "ports: $(info_val ports), expected 1"
ctl port-del a >/dev/null || fail "port-del a"
stop_vsw
start_vsw "$CFG"
[ "$(info_val ports)" = 0 ] || fail "restart from the state file: $(info_val ports) ports, expected 0"
ctl port-add c type=vhost-user "path=$RUN/c.sock" >/dev/null || fail "port-add after an empty restart"
[ "$(port_ctr c state)" = down ] || fail "port c not listed"
stop_vsw
echo "PASS: vsw starts empty, runs empty, and restarts empty"
