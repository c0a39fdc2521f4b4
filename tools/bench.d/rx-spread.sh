#!/bin/bash
# What spreading a guest's received flows over its rx queues costs the
# switch (docs/configuration.md, "vhost-user queues"): vswgen (CPU 0)
# sends 64-byte frames of FLOWS flows (--macs: a vswgen flow is a pair of
# MACs), RATE packets/s (0: as fast as it can), from virtio-user port a
# (one queue pair) to port b (QUEUES pairs, all polled: --rx-queues)
# through vsw on one worker (CPU 1).  The receiver polls b's queues on
# one lcore, so at full speed more queues cost it (and, through its full
# rings, vsw's retries) too: a RATE under both sides' capacity gives vsw's
# own cost per packet.
# With QUEUES > 1 the worker hashes every frame to one of b's queues;
# with 1 it does not.  Each round runs every build given (alternating):
# the receiver's Mpps, vsw's worker busy % and busy cycles per packet,
# and what vsw enqueued on each of b's pairs.  A build given as DIR:off
# runs with guest-rx-spread = off (a build without that key: DIR alone).
#   tools/bench.d/rx-spread.sh ROUNDS SECS QUEUES FLOWS RATE BIN_DIR[:off]...
# Needs root; --no-huge (memfd) for both processes.
. "$(cd "$(dirname "$0")/../.." && pwd)/tools/lib/harness.sh"
rounds=${1:-} secs=${2:-} queues=${3:-} flows=${4:-} rate=${5:-}
shift 5 2>/dev/null || set --
[[ $rounds =~ ^[1-9][0-9]*$ && $secs =~ ^[1-9][0-9]*$ && $queues =~ ^([1-9]|1[0-6])$ &&
	$flows =~ ^[1-9][0-9]*$ && $rate =~ ^[0-9]+$ && $# -gt 0 ]] ||
	{ echo "usage: rx-spread.sh ROUNDS SECS QUEUES(1-16) FLOWS RATE(pps, 0: max) BIN_DIR..." >&2; exit 2; }
for b in "${@%:off}"; do
	[ -x "$b/vsw" ] && [ -x "$b/vswctl" ] && [ -x "$b/vswgen" ] ||
		{ echo "rx-spread.sh: $b has no vsw, vswctl and vswgen" >&2; exit 2; }
done

trial() { # BIN[:off] ROUND TAG
	local bin=${1%:off} cfg=$T/vsw.conf spread=''
	[ "$1" = "$bin" ] || spread='guest-rx-spread = off\n'
	rm -f "$RUN/a.sock" "$RUN/b.sock" "$RUN/vsw.state"
	printf '[switch]\nrun-dir = %s\n%b[port a]\ntype = vhost-user\n[port b]\ntype = vhost-user\n' \
		"$RUN" "$spread" >"$cfg"
	vsw_bins "$bin"
	# shellcheck disable=SC2046
	vsw_launch "$PREFIX" "$T/vsw.log" $(eal_mem 0 1024) --lcores 0@0,1@1 -- -c "$cfg"
	vsw_wait_up 60 || fail "vsw did not come up: $(tail -3 "$T/vsw.log")"
	# shellcheck disable=SC2046
	dpdk_bg "${PREFIX}g$3" "$T/gen.json" "$T/gen.log" taskset -c 0 "$VSWGEN" -l 0 \
		--file-prefix "${PREFIX}g$3" $(eal_mem 0 1024) --single-file-segments --no-pci \
		--vdev "net_virtio_user0,path=$RUN/a.sock,queue_size=1024" \
		--vdev "net_virtio_user1,path=$RUN/b.sock,queues=$queues,queue_size=1024" -- \
		--tx-port 0 --rx-port 1 --rx-queues "$queues" --macs "$flows" --rate "$rate" --lean \
		--json --quiet --link-wait 30 --duration "$secs" --announce 8
	reap_pid "$BG_PID" || fail "generator: $(tail -3 "$T/gen.log")"
	jctl port a >"$T/a.json"
	jctl workers >"$T/w.json"
	jctl raw /vsw/queues,b >"$T/q.json"
	stop_vsw
	python3 - "$2" "$1" "$T/gen.json" "$T/a.json" "$T/w.json" "$T/q.json" <<-'EOF'
	import json, sys
	r, b, g, a, w, q = sys.argv[1:]
	g = json.load(open(g)); a = json.load(open(a)); w = json.load(open(w))["worker0"]
	q = list(json.load(open(q)).values())[0]
	enq = [q[k]["enqueued"] for k in sorted((k for k in q if k[0] == "q" and k[1:].isdigit()), key=lambda k: int(k[1:]))]
	print(f"round {r} {b}: rx {g['rx_mpps']:.2f} Mpps, vsw busy {w['busy_pct']} %, "
	      f"{w['busy_cycles'] / max(a['rx_packets'], 1):.1f} cycles/packet; b enqueued {enq}")
	EOF
}
n=0
for r in $(seq "$rounds"); do
	for b in "$@"; do
		n=$((n + 1))
		trial "$b" "$r" "$n"
	done
done
