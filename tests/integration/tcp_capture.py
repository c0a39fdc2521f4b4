#!/usr/bin/python3
"""tcp_capture.py PCAP FRAMES PAYLOAD: check a capture of tso_peer's TCP
stream (tests 53 and 72): exactly FRAMES frames carrying PAYLOAD TCP
payload bytes in all, every payload byte the pattern of its sequence
number (tests/tso/tso_peer.c), every IPv4 and TCP checksum right, none
longer than 1514 bytes.  Prints what it found; exit 0 when all holds."""
import sys

from scapy.all import IP, TCP, rdpcap

pk = rdpcap(sys.argv[1])
want_n, want_pl = int(sys.argv[2]), int(sys.argv[3])
bad = big = pl = 0
for p in pk:
    t = p[TCP]
    data = bytes(t.payload)
    pl += len(data)
    seq = t.seq
    pat = (((seq + i) & 0xFFFFFFFF) for i in range(len(data)))
    if any(b != (s * 7 + (s >> 8)) & 0xFF for b, s in zip(data, pat)):
        bad += 1
    c0 = t.chksum
    del t.chksum
    if IP in p:
        i0 = p[IP].chksum
        del p[IP].chksum
    q = p.__class__(bytes(p))
    if q[TCP].chksum != c0 or (IP in q and q[IP].chksum != i0):
        bad += 1
    if len(p) > 1514:
        big += 1
print("capture: %d frames (want %d), %d payload bytes (want %d), %d bad, "
      "%d over 1514 bytes" % (len(pk), want_n, pl, want_pl, bad, big))
sys.exit(0 if len(pk) == want_n and pl == want_pl and bad == big == 0
         else 1)
