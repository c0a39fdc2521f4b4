#!/usr/bin/env python3
# Raw Ethernet frames through a kernel interface (an AF_PACKET socket), in
# vswgen's format: ethertype 0x88b5, struct gen_hdr (tools/vswgen/vswgen.h),
# then the --verify pattern of tools/vswgen/payload.c, so that frames sent
# here and frames a vswgen guest sends are checked the same way, byte for
# byte, by a receiver that owes nothing to DPDK.
#
#   rawframes.py send IFACE DST_MAC COUNT SIZE     (frames of SIZE bytes)
#   rawframes.py recv IFACE COUNT SECONDS [SIZE]   (JSON result on stdout)
#   rawframes.py selftest                          (the check can fail)
#
# recv reports every frame of ethertype 0x88b5 that carries vswgen's magic:
# received, verified (pattern right to the last byte), payload_errors,
# len_errors (captured length != the length in the header, or != SIZE),
# and stops after COUNT verified frames or SECONDS. Exit 0 when COUNT
# frames verified and none was wrong.
import json
import os
import socket
import struct
import sys
import time

ETH_P = 0x88B5
MAGIC = 0x56535747  # GEN_MAGIC, "VSWG"
HF_PATTERN = 0x0001
HDR = struct.Struct("<IIIIQQHH")  # struct gen_hdr, packed, little endian
STEP = 0x9E3779B97F4A7C15
M64 = (1 << 64) - 1


def mix64(x):
    x ^= x >> 33
    x = (x * 0xFF51AFD7ED558CCD) & M64
    x ^= x >> 33
    x = (x * 0xC4CEB9FE1A85EC53) & M64
    x ^= x >> 33
    return x


def seed_of(run_id, trial, flow, seq):
    s = mix64(((run_id << 32) | trial) & M64)
    s = mix64(s ^ flow)
    return mix64(s ^ seq)


def pattern(seed, start, end):
    """Bytes of positions [start, end) (position 0: first byte of gen_hdr)."""
    w0, w1 = start // 8, (end + 7) // 8
    words = [(seed + k * STEP) & M64 for k in range(w0, w1)]
    raw = struct.pack("<%dQ" % len(words), *words)
    return raw[start - w0 * 8 : end - w0 * 8]


def mac_bytes(s):
    return bytes(int(x, 16) for x in s.split(":"))


def build(dst, src, run_id, seq, size):
    eth = dst + src + struct.pack("!H", ETH_P)
    hdr = HDR.pack(MAGIC, run_id, 0, 0, seq, 0, size, HF_PATTERN)
    body = pattern(seed_of(run_id, 0, 0, seq), HDR.size, size - len(eth))
    return eth + hdr + body


def send(iface, dst, count, size):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P))
    s.bind((iface, 0))
    src = s.getsockname()[4][:6]
    run_id = int.from_bytes(os.urandom(4), "little")
    for seq in range(count):
        f = build(mac_bytes(dst), src, run_id, seq, size)
        if s.send(f) != len(f):
            sys.exit("short send")
        time.sleep(0.002)
    return 0


def verdict(f, size):
    """verified, len_errors or payload_errors: one vswgen frame checked."""
    magic, run_id, trial, flow, seq, _tsc, ln, flags = HDR.unpack_from(f, 14)
    if len(f) != ln or (size and len(f) != size):
        return "len_errors"
    want = pattern(seed_of(run_id, trial, flow, seq), HDR.size, ln - 14)
    return "verified" if f[14 + HDR.size :] == want else "payload_errors"


def selftest():
    """The check sees one flipped byte anywhere, and a cut frame."""
    dst, src = mac_bytes("02:00:00:00:00:01"), mac_bytes("02:00:00:00:00:02")
    f = build(dst, src, 7, 3, 9014)
    bad = [verdict(f, 9014) != "verified"]
    for pos in (50, 51, 4000, 9013):
        g = bytearray(f)
        g[pos] ^= 0x01
        bad.append(verdict(bytes(g), 9014) != "payload_errors")
    bad.append(verdict(f[:2000], 0) != "len_errors")
    print("selftest: %s" % ("FAIL" if any(bad) else "ok"))
    return 1 if any(bad) else 0


def recv(iface, count, secs, size):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P))
    s.setsockopt(socket.SOL_SOCKET, 33, 32 << 20)  # SO_RCVBUFFORCE
    s.bind((iface, 0))
    s.settimeout(0.2)
    print("ready", file=sys.stderr, flush=True)
    r = {"received": 0, "verified": 0, "payload_errors": 0, "len_errors": 0,
         "len_max": 0}
    end = time.time() + secs
    while r["verified"] < count and time.time() < end:
        try:
            f = s.recv(65536)
        except socket.timeout:
            continue
        if len(f) < 14 + HDR.size or f[12:14] != b"\x88\xb5":
            continue
        magic, run_id, trial, flow, seq, _tsc, ln, flags = HDR.unpack_from(f, 14)
        if magic != MAGIC or not flags & HF_PATTERN:
            continue  # vswgen's announcements carry no pattern
        r["received"] += 1
        r["len_max"] = max(r["len_max"], len(f))
        r[verdict(f, size)] += 1
    print(json.dumps(r))
    ok = r["verified"] >= count and not r["payload_errors"] and not r["len_errors"]
    return 0 if ok else 1


def main(a):
    if a[:1] == ["selftest"]:
        return selftest()
    if len(a) >= 5 and a[0] == "send":
        return send(a[1], a[2], int(a[3]), int(a[4]))
    if len(a) >= 4 and a[0] == "recv":
        return recv(a[1], int(a[2]), float(a[3]), int(a[4]) if len(a) > 4 else 0)
    sys.exit(__doc__ or "usage: rawframes.py send|recv ...")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
