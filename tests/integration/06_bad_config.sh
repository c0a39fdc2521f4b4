#!/bin/bash
# Objective: a wrong config or command line gets a message that names the
# file, section, key, value and what was expected, and a non-zero exit,
# before vsw touches anything (no EAL runtime dir, no socket).
. "$(dirname "$0")/lib.sh"

check_bad() { # NAME EXPECTED_TEXT < config
	local f=$T/$1.conf out rc=0
	cat >"$f"
	out=$("$VSW" -l 0,1 --file-prefix "$PREFIX" -- -c "$f" 2>&1) || rc=$?
	[ "$rc" -ne 0 ] || fail "$1: vsw accepted a bad config"
	echo "$out" | grep -qF -- "$2" || fail "$1: message '$out' lacks '$2'"
	[ ! -e "/var/run/dpdk/$PREFIX" ] || fail "$1: EAL started before the config was checked"
	[ -z "$(ls -A "$RUN")" ] || fail "$1: something was created in the run dir"
	note "$1: $out"
}

check_bad unknown_key "$T/unknown_key.conf: [switch] brust = \"32\": expected a [switch] key" <<EOF2
[switch]
brust = 32
EOF2
check_bad bad_int "[port vm0] queues = \"abc\": expected an integer in 1..16" <<EOF2
[switch]
run-dir = $RUN
[port vm0]
type = vhost-user
queues = abc
EOF2
check_bad bad_type "[port vm0] type = \"tap\": expected vhost-user, ethdev or vxlan" <<EOF2
[port vm0]
type = tap
EOF2
check_bad missing_devargs "[port up] devargs: missing; expected ethdev devargs" <<EOF2
[switch]
run-dir = $RUN
[port up]
type = ethdev
EOF2
check_bad bad_mode "[port vm0] mode = \"listen\": expected server or client" <<EOF2
[switch]
run-dir = $RUN
[port vm0]
type = vhost-user
mode = listen
EOF2
out=$("$VSW" -- -c "$T/missing_file.conf" 2>&1) && fail "missing file accepted"
echo "$out" | grep -qF "$T/missing_file.conf: cannot read" || fail "missing file: '$out'"

# lcore pinning is checked once EAL knows the lcores: exit 1, no socket
cat >"$T/pin.conf" <<EOF2
[switch]
run-dir = $RUN
[port vm0]
type = vhost-user
lcores = 5
EOF2
rc=0; out=$("$VSW" -l 0,1 --file-prefix "$PREFIX" $(mem_args 256) -- -c "$T/pin.conf" 2>&1) || rc=$?
[ "$rc" -eq 1 ] || fail "bad pinning: exit $rc"
echo "$out" | grep -qF '[port vm0] lcores = "5": expected a worker lcore id' || fail "pinning: '$out'"
[ ! -e "$RUN/vm0.sock" ] || fail "socket created despite a bad config"

# a port that cannot open (here: no such driver) stops the start with a
# message naming it and exit 1, and the half-made switch is taken down
# cleanly (it once crashed in the teardown: the telemetry lock was not
# set up yet)
cat >"$T/noopen.conf" <<EOF2
[switch]
run-dir = $RUN
[port up]
type = ethdev
devargs = net_nosuchdriver0
EOF2
rc=0; out=$("$VSW" -l 0,1 --file-prefix "$PREFIX" $(mem_args 256) -- -c "$T/noopen.conf" 2>&1) || rc=$?
[ "$rc" -eq 1 ] || fail "a port that cannot open: exit $rc ($out)"
echo "$out" | grep -q "port up" || fail "a port that cannot open: '$out'"
note "noopen: $(echo "$out" | grep "port up")"

# workers, the old name of lcores: accepted, with a one-line warning
sed 's/^lcores = 5$/workers = 1/' "$T/pin.conf" >"$T/old.conf"
out=$("$VSW" -- -c "$T/old.conf" --check 2>&1) || fail "workers = 1 refused: '$out'"
echo "$out" | grep -qxF "vsw: warning: $T/old.conf: [port vm0] workers: deprecated; write lcores (the same value)" ||
	fail "no deprecation warning: '$out'"

# command line
rc=0; out=$("$VSW" -- --bogus 2>&1) || rc=$?
[ "$rc" -eq 2 ] || fail "--bogus: exit $rc"
echo "$out" | grep -q "unknown or incomplete option '--bogus'" || fail "--bogus: '$out'"
# more EAL arguments than vsw can pass on: refused, not silently cut
many=(); for i in $(seq 64); do many+=(--log-level=lib.eal:info); done
rc=0; prefix_add "${PREFIX}m"
out=$(timeout 20 "$VSW" "${many[@]}" --file-prefix "${PREFIX}m" -- -c "$VSW_SRC/config/vsw.conf.sample" 2>&1) || rc=$?
[ "$rc" -eq 2 ] || fail "66 EAL arguments: exit $rc ($out)"
echo "$out" | grep -q "66 EAL arguments; at most 63 are accepted" || fail "66 EAL arguments: '$out'"
[ ! -e "/var/run/dpdk/${PREFIX}m" ] || fail "66 EAL arguments: EAL started"
rc=0; "$VSW" -- -c "$VSW_SRC/config/vsw.conf.sample" --check >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "--check rejected the sample config"
for f in "$VSW_SRC"/config/examples/*.conf; do
	"$VSW" -- -c "$f" --check >/dev/null || fail "--check rejected $f"
done
echo "PASS: bad configs and arguments are refused with their messages"
