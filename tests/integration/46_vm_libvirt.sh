#!/bin/bash
# Objective: docs/integration.md's libvirt XML works. Its domain's
# <memoryBacking>, <features> and <interface> (QEMU the vhost-user
# server, the recommended mode) and its second <interface> (vsw the
# server, QEMU reconnecting) are taken from the page, put into two TCG
# domains that boot the test guest (tools/vm), and started by a private
# libvirtd: a session daemon run as the unprivileged user nobody, so
# QEMU runs as a user other than vsw's, as under the system libvirtd.
# Guest 1's socket appears in a directory nobody may write, and vsw's
# client port for it is added at run time (an agent's port-add); guest 2
# connects to vsw's server socket, opened to it by socket-group and
# socket-mode. Guest 1's interface (<driver queues='2'>) brings vsw a
# guest with 2 queue pairs, both polled. Guest 1 pings guest 2 20 times
# through vsw: at most one
# ping lost, the FDB holds each MAC on its port. Then vsw restarts and
# guest 2's QEMU reconnects (<reconnect>): its port is up again within
# 60 s. The page's whole domain
# is checked with virt-xml-validate when that is installed.
# Skips (77) when libvirt (libvirtd, virsh), setpriv, the user nobody,
# QEMU or the guest image is missing, or libvirtd cannot start here.
. "$(dirname "$0")/lib.sh"
PREFIX=vmlv$ID
PREFIXES=("$PREFIX")
command -v libvirtd >/dev/null && command -v virsh >/dev/null ||
	skip "libvirt is not installed (apt-get install libvirt-daemon-system libvirt-clients)"
command -v setpriv >/dev/null || skip "setpriv is not installed (util-linux)"
LVU=$(id -u nobody 2>/dev/null) && LVG=$(id -g nobody) || skip "no user nobody"
LVGROUP=$(id -gn nobody)
PY=/usr/bin/python3
[ -x $PY ] || PY=$(command -v python3) || skip "python3 is not installed"
. "$(dirname "$0")/lib_vm.sh"
DOC=$VSW_SRC/docs/integration.md
COUNT=20
MAC1=52:54:00:00:00:01 MAC2=52:54:00:00:00:02
IP1=10.99.0.1 IP2=10.99.0.2

# nobody must reach $RUN (vsw's sockets) and $LV (its own files)
chmod 0711 "$T"
chmod 0755 "$RUN"
LV=$T/lv
mkdir -p "$LV/home" "$LV/xdg" "$LV/log" "$RUN/vhost"
chown "$LVU:$LVG" "$LV" "$LV/home" "$LV/xdg" "$LV/log" "$RUN/vhost"
chmod 0700 "$LV/xdg"
# a command line prefix (not a function: bg's PID must be libvirtd's)
AS_NOBODY=(setpriv --reuid="$LVU" --regid="$LVG" --clear-groups env -i
	PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$LV/home" XDG_RUNTIME_DIR="$LV/xdg"
	LIBVIRT_AUTOSTART=0)   # virsh must not spawn a daemon of its own
VIRSH=("${AS_NOBODY[@]}" virsh -q -c qemu:///session)

# --- the domains, from the page ------------------------------------------
if command -v virt-xml-validate >/dev/null; then
	$PY - "$DOC" domain >"$T/doc-domain.xml" <<'PYEOF'
import re, sys
doc, name = sys.argv[1], sys.argv[2]
m = re.search(r"<!-- tested: 46_vm_libvirt.sh %s -->\n```xml\n(.*?)```" % name, open(doc).read(), re.S)
sys.stdout.write(m.group(1) if m else "")
PYEOF
	[ -s "$T/doc-domain.xml" ] || fail "no tested domain XML in $DOC"
	virt-xml-validate "$T/doc-domain.xml" domain >"$T/validate.log" 2>&1 ||
		fail "the page's domain XML: $(cat "$T/validate.log")"
	note "virt-xml-validate: the page's domain validates"
fi
cat >"$T/mkdomain.py" <<'PYEOF'
# mkdomain.py DOC WHICH NAME IP CMD RUN LOG KERNEL INITRD: a TCG domain for
# the test guest with the page's memoryBacking, features and the
# interface of block WHICH (domain: the first, interface: the second)
import base64, re, sys
import xml.etree.ElementTree as ET
doc, which, name, ip, cmd, run, log, kernel, initrd = sys.argv[1:]
text = open(doc).read()
def block(n):
    m = re.search(r"<!-- tested: 46_vm_libvirt.sh %s -->\n```xml\n(.*?)```" % n, text, re.S)
    if not m:
        sys.exit("no block %s in %s" % (n, doc))
    return ET.fromstring(m.group(1))
dom = block("domain")
iface = dom.find("devices/interface") if which == "domain" else block("interface")
Q = "http://libvirt.org/schemas/domain/qemu/1.0"
ET.register_namespace("qemu", Q)
d = ET.Element("domain", type="qemu")
ET.SubElement(d, "name").text = name
ET.SubElement(d, "memory", unit="MiB").text = "256"
ET.SubElement(d, "vcpu").text = "1"
d.append(dom.find("memoryBacking"))
os_ = ET.SubElement(d, "os")
ET.SubElement(os_, "type", arch="x86_64", machine="pc").text = "hvm"
ET.SubElement(os_, "kernel").text = kernel
ET.SubElement(os_, "initrd").text = initrd
line = "console=ttyS0 quiet panic=-1 vswip=%s/24" % ip
if cmd:
    line += " vswcmd64=" + base64.b64encode(cmd.encode()).decode()
ET.SubElement(os_, "cmdline").text = line
d.append(dom.find("features"))
for ev in ("on_poweroff", "on_reboot", "on_crash"):
    ET.SubElement(d, ev).text = "destroy"
dev = ET.SubElement(d, "devices")
src = iface.find("source")
src.set("path", src.get("path").replace("/run/vsw/", run + "/"))
dev.append(iface)
ser = ET.SubElement(dev, "serial", type="file")
ET.SubElement(ser, "source", path=log)
ET.SubElement(ser, "target", port="0")
ET.SubElement(dev, "memballoon", model="none")
# TCG only: QEMU 7.2 crashes starting vhost-user with MSI-X
qc = ET.SubElement(d, "{%s}commandline" % Q)
for a in ("-global", "virtio-net-pci.vectors=0"):
    ET.SubElement(qc, "{%s}arg" % Q, value=a)
# a multiqueue interface: libvirt sets vectors=2N+2 on the device itself,
# which -global does not override; <qemu:override> (libvirt >= 8.2) does
if iface.find("driver") is not None and iface.find("driver").get("queues"):
    qo = ET.SubElement(d, "{%s}override" % Q)
    qd = ET.SubElement(qo, "{%s}device" % Q, alias="net0")
    qf = ET.SubElement(qd, "{%s}frontend" % Q)
    ET.SubElement(qf, "{%s}property" % Q, name="vectors", type="unsigned", value="0")
print(ET.tostring(d, encoding="unicode"))
PYEOF
mkdom() { # WHICH NAME IP CMD -> $T/NAME.xml
	$PY "$T/mkdomain.py" "$DOC" "$1" "$2" "$3" "$4" "$RUN" "$LV/log/$2.log" \
		"$VSW_VM_KERNEL" "$VSW_VM_INITRD" >"$T/$2.xml" || fail "cannot make domain $2 from $DOC"
	chmod 0644 "$T/$2.xml"
}
D1=vswt${ID}g1 D2=vswt${ID}g2
mkdom domain "$D1" $IP1 "vsw-waitpeer $IP2 200 && ping -c $COUNT -i 0.2 $IP2"
mkdom interface "$D2" $IP2 ""   # idle: it answers pings until destroyed
S1=$(sed -n "s|.*<source type=\"unix\" path=\"\([^\"]*\)\".*|\1|p" "$T/$D1.xml")
S2=$(sed -n "s|.*<source type=\"unix\" path=\"\([^\"]*\)\".*|\1|p" "$T/$D2.xml")
note "guest 1 (QEMU server): $S1; guest 2 (vsw server): $S2"
case $S1 in "$RUN"/vhost/*) ;; *) fail "guest 1's socket $S1 is not below $RUN/vhost" ;; esac

# --- vsw: guest 2's server port, open to nobody's group --------------------
CFG=$T/vsw.conf
cat >"$CFG" <<EOF
[switch]
run-dir = $RUN
mbufs = 8191
fdb-size = 4096
socket-group = $LVGROUP
socket-mode = 0660
[port g2]
type = vhost-user
path = $S2
mode = server
EOF
start_vsw "$CFG"
[ "$(stat -c %a:%G "$S2")" = "660:$LVGROUP" ] || fail "vsw's socket is $(stat -c %a:%G "$S2"), expected 660:$LVGROUP"

# --- a private libvirtd, as nobody -------------------------------------------
# In the foreground, our child (reaped at cleanup); QEMU's output to files
# rather than through virtlogd, which would daemonize beyond our reach.
mkdir -p "$LV/home/.config/libvirt"
echo 'stdio_handler = "file"' >"$LV/home/.config/libvirt/qemu.conf"
chown -R "$LVU:$LVG" "$LV/home/.config"
on_cleanup_early "lv_stop"
lv_stop() {
	local d
	[ -n "${LVD:-}" ] || return 0
	for d in "$D1" "$D2"; do "${VIRSH[@]}" destroy "$d" >/dev/null 2>&1; done
	stop_pid "$LVD"
	LVD=
}
cd "$LV" && bg "$T/libvirtd.log" "$T/libvirtd.log" "${AS_NOBODY[@]}" libvirtd && cd - >/dev/null
LVD=$BG_PID
wait_until 5 grep -q '^libvirtd' "/proc/$LVD/comm" || fail "libvirtd is not process $LVD"
wait_until 20 test -S "$LV/xdg/libvirt/libvirt-sock" ||
	skip "libvirtd does not start here (no socket in 20 s): $(tail -2 "$T/libvirtd.log")"
note "libvirtd $(libvirtd --version | awk '{print $NF}') runs as nobody"

# a failure shows the consoles and QEMU's logs (dump_logs: $T/*.log)
for d in "$D1" "$D2"; do
	ln -s "$LV/log/$d.log" "$T/$d-console.log"
	ln -s "$LV/home/.cache/libvirt/qemu/log/$d.log" "$T/$d-qemu.log"
done
# guest 2 first: QEMU connects to vsw and starts at once
"${VIRSH[@]}" create "$T/$D2.xml" >"$T/create2.log" 2>&1 || fail "virsh create $D2: $(cat "$T/create2.log")"
# guest 1: QEMU creates its socket and waits for vsw (so does virsh);
# then the "agent" adds vsw's client port
"${VIRSH[@]}" create "$T/$D1.xml" >"$T/create1.log" 2>&1 &
C1=$!
track "$C1"
wait_for 30 "QEMU's socket $S1" test -S "$S1"
[ "$(stat -c %U "$S1")" = "$(id -un nobody)" ] || fail "$S1 belongs to $(stat -c %U "$S1"), not QEMU's user"
ctl port-add g1 type=vhost-user mode=client "path=$S1" >/dev/null || fail "vswctl port-add g1"
reap_pid "$C1" || fail "virsh create $D1: $(cat "$T/create1.log")"
note "both domains run: $("${VIRSH[@]}" list --name | tr '\n' ' ')"
# the domain's <driver queues='2'>: vsw polls both of the guest's pairs
# (read while guest 1 runs: it powers off after its pings)
wait_for 120 "g1 up" port_is g1 up
v=$(jctl port g1 | jq -c '{guest_queue_pairs, queues}')
note "g1: $v"
[ "$v" = '{"guest_queue_pairs":2,"queues":2}' ] || fail "g1: not a guest with 2 queue pairs, both polled: $v"
for d in "$D1" "$D2"; do
	p=$(cat "$LV/xdg/libvirt/qemu/run/$d.pid" 2>/dev/null) && track "$p"
done

# guest 1 powers off after its pings (on_poweroff destroy)
wait_for 240 "guest 1's result" grep -aq '^VSW-RESULT:' "$LV/log/$D1.log"
grep -a '^VSW-' "$LV/log/$D1.log" "$LV/log/$D2.log"
ctl ports
res=$(grep -a '^VSW-RESULT:' "$LV/log/$D1.log" | tail -1)
tx=$(echo "$res" | sed -n 's/.* tx=\([0-9]*\).*/\1/p')
rx=$(echo "$res" | sed -n 's/.* rx=\([0-9]*\).*/\1/p')
[ "$tx" = "$COUNT" ] || fail "guest 1 sent ${tx:-no} pings, expected $COUNT: $res"
[ "${rx:-0}" -ge $((COUNT - 1)) ] || fail "guest 1 got $rx/$tx replies: $res"
[ "$(fdb_port $MAC1)" = g1 ] || fail "FDB: $MAC1 on '$(fdb_port $MAC1)', expected g1"
[ "$(fdb_port $MAC2)" = g2 ] || fail "FDB: $MAC2 on '$(fdb_port $MAC2)', expected g2"
for p in g1 g2; do
	v=$(port_ctr $p rx_packets)
	[ "$v" -ge "$rx" ] || fail "port $p: rx_packets = $v, expected >= $rx"
done
# vsw restarts (systemctl restart vsw): guest 2's QEMU reconnects by
# itself (<reconnect enabled='yes' timeout='10'/>), the port comes back up
stop_vsw
note "vsw stopped; starting it again"
start_vsw "$CFG"
t0=$(date +%s)
wait_for 60 "guest 2 to reconnect after the vsw restart" port_is g2 up
note "guest 2 reconnected $(( $(date +%s) - t0 )) s after vsw came back"
lv_stop
stop_vsw
echo "PASS: libvirt domains from docs/integration.md pinged through vsw: $res; QEMU reconnected after a vsw restart"
