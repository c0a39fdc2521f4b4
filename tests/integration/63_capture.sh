#!/bin/bash
# Objective: packet capture (vswctl capture, docs/cli.md) on any port.
# vsw with vhost-user ports a and b (vswgen guests) and an ethdev port
# (net_af_packet on a veth): captures of rx, tx and both, with --count
# and with --filter, give pcapng files that tcpdump reads, holding exactly
# the frames asked for; a busy port captured through a tiny ring shows
# capture drops while forwarding loses nothing to them; a capture ends
# with its port's deletion and with vsw's stop, its file complete; bad
# arguments (unknown port, bad filter, relative path, existing file or
# symlink, missing directory, a second capture of a port) get clear errors;
# a full disk is a reported write error.
. "$(dirname "$0")/lib.sh"
. "$VSW_SRC/tests/integration/lib_veth.sh"
command -v tcpdump >/dev/null || skip "tcpdump is not installed (tools/deps)"

V=vcap$ID
veth_plain "$V" "${V}p"
CFG=$(vhost_config a b)
cat >>"$CFG" <<EOC
[port up]
type = ethdev
devargs = $(afp_devargs 0 "$V")
EOC
A=$(mac_of 30); B=$(mac_of 31)
start_vsw "$CFG"
start_guest b "$(virtio "$RUN/b.sock")" -- --src-mac "$B" --announce 3 --rx-only --duration 120
wait_for 60 "b up" port_is b up
wait_for 30 "B learned" fdb_has "$B"

# frames in a pcapng file, as tcpdump reads them (optionally filtered)
frames() { local f=$1; shift; tcpdump -r "$f" --count "$@" 2>/dev/null | awk '{print $1}'; }
# expect_error PATTERN ARGS...: vswctl ARGS fails with a message matching
expect_error() {
	local pat=$1 rc=0
	shift
	ctl "$@" >"$T/err.out" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] || fail "vswctl $* succeeded"
	grep -q -- "$pat" "$T/err.out" || fail "vswctl $*: $(cat "$T/err.out")"
}
# capture_bg NAME ARGS...: vswctl capture ARGS in the background, output
# in $T/NAME.out, PID in CAP_PID; returns once vsw runs the capture
capture_bg() {
	local n=$1 port=$2
	shift
	bg "$T/$n.out" "$T/$n.out" "$VSWCTL" --file-prefix "$PREFIX" capture "$@"
	CAP_PID=$BG_PID
	wait_for 20 "capture of $port running" cap_running "$port"
}
# pcapng_read FILE: "IN OUT DROP": packets marked inbound and outbound
# (epb_flags) and the statistics block's isb_ifdrop (-1: none)
pcapng_read() {
	python3 - "$1" <<'EOP'
import struct, sys
d = open(sys.argv[1], "rb").read()
i, n_in, n_out, drop = 0, 0, 0, -1
while i + 12 <= len(d):
    t, l = struct.unpack_from("<II", d, i)
    if t == 6:  # enhanced packet: options after the padded data
        cap = struct.unpack_from("<I", d, i + 20)[0]
        o = i + 28 + (cap + 3) // 4 * 4
    elif t == 5:  # interface statistics
        o = i + 20
    else:
        o = i + l - 4
    while o + 4 <= i + l - 4:
        c, ol = struct.unpack_from("<HH", d, o)
        if c == 0:
            break
        if t == 6 and c == 2:
            f = struct.unpack_from("<I", d, o + 4)[0] & 3
            n_in += f == 1
            n_out += f == 2
        if t == 5 and c == 5:
            drop = struct.unpack_from("<Q", d, o + 4)[0]
        o += 4 + (ol + 3) // 4 * 4
    i += l
print(n_in, n_out, drop)
EOP
}
cap_running() { jctl raw "/vsw/capture,$1" | jq -e ".[].port == \"$1\"" >/dev/null; }
cap_wait() { # NAME: the background vswctl capture NAME exits 0
	local rc=0
	reap_pid "$CAP_PID" || rc=$?
	cat "$T/$1.out"
	[ "$rc" -eq 0 ] || fail "vswctl capture $1 exited with $rc"
}
send_a() { # DST COUNT [vswgen options]: guest a sends, then leaves
	local dst=$1 n=$2
	shift 2
	rm -rf "/var/run/dpdk/${PREFIX}ga"
	start_guest a "$(virtio "$RUN/a.sock")" -- --src-mac "$A" --dst-mac "$dst" --announce 3 --count "$n" --duration 30 "$@"
	wait_guest a
}

note "bad arguments"
expect_error "unknown port 'nosuch'" capture nosuch -w "$T/x.pcapng"
expect_error "bad filter 'ether src nonsense'" capture a --filter 'ether src nonsense' -w "$T/x.pcapng"
expect_error "must be an absolute path" capture a -w x.pcapng
# vsw's own checks, past vswctl's
r=$(jctl raw "/vsw/capture/start,a,rx,0,64,65535,x.pcapng")
grep -q "must be an absolute path" <<<"$r" || fail "relative path: $r"
touch "$T/exists.pcapng"
expect_error "exists" capture a -w "$T/exists.pcapng"
ln -s "$T/target" "$T/link.pcapng"
expect_error "exists" capture a -w "$T/link.pcapng"
[ ! -e "$T/target" ] || fail "a capture followed a symlink"
expect_error "does not exist" capture a -w "$T/nodir/x.pcapng"
expect_error "expected rx, tx or both" capture a sideways -w "$T/x.pcapng"
expect_error "--ring expects" capture a --ring 4 -w "$T/x.pcapng"
[ ! -e "$T/x.pcapng" ] || fail "a refused capture left its file"
ctl_holds '.captures == 0' captures || fail "a refused capture is running"

note "rx of a, --count 100: the first 100 of a's 303 frames"
capture_bg rx a rx --count 100 -w "$T/rx.pcapng"
expect_error "captured already" capture a tx -w "$T/second.pcapng"
send_a "$B" 300 --rate 5000
cap_wait rx
grep -q "100 frames written" "$T/rx.out" || fail "vswctl did not report 100 frames"
[ "$(frames "$T/rx.pcapng")" -eq 100 ] || fail "rx.pcapng holds $(frames "$T/rx.pcapng") frames"
[ "$(frames "$T/rx.pcapng" "ether src $A")" -eq 100 ] || fail "rx.pcapng: frames not from A"
[ "$(pcapng_read "$T/rx.pcapng")" = "100 0 0" ] || fail "rx.pcapng: (in out drop) $(pcapng_read "$T/rx.pcapng")"

note "both on a, --filter 'not ether broadcast', until SIGINT: A's 300 unicast"
capture_bg both a --filter 'not ether broadcast' -w "$T/both.pcapng"
send_a "$B" 300 --rate 5000
kill -INT "$CAP_PID"
cap_wait both
[ "$(frames "$T/both.pcapng")" -eq 300 ] || fail "both.pcapng holds $(frames "$T/both.pcapng") frames"
[ "$(frames "$T/both.pcapng" "ether src $A and ether dst $B")" -eq 300 ] || fail "both.pcapng: not A->B"
grep -Eq "filtered out ([3-9]|[1-9][0-9]+)" "$T/both.out" || fail "the 3 broadcasts were not filtered out"

note "tx of b, --count 200 --filter 'ether src A and ether dst B': what b's guest got"
capture_bg tx b tx --count 200 --filter "ether src $A and ether dst $B" -w "$T/tx.pcapng"
send_a "$B" 300 --rate 5000
cap_wait tx
[ "$(frames "$T/tx.pcapng")" -eq 200 ] || fail "tx.pcapng holds $(frames "$T/tx.pcapng") frames"
[ "$(frames "$T/tx.pcapng" "ether src $A and ether dst $B")" -eq 200 ] || fail "tx.pcapng: not A->B"
[ "$(pcapng_read "$T/tx.pcapng")" = "0 200 0" ] || fail "tx.pcapng: (in out drop) $(pcapng_read "$T/tx.pcapng")"

note "both on the ethdev port: A's floods out, the kernel side's frames in"
P=02:00:00:00:00:77
capture_bg up up --filter "ether src $A or ether src $P" -w "$T/up.pcapng"
send_a ff:ff:ff:ff:ff:ff 100 --rate 5000
python3 - "${V}p" "$P" <<'EOP' || fail "cannot send on ${V}p"
import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
src = bytes(int(x, 16) for x in sys.argv[2].split(":"))
for i in range(50):
    s.send(b"\xff" * 6 + src + b"\x88\xb5" + bytes([i]) * 46)
EOP
wait_for 20 "up's 50 frames captured" ctl_holds '.[].written >= 153' raw /vsw/capture,up
kill -INT "$CAP_PID"
cap_wait up
[ "$(frames "$T/up.pcapng" "ether src $A and ether broadcast")" -eq 103 ] || fail "up.pcapng: $(frames "$T/up.pcapng" "ether src $A") of A's 103 floods"
[ "$(frames "$T/up.pcapng" "ether src $P")" -eq 50 ] || fail "up.pcapng: $(frames "$T/up.pcapng" "ether src $P") of the kernel side's 50"
[ "$(pcapng_read "$T/up.pcapng")" = "50 103 0" ] || fail "up.pcapng: (in out drop) $(pcapng_read "$T/up.pcapng")"

note "a busy port through an 8-frame ring: capture drops, no forwarding loss"
a_rx=$(port_ctr a rx_packets); a_drops=$(port_ctr a drops)
b_tx=$(port_ctr b tx_packets); b_full=$(port_ctr b drop_tx_full)
capture_bg busy a rx --ring 8 -w "$T/busy.pcapng"
send_a "$B" 50000 --rate 100000
sent=$(guest_val a tx_packets) # what a's guest got into its ring
sleep 0.5
[ "$(port_ctr a capture)" = rx ] || fail "vswctl port a: capture = $(port_ctr a capture)"
[ "$(port_ctr a capture_dropped)" -gt 0 ] || fail "vswctl port a: no capture_dropped"
kill -TERM "$CAP_PID" # (as SIGINT: the capture stops, its summary printed)
cap_wait busy
[ "$(port_ctr a capture)" = null ] || fail "vswctl port a: a capture after it stopped"
drops=$(sed -n 's/.*dropped by the capture \([0-9]*\).*/\1/p' "$T/busy.out")
written=$(sed -n 's/.* \([0-9]*\) frames written.*/\1/p' "$T/busy.out")
note "capture: $written written, $drops dropped"
[ "${drops:-0}" -gt 0 ] || fail "no capture drops through an 8-frame ring"
[ "$(frames "$T/busy.pcapng")" -eq "$written" ] || fail "busy.pcapng holds $(frames "$T/busy.pcapng"), vswctl said $written"
[ "$(pcapng_read "$T/busy.pcapng")" = "$written 0 $drops" ] ||
	fail "busy.pcapng: (in out drop) $(pcapng_read "$T/busy.pcapng"), expected $written 0 $drops"
[ $(( $(port_ctr a rx_packets) - a_rx )) -eq $(( sent + 3 )) ] ||
	fail "a received $(( $(port_ctr a rx_packets) - a_rx )) of $(( sent + 3 ))"
[ "$(port_ctr a drops)" -eq "$a_drops" ] || fail "a dropped frames"
got=$(( $(port_ctr b tx_packets) - b_tx + $(port_ctr b drop_tx_full) - b_full ))
[ "$got" -eq $(( sent + 3 )) ] || fail "b: tx + tx_full = $got, expected $(( sent + 3 ))"
[ "$(port_ctr b drop_tx_full)" -eq "$b_full" ] ||
	note "WARN: b's guest missed $(( $(port_ctr b drop_tx_full) - b_full )) frames (tx_full: its ring, not the capture)"

note "a full disk: the write error is reported, the writer stops writing"
mkdir -p "$T/small"
if mount -t tmpfs -o size=16k tmpfs "$T/small" 2>/dev/null; then
	on_cleanup_early "umount $T/small 2>/dev/null"
	capture_bg full a rx -w "$T/small/full.pcapng"
	send_a "$B" 2000 --rate 20000
	wait_for 10 "the write error" ctl_holds '.a.write_error != ""' captures
	kill -INT "$CAP_PID"
	cap_wait full
	grep -q "write error: No space left on device" "$T/full.out" || fail "no write error reported"
	written=$(sed -n 's/.* \([0-9]*\) frames written.*/\1/p' "$T/full.out")
	[ "$written" -lt 2003 ] || fail "$written frames written on a 16 KiB file system"
else
	note "SKIP part: cannot mount a tmpfs"
fi

note "a capture ends with its port"
capture_bg gone b tx -w "$T/gone.pcapng"
ctl port-del b >/dev/null || fail "port-del b"
rc=0; reap_pid "$CAP_PID" || rc=$?
[ "$rc" -eq 1 ] || fail "vswctl capture of a deleted port exited $rc"
grep -q "ended in vsw" "$T/gone.out" || fail "gone: $(cat "$T/gone.out")"
tcpdump -r "$T/gone.pcapng" -c 1 >/dev/null 2>&1 || fail "gone.pcapng does not read"

note "and with vsw"
capture_bg last up both -w "$T/last.pcapng"
stop_vsw
rc=0; reap_pid "$CAP_PID" || rc=$?
[ "$rc" -eq 1 ] || fail "vswctl capture exited $rc when vsw stopped"
tcpdump -r "$T/last.pcapng" >/dev/null 2>&1 || fail "last.pcapng does not read"
echo "PASS: captures of rx, tx and both, counted and filtered, on vhost-user and ethdev ports"
