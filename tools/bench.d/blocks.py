"""tools/bench report helpers for the scale, zero-loss/latency and FDB
blocks, the goals table and the plots (imported by report.py).

Every figure is a median over rounds; every ratio is taken per round
(vsw and the other DUT in the same round) and then the median. A goal
whose figures are missing is "not measured", with the reason: never a
pass.
"""
import os
import re
import shutil
import statistics
import subprocess

DUT_ORDER = ["vsw", "testpmd-io", "ovs-normal", "ovs-flow"]
SUB_DUTS = ["vsw", "testpmd-io", "ovs-normal"]  # scale and latency blocks
FDB_BIG = 1048576


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def f(x, fmt="%.2f"):
    return "n/a" if x is None else fmt % x


def us(ns):
    return None if ns is None else ns / 1000.0


def dist(t, k):
    return (t.get("disturbance") or {}).get(k)


# ---------------------------------------------------------------- scale
def scale_summary(ok, machine):
    """[(ports, dut, row)], per-round ratios {(ports, other): [...]}.
    scale2_from_main: the 2-port point is the main block's v2v 64 B trial
    (one pair; tools/bench does not run it twice)."""
    sc = [t for t in ok if t["block"] == "scale"]
    if machine.get("scale2_from_main") and "2" in str(
            machine.get("scale_ports", "")).split(","):
        sc += [dict(t, ports=2) for t in ok if t["block"] == "main" and
               t["scenario"] == "v2v" and t["size"] == 64 and
               t["dut"] in SUB_DUTS]
    rows = []
    for n in sorted({t.get("ports", 2) for t in sc}):
        for d in DUT_ORDER:
            ts = [t for t in sc if t.get("ports") == n and t["dut"] == d]
            if not ts:
                continue
            rows.append({
                "ports": n, "dut": d, "n": len(ts),
                "rx_mpps": med([t.get("rx_mpps") for t in ts]),
                "offered_mpps": med([t.get("offered_mpps") for t in ts]),
                "loss_pct": med([t.get("loss_pct") for t in ts]),
                "cpp": med([t.get("dut_cycles_per_packet") for t in ts]),
                "ring_full": med([t.get("tx_ring_full_share") for t in ts]),
                "dut_wait_pct": med([dist(t, "dut_wait_pct") for t in ts]),
                "mpps_rounds": [t.get("rx_mpps") for t in
                                sorted(ts, key=lambda t: t["round"])]})
    ratios = per_round_ratios(sc, lambda t: t.get("ports"), "rx_mpps")
    return rows, ratios


def per_round_ratios(ts, keyf, field, num="vsw"):
    """{(key, other): [vsw/other per round]} for trials with the same key
    and round"""
    by = {(keyf(t), t["dut"], t["round"]): t for t in ts}
    out = {}
    for (k, d, r), t in sorted(by.items(), key=lambda kv: str(kv[0])):
        if d == num:
            continue
        v = by.get((k, num, r))
        if v is None or not t.get(field) or v.get(field) is None:
            continue
        out.setdefault((k, d), []).append(v[field] / t[field])
    return out


def scale_md(rows, ratios, from_main):
    md = ["Scale (v2v 64 B, one DUT worker; N vhost-user ports = N/2 "
          "generator pairs forwarding at once, vswgen --pairs)%s:" % (
              "; 2 ports is the main table's v2v 64 B trial (one pair, the "
              "same traffic)" if from_main and any(
                  r["ports"] == 2 for r in rows) else ""), "",
          "| ports | DUT | Mpps (sum, median) | offered Mpps | loss % | "
          "DUT cycles/pkt | gen ring-full | DUT wait % | Mpps per round |",
          "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        md.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["ports"], r["dut"], f(r["rx_mpps"]), f(r["offered_mpps"]),
            f(r["loss_pct"], "%.3f"), f(r["cpp"], "%.0f"),
            f(r["ring_full"] and 100 * r["ring_full"], "%.0f%%"),
            f(r["dut_wait_pct"], "%.0f"),
            " / ".join(f(x) for x in r["mpps_rounds"])))
    if ratios:
        md += ["", "| ports | vsw / other | Mpps ratio per round | median |",
               "|---|---|---|---|"]
        for (n, o), xs in sorted(ratios.items(), key=lambda kv: (
                kv[0][0], DUT_ORDER.index(kv[0][1]))):
            md.append("| %d | vsw/%s | %s | %s |" % (
                n, o, " / ".join(f(x) for x in xs), f(med(xs))))
    return md + [""]


# ---------------------------------------------------------------- latency
def latency_summary(ok):
    zl = [t for t in ok if t["block"] == "zeroloss"]
    lat = [t for t in ok if t["block"] == "latency"]
    zrows = []
    for d in DUT_ORDER:
        ts = sorted([t for t in zl if t["dut"] == d], key=lambda t: t["round"])
        if ts:
            srch = [t.get("search") or {} for t in ts]
            zrows.append({"dut": d, "zero_loss_mpps": med(
                [t.get("zero_loss_mpps") for t in ts]),
                "max_mpps": med([x.get("max_mpps") for x in srch]),
                "rounds": [t.get("zero_loss_mpps") for t in ts],
                # the zero-loss rate against the unpaced rate of its round
                "of_max": [t["zero_loss_mpps"] / x["max_mpps"]
                           for t, x in zip(ts, srch)
                           if t.get("zero_loss_mpps") is not None
                           and x.get("max_mpps")],
                "loss_tol": max([x.get("loss_tolerance_pct") or 0
                                 for x in srch])})
    zratios = per_round_ratios(zl, lambda t: 0, "zero_loss_mpps")
    lrows = []
    for d in DUT_ORDER:
        for pct in sorted({t.get("load_pct") for t in lat
                           if t["dut"] == d}):
            ts = [t for t in lat if t["dut"] == d and t.get("load_pct") == pct]
            row = {"dut": d, "load_pct": pct, "n": len(ts),
                   "rate_mpps": med([(t.get("rate_pps") or 0) / 1e6
                                     for t in ts]),
                   "rx_mpps": med([t.get("rx_mpps") for t in ts]),
                   "loss_pct": med([t.get("loss_pct") for t in ts]),
                   "dut_wait_pct": med([dist(t, "dut_wait_pct") for t in ts])}
            for p in ("p50", "p99", "p999"):
                row[p] = med([(t.get("latency_ns") or {}).get(p) for t in ts])
            lrows.append(row)
    return zrows, zratios, lrows


def ring_size(machine):
    """The generator's rings: the last queue_size of its virtio devargs"""
    qs = re.findall(r"queue_size=(\d+)", machine.get("virtio_devargs") or "")
    return int(qs[-1]) if qs else 1024


def loss_tol(zrows):
    """The loss a search step was allowed (--loss-tolerance), 0: none"""
    return max([r["loss_tol"] for r in zrows] or [0])


def gaps_md(gaps, zrows, ring):
    """The DUT CPU's own gaps against the zero-loss rates"""
    if not gaps:
        return []
    md = ["", "The DUT's CPU with nothing running on it (tools/bench.d/"
          "cpugaps.c, a bare loop reading the clock; gaps between two "
          "reads are the host's, and any worker there stalls as long):", "",
          "| when | seconds | gaps > 100 us | > 250 us | > 1 ms | longest us "
          "| in gaps, us/s | a %d-descriptor ring overflows above |" % ring,
          "|---|---|---|---|---|---|---|---|"]
    for g in gaps:
        lng = g.get("longest_us") or 0
        md.append("| %s | %s | %s | %s | %s | %.0f | %.0f | %s |" % (
            g.get("when"), g.get("seconds"), g.get("gaps_over_100us"),
            g.get("gaps_over_250us"), g.get("gaps_over_1ms"), lng,
            (g.get("in_gaps_us") or 0) / max(g.get("seconds") or 1, 1),
            "%.2f Mpps" % (ring / lng) if lng > 0 else "-"))
    lng = max(g.get("longest_us") or 0 for g in gaps)
    best = max([x for r in zrows for x in r["rounds"] if x] or [0])
    if lng > 0:
        md += ["", "A zero-tolerance search step that holds a gap of %.0f us "
               "fails above %.2f Mpps (%d descriptors / gap) whatever the "
               "switch: its rounds say when such a gap fell more than how "
               "the switch forwards%s." % (
                   lng, ring / lng, ring,
                   "" if best <= ring / lng else
                   " (the best round here, %.2f Mpps, met no such gap)" %
                   best)]
    return md


def latency_md(zrows, zratios, lrows, loads, gaps=(), ring=1024):
    tol = loss_tol(zrows)
    md = ["Zero-loss rate (RFC 2544 binary search by vswgen, v2v 64 B, "
          "2 ports; loss counts frames the TX ring refused too)%s:" % (
              "" if not tol else "; **not zero: a step passed with up to "
              "%g %% lost (--loss-tolerance)**" % tol), "",
          "| DUT | zero-loss Mpps (median) | per round | unpaced max Mpps "
          "| of the max, per round |",
          "|---|---|---|---|---|"]
    for r in zrows:
        md.append("| %s | %s | %s | %s | %s |" % (
            r["dut"], f(r["zero_loss_mpps"], "%.3f"),
            " / ".join(f(x, "%.3f") for x in r["rounds"]),
            f(r["max_mpps"]),
            " / ".join("%.0f %%" % (100 * x) for x in r["of_max"])))
    for (_, o), xs in sorted(zratios.items(), key=lambda kv: DUT_ORDER.index(
            kv[0][1])):
        md.append("")
        md.append("zero-loss vsw/%s per round: %s, median %s" % (
            o, " / ".join(f(x) for x in xs), f(med(xs))))
    md += gaps_md(gaps, zrows, ring)
    md += ["", "Latency at %s %% of each DUT's own zero-loss rate (one "
           "paced trial each, after the search, on the same DUT instance; "
           "generator TX timestamp to RX, so both guests' rings and the "
           "switch):" % ", ".join(str(x) for x in loads), "",
           "| DUT | load % | offered Mpps | forwarded Mpps | loss % | "
           "p50 us | p99 us | p99.9 us | DUT wait % |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in lrows:
        md.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s |" % (
            r["dut"], r["load_pct"], f(r["rate_mpps"], "%.3f"),
            f(r["rx_mpps"], "%.3f"), f(r["loss_pct"], "%.3f"),
            f(us(r["p50"]), "%.1f"), f(us(r["p99"]), "%.1f"),
            f(us(r["p999"]), "%.1f"), f(r["dut_wait_pct"], "%.0f")))
    return md + [""]


# ---------------------------------------------------------------- goals
class Goals:
    """Each goal: met / missed / not measured, its figures, a note."""

    def __init__(self, machine, trials):
        self.machine = machine
        self.trials = trials
        self.rows = []
        self.blocks = set((machine.get("blocks") or
                           "main scale latency fdb tcp vxlan").split())
        self.skipped = {t["block"]: t.get("reason", "")
                        for t in trials if t.get("status") == "skipped"}

    def why_missing(self, block, duts, pred=lambda t: True):
        """Why the figures of DUTS in BLOCK are missing"""
        if {"zeroloss": "latency"}.get(block, block) not in self.blocks:
            return "the %s block was not run (tools/bench --%s)" % (
                block if block != "zeroloss" else "latency",
                {"main": "main", "scale": "scale", "zeroloss": "latency",
                 "latency": "latency", "fdb": "fdb-scale"}[block])
        if block in self.skipped:
            return self.skipped[block]
        for d in duts:
            if d in self.skipped:
                return "%s: %s" % (d, self.skipped[d])
            ts = [t for t in self.trials if t.get("block") == block and
                  t.get("dut") == d and pred(t)]
            if not ts:
                return "%s: no such trial (not in --duts, or outside the " \
                       "block's settings)" % d
            if all(t.get("status") != "ok" for t in ts):
                err = (ts[-1].get("error") or "no generator output").strip()
                return "%s: trial%s failed: %s" % (
                    d, "" if block != "fdb" else " at %d MACs" % ts[-1].get(
                        "macs", 1), err.splitlines()[-1][:160] if err else "")
        return "figures missing"

    def add(self, goal, value, target, figures, missing, note="",
            lower_is_better=False, unit="x"):
        if value is None:
            verdict, shown = "not measured", missing
        else:
            good = value < target if lower_is_better else value >= target
            verdict = "met" if good else "missed"
            shown = figures
            if not good and not lower_is_better and unit == "x":
                shown += "; short by %.0f %%" % (100 * (1 - value / target))
        self.rows.append({"goal": goal, "verdict": verdict,
                          "value": value, "target": target,
                          "figures": shown, "note": note})

    def md(self):
        md = ["Goals (issues 12, 20 and 23), judged on this run's figures:", "",
              "| goal | verdict | figures | note |", "|---|---|---|---|"]
        for r in self.rows:
            md.append("| %s | **%s** | %s | %s |" % (
                r["goal"], r["verdict"], r["figures"], r["note"]))
        return md + [""]


def gen_note(rows):
    """A caution when the generator, not the DUT, set the rate"""
    lim = [r["dut"] for r in rows if r and r.get("tx_ring_full_share")
           is not None and r["tx_ring_full_share"] < 0.5]
    dis = [r["dut"] for r in rows if r and (r.get("dut_wait_pct") or 0) > 5]
    n = []
    if lim:
        n.append("generator-bound for %s (TX ring full in < 50 %% of "
                 "bursts): the Mpps ratio says little, compare cycles/pkt"
                 % ", ".join(lim))
    if dis:
        n.append("disturbed: DUT worker waited for its CPU > 5 %% (%s)"
                 % ", ".join(dis))
    return "; ".join(n)


def judge(machine, trials, summary, ratio_med, scale_rows, scale_ratios,
          zrows, zratios, lrows, fdb):
    g = Goals(machine, trials)
    main64 = {r["dut"]: r for r in summary
              if r["scenario"] == "v2v" and r["size"] == 64}
    v64 = lambda t: t.get("scenario") == "v2v" and t.get("size") == 64

    def main_goal(other, target):
        x = ratio_med("v2v", 64, other, "mpps_ratio")
        v, o = main64.get("vsw"), main64.get(other)
        figs = ""
        if x is not None:
            figs = "vsw %s Mpps, %s %s Mpps: %.2fx (cycles/pkt %s vs %s)" % (
                f(v["rx_mpps"]), other, f(o["rx_mpps"]), x,
                f(v["dut_cycles_per_packet"], "%.0f"),
                f(o["dut_cycles_per_packet"], "%.0f"))
        g.add("v2v 64 B: vsw >= %.1fx %s" % (target, other), x, target, figs,
              g.why_missing("main", ["vsw", other], v64),
              gen_note([v, o]) if x is not None else "")

    main_goal("ovs-normal", 1.5)
    main_goal("testpmd-io", 1.0)

    # 32 ports
    xs = scale_ratios.get((32, "ovs-normal"))
    x = med(xs) if xs else None
    sr = {(r["ports"], r["dut"]): r for r in scale_rows}
    figs = ""
    if x is not None:
        v, o = sr.get((32, "vsw")), sr.get((32, "ovs-normal"))
        figs = "vsw %s Mpps, ovs-normal %s Mpps: %.2fx (cycles/pkt %s vs " \
               "%s)" % (f(v["rx_mpps"]), f(o["rx_mpps"]), x,
                        f(v["cpp"], "%.0f"), f(o["cpp"], "%.0f"))
    ports = str(machine.get("scale_ports", ""))
    miss = (g.why_missing("scale", ["vsw", "ovs-normal"],
                          lambda t: t.get("ports") == 32)
            if "32" in ports.split(",") or "scale" not in g.blocks
            or "scale" in g.skipped
            else "32 is not in --scale-ports (%s)" % ports)
    note = ""
    if x is not None:
        note = gen_note([{"dut": d, "tx_ring_full_share":
                          sr[(32, d)]["ring_full"],
                          "dut_wait_pct": sr[(32, d)]["dut_wait_pct"]}
                         for d in ("vsw", "ovs-normal")])
    g.add("32 ports: vsw >= 1.5x ovs-normal", x, 1.5, figs, miss, note)

    # zero-loss
    xs = zratios.get((0, "ovs-normal"))
    x = med(xs) if xs else None
    z = {r["dut"]: r for r in zrows}
    figs, miss = "", g.why_missing("zeroloss", ["vsw", "ovs-normal"])
    if x is not None:
        figs = "vsw %s Mpps, ovs-normal %s Mpps: %.2fx" % (
            f(z["vsw"]["zero_loss_mpps"], "%.3f"),
            f(z["ovs-normal"]["zero_loss_mpps"], "%.3f"), x)
    elif "vsw" in z and "ovs-normal" in z:
        miss = "a zero-loss rate of 0 (vsw %s, ovs-normal %s Mpps): no " \
               "loss-free rate found, the ratio means nothing" % (
                   f(z["vsw"]["zero_loss_mpps"], "%.3f"),
                   f(z["ovs-normal"]["zero_loss_mpps"], "%.3f"))
    tol = loss_tol(zrows)
    at = "" if not tol else " (at <= %g %% loss, --loss-tolerance)" % tol
    g.add("zero-loss rate: vsw >= 1.5x ovs-normal" + at, x, 1.5, figs, miss)
    v = z.get("vsw")
    x = med(v["of_max"]) if v and v["of_max"] else None
    figs = "" if x is None else \
        "vsw %s Mpps of %s unpaced (median of the per-round shares %s)" % (
            f(v["zero_loss_mpps"], "%.3f"), f(v["max_mpps"]),
            " / ".join("%.0f %%" % (100 * y) for y in v["of_max"]))
    g.add("zero-loss rate: vsw >= 60 % of its own unpaced rate" + at, x,
          0.6, figs, g.why_missing("zeroloss", ["vsw"]), unit="share")

    # p99 at 50 %
    lr = {(r["dut"], r["load_pct"]): r for r in lrows}
    v, o = lr.get(("vsw", 50)), lr.get(("ovs-normal", 50))
    x = None
    figs = ""
    if v and o and v["p99"] is not None and o["p99"] is not None:
        x = v["p99"] / o["p99"]
        figs = "vsw p99 %s us at %s Mpps, ovs-normal %s us at %s Mpps: " \
               "%.2fx" % (f(us(v["p99"]), "%.1f"), f(v["rate_mpps"], "%.3f"),
                          f(us(o["p99"]), "%.1f"), f(o["rate_mpps"], "%.3f"),
                          x)
    loads = str(machine.get("latency_loads", "")).split(",")
    miss = (g.why_missing("latency", ["vsw", "ovs-normal"],
                          lambda t: t.get("load_pct") == 50)
            if "50" in loads or "latency" not in g.blocks
            else "50 is not in --latency-loads")
    g.add("p99 latency at 50 % load: vsw below ovs-normal", x, 1.0, figs,
          miss, gen_note([v, o]) if x is not None else "",
          lower_is_better=True)

    # FDB
    fr = {r["macs"]: r for r in fdb}
    x, figs = None, ""
    if 1 in fr and FDB_BIG in fr and fr[FDB_BIG]["cpp_increase_pct"] \
            is not None:
        x = fr[FDB_BIG]["cpp_increase_pct"]
        figs = "%s cycles/pkt at 1M MACs vs %s at 1: %+.1f %%" % (
            f(fr[FDB_BIG]["cpp"], "%.0f"), f(fr[1]["cpp"], "%.0f"), x)
    macs = str(machine.get("fdb_macs", "")).split(",")
    miss = "--fdb-macs needs 1 and 1048576"
    if "fdb" not in g.blocks or ("1" in macs and str(FDB_BIG) in macs):
        whys = [g.why_missing("fdb", ["vsw"], lambda t, m=m: t.get("macs") == m)
                for m in (1, FDB_BIG)]
        miss = "; ".join(sorted(set(w for w in whys if w != "figures missing"))
                         ) or "figures missing"
    g.add("FDB: 1M MACs < 15 % more cycles/pkt than 1", x, 15.0, figs, miss,
          gen_note([dict(r, dut="%d MACs" % r["macs"]) for r in fdb])
          if x is not None else "", lower_is_better=True, unit="%")
    return g


# ---------------------------------------------------------------- plots
def gnuplot(out, name, body, plots, size="800,450"):
    """NAME.gp in OUT (paths relative to OUT), run there; NAME.png"""
    gp = ("set terminal pngcairo size %s font ',10'\n"
          "set output '%s.png'\n" % (size, name)) + body
    with open(os.path.join(out, name + ".gp"), "w") as fd:
        fd.write(gp)
    r = subprocess.run(["gnuplot", name + ".gp"], cwd=out,
                       stderr=subprocess.PIPE)
    if r.returncode == 0:
        plots.append(name)
    else:
        print("bench: gnuplot %s.gp: %s" % (
            name, r.stderr.decode(errors="replace").strip()[-300:]))


COLORS = {"vsw": "#d62728", "testpmd-io": "#7f7f7f", "ovs-normal": "#1f77b4",
          "ovs-flow": "#17becf"}


def colors(duts):
    """gnuplot line types 1..N coloured by DUT: the same colour for a DUT
    in every plot, whichever DUTs ran"""
    return "".join("set linetype %d lc rgb '%s' lw 2\n" % (
        i + 1, COLORS.get(d, "black")) for i, d in enumerate(duts))


def dat(out, name, header, rows):
    with open(os.path.join(out, name), "w") as fd:
        fd.write(" ".join(header) + "\n")
        for r in rows:
            fd.write(" ".join("?" if x is None else str(x) for x in r) + "\n")


def plot_scale(out, rows, title, plots):
    if not rows:
        return
    duts = [d for d in DUT_ORDER if any(r["dut"] == d for r in rows)]
    ports = sorted({r["ports"] for r in rows})
    get = {(r["ports"], r["dut"]): r for r in rows}
    for key, name, ylabel in (("rx_mpps", "scale-mpps", "forwarded Mpps "
                               "(sum of the pairs, median)"),
                              ("cpp", "scale-cycles", "DUT cycles/packet "
                               "(median)")):
        dat(out, name + ".dat", ["ports"] + duts,
            [[n] + [(get.get((n, d)) or {}).get(key) for d in duts]
             for n in ports])
        gnuplot(out, name, colors(duts) +
                "set datafile missing '?'\nset logscale x 2\n"
                "set xtics (%s)\nset xlabel 'vhost-user ports (pairs x 2), "
                "one worker'\nset ylabel '%s'\nset yrange [0:*]\n"
                "set grid\nset key outside right top autotitle columnheader\n"
                "set title '%s'\nplot for [i=2:%d] '%s.dat' using 1:i "
                "with linespoints pt 7 lw 2\n" % (
                    ", ".join(str(n) for n in ports), ylabel, title,
                    len(duts) + 1, name), plots)


def plot_latency(out, lrows, title, plots):
    if not lrows:
        return
    duts = [d for d in DUT_ORDER if any(r["dut"] == d for r in lrows)]
    loads = sorted({r["load_pct"] for r in lrows})
    get = {(r["dut"], r["load_pct"]): r for r in lrows}
    for p in ("p50", "p99", "p999"):
        dat(out, "latency-%s.dat" % p, ["load"] + duts,
            [[n] + [us((get.get((d, n)) or {}).get(p)) for d in duts]
             for n in loads])
    body = colors(duts) + ("set size 1,1\nset multiplot layout 1,3 title '%s'\n"
            "set datafile missing '?'\nset logscale y\nset grid\n"
            "set xlabel '%% of the DUT zero-loss rate'\nset xrange [0:100]\n"
            "set key top left autotitle columnheader\n" % title)
    for p, lab in (("p50", "p50"), ("p99", "p99"), ("p999", "p99.9")):
        body += ("set title '%s'\nset ylabel 'latency us'\n"
                 "plot for [i=2:%d] 'latency-%s.dat' using 1:i with "
                 "linespoints pt 7 lw 2\n" % (lab, len(duts) + 1, p))
    body += "unset multiplot\n"
    gnuplot(out, "latency", body, plots, size="1200,450")


def copy_plots(out, plots, dest, date):
    """DEST/bench-YYYYMMDD-NAME.png for each plot; the names"""
    os.makedirs(dest, exist_ok=True)
    names = []
    for p in plots:
        n = "bench-%s-%s.png" % (date.replace("-", ""), p)
        shutil.copyfile(os.path.join(out, p + ".png"), os.path.join(dest, n))
        names.append(os.path.join(dest, n))
    return names
