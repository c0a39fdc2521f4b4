#!/usr/bin/env python3
"""Send DPDK telemetry commands back to back on one connection.

Usage: tel.py SOCKET CMD...

Prints each reply on its own line, unchanged (one JSON object per
command, e.g. {"/vsw/port": {...}}), in the order given. tools/soak uses
it to read a port's counters and delete the port with nothing in between
but the deletion itself: one vswctl per command would leave tens of
milliseconds for flood copies to reach the port after its snapshot.

Exit: 0 when every command got a reply, 1 on a connection error (a
telemetry server with too many clients closes new connections at once:
retried for 10 s), 2 on a usage error.
"""
import json
import socket
import sys
import time


def connect(path):
    end = time.monotonic() + 10
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        s.settimeout(60)
        try:
            s.connect(path)
            greeting = s.recv(1024)
            if greeting:
                return s, json.loads(greeting.decode())
        except (OSError, ValueError):
            pass
        s.close()
        if time.monotonic() > end:
            raise OSError(f"no telemetry greeting from {path}")
        time.sleep(0.05)


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        s, greeting = connect(sys.argv[1])
        size = int(greeting.get("max_output_len", 16384))
        for cmd in sys.argv[2:]:
            s.send(cmd.encode())
            reply = s.recv(size)
            if not reply:
                raise OSError(f"connection closed at {cmd}")
            print(reply.decode(), flush=True)
    except OSError as e:
        print(f"tel.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
