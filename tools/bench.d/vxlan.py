"""tools/bench report helpers for the VXLAN block (tools/bench --vxlan):
cycles/packet of a VM's traffic to and from a remote VM through a VXLAN
port against the same traffic through a plain ethdev port, per DUT, and
the tunnel goals (imported by report.py).

Scenarios (tools/bench's vxlan_trial): v2p / p2v plain (VM to the
ethdev, ethdev to VM), v2x encapsulation (VM to the remote VTEP), x2v
decapsulation. Every ratio is taken per round, then the median. Each
underlay (veth: net_af_packet on a veth pair, memif) is a table of its
own: its plain rows are the baseline of its tunnelled ones.
"""
import itertools

from blocks import f, med

DIRS = [("v2x", "v2p", "encap: VM to remote VM"),
        ("x2v", "p2v", "decap: remote VM to VM")]
DUTS = ["vsw", "ovs-normal"]
UNDERLAYS = ["veth", "memif"]
COST_GOAL = 25.0  # the tunnel costs vsw at most +25 % cycles/packet


def cpp(t):
    return t.get("dut_cycles_per_packet")


def under(t):
    return t.get("underlay") or "memif"


def summary(ok):
    """rows per (underlay, dut, scenario, size); per-round figures:
    increase {(dut, tunnel, size, underlay): [pct..]} and
    ovs_over_vsw {(tunnel, size, underlay): [ratio..]} of cycles/packet"""
    vt = [t for t in ok if t["block"] == "vxlan"]
    rows = []
    sizes = sorted({t["size"] for t in vt})
    for u, d, (tun, plain, _), sz in itertools.product(UNDERLAYS, DUTS, DIRS,
                                                      sizes):
        for sc in (plain, tun):
            ts = sorted([t for t in vt if t["dut"] == d and under(t) == u and
                         t["scenario"] == sc and t["size"] == sz],
                        key=lambda t: t["round"])
            if not ts:
                continue
            rows.append({
                "underlay": u, "dut": d, "scenario": sc, "size": sz,
                "n": len(ts), "tunnel": sc == tun,
                "rx_mpps": med([t.get("rx_mpps") for t in ts]),
                "loss_pct": med([t.get("loss_pct") for t in ts]),
                "cpp": med([cpp(t) for t in ts]),
                "cpp_rounds": [cpp(t) for t in ts],
                "dut_wait_pct": med([(t.get("disturbance") or {})
                                     .get("dut_wait_pct") for t in ts])})
    by = {(t["dut"], t["scenario"], t["size"], t["round"], under(t)): t
          for t in vt}
    inc, rel = {}, {}
    for (d, sc, sz, r, u), t in sorted(by.items()):
        for tun, plain, _ in DIRS:
            if sc != tun or not cpp(t):
                continue
            p = by.get((d, plain, sz, r, u))
            if p is not None and cpp(p):
                inc.setdefault((d, tun, sz, u), []).append(
                    100.0 * (cpp(t) - cpp(p)) / cpp(p))
            o = by.get(("ovs-normal", tun, sz, r, u))
            if d == "vsw" and o is not None and cpp(o):
                rel.setdefault((tun, sz, u), []).append(cpp(o) / cpp(t))
    return rows, inc, rel


def name(sc):
    for tun, plain, what in DIRS:
        if sc == tun:
            return what
        if sc == plain:
            return "plain: " + ("VM to ethdev" if sc == "v2p"
                                else "ethdev to VM")
    return sc


def markdown(rows, inc, rel):
    if not rows:
        return []
    md = ["VXLAN (vswgen --vxlan plays the remote VTEP on the underlay: "
          "veth = net_af_packet on both ends of a veth pair, memif = DPDK "
          "to DPDK; the plain rows are the same traffic through an ethdev "
          "port on the same underlay), one direction at a time, unpaced:",
          "",
          "| underlay | DUT | scenario | frame B (inner) | Mpps (median) "
          "| loss % | cycles/pkt (median) | per round | DUT wait % |",
          "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        md.append("| %s | %s | %s | %d | %s | %s | %s | %s | %s |" % (
            r["underlay"], r["dut"], name(r["scenario"]), r["size"],
            f(r["rx_mpps"]),
            f(r["loss_pct"], "%.3f"), f(r["cpp"], "%.0f"),
            " / ".join(f(x, "%.0f") for x in r["cpp_rounds"]),
            f(r["dut_wait_pct"], "%.0f")))
    md.append("")
    if inc or rel:
        md.append("| figure | per round | median |")
        md.append("|---|---|---|")
        for (d, tun, sz, u), xs in sorted(inc.items()):
            md.append("| %s, %s %s %d B: tunnel vs plain cycles/pkt | %s "
                      "| %s |" % (u, d, name(tun), sz,
                                  " / ".join(f(x, "%+.1f%%") for x in xs),
                                  f(med(xs), "%+.1f%%")))
        for (tun, sz, u), xs in sorted(rel.items()):
            md.append("| %s, %s %d B: OVS / vsw cycles/pkt | %s | %s |" % (
                u, name(tun), sz, " / ".join(f(x) for x in xs),
                f(med(xs))))
        md.append("")
    return md


def judge(g, inc, rel):
    """The tunnel goals into g (blocks.Goals): the worst case counts"""
    def miss(what):
        if "vxlan" not in g.blocks:
            return "the vxlan block was not run (tools/bench --vxlan)"
        if "vxlan " + what in g.skipped:
            return "%s: %s" % (what, g.skipped["vxlan " + what])
        return "no trial with figures"
    us = [u for u in UNDERLAYS if any(k[-1] == u for k in inc)] or [None]
    for u in us:
        vi = {k: med(v) for k, v in inc.items()
              if k[0] == "vsw" and k[3] == u}
        worst = max(vi.items(), key=lambda kv: kv[1]) if vi else None
        g.add("VXLAN%s: the tunnel costs vsw <= +25 %% cycles/packet (encap "
              "and decap, every size)" % (" over " + u if u else ""),
              worst[1] if worst else None, COST_GOAL,
              "worst %s %d B: %+.1f %% (all: %s)" % (
                  name(worst[0][1]), worst[0][2], worst[1],
                  ", ".join("%s %d B %+.1f %%" % (name(k[1]), k[2], v)
                            for k, v in sorted(vi.items())))
              if worst else "", miss("vsw"), lower_is_better=True, unit="%")
    us = [u for u in UNDERLAYS if any(k[-1] == u for k in rel)] or [None]
    for u in us:
        ri = {k: med(v) for k, v in rel.items() if k[2] == u}
        low = min(ri.items(), key=lambda kv: kv[1]) if ri else None
        g.add("VXLAN%s: vsw ahead of OVS-DPDK on the tunnelled path (OVS/vsw "
              "cycles/packet > 1)" % (" over " + u if u else ""),
              low[1] if low else None, 1.0,
              "lowest %s %d B: %.2fx (all: %s)" % (
                  name(low[0][0]), low[0][1], low[1],
                  ", ".join("%s %d B %.2fx" % (name(k[0]), k[1], v)
                            for k, v in sorted(ri.items())))
              if low else "", miss("ovs-normal"))
