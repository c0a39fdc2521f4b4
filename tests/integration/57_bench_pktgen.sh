#!/bin/bash
# Objective: tools/bench --gen vswgen,pktgen runs a pktgen-dpdk trial
# through vsw end to end: pktgen (both lcores on the generator's CPU)
# attaches to vsw's sockets, sends through it, the rate is read from
# pktgen's port counters and from vsw's, one "pktgen" trial lands in
# trials.jsonl, the report pairs it with vswgen's, and nothing of pktgen
# is left behind. Functional only: no rate is asserted beyond "> 0".
# Needs a pktgen binary (tools/build-pktgen): PKTGEN, pktgen on PATH or
# /opt/pktgen/bin/pktgen; skipped without one.
. "$(dirname "$0")/lib.sh"

PG=${PKTGEN:-$(command -v pktgen || echo /opt/pktgen/bin/pktgen)}
[ -x "$PG" ] || skip "no pktgen binary ($PG): build one with tools/build-pktgen"

R=$T/bench
mine() { ls /var/run/dpdk 2>/dev/null | grep "^benchpktgen" | sort; }
before=$(mine)
PKTGEN_WARM=1 PKTGEN_SPARE=1 "$VSW_SRC/tools/bench" --main --gen vswgen,pktgen --pktgen "$PG" \
	--duts vsw --scenarios v2v --sizes 64 --rounds 1 --duration 1 --no-huge \
	--bin "$VSW_BIN" --out "$R" >"$T/bench.log" 2>&1 || fail "tools/bench: $(tail -20 "$T/bench.log")"
cp "$R"/log/p1-*.pktgen.log "$T/pktgen.log" 2>/dev/null
t=$(jq -c 'select(.block == "pktgen")' "$R/trials.jsonl")
[ -n "$t" ] || fail "no pktgen trial in trials.jsonl"
jq -e '.status == "ok" and .generator == "pktgen" and .dut == "vsw"' <<<"$t" >/dev/null ||
	fail "pktgen trial: $t"
jq -e '.rx_mpps > 0 and .tx_mpps > 0 and .dut_fwd_mpps > 0 and .window_s > 0.5' <<<"$t" >/dev/null ||
	fail "pktgen trial rates: $t"
jq -e '.dut_cycles_per_packet > 0' <<<"$t" >/dev/null || fail "no vsw cycles/packet: $t"
grep -q "^| v2v | 64 | vsw | [0-9.]* | [0-9.]* | " "$R/results.md" || fail "no generator row in results.md"
[ "$(jq '.generators | length' "$R/results.json")" = 1 ] || fail "results.json generators"
# paired with the vswgen trial of the same case (its record as before)
jq -e '.generators[0].ratio > 0' "$R/results.json" >/dev/null ||
	fail "no pktgen/vswgen ratio: $(jq -c .generators "$R/results.json")"
m=$(jq -c 'select(.block == "main")' "$R/trials.jsonl")
jq -e '.status == "ok" and .dut_cycles_per_packet > 0 and .disturbance.gen_cpu_pct != null' \
	<<<"$m" >/dev/null || fail "vswgen trial: $m"
# pktgen quit by itself (its command file ends in quit) and left nothing
grep -q "pktgen did not" "$T/bench.log" && fail "pktgen did not start or quit: $(grep 'pktgen did not' "$T/bench.log")"
left=$(comm -13 <(echo "$before") <(mine))
[ -z "$left" ] || fail "runtime dirs left: $left"
echo PASS
