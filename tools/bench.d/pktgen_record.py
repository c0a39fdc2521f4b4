#!/usr/bin/env python3
"""tools/bench helper (tools/bench.d/pktgen.sh): one pktgen trial as one
JSON line in trials.jsonl, with the fields of a vswgen trial where they
apply (trial.py's DUT cycles and disturbance).

args: TRIALS DUT SCEN SIZE ROUND PROBE_NS OK G0 G1 D0 D1 VSW_BEFORE
      VSW_AFTER DUT_CPP SCHED_BEFORE SCHED_AFTER PKTGEN_LOG

G0/G1: pktgen's counters at the window's ends, "NS TX_PORT0 NS RX_PORT1";
D0/D1: the DUT's count towards port B, "NS COUNT". Rates: rx_mpps
(pktgen's port 1), tx_mpps (what its port 0 sent: pktgen retries what a
full ring refuses, so there is no offered rate), dut_fwd_mpps (the DUT's
counter); rx_gbps at L1 (frame + 24 B).
"""
import json
import sys

import trial


def rate(a, b, i):
    """Mpps between two "NS C [NS C]" samples, pair i."""
    try:
        a, b = a.split()[2 * i:], b.split()[2 * i:]
        return (int(b[1]) - int(a[1])) / ((int(b[0]) - int(a[0])) / 1e3)
    except (ValueError, IndexError, ZeroDivisionError):
        return None


def main():
    (trials, dut, scen, size, rnd, probe, ok, g0, g1, d0, d1, before, after,
     cpp, s0, s1, log) = sys.argv[1:18]
    size = int(size)
    rec = {"block": "pktgen", "generator": "pktgen", "dut": dut,
           "scenario": scen, "size": size, "round": int(rnd), "macs": 1, "ports": 2,
           "probe_rtt_ns": float(probe) if probe not in ("", "null") else None,
           "status": "ok"}
    tx, rx, fwd = rate(g0, g1, 0), rate(g0, g1, 1), rate(d0, d1, 0)
    try:
        rec["window_s"] = (int(g1.split()[0]) - int(g0.split()[0])) / 1e9
    except (ValueError, IndexError):
        pass
    rec.update({"rx_mpps": rx, "offered_mpps": None, "tx_mpps": tx,
                "dut_fwd_mpps": fwd,
                "rx_gbps": rx * (size + 24) * 8 / 1e3 if rx is not None else None,
                "loss_pct": 100.0 * (tx - rx) / tx if tx and rx is not None else None})
    if rx and fwd:
        rec["pktgen_vs_dut_pct"] = 100.0 * (rx - fwd) / fwd
    cyc = trial.dut_cycles(rec, before, after, cpp)
    trial.disturbance(rec, s0, s1)
    # the generator's CPU share comes from reaped children: pktgen is not
    # reaped inside the window
    rec.get("disturbance", {}).pop("gen_cpu_pct", None)
    if ok != "1" or rx is None:
        rec["status"] = "failed"
        try:
            t = open(log, errors="replace").read()[-600:]
            rec["error"] = "".join(c for c in t if c.isprintable() or c == "\n")
        except OSError:
            rec["error"] = "no pktgen log"
    with open(trials, "a") as f:
        f.write(json.dumps(rec) + "\n")

    def fmt(x, p="%.2f"):
        return "n/a" if x is None else p % x
    if rec["status"] == "ok":
        print("   pktgen: %s Mpps received (sent %s), DUT counted %s Mpps; "
              "DUT %s cycles/pkt; window %.1f s" % (
                  fmt(rx), fmt(tx), fmt(fwd), fmt(cyc, "%.0f"),
                  rec.get("window_s", 0)))
    else:
        print("   pktgen FAILED: " +
              rec["error"].strip().replace("\n", " | ")[-300:])


if __name__ == "__main__":
    main()
