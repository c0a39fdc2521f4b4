"""tools/bench report helpers for the TCP block (tools/bench --tcp):
the table of TCP payload Gbit/s per scenario and configuration, the
per-round ratios and the offload goals (imported by report.py).

Configurations: vsw-tso, vsw-off, ovs-tso, ovs-off (tools/bench's
tcp_trial). Every ratio is taken per round, then the median.
"""
from blocks import f, med

CFG_ORDER = ["vsw-tso", "vsw-off", "ovs-tso", "ovs-off"]
SCEN_NAME = {"v2v": "VM to VM", "v2p": "VM to ethdev (memif, no TSO)",
             "qemu": "QEMU/TCG Linux guests, iperf3 (relative only)"}
# (scenario, numerator, denominator, target, goal)
GOALS = [("v2v", "vsw-tso", "vsw-off", 5.0,
          "TCP VM to VM: vsw offloads on >= 5x off"),
         ("v2v", "vsw-tso", "ovs-tso", 1.2,
          "TCP VM to VM: vsw >= 1.2x OVS with userspace TSO"),
         ("v2p", "vsw-tso", "ovs-tso", 1.2,
          "TCP VM to ethdev: vsw >= 1.2x OVS with userspace TSO"),
         ("qemu", "vsw-tso", "vsw-off", 5.0,
          "TCP Linux guests (QEMU/TCG, relative): vsw offloads on >= 5x off"),
         ("qemu", "vsw-tso", "ovs-tso", 1.2,
          "TCP Linux guests (QEMU/TCG, relative): vsw >= 1.2x OVS with "
          "userspace TSO")]


def gbps(t):
    return ((t.get("gen") or {}).get("tcp") or {}).get("gbps")


def summary(ok):
    """rows per (scenario, cfg) and per-round ratios {(scen, a, b): [..]}"""
    tt = [t for t in ok if t["block"] == "tcp"]
    rows = []
    for sc in ("v2v", "v2p", "qemu"):
        for c in CFG_ORDER:
            ts = sorted([t for t in tt if t["scenario"] == sc and
                         t["dut"] == c], key=lambda t: t["round"])
            if not ts:
                continue
            tcp = [(t.get("gen") or {}).get("tcp") or {} for t in ts]
            rows.append({
                "scenario": sc, "cfg": c, "n": len(ts), "size": ts[0]["size"],
                "gbps": med([gbps(t) for t in ts]),
                "gbps_rounds": [gbps(t) for t in ts],
                "loss_pct": med([x.get("loss_pct") for x in tcp]),
                "rx_len_max": max(x.get("rx_len_max") or 0 for x in tcp),
                "cycles_per_kib": med([t.get("dut_cycles_per_kib")
                                       for t in ts]),
                "dut_busy_pct": med([t.get("dut_busy_pct") for t in ts]),
                "dut_wait_pct": med([(t.get("disturbance") or {}).get(
                    "dut_wait_pct") for t in ts])})
    by = {(t["scenario"], t["dut"], t["round"]): t for t in tt}
    ratios = {}
    for sc, a, b, _, _ in GOALS:
        for (s, d, r), t in sorted(by.items()):
            if s != sc or d != a:
                continue
            o = by.get((sc, b, r))
            if o is None or gbps(o) is None or not gbps(t):
                continue
            # the other received nothing (OVS 3.1 drops TSO frames to a
            # port without TSO): vsw's figure against none, infinitely
            ratios.setdefault((sc, a, b), []).append(
                gbps(t) / gbps(o) if gbps(o) else float("inf"))
    return rows, ratios


def markdown(rows, ratios, machine):
    if not rows:
        return []
    md = ["TCP stream (vswgen --tcp %s: super-frames of %s B cut at MSS %s "
          "where the output cannot take them; -off: %s-byte frames), "
          "unpaced; Gbit/s of TCP payload received per second:" % (
              machine.get("tcp_mss"), machine.get("tcp_size"),
              machine.get("tcp_mss"), (machine.get("tcp_mss") or 0) + 54),
          "",
          "| scenario | configuration | frame B | Gbit/s (median) | per round "
          "| payload loss % | longest frame received | vsw cycles/KiB | DUT busy % "
          "| DUT wait % |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        md.append("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |" % (
            SCEN_NAME.get(r["scenario"], r["scenario"]), r["cfg"], r["size"],
            f(r["gbps"]), " / ".join(f(x) for x in r["gbps_rounds"]),
            f(r["loss_pct"], "%.2f"), r["rx_len_max"] or "n/a",
            f(r["cycles_per_kib"], "%.0f"), f(r["dut_busy_pct"], "%.0f"),
            f(r["dut_wait_pct"], "%.0f")))
    md.append("")
    if ratios:
        md.append("| scenario | ratio | per round | median |")
        md.append("|---|---|---|---|")
        for (sc, a, b), xs in sorted(ratios.items()):
            md.append("| %s | %s / %s | %s | %s |" % (
                SCEN_NAME.get(sc, sc), a, b, " / ".join(f(x) for x in xs),
                f(med(xs))))
        md.append("")
    return md


def judge(g, rows, ratios):
    """The offload goals into g (blocks.Goals)"""
    by = {(r["scenario"], r["cfg"]): r for r in rows}
    for sc, a, b, target, goal in GOALS:
        xs = ratios.get((sc, a, b))
        x = med(xs) if xs else None
        figs, miss = "", ""
        if x is not None:
            figs = "%s %s Gbit/s, %s %s Gbit/s: %s (%d rounds: %s)" % (
                a, f(by[(sc, a)]["gbps"]), b, f(by[(sc, b)]["gbps"]),
                "%.2fx" % x if x != float("inf") else "%s received nothing"
                % b, len(xs), " / ".join(f(v) for v in xs))
        elif "tcp" not in g.blocks:
            miss = "the tcp block was not run (tools/bench --tcp)"
        elif "tcp " + b in g.skipped:
            miss = "%s: %s" % (b, g.skipped["tcp " + b])
        else:
            miss = "%s or %s: no trial with figures (--tcp-cfgs; or %s " \
                   "received nothing)" % (a, b, b)
        g.add(goal, x, target, figs, miss)
