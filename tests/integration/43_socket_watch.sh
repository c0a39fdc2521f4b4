#!/bin/bash
# Objective: socket-directory watching (socket-watch-dir). Guests that
# create their vhost-user socket as servers (virtio-user server=1, as QEMU
# with server=on) in the watched directory are plugged as vhost-user
# client ports named after the file, with socket-watch-profile's keys:
# one socket present when vsw starts (x.sock -> port x), one that
# appears later (vm-y.sock -> port vm_y); frames flow between them; a
# non-socket file is ignored; a socket whose name a port has, or whose
# file name holds a ',' (it would add port-add keys), is left alone;
# plugged and unplugged ports are saved in the state file; when a guest
# stops and its socket is removed, its port goes, and only the ports the
# watcher plugged. The directory is given with a trailing '/'.
. "$(dirname "$0")/lib.sh"

X=$(mac_of 43); Y=$(mac_of 44)
W=$T/watch
mkdir -p "$W"
CFG=$T/vsw.conf
cat >"$CFG" <<EOC
[switch]
run-dir = $RUN
mbufs = 8191
socket-watch-dir = $W/
socket-watch-profile = queues=1,mtu=1500,max-macs=8
[port up0]
type = vhost-user
EOC

note "socket present at start: x.sock"
start_guest x "$(virtio "$W/x.sock" server=1)" -- --src-mac "$X" --dst-mac "$Y" --announce 3 --rate 5000 --duration 40
wait_for 30 "x.sock" test -S "$W/x.sock"
: >"$W/notasocket.sock"
start_vsw "$CFG"
wait_for 30 "port x plugged" ctl_holds '.ports.x != null' ports
jctl port x | jq -e --arg p "$W/x.sock" '.path == $p and .mode == "client" and .mtu == 1500 and .max_macs == 8' >/dev/null ||
	fail "port x: $(jctl port x | jq -c '{path, mode, mtu, max_macs}')"
jctl ports | jq -e '.ports.notasocket == null' >/dev/null || fail "a plain file was plugged"

note "socket that appears later: vm-y.sock -> port vm_y"
start_guest y "$(virtio "$W/vm-y.sock" server=1)" -- --src-mac "$Y" --announce 3 --rx-only --duration 40
wait_for 30 "port vm_y plugged" ctl_holds '.ports.vm_y != null' ports
[ "$(jctl port vm_y | jq -r .mode)" = client ] || fail "vm_y: $(jctl port vm_y | jq -c '{path, mode}')"
wait_for 60 "x up" port_is x up
wait_for 60 "vm_y up" port_is vm_y up
wait_for 30 "x -> vm_y traffic" ctr_at_least vm_y tx_packets 1000
# a plugged port is saved like one a client adds (state file, test 40)
grep -q '^\[port vm_y\]' "$RUN/vsw.state" || fail "port vm_y not in the state file"

note "a socket whose port name is taken, or with a comma in its name, is left alone"
/usr/bin/python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$W/up0.sock"
/usr/bin/python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$W/ev,tag=5,lcores=1"
sleep 0.5
jctl ports | jq -e '.ports | keys == ["up0", "vm_y", "x"]' >/dev/null || fail "ports: $(jctl ports | jq -c '.ports | keys')"
[ "$(jctl port up0 | jq -r .mode)" = server ] || fail "up0 replaced: $(jctl port up0 | jq -c .)"
rm -f "$W/up0.sock"
sleep 0.5
jctl port up0 >/dev/null || fail "removing up0.sock removed port up0, which the watcher did not plug"

note "guest vm_y stops, its socket goes: port vm_y goes"
kill -KILL "${GUEST_PID[y]}"
wait "${GUEST_PID[y]}" 2>/dev/null
rm -f "$W/vm-y.sock"
wait_for 10 "port vm_y removed" ctl_holds '.ports.vm_y == null' ports
! grep -q '^\[port vm_y\]' "$RUN/vsw.state" || fail "port vm_y still in the state file"
jctl ports | jq -e '.ports.x != null and .ports.up0 != null' >/dev/null || fail "other ports went too: $(jctl ports | jq -c '.ports | keys')"
stop_vsw
[ -S "$W/x.sock" ] || fail "vsw removed guest x's socket"
echo "PASS: sockets in the watched directory are plugged as client ports and unplugged when they go"
