#!/usr/bin/env python3
"""tools/bench helper: turn one trial's raw outputs into one JSON line.

args: TRIALS BLOCK DUT SCEN SIZE ROUND MACS PROBE_NS GEN_JSON SEARCH_JSON
      VSW_BEFORE VSW_AFTER DUT_CPP OK SCHED_BEFORE SCHED_AFTER

BENCH_EXTRA (environment, optional): a JSON object of fields added to the
record (ports, load_pct, rate_pps, zero_loss_mpps; error: why the trial
did not run).

SCHED_*: "wall_ns w:worker_wait_ns g:children_cpu_ticks s0:steal s1:steal"
(see sched_snap in tools/bench). Reported over the generator run: share of
time the DUT worker waited for its CPU (dut_wait_pct), share of the wall
time the generator got a CPU (gen_cpu_pct: < 100 means something else ran
on its CPU), and hypervisor steal on each CPU (steal_pct_gen/dut).

From vswgen's frames per second of the trial (rx_mpps_by_s): the best
second (rx_mpps_best_s) and the share of seconds under SLOW_FRAC of it
(slow_s_pct). On a VM whose host slows both CPUs for seconds at a time
(docs/performance.md, "The slow mode is the host's"), a trial's mean
mixes two rates; this says how much of it ran slow.  A trial slow
throughout has no fast second to compare with: report.py measures each
trial's seconds against the best second of every round of its case.
"""
import json
import os
import sys


def load_json_file(path):
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    return json.loads(line)
    except (OSError, ValueError):
        pass
    return None


SLOW_FRAC = 0.7  # the slow mode runs at about half the fast one


def slow_share(secs, best):
    """% of the seconds @secs (Mpps) under SLOW_FRAC of @best; None
    without two seconds or a best."""
    if len(secs or []) < 2 or not best:
        return None
    return 100.0 * sum(1 for x in secs if x < SLOW_FRAC * best) / len(secs)


def seconds(rec, g):
    """rx_mpps_best_s and slow_s_pct (against the trial's own best
    second) into rec from vswgen's seconds."""
    secs = g.get("rx_mpps_by_s") or []
    if len(secs) < 2:
        return
    rec["rx_mpps_best_s"] = max(secs)
    rec["slow_s_pct"] = slow_share(secs, max(secs))


def dut_cycles(rec, before, after, cpp):
    """The DUT's cycles per packet into rec (and returned): vsw's from two
    /vsw/workers snapshots (JSON), else CPP (testpmd, OVS; may be "")."""
    cyc = None
    try:
        b = json.loads(before)["/vsw/workers"]
        a = json.loads(after)["/vsw/workers"]
        busy = idle = pk = 0
        for k, w in a.items():
            if not k.startswith("worker"):
                continue
            w0 = b.get(k, {})
            busy += w["busy_cycles"] - w0.get("busy_cycles", 0)
            idle += w["idle_cycles"] - w0.get("idle_cycles", 0)
            pk += w["rx_packets"] - w0.get("rx_packets", 0)
        rec["dut_busy_cycles"] = busy
        if pk:
            cyc = busy / pk
        if busy + idle:
            rec["dut_busy_pct"] = 100.0 * busy / (busy + idle)
        rec["dut_tsc_hz"] = a.get("tsc_hz")
    except (ValueError, TypeError, KeyError, AttributeError):
        pass
    if cyc is None and cpp:
        try:
            cyc = float(cpp)
        except ValueError:
            pass
    rec["dut_cycles_per_packet"] = cyc
    return cyc


def disturbance(rec, s0, s1):
    """wall_s and disturbance into rec from two sched_snap lines."""
    try:
        a0, a1 = s0.split(), s1.split()
        wall = int(a1[0]) - int(a0[0])
        d0 = dict(x.split(":") for x in a0[1:])
        d1 = dict(x.split(":") for x in a1[1:])
        tck = os.sysconf("SC_CLK_TCK")
        rec["wall_s"] = wall / 1e9
        dis = {"dut_wait_pct": 100.0 * (int(d1["w"]) - int(d0["w"])) / wall,
               "gen_cpu_pct": 100.0 * (int(d1["g"]) - int(d0["g"])) / tck
               / (wall / 1e9),
               "steal_pct_gen": 100.0 * (int(d1["s0"]) - int(d0["s0"])) / tck
               / (wall / 1e9),
               "steal_pct_dut": 100.0 * (int(d1["s1"]) - int(d0["s1"])) / tck
               / (wall / 1e9)}
        rec["disturbance"] = {k: round(v, 1) for k, v in dis.items()}
    except (ValueError, IndexError, KeyError, ZeroDivisionError):
        pass


def main():
    (trials, block, dut, scen, size, rnd, macs, probe, genf, searchf,
     before, after, cpp, ok) = sys.argv[1:15]
    s0 = sys.argv[15] if len(sys.argv) > 15 else ""
    s1 = sys.argv[16] if len(sys.argv) > 16 else ""
    rec = {"block": block, "dut": dut, "scenario": scen, "size": int(size),
           "round": int(rnd), "macs": int(macs),
           "probe_rtt_ns": float(probe) if probe not in ("", "null") else None,
           "status": "ok"}
    g = load_json_file(genf)
    if ok != "1" or g is None:
        rec["status"] = "failed"
        err = genf + ".err"
        if os.path.exists(err):
            rec["error"] = open(err).read()[-600:]
    if g is not None and "tx_packets" not in g:  # guests' iperf3 (qemu)
        rec["gen"] = g
    elif g is not None:
        bursts = (g["tx_packets"] + g["tx_dropped"]) / 32.0
        rec.update({
            "rx_mpps": g["rx_mpps"], "rx_gbps": g["rx_gbps"],
            "loss_pct": g["loss_pct"], "offered_mpps": g["offered_mpps"],
            "tx_mpps": g.get("tx_mpps"),
            "tx_ring_full_share": g["tx_ring_full"] / bursts if bursts else None,
            "latency_ns": g["latency_ns"], "gen": g})
        seconds(rec, g)
    s = load_json_file(searchf)
    if s is not None:
        rec["zero_loss_mpps"] = s.get("zero_loss_mpps")
        rec["search"] = s
    cyc = dut_cycles(rec, before, after, cpp)
    disturbance(rec, s0, s1)
    try:
        rec.update(json.loads(os.environ.get("BENCH_EXTRA") or "{}"))
    except ValueError:
        pass
    tcp = (g or {}).get("tcp") or {}
    if tcp.get("payload_bytes") and rec.get("dut_busy_cycles"):
        rec["dut_cycles_per_kib"] = rec["dut_busy_cycles"] / (
            tcp["payload_bytes"] / 1024.0)
    with open(trials, "a") as f:
        f.write(json.dumps(rec) + "\n")
    lat = rec.get("latency_ns") or {}
    if rec["status"] == "ok" and block == "tcp":
        print("   %.2f Gbit/s of TCP payload, payload loss %.2f%%, longest "
              "frame "
              "received %s B; DUT %s cycles/KiB, busy %s%%" % (
                  tcp.get("gbps", 0), tcp.get("loss_pct") or 0,
                  tcp.get("rx_len_max"),
                  "%.0f" % rec["dut_cycles_per_kib"]
                  if rec.get("dut_cycles_per_kib") else "n/a",
                  "%.0f" % rec["dut_busy_pct"]
                  if rec.get("dut_busy_pct") is not None else "n/a"))
    elif rec["status"] == "ok" and block == "zeroloss":
        print("   zero-loss %s Mpps (max %s)" % (
            rec.get("zero_loss_mpps"), (rec.get("search") or {}).get(
                "max_mpps")))
    elif rec["status"] == "ok" and block == "latency":
        print("   %.2f Mpps (offered %.2f), loss %.3f%%, latency p50 %s "
              "p99 %s p99.9 %s ns" % (
                  rec["rx_mpps"], rec["offered_mpps"], rec["loss_pct"],
                  lat.get("p50"), lat.get("p99"), lat.get("p999")))
    elif rec["status"] == "ok":
        print("   %.2f Mpps (offered %.2f), loss %.3f%%, ring-full %.0f%%, "
              "DUT %s cycles/pkt; best second %s Mpps, %s of seconds "
              "under %.0f%% of it; %s" % (
                  rec["rx_mpps"], rec["offered_mpps"], rec["loss_pct"],
                  100 * (rec["tx_ring_full_share"] or 0),
                  "%.0f" % cyc if cyc else "n/a",
                  "%.2f" % rec["rx_mpps_best_s"]
                  if rec.get("rx_mpps_best_s") else "n/a",
                  "%.0f%%" % rec["slow_s_pct"]
                  if rec.get("slow_s_pct") is not None else "n/a",
                  100 * SLOW_FRAC,
                  " ".join("%s %.0f%%" % kv for kv in
                           sorted(rec.get("disturbance", {}).items()))))
    else:
        print("   FAILED: " + rec.get("error", "no generator output").strip()
              .replace("\n", " | ")[-300:])


if __name__ == "__main__":
    main()
