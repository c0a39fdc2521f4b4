#!/bin/bash
# Seed 1 (TX flush), request/response: vswgen --rr N through vsw against a
# vswgen --reflect whose receive is busy-polled or interrupt driven
# (--rx-mode interrupt: woken by vsw's calls), at tx-flush-interval-us
# 0 (flush at the end of every polling iteration: the bottom half) and
# 50 / 150 / 500 (the timer). The requester is interrupt driven (it
# sleeps while it waits, like netperf TCP_RR in a kernel guest).
# vsw's worker on CPU 1, both guests on CPU 0 (tests/integration/lib.sh).
# Prints one line per trial: flush_us refl_mode window tps p50_us p99_us
# p999_us timeouts refl_cpu_pct calls_per_resp.
# Not yet part of tools/bench-notify (issue 12, item 3).
#   VSW_BIN=build/bin bash tools/bench-notify.d/rr_flush.sh
. "$(cd "$(dirname "$0")/../.." && pwd)/tests/integration/lib.sh"
CFG=$(vhost_config a b)
start_vsw "$CFG"
q() { jctl raw "/vsw/queues,$1" | jq -r ".[].q0.$2"; }
echo "flush_us refl_mode window tps p50_us p99_us p999_us timeouts refl_cpu_pct calls_per_resp"
for fi in 0 50 150 500; do
	ctl raw "/vsw/set,tx-flush-interval-us,$fi" >/dev/null
	for rm in poll interrupt; do
		for w in 1 8; do
			ctl raw /vsw/stats/clear >/dev/null
			start_guest refl "$(virtio "$RUN/b.sock")" -- --reflect \
				--rx-mode $rm --poll-sleep-us 0 --announce 3 --duration 8
			wait_for 30 "b up" port_is b up
			start_guest req "$(virtio "$RUN/a.sock")" -- --rr $w \
				--rx-mode interrupt --announce 3 --duration 4
			wait_guest req
			wait_guest refl
			jq -r --arg fi $fi --arg rm $rm --arg w $w \
				--arg c "$(q b calls)" --arg r "$(guest_val refl reflected)" \
				--arg cpu "$(guest_val refl cpu_pct)" '"\($fi) \($rm) \($w) \(.rr_tps | floor) \(.latency_ns.p50 / 1000) \(.latency_ns.p99 / 1000) \(.latency_ns.p999 / 1000) \(.rr_timeouts) \($cpu) \(if ($r | tonumber) > 0 then (($c | tonumber) / ($r | tonumber) * 1000 | floor) / 1000 else 0 end)"' "$T/req.json"
		done
	done
done
stop_vsw
