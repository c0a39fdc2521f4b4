#!/bin/bash
# Objective: every vswctl verb against a real vsw: exit 0 on good calls,
# 1 on errors vsw reports (unknown port, duplicate port, bad set value),
# 2 on usage errors (unknown verb, missing args, bad MAC, non-integer
# queue, a set KEY that is not a runtime [switch] key); --json output of each read verb parses; metrics is valid
# Prometheus text; watch prints one block per refresh; port-add/port-del
# and fdb-add/fdb-del show in ports and fdb; 20 clients at once all work.
. "$(dirname "$0")/lib.sh"

start_vsw "$(vhost_config vm0 vm1)"

# expect RC CMD...: run vswctl with args, check its exit status.
expect() {
	local want=$1 rc=0; shift
	ctl "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq "$want" ] || fail "vswctl $*: exit $rc, expected $want: $(cat "$T/out" "$T/err")"
}

note "read verbs: exit 0, --json parses"
for v in info ports "port vm0" fdb "fdb --port vm0" workers "queues vm0" \
	fdb-stats metrics; do
	# shellcheck disable=SC2086
	expect 0 $v
	# shellcheck disable=SC2086
	jctl $v | jq -e . >/dev/null || fail "vswctl --json $v: not JSON"
done
jctl workers | jq -e '.worker0.lcore == 1' >/dev/null || fail "workers: $(jctl workers)"
ctl workers | grep -q '^WORKER  LCORE  BUSY%' || fail "workers table: $(ctl workers)"
ctl workers | grep -Eq '^0 +vm0 +0 +[0-9]+%$' || fail "workers rx queues: $(ctl workers)"
ctl queues vm0 | grep -q '^q0: no guest connected$' || fail "queues: $(ctl queues vm0)"
ctl fdb-stats | grep -Eq '^size: +4096$' || fail "fdb-stats: $(ctl fdb-stats)"

note "metrics: names and format"
ctl metrics >"$T/metrics" || fail "metrics failed"
for m in 'vsw_info{version="[^"]*"} 1' 'vsw_port_rx_packets_total{port="vm0"} ' \
	'vsw_port_drops_total{port="vm1",reason="tx_full"} ' 'vsw_port_up{port="vm0"} 0' \
	'vsw_worker_busy_cycles_total{worker="0",lcore="1"} ' 'vsw_fdb_entries ' \
	'vsw_fdb_learned_total ' 'vsw_mbufs_in_use ' \
	'vsw_queue_calls_total{port="vm0",queue="0"} ' 'vsw_queue_kicks_total{port="vm1",queue="0"} ' \
	'# TYPE vsw_port_rx_packets_total counter' '# TYPE vsw_fdb_entries gauge'; do
	grep -q "^$m" "$T/metrics" || fail "metrics: no line '$m'"
done
bad=$(grep -v '^#' "$T/metrics" | grep -Ev '^[a-z_]+(\{[^}]*\})? [0-9.e+-]+$' || true)
[ -z "$bad" ] || fail "metrics: malformed lines: $bad"

note "watch"
ctl watch --count 2 --interval 0.5 >"$T/watch" || fail "watch failed"
[ "$(grep -c '^PORT ' "$T/watch")" -eq 2 ] || fail "watch: not 2 blocks: $(cat "$T/watch")"
[ "$(grep -c '^$' "$T/watch")" -eq 3 ] || fail "watch: blocks not separated: $(cat "$T/watch")"
[ "$(jctl watch --count 2 --interval 0.2 | jq -e '.ports.vm0.rx_mpps' | wc -l)" -eq 2 ] ||
	fail "watch --json: not 2 JSON lines"
expect 2 watch --count 0
expect 2 watch --interval x

note "port-add, port-del"
expect 0 port-add vm2 type=vhost-user path="$RUN/vm2.sock" mode=server queues=2
grep -q '^port vm2 added$' "$T/out" || fail "port-add said: $(cat "$T/out")"
# queues=2 is the most vsw polls; with no guest yet it polls queue 0
jctl ports | jq -e '.ports.vm2.queues == 1' >/dev/null || fail "vm2 not in ports: $(ctl ports)"
[ "$(jctl port vm2 | jq -r '.queues_max')" = 2 ] || fail "vm2 queues_max: $(jctl port vm2)"
expect 1 port-add vm2 type=vhost-user path="$RUN/vm2.sock" mode=server
grep -q 'vswctl: vsw: port vm2 exists' "$T/err" || fail "duplicate: $(cat "$T/err")"
expect 0 queues vm2
[ "$(jctl queues vm2 | jq -r '.queues')" = 1 ] || fail "queues vm2: $(jctl queues vm2)"
expect 0 rxq-move vm2 0 0
expect 1 rxq-move vm2 1 0
expect 1 rxq-move vm2 0 7
expect 2 rxq-move vm2 x 0
expect 2 rxq-move vm2 1 0x
expect 0 rxq-rebalance
grep -Eq '^moved [0-9]+ rx queues?$' "$T/out" || fail "rebalance said: $(cat "$T/out")"
expect 0 port-del vm2
jctl ports | jq -e '.ports.vm2 == null' >/dev/null || fail "vm2 still listed: $(ctl ports)"
expect 1 port-del vm2
expect 2 port-add vm3 path=/x
expect 2 port-add 'bad-name' type=vhost-user path=/x

note "set, stats-clear"
expect 0 set burst 64
[ "$(info_val burst)" = 64 ] || fail "burst not set: $(ctl info)"
expect 1 set burst 999
expect 2 set no-such-key 1
expect 2 set mbufs 4096
expect 2 set burst
expect 0 stats-clear

note "fdb-add, fdb-del, fdb-flush"
expect 0 fdb-add 02:00:00:00:00:aa vm0 vlan=10
expect 0 fdb-add 02:00:00:00:00:bb vm1
ctl fdb | grep -Eq '^02:00:00:00:00:aa +10 +vm0 +- +static$' || fail "fdb: $(ctl fdb)"
ctl fdb --port vm1 | grep -Eq '^02:00:00:00:00:bb +0 +vm1 +- +static$' || fail "fdb: $(ctl fdb)"
expect 2 fdb-add zz:00:00:00:00:aa vm0
expect 2 fdb-add 02:00:00:00:00:aa vm0 vlan=5000
expect 1 fdb-add 02:00:00:00:00:aa vmX
expect 0 fdb-del 02:00:00:00:00:aa vlan=10
expect 1 fdb-del 02:00:00:00:00:aa vlan=10
expect 0 fdb-del 02:00:00:00:00:bb
[ "$(jctl fdb | jq -r '.total')" = 0 ] || fail "fdb not empty: $(ctl fdb)"
expect 0 fdb-flush vm0
expect 0 fdb-flush
expect 1 fdb-flush vmX

note "errors"
expect 1 port vmX
expect 1 queues vmX
expect 2 bogus
expect 2 queues
expect 2 port-del
expect 2 fdb-add 02:00:00:00:00:aa
expect 2 workers extra

note "raw: several commands on one connection, a reply per line"
expect 0 raw /vsw/info /vsw/port,vm1 /vsw/fdb/stats
[ "$(wc -l <"$T/out")" -eq 3 ] || fail "raw with 3 commands: $(cat "$T/out")"
sed -n 2p "$T/out" | jq -e '."/vsw/port".name == "vm1"' >/dev/null ||
	fail "raw: 2nd reply is not vm1's: $(sed -n 2p "$T/out")"
expect 1 raw /vsw/port,nosuch /vsw/info
[ "$(wc -l <"$T/out")" -eq 2 ] || fail "raw: a failing command must not stop the next: $(cat "$T/out")"
expect 2 raw /vsw/info ""

note "20 clients at once"
pids=()
for i in $(seq 20); do
	ctl info >"$T/par$i" 2>&1 &
	pids+=($!)
done
for i in "${!pids[@]}"; do
	wait "${pids[$i]}" || fail "parallel vswctl info $((i + 1)) failed: $(cat "$T/par$((i + 1))")"
done
kill -0 "$VSW_PID" || fail "vsw died"
echo "PASS: vswctl verbs, exit codes, JSON, metrics, watch"
