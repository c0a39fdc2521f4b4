#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""vsw's TCP segmentation and checksum filling, byte for byte against
scapy's.

Builds TSO super-frames (IPv4, IPv4 with options, IPv6, IPv6 with
extension headers, VLAN-tagged, Q-in-Q, TCP options, FIN/PSH/CWR, a
payload that is not a multiple of the segment size, one shorter than it)
and frames whose checksum was left to fill (TCP and UDP, IPv4 and IPv6
with and without extension headers, a trailer after the IP packet), hands
them to `test_offload --ref` (vsw_offload_segment,
vsw_offload_fill_csum over chains of 512-byte mbufs) and compares what it
prints with the segments scapy makes on its own: the payload cut at the
segment size, IPv4 total length and ID (+1 per segment), IPv6 payload
length, TCP sequence numbers, FIN and PSH on the last segment only, CWR on
the first only, and every checksum recomputed by scapy.

Usage: offload_ref.py PATH/TO/test_offload   (exit 77: no scapy)
"""
import subprocess
import sys

try:
    from scapy.layers.inet import IP, TCP, UDP
    from scapy.layers.inet6 import (HAO, IPv6, IPv6ExtHdrDestOpt,
                                    IPv6ExtHdrHopByHop, IPv6ExtHdrRouting,
                                    IPv6ExtHdrSegmentRouting, PadN)
    from scapy.layers.l2 import Dot1Q, Dot1AD, Ether
    from scapy.packet import Raw
except ImportError:
    print("offload_ref: SKIP: python3-scapy is missing (tools/deps)")
    sys.exit(77)


def payload(n):
    return bytes((i * 7 + 3) & 0xFF for i in range(n))


def l2(tags):
    e = Ether(src="02:00:00:00:00:0a", dst="02:00:00:00:00:0b")
    if tags == 1:
        return e / Dot1Q(vlan=5, prio=3)
    if tags == 2:
        return e / Dot1AD(vlan=100) / Dot1Q(vlan=5)
    return e


def ip4(opts=False):
    ip = IP(src="10.0.0.1", dst="10.0.0.2", id=0xFFFE, flags="DF", ttl=64)
    if opts:
        ip.options = [b"\x94\x04\x00\x00", b"\x01\x01\x01\x00"]
    return ip


def ip6():
    return IPv6(src="fd00::1", dst="fd00::2", hlim=64, fl=0x12345)


def ip6_ext(kinds):
    """IPv6 with extension headers: "h" hop-by-hop (an 8-byte PadN),
    "r" routing (one address, no segments left), "d" destination options
    (a 16-byte PadN), "s" segment routing with two segments left (the
    final destination, the pseudo header's, is its first entry), "m"
    Mobile IPv6's type 2 routing header with one left (the home address
    is the final destination), "a" destination options with a home
    address option (the pseudo header's source)."""
    ip = ip6()
    for k in kinds:
        if k == "h":
            ip = ip / IPv6ExtHdrHopByHop(options=[PadN(optdata=b"\0" * 4)])
        elif k == "r":
            ip = ip / IPv6ExtHdrRouting(addresses=["fd00::99"], segleft=0)
        elif k == "s":
            ip = ip / IPv6ExtHdrSegmentRouting(
                addresses=["fd00::70", "fd00::71", "fd00::2"], segleft=2)
        elif k == "m":
            ip = ip / IPv6ExtHdrRouting(type=2, addresses=["fd00::55"],
                                        segleft=1)
        elif k == "a":
            ip = ip / IPv6ExtHdrDestOpt(options=[HAO(hoa="fd00::66")])
        else:
            ip = ip / IPv6ExtHdrDestOpt(options=[PadN(optdata=b"\0" * 12)])
    return ip


def tcp(flags="PA", opts=True):
    t = TCP(sport=40000, dport=5201, seq=0xFFFFF000, ack=77, flags=flags,
            window=501)
    if opts:
        t.options = [("NOP", None), ("NOP", None),
                     ("Timestamp", (123456, 654321))]
    return t


def partial(pkt):
    """The frame as a guest leaves it: its L4 checksum not filled."""
    raw = bytearray(bytes(pkt))
    l4 = pkt.getlayer(TCP) or pkt.getlayer(UDP)
    off = len(raw) - len(bytes(l4))
    field = off + (16 if isinstance(l4, TCP) else 6)
    raw[field:field + 2] = b"\x12\x34"
    return bytes(raw)


def expect_segments(pkt, mss):
    """scapy's own segments of super-frame @pkt at @mss."""
    t = pkt[TCP]
    data = bytes(t.payload)
    n = max(1, -(-len(data) // mss))
    out = []
    for i in range(n):
        s = pkt.copy()
        st = s[TCP]
        st.remove_payload()
        chunk = data[i * mss:(i + 1) * mss]
        st.seq = (t.seq + i * mss) & 0xFFFFFFFF
        fl = int(t.flags)
        if i < n - 1:
            fl &= ~(0x01 | 0x08)
        if i > 0:
            fl &= ~0x80
        st.flags = fl
        st.chksum = None
        if s.haslayer(IP):
            s[IP].len = None
            s[IP].chksum = None
            s[IP].id = (t.underlayer.id + i) & 0xFFFF
        else:
            s[IPv6].plen = None
        s = s / Raw(chunk) if chunk else s
        out.append(bytes(Ether(bytes(s))))
    return out


def home_address(pkt):
    """The home address of a home address option in @pkt, or None.  It is
    the pseudo header's source (RFC 6275, 6.3); scapy takes it only from a
    destination options header that holds nothing else, and the option's
    alignment needs padding before it."""
    u = pkt.getlayer(IPv6ExtHdrDestOpt)
    while u is not None:
        for o in getattr(u, "options", []):
            if isinstance(o, HAO):
                return o.hoa
        u = u.payload.getlayer(IPv6ExtHdrDestOpt)
    return None


def with_pseudo_src(expect, pkt, *args):
    """@expect(@pkt, ...) for a frame with a home address option: made
    from a twin whose IPv6 source is the home address (so scapy's pseudo
    header is the right one), that source then put back."""
    hoa = home_address(pkt)
    if hoa is None:
        return expect(pkt, *args)
    twin = pkt.copy()
    twin[IPv6].src = hoa
    at = len(bytes(pkt)) - len(bytes(pkt[IPv6])) + 8
    src = bytes(pkt)[at:at + 16]
    out = expect(twin, *args)
    return [o[:at] + src + o[at + 16:] for o in out] \
        if isinstance(out, list) else out[:at] + src + out[at + 16:]


def expect_filled(pkt):
    """The frame with its checksum computed by scapy."""
    p = Ether(bytes(pkt))
    l4 = p.getlayer(TCP) or p.getlayer(UDP)
    l4.chksum = None
    return bytes(Ether(bytes(p)))


def cases():
    big = payload(20000)
    yield "ipv4", l2(0) / ip4() / tcp() / Raw(big), 1448
    yield "ipv4 options", l2(0) / ip4(True) / tcp() / Raw(big), 1000
    yield "ipv6", l2(0) / ip6() / tcp() / Raw(big), 1428
    yield "ipv4 vlan", l2(1) / ip4() / tcp() / Raw(big), 1444
    yield "ipv6 q-in-q", l2(2) / ip6() / tcp() / Raw(big), 1420
    yield "fin psh cwr", l2(0) / ip4() / tcp("FPAC") / Raw(payload(5000)), \
        1448
    yield "no tcp options", l2(0) / ip4() / tcp(opts=False) / \
        Raw(payload(3000)), 536
    yield "one segment", l2(0) / ip4() / tcp() / Raw(payload(700)), 1448
    yield "exact multiple", l2(0) / ip6() / tcp() / Raw(payload(4000)), 1000
    yield "64 KiB, 9000 mtu", l2(0) / ip4() / tcp() / \
        Raw(payload(65000)), 8948
    yield "ipv6 destination options", l2(0) / ip6_ext("d") / tcp() / \
        Raw(big), 1412
    yield "ipv6 hop-by-hop, routing, destination options, vlan", \
        l2(1) / ip6_ext("hrd") / tcp() / Raw(big), 1364
    yield "ipv6 segment routing, segments left", l2(0) / ip6_ext("s") / \
        tcp() / Raw(big), 1372
    yield "ipv6 home address option, type 2 routing", \
        l2(0) / ip6_ext("am") / tcp() / Raw(big), 1380


def csum_cases():
    yield "tcp ipv4", l2(0) / ip4() / tcp() / Raw(payload(900))
    yield "tcp ipv6 vlan", l2(1) / ip6() / tcp() / Raw(payload(1201))
    yield "udp ipv4", l2(0) / ip4() / UDP(sport=5, dport=53) / \
        Raw(payload(333))
    yield "udp ipv6", l2(0) / ip6() / UDP(sport=5, dport=53) / \
        Raw(payload(1000))
    yield "tcp ipv4, trailer", l2(0) / ip4() / tcp() / Raw(payload(5)), 8
    yield "tcp ipv6 hop-by-hop", l2(0) / ip6_ext("h") / tcp() / \
        Raw(payload(999))
    yield "udp ipv6 routing, destination options", \
        l2(0) / ip6_ext("rd") / UDP(sport=5, dport=53) / Raw(payload(77))
    yield "tcp ipv6 segment routing", l2(0) / ip6_ext("s") / tcp() / \
        Raw(payload(500))
    yield "udp ipv6 home address option", l2(0) / ip6_ext("a") / \
        UDP(sport=5, dport=53) / Raw(payload(300))


def main():
    tool = sys.argv[1]
    proc = subprocess.Popen([tool, "--ref"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)

    def ask(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        got = []
        while True:
            r = proc.stdout.readline().strip()
            if r in ("end", ""):
                return got
            got.append(r)

    failures = 0
    for name, pkt, mss in cases():
        pkt = Ether(bytes(pkt))
        want = [w.hex() for w in with_pseudo_src(expect_segments, pkt, mss)]
        got = ask("seg %d %s" % (mss, partial(pkt).hex()))
        ok = got == want
        print("%s segments: %s (%d segments)" %
              ("ok  " if ok else "FAIL", name, len(want)))
        if not ok:
            failures += 1
            for i, (g, w) in enumerate(zip(got, want)):
                if g != w:
                    print("  segment %d differs:\n   got  %s\n   want %s" %
                          (i, g[:200], w[:200]))
                    break
            if len(got) != len(want):
                print("  got %d frames, want %d" % (len(got), len(want)))
    for item in csum_cases():
        name, pkt = item[0], Ether(bytes(item[1]))
        raw = partial(pkt)
        if len(item) > 2:
            raw += b"\x00" * item[2]  # Ethernet padding after the IP packet
        want = with_pseudo_src(expect_filled, pkt).hex() + \
            ("00" * item[2] if len(item) > 2 else "")
        got = ask("csum %s" % raw.hex())
        ok = got == [want]
        print("%s checksum: %s" % ("ok  " if ok else "FAIL", name))
        if not ok:
            failures += 1
            print("   got  %s\n   want %s" % (got[:1], want[:200]))
    proc.stdin.close()
    rc = proc.wait()
    if rc != 0:
        print("FAIL: test_offload --ref exited %d (an mbuf not freed?)" % rc)
        failures += 1
    print("%d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
