#!/bin/bash
# Objective: tools/bench's TCP block with Linux guests (--tcp-scens qemu):
# two QEMU/TCG guests of tools/vm run iperf3 through vsw with offloads on
# and off; each trial records iperf3's receiver Gbit/s, the report gives
# the on/off ratio and judges the goal row (relative figures: never
# judged here, only that there is a figure). The sending guest of
# vsw-tso hands vsw TSO frames (vm0's offload_rx, kept in the bench's
# log), that of vsw-off none. A bad --tcp-qemu-secs or --tcp-qemu-ring
# (and run-guest --ring) is refused.
. "$(dirname "$0")/lib.sh"
PREFIX=vbq$ID
PREFIXES=("$PREFIX")
. "$(dirname "$0")/lib_vm.sh"
command -v iperf3 >/dev/null || skip "iperf3 is not installed (tools/deps)"
BENCH=$VSW_SRC/tools/bench

out=$("$BENCH" --tcp --tcp-scens qemu --tcp-qemu-secs 0 2>&1) && fail "--tcp-qemu-secs 0 accepted"
grep -q "tcp-qemu-secs: seconds of 1..300" <<<"$out" || fail "unexpected message: $out"
out=$("$BENCH" --tcp --tcp-scens qemu --tcp-qemu-ring 300 2>&1) && fail "--tcp-qemu-ring 300 accepted"
grep -q "tcp-qemu-ring: descriptors per guest ring, 256, 512 or 1024, not '300'" <<<"$out" ||
	fail "unexpected message: $out"
out=$("$VM/run-guest" --sock "$T/x.sock" --mac 52:54:00:00:00:09 --log "$T/x.log" --ring 2048 2>&1) &&
	fail "run-guest --ring 2048 accepted"
grep -q "run-guest: --ring 2048: expected descriptors per ring, 256, 512 or 1024" <<<"$out" ||
	fail "unexpected message: $out"

R=$T/bench
"$BENCH" --tcp --tcp-scens qemu --tcp-cfgs vsw-tso,vsw-off --tcp-qemu-secs 3 --rounds 1 \
	--bin "$VSW_BIN" --out "$R" >"$T/bench.log" 2>&1 || fail "tools/bench failed: $(tail -5 "$T/bench.log")"
grep "Gbit/s of TCP\|failed" "$T/bench.log"
for c in vsw-tso vsw-off; do
	g=$(jq -r --arg c "$c" 'select(.block == "tcp" and .scenario == "qemu" and .dut == $c and .status == "ok")
		| .gen.tcp.gbps' "$R/trials.jsonl")
	[ -n "$g" ] && jq -en "$g > 0" >/dev/null || fail "$c: no figure ($(grep "$c" "$T/bench.log"))"
	note "$c: $g Gbit/s"
done
grep -q "^| QEMU/TCG Linux guests, iperf3 (relative only) | vsw-tso / vsw-off | " "$R/results.md" ||
	fail "no on/off ratio row in results.md"
grep -q "^| TCP Linux guests (QEMU/TCG, relative): vsw offloads on >= 5x off | \*\*\(met\|missed\)\*\* " "$R/results.md" ||
	fail "the on/off goal was not judged"
on=$(ls "$R"/log/*-vsw-tso-qemu-r1.vm0.json) off=$(ls "$R"/log/*-vsw-off-qemu-r1.vm0.json)
jq -c '.[] | {offloads, offload_rx, rx_packets, rx_bytes}' "$on" "$off"
jq -e '.[] | .offloads == "on" and .offload_rx > 0' "$on" >/dev/null ||
	fail "vsw-tso: the guest sent no TSO frame"
jq -e '.[] | .offloads == "off" and .offload_rx == 0 and .rx_packets > 1000' "$off" >/dev/null ||
	fail "vsw-off: offloaded frames, or no stream"
echo "PASS: tools/bench --tcp-scens qemu measures Linux guests with offloads on and off"
