#!/bin/bash
# Where vsw's forwarding thread spends its cycles: v2v 64 B at the
# generator's full rate (vswgen --lean, CPU 0), perf record of the worker
# thread (CPU 1) for SECS seconds, the top symbols printed. With MACS > 1
# the generator cycles over that many source MACs (the FDB's worst case).
#   VSW_BIN=build/bin bash tools/bench.d/profile-worker.sh [SECS] [MACS]
# PROFILE_GEN: the generator's traffic options instead of --lean, e.g.
# PROFILE_GEN="--tcp 1460 --size 64294 --mbuf-size 16512" (a TSO stream).
# Needs perf (linux-perf) and root. The report is kept in $OUT (default
# /tmp/vsw-profile): perf.data, report.txt.
. "$(cd "$(dirname "$0")/../.." && pwd)/tools/lib/harness.sh"
secs=${1:-5} macs=${2:-1}
OUT=${OUT:-/tmp/vsw-profile}
command -v perf >/dev/null || skip "no perf (apt-get install linux-perf)"
mkdir -p "$OUT"
CFG=$(vhost_config a b)
sed -i "s/^fdb-size = .*/fdb-size = $((macs * 2 > 4096 ? macs * 2 : 4096))/" "$CFG"
start_vsw "$CFG"
wtid=$(pin_threads "$VSW_PID" '^rte-worker-' 1 0)
wtid=${wtid##* }
[ -n "$wtid" ] || fail "no rte-worker thread in vsw"
extra=()
[ "$macs" -gt 1 ] && extra=(--macs "$macs" --announce "$macs")
# shellcheck disable=SC2086
start_v2v prof ${PROFILE_GEN:---lean} --duration $((secs + 4)) "${extra[@]}"
sleep 2
perf record -q -t "$wtid" -o "$OUT/perf.data" -- sleep "$secs" >/dev/null 2>&1 ||
	fail "perf record failed"
reap_pid "$GEN" || fail "generator: $(tail -3 "$T/prof.log")"
note "generator: $(jq -c '{offered_mpps, rx_mpps, loss_pct, tcp}' "$T/prof.json")"
perf report -i "$OUT/perf.data" --stdio --no-children --percent-limit 1 \
	--sort symbol 2>/dev/null | grep -v '^#' | grep -v '^$' >"$OUT/report.txt"
head -25 "$OUT/report.txt"
stop_vsw
