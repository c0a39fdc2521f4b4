#!/bin/bash
# rr_flush.sh's trials on OVS-DPDK (NORMAL, one pmd on CPU 1) with its own
# knob, other_config:tx-flush-interval (µs, 0 = flush at the end of each
# pmd iteration): vswgen --rr N requester (interrupt driven) and a
# --reflect guest (poll or interrupt) on CPU 0, as dpdkvhostuserclient
# ports (the guests are the vhost-user servers). Same columns as
# rr_flush.sh (calls_per_resp: not read from OVS, printed as -).
# Not yet part of tools/bench-notify (issue 12, item 3).
#   VSW_BIN=build/bin bash tools/bench-notify.d/rr_flush_ovs.sh
. "$(cd "$(dirname "$0")/../.." && pwd)/tests/integration/lib.sh"
OVSWD=/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk
[ -x "$OVSWD" ] && command -v ovsdb-server >/dev/null || skip "OVS-DPDK not installed"
OVSD=$T/ovs
mkdir -p "$OVSD"
export OVS_RUNDIR=$OVSD OVS_DBDIR=$OVSD OVS_LOGDIR=$OVSD OVS_SYSCONFDIR=$OVSD OVS_PKGDATADIR=/usr/share/openvswitch
OPFX=${PREFIX}ovs
prefix_add "$OPFX"
octl() { ovs-vsctl --db="unix:$OVSD/db.sock" --timeout=30 "$@"; }
ovs_down() {
	ovs-appctl --target="$OVSD/ovs-vswitchd.ctl" exit >/dev/null 2>&1
	ovs-appctl --target="$OVSD/ovsdb-server.ctl" exit >/dev/null 2>&1
	for p in "$OVSD/ovs-vswitchd.pid" "$OVSD/ovsdb-server.pid"; do
		[ -f "$p" ] && stop_pid "$(cat "$p")"
	done
}
on_cleanup_early ovs_down
ovsdb-tool create "$OVSD/conf.db" /usr/share/openvswitch/vswitch.ovsschema >/dev/null
taskset -c 0 ovsdb-server "$OVSD/conf.db" --remote="punix:$OVSD/db.sock" \
	--pidfile="$OVSD/ovsdb-server.pid" --unixctl="$OVSD/ovsdb-server.ctl" \
	--log-file="$OVSD/ovsdb-server.log" --no-chdir --detach
octl --no-wait init
octl --no-wait set Open_vSwitch . other_config:dpdk-init=true \
	other_config:dpdk-lcore-mask=0x1 other_config:pmd-cpu-mask=0x2 \
	"other_config:dpdk-extra=--no-pci --file-prefix $OPFX $(mem_args 1024)" \
	other_config:vhost-iommu-support=false
"$OVSWD" "unix:$OVSD/db.sock" --pidfile="$OVSD/ovs-vswitchd.pid" \
	--unixctl="$OVSD/ovs-vswitchd.ctl" --log-file="$OVSD/ovs-vswitchd.log" \
	--no-chdir --detach >"$T/ovs.log" 2>&1 || fail "ovs-vswitchd did not start"
octl add-br br0 -- set bridge br0 datapath_type=netdev || fail "add-br"
echo "flush_us refl_mode window tps p50_us p99_us p999_us timeouts refl_cpu_pct calls_per_resp"
for fi in 0 50 150 500; do
	octl set Open_vSwitch . other_config:tx-flush-interval=$fi
	for rm in poll interrupt; do
		for w in 1 8; do
			rm -f "$OVSD/a.sock" "$OVSD/b.sock"
			start_guest refl "$(virtio "$OVSD/b.sock" server=1)" -- --reflect \
				--rx-mode $rm --poll-sleep-us 0 --announce 3 --duration 12 --link-wait 20
			start_guest req "$(virtio "$OVSD/a.sock" server=1)" -- --rr $w \
				--rx-mode interrupt --announce 3 --duration 4 --link-wait 20
			wait_for 20 "guest sockets" sh -c "[ -S '$OVSD/a.sock' ] && [ -S '$OVSD/b.sock' ]"
			octl add-port br0 b -- set Interface b type=dpdkvhostuserclient options:vhost-server-path="$OVSD/b.sock"
			octl add-port br0 a -- set Interface a type=dpdkvhostuserclient options:vhost-server-path="$OVSD/a.sock"
			wait_guest req
			wait_guest refl
			octl del-port br0 a; octl del-port br0 b
			jq -r --arg fi $fi --arg rm $rm --arg w $w \
				--arg cpu "$(guest_val refl cpu_pct)" '"\($fi) \($rm) \($w) \(.rr_tps | floor) \(.latency_ns.p50 / 1000) \(.latency_ns.p99 / 1000) \(.latency_ns.p999 / 1000) \(.rr_timeouts) \($cpu) -"' "$T/req.json"
		done
	done
done
