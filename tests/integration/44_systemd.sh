#!/bin/bash
# Objective: vsw as a systemd service. (1) `cmake --install` into a
# staging DESTDIR puts vsw, vswctl, vswgen, vsw-prestart, the unit, the
# docs, /etc/vsw/vsw.conf and /etc/default/vsw in place, and keeps an
# operator's edited vsw.conf on a second install; `systemd-analyze verify`
# accepts the installed unit with no warning (--root: its ExecStart
# binaries are checked in the staging tree); the installed vsw.conf
# passes vsw --check; vsw-prestart refuses a bad setting and makes
# QEMU's socket directory. (2) PID 1 here
# is not systemd, so the notify protocol is checked by hand: vsw runs with
# NOTIFY_SOCKET on a datagram socket this test listens on; READY=1 (with a
# STATUS= line) arrives exactly once, and at that moment vsw already
# answers vswctl with its ports and their sockets exist; SIGTERM brings
# STOPPING=1 and exit 0.
# Skips (77) without systemd-analyze or cmake, or when vsw was built
# without libsystemd (VSW_SYSTEMD=OFF, or libsystemd-dev absent).
. "$(dirname "$0")/lib.sh"
command -v systemd-analyze >/dev/null || skip "systemd-analyze is not installed (package systemd)"
command -v cmake >/dev/null || skip "cmake is not installed"
ldd "$VSW" | grep -q 'libsystemd\.so' ||
	skip "vsw was built without libsystemd (install libsystemd-dev, reconfigure)"
PY=/usr/bin/python3
[ -x $PY ] || PY=$(command -v python3) || skip "python3 is not installed"
BUILD=$(cd "$VSW_BIN/.." && pwd)
[ -f "$BUILD/cmake_install.cmake" ] || skip "no cmake build tree at $BUILD"

# --- 1. install, verify -----------------------------------------------
R=$T/root
DESTDIR=$R cmake --install "$BUILD" --prefix /usr >"$T/install.log" 2>&1 ||
	fail "cmake --install: $(tail -3 "$T/install.log")"
UNIT=$(grep -o "$R/.*/vsw\.service" "$T/install.log" | head -1)
[ -n "$UNIT" ] || fail "cmake --install installed no vsw.service"
note "unit: ${UNIT#"$R"}"
for f in usr/bin/vsw usr/bin/vswctl usr/bin/vsw-vsctl usr/bin/vswgen usr/libexec/vsw/vsw-prestart; do
	[ -x "$R/$f" ] || fail "not installed or not executable: /$f"
done
for f in etc/vsw/vsw.conf etc/default/vsw usr/share/doc/vsw/integration.md usr/share/doc/vsw/README.md; do
	[ -f "$R/$f" ] || fail "not installed: /$f"
done
# /var/lib/vsw must be root's alone: vsw refuses a state directory others
# can write, and StateDirectory= alone makes it 0755 (review I1)
grep -qx 'StateDirectoryMode=0700' "$UNIT" || fail "the unit leaves StateDirectoryMode unset (0755)"
grep -q '^ExecStart=/usr/bin/vsw .*-c /etc/vsw/vsw.conf' "$UNIT" ||
	fail "ExecStart does not run /usr/bin/vsw on /etc/vsw/vsw.conf: $(grep ExecStart= "$UNIT")"
for k in Type=notify Restart=on-failure RuntimeDirectory=vsw RuntimeDirectoryPreserve=yes LimitMEMLOCK=infinity; do
	grep -qx "$k" "$UNIT" || fail "the unit lacks $k"
done
# an operator's config survives a second install
echo "; edited" >>"$R/etc/vsw/vsw.conf"
DESTDIR=$R cmake --install "$BUILD" --prefix /usr >"$T/install2.log" 2>&1 || fail "second cmake --install"
tail -1 "$R/etc/vsw/vsw.conf" | grep -qx '; edited' || fail "a second install overwrote /etc/vsw/vsw.conf"
# verify resolves the unit's dependencies (sysinit.target...) in --root
cp -n /lib/systemd/system/*.target "$(dirname "$UNIT")/" 2>/dev/null
systemd-analyze verify --root="$R" "$UNIT" >"$T/verify.log" 2>&1 || fail "systemd-analyze verify: $(cat "$T/verify.log")"
[ ! -s "$T/verify.log" ] || fail "systemd-analyze verify warns: $(cat "$T/verify.log")"
note "systemd-analyze verify: clean"
# ... and it does see a missing binary (the check above can fail)
mv "$R/usr/bin/vsw" "$R/usr/bin/vsw.off"
systemd-analyze verify --root="$R" "$UNIT" >/dev/null 2>&1 && fail "verify accepted a unit whose ExecStart is missing"
mv "$R/usr/bin/vsw.off" "$R/usr/bin/vsw"
"$VSW" -- -c "$R/etc/vsw/vsw.conf" --check >"$T/check.log" 2>&1 || fail "installed vsw.conf: $(cat "$T/check.log")"
out=$(VSW_HUGEPAGES=lots "$R/usr/libexec/vsw/vsw-prestart" 2>&1) && fail "vsw-prestart accepted VSW_HUGEPAGES=lots"
note "vsw-prestart: $out"
VSW_HUGEPAGES=0 "$R/usr/libexec/vsw/vsw-prestart" || fail "vsw-prestart with VSW_HUGEPAGES=0 failed"
VSW_QEMU_SOCKET_DIR=$T/qemu VSW_QEMU_GROUP=root "$R/usr/libexec/vsw/vsw-prestart" || fail "vsw-prestart with VSW_QEMU_SOCKET_DIR failed"
[ "$(stat -c %a:%G "$T/qemu")" = 2770:root ] || fail "VSW_QEMU_SOCKET_DIR made $(stat -c %a:%G "$T/qemu"), expected 2770:root"

# --- 2. sd_notify ---------------------------------------------------------
NS=$T/notify.sock
cat >"$T/listen.py" <<'PYEOF'
import os, socket, subprocess, sys, time
# argv: socket log at_ready_json vswctl prefix sock...
path, log, at_ready, vswctl, prefix = sys.argv[1:6]
socks = sys.argv[6:]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
s.settimeout(90)
with open(log, "w", buffering=1) as f:
    f.write("LISTENING\n")
    while True:
        msg = s.recv(4096).decode()
        f.write("MSG " + msg.replace("\n", " | ") + "\n")
        lines = msg.split("\n")
        if "READY=1" in lines:
            # at this very moment: does vsw answer, with its ports?
            r = subprocess.run([vswctl, "--file-prefix", prefix, "--json", "ports"],
                               capture_output=True, text=True)
            with open(at_ready, "w") as j:
                j.write(r.stdout)
            f.write("AT-READY vswctl rc=%d\n" % r.returncode)
            for k in socks:
                f.write("AT-READY %s %s\n" % (k, "socket" if os.path.exists(k) else "missing"))
        if "STOPPING=1" in lines:
            break
PYEOF
$PY "$T/listen.py" "$NS" "$T/notify.log" "$T/at_ready.json" "$VSWCTL" "$PREFIX" \
	"$RUN/a.sock" "$RUN/b.sock" >"$T/listen.err" 2>&1 &
LP=$!
track "$LP"
wait_for 10 "the notify listener" grep -q LISTENING "$T/notify.log"
CFG=$(vhost_config a b)
NOTIFY_SOCKET=$NS start_vsw "$CFG"
wait_for 20 "READY=1 on NOTIFY_SOCKET" grep -q '^AT-READY .*b.sock' "$T/notify.log"
cat "$T/notify.log"
[ "$(grep -c 'READY=1' "$T/notify.log")" -eq 1 ] || fail "READY=1 not sent exactly once"
grep -q '^MSG READY=1 | STATUS=forwarding: 2 ports, 1 workers' "$T/notify.log" ||
	fail "READY=1 came without the STATUS line"
grep -q '^AT-READY vswctl rc=0' "$T/notify.log" || fail "vsw did not answer vswctl when READY=1 arrived"
jq -e '.ports.a and .ports.b' "$T/at_ready.json" >/dev/null ||
	fail "at READY=1 vswctl ports did not show a and b: $(cat "$T/at_ready.json")"
grep -q 'missing' "$T/notify.log" && fail "a port socket was missing when READY=1 arrived"
stop_vsw
wait_for 10 "STOPPING=1" grep -q 'STOPPING=1' "$T/notify.log"
reap_pid "$LP" || fail "notify listener: $(cat "$T/listen.err")"
grep 'STOPPING' "$T/notify.log"
echo "PASS: unit installed and verified; READY=1 after the ports, STOPPING=1 on SIGTERM"
