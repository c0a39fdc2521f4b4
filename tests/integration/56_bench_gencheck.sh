#!/bin/bash
# Objective: tools/bench's generator cross-check (--gen, --pktgen,
# tools/bench.d/gencheck.py via report.py). Bad --gen values and a missing
# pktgen binary are refused with a message before anything starts; the
# report pairs each pktgen trial with the vswgen trial of the same case
# and round and calls a ratio within 5 % agreement, one outside not.
# trial.py turns vswgen's frames per second into the best second and the
# share of slow seconds, and report.py shows each round's against the
# best second of the case.
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

# trial.py: vswgen's frames per second make the trial's best second and
# the share of its seconds under 70 % of it (3 of 10 in round 1); a round
# slow throughout (3) has none under its own best, so report.py measures
# each round's seconds against the best of every round of the case:
# 30 / 0 / 100 in the main table
S=$T/slow
mkdir -p "$S"
cp "$R/machine.json" "$S/"
gen() { # FILE SECONDS...: a vswgen --json result with those seconds
	local f=$1 secs
	shift
	secs=$(IFS=,; echo "$*")
	echo "{\"tx_packets\": 100, \"tx_dropped\": 0, \"tx_ring_full\": 0, \"rx_mpps\": 13.6, \"rx_gbps\": 9, \"loss_pct\": 0, \"offered_mpps\": 30, \"tx_mpps\": 13.6, \"latency_ns\": null, \"rx_mpps_by_s\": [$secs]}" >"$f"
}
gen "$S/g1.json" 16 16.2 8 7.9 8.1 16 15.8 16.1 16 16
gen "$S/g2.json" 16 16.2 15.9 16 16.1 16 15.8 16.1 16 16
gen "$S/g3.json" 8 8.1 7.9 8 8.1 8 7.8 8.1 8 8
for r in 1 2 3; do
	python3 "$VSW_SRC/tools/bench.d/trial.py" "$S/trials.jsonl" main vsw v2v 64 $r 1 50 \
		"$S/g$r.json" "$S/none" "" "" 160 1 >"$S/trial$r.log" 2>&1 ||
		fail "trial.py: $(cat "$S/trial$r.log")"
done
grep -q "best second 16.20 Mpps, 30% of seconds under 70% of it" "$S/trial1.log" || fail "trial.py round 1: $(cat "$S/trial1.log")"
grep -q "best second 16.20 Mpps, 0% of seconds under 70% of it" "$S/trial2.log" || fail "trial.py round 2: $(cat "$S/trial2.log")"
grep -q "best second 8.10 Mpps, 0% of seconds under 70% of it" "$S/trial3.log" || fail "trial.py round 3: $(cat "$S/trial3.log")"
[ "$(jq -s '.[0].slow_s_pct' "$S/trials.jsonl")" = 30 ] || fail "trials.jsonl: slow_s_pct $(jq -s '.[0].slow_s_pct' "$S/trials.jsonl")"
python3 "$VSW_SRC/tools/bench.d/report.py" "$S" >"$T/report2.log" 2>&1 || fail "report.py: $(cat "$T/report2.log")"
grep "^| v2v | 64 | vsw | " "$S/results.md" | grep -q "| 30 / 0 / 100 |$" ||
	fail "main table: $(grep "^| v2v | 64 | vsw | " "$S/results.md")"
echo PASS
