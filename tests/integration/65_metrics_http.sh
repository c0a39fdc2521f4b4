#!/bin/bash
# Objective: metrics-listen. vsw with two virtio-user guests serves GET
# /metrics on 127.0.0.1: the same families as `vswctl metrics` (one
# formatter), with the exposition content type, text that `promtool check
# metrics` accepts; 404 for another path, 405 for POST; clients that never
# finish their request (slowloris, more of them than connection slots) do
# not block a scrape and are cut after the read timeout; a bad value and a
# port in use are refused at start with the key named. A real Prometheus
# (its own instance, temp dir) scraping every second sees up == 1 and the
# guest's packets in vsw_port_rx_packets_total; SIGTERM still exits 0.
. "$(dirname "$0")/lib.sh"

PROMETHEUS=/usr/bin/prometheus
PROMTOOL=/usr/bin/promtool
[ -x "$PROMETHEUS" ] && [ -x "$PROMTOOL" ] ||
	skip "prometheus and promtool not installed (Debian's prometheus, tools/deps)"
[ -x /usr/bin/python3 ] || skip "python3 not installed"

# free_port: a TCP port nothing listens on (the kernel's choice)
free_port() {
	/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# fetch URL [METHOD [OUT]]: prints the status and the Content-Type; the
# body goes to OUT
fetch() {
	/usr/bin/python3 - "$@" <<'EOF'
import sys, urllib.request, urllib.error
url, method = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "GET"
req = urllib.request.Request(url, method=method,
                             data=b"x=1" if method == "POST" else None)
try:
    r = urllib.request.urlopen(req, timeout=10)
    code, ct, body = r.status, r.headers.get("Content-Type"), r.read()
except urllib.error.HTTPError as e:
    code, ct, body = e.code, e.headers.get("Content-Type"), e.read()
if len(sys.argv) > 3:
    open(sys.argv[3], "wb").write(body)
print(code)
print(ct)
EOF
}
families() { grep '^# TYPE ' "$1" | awk '{print $3, $4}' | sort; }

MPORT=$(free_port)
PPORT=$(free_port)
URL=http://127.0.0.1:$MPORT/metrics

note "bad values are refused with the key named"
for bad in localhost:9417 127.0.0.1:0 '::1:9417' 127.0.0.1; do
	printf '[switch]\nmetrics-listen = %s\n[port a]\ntype = vhost-user\n' "$bad" >"$T/bad.conf"
	rc=0
	"$VSW" -- -c "$T/bad.conf" --check >"$T/bad.out" 2>&1 || rc=$?
	[ "$rc" = 1 ] && grep -q "\[switch\] metrics-listen = \"$bad\": expected IPV4:PORT or \[IPV6\]:PORT" "$T/bad.out" ||
		fail "metrics-listen = $bad: exit $rc: $(cat "$T/bad.out")"
done

CFG=$(vhost_config a b)
sed -i "s/^\[switch\]\$/[switch]\nmetrics-listen = 127.0.0.1:$MPORT/" "$CFG"
start_vsw "$CFG"
ctl show-config | grep -q "^metrics-listen = 127.0.0.1:$MPORT\$" ||
	fail "show-config: $(ctl show-config | grep metrics)"

note "a second vsw on the same address: refused at start"
mkdir -p "$T/run2"
sed -e "s#$RUN#$T/run2#g" "$CFG" >"$T/vsw2.conf"
prefix_add "${PREFIX}x"
rc=0
# shellcheck disable=SC2046
timeout 60 "$VSW" --file-prefix "${PREFIX}x" $(mem_args 256) --lcores 0@0,1@1 \
	-- -c "$T/vsw2.conf" >"$T/vsw2.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "second vsw on 127.0.0.1:$MPORT: exit $rc: $(tail -5 "$T/vsw2.out")"
grep -q "metrics-listen = \"127.0.0.1:$MPORT\": cannot listen there: Address already in use" "$T/vsw2.out" ||
	fail "second vsw's message: $(tail -5 "$T/vsw2.out")"

note "traffic: guest a sends 2000 frames to guest b"
A=$(mac_of 10); B=$(mac_of 11)
start_guest b "$(virtio "$RUN/b.sock")" -- --src-mac "$B" --announce 3 --rx-only --duration 40
wait_for 60 "b learned" ctl_holds '.entries | length >= 1' fdb
start_guest a "$(virtio "$RUN/a.sock")" -- --src-mac "$A" --dst-mac "$B" --announce 3 --count 2000 --rate 20000 --duration 10
wait_guest a
wait_for 30 "b to get 2003 frames" ctr_at_least b tx_packets 2003

note "GET /metrics: the families of vswctl metrics, promtool clean"
out=$(fetch "$URL" GET "$T/http.txt")
[ "$out" = "200
text/plain; version=0.0.4; charset=utf-8" ] || fail "GET $URL: $out"
ctl metrics >"$T/ctl.txt" || fail "vswctl metrics failed"
diff <(families "$T/ctl.txt") <(families "$T/http.txt") >"$T/fam.diff" ||
	fail "families differ (< vswctl, > http): $(cat "$T/fam.diff")"
[ "$(families "$T/http.txt" | wc -l)" -ge 40 ] || fail "few families: $(families "$T/http.txt")"
grep -Eq '^vsw_port_rx_packets_total\{port="a"\} [1-9]' "$T/http.txt" ||
	fail "no packets of a: $(grep rx_packets "$T/http.txt")"
# (a's guest is gone by now: 0; b's is there, one queue pair: 1)
grep -Eq '^vsw_port_guest_rx_queues_fed\{port="b"\} 1$' "$T/http.txt" ||
	fail "b: $(grep guest_rx_queues_fed "$T/http.txt")"
"$PROMTOOL" check metrics <"$T/http.txt" >"$T/promtool.out" 2>&1 ||
	fail "promtool check metrics: $(cat "$T/promtool.out")"

note "404, 405"
[ "$(fetch "http://127.0.0.1:$MPORT/" | sed -n 1p)" = 404 ] || fail "GET /: not 404"
[ "$(fetch "http://127.0.0.1:$MPORT/metricsx" | sed -n 1p)" = 404 ] || fail "GET /metricsx: not 404"
[ "$(fetch "$URL" POST | sed -n 1p)" = 405 ] || fail "POST /metrics: not 405"

note "slowloris: 20 unfinished requests do not block a scrape"
cat >"$T/slow.py" <<'EOF'
import socket, sys, time
socks = []
for _ in range(20):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b"GET /metr")
    socks.append(s)
print("open", flush=True)
t0 = time.monotonic()
closed = 0
for s in socks:
    s.settimeout(max(0.1, 30 - (time.monotonic() - t0)))
    try:
        while s.recv(4096):
            pass
        closed += 1
    except ConnectionResetError:
        closed += 1  # evicted before its bytes were read: a reset
    except socket.timeout:
        pass
print("closed", closed, "in %.1f s" % (time.monotonic() - t0), flush=True)
EOF
bg "$T/slow.out" "$T/slow.out" /usr/bin/python3 "$T/slow.py" "$MPORT"
SLOW=$BG_PID
wait_for 10 "the slow clients to connect" grep -q '^open' "$T/slow.out"
t0=$(date +%s%N)
[ "$(fetch "$URL" GET "$T/http2.txt" | sed -n 1p)" = 200 ] || fail "scrape under slowloris"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
note "scrape under slowloris: ${ms} ms"
[ "$ms" -lt 3000 ] || fail "a scrape under slowloris took $ms ms"
reap_pid "$SLOW" || fail "slowloris client: $(cat "$T/slow.out")"
grep -q '^closed 20 ' "$T/slow.out" || fail "slow clients not all cut: $(cat "$T/slow.out")"
note "slowloris: $(tail -1 "$T/slow.out")"

note "a real Prometheus scrapes it every second"
mkdir -p "$T/prom"
cat >"$T/prom/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: vsw
    static_configs:
      - targets: ['127.0.0.1:$MPORT']
EOF
bg "$T/prometheus.log" "$T/prometheus.log" "$PROMETHEUS" \
	--config.file="$T/prom/prometheus.yml" \
	--web.listen-address="127.0.0.1:$PPORT" \
	--storage.tsdb.path="$T/prom/data"
PROM_PID=$BG_PID
# query EXPR: the first result's value of a PromQL query, or empty
cat >"$T/query.py" <<'EOF'
import json, sys, urllib.parse, urllib.request
q = urllib.parse.quote(sys.argv[2])
try:
    r = json.load(urllib.request.urlopen(
        "http://127.0.0.1:%s/api/v1/query?query=%s" % (sys.argv[1], q), timeout=5))
    print(r["data"]["result"][0]["value"][1])
except Exception:
    pass
EOF
query() { /usr/bin/python3 "$T/query.py" "$PPORT" "$1"; }
prom_up() { [ "$(query 'up{job="vsw"}')" = 1 ]; }
prom_rx() {
	local v
	v=$(query 'vsw_port_rx_packets_total{job="vsw",port="a"}')
	[ -n "$v" ] && [ "$v" -gt 0 ]
}
wait_for 90 "Prometheus: up{job=\"vsw\"} == 1" prom_up
wait_for 30 "Prometheus: vsw_port_rx_packets_total{port=\"a\"} > 0" prom_rx
note "Prometheus: up 1, a's rx packets $(query 'vsw_port_rx_packets_total{job="vsw",port="a"}')"
stop_pid "$PROM_PID"

stop_vsw
echo "PASS: metrics-listen serves vswctl's metrics to Prometheus, hostile clients bounded"
