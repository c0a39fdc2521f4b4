#!/bin/bash
# Objective: a memif peer that leaves while a worker is inside the PMD's
# rx does not crash vsw (the CI segfault of 05_ethdev_memif).  DPDK
# 22.11's net_memif unmaps the peer's shared rings on the EAL interrupt
# thread (memif_disconnect -> memif_free_regions) with nothing but a plain
# CONNECTED flag between that and eth_memif_rx/tx on a worker: a worker
# past the flag when the peer goes reads unmapped memory.  gdb (non-stop:
# the worker alone) holds it just past that check while the client
# leaves, then lets it go; vsw makes the interrupt thread wait a grace
# period before it unmaps (switch/unmap_guard.c).
. "$(dirname "$0")/lib.sh"

ls /usr/lib/x86_64-linux-gnu/dpdk/pmds-*/librte_net_memif.so* >/dev/null 2>&1 ||
	skip "DPDK net_memif PMD not installed"
command -v gdb >/dev/null || skip "gdb is not installed"
N=$(mac_of 51)
MS=$RUN/memif.sock
CFG=$T/vsw.conf
cat >"$CFG" <<EOC
[switch]
run-dir = $RUN
[port uplink]
type = ethdev
devargs = net_memif0,role=server,socket=$MS,socket-abstract=no
EOC
start_vsw "$CFG"
grep -q "uplink: ethdev .*(port 0)" "$T/vsw.log" || fail "uplink is not ethdev port 0"

nic() { # a memif client: rx only, DURATION seconds
	rm -rf "/var/run/dpdk/${PREFIX}gnic"
	start_guest nic "net_memif0,role=client,socket=$MS,socket-abstract=no" -- --src-mac "$N" --announce 1 --rx-only --duration "$1"
}
# The client stays until the worker is held (attaching gdb to an ASan
# build on a slow machine took longer than a fixed trial: the client had
# gone, and a worker never passes the CONNECTED test of a port that is
# down), then leaves on SIGTERM as vswgen does at the end of a trial.
nic 600
wait_for 60 "uplink link up" port_is uplink up

# The hold point: past the PMD's CONNECTED test (testb $0x2 on pmd->flags,
# ETH_MEMIF_FLAG_CONNECTED, then its branch), found in port 0's rx
# function as this DPDK build compiled it.
GLOG=$T/gdb.log
RXF=$(gdb -batch -p "$VSW_PID" -ex 'printf "RXF %lu\n", *(long *)&rte_eth_fp_ops' 2>/dev/null |
	awk '/^RXF/ {print $2}')
if [ -z "$RXF" ] || [ "$RXF" = 0 ]; then
	skip "cannot read port 0's rx function with gdb"
fi
HOLD=$(gdb -batch -p "$VSW_PID" -ex "x/80i $RXF" 2>/dev/null |
	awk '/testb +\$0x2,/ {t = 1; next} t == 1 && /\tj/ {t = 2; next}
	     t == 2 {sub(/^[ =>]*/, ""); sub(/:.*/, ""); print; exit}')
[ -n "$HOLD" ] || skip "no CONNECTED test found in this net_memif build's rx"
W=$(grep -l rte-worker /proc/"$VSW_PID"/task/*/comm | head -1 | cut -d/ -f5)
[ -n "$W" ] || fail "no worker thread"
note "holding worker $W at $HOLD (eth_memif_rx at $(printf '%#x' "$RXF"))"

# gdb reads its commands from a fifo, as the test gives them
mkfifo "$T/gdb.in"
gdb -q -nx <"$T/gdb.in" >"$GLOG" 2>&1 &
GDB_PID=$!
track "$GDB_PID"
exec 9>"$T/gdb.in"
on_cleanup_early "exec 9>&-"
gcmd() { printf '%s\n' "$@" >&9; }
gcmd "set pagination off" "set confirm off" "set non-stop on" \
	"attach $VSW_PID" "handle SIG35 nostop noprint pass"
# attach stops every thread, each reported on its own: all before going on
NT=$(find /proc/"$VSW_PID"/task -mindepth 1 -maxdepth 1 | wc -l)
all_stopped() { [ "$(grep -c '" stopped\.$' "$GLOG")" -ge $((NT - 1)) ]; }
wait_for 30 "gdb to stop vsw's $NT threads" all_stopped
gcmd "python wt = [t for t in gdb.selected_inferior().threads() if t.ptid[1] == $W][0]" \
	"python gdb.execute('break *$HOLD thread %d' % wt.num)" \
	"continue -a &"
held() { grep -q "hit Breakpoint 1" "$GLOG"; }
wait_for 30 "the worker at the hold point" held
# the peer's regions (memfds "memif_region_N") as vsw maps them
regions() { grep -c "memif_region_" "/proc/$VSW_PID/maps" || true; }
had=$(regions)
note "worker held; the memif client leaves (vsw maps $had memif regions)"
kill -TERM "${GUEST_PID[nic]}"
rc=0
reap_pid "${GUEST_PID[nic]}" || rc=$?
[ "$rc" -le 1 ] || fail "the memif client exited with $rc on SIGTERM" # 1: interrupted
wait_for 30 "uplink down" port_is uplink down
sleep 1 # (without the guard the interrupt thread unmaps the rings now)
[ "$had" -eq 0 ] || [ "$(regions)" -eq "$had" ] ||
	fail "the memif regions were unmapped under a worker inside the PMD's rx"
gcmd "delete" "python gdb.execute('thread %d' % wt.num)" "continue &"
sleep 2
gcmd "detach" "quit"
reap_pid "$GDB_PID" || true
pid_live "$VSW_PID" || fail "vsw died when the held worker went on (memif rings unmapped under it)"
note "vsw survived the memif client leaving under a held worker"

# the port still works: a client comes back and leaves again
nic 2
wait_for 60 "uplink up again" port_is uplink up
wait_guest nic
wait_for 30 "uplink down again" port_is uplink down
[ "$(port_ctr uplink connects)" -eq 2 ] || fail "uplink connects != 2"
stop_vsw
echo "PASS: a memif peer leaving under a worker inside the PMD's rx"
