#!/usr/bin/env python3
"""Records and report of tools/bench-notify.

  report.py trial KIND EXTRA GEN BEFORE AFTER SCHED0 SCHED1  -> one JSON line
  report.py vmtrial EXTRA GEN AFTER SAMPLE0 SAMPLE1           -> one JSON line
  report.py vmidle SAMPLE0 SAMPLE1 QUEUES_JSON                -> one JSON line
  report.py idle MODE SCHED0 SCHED1 WORKERS0 WORKERS1         -> one JSON line
  report.py show TRIALS            (the last record, short, for the log)
  report.py report TRIALS MACHINE OUTDIR
      prints the tables (markdown) and, last, the one-line summary; writes
      OUTDIR/results.json and OUTDIR/results.md

SCHEDn: "<worker ns on CPU> <worker ns waiting for a CPU> <wall ns>".
SAMPLEn: a guest line "VSW-S: UPTIME irq=N dev=BYTES PACKETS ERRS DROP ...".
"""
import json
import statistics
import sys


def load(path):
    try:
        with open(path) as f:
            txt = f.read().strip()
        if not txt:
            return None
        try:
            return json.loads(txt)
        except ValueError:
            return json.loads(txt.splitlines()[-1])
    except (OSError, ValueError, IndexError):
        return None


def num(v):
    if isinstance(v, (int, float)):
        return v
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def delta(a, b):
    """b - a over numeric fields of two flat dicts."""
    a = a or {}
    b = b or {}
    out = {}
    for k, v in b.items():
        if isinstance(v, (int, float)) and isinstance(a.get(k, 0), (int, float)):
            out[k] = v - a.get(k, 0)
        else:
            out[k] = v
    return out


def div(a, b, nd=4):
    if a is None or b in (None, 0):
        return None
    return round(a / b, nd)


def sched(s):
    p = s.split()
    return [int(x) for x in p] if len(p) == 3 else [0, 0, 0]


def sample(s):
    """Guest sample line -> (uptime, irq, rx_packets, rx_drop)."""
    try:
        head, dev = s.split("VSW-S:", 1)[1].split("dev=", 1)
        head = head.split()
        up = float(head[0])
        irq = int(head[1].split("=")[1])
        dev = dev.split()  # bytes packets errs drop ...
        return up, irq, int(dev[1]), int(dev[3])
    except (IndexError, ValueError):
        return None


def gen_fields(g):
    g = g or {}
    lat = g.get("latency_ns") or {}
    us = lambda k: round(lat[k] / 1000, 1) if isinstance(lat.get(k), (int, float)) and lat.get("samples") else None
    return {
        "gen_ok": bool(g),
        "tx_packets": g.get("tx_packets"), "rx_packets": g.get("rx_packets"),
        "offered_mpps": g.get("offered_mpps"), "rx_mpps": g.get("rx_mpps"),
        "loss_pct": g.get("loss_pct"), "tx_ring_full": g.get("tx_ring_full"),
        "lat_p50_us": us("p50"), "lat_p90_us": us("p90"), "lat_p99_us": us("p99"),
        "lat_p999_us": us("p999"), "lat_max_us": us("max"),
    }


def cmd_trial(kind, extra, genf, bf, af, s0, s1, midf):
    rec = {"kind": kind}
    rec.update(json.loads(extra))
    rec.update(gen_fields(load(genf)))
    B = load(bf) or {}
    A = load(af) or {}
    w = delta((B.get("/vsw/workers") or {}).get("worker0"), (A.get("/vsw/workers") or {}).get("worker0"))
    q0 = delta(((B.get("/vsw/queues,vm0") or {}).get("q0")), ((A.get("/vsw/queues,vm0") or {}).get("q0")))
    q1 = delta(((B.get("/vsw/queues,vm1") or {}).get("q0")), ((A.get("/vsw/queues,vm1") or {}).get("q0")))
    p1 = delta(B.get("/vsw/port,vm1"), A.get("/vsw/port,vm1"))
    p0 = delta(B.get("/vsw/port,vm0"), A.get("/vsw/port,vm0"))
    rec.update({
        "kicks": q0.get("kicks"), "vm0_rx": q0.get("rx_packets"),
        "kicks_per_pkt": div(q0.get("kicks"), q0.get("rx_packets"), 5),
        "port_guest_kicks_vm0": p0.get("guest_kicks"),
        "wants_vm0": (((load(midf) or {}).get("/vsw/queues,vm0") or {}).get("q0") or {}).get("guest_wants"),
        "wants_vm1": (((load(midf) or {}).get("/vsw/queues,vm1") or {}).get("q0") or {}).get("guest_wants"),
        "kicks_suppressed_vm0": q0.get("kicks_suppressed"),
        "calls_vm1": q1.get("calls"), "enqueues_vm1": q1.get("enqueues"),
        "enqueued_vm1": q1.get("enqueued"),
        "calls_per_pkt": div(q1.get("calls"), q1.get("enqueued"), 5),
        "pkts_per_enqueue": div(q1.get("enqueued"), q1.get("enqueues"), 2),
        "tx_flushes_vm1": p1.get("tx_flushes"),
        "pkts_per_flush": div(p1.get("tx_packets"), p1.get("tx_flushes"), 2),
        "drop_tx_full_vm1": p1.get("drop_tx_full"),
        "busy_cycles": w.get("busy_cycles"), "w_rx_packets": w.get("rx_packets"),
        "cyc_per_pkt": div(w.get("busy_cycles"), w.get("rx_packets"), 1),
        "sleeps": w.get("sleeps"), "wakeups_rx": w.get("wakeups_rx"), "sleep_us": w.get("sleep_us"),
    })
    a, b = sched(s0), sched(s1)
    wall = b[2] - a[2]
    rec["worker_cpu_pct"] = div(100.0 * (b[0] - a[0]), wall, 1)
    rec["worker_wait_pct"] = div(100.0 * (b[1] - a[1]), wall, 1)
    print(json.dumps(rec))


def cmd_vmtrial(extra, genf, af, sa, sb):
    rec = {"kind": "vm"}
    rec.update(json.loads(extra))
    g = load(genf) or {}
    A = load(af) or {}
    q1 = (A.get("/vsw/queues,vm1") or {}).get("q0") or {}
    p1 = A.get("/vsw/port,vm1") or {}
    p0 = A.get("/vsw/port,vm0") or {}
    a, b = sample(sa), sample(sb)
    rec.update({
        "gen_ok": bool(g), "sent": g.get("tx_packets"), "offered_pps": round((g.get("offered_mpps") or 0) * 1e6),
        "gen_tx_dropped": g.get("tx_dropped"),
        "vm0_rx": p0.get("rx_packets"), "vm1_tx": p1.get("tx_packets"),
        "drop_tx_full": p1.get("drop_tx_full"), "drops_vm1": p1.get("drops"),
        "tx_flushes": p1.get("tx_flushes"),
        "pkts_per_flush": div(p1.get("tx_packets"), p1.get("tx_flushes"), 2),
        "calls": q1.get("calls"), "enqueues": q1.get("enqueues"), "enqueued": q1.get("enqueued"),
        "calls_per_pkt": div(q1.get("calls"), q1.get("enqueued"), 4),
        "pkts_per_enqueue": div(q1.get("enqueued"), q1.get("enqueues"), 2),
        "guest_wants": q1.get("guest_wants"), "kicks_vm1": q1.get("kicks"),
    })
    if a and b:
        rec.update({"guest_dt_s": round(b[0] - a[0], 2), "guest_irqs": b[1] - a[1],
                    "guest_rx": b[2] - a[2], "guest_rx_drop": b[3] - a[3],
                    "irqs_per_pkt": div(b[1] - a[1], b[2] - a[2], 4)})
    else:
        rec["guest_sample_error"] = True
    print(json.dumps(rec))


def cmd_vmidle(sa, sb, qj):
    a, b = sample(sa), sample(sb)
    rec = {"kind": "vm_idle"}
    try:
        rec["guest_wants"] = json.loads(qj)["/vsw/queues,vm1"]["q0"]["guest_wants"]
    except (ValueError, KeyError, TypeError):
        pass
    if a and b and b[0] > a[0]:
        rec.update({"dt_s": round(b[0] - a[0], 2), "irqs": b[1] - a[1],
                    "irqs_per_s": round((b[1] - a[1]) / (b[0] - a[0]), 2)})
    print(json.dumps(rec))


def cmd_idle(mode, s0, s1, w0, w1):
    a, b = sched(s0), sched(s1)
    wall = b[2] - a[2]
    try:
        x = json.loads(w0)["/vsw/workers"]["worker0"]
        y = json.loads(w1)["/vsw/workers"]["worker0"]
    except (ValueError, KeyError, TypeError):
        x = y = {}
    d = delta(x, y)
    rec = {"kind": "idle", "mode": mode, "wall_s": round(wall / 1e9, 2),
           "worker_cpu_pct": div(100.0 * (b[0] - a[0]), wall, 2),
           "worker_wait_pct": div(100.0 * (b[1] - a[1]), wall, 2),
           "sleeps_per_s": div(d.get("sleeps"), wall / 1e9, 0),
           "wakeups_rx": d.get("wakeups_rx"), "rx_packets": d.get("rx_packets")}
    print(json.dumps(rec))


SHOW = ["kind", "mode", "rate", "interval", "round", "rx_mpps", "loss_pct", "kicks_per_pkt",
        "calls_per_pkt", "pkts_per_enqueue", "pkts_per_flush", "cyc_per_pkt", "lat_p50_us",
        "lat_p99_us", "worker_cpu_pct", "worker_wait_pct", "sent", "guest_rx", "guest_irqs",
        "drop_tx_full", "irqs_per_s", "guest_wants", "wants_vm0", "wants_vm1"]


def cmd_show(path):
    with open(path) as f:
        lines = [l for l in f if l.strip()]
    if not lines:
        return
    r = json.loads(lines[-1])
    print("   " + " ".join("%s=%s" % (k, r[k]) for k in SHOW if k in r and r[k] is not None))


# ---------------------------------------------------------------- report
def med(vals):
    v = [x for x in vals if isinstance(x, (int, float))]
    return statistics.median(v) if v else None


def f(v, fmt="%.2f"):
    if v is None:
        return "n/a"
    return fmt % v


def per_round(rs, key, fmt="%.2f"):
    return " / ".join(f(r.get(key), fmt) for r in sorted(rs, key=lambda r: r.get("round", 0)))


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def rate_name(r):
    return "max" if r == 0 else ("%g Mpps" % (r / 1e6) if r >= 1e6 else "%g kpps" % (r / 1e3))


def cmd_report(path, machf, outdir):
    recs = []
    with open(path) as fh:
        for l in fh:
            if l.strip():
                recs.append(json.loads(l))
    mach = load(machf) or {}
    by = lambda kind, **kw: [r for r in recs if r.get("kind") == kind and all(r.get(k) == v for k, v in kw.items())]
    md = []
    res = {"machine": mach, "a": [], "lat": [], "vm": [], "idle": [], "wake": [], "tput": []}
    summ = {}

    # a) kicks
    a_rows = []
    for rate in (1000000, 0):
        for m in ("on", "off"):
            rs = by("a", rate=rate, mode=m)
            if not rs:
                continue
            row = {"rate": rate_name(rate), "kick_suppression": m,
                   "kicks_per_pkt": med(r["kicks_per_pkt"] for r in rs),
                   "calls_per_pkt": med(r["calls_per_pkt"] for r in rs),
                   "rx_mpps": med(r["rx_mpps"] for r in rs),
                   "loss_pct": med(r["loss_pct"] for r in rs),
                   "cyc_per_pkt": med(r["cyc_per_pkt"] for r in rs),
                   "wait_pct": med(r["worker_wait_pct"] for r in rs),
                   "wants": "%s / %s" % (rs[-1].get("wants_vm0"), rs[-1].get("wants_vm1")),
                   "rounds": len(rs)}
            res["a"].append(row)
            a_rows.append([row["rate"], m, f(row["kicks_per_pkt"], "%.4f"), f(row["calls_per_pkt"], "%.4f"),
                           row["wants"], f(row["rx_mpps"], "%.3f"), f(row["loss_pct"], "%.3f"),
                           f(row["cyc_per_pkt"], "%.0f"), per_round(rs, "rx_mpps", "%.3f"),
                           per_round(rs, "kicks_per_pkt", "%.4f"), per_round(rs, "cyc_per_pkt", "%.0f"),
                           f(row["wait_pct"], "%.0f")])
            if rate == 1000000:
                summ["kpp_" + m] = row["kicks_per_pkt"]
                summ.setdefault("calls_pmd", []).append(row["calls_per_pkt"])
    if a_rows:
        md.append("### a) Guest kicks with virtio-PMD guests (vswgen v2v, 64 B)\n")
        md.append(table(["offered", "kick-suppression", "kicks/pkt (vm0 q0)", "calls/pkt (vm1 q0)",
                         "guest_wants vm0 / vm1", "rx Mpps", "loss %", "vsw cycles/pkt",
                         "rx Mpps per round", "kicks/pkt per round", "cycles/pkt per round",
                         "worker wait %"], a_rows))

    # b) latency vs flush interval (PMD)
    l_rows = []
    for rate in (10000, 100000):
        for iv in (0, 50, 200):
            rs = by("lat", rate=rate, interval=iv)
            if not rs:
                continue
            row = {"rate": rate, "interval_us": iv,
                   "p50_us": med(r["lat_p50_us"] for r in rs), "p99_us": med(r["lat_p99_us"] for r in rs),
                   "max_us": med(r["lat_max_us"] for r in rs),
                   "pkts_per_flush": med(r["pkts_per_flush"] for r in rs),
                   "pkts_per_enqueue": med(r["pkts_per_enqueue"] for r in rs),
                   "calls_per_pkt": med(r["calls_per_pkt"] for r in rs),
                   "loss_pct": med(r["loss_pct"] for r in rs)}
            res["lat"].append(row)
            l_rows.append([rate_name(rate), iv, f(row["p50_us"], "%.1f"), f(row["p99_us"], "%.1f"),
                           f(row["max_us"], "%.0f"), f(row["pkts_per_flush"]), f(row["pkts_per_enqueue"]),
                           f(row["calls_per_pkt"], "%.4f"), f(row["loss_pct"], "%.3f"),
                           per_round(rs, "lat_p50_us", "%.1f"), per_round(rs, "lat_p99_us", "%.1f")])
            if rate == 10000:
                summ["lat50_%d" % iv] = row["p50_us"]
    if l_rows:
        md.append("\n### b1) Flush interval vs latency, virtio-PMD guests (v2v, single 64 B frames)\n")
        md.append(table(["offered", "tx-flush-interval-us", "latency p50 µs", "p99 µs", "max µs",
                         "pkts/flush (vm1)", "pkts/enqueue (vm1)", "calls/pkt", "loss %",
                         "p50 per round", "p99 per round"], l_rows))

    # b) kernel guest
    v_rows = []
    idle = by("vm_idle")
    err = by("vm_error")
    for rate in (2000, 20000, 100000):
        for iv in (0, 50, 200):
            rs = by("vm", rate=rate, interval=iv)
            if not rs:
                continue
            row = {"rate": rate, "interval_us": iv, "burst": rs[0].get("burst"),
                   "offered_pps": med(r["offered_pps"] for r in rs),
                   "sent": med(r["sent"] for r in rs), "guest_rx": med(r.get("guest_rx") for r in rs),
                   "calls": med(r["calls"] for r in rs),
                   "calls_per_pkt": med(r["calls_per_pkt"] for r in rs),
                   "pkts_per_enqueue": med(r["pkts_per_enqueue"] for r in rs),
                   "pkts_per_flush": med(r["pkts_per_flush"] for r in rs),
                   "guest_irqs": med(r.get("guest_irqs") for r in rs),
                   "irqs_per_pkt": med(r.get("irqs_per_pkt") for r in rs),
                   "drop_tx_full": med(r["drop_tx_full"] for r in rs),
                   "guest_rx_drop": med(r.get("guest_rx_drop") for r in rs),
                   "guest_wants": rs[-1].get("guest_wants"), "rounds": len(rs)}
            res["vm"].append(row)
            v_rows.append([rate_name(rate), row["burst"], iv, f(row["offered_pps"], "%.0f"),
                           f(row["sent"], "%.0f"), f(row["guest_rx"], "%.0f"), f(row["calls"], "%.0f"),
                           f(row["calls_per_pkt"], "%.4f"), f(row["pkts_per_enqueue"]),
                           f(row["pkts_per_flush"]), f(row["guest_irqs"], "%.0f"),
                           f(row["irqs_per_pkt"], "%.4f"), f(row["drop_tx_full"], "%.0f"),
                           f(row["guest_rx_drop"], "%.0f")])
            summ.setdefault("vm_by_rate", {}).setdefault(rate, {})[iv] = row["calls_per_pkt"]
    if v_rows or err:
        md.append("\n### b2) Flush interval vs an interrupt-driven Linux guest (QEMU/TCG, virtio-net INTx) on vm1\n")
        if err:
            md.append("Not measured: %s\n" % err[-1].get("error"))
        if idle:
            md.append("Guest wants: `%s`; idle baseline: %s virtio interrupts/s with no traffic.\n"
                      % (idle[-1].get("guest_wants"), idle[-1].get("irqs_per_s", "n/a")))
        if v_rows:
            md.append(table(["offered", "gen burst", "tx-flush-interval-us", "offered pps (measured)",
                             "sent", "guest rx (eth0)", "calls", "calls/pkt", "pkts/enqueue",
                             "pkts/flush", "guest virtio IRQs", "IRQs/pkt (guest)",
                             "vsw drops tx_full", "guest rx drop (no handler)"], v_rows))

    # c) adaptive vs busy
    c_md = []
    irs = by("idle")
    if irs:
        c_md.append(table(["poll-mode", "worker CPU % (no traffic)", "worker wait %", "sleeps/s", "window s"],
                          [[r["mode"], f(r["worker_cpu_pct"], "%.1f"), f(r["worker_wait_pct"], "%.1f"),
                            f(r["sleeps_per_s"], "%.0f"), r["wall_s"]] for r in irs]))
        for r in irs:
            summ["idle_" + r["mode"]] = r["worker_cpu_pct"]
        res["idle"] = irs
    w_rows = []
    for m in ("busy", "adaptive"):
        rs = by("wake", mode=m)
        if not rs:
            continue
        row = {"mode": m, "p50_us": med(r["lat_p50_us"] for r in rs), "p99_us": med(r["lat_p99_us"] for r in rs),
               "max_us": med(r["lat_max_us"] for r in rs), "loss_pct": med(r["loss_pct"] for r in rs),
               "sleeps": med(r["sleeps"] for r in rs), "wakeups_rx": med(r["wakeups_rx"] for r in rs),
               "rx_packets": med(r["rx_packets"] for r in rs)}
        res["wake"].append(row)
        w_rows.append([m, f(row["p50_us"], "%.1f"), f(row["p99_us"], "%.1f"), f(row["max_us"], "%.0f"),
                       f(row["loss_pct"], "%.3f"), f(row["sleeps"], "%.0f"), f(row["wakeups_rx"], "%.0f"),
                       f(row["rx_packets"], "%.0f"), per_round(rs, "lat_p50_us", "%.1f"),
                       per_round(rs, "lat_p99_us", "%.1f")])
        summ["wake_" + m] = row
    if w_rows:
        c_md.append("\nWake latency: v2v, 1000 pps of single 64 B frames (each finds an idle worker):\n")
        c_md.append(table(["poll-mode", "latency p50 µs", "p99 µs", "max µs", "loss %", "worker sleeps",
                           "wake-ups by a kick", "frames received", "p50 per round", "p99 per round"], w_rows))
    t_rows = []
    tb = {r["round"]: r for r in by("tput", mode="busy")}
    ta = {r["round"]: r for r in by("tput", mode="adaptive")}
    ratios = [div(ta[k]["rx_mpps"], tb[k]["rx_mpps"], 3) for k in sorted(ta) if k in tb]
    cratios = [div(ta[k]["cyc_per_pkt"], tb[k]["cyc_per_pkt"], 3) for k in sorted(ta) if k in tb]
    for m, d in (("busy", tb), ("adaptive", ta)):
        rs = list(d.values())
        if not rs:
            continue
        row = {"mode": m, "rx_mpps": med(r["rx_mpps"] for r in rs), "loss_pct": med(r["loss_pct"] for r in rs),
               "cyc_per_pkt": med(r["cyc_per_pkt"] for r in rs), "wait_pct": med(r["worker_wait_pct"] for r in rs)}
        res["tput"].append(row)
        t_rows.append([m, f(row["rx_mpps"], "%.3f"), f(row["loss_pct"], "%.3f"), f(row["cyc_per_pkt"], "%.0f"),
                       per_round(rs, "rx_mpps", "%.3f"), per_round(rs, "cyc_per_pkt", "%.0f"),
                       f(row["wait_pct"], "%.0f")])
    if t_rows:
        c_md.append("\nThroughput under load: v2v 64 B, maximum rate:\n")
        c_md.append(table(["poll-mode", "rx Mpps", "loss %", "vsw cycles/pkt", "Mpps per round",
                           "cycles/pkt per round", "worker wait %"], t_rows))
        c_md.append("\nadaptive/busy Mpps per round: %s (median %s); cycles/pkt adaptive/busy per round: %s (median %s)"
                    % (" / ".join(f(x, "%.3f") for x in ratios), f(med(ratios), "%.3f"),
                       " / ".join(f(x, "%.3f") for x in cratios), f(med(cratios), "%.3f")))
        res["tput_ratio_median"] = med(ratios)
        res["tput_cyc_ratio_median"] = med(cratios)
    if c_md:
        md.append("\n### c) poll-mode adaptive vs busy\n")
        md.append("Worker CPU with no traffic (both virtio-user guests connected, idle), %s:\n"
                  % "from /proc/PID/task/TID/schedstat")
        md += c_md

    # summary
    def g(v, fmt):
        return f(v, fmt)
    parts = ["notify:"]
    parts.append("kicks/pkt on=%s off=%s" % (g(summ.get("kpp_on"), "%.4f"), g(summ.get("kpp_off"), "%.4f")))
    cp = [x for x in summ.get("calls_pmd", []) if x is not None]
    parts.append("calls/pkt(pmd)=%s" % (g(max(cp), "%.4g") if cp else "n/a"))
    vm = summ.get("vm_by_rate", {}).get(2000)
    if vm:
        parts.append("calls/pkt(kernel@2kpps,0/50/200us)=%s" % "/".join(g(vm.get(iv), "%.3f") for iv in (0, 50, 200)))
    elif by("vm_error"):
        parts.append("calls/pkt(kernel)=n/a(%s)" % by("vm_error")[-1].get("error"))
    if "lat50_0" in summ:
        parts.append("flush_p50(10kpps,0/50/200us)=%s/%s/%sus" % (g(summ.get("lat50_0"), "%.1f"),
                                                                 g(summ.get("lat50_50"), "%.1f"),
                                                                 g(summ.get("lat50_200"), "%.1f")))
    parts.append("idle_cpu busy=%s%% adaptive=%s%%" % (g(summ.get("idle_busy"), "%.0f"),
                                                      g(summ.get("idle_adaptive"), "%.1f")))
    wa, wb = summ.get("wake_adaptive"), summ.get("wake_busy")
    if wa and wb and wa["p50_us"] is not None and wb["p50_us"] is not None:
        parts.append("wake_p50=%+.1fus wake_p99=%+.1fus" % (wa["p50_us"] - wb["p50_us"],
                                                            (wa["p99_us"] or 0) - (wb["p99_us"] or 0)))
    parts.append("throughput adaptive/busy=%s" % g(res.get("tput_ratio_median"), "%.3f"))
    summary = " ".join(parts)
    res["summary"] = summary

    head = ("Machine: %s; worker CPU %s, generator/QEMU/other threads CPU %s; DPDK %s; QEMU %s; "
            "hugepages: %s; vsw %s; %s; placement probe %s ns.\n"
            % (mach.get("cpu_model"), mach.get("dut_cpu"), mach.get("gen_cpu"), mach.get("dpdk"),
               mach.get("qemu"), mach.get("hugepages"), mach.get("vsw_commit"), mach.get("date"),
               mach.get("placement_probe_ns")))
    text = "Command: `%s`\n\n%s\n%s\n\nSummary: `%s`\n" % (mach.get("command"), head, "\n".join(md), summary)
    with open(outdir + "/results.md", "w") as fh:
        fh.write(text)
    with open(outdir + "/results.json", "w") as fh:
        json.dump(res, fh, indent=1)
    print(text)
    print(summary)


def main(a):
    c = a[1] if len(a) > 1 else ""
    if c == "trial" and len(a) == 10:
        cmd_trial(*a[2:])
    elif c == "vmtrial" and len(a) == 7:
        cmd_vmtrial(*a[2:])
    elif c == "vmidle" and len(a) == 5:
        cmd_vmidle(*a[2:])
    elif c == "idle" and len(a) == 7:
        cmd_idle(*a[2:])
    elif c == "show" and len(a) == 3:
        cmd_show(a[2])
    elif c == "report" and len(a) == 5:
        cmd_report(*a[2:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


sys.exit(main(sys.argv))
