#!/usr/bin/env python3
"""tools/bench helper: results.json, results.md and gnuplot PNGs from
trials.jsonl; prints the tables, the goals and, last, the headline line:
  v2v64 vsw/ovs-normal=R1 vsw/testpmd-io=R2 vsw_cyc_per_pkt=C

usage: report.py OUT [--plots-to DIR]   (DIR/bench-YYYYMMDD-NAME.png)
"""
import json
import os
import shutil
import sys

import blocks
from trial import SLOW_FRAC, slow_share
import gencheck  # vswgen against pktgen (tools/bench --gen)
import tcp  # the TCP block (tools/bench --tcp)
import vxlan  # the VXLAN block (tools/bench --vxlan)

DUT_ORDER = blocks.DUT_ORDER
med, f = blocks.med, blocks.f
PLOT_WHAT = {
    "mpps": "main table: forwarded Mpps per scenario/size and DUT",
    "cycles": "main table: DUT cycles/packet per scenario/size and DUT",
    "scale-mpps": "scale: forwarded Mpps (sum) against ports, per DUT",
    "scale-cycles": "scale: DUT cycles/packet against ports, per DUT",
    "latency": "latency p50 / p99 / p99.9 against load (% of each DUT's "
               "zero-loss rate), per DUT",
    "fdb": "vsw cycles/packet against source MACs (FDB entries)",
}


def finite(x):
    """x with every infinite float as the string "inf" (strict JSON)"""
    if isinstance(x, float) and x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    if isinstance(x, dict):
        return {k: finite(v) for k, v in x.items()}
    if isinstance(x, list):
        return [finite(v) for v in x]
    return x


def main():
    out = sys.argv[1]
    plots_to = None
    if len(sys.argv) == 4 and sys.argv[2] == "--plots-to":
        plots_to = sys.argv[3]
    elif len(sys.argv) != 2:
        sys.exit("usage: report.py OUT [--plots-to DIR]")
    machine = json.load(open(os.path.join(out, "machine.json")))
    trials = [json.loads(l) for l in open(os.path.join(out, "trials.jsonl"))
              if l.strip()]
    ok = [t for t in trials if t["status"] == "ok"]
    skipped = [t for t in trials if t["status"] == "skipped"]
    trials = [t for t in trials if t["status"] != "skipped"]
    gp = os.path.join(out, "cpugaps.jsonl")  # tools/bench's cpu_gaps
    gaps = [json.loads(l) for l in open(gp) if l.strip()] \
        if os.path.exists(gp) else []
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
        # slow seconds against the best second of any round of the case
        # (a round slow throughout has no fast second of its own)
        best = max([t.get("rx_mpps_best_s") or 0 for t in ts])
        for t in ts:
            t["slow_s_pct_case"] = slow_share(
                (t.get("gen") or {}).get("rx_mpps_by_s"), best)
        row["slow_s_pct"] = med([t["slow_s_pct_case"] for t in ts])
        for k in ("dut_wait_pct", "gen_cpu_pct"):
            row[k] = med([t.get("disturbance", {}).get(k) for t in ts])
        row["rounds"] = {t["round"]: {
            "rx_mpps": t.get("rx_mpps"),
            "cpp": t.get("dut_cycles_per_packet"),
            "probe": t.get("probe_rtt_ns"),
            "slow": t.get("slow_s_pct_case")} for t in ts}
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

    scale_rows, scale_ratios = blocks.scale_summary(ok, machine)
    zrows, zratios, lrows = blocks.latency_summary(ok)
    goals = blocks.judge(machine, trials + skipped, summary, ratio_med,
                         scale_rows, scale_ratios, zrows, zratios, lrows, fdb)
    tcp_rows, tcp_ratios = tcp.summary(ok)
    tcp.judge(goals, tcp_rows, tcp_ratios)
    vx_rows, vx_inc, vx_rel = vxlan.summary(ok)
    vxlan.judge(goals, vx_inc, vx_rel)

    json.dump(finite({"machine": machine, "trials": trials, "skipped": skipped,
               "summary": summary, "ratios": ratios, "fdb_scale": fdb,
               "scale": scale_rows,
               "scale_ratios": [{"ports": k[0], "other": k[1],
                                 "mpps_ratio_rounds": v}
                                for k, v in scale_ratios.items()],
               "zero_loss": zrows, "dut_cpu_gaps": gaps,
               "zero_loss_ratios": [{"other": k[1], "ratio_rounds": v}
                                    for k, v in zratios.items()],
               "latency": lrows, "goals": goals.rows, "tcp": tcp_rows,
               "tcp_ratios": [{"scenario": k[0], "ratio": "%s/%s" % k[1:],
                               "rounds": v} for k, v in tcp_ratios.items()],
               "vxlan": vx_rows,
               "vxlan_increase_pct": [{"dut": k[0], "scenario": k[1],
                                       "size": k[2], "rounds": v}
                                      for k, v in vx_inc.items()],
               "vxlan_ovs_over_vsw": [{"scenario": k[0], "size": k[1],
                                       "rounds": v}
                                      for k, v in vx_rel.items()],
               "generators": gencheck.crosscheck(trials)}),
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
    if machine.get("vsw_set"):
        md[-1] += " vsw's [switch] keys set for every trial: `%s`." % (
            machine["vsw_set"])
    md.append("DUT wait %: share of the trial the DUT's forwarding thread waited "
              "for its CPU (other processes); gen CPU %: CPU time the "
              "generator got / wall time. Undisturbed: ~0 and ~100. " +
              "Slow seconds %%: the share of the round's seconds in which "
              "the generator received under %.0f %% of the best second of any "
              "round of that scenario, size and DUT (the host's slow mode, "
              "docs/performance.md; 0: it did not come)." % (
                  100 * SLOW_FRAC))
    md.append("")
    failed = [t for t in trials if t["status"] != "ok"]
    if summary:
        md.append("| scenario | size | DUT | Mpps (median) | Gbit/s | loss % "
                  "| offered Mpps | gen ring-full | DUT cycles/pkt | "
                  "zero-loss Mpps | probe RTT ns | DUT wait % | gen CPU % | "
                  "Mpps per round | cycles/pkt per round | slow seconds % "
                  "per round |")
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
                  "---|---|")
        for r in summary:
            rs = sorted(r["rounds"].items())
            md.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s "
                      "| %s | %s | %s | %s | %s |" % (
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
                          " / ".join(f(v["cpp"], "%.0f") for _, v in rs),
                          " / ".join(f(v["slow"], "%.0f") for _, v in rs)))
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
    if scale_rows:
        md += blocks.scale_md(scale_rows, scale_ratios,
                              machine.get("scale2_from_main"))
    if zrows or lrows:
        md += blocks.latency_md(zrows, zratios, lrows, str(machine.get(
            "latency_loads", "10,50,90")).split(","), gaps,
            blocks.ring_size(machine))
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
        big = [r for r in fdb if r["macs"] == blocks.FDB_BIG]
        if big and big[0]["cpp_increase_pct"] is not None:
            md.append("1M source MACs cost %+.1f %% cycles/packet against 1."
                      % big[0]["cpp_increase_pct"])
            md.append("")
    md += tcp.markdown(tcp_rows, tcp_ratios, machine)
    md += vxlan.markdown(vx_rows, vx_inc, vx_rel)
    md += gencheck.markdown(gencheck.crosscheck(trials))
    if failed:
        md.append("Failed trials: " + ", ".join(
            "%s %s %s %s %s r%d%s" % (
                t["block"], t["dut"], t["scenario"], t["size"],
                "%d ports" % t.get("ports", 2), t["round"],
                " %s %%" % t["load_pct"] if "load_pct" in t else "")
            for t in failed))
        md.append("")
    for t in skipped:
        md.append("Not run: %s: %s" % (t["block"], t["reason"]))
    if skipped:
        md.append("")

    md += goals.md()

    # plots: NAME.gp and NAME.dat next to NAME.png, made in OUT
    plots = []
    date = machine["date"][:10]
    if shutil.which("gnuplot") and summary:
        sizes = sorted({r["size"] for r in summary})
        duts = [d for d in DUT_ORDER if any(r["dut"] == d for r in summary)]
        cats = [(sc, sz) for sc in ("v2v", "p2v") for sz in sizes
                if any(r["scenario"] == sc and r["size"] == sz
                       for r in summary)]
        for key, name, ylabel in (
                ("rx_mpps", "mpps", "forwarded Mpps (median)"),
                ("dut_cycles_per_packet", "cycles", "DUT cycles/packet (median)")):
            with open(os.path.join(out, name + ".dat"), "w") as fd:
                fd.write("case " + " ".join(duts) + "\n")
                for sc, sz in cats:
                    vals = []
                    for d in duts:
                        v = [r[key] for r in summary if r["scenario"] == sc
                             and r["size"] == sz and r["dut"] == d]
                        vals.append("%.3f" % v[0] if v and v[0] else "0")
                    fd.write("%s-%dB %s\n" % (sc, sz, " ".join(vals)))
            blocks.gnuplot(out, name, blocks.colors(duts) +
                           "set style data histogram\n"
                           "set style histogram cluster gap 1\n"
                           "set style fill solid 0.8 border -1\n"
                           "set boxwidth 0.9\n"
                           "set key top right autotitle columnheader\n"
                           "set ylabel '%s'\nset yrange [0:*]\n"
                           "set grid ytics\nset title 'tools/bench %s'\n"
                           "plot for [i=2:%d] '%s.dat' using i:xtic(1)\n" % (
                               ylabel, date, len(duts) + 1, name), plots)
    if shutil.which("gnuplot"):
        blocks.plot_scale(out, scale_rows, "v2v 64 B, N ports on one worker, "
                          "%s" % date, plots)
        blocks.plot_latency(out, lrows, "v2v 64 B latency at %% of each "
                            "DUT own zero-loss rate, %s" % date, plots)
    if shutil.which("gnuplot") and fdb:
        with open(os.path.join(out, "fdb.dat"), "w") as fd:
            for r in fdb:
                fd.write("%d %s\n" % (r["macs"], r["cpp"] or 0))
        blocks.gnuplot(out, "fdb",
                       "set logscale x\nset xlabel 'source MACs "
                       "(FDB entries)'\nset ylabel 'vsw cycles/packet "
                       "(median)'\nset yrange [0:*]\nset grid\nset key off\n"
                       "set title 'vsw v2v 64 B, FDB scale, %s'\n"
                       "plot 'fdb.dat' using 1:2 with linespoints pt 7 lw 2, "
                       "'' using 1:2:(sprintf('%%.0f',$2)) with labels "
                       "offset 0,1\n" % date, plots)
    if plots:
        copies = (blocks.copy_plots(out, plots, plots_to, date)
                  if plots_to else [])
        md.append("Plots, made by `%s` (the data: NAME.dat; redraw: `cd "
                  "%s && gnuplot NAME.gp`; all of it again from "
                  "trials.jsonl: `tools/bench.d/report.py %s`):"
                  % (machine.get("command", "tools/bench"), out, out))
        md.append("")
        md.append("| plot | shows | gnuplot script |%s" % (
            " copied to |" if copies else ""))
        md.append("|---|---|---|%s" % ("---|" if copies else ""))
        for i, p in enumerate(plots):
            md.append("| %s.png | %s | `gnuplot %s.gp` |%s" % (
                p, PLOT_WHAT.get(p, ""), p,
                " %s |" % copies[i] if copies else ""))
        md.append("")
    elif summary or fdb or scale_rows or lrows:
        md.append("(no plots: gnuplot missing; apt-get install gnuplot-nox)")
    with open(os.path.join(out, "results.md"), "w") as fd:
        fd.write("\n".join(md) + "\n")
    print("\n".join(md))
    print("goals: " + ", ".join("%s %s" % (r["goal"], r["verdict"])
                                for r in goals.rows))

    def hl_ratio(o):
        return ratio_med("v2v", 64, o, "mpps_ratio")

    vc = [r for r in summary if r["scenario"] == "v2v" and r["size"] == 64
          and r["dut"] == "vsw"]
    print("v2v64 vsw/ovs-normal=%s vsw/testpmd-io=%s vsw_cyc_per_pkt=%s" % (
        f(hl_ratio("ovs-normal")), f(hl_ratio("testpmd-io")),
        f(vc[0]["dut_cycles_per_packet"], "%.0f") if vc else "n/a"))


main()
