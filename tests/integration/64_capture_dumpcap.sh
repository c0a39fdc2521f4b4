#!/bin/bash
# Objective: DPDK's stock dpdk-dumpcap captures vsw's ethdev ports. vsw
# calls rte_pdump_init, so dpdk-dumpcap, a secondary process of vsw's
# --file-prefix, attaches and writes a file tcpdump reads holding the
# frames vsw floods to the port (stdbuf: dumpcap says "Capturing on"
# through a buffered stdout).  A secondary process cannot map a
# primary's --no-huge memory: the test reserves hugepages (given back at
# cleanup) and skips (77) when it cannot get them.  A secondary maps the
# primary's memory at the primary's addresses: vsw gets a --base-virtaddr
# far from where dpdk-dumpcap's libraries land (under ASan DPDK's default
# base lies in the shadow, vsw's memory landed among the libraries and
# dumpcap failed one run in three, "Cannot get a virtual area at
# requested address"); 0x300000000000 is clear of ASan's shadow and of
# its allocator at 0x600000000000.
. "$(dirname "$0")/lib.sh"
. "$VSW_SRC/tests/integration/lib_veth.sh"
command -v tcpdump >/dev/null || skip "tcpdump is not installed (tools/deps)"
DUMPCAP=$(command -v dpdk-dumpcap) || skip "dpdk-dumpcap is not installed (Debian's dpdk package)"
[ "${VSW_NO_HUGE:-0}" != 1 ] || skip "VSW_NO_HUGE=1: dpdk-dumpcap cannot attach to a --no-huge vsw"
hugepages_reserve 448
huge_ok 448 || skip "no 448 MiB of hugepages free (a --no-huge vsw cannot have secondary processes)"

V=vdc$ID
veth_plain "$V" "${V}p"
CFG=$(vhost_config a)
cat >>"$CFG" <<EOC
[port up]
type = ethdev
devargs = $(afp_devargs 0 "$V")
EOC
A=$(mac_of 40)
# shellcheck disable=SC2046
vsw_launch "$PREFIX" "$T/vsw.log" $(eal_mem 1 256) --base-virtaddr 0x300000000000 --lcores 0@0,1@1 -- -c "$CFG"
vsw_wait_up 60 || fail "vsw did not come up"
wait_for 30 "up is up" port_is up up

"$DUMPCAP" --file-prefix "$PREFIX" -D >"$T/list.out" 2>&1 || fail "dpdk-dumpcap -D: $(cat "$T/list.out")"
grep -q "net_af_packet0" "$T/list.out" || fail "dpdk-dumpcap -D: $(cat "$T/list.out")"

note "dpdk-dumpcap on net_af_packet0, 40 frames"
bg "$T/dumpcap.out" "$T/dumpcap.out" stdbuf -oL "$DUMPCAP" --file-prefix "$PREFIX" \
	-i net_af_packet0 -c 40 -a duration:60 -w "$T/dump.pcapng"
DPID=$BG_PID
wait_for 30 "dpdk-dumpcap attached" grep -q "Capturing on" "$T/dumpcap.out"
start_guest a "$(virtio "$RUN/a.sock")" -- --src-mac "$A" --dst-mac ff:ff:ff:ff:ff:ff --count 100 --rate 1000 --duration 10
wait_guest a
rc=0; reap_pid "$DPID" || rc=$?
cat "$T/dumpcap.out"
[ "$rc" -eq 0 ] || fail "dpdk-dumpcap exited with $rc"
n=$(tcpdump -r "$T/dump.pcapng" --count "ether src $A and ether broadcast" 2>/dev/null | awk '{print $1}')
# (dumpcap checks -c per burst: it may write more)
[ "$n" -ge 40 ] || fail "dump.pcapng holds $n of A's floods, expected 40 or more"
[ "$(port_ctr up tx_packets)" -ge 40 ] || fail "up sent $(port_ctr up tx_packets)"
stop_vsw
echo "PASS: dpdk-dumpcap captured vsw's ethdev port"
