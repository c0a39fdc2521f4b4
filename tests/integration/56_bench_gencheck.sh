#!/bin/bash
# Objective: tools/bench's generator cross-check (--gen, --pktgen,
# tools/bench.d/gencheck.py via report.py). Bad --gen values and a missing
# pktgen binary are refused with a message before anything starts; the
# report pairs each pktgen trial with the vswgen trial of the same case
# and round and calls a ratio within 5 % agreement, one outside not.
# No DPDK process runs: the trials are made up.
. "$(dirname "$0")/lib.sh"

BENCH=$VSW_SRC/tools/bench
out=$("$BENCH" --gen vswgen,trex 2>&1) && fail "--gen trex accepted"
grep -q "expected a list of vswgen and pktgen, not 'trex'" <<<"$out" || fail "--gen trex: $out"
out=$("$BENCH" --gen pktgen --pktgen "$T/none" 2>&1) && fail "missing pktgen accepted"
grep -q "no pktgen binary at $T/none" <<<"$out" || fail "--pktgen missing: $out"

R=$T/results
mkdir -p "$R"
cat >"$R/machine.json" <<'J'
{"date": "2026-01-01T00:00:00Z", "cpu_model": "test", "cpus_online": "0-1",
 "gen_cpu": 0, "dut_cpu": 1, "dpdk": "22.11", "ovs": "none", "qemu": "none",
 "hugepages": "no", "duration_s": 1, "rounds": 2, "vsw_commit": "x",
 "virtio_devargs": "queue_size=1024"}
J
# vswgen: vsw 10.0 and 10.4 Mpps, testpmd 12.0; pktgen: vsw 10.3 and 10.6
# (ratios 1.03, 1.019: agree), testpmd 13.2 (1.10: does not)
main() { # DUT ROUND MPPS
	echo "{\"block\": \"main\", \"dut\": \"$1\", \"scenario\": \"v2v\", \"size\": 64, \"round\": $2, \"macs\": 1, \"status\": \"ok\", \"rx_mpps\": $3, \"dut_cycles_per_packet\": 100}"
}
pk() { # DUT ROUND MPPS
	echo "{\"block\": \"pktgen\", \"generator\": \"pktgen\", \"dut\": \"$1\", \"scenario\": \"v2v\", \"size\": 64, \"round\": $2, \"macs\": 1, \"status\": \"ok\", \"rx_mpps\": $3, \"tx_mpps\": $3, \"dut_fwd_mpps\": $3, \"dut_cycles_per_packet\": 100}"
}
{
	main vsw 1 10.0; pk vsw 1 10.3; main testpmd-io 1 12.0; pk testpmd-io 1 13.2
	main vsw 2 10.4; pk vsw 2 10.6
} >"$R/trials.jsonl"
python3 "$VSW_SRC/tools/bench.d/report.py" "$R" >"$T/report.log" 2>&1 || fail "report.py: $(cat "$T/report.log")"
row() { grep "^| v2v | 64 | $1 | " "$R/results.md" | grep -F "$2"; }
row vsw "| 10.20 | 10.45 |" | grep -q "| 1.030 / 1.019 | 1.025 | yes |" ||
	fail "vsw row: $(row vsw "| 10.20 | 10.45 |")"
row testpmd-io "| 12.00 | 13.20 |" | grep -q "| 1.100 | 1.100 | no |" ||
	fail "testpmd row: $(row testpmd-io "| 12.00 | 13.20 |")"
# the vswgen tables are not mixed with pktgen's trials
grep -q "^| v2v | 64 | vsw | 10.20 | " "$R/results.md" || fail "vsw's vswgen median is not 10.20"
[ "$(jq '.generators | length' "$R/results.json")" = 2 ] || fail "results.json generators"
[ "$(jq '[.generators[] | select(.dut == "vsw")][0].agree' "$R/results.json")" = true ] ||
	fail "results.json: vsw does not agree"
tail -1 "$T/report.log" | grep -q "^v2v64 vsw/ovs-normal=" || fail "the headline is not the last line"
echo PASS
