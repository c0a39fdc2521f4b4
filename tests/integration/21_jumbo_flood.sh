#!/bin/bash
# Objective: jumbo frames flooded as chained mbufs reach every guest intact,
# and a guest that cannot take them loses nothing else (review C1, M3).
# Guest A broadcasts 4000-byte, then 9000-byte frames (several mbufs each
# in vsw) with vswgen's payload pattern; B (mergeable rx buffers), C (no
# mergeable buffers, 10 KiB buffers) must each receive every one with
# every byte right (vswgen --verify). E has no mergeable buffers and
# 2 KiB buffers, so it can take no jumbo frame: vsw drops those copies
# alone (too_big on E) while F's 64-byte frames to E, interleaved with
# them in the same batches, all arrive. Ports have mtu 9000; a frame
# above mtu + 18 is dropped at ingress (oversize). Every mbuf comes back.
. "$(dirname "$0")/lib.sh"

CFG=$(vhost_config a b c e f)
sed -i 's/^type = vhost-user$/type = vhost-user\nmtu = 9000/' "$CFG"
sed -i 's/^mbufs = 8191$/mbufs = 32767/' "$CFG"
start_vsw "$CFG"
A=$(mac_of 40); B=$(mac_of 41); C=$(mac_of 42); E=$(mac_of 44); F=$(mac_of 45)
base=$(info_val mbufs_in_use)

rx_guest() { # NAME MAC EXTRA-DEVARGS VSWGEN-ARGS...
	local n=$1 mac=$2 dev=$3; shift 3
	start_guest "$n" "$(virtio "$RUN/$n.sock" "$dev")" -- --src-mac "$mac" \
		--announce 3 --rx-only --verify --duration 20 "$@"
}
rx_guest b "$B" ""
rx_guest c "$C" "mrg_rxbuf=0" --mbuf-size 10240
rx_guest e "$E" "mrg_rxbuf=0"
for p in b c e; do wait_for 60 "$p up" port_is "$p" up; done
wait_for 30 "e learned" sh -c "$VSWCTL --file-prefix $PREFIX --json fdb | jq -e '.entries[] | select(.mac == \"$E\")' >/dev/null"

# (the guests' own announcements may find the others' rings still empty)
full0=$(( $(port_ctr b drop_tx_full) + $(port_ctr c drop_tx_full) ))
for size in 4000 9000; do
	e_big0=$(port_ctr e drop_too_big)
	note "A broadcasts 1000 frames of $size bytes; F sends 2000 of 64 bytes to E"
	start_guest a "$(virtio "$RUN/a.sock")" -- --src-mac "$A" --dst-mac ff:ff:ff:ff:ff:ff \
		--size "$size" --verify --count 1000 --rate 1000 --duration 20 --rx-port none
	start_guest f "$(virtio "$RUN/f.sock")" -- --src-mac "$F" --dst-mac "$E" \
		--verify --count 2000 --rate 2000 --duration 20 --rx-port none
	wait_guest a
	wait_guest f
	rm -rf "/var/run/dpdk/${PREFIX}ga" "/var/run/dpdk/${PREFIX}gf"
	sleep 1
	jctl port e | jq -c '{tx_packets, drop_too_big, drop_tx_full}'
	[ $(( $(port_ctr e drop_too_big) - e_big0 )) -eq 1000 ] ||
		fail "E: $(( $(port_ctr e drop_too_big) - e_big0 )) too_big drops for 1000 jumbo frames"
	[ "$(port_ctr a drop_oversize)" -eq 0 ] || fail "a: oversize drops at mtu 9000"
done
# every frame is in their rings by now (1 s after the last sender): end
# the receivers' trials instead of sleeping out their --duration
for p in b c e; do finish_guest "$p"; done
for p in b c e; do
	jq -c '{rx_packets, verified, payload_errors, len_errors, rx_segs_max}' "$T/$p.json"
	[ "$(guest_val "$p" payload_errors)" -eq 0 ] || fail "$p: payload errors"
	[ "$(guest_val "$p" len_errors)" -eq 0 ] || fail "$p: length errors"
done
[ "$(guest_val b verified)" -eq 2000 ] || fail "b verified $(guest_val b verified) of 2000 jumbo frames"
[ "$(guest_val c verified)" -eq 2000 ] || fail "c verified $(guest_val c verified) of 2000 jumbo frames"
[ "$(guest_val e verified)" -eq 4000 ] || fail "e verified $(guest_val e verified) of F's 4000 small frames"
[ "$(guest_val b rx_segs_max)" -gt 1 ] || fail "b: no chained frame seen (mergeable buffers)"
[ $(( $(port_ctr b drop_tx_full) + $(port_ctr c drop_tx_full) )) -eq "$full0" ] ||
	fail "b, c: tx_full drops during the jumbo floods"
sleep 1
used=$(info_val mbufs_in_use)
note "mbufs in use: $used (before: $base)"
[ "$used" -eq "$base" ] || fail "mbufs in use $used, $base before"
stop_vsw
echo "PASS: jumbo floods intact on every guest that can take them; E lost only the jumbo copies"
