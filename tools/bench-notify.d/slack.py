#!/usr/bin/env python3
# tools/bench-notify.d/slack.py NS CMD [ARGS...]: exec CMD with the timer
# slack set to NS nanoseconds (prctl PR_SET_TIMERSLACK; inherited across
# exec). vswgen --poll-sleep-us then sleeps close to what it asks instead
# of the default 50 us slack, so a sleeping generator can pace single
# frames at tens of kpps.
import ctypes
import os
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(29, int(sys.argv[1]), 0, 0, 0)  # PR_SET_TIMERSLACK
os.execvp(sys.argv[2], sys.argv[2:])
