#!/bin/bash
# Objective: a guest flooding source MACs cannot make vsw flood other
# guests' unicast to it (review H3). A's guest cycles 70000 source MACs
# into a 4096-entry table. B and C were learned before; D arrives while
# the table is full. B<->D unicast must be learned at once (a new MAC
# evicts an entry of the port holding the most) and never reach A, and
# the flood must not push B or C out. Then max-macs = 100 on A, set live:
# A keeps at most 100 entries, the rest is counted (macs_limited), and
# newcomer E talks to C without A hearing it.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b c d e)
start_vsw "$CFG"
[ "$(jctl fdb-stats | jq .size)" -eq 4096 ] || fail "expected fdb-size 4096"
B=$(mac_of 81); C=$(mac_of 82); D=$(mac_of 83); E=$(mac_of 84)
in_fdb() { jctl fdb | jq -e --arg m "$1" '.entries[] | select(.mac == $m)' >/dev/null; }

for g in "b $B" "c $C"; do
	set -- $g
	start_guest "$1" "$(virtio "$RUN/$1.sock")" -- --src-mac "$2" --announce 3 --rx-only --duration 1
	wait_guest "$1"; rm -rf "/var/run/dpdk/${PREFIX}g$1"
	in_fdb "$2" || fail "$1's MAC not learned"
done

note "A floods 70000 source MACs"
start_guest a "$(virtio "$RUN/a.sock")" -- --src-mac 02:aa:00:00:00:00 --macs 70000 \
	--dst-mac 02:00:00:00:ff:ff --rate 100000 --duration 60 --rx-port none
wait_for 60 "the table to fill" sh -c "[ \"\$($VSWCTL --file-prefix $PREFIX --json fdb-stats | jq .entries)\" -ge 4000 ]"
sleep 2

# PEER talks to NEW, NEW to PEER, 3000 frames each; A must hear nothing
# of it but the announcements.
exchange() { # NEW NEW-MAC PEER PEER-MAC
	local a0 p_fl0 n_fl0 got
	start_guest "$1" "$(virtio "$RUN/$1.sock")" -- --src-mac "$2" --dst-mac "$4" \
		--announce 3 --count 3000 --rate 1000 --duration 15 --rx-port none
	wait_for 30 "$1's MAC learned in a full table" in_fdb "$2"
	a0=$(port_ctr a tx_packets); p_fl0=$(port_ctr "$3" flooded)
	start_guest "$3" "$(virtio "$RUN/$3.sock")" -- --src-mac "$4" --dst-mac "$2" \
		--announce 3 --count 3000 --rate 1000 --duration 15 --rx-port none
	wait_guest "$1"; wait_guest "$3"
	rm -rf "/var/run/dpdk/${PREFIX}g$1" "/var/run/dpdk/${PREFIX}g$3"
	got=$(( $(port_ctr a tx_packets) - a0 ))
	note "A received $got frames while $1 and $3 exchanged unicast; $3 flooded $(( $(port_ctr "$3" flooded) - p_fl0 ))"
	[ "$got" -le 3 ] || fail "A received $got frames: unicast between $1 and $3 reached it"
	[ $(( $(port_ctr "$3" flooded) - p_fl0 )) -le 3 ] || fail "$3's unicast to $1 was flooded"
	[ "$(port_ctr "$1" flooded)" -le 3 ] || fail "$1's unicast to $3 was flooded"
}
exchange d "$D" b "$B"
in_fdb "$C" || fail "the flood pushed C's MAC out"
jctl fdb-stats | jq -c '{entries, learned, refused, limited, evicted, trimmed}'
[ "$(jctl fdb-stats | jq .evicted)" -gt 0 ] || fail "no fair eviction counted"

note "max-macs = 100 on A, live"
ctl port-set a max-macs=100 >/dev/null 2>&1 || ctl raw "/vsw/port/set,a,max-macs=100" >/dev/null ||
	fail "port-set a max-macs=100 failed"
wait_for 10 "A at or under 100 entries" sh -c "[ \"\$($VSWCTL --file-prefix $PREFIX --json port a | jq .fdb_entries)\" -le 100 ]"
l0=$(port_ctr a macs_limited); sleep 1
[ "$(port_ctr a macs_limited)" -gt "$l0" ] || fail "A's new MACs are not counted as limited"
jctl port a | jq -c '{max_macs, fdb_entries, macs_limited}'
exchange e "$E" c "$C"
kill -TERM "${GUEST_PID[a]}"; wait "${GUEST_PID[a]}" 2>/dev/null
stop_vsw
echo "PASS: a MAC flood evicts only the flooder's entries and hears no one else's unicast"
