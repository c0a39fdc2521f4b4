#!/usr/bin/env python3
"""tools/bench helper: results.json, results.md and gnuplot PNGs from
trials.jsonl; prints the tables and, last, the headline line:
  v2v64 vsw/ovs-normal=R1 vsw/testpmd-io=R2 vsw_cyc_per_pkt=C
"""
import json
import os
import shutil
import statistics
import subprocess
import sys

DUT_ORDER = ["vsw", "testpmd-io", "ovs-normal", "ovs-flow"]


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def f(x, fmt="%.2f"):
    return "n/a" if x is None else fmt % x


def main():
    out = sys.argv[1]
    machine = json.load(open(os.path.join(out, "machine.json")))
    trials = [json.loads(l) for l in open(os.path.join(out, "trials.jsonl"))
              if l.strip()]
    ok = [t for t in trials if t["status"] == "ok"]
    main_t = [t for t in ok if t["block"] == "main"]
    fdb_t = [t for t in ok if t["block"] == "fdb"]

    groups = {}
    for t in main_t:
        groups.setdefault((t["scenario"], t["size"], t["dut"]), []).append(t)
    summary = []
    for (sc, sz, dut), ts in sorted(groups.items(), key=lambda kv: (
            kv[0][0], kv[0][1], DUT_ORDER.index(kv[0][2]))):
        row = {"scenario": sc, "size": sz, "dut": dut, "n": len(ts)}
        for k in ("rx_mpps", "rx_gbps", "loss_pct", "offered_mpps",
                  "tx_ring_full_share", "dut_cycles_per_packet",
                  "probe_rtt_ns", "zero_loss_mpps"):
            row[k] = med([t.get(k) for t in ts])
        for k in ("dut_wait_pct", "gen_cpu_pct"):
            row[k] = med([t.get("disturbance", {}).get(k) for t in ts])
        row["rounds"] = {t["round"]: {
            "rx_mpps": t.get("rx_mpps"),
            "cpp": t.get("dut_cycles_per_packet"),
            "probe": t.get("probe_rtt_ns")} for t in ts}
        summary.append(row)

    # per-round ratios vsw/other
    ratios = []
    by = {(t["scenario"], t["size"], t["dut"], t["round"]): t for t in main_t}
    for (sc, sz, dut, r), t in sorted(by.items()):
        if dut == "vsw":
            continue
        v = by.get((sc, sz, "vsw", r))
        if v is None:
            continue
        rm = v["rx_mpps"] / t["rx_mpps"] if t.get("rx_mpps") else None
        rc = None
        if v.get("dut_cycles_per_packet") and t.get("dut_cycles_per_packet"):
            rc = t["dut_cycles_per_packet"] / v["dut_cycles_per_packet"]
        ratios.append({"scenario": sc, "size": sz, "other": dut, "round": r,
                       "mpps_ratio": rm, "cpp_ratio_other_over_vsw": rc})

    fdb = []
    base = None
    macs_sorted = sorted({t["macs"] for t in fdb_t})
    for m in macs_sorted:
        ts = [t for t in fdb_t if t["macs"] == m]
        row = {"macs": m, "n": len(ts),
               "rx_mpps": med([t.get("rx_mpps") for t in ts]),
               "cpp": med([t.get("dut_cycles_per_packet") for t in ts]),
               "cpp_rounds": [t.get("dut_cycles_per_packet") for t in ts],
               "loss_pct": med([t.get("loss_pct") for t in ts]),
               "dut_wait_pct": med([t.get("disturbance", {}).get(
                   "dut_wait_pct") for t in ts])}
        if m == 1:
            base = row["cpp"]
        fdb.append(row)
    for row in fdb:
        row["cpp_increase_pct"] = (100.0 * (row["cpp"] - base) / base
                                   if base and row["cpp"] else None)

    def ratio_med(sc, sz, other, key):
        return med([x[key] for x in ratios if x["scenario"] == sc and
                    x["size"] == sz and x["other"] == other])

    json.dump({"machine": machine, "trials": trials, "summary": summary,
               "ratios": ratios, "fdb_scale": fdb},
              open(os.path.join(out, "results.json"), "w"), indent=1)

    md = []
    md.append("Machine: %s; CPUs online %s, generator on CPU %s, DUT worker "
              "on CPU %s; DPDK %s, OVS %s, QEMU %s; hugepages: %s; %s s "
              "trials, %s round(s); vsw %s; guest virtio-user devargs `%s`."
              % (machine["cpu_model"], machine["cpus_online"],
                 machine["gen_cpu"], machine["dut_cpu"], machine["dpdk"],
                 machine["ovs"], machine["qemu"], machine["hugepages"],
                 machine["duration_s"], machine["rounds"],
                 machine["vsw_commit"], machine["virtio_devargs"]))
    md.append("DUT wait %: share of the trial the DUT's forwarding thread waited "
              "for its CPU (other processes); gen CPU %: CPU time the "
              "generator got / wall time. Undisturbed: ~0 and ~100.")
    md.append("")
    failed = [t for t in trials if t["status"] != "ok"]
    if summary:
        md.append("| scenario | size | DUT | Mpps (median) | Gbit/s | loss % "
                  "| offered Mpps | gen ring-full | DUT cycles/pkt | "
                  "zero-loss Mpps | probe RTT ns | DUT wait % | gen CPU % | "
                  "Mpps per round | cycles/pkt per round |")
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in summary:
            rs = sorted(r["rounds"].items())
            md.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s "
                      "| %s | %s | %s | %s |" % (
                          r["scenario"], r["size"], r["dut"], f(r["rx_mpps"]),
                          f(r["rx_gbps"]), f(r["loss_pct"], "%.3f"),
                          f(r["offered_mpps"]),
                          f(r["tx_ring_full_share"] and
                            100 * r["tx_ring_full_share"], "%.0f%%"),
                          f(r["dut_cycles_per_packet"], "%.0f"),
                          f(r["zero_loss_mpps"]),
                          f(r["probe_rtt_ns"], "%.0f"),
                          f(r["dut_wait_pct"], "%.0f"),
                          f(r["gen_cpu_pct"], "%.0f"),
                          " / ".join(f(v["rx_mpps"]) for _, v in rs),
                          " / ".join(f(v["cpp"], "%.0f") for _, v in rs)))
        md.append("")
    if ratios:
        md.append("| scenario | size | vsw / other | Mpps ratio per round | "
                  "median | other's cycles/pkt / vsw's, per round | median |")
        md.append("|---|---|---|---|---|---|---|")
        keys = sorted({(x["scenario"], x["size"], x["other"]) for x in ratios},
                      key=lambda k: (k[0], k[1], DUT_ORDER.index(k[2])))
        for sc, sz, o in keys:
            xs = sorted([x for x in ratios if (x["scenario"], x["size"],
                                               x["other"]) == (sc, sz, o)],
                        key=lambda x: x["round"])
            md.append("| %s | %d | vsw/%s | %s | %s | %s | %s |" % (
                sc, sz, o, " / ".join(f(x["mpps_ratio"]) for x in xs),
                f(ratio_med(sc, sz, o, "mpps_ratio")),
                " / ".join(f(x["cpp_ratio_other_over_vsw"]) for x in xs),
                f(ratio_med(sc, sz, o, "cpp_ratio_other_over_vsw"))))
        md.append("")
    if fdb:
        md.append("FDB scale (vsw, v2v, 64 B, source MACs cycled by the "
                  "generator, FDB primed by announcing every MAC):")
        md.append("")
        md.append("| source MACs | Mpps (median) | loss % | vsw cycles/pkt "
                  "(median) | per round | increase vs 1 MAC | DUT wait % |")
        md.append("|---|---|---|---|---|---|---|")
        for r in fdb:
            md.append("| %d | %s | %s | %s | %s | %s | %s |" % (
                r["macs"], f(r["rx_mpps"]), f(r["loss_pct"], "%.3f"),
                f(r["cpp"], "%.0f"),
                " / ".join(f(x, "%.0f") for x in r["cpp_rounds"]),
                f(r["cpp_increase_pct"], "%+.1f%%"),
                f(r["dut_wait_pct"], "%.0f")))
        md.append("")
    if failed:
        md.append("Failed trials: " + ", ".join(
            "%s %s %s r%d" % (t["dut"], t["scenario"], t["size"], t["round"])
            for t in failed))
        md.append("")

    # plots
    plots = []
    if shutil.which("gnuplot") and summary:
        sizes = sorted({r["size"] for r in summary})
        duts = [d for d in DUT_ORDER if any(r["dut"] == d for r in summary)]
        cats = [(sc, sz) for sc in ("v2v", "p2v") for sz in sizes
                if any(r["scenario"] == sc and r["size"] == sz
                       for r in summary)]
        for key, name, ylabel in (
                ("rx_mpps", "mpps", "forwarded Mpps (median)"),
                ("dut_cycles_per_packet", "cycles", "DUT cycles/packet (median)")):
            dat = os.path.join(out, name + ".dat")
            with open(dat, "w") as fd:
                fd.write("case " + " ".join(duts) + "\n")
                for sc, sz in cats:
                    vals = []
                    for d in duts:
                        v = [r[key] for r in summary if r["scenario"] == sc
                             and r["size"] == sz and r["dut"] == d]
                        vals.append("%.3f" % v[0] if v and v[0] else "0")
                    fd.write("%s-%dB %s\n" % (sc, sz, " ".join(vals)))
            png = os.path.join(out, name + ".png")
            gp = ("set terminal pngcairo size 800,450 font ',10'\n"
                  "set output '%s'\nset style data histogram\n"
                  "set style histogram cluster gap 1\n"
                  "set style fill solid 0.8 border -1\nset boxwidth 0.9\n"
                  "set key top right autotitle columnheader\n"
                  "set ylabel '%s'\nset yrange [0:*]\nset grid ytics\n"
                  "set title 'tools/bench %s'\n"
                  "plot for [i=2:%d] '%s' using i:xtic(1)\n" % (
                      png, ylabel, machine["date"][:10], len(duts) + 1, dat))
            if subprocess.run(["gnuplot"], input=gp.encode(),
                              stderr=subprocess.DEVNULL).returncode == 0:
                plots.append(png)
    if shutil.which("gnuplot") and fdb:
        dat = os.path.join(out, "fdb.dat")
        with open(dat, "w") as fd:
            for r in fdb:
                fd.write("%d %s\n" % (r["macs"], r["cpp"] or 0))
        png = os.path.join(out, "fdb.png")
        gp = ("set terminal pngcairo size 800,450 font ',10'\n"
              "set output '%s'\nset logscale x\nset xlabel 'source MACs "
              "(FDB entries)'\nset ylabel 'vsw cycles/packet (median)'\n"
              "set yrange [0:*]\nset grid\nset key off\n"
              "set title 'vsw v2v 64 B, FDB scale'\n"
              "plot '%s' using 1:2 with linespoints pt 7 lw 2, '' using "
              "1:2:(sprintf('%%.0f',$2)) with labels offset 0,1\n" % (png, dat))
        if subprocess.run(["gnuplot"], input=gp.encode(),
                          stderr=subprocess.DEVNULL).returncode == 0:
            plots.append(png)
    if plots:
        md.append("Plots: " + ", ".join(os.path.basename(p) for p in plots))
        md.append("")
    elif summary or fdb:
        md.append("(no plots: gnuplot missing; apt-get install gnuplot-nox)")
    with open(os.path.join(out, "results.md"), "w") as fd:
        fd.write("\n".join(md) + "\n")
    print("\n".join(md))

    def hl_ratio(o):
        return ratio_med("v2v", 64, o, "mpps_ratio")

    vc = [r for r in summary if r["scenario"] == "v2v" and r["size"] == 64
          and r["dut"] == "vsw"]
    print("v2v64 vsw/ovs-normal=%s vsw/testpmd-io=%s vsw_cyc_per_pkt=%s" % (
        f(hl_ratio("ovs-normal")), f(hl_ratio("testpmd-io")),
        f(vc[0]["dut_cycles_per_packet"], "%.0f") if vc else "n/a"))


main()
