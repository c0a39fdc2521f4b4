#!/bin/bash
# Objective: interrupt-less queues with virtio-PMD guests. Under traffic
# the guest's kicks stay at 0 (vsw suppresses them on every ring it
# polls, also after the guest reconnects), vsw sends no interrupt to a
# guest that polls, /vsw/queues says why, and turning suppression off
# (kick-suppression = off, for measuring) makes the kicks appear.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b)
start_vsw "$CFG"
q() { jctl raw "/vsw/queues,$1" | jq -r ".[].q0.$2"; }
gen() {
	local gp=${PREFIX}g$1; shift
	PREFIXES+=("$gp")
	# shellcheck disable=SC2046
	"$VSWGEN" -l 0 --file-prefix "$gp" $(mem_args 512) --single-file-segments --no-pci \
		--vdev "$(virtio "$RUN/a.sock")" --vdev "net_virtio_user1,path=$RUN/b.sock,queue_size=1024" -- \
		--tx-port 0 --rx-port 1 --announce 3 --json --quiet "$@" >"$T/gen.json" 2>"$T/gen.log" ||
		fail "generator: $(tail -3 "$T/gen.log")"
}
check_guest_view() { # while the generator is attached
	wait_for 60 "a up" port_is a up
	wait_for 30 "traffic" ctr_at_least b tx_packets 20000
	[ "$(q b guest_wants)" = poll ] || fail "b: guest_wants $(q b guest_wants), expected poll"
	[ "$(q a kicks_suppressed)" = 1 ] || fail "a: kicks not suppressed"
}

for round in 1 2; do # the second round is a reconnect
	ctl raw /vsw/stats/clear >/dev/null
	gen "r$round" --rate 50000 --duration 6 &
	GEN=$!; PIDS+=("$GEN")
	check_guest_view
	wait "$GEN" || fail "generator failed"
	pk=$(q a rx_packets); kicks=$(q a kicks); calls=$(q b calls); enq=$(q b enqueued)
	note "round $round: $pk packets from a, $kicks kicks; $enq packets to b, $calls calls"
	[ "$pk" -gt 100000 ] || fail "too little traffic ($pk)"
	[ "$kicks" -le 2 ] || fail "the guest kicked $kicks times with suppression on"
	[ "$calls" -eq 0 ] || fail "vsw sent $calls interrupts to a polling guest"
	[ "$(jq .lost "$T/gen.json")" -eq 0 ] || fail "lost frames"
done

ctl raw /vsw/set,kick-suppression,off >/dev/null || fail "set kick-suppression off"
ctl raw /vsw/stats/clear >/dev/null
gen off --rate 50000 --duration 4
kicks=$(q a kicks); pk=$(q a rx_packets)
note "suppression off: $kicks kicks for $pk packets"
[ "$kicks" -gt 100 ] || fail "with suppression off the guest should kick ($kicks)"
stop_vsw
echo "PASS: no kicks and no calls for virtio-PMD guests"
