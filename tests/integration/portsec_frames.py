#!/usr/bin/python3
# Frames for 34_port_security.sh, crafted and captured with scapy (Debian's
# python3-scapy, hence /usr/bin/python3). Every frame carries a marker
# "VSWT:CASE!" so that the capture side can say which case it was.
#   send IFACE MAC_A MAC_B N [CASE...]: each case (or those named) N times
#       from IFACE (MAC_A, 10.9.0.1, 2001:db8:9::1 are the port's own
#       addresses); prints {case: sent}
#   storm IFACE MAC_A SECONDS: broadcasts as fast as a raw socket takes
#       them for SECONDS; prints {"sent": n, "seconds": t}
#   sniff IFACE SECONDS READY STOP: counts markers seen on IFACE until the
#       file STOP exists (SECONDS at most; READY is created once
#       capturing); prints {case: count}
import json
import os
import socket
import sys
import time

from scapy.all import (ARP, IP, UDP, AsyncSniffer, Dot1Q, Ether, ICMPv6ND_NA,
                       ICMPv6NDOptDstLLAddr, IPv6, Raw, conf, sendp)

conf.verb = 0
A4, B4, A6, B6 = "10.9.0.1", "10.9.0.2", "2001:db8:9::1", "2001:db8:9::2"
BAD_MAC = "02:66:66:66:66:66"
BC = "ff:ff:ff:ff:ff:ff"


def mark(case):
    return Raw(load=("VSWT:%s!" % case).encode())


def cases(ma, mb):
    u = UDP(sport=4321, dport=9)
    return {
        # allowed: the port's own addresses, DHCP, its ARP, its IPv6
        "ok_ip4": Ether(src=ma, dst=mb) / IP(src=A4, dst=B4) / u,
        "ok_dhcp": Ether(src=ma, dst=BC) / IP(src="0.0.0.0", dst="255.255.255.255") / UDP(sport=68, dport=67),
        "ok_arp": Ether(src=ma, dst=BC) / ARP(op=1, hwsrc=ma, psrc=A4, pdst=B4),
        "ok_arp_probe": Ether(src=ma, dst=BC) / ARP(op=1, hwsrc=ma, psrc="0.0.0.0", pdst=A4),
        "ok_ip6": Ether(src=ma, dst=mb) / IPv6(src=A6, dst=B6) / u,
        "ok_na": Ether(src=ma, dst="33:33:00:00:00:01") / IPv6(src=A6, dst="ff02::1") / ICMPv6ND_NA(tgt=A6) / ICMPv6NDOptDstLLAddr(lladdr=ma),
        # spoofed
        "bad_mac": Ether(src=BAD_MAC, dst=mb) / IP(src=A4, dst=B4) / u,
        "bad_ip4": Ether(src=ma, dst=mb) / IP(src="10.9.0.66", dst=B4) / u,
        "bad_ip4_tagged": Ether(src=ma, dst=mb) / Dot1Q(vlan=5) / IP(src="10.9.0.66", dst=B4) / u,
        "bad_ip6": Ether(src=ma, dst=mb) / IPv6(src="2001:db8:9::66", dst=B6) / u,
        "bad_arp_ip": Ether(src=ma, dst=BC) / ARP(op=2, hwsrc=ma, psrc=B4, pdst=B4),
        "bad_arp_mac": Ether(src=ma, dst=BC) / ARP(op=2, hwsrc=BAD_MAC, psrc=A4, pdst=B4),
        "bad_na": Ether(src=ma, dst="33:33:00:00:00:01") / IPv6(src=A6, dst="ff02::1") / ICMPv6ND_NA(tgt=B6),
        "bad_na_lladdr": Ether(src=ma, dst="33:33:00:00:00:01") / IPv6(src=A6, dst="ff02::1") / ICMPv6ND_NA(tgt=A6) / ICMPv6NDOptDstLLAddr(lladdr=BAD_MAC),
    }


def main():
    mode, iface = sys.argv[1], sys.argv[2]
    if mode == "send":
        ma, mb, n = sys.argv[3], sys.argv[4], int(sys.argv[5])
        only = sys.argv[6:]
        out = {}
        for case, pkt in cases(ma, mb).items():
            if only and case not in only:
                continue
            sendp([pkt / mark(case)] * n, iface=iface)
            out[case] = n
        print(json.dumps(out))
    elif mode == "storm":
        ma, secs = sys.argv[3], float(sys.argv[4])
        frame = bytes(Ether(src=ma, dst=BC) / IP(src=A4, dst="255.255.255.255") / UDP(sport=4321, dport=9) / mark("storm"))
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        s.bind((iface, 0))
        n, t0 = 0, time.monotonic()
        while time.monotonic() - t0 < secs:
            for _ in range(100):
                try:
                    s.send(frame)
                    n += 1
                except OSError:  # the veth queue is full: try again
                    pass
        print(json.dumps({"sent": n, "seconds": time.monotonic() - t0}))
    elif mode == "sniff":
        secs, ready, stop = float(sys.argv[3]), sys.argv[4], sys.argv[5]
        seen = {}

        def count(p):
            b = bytes(p)
            i = b.find(b"VSWT:")
            if i >= 0:
                case = b[i + 5:b.find(b"!", i)].decode()
                seen[case] = seen.get(case, 0) + 1

        sn = AsyncSniffer(iface=iface, prn=count, store=False,
                          started_callback=lambda: open(ready, "w").close())
        sn.start()
        t0 = time.monotonic()
        while not os.path.exists(stop) and time.monotonic() - t0 < secs:
            time.sleep(0.1)
        time.sleep(0.5)  # what is still on its way
        sn.stop()
        print(json.dumps(seen))
    else:
        sys.exit("usage: portsec_frames.py send|storm|sniff IFACE ...")


main()
