#!/bin/bash
# Objective: what a telemetry client, a second frontend or a spoofing guest
# may do is limited (review M6, M7, M8, L3, L6, L7, L10).
# - port-add at run time: vhost-user sockets only below run-dir, ethdev
#   drivers only from port-add-drivers (net_pcap, net_af_packet refused),
#   a memif socket file only below run-dir (M7);
# - a failed ethdev port-add leaves nothing behind: the same device can
#   be added right after (L3);
# - parameters with control characters, non-ASCII bytes or more than 255
#   characters are refused and never echoed raw (L6);
# - control = read-only refuses every mutating command (M7);
# - a pool too small for the config is refused at start (L7);
# - socket-mode/socket-group are applied to server sockets (L10);
# - a second frontend on a socket that has one is refused and the first
#   one is undisturbed (M6);
# - allowed-macs: frames from other source MACs are dropped
#   (src_not_allowed) and never learned (M8).
. "$(dirname "$0")/lib.sh"

expect_err() { # WHAT-GREP vswctl-args...: exit 1 and a message matching
	local want=$1 rc=0; shift
	"$VSWCTL" --file-prefix "$PREFIX" "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 1 ] || fail "vswctl $*: exit $rc, expected 1 ($(cat "$T/out" "$T/err"))"
	grep -q -- "$want" "$T/err" || fail "vswctl $*: '$(cat "$T/err")' does not say '$want'"
	LC_ALL=C grep -q '[^[:print:]]' "$T/err" && fail "vswctl $*: raw bytes in the error"
	return 0
}

CFG=$(vhost_config a b)
sed -i 's/^\[switch\]$/[switch]\nsocket-mode = 0660\nsocket-group = daemon/' "$CFG"
start_vsw "$CFG"

note "L10: socket mode and group"
[ "$(stat -c '%a %G' "$RUN/a.sock")" = "660 daemon" ] || fail "a.sock is $(stat -c '%a %G' "$RUN/a.sock")"

note "M7: what port-add may create"
mkdir -p "$T/elsewhere"
expect_err "below run-dir" raw "/vsw/port/add,x,type=vhost-user,path=$T/elsewhere/x.sock"
expect_err "below run-dir" raw "/vsw/port/add,x,type=vhost-user,path=$RUN/../x.sock"
[ ! -e "$T/elsewhere/x.sock" ] && [ ! -e "$T/x.sock" ] || fail "a socket was created outside run-dir"
expect_err "port-add-drivers" raw "/vsw/port/add,x,type=ethdev,devargs=net_pcap0,rx_pcap=/dev/null,tx_pcap=$T/elsewhere/out.pcap"
[ ! -e "$T/elsewhere/out.pcap" ] || fail "net_pcap wrote a file"
expect_err "port-add-drivers" raw "/vsw/port/add,x,type=ethdev,devargs=net_af_packet0,iface=lo"
expect_err "below run-dir" raw "/vsw/port/add,x,type=ethdev,devargs=net_memif0,role=server,socket=$T/elsewhere/m.sock,socket-abstract=no"

if [ -n "$(find /usr/lib -name 'librte_net_memif.so*' 2>/dev/null | head -1)" ]; then
	note "L3: a failed ethdev port-add can be retried"
	MS="net_memif0,role=server,socket=$RUN/m.sock,socket-abstract=no"
	expect_err "takes at most" raw "/vsw/port/add,m,type=ethdev,mtu=9000,devargs=$MS"
	ctl raw "/vsw/port/add,m,type=ethdev,rxq=1,devargs=$MS" >/dev/null || fail "retry of the memif port-add failed"
	[ "$(port_ctr m type)" = ethdev ] || fail "memif port m missing"
	expect_err "is port m" raw "/vsw/port/add,m2,type=ethdev,devargs=$MS"
	ctl raw /vsw/port/del,m >/dev/null || fail "port/del m failed"
fi

note "L6: parameters"
expect_err "printable ASCII" raw "/vsw/port,a$(printf '\001')b"
expect_err "printable ASCII" raw "/vsw/port,a$(printf '\033[2J')"
expect_err "printable ASCII" raw "/vsw/port,caf$(printf '\303\251')"
expect_err "longer than 255" raw "/vsw/set,burst,$(printf '%0300d' 1)"
ctl info >/dev/null || fail "vsw stopped answering"

note "M6: one frontend per socket"
A=$(mac_of 91); B=$(mac_of 92); X=$(mac_of 93)
start_guest b "$(virtio "$RUN/b.sock")" -- --src-mac "$B" --announce 3 --rx-only --duration 30
wait_for 60 "b up" port_is b up
gp=${PREFIX}g2; PREFIXES+=("$gp")
rc=0
# shellcheck disable=SC2046
"$VSWGEN" -l 0 --file-prefix "$gp" $(mem_args 256) --single-file-segments --no-pci \
	--vdev "$(virtio "$RUN/b.sock")" -- --rx-only --duration 2 --link-wait 5 --json --quiet \
	>"$T/second.json" 2>"$T/second.log" || rc=$?
[ "$rc" -ne 0 ] || fail "a second frontend on b.sock came up: $(cat "$T/second.json")"
grep -q "b: refused a second vhost-user connection" "$T/vsw.log" || fail "no log line for the refused frontend"
[ "$(port_ctr b connects)" -eq 1 ] || fail "b.connects $(port_ctr b connects)"

note "M8: allowed-macs on a"
ctl raw "/vsw/port/set,a,allowed-macs=$A" >/dev/null || fail "port/set allowed-macs failed"
[ "$(jctl port a | jq -r '.allowed_macs[0]')" = "$A" ] || fail "allowed_macs not shown"
start_guest a "$(virtio "$RUN/a.sock")" -- --src-mac "$X" --dst-mac "$B" --count 500 --rate 1000 --duration 5 --rx-port none
wait_guest a; rm -rf "/var/run/dpdk/${PREFIX}ga"
[ "$(port_ctr a drop_src_not_allowed)" -eq 500 ] || fail "spoofed frames: $(port_ctr a drop_src_not_allowed) dropped of 500"
jctl fdb | jq -e --arg m "$X" '.entries[] | select(.mac == $m)' >/dev/null && fail "the spoofed MAC was learned"
b0=$(port_ctr b tx_packets)
start_guest a "$(virtio "$RUN/a.sock")" -- --src-mac "$A" --dst-mac "$B" --count 500 --rate 1000 --duration 5 --rx-port none
wait_guest a
wait_for 10 "b to get A's 500" ctr_at_least b tx_packets $((b0 + 500))
[ "$(port_ctr a drop_src_not_allowed)" -eq 500 ] || fail "allowed frames dropped"
stop_vsw

note "M7: control = read-only"
sed -i 's/^\[switch\]$/[switch]\ncontrol = read-only/' "$CFG"
start_vsw "$CFG"
[ "$(info_val control)" = read-only ] || fail "control not read-only"
expect_err "read-only" set burst 64
expect_err "read-only" raw "/vsw/port/add,x,type=vhost-user"
expect_err "read-only" raw /vsw/fdb/flush
ctl ports >/dev/null || fail "read commands refused in read-only mode"
stop_vsw

note "L7: a pool too small for the config"
rm -f "$RUN/vsw.state" # small.conf alone, not the state the changes above left
cat >"$T/small.conf" <<EOC
[switch]
run-dir = $RUN
mbufs = 2048
[port a]
type = vhost-user
[port e]
type = ethdev
devargs = net_null0
rxq = 4
EOC
rc=0
# shellcheck disable=SC2046
"$VSW" -l 0,1 --file-prefix "$PREFIX" $(mem_args 256) --vdev net_null0 -- -c "$T/small.conf" >"$T/small.log" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "vsw started with 2048 mbufs for 4 rx queues of 1024"
grep -q "small.conf: \[switch\] mbufs = \"2048\": expected at least" "$T/small.log" || fail "no clear mbufs error: $(tail -2 "$T/small.log")"
echo "PASS: port-add, parameters, read-only mode, pool size, socket permissions, second frontends and spoofed sources are limited"
