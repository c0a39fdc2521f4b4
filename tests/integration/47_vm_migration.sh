#!/bin/bash
# Objective: live migration of QEMU guests between vsw vhost-user ports
# (issue 11 item 6). Two Linux guests (TCG) boot side by side:
#   guest 1 on port `src` (vsw the vhost-user server) migrates to a QEMU
#     waiting with -incoming on port `dst` (vsw the client, QEMU the
#     server), then back to a new QEMU on `src`; it announces itself with
#     gratuitous ARPs (VIRTIO_NET_F_GUEST_ANNOUNCE, QEMU's default);
#   guest 2 (guest_announce=off) migrates from `src2` to `dst2`: QEMU asks
#     vsw for the announce (VHOST_USER_SEND_RARP) and librte_vhost injects
#     a RARP into vsw's next dequeue on the port.
# A kernel network stack in a namespace (veth, vsw net_af_packet port
# `ping`) pings the guest being migrated every 10 ms; the source QEMU
# migrates over a unix socket (QMP, tools/vm/qmp).
# Checks:
#   - vsw offers what migration needs (QEMU's view of the backend):
#     VHOST_F_LOG_ALL and VHOST_USER_PROTOCOL_F_LOG_SHMFD (dirty log),
#     VIRTIO_NET_F_GUEST_ANNOUNCE and VHOST_USER_PROTOCOL_F_RARP;
#   - a migration cancelled half-way turns the dirty log on and off
#     through vsw; the guest runs on, its port never drops it;
#   - each migration completes; the waiting destination's port stays down
#     until the switch-over, the source's goes down with it;
#   - the announce (gratuitous ARP or RARP) reaches the pinger; vsw's FDB
#     moves the guest's MAC to the destination port in place (a move, never
#     absent); the guest answers through it; the pings lost stay under a
#     generous bound;
#   - port security on the guests' ports (allowed-macs, allowed-ips,
#     max-macs 1) lets the announce and the traffic pass, drops nothing;
#   - an old port sees no frame once its QEMU quit and takes a new QEMU;
#     no mbuf stays in use.
# Prints per migration: pings lost, the longest gap between replies,
# QEMU's downtime, the times from the guest's resumption to the first
# announce and to the FDB move.
# The pinger is a namespace rather than a third TCG guest: ping -D at
# 10 ms gives exact loss and timing, and two CPUs already carry two
# emulated guests, the migration and vsw's worker.
# Skips (77) when QEMU, the guest image, net_af_packet or namespaces are
# missing.
. "$(dirname "$0")/lib.sh"
PREFIX=vmm$ID
PREFIXES=("$PREFIX")
. "$(dirname "$0")/lib_veth.sh"
. "$(dirname "$0")/lib_vm.sh"
MAXLOST=${VSW_MIGR_MAXLOST:-300} # pings (10 ms apart): 3 s of outage
# the guests: MAC, IP, run-guest's announce option, the announce frame
declare -A GMAC=([1]=52:54:00:00:47:01 [2]=52:54:00:00:47:02)
declare -A GIP=([1]=10.99.0.1 [2]=10.99.0.2)
declare -A GANN=([1]="" [2]=--no-guest-announce)
declare -A GKIND=([1]=garp [2]=rarp)
# the QEMUs (a, b, c: guest 1; d, e: guest 2)
declare -A QG=([a]=1 [b]=1 [c]=1 [d]=2 [e]=2)
PIP=10.99.0.100
NS=vswmg$ID DEV=vmg$ID

veth_ns "$NS" "$DEV" "$PIP/24" 1500
CFG=$(vhost_config src dst src2 dst2)
# port security as an OpenStack port has it: the guest's MAC and IP only,
# one MAC at a time; the announce must pass it
secure() { # PORT... GUEST
	local p g=${*: -1}
	for p in "${@:1:$#-1}"; do
		sed -i "/^path = .*\/$p\.sock\$/a max-macs = 1\nallowed-macs = ${GMAC[$g]}\nallowed-ips = ${GIP[$g]}" "$CFG"
	done
}
secure src dst 1
secure src2 dst2 2
# dst in client mode (QEMU owns the socket, the mode OVS recommends):
# both modes take part
sed -i "/^path = .*\/dst\.sock\$/a mode = client" "$CFG"
printf '[port ping]\ntype = ethdev\ndevargs = net_af_packet0,iface=%s\n' "$DEV" >>"$CFG"
# VSW_MIGR_POLL=adaptive: the worker sleeps when idle
[ -n "${VSW_MIGR_POLL:-}" ] && sed -i "s/^\[switch\]/[switch]\npoll-mode = $VSW_MIGR_POLL/" "$CFG"
start_vsw "$CFG"
wait_for 30 "port ping up" port_is ping up
[ "$(port_ctr dst max_macs)" = 1 ] && jctl port dst | jq -e '.allowed_macs | length == 1' >/dev/null ||
	fail "dst: no port security: $(jctl port dst | jq -c '{max_macs, allowed_macs, allowed_ips}')"

# guest NAME PORT [ARGS...]: QEMU NAME of its guest on PORT (a guest's
# QEMUs alike but for the port, console, monitor, -incoming); its
# run-guest's PID in RG[NAME]
declare -A RG
guest() {
	local n=$1 p=$2 g=${QG[$1]}
	shift 2
	# shellcheck disable=SC2086 # GANN: no option or one
	vm_start "$n" --sock "$RUN/$p.sock" --mac "${GMAC[$g]}" --ip "${GIP[$g]}/24" \
		--mem 128 --timeout 170 --qmp "$T/$n.qmp" ${GANN[$g]} "$@"
	RG[$n]=$VM_PID
	wait_for 10 "QMP of $n" test -S "$T/$n.qmp"
}
fdb_moved() { jctl raw /vsw/fdb/stats | jq -r '.[].moved'; }
qmp() { "$VM/qmp" "$T/$1.qmp" "${@:2}"; }
status_of() { qmp "$1" query-status | jq -r .status; }

t0=$(date +%s)
guest a src
guest d src2
for q in a d; do
	g=${QG[$q]}
	wait_for 120 "guest $g up" grep -aq '^VSW-READY:' "$T/$q.log"
	note "guest $g up after $(( $(date +%s) - t0 )) s: $(grep -a '^VSW-READY:' "$T/$q.log")"
	wait_for 30 "guest $g answering" ip netns exec "$NS" ping -c 1 -W 1 "${GIP[$g]}"
done
[ "$(fdb_port "${GMAC[1]}")" = src ] && [ "$(fdb_port "${GMAC[2]}")" = src2 ] ||
	fail "FDB: guests on '$(fdb_port "${GMAC[1]}")' and '$(fdb_port "${GMAC[2]}")', expected src and src2"
IP=${GIP[1]}

# what QEMU got from vsw (the vhost-user backend's offer)
qmp a x-query-virtio >"$T/virtio-list.json" 2>&1 ||
	skip "QEMU has no x-query-virtio (7.2 and later): $(cat "$T/virtio-list.json")"
vpath=$(jq -r '.[] | select(.name == "virtio-net") | .path' "$T/virtio-list.json")
qmp a x-query-virtio-status "{\"path\": \"$vpath\"}" >"$T/virtio.json" ||
	fail "x-query-virtio-status: $(cat "$T/virtio.json")"
offers() { jq -e --arg f "$2:" "[.\"vhost-dev\".$1[] | startswith(\$f)] | any" "$T/virtio.json" >/dev/null; }
for f in VHOST_F_LOG_ALL VIRTIO_NET_F_GUEST_ANNOUNCE; do
	offers 'features."dev-features"' $f || fail "vsw does not offer $f"
done
for f in VHOST_USER_PROTOCOL_F_LOG_SHMFD VHOST_USER_PROTOCOL_F_RARP; do
	offers '"protocol-features".protocols' $f || fail "vsw does not offer $f"
done
note "vsw offers VHOST_F_LOG_ALL, GUEST_ANNOUNCE, protocol LOG_SHMFD and RARP"

# a migration cancelled half-way (to a pipe at 16 KiB/s: 20 s to go):
# QEMU turns the dirty log on through vsw (SET_FEATURES with LOG_ALL on a
# running device, SET_LOG_BASE past vsw's guard) and off again; the guest
# runs on, src stays up without a reconnect
vlog() { qmp a x-query-virtio-status "{\"path\": \"$vpath\"}" | jq -c '."vhost-dev" | {"log-enabled", "log-size"}'; }
qmp a migrate-set-parameters '{"max-bandwidth": 16384}' >/dev/null || fail "migrate-set-parameters"
qmp a migrate '{"uri": "exec:cat >/dev/null"}' >/dev/null || fail "migrate to a pipe"
wait_for 10 "the dirty log on" sh -c "$VM/qmp $T/a.qmp x-query-virtio-status '{\"path\": \"$vpath\"}' |
	jq -e '.\"vhost-dev\".\"log-enabled\"'"
note "migrating: $(vlog); $(qmp a query-migrate | jq -c '{status, ram: {transferred: .ram.transferred}}')"
qmp a migrate_cancel >/dev/null || fail "migrate_cancel"
wait_for 10 "the migration cancelled" sh -c "$VM/qmp $T/a.qmp query-migrate | jq -e '.status == \"cancelled\"'"
[ "$(status_of a)" = running ] || fail "a: $(status_of a) after the cancel, expected running"
[ "$(vlog | jq -r '."log-enabled"')" = false ] || fail "the dirty log stayed on: $(vlog)"
port_is src up && [ "$(port_ctr src disconnects)" = 0 ] ||
	fail "src: $(jctl port src | jq -c '{state, disconnects}') after the cancelled migration"
ip netns exec "$NS" ping -c 3 -i 0.2 -W 1 $IP >/dev/null || fail "the guest does not answer after the cancel"
note "cancelled: guest running on src, dirty log off: $(vlog)"
base=$(info_val mbufs_in_use)

# watch MAC: what the pinger's side sees, one line each with the wall
# time: "T rarp" / "T garp" for a broadcast from MAC that is a RARP
# (0x8035) or a gratuitous ARP (sender IP = target IP), and "T fdb PORT"
# whenever the FDB shows MAC on another port (telemetry /vsw/fdb polled
# every 2 ms on one connection: vswctl and jq take tens of ms a look here)
watch() {
	exec ip netns exec "$NS" python3 -c '
import json, select, socket, sys, time
iface, mac_s, tel = sys.argv[1:4]
mac = bytes.fromhex(mac_s.replace(":", ""))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind((iface, 0))
s.setblocking(False)
t = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
t.connect(tel)
t.recv(4096)
port = None
print("ready", file=sys.stderr, flush=True)
while True:
    if select.select([s], [], [], 0.002)[0]:
        while True:
            try:
                f = s.recv(2048)
            except BlockingIOError:
                break
            if f[6:12] != mac or f[0:6] != b"\xff" * 6:
                continue
            ty = f[12:14]
            if ty == b"\x80\x35" or (ty == b"\x08\x06" and f[28:32] == f[38:42]):
                print("%.6f %s" % (time.time(), "rarp" if ty == b"\x80\x35" else "garp"), flush=True)
    t.send(b"/vsw/fdb")
    r = json.loads(t.recv(1 << 16))["/vsw/fdb"]
    p = [e["port"] for e in r.values() if isinstance(e, dict) and e.get("mac") == mac_s]
    p = p[0] if p else "-"
    if p != port:
        print("%.6f fdb %s" % (time.time(), p), flush=True)
        port = p
' "${DEV}p" "$1" "/var/run/dpdk/$PREFIX/dpdk_telemetry.v2"
}

# migrate N FROM TO TOPORT: a guest from QEMU FROM to QEMU TO (waiting
# on TOPORT) under 100 pings a second; figures into FIG[N]
declare -A FIG
migrate() {
	local n=$1 from=$2 to=$3 tp=$4 fp lost gap replies down total move ann0 tx0 pd0 mv0
	local g=${QG[$2]} MAC IP kind
	MAC=${GMAC[$g]} IP=${GIP[$g]} kind=${GKIND[$g]}
	fp=$(fdb_port $MAC)
	pd0=$(port_ctr "$fp" drop_port_down)
	mv0=$(fdb_moved)
	[ "$(status_of "$to")" = inmigrate ] || fail "$to: not waiting for the migration"
	port_is "$tp" down || fail "$tp is up before the switch-over"
	bg "$T/watch-$n.out" "$T/watch-$n.err" watch $MAC
	local wch=$BG_PID
	wait_for 20 "the watcher" grep -q ready "$T/watch-$n.err"
	# 100 pings a second, reply times (-D) kept for the gap
	bg "$T/ping-$n.out" "$T/ping-$n.out" ip netns exec "$NS" ping -D -i 0.01 -W 1 $IP
	local png=$BG_PID
	sleep 1
	note "migration $n: guest $g, $from ($fp) -> $to ($tp), announce: $kind"
	qmp "$from" --migrate "unix:$T/mig-$to.sock" --timeout 60 --dest "$T/$to.qmp" >"$T/mig-$n.json" ||
		fail "migration $n failed: $(cat "$T/mig-$n.json")"
	wait_for 20 "the FDB to move $MAC to $tp" grep -q " fdb $tp\$" "$T/watch-$n.out"
	[ "$(status_of "$to")" = running ] || fail "$to: the guest is not running"
	[ "$(status_of "$from")" = postmigrate ] || fail "$from: not paused after the migration"
	port_is "$fp" down || fail "$fp is $(port_ctr "$fp" state) after the migration, expected down"
	# the guest answers through TOPORT
	tx0=$(port_ctr "$tp" tx_packets)
	sleep 2
	[ $(( $(port_ctr "$tp" tx_packets) - tx0 )) -ge 50 ] ||
		fail "$tp: $(( $(port_ctr "$tp" tx_packets) - tx0 )) frames to the guest in 2 s of pings"
	kill -INT "$png"
	reap_pid "$png" || true
	stop_pid "$wch"
	tail -2 "$T/ping-$n.out"
	# pings lost: icmp_seq missing between the first and last reply
	read -r lost gap replies < <(awk '/icmp_seq=/ {
		match($0, /icmp_seq=[0-9]+/); s = substr($0, RSTART + 9, RLENGTH - 9) + 0
		t = substr($1, 2, length($1) - 2) + 0
		if (!(s in seen)) { seen[s] = 1; n++ }
		if (first == "") first = s
		if (s > last) last = s
		if (pt != "" && t - pt > g) g = t - pt
		pt = t
	} END { printf "%d %d %d\n", last - first + 1 - n, g * 1000, n }' "$T/ping-$n.out")
	down=$(jq -r .downtime "$T/mig-$n.json")
	total=$(jq -r '."total-time"' "$T/mig-$n.json")
	[ "$(jq -r .t_resume "$T/mig-$n.json")" != null ] || fail "$to: no RESUME event"
	# times from the guest's resumption on the destination (QEMU's clock)
	since() { jq -r --argjson t "$1" '($t - .t_resume) * 1000 | floor' "$T/mig-$n.json"; }
	move=$(since "$(awk -v p="$tp" '$2 == "fdb" && $3 == p { print $1; exit }' "$T/watch-$n.out")")
	ann0=$(awk -v k=$kind '$2 == k { print $1; exit }' "$T/watch-$n.out")
	[ -n "$ann0" ] || fail "no $kind from $MAC reached the pinger: $(cat "$T/watch-$n.out")"
	ann0=$(since "$ann0")
	pd0=$(( $(port_ctr "$fp" drop_port_down) - pd0 ))
	FIG[$n]="guest $g $fp -> $tp: pings lost $lost ($((replies + lost)) sent, 10 ms apart; $fp dropped $pd0 as port_down), longest gap $gap ms, QEMU total $total ms downtime $down ms, first $kind at the pinger $ann0 ms and FDB on $tp $move ms after the guest resumed ($(grep -c " $kind" "$T/watch-$n.out") ${kind}s)"
	note "FIGURES $n: ${FIG[$n]}"
	[ "$replies" -gt 100 ] || fail "migration $n: only $replies replies in all"
	[ "$lost" -le "$MAXLOST" ] || fail "migration $n: $lost pings lost, more than $MAXLOST"
	[ "$(fdb_port $MAC)" = "$tp" ] || fail "FDB: $MAC on '$(fdb_port $MAC)', expected $tp"
	# moved in place: never absent (flushed, aged) on the way
	[ "$(awk '$2 == "fdb" { printf "%s ", $3 }' "$T/watch-$n.out")" = "$fp $tp " ] ||
		fail "the FDB went $(awk '$2 == "fdb" { printf "%s ", $3 }' "$T/watch-$n.out"), expected $fp then $tp"
	[ "$(fdb_moved)" -gt "$mv0" ] || fail "/vsw/fdb/stats counted no move"
}

# quit NAME PORT: the paused source QEMU quits; PORT sees nothing more
quit() {
	local rx rc=0
	rx=$(port_ctr "$2" rx_packets)
	qmp "$1" quit >/dev/null || fail "QEMU $1 did not quit"
	reap_pid "${RG[$1]}" || rc=$?
	[ "$rc" -eq 0 ] || fail "QEMU $1 exited with $rc (run-guest)"
	sleep 0.5
	[ "$(port_ctr "$2" rx_packets)" = "$rx" ] || fail "$2 received frames after its guest left"
	port_is "$2" down || fail "$2 is $(port_ctr "$2" state) with no QEMU"
}

guest b dst --server --incoming "unix:$T/mig-b.sock"
guest e dst2 --incoming "unix:$T/mig-e.sock"
migrate 1 a b dst
migrate 2 d e dst2
quit a src
quit d src2
guest c src --incoming "unix:$T/mig-c.sock"
migrate 3 b c src
ip netns exec "$NS" ping -c 3 -i 0.2 -W 1 ${GIP[1]} >/dev/null || fail "guest 1 does not answer on src"
ip netns exec "$NS" ping -c 3 -i 0.2 -W 1 ${GIP[2]} >/dev/null || fail "guest 2 does not answer on dst2"
declare -A CONNECTS=([src]=2 [dst]=1 [src2]=1 [dst2]=1)
for p in src dst src2 dst2; do
	v=$(jctl port $p) || fail "vswctl port $p failed"
	echo "$p: $(echo "$v" | jq -c '{state, connects, disconnects, rx_packets, tx_packets, drop_port_down}')"
	[ "$(echo "$v" | jq -r .connects)" = "${CONNECTS[$p]}" ] ||
		fail "$p: $(echo "$v" | jq -r .connects) connects, expected ${CONNECTS[$p]}"
	echo "$v" | jq -e '[to_entries[] | select(.key | test("^drop_|macs_limited")) |
		select(.key != "drop_port_down" and .value > 0)] | length == 0' >/dev/null ||
		fail "$p dropped frames: $(echo "$v" | jq -c 'with_entries(select(.key | test("^drop_|macs_limited")))')"
done
! grep -a "mismatches" "$T/vsw.log" || fail "librte_vhost found a used ring out of step after a migration"
sleep 1
inuse=$(info_val mbufs_in_use)
note "mbufs in use: $base before the migrations, $inuse after"
[ "$inuse" -le $((base + 64)) ] || fail "mbufs in use grew from $base to $inuse"
stop_vsw
echo "PASS: 3 live migrations: 1: ${FIG[1]}; 2: ${FIG[2]}; 3: ${FIG[3]}"
