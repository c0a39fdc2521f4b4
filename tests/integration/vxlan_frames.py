#!/usr/bin/python3
"""VXLAN frames that a vsw vxlan port must refuse, with scapy.

  vxlan_frames.py list
      One line "KIND REASON" per kind: the drop reason vsw must count.
  vxlan_frames.py send IFACE DST_MAC DST_IP SRC_IP COUNT KIND
      COUNT frames of KIND from IFACE (the underlay peer of the vsw vxlan
      port, in the kernel VTEP's namespace) to DST_MAC/DST_IP (vsw's VTEP)
      from SRC_IP (a configured remote VTEP).

The inner frame is a broadcast that vsw would flood if it took it.
"""
import sys

from scapy.all import (IP, UDP, Dot1Q, Ether, IPv6, Raw, conf,  # noqa
                       sendp)
from scapy.layers.vxlan import VXLAN

INNER = Ether(src="02:00:00:00:7e:01", dst="ff:ff:ff:ff:ff:ff") / Raw(b"x" * 46)


def kinds(dmac, dip, sip):
    e = Ether(dst=dmac)
    ok = IP(src=sip, dst=dip) / UDP(sport=50000, dport=4789)
    yield "unknown_vni", "unknown_vni", e / ok / VXLAN(vni=999) / INNER
    yield "no_i_flag", "bad_vxlan", e / ok / VXLAN(flags=0, vni=100) / INNER
    yield "short_inner", "bad_vxlan", e / ok / VXLAN(vni=100) / Raw(b"abc")
    yield "unknown_vtep", "unknown_vtep", (
        e / IP(src="10.97.0.77", dst=dip) / UDP(sport=50000, dport=4789) /
        VXLAN(vni=100) / INNER)
    yield "inner_tagged", "inner_tagged", (
        e / ok / VXLAN(vni=100) /
        Ether(src="02:00:00:00:7e:01", dst="ff:ff:ff:ff:ff:ff") /
        Dot1Q(vlan=100) / Raw(b"y" * 46))
    bad = e / ok / VXLAN(vni=100) / INNER
    bad = Ether(bytes(bad))
    bad[IP].chksum ^= 0x5555
    yield "ip_checksum", "bad_ip", bad
    # (no fragment: DPDK's net_af_packet asks the kernel to reassemble
    # fragments (PACKET_FANOUT_FLAG_DEFRAG), which then holds a lone one)
    yield "ip_len", "bad_ip", (
        e / IP(src=sip, dst=dip, len=400) / UDP(sport=50000, dport=4789) /
        VXLAN(vni=100) / INNER)
    badu = Ether(bytes(e / ok / VXLAN(vni=100) / INNER))
    badu[UDP].chksum = 0x1234
    yield "udp_checksum", "bad_udp", badu
    yield "other_port", "not_vxlan", (
        e / IP(src=sip, dst=dip) / UDP(sport=50000, dport=4790) /
        VXLAN(vni=100) / INNER)
    yield "ipv6", "not_ipv4", (
        e / IPv6(src="fd00::2", dst="fd00::1") / UDP(dport=4789) /
        VXLAN(vni=100) / INNER)


def main(a):
    if a == ["list"]:
        for kind, reason, _ in kinds("02:00:00:00:00:01", "10.0.0.1",
                                     "10.0.0.2"):
            print(kind, reason)
        return 0
    if len(a) != 7 or a[0] != "send":
        sys.exit(__doc__)
    iface, dmac, dip, sip, count = a[1], a[2], a[3], a[4], int(a[5])
    conf.verb = 0
    for kind, _, f in kinds(dmac, dip, sip):
        if kind == a[6]:
            sendp([f] * count, iface=iface)
            return 0
    sys.exit("no kind " + a[6])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
