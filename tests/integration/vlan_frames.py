#!/usr/bin/python3
"""Crafted VLAN frames for the VLAN integration tests, with scapy.

The kernel of the test machine has no 8021q module, so tagged frames are
built and read here, on one end of a veth pair inside a network namespace
(the other end is a vsw net_af_packet port).

  vlan_frames.py send IFACE FRAME...
      FRAME = SRC/DST/TAGS/MARKER[/COUNT[/INTERVAL_MS]]
      TAGS  = "-" (untagged) or tags outermost first, comma-separated:
              qVID (0x8100), qVIDpPCP (0x8100 with a priority), adVID
              (0x88a8), e.g. q10, q0p3 (priority-tagged), q10,q20, ad10,q20
  vlan_frames.py sniff IFACE OUT READY OWN_MAC
      Until SIGTERM: one line "MARKER TAGS" in OUT for every frame not
      sent from OWN_MAC; MARKER is "from-SRCMAC" for a frame without one
      (e.g. vswgen's); TAGS as above with the priority always given
      (q10p0) or "-".  READY is created once the socket listens.

Every frame carries b"VSWVLAN:" + MARKER (32 bytes of payload at least).
"""
import signal
import sys

from scapy.all import Dot1AD, Dot1Q, Ether, Raw, conf, sendp, sniff  # noqa

MAGIC = b"VSWVLAN:"


def build(spec):
    f = spec.split("/")
    src, dst, tags, marker = f[:4]
    count = int(f[4]) if len(f) > 4 else 1
    inter = int(f[5]) / 1000.0 if len(f) > 5 else 0
    p = Ether(src=src, dst=dst)
    if tags != "-":
        for t in tags.split(","):
            cls, rest = (Dot1AD, t[2:]) if t.startswith("ad") else (Dot1Q, t[1:])
            vid, _, prio = rest.partition("p")
            p = p / cls(vlan=int(vid), prio=int(prio or 0))
    payload = MAGIC + marker.encode() + b";"
    p = p / Raw(load=payload.ljust(46, b"."))
    # the last tag says IPv4 (any ethertype but a VLAN one)
    last = p
    while last.payload and isinstance(last.payload, (Dot1Q, Dot1AD)):
        last = last.payload
    last.type = 0x0800
    return p, count, inter


def describe(p):
    tags = []
    layer = p.payload
    while isinstance(layer, (Dot1Q, Dot1AD)):
        kind = "ad" if isinstance(layer, Dot1AD) or (
            isinstance(layer.underlayer, Ether) and layer.underlayer.type == 0x88A8
        ) else "q"
        tags.append("%s%dp%d" % (kind, layer.vlan, layer.prio))
        layer = layer.payload
    return ",".join(tags) or "-"


def cmd_send(iface, frames):
    for spec in frames:
        p, count, inter = build(spec)
        sendp(p, iface=iface, count=count, inter=inter, verbose=False)


def cmd_sniff(iface, out, ready, own):
    fh = open(out, "a", buffering=1)
    own = own.lower()

    def seen(p):
        raw = bytes(p)
        i = raw.find(MAGIC)
        if p.src.lower() == own:
            return
        if i < 0:
            marker = "from-" + p.src.lower()
        else:
            marker = raw[i + len(MAGIC):].split(b";", 1)[0].decode(errors="replace")
        fh.write("%s %s\n" % (marker, describe(p)))

    def started():
        open(ready, "w").close()

    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    sniff(iface=iface, prn=seen, store=False, started_callback=started)


def main():
    conf.verb = 0
    if len(sys.argv) >= 3 and sys.argv[1] == "send":
        cmd_send(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 6 and sys.argv[1] == "sniff":
        cmd_sniff(*sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
