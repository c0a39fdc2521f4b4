#!/usr/bin/env python3
# tools/bench-notify.d/tel.py PREFIX CMD [CMD...]
# Sends each telemetry command to vsw's socket
# (/var/run/dpdk/PREFIX/dpdk_telemetry.v2) over one connection and prints
# one JSON object {"CMD": reply-data, ...} on one line. Exit 1 when the
# socket cannot be reached.
import json
import socket
import sys


def main():
    if len(sys.argv) < 3:
        print("usage: tel.py PREFIX CMD [CMD...]", file=sys.stderr)
        return 2
    path = "/var/run/dpdk/%s/dpdk_telemetry.v2" % sys.argv[1]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(5)
    try:
        s.connect(path)
        json.loads(s.recv(65536).decode())  # greeting
        out = {}
        for cmd in sys.argv[2:]:
            s.send(cmd.encode())
            r = json.loads(s.recv(1 << 20).decode() or "null")
            # the reply's key is the command without its parameters
            out[cmd] = next(iter(r.values())) if isinstance(r, dict) and len(r) == 1 else r
    except (OSError, ValueError) as e:
        print("tel.py: %s: %s" % (path, e), file=sys.stderr)
        return 1
    finally:
        s.close()
    print(json.dumps(out, separators=(",", ":")))
    return 0


sys.exit(main())
