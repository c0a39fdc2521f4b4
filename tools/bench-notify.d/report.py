#!/usr/bin/env python3
"""Records and report of tools/bench-notify.

  report.py trial KIND EXTRA GEN BEFORE AFTER SCHED0 SCHED1 MID -> one JSON line
  report.py s1trial EXTRA SND RCV AFTER TICKS WALL_NS CLK_TCK -> one JSON line
  report.py vmtrial EXTRA GEN AFTER SAMPLE0 SAMPLE1           -> one JSON line
  report.py vmidle SAMPLE0 SAMPLE1 QUEUES_JSON                -> one JSON line
  report.py idle MODE SCHED0 SCHED1 WORKERS0 WORKERS1         -> one JSON line
  report.py show TRIALS            (the last record, short, for the log)
  report.py report TRIALS MACHINE OUTDIR
      prints the tables (markdown), one line per seed, and last the
      one-line summary; writes OUTDIR/results.json and OUTDIR/results.md

SCHEDn: "<worker ns on CPU> <worker ns waiting for a CPU> <wall ns>".
SAMPLEn: a guest line "VSW-S: UPTIME irq=N dev=BYTES PACKETS ERRS DROP ...".
"""
import json
import re
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


def cmd_s1trial(extra, sndf, rcvf, af, ticks, wall_ns, clk):
    """Seed 1: SND the requester / sender, RCV the reflector / receiver;
    AFTER vsw's queues (empty for OVS); TICKS the receiver's CPU ticks
    over WALL_NS of the sending part."""
    rec = {"kind": "s1"}
    rec.update(json.loads(extra))
    snd = load(sndf) or {}
    rcv = load(rcvf) or {}
    rec["gen_ok"] = bool(snd) and bool(rcv)
    lat = snd.get("latency_ns") or {}
    us = lambda k: round(lat[k] / 1000, 1) if isinstance(lat.get(k), (int, float)) and lat.get("samples") else None
    if rec.get("test", "").startswith("rr"):
        rec.update({"tps": snd.get("rr_tps"), "timeouts": snd.get("rr_timeouts"),
                    "lat_p50_us": us("p50"), "lat_p99_us": us("p99"), "lat_p999_us": us("p999"),
                    "rcv_packets": rcv.get("rx_packets")})
    else:
        d = snd.get("duration_s")
        rec.update({"tx_mpps": snd.get("tx_mpps"), "rcv_packets": rcv.get("rx_packets"),
                    "rx_mpps": div(rcv.get("rx_packets"), (d or 0) * 1e6, 4)})
    w = num(wall_ns)
    rec["rcv_cpu_pct"] = div(100.0 * num(ticks) / num(clk), w / 1e9, 1) if w else None
    rec["rcv_cpu_pct_loop"] = rcv.get("cpu_pct")
    rec["rcv_wakeups"] = rcv.get("wakeups")
    A = load(af) or {}
    q1 = (A.get("/vsw/queues,vm1") or {}).get("q0") or {}
    q0 = (A.get("/vsw/queues,vm0") or {}).get("q0") or {}
    if q1:
        rec.update({"calls_vm1": q1.get("calls"), "enqueued_vm1": q1.get("enqueued"),
                    "calls_per_pkt": div(q1.get("calls"), q1.get("enqueued"), 4),
                    "calls_vm0": q0.get("calls"),
                    "calls_per_pkt_vm0": div(q0.get("calls"), q0.get("enqueued"), 4),
                    "drop_tx_full_vm1": (A.get("/vsw/port,vm1") or {}).get("drop_tx_full")})
        p1 = A.get("/vsw/port,vm1") or {}
        rec.update({"tx_flushes_vm1": p1.get("tx_flushes"),
                    "tx_flushes_early_vm1": p1.get("tx_flushes_early"),
                    "early_pct_vm1": div(100.0 * (p1.get("tx_flushes_early") or 0),
                                         p1.get("tx_flushes"), 1)
                    if p1.get("tx_flushes_early") is not None else None})
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


PING_SENT = re.compile(r"(\d+) packets transmitted, (\d+) packets received")
PING_RTT = re.compile(r"round-trip min/avg/max = ([\d.]+)/([\d.]+)/([\d.]+) ms")


def ping_sums(text):
    """Busybox ping -q summaries in TEXT: (sent, received, [avg ms...])."""
    sent = recv = 0
    for a, b in PING_SENT.findall(text):
        sent += int(a)
        recv += int(b)
    return sent, recv, [float(m[1]) for m in PING_RTT.findall(text)]


def cmd_qrrtrial(extra, logf, loop):
    """qrr: guest A's loop number LOOP in its console log LOGF (VSW-Q1,
    VSW-Q8: 3 s of `ping -A`, one or eight at once; VSW-QP: 10 pings 0.1 s
    apart)."""
    rec = {"kind": "qrr"}
    rec.update(json.loads(extra))
    lines = {}
    with open(logf, errors="replace") as fh:
        for l in fh:
            m = re.match(r"(VSW-Q[18P]): (\d+) (.*)", l.strip())
            if m and m.group(2) == loop:
                lines[m.group(1)] = m.group(3)
    for tag, key in (("VSW-Q1", "rr1"), ("VSW-Q8", "rr8"), ("VSW-QP", "ping")):
        sent, recv, avg = ping_sums(lines.get(tag, ""))
        rec[key + "_sent"], rec[key + "_recv"] = sent, recv
        rec[key + "_avg_ms"] = round(sum(avg) / len(avg), 3) if avg else None
        if key != "ping":
            rec[key + "_tps"] = round(recv / 3.0, 1)
    rec["ok"] = all(t in lines for t in ("VSW-Q1", "VSW-Q8", "VSW-QP"))
    print(json.dumps(rec))


SHOW = ["kind", "dut", "rr1_tps", "rr8_tps", "rr1_avg_ms", "ping_avg_ms", "test", "rx_mode", "mode", "rate", "interval", "round", "tps", "tx_mpps", "rx_mpps",
        "rcv_cpu_pct", "calls_per_pkt_vm0", "timeouts", "loss_pct", "kicks_per_pkt",
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


# ---------------------------------------------------------------- the seeds
SEED1 = {"rr": (1950, 7418), "stream": 3.47}
SEED2 = (2.0, 3.0)
SEED3 = {"rx": (2.08, 2.41), "tx": (1.35, 1.44)}
TIMER = 50  # the seed line compares the bottom half with this timer


def ratio(a, b, nd=2):
    return div(a, b, nd)


def rs_str(r, seed):
    """'xR (ours/seed Q)'"""
    if r is None:
        return "n/a"
    return "x%.2f (ours/seed %s)" % (r, f(div(r, seed, 2)))


def seed_tables(recs, by, md, md3, res):
    """Seed tables (markdown: seed 1 into md, seed 3 into md3) and the
    three seed lines."""
    lines = []
    s1 = by("s1")
    flushes = sorted({r["interval"] for r in s1})
    tests = [t for t in ("rr1", "rr8", "stream") if any(r["test"] == t for r in s1)]
    ovs_none = by("ovs_none")
    ovs_ver = by("ovs_version")

    def m1(dut, test, rm, iv, key):
        return med(r.get(key) for r in s1 if r["dut"] == dut and r["test"] == test
                   and r["rx_mode"] == rm and r["interval"] == iv)
    rows = []
    res["s1"] = []
    for test in tests:
        key = "rx_mpps" if test == "stream" else "tps"
        for rm in ("interrupt", "poll"):
            for iv in flushes:
                v, o = m1("vsw", test, rm, iv, key), m1("ovs", test, rm, iv, key)
                row = {"test": test, "rx_mode": rm, "interval_us": iv, "vsw": v, "ovs": o,
                       "vsw_p50_us": m1("vsw", test, rm, iv, "lat_p50_us"),
                       "vsw_p99_us": m1("vsw", test, rm, iv, "lat_p99_us"),
                       "ovs_p50_us": m1("ovs", test, rm, iv, "lat_p50_us"),
                       "ovs_p99_us": m1("ovs", test, rm, iv, "lat_p99_us"),
                       "calls_per_pkt": m1("vsw", test, rm, iv, "calls_per_pkt"),
                       "early_pct": m1("vsw", test, rm, iv, "early_pct_vm1"),
                       "vsw_rcv_cpu_pct": m1("vsw", test, rm, iv, "rcv_cpu_pct"),
                       "ovs_rcv_cpu_pct": m1("ovs", test, rm, iv, "rcv_cpu_pct")}
                res["s1"].append(row)
                fmt = "%.3f" if test == "stream" else "%.0f"
                lat = lambda a, b: "%s / %s" % (f(a, "%.1f"), f(b, "%.1f")) if a is not None else "-"
                rows.append([test, rm, iv, f(v, fmt), f(o, fmt), f(ratio(v, o)),
                             lat(row["vsw_p50_us"], row["vsw_p99_us"]), lat(row["ovs_p50_us"], row["ovs_p99_us"]),
                             f(row["calls_per_pkt"], "%.3f"), f(row["early_pct"], "%.1f"),
                             f(row["vsw_rcv_cpu_pct"], "%.1f"),
                             f(row["ovs_rcv_cpu_pct"], "%.1f")])
    if rows:
        md.append("### Seed 1: TX flush, bottom half (0) vs timer, vsw and OVS-DPDK\n")
        md.append("rr1 / rr8: vswgen --rr 1 / 8 (interrupt-driven requester on vm0) against a "
                  "--reflect guest on vm1, transactions/s; stream: a vswgen on vm0 sending 64 B at "
                  "the maximum rate to a receiver on vm1, received Mpps. rx mode: the receiving "
                  "guest's (reflector's, receiver's). calls/pkt: vsw's calls to vm1 per frame "
                  "enqueued. early %%: of vsw's flushes to vm1, those sent before the flush "
                  "interval had passed (tx-flush-adaptive: waiting gathered nothing). "
                  "receiver CPU %%: its process over the sending part. OVS: %s.\n"
                  % (ovs_none[-1]["why"] if ovs_none else
                     ("openvswitch-switch-dpdk " + ovs_ver[-1]["version"]) if ovs_ver else "n/a"))
        md.append(table(["test", "rx mode", "flush µs", "vsw", "OVS", "vsw/OVS", "vsw p50 / p99 µs",
                         "OVS p50 / p99 µs", "vsw calls/pkt", "vsw early %", "vsw receiver CPU %",
                         "OVS receiver CPU %"], rows))
    # seed line 1: interrupt-driven receiver, bottom half vs TIMER
    t = TIMER if TIMER in flushes else (max(flushes) if flushes else None)
    if s1 and t:
        parts = []
        for dut in ("vsw", "ovs"):
            a, b = m1(dut, "rr1", "interrupt", t, "tps"), m1(dut, "rr1", "interrupt", 0, "tps")
            sa, sb = m1(dut, "stream", "interrupt", t, "rx_mpps"), m1(dut, "stream", "interrupt", 0, "rx_mpps")
            if a is None and sa is None:
                continue
            p = "%s RR %s->%s tps %s, stream %s->%s Mpps %s" % (
                dut, f(a, "%.0f"), f(b, "%.0f"), rs_str(ratio(b, a), SEED1["rr"][1] / SEED1["rr"][0]),
                f(sa, "%.3f"), f(sb, "%.3f"), rs_str(ratio(sb, sa), SEED1["stream"]))
            if dut == "vsw":
                p += ", calls/pkt %s/%s, receiver CPU %s/%s %%" % (
                    f(m1(dut, "stream", "interrupt", t, "calls_per_pkt"), "%.3f"),
                    f(m1(dut, "stream", "interrupt", 0, "calls_per_pkt"), "%.3f"),
                    f(m1(dut, "stream", "interrupt", t, "rcv_cpu_pct"), "%.0f"),
                    f(m1(dut, "stream", "interrupt", 0, "rcv_cpu_pct"), "%.0f"))
            parts.append(p)
            res["seed1_%s_rr_ratio" % dut] = ratio(b, a)
            res["seed1_%s_stream_ratio" % dut] = ratio(sb, sa)
        if not any(p.startswith("ovs") for p in parts):
            parts.append("ovs n/a (%s)" % (ovs_none[-1]["why"] if ovs_none else "no trial"))
        lines.append("seed1 tx-flush, %d us timer -> bottom half, interrupt-driven receiver: "
                     "seed TCP_RR 1950->7418 tps x3.80, stream x3.47 | %s" % (t, " | ".join(parts)))
    # seed 2: kick-suppression (trials of kind a, maximum rate)
    on, off = by("a", rate=0, mode="on"), by("a", rate=0, mode="off")
    if on or off:
        r_on, r_off = med(r["rx_mpps"] for r in on), med(r["rx_mpps"] for r in off)
        r = ratio(r_on, r_off)
        res["seed2_ratio"] = r
        lines.append("seed2 kicks, suppression off -> on, v2v max rate: seed TCP_STREAM x2-3 | "
                     "vsw %s->%s Mpps %s, kicks/pkt %s->%s | ovs: no such knob" % (
                         f(r_off, "%.3f"), f(r_on, "%.3f"),
                         "n/a" if r is None else "x%.2f (ours/seed %s-%s)" % (
                             r, f(div(r, SEED2[1])), f(div(r, SEED2[0]))),
                         f(med(x["kicks_per_pkt"] for x in off), "%.4f"),
                         f(med(x["kicks_per_pkt"] for x in on), "%.4f")))
    # seed 3: call-suppression
    s3rows = []
    res["s3"] = []
    for m in ("on", "off"):
        rs = by("s3", mode=m)
        if rs:
            row = {"call_suppression": m, "rx_mpps": med(r["rx_mpps"] for r in rs),
                   "calls_per_pkt": med(r["calls_per_pkt"] for r in rs),
                   "cyc_per_pkt": med(r["cyc_per_pkt"] for r in rs),
                   "loss_pct": med(r["loss_pct"] for r in rs), "rounds": len(rs)}
            res["s3"].append(row)
            s3rows.append([m, f(row["rx_mpps"], "%.3f"), f(row["calls_per_pkt"], "%.4f"),
                           f(row["cyc_per_pkt"], "%.0f"), f(row["loss_pct"], "%.3f"),
                           per_round(rs, "rx_mpps", "%.3f")])
    irows = []
    for iv in flushes:
        v = m1("vsw", "stream", "interrupt", iv, "rx_mpps")
        if v is not None:
            irows.append([iv, f(v, "%.3f"), f(m1("vsw", "stream", "interrupt", iv, "calls_per_pkt"), "%.4f"),
                          f(m1("vsw", "stream", "interrupt", iv, "rcv_cpu_pct"), "%.1f")])
    if s3rows or irows:
        md3.append("\n### Seed 3: calls\n")
    if s3rows:
        md3.append("A polling guest (virtio PMD, vswgen v2v, 64 B, maximum rate), vsw's "
                  "call-suppression on (no calls: the guest asked for none) vs off (a call "
                  "after every enqueue):\n")
        md3.append(table(["call-suppression", "rx Mpps", "calls/pkt (vm1)", "vsw cycles/pkt", "loss %",
                         "rx Mpps per round"], s3rows))
    if irows:
        md3.append("\nAn interrupt-driven receiver (vswgen --rx-only --rx-mode interrupt), the stream "
                  "of seed 1, by flush interval:\n")
        md3.append(table(["flush µs", "rx Mpps", "calls/pkt", "receiver CPU %"], irows))
    if s3rows:
        c_on, c_off = by("s3", mode="on"), by("s3", mode="off")
        a, b = med(r["rx_mpps"] for r in c_off), med(r["rx_mpps"] for r in c_on)
        sr = SEED3["rx"][1] / SEED3["rx"][0]
        res["seed3_rx_ratio"] = ratio(b, a, 3)
        p = "seed3 calls, forced -> suppressed, polling guest: seed pktgen RX 2.08->2.41 Mpps x1.16, " \
            "TX 1.35->1.44 x1.07 | vsw RX %s->%s Mpps %s, calls/pkt %s->%s; TX n/a (vsw forces calls " \
            "on guest rx rings only)" % (f(a, "%.3f"), f(b, "%.3f"), rs_str(ratio(b, a, 3), sr),
                                          f(med(r["calls_per_pkt"] for r in c_off), "%.3f"),
                                          f(med(r["calls_per_pkt"] for r in c_on), "%.3f"))
        if irows:
            p += "; interrupt-driven receiver calls/pkt at %s us: %s" % (
                "/".join(str(x[0]) for x in irows), "/".join(x[2] for x in irows))
        lines.append(p + " | ovs: no such knob")
    return lines


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
    md3 = []
    seed_lines = seed_tables(recs, by, md, md3, res)
    res["seed_lines"] = seed_lines

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
            if rate == 1000000 or "kpp_" + m not in summ:
                summ["kpp_" + m] = row["kicks_per_pkt"]
                summ.setdefault("calls_pmd", []).append(row["calls_per_pkt"])
    if a_rows:
        md.append("\n### Seed 2: guest kicks, kick-suppression on vs off (virtio-PMD guests, vswgen v2v, 64 B)\n")
        md.append(table(["offered", "kick-suppression", "kicks/pkt (vm0 q0)", "calls/pkt (vm1 q0)",
                         "guest_wants vm0 / vm1", "rx Mpps", "loss %", "vsw cycles/pkt",
                         "rx Mpps per round", "kicks/pkt per round", "cycles/pkt per round",
                         "worker wait %"], a_rows))

    md += md3

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

    # qrr: QEMU Linux guests pinging through vsw and OVS
    q_rows = []
    q_fis = sorted({r.get("interval") for r in by("qrr") if r.get("interval") is not None})
    for fi in q_fis:
        row = [str(fi)]
        got = False
        for key, fmt in (("rr1_tps", "%.0f"), ("rr8_tps", "%.0f"), ("rr1_avg_ms", "%.3f"), ("ping_avg_ms", "%.3f")):
            v = {}
            for dut in ("vsw", "ovs"):
                rs = [r for r in by("qrr", dut=dut, interval=fi) if r.get("ok")]
                v[dut] = med(r.get(key) for r in rs)
                got = got or bool(rs)
            rat = ratio(v["vsw"], v["ovs"]) if key.endswith("tps") else ratio(v["ovs"], v["vsw"])
            row += [f(v["vsw"], fmt), f(v["ovs"], fmt), f(rat)]
        if got:
            q_rows.append(row)
            res.setdefault("qrr", []).append(row)
    if q_rows:
        n = max(len(by("qrr", dut=d)) for d in ("vsw", "ovs")) // max(1, len(q_fis))
        md.append("\n### qrr) QEMU/TCG Linux guests pinging each other, vsw and OVS (medians of %d rounds; relative figures)\n" % n)
        md.append("`ping -A` 3 s, one (rr1) or eight at once (rr8): echoes/s; mean round trip of rr1 and of 10 pings 0.1 s apart. "
                  "vsw/OVS: echoes/s vsw over OVS; round trips OVS over vsw (above 1: vsw faster).\n")
        md.append(table(["tx-flush-interval-us", "rr1/s vsw", "OVS", "vsw/OVS", "rr8/s vsw", "OVS", "vsw/OVS",
                         "rr1 ms vsw", "OVS", "OVS/vsw", "ping ms vsw", "OVS", "OVS/vsw"], q_rows))

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
    sr = [("seed1(vsw) RR", "seed1_vsw_rr_ratio"), ("stream", "seed1_vsw_stream_ratio"),
          ("seed1(ovs) RR", "seed1_ovs_rr_ratio"), ("stream", "seed1_ovs_stream_ratio"),
          ("seed2", "seed2_ratio"), ("seed3 RX", "seed3_rx_ratio")]
    parts += ["%s x%s" % (n, g(res[k], "%.2f")) for n, k in sr if res.get(k) is not None]
    if "kpp_on" in summ or "kpp_off" in summ:
        parts.append("kicks/pkt on=%s off=%s" % (g(summ.get("kpp_on"), "%.4f"), g(summ.get("kpp_off"), "%.4f")))
    cp = [x for x in summ.get("calls_pmd", []) if x is not None]
    if cp:
        parts.append("calls/pkt(pmd)=%s" % g(max(cp), "%.4g"))
    vm = summ.get("vm_by_rate", {}).get(2000)
    if vm:
        parts.append("calls/pkt(kernel@2kpps,0/50/200us)=%s" % "/".join(g(vm.get(iv), "%.3f") for iv in (0, 50, 200)))
    elif by("vm_error"):
        parts.append("calls/pkt(kernel)=n/a(%s)" % by("vm_error")[-1].get("error"))
    if "lat50_0" in summ:
        parts.append("flush_p50(10kpps,0/50/200us)=%s/%s/%sus" % (g(summ.get("lat50_0"), "%.1f"),
                                                                 g(summ.get("lat50_50"), "%.1f"),
                                                                 g(summ.get("lat50_200"), "%.1f")))
    if "idle_busy" in summ or "idle_adaptive" in summ:
        parts.append("idle_cpu busy=%s%% adaptive=%s%%" % (g(summ.get("idle_busy"), "%.0f"),
                                                          g(summ.get("idle_adaptive"), "%.1f")))
    wa, wb = summ.get("wake_adaptive"), summ.get("wake_busy")
    if wa and wb and wa["p50_us"] is not None and wb["p50_us"] is not None:
        parts.append("wake_p50=%+.1fus wake_p99=%+.1fus" % (wa["p50_us"] - wb["p50_us"],
                                                            (wa["p99_us"] or 0) - (wb["p99_us"] or 0)))
    if res.get("tput_ratio_median") is not None:
        parts.append("throughput adaptive/busy=%s" % g(res.get("tput_ratio_median"), "%.3f"))
    summary = " ".join(parts)
    res["summary"] = summary

    head = ("Machine: %s; worker CPU %s, generator/QEMU/other threads CPU %s; DPDK %s; QEMU %s; "
            "hugepages: %s; vsw %s; %s; placement probe %s ns.\n"
            % (mach.get("cpu_model"), mach.get("dut_cpu"), mach.get("gen_cpu"), mach.get("dpdk"),
               mach.get("qemu"), mach.get("hugepages"), mach.get("vsw_commit"), mach.get("date"),
               mach.get("placement_probe_ns")))
    seeds = "".join("    %s\n" % l for l in seed_lines)
    text = "Command: `%s`\n\n%s\n%s\n\nOne line per seed:\n\n%s\nSummary: `%s`\n" % (
        mach.get("command"), head, "\n".join(md), seeds, summary)
    with open(outdir + "/results.md", "w") as fh:
        fh.write(text)
    with open(outdir + "/results.json", "w") as fh:
        json.dump(res, fh, indent=1)
    print(text)
    for l in seed_lines:
        print(l)
    print(summary)


def main(a):
    c = a[1] if len(a) > 1 else ""
    if c == "trial" and len(a) == 10:
        cmd_trial(*a[2:])
    elif c == "s1trial" and len(a) == 9:
        cmd_s1trial(*a[2:])
    elif c == "vmtrial" and len(a) == 7:
        cmd_vmtrial(*a[2:])
    elif c == "vmidle" and len(a) == 5:
        cmd_vmidle(*a[2:])
    elif c == "qrrtrial" and len(a) == 5:
        cmd_qrrtrial(*a[2:])
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
