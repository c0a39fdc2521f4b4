"""tools/bench helper (imported by report.py): the two generators side by
side. For each (scenario, size, DUT) with pktgen trials (block "pktgen",
tools/bench.d/pktgen.sh): vswgen's forwarded Mpps (its receiving port), the
same from pktgen's receiving port and from the DUT's own counter, and the
per-round ratio pktgen / vswgen. The criterion (issue 12): vsw's v2v
figures from the two generators agree within 5 %.
"""
from blocks import DUT_ORDER, f as _f, med as _med

AGREE_PCT = 5.0


def crosscheck(trials):
    ok = [t for t in trials if t.get("status") == "ok"]
    vg = {(t["scenario"], t["size"], t["dut"], t["round"]): t for t in ok
          if t.get("block") == "main"}
    pg = [t for t in ok if t.get("block") == "pktgen"]
    rows = []
    for key in sorted({(t["scenario"], t["size"], t["dut"]) for t in pg},
                      key=lambda k: (k[0], k[1], DUT_ORDER.index(k[2])
                                     if k[2] in DUT_ORDER else len(DUT_ORDER))):
        ts = sorted((t for t in pg if (t["scenario"], t["size"], t["dut"])
                     == key), key=lambda t: t["round"])
        ratios = []
        for t in ts:
            v = vg.get(key + (t["round"],))
            ratios.append(t["rx_mpps"] / v["rx_mpps"]
                          if v and v.get("rx_mpps") and t.get("rx_mpps")
                          else None)
        r = _med(ratios)
        rows.append({
            "scenario": key[0], "size": key[1], "dut": key[2], "n": len(ts),
            "vswgen_mpps": _med([vg[key + (t["round"],)]["rx_mpps"]
                                 for t in ts if key + (t["round"],) in vg]),
            "pktgen_mpps": _med([t.get("rx_mpps") for t in ts]),
            "pktgen_sent_mpps": _med([t.get("tx_mpps") for t in ts]),
            "pktgen_dut_mpps": _med([t.get("dut_fwd_mpps") for t in ts]),
            "pktgen_cycles_per_packet": _med(
                [t.get("dut_cycles_per_packet") for t in ts]),
            "ratio_rounds": ratios, "ratio": r,
            "agree": None if r is None else abs(r - 1) * 100 <= AGREE_PCT})
    return rows


def markdown(rows):
    if not rows:
        return []
    md = ["Generators side by side (forwarded Mpps, medians; pktgen-dpdk "
          "measured over a steady window, at its receiving port and by the "
          "DUT's own counter; agree: pktgen / vswgen within %.0f %%):"
          % AGREE_PCT, "",
          "| scenario | size | DUT | vswgen Mpps | pktgen Mpps | pktgen "
          "sent Mpps | DUT's count under pktgen | DUT cycles/pkt under pktgen "
          "| pktgen / vswgen per round | median | agree |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        md.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |"
                  % (r["scenario"], r["size"], r["dut"], _f(r["vswgen_mpps"]),
                     _f(r["pktgen_mpps"]), _f(r["pktgen_sent_mpps"]),
                     _f(r["pktgen_dut_mpps"]),
                     _f(r["pktgen_cycles_per_packet"], "%.0f"),
                     " / ".join(_f(x, "%.3f") for x in r["ratio_rounds"]),
                     _f(r["ratio"], "%.3f"),
                     {None: "n/a", True: "yes", False: "no"}[r["agree"]]))
    md.append("")
    return md
