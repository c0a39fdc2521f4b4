#!/bin/bash
# Objective: vhost-user server sockets as the hypervisor expects them.
# QEMU running as an unprivileged user (simulated: python3 under setpriv
# with that uid and gid, no supplementary groups) can connect to a socket
# whose socket-owner / socket-group / socket-mode name it, and another
# unprivileged user gets EACCES:
# - [switch] socket-group + socket-mode 0660 as every server socket's
#   default; a port's own socket-owner (a name: nobody) overrides it, a
#   port's socket-group (a numeric gid) too;
# - a runtime port-add with socket-owner/-mode, in a socket-dirs directory
#   (outside run-dir), and one outside both that is refused;
# - a client-mode port's socket (QEMU's) is never chowned or chmodded;
# - an owner or group that does not exist is a config error naming the
#   file, section and key; at run time a port-add error.
. "$(dirname "$0")/lib.sh"

SETPRIV=$(command -v setpriv) || skip "setpriv (util-linux) is not installed"
PY=/usr/bin/python3
[ -x "$PY" ] || skip "$PY is not installed"
getent passwd nobody >/dev/null || skip "no user nobody"
QEMU_GID=4243 QEMU_UID=4242 OTHER=4244 NOBODY=$(id -u nobody)

# connect_as UID GID PATH: "ok" or the errno name of connect()
connect_as() {
	"$SETPRIV" --reuid="$1" --regid="$2" --clear-groups "$PY" -c '
import errno, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect(sys.argv[1]); print("ok")
except OSError as e:
    print(errno.errorcode.get(e.errno, e.errno))' "$3"
}
may() { # UID GID PATH: UID:GID connects
	local r; r=$(connect_as "$1" "$2" "$3")
	[ "$r" = ok ] || fail "uid $1 gid $2 cannot connect to $3: $r"
}
may_not() { # UID GID PATH: UID:GID gets EACCES
	local r; r=$(connect_as "$1" "$2" "$3")
	[ "$r" = EACCES ] || fail "uid $1 gid $2 connecting to $3: $r, expected EACCES"
}
perms() { stat -c '%a %u %g' "$1"; }

# the unprivileged users must be able to walk to the sockets
chmod 0711 "$T"
DIRS=$T/ovs
mkdir -m 0755 "$DIRS"
CFG=$T/vsw.conf
cat >"$CFG" <<EOC
[switch]
run-dir = $RUN
mbufs = 8191
socket-group = $QEMU_GID
socket-mode = 0660
socket-dirs = $DIRS
[port dflt]
type = vhost-user
[port own]
type = vhost-user
socket-owner = nobody
socket-mode = 0600
[port grp]
type = vhost-user
socket-group = 4245
[port cli]
type = vhost-user
mode = client
path = $T/qemu.sock
EOC

note "a name that does not exist is a config error"
sed 's/^socket-owner = nobody$/socket-owner = no_such_user_vsw/' "$CFG" >"$T/bad.conf"
rc=0; out=$("$VSW" -- -c "$T/bad.conf" --check 2>&1) || rc=$?
[ "$rc" -ne 0 ] || fail "--check took socket-owner = no_such_user_vsw"
grep -q "bad.conf: \[port own\] socket-owner = \"no_such_user_vsw\": expected a user name .* (no user \"no_such_user_vsw\" here)" <<<"$out" ||
	fail "unclear error: $out"

# QEMU's own server socket for the client port, made by "QEMU" (root here:
# vsw must leave its owner and mode as they are)
"$PY" -c '
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
os.umask(0o022); s.bind(sys.argv[1]); s.listen(4)
c = s.accept()[0]; open(sys.argv[2], "w").close(); time.sleep(60)' \
	"$T/qemu.sock" "$T/accepted" &
track $!
wait_for 10 "QEMU's socket" test -S "$T/qemu.sock"
cli_before=$(perms "$T/qemu.sock")
start_vsw "$CFG"

note "switch defaults: group $QEMU_GID, mode 0660, owner unchanged"
[ "$(perms "$RUN/dflt.sock")" = "660 0 $QEMU_GID" ] || fail "dflt.sock: $(perms "$RUN/dflt.sock")"
may "$QEMU_UID" "$QEMU_GID" "$RUN/dflt.sock"
may_not "$OTHER" "$OTHER" "$RUN/dflt.sock"

note "per port: owner nobody, mode 0600 (the switch's group stays)"
[ "$(perms "$RUN/own.sock")" = "600 $NOBODY $QEMU_GID" ] || fail "own.sock: $(perms "$RUN/own.sock")"
may "$NOBODY" "$NOBODY" "$RUN/own.sock"
may_not "$QEMU_UID" "$QEMU_GID" "$RUN/own.sock"
may_not "$OTHER" "$OTHER" "$RUN/own.sock"

note "per port: group 4245 (numeric), the switch's mode"
[ "$(perms "$RUN/grp.sock")" = "660 0 4245" ] || fail "grp.sock: $(perms "$RUN/grp.sock")"
may "$QEMU_UID" 4245 "$RUN/grp.sock"
may_not "$QEMU_UID" "$QEMU_GID" "$RUN/grp.sock"

note "client port: QEMU's socket untouched"
wait_for 30 "vsw connected to QEMU's socket" test -e "$T/accepted"
[ "$(perms "$T/qemu.sock")" = "$cli_before" ] || fail "vsw changed QEMU's socket: $cli_before -> $(perms "$T/qemu.sock")"

note "runtime port-add in a socket-dirs directory, with owner and mode"
ctl port-add rt type=vhost-user path="$DIRS/rt.sock" socket-owner=$QEMU_UID socket-mode=0600 >/dev/null ||
	fail "port-add in socket-dirs refused"
[ "$(perms "$DIRS/rt.sock")" = "600 $QEMU_UID $QEMU_GID" ] || fail "rt.sock: $(perms "$DIRS/rt.sock")"
may "$QEMU_UID" "$OTHER" "$DIRS/rt.sock"
may_not "$OTHER" "$QEMU_GID" "$DIRS/rt.sock"
rc=0; ctl port-add rt2 type=vhost-user path="$T/rt2.sock" >"$T/out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] && grep -q "below run-dir $RUN, socket-dirs $DIRS" "$T/out" || fail "port-add outside the socket dirs: rc $rc, $(cat "$T/out")"
rc=0; ctl port-add rt3 type=vhost-user socket-group=no_such_group_vsw >"$T/out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] && grep -q 'socket-group = "no_such_group_vsw": expected a group name' "$T/out" ||
	fail "port-add with an unknown group: rc $rc, $(cat "$T/out")"
[ ! -e "$RUN/rt3.sock" ] || fail "a refused port-add left $RUN/rt3.sock"
rc=0; ctl port-set rt socket-mode=0666 >"$T/out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] && grep -q "socket-mode" "$T/out" && [ "$(perms "$DIRS/rt.sock")" = "600 $QEMU_UID $QEMU_GID" ] ||
	fail "port-set socket-mode: rc $rc, $(cat "$T/out"), $(perms "$DIRS/rt.sock")"

stop_vsw
echo "PASS: socket owner, group and mode: the named user connects, others get EACCES"
