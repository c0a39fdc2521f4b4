/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The table of configuration keys (see vsw_keys.h), its look-ups and its
 * printer (`vsw --help-config`, the key tables of docs/configuration.md).
 * Adding a key: a row here and a field in vsw_config.h; a new kind of
 * value also needs its parser in config.c.
 */
#include <string.h>

#include "vsw_config.h"
#include "vsw_keys.h"

#define STR_(x) #x
#define STR(x) STR_(x) /* a numeric constant as text, for help strings */

#define SW(f)                                                                  \
	.sect = VSW_SECT_SWITCH, .off = offsetof(struct vsw_switch_conf, f),   \
	.size = sizeof(((struct vsw_switch_conf *)0)->f)
#define PT(f)                                                                  \
	.sect = VSW_SECT_PORT, .off = offsetof(struct vsw_port_conf, f),       \
	.size = sizeof(((struct vsw_port_conf *)0)->f)

_Static_assert(VSW_KEY_VHOST == 1u << VSW_PORT_VHOST, "port kind bits");
_Static_assert(VSW_KEY_ETHDEV == 1u << VSW_PORT_ETHDEV, "port kind bits");
_Static_assert(VSW_KEY_VXLAN == 1u << VSW_PORT_VXLAN, "port kind bits");
_Static_assert(sizeof(enum vsw_port_type) == sizeof(unsigned int) &&
		       sizeof(enum vsw_vhost_mode) == sizeof(unsigned int) &&
		       sizeof(enum vsw_poll_mode) == sizeof(unsigned int) &&
		       sizeof(enum vsw_vlan_mode) == sizeof(unsigned int) &&
		       sizeof(enum vsw_offloads) == sizeof(unsigned int) &&
		       sizeof(enum vsw_port_on_off) == sizeof(unsigned int),
	       "CHOICE keys store an unsigned int or a bool");

static const struct vsw_key_choice poll_modes[] = {
	{"busy", VSW_POLL_BUSY}, {"adaptive", VSW_POLL_ADAPTIVE}, {NULL, 0}};
static const struct vsw_key_choice on_off[] = {
	{"on", 1}, {"off", 0}, {NULL, 0}};
static const struct vsw_key_choice guest_calls[] = {
	{"direct", 1}, {"relay", 0}, {NULL, 0}};
static const struct vsw_key_choice offloads[] = {
	{"on", VSW_OFFLOADS_ON}, {"off", VSW_OFFLOADS_OFF}, {NULL, 0}};
static const struct vsw_key_choice port_on_off[] = {
	{"on", VSW_PORT_ON}, {"off", VSW_PORT_OFF}, {NULL, 0}};
static const struct vsw_key_choice controls[] = {
	{"read-write", 0}, {"read-only", 1}, {NULL, 0}};
static const struct vsw_key_choice port_types[] = {
	{"vhost-user", VSW_PORT_VHOST},
	{"ethdev", VSW_PORT_ETHDEV},
	{"vxlan", VSW_PORT_VXLAN},
	{NULL, 0}};
static const struct vsw_key_choice vlan_modes[] = {
	{"access", VSW_VLAN_ACCESS},
	{"trunk", VSW_VLAN_TRUNK},
	{"native-untagged", VSW_VLAN_NATIVE_UNTAGGED},
	{"native-tagged", VSW_VLAN_NATIVE_TAGGED},
	{NULL, 0}};
static const struct vsw_key_choice vhost_modes[] = {
	{"server", VSW_VHOST_SERVER}, {"client", VSW_VHOST_CLIENT}, {NULL, 0}};

#define LCORES_ROW                                                             \
	.kind = VSW_KIND_LCORES, PT(lcores), .ports = VSW_KEY_ANY,             \
	.max = VSW_LCORE_ID_MAX, .type = "list of lcore ids",                  \
	.shown = "vsw chooses"

#define NAME_CHARS                                                             \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"
#define PATH_CHARS NAME_CHARS "/"
/* socket-owner, socket-group: a name of the system's database, or an id */
#define ACCOUNT_ROW(acct, noun_)                                               \
	.kind = VSW_KIND_STRING, .account = acct, .max = VSW_ACCOUNT_MAX - 1,  \
	.charset = NAME_CHARS, .type = noun_ " name or id",                    \
	.what = "a " noun_ " name of [A-Za-z0-9_.-] that exists on this "      \
		"host, or a numeric id"
#define SOCKET_MODE_ROW                                                        \
	.kind = VSW_KIND_OCTAL, .min = 0600, .max = 0777,                      \
	.what = "octal permissions",                                           \
	.note = " with the owner's rw bits set, e.g. 0660",                    \
	.type = "octal, with a leading 0"

/*
 * [switch]: the keys `set` takes first, then those fixed at start-up (in
 * the order the "fixed at start-up" message lists them).
 */
const struct vsw_key vsw_keys[] = {
	{"burst", SW(burst), .min = 1, .max = VSW_BURST_MAX, .dflt = "32",
	 .runtime = true,
	 .help = "Packets per rx/tx burst; 4 or more with NIC ports."},
	{"tx-flush-interval-us", SW(tx_flush_interval_us), .max = 1000000,
	 .note = " (0 = flush every iteration)", .dflt = "0", .runtime = true,
	 .help = "A port flushes a partly filled tx burst at most once per "
		 "interval: a frame waits at most this long, none to a port "
		 "that was quiet; 0 = flush at the end of every polling "
		 "iteration."},
	{"tx-flush-adaptive", SW(tx_flush_adaptive), .kind = VSW_KIND_CHOICE,
	 .choices = on_off, .dflt = "on", .runtime = true,
	 .help = "on: a port whose last 8 waits for tx-flush-interval-us "
		 "each gathered no frame more flushes at the end of every "
		 "iteration (as with 0), waiting again after 16, 32, ... "
		 "1024 flushes to see whether waiting gathers frames now; "
		 "off: every partial flush waits for the interval."},
	{"tx-retries", SW(tx_retries), .max = 32, .dflt = "4", .runtime = true,
	 .help = "Immediate retries of what a full guest ring or NIC queue "
		 "refused; the rest is held (tx-hold-us) or dropped "
		 "(drop_tx_full)."},
	{"tx-hold-us", SW(tx_hold_us), .max = 10000000, .dflt = "1000",
	 .runtime = true, .note = " (0 = drop at once)",
	 .help = "What a full guest ring or NIC queue refused stays in the "
		 "port's tx buffer (at most burst - 1 frames) and is offered "
		 "again on each later flush, while the port takes at least "
		 "one frame per interval; a port that took nothing for this "
		 "long has them dropped (drop_tx_full) and holds no more "
		 "until it takes a frame."},
	{"poll-mode", SW(poll_mode), .kind = VSW_KIND_CHOICE,
	 .choices = poll_modes, .dflt = "busy", .runtime = true,
	 .help = "busy polls at 100% CPU; adaptive sleeps when idle "
		 "(idle-threshold-us, max-sleep-us)."},
	{"kick-suppression", SW(kick_suppression), .kind = VSW_KIND_CHOICE,
	 .choices = on_off, .dflt = "on", .runtime = true,
	 .help = "on: guests are told not to kick the rings vsw polls; off "
		 "only to measure what that saves."},
	{"call-suppression", SW(call_suppression), .kind = VSW_KIND_CHOICE,
	 .choices = on_off, .dflt = "on", .runtime = true,
	 .help = "on: vsw calls (interrupts) a guest only when it asks; off: "
		 "after every enqueue, even to a polling guest (to measure "
		 "what suppression saves)."},
	{"guest-rx-spread", SW(guest_rx_spread), .kind = VSW_KIND_CHOICE,
	 .choices = on_off, .dflt = "on", .runtime = true,
	 .help = "on: a guest using more queue pairs than vsw has workers "
		 "gets its frames spread over all its rx queues by flow "
		 "(each flow in order on one); off: each worker sends into "
		 "one queue pair, as with fewer pairs."},
	{"guest-calls", SW(guest_calls_direct), .kind = VSW_KIND_CHOICE,
	 .choices = guest_calls, .dflt = "direct", .runtime = true,
	 .help = "direct: a worker writes an interrupt-driven guest's call "
		 "eventfd itself, under a watchdog (a port whose writes block "
		 "or are slow falls back to relay for good); relay: a thread "
		 "per port writes it (one more thread hop per call)."},
	{"idle-threshold-us", SW(idle_threshold_us), .min = 1, .max = 1000000,
	 .dflt = "200", .runtime = true,
	 .help = "Adaptive: idle time before a worker sleeps."},
	{"max-sleep-us", SW(max_sleep_us), .min = 10, .max = 1000000,
	 .dflt = "1000", .runtime = true,
	 .help = "Adaptive: longest sleep; bounds the added latency of NIC "
		 "ports."},
	{"fdb-aging-s", SW(fdb_aging_s), .max = 86400, .note = " (0 = never)",
	 .dflt = "300", .runtime = true,
	 .help = "Seconds before an idle MAC entry is removed; 0 = never."},
	{"rebalance-interval-s", SW(rebalance_interval_s), .max = 1200000,
	 .note = " (0 = off)", .dflt = "0", .runtime = true,
	 .help = "Every N s, move rx queues between workers whose load "
		 "differs; 0 = off."},
	{"rebalance-threshold-pct", SW(rebalance_threshold_pct), .min = 1,
	 .max = 100, .dflt = "25", .runtime = true,
	 .help = "Imbalance of the workers' busy cycles, (max - min) / max, "
		 "that triggers a rebalance."},
	{"rebalance-improvement-pct", SW(rebalance_improvement_pct), .max = 100,
	 .dflt = "25", .runtime = true,
	 .help = "Automatic rebalance: moves queues only when the plan "
		 "lightens the busiest worker by this much (0 = by anything)."},
	{"bridge", SW(bridge), .kind = VSW_KIND_STRING,
	 .max = sizeof(((struct vsw_switch_conf *)0)->bridge) - 1,
	 .charset = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_-.",
	 .what = "a bridge name of [A-Za-z0-9_.-]",
	 .type = "bridge name, [A-Za-z0-9_.-]", .dflt = "",
	 .shown = "empty: none", .runtime = true,
	 .help = "The OVS bridge name vsw-vsctl add-br gave the switch "
		 "(docs/vsw-vsctl.md); empty: none."},
	{"run-dir", SW(run_dir), .kind = VSW_KIND_PATH, .max = VSW_PATH_MAX,
	 .dflt = VSW_DEFAULT_RUN_DIR,
	 .help = "Directory of the default vhost-user sockets; sockets of "
		 "ports added at run time lie below it (or socket-dirs); "
		 "offloads-acked/ there records the guests that acked "
		 "offloads (docs/offloads.md)."},
	{"fdb-size", SW(fdb_size), .min = 16, .max = VSW_MAX_MACS_MAX,
	 .dflt = "65536", .help = "Entries in the MAC learning table (FDB)."},
	{"mbufs", SW(mbufs), .min = 1024, .max = 4194304, .dflt = "32767",
	 .help = "Packet buffers in the mbuf pool."},
	{"big-mbufs", SW(big_mbufs), .min = 0, .max = 65535, .dflt = "1023",
	 .help = "64 KiB packet buffers for the frames of guests that "
		 "negotiated TSO (or ports with an mtu over 1500), when "
		 "offloads are on; 64 MiB by default, 0: such frames take "
		 "external buffers from DPDK's heap (docs/offloads.md)."},
	{"offloads", SW(offloads), .kind = VSW_KIND_CHOICE, .choices = offloads,
	 .dflt = "on",
	 .help = "on: guests may hand vsw TCP segments of up to 64 KiB and "
		 "checksums to fill (TSO, checksum offload), segmented in "
		 "software for outputs that cannot take them; off: no "
		 "virtio-net offload is offered (docs/offloads.md)."},
	{"control", SW(read_only), .kind = VSW_KIND_CHOICE, .choices = controls,
	 .dflt = "read-write",
	 .help = "read-only: every mutating telemetry command is refused."},
	{"port-add-drivers", SW(port_add_drivers), .kind = VSW_KIND_STRING,
	 .max = VSW_PATH_MAX - 1,
	 .charset = "abcdefghijklmnopqrstuvwxyz0123456789_ ",
	 .what = "driver names such as \"pci net_memif\" separated by spaces "
		 "(\"\" = none)",
	 .type = "driver names, [a-z0-9_ ]", .dflt = "pci net_memif",
	 .help = "Drivers a runtime port-add may probe (pci: PCI addresses); "
		 "empty: none."},
	{"socket-mode", SW(socket_mode), SOCKET_MODE_ROW, .dflt = "0600",
	 .help = "Permissions of each vhost-user server socket vsw creates; "
		 "owner rw always set."},
	{"socket-owner", SW(socket_owner), ACCOUNT_ROW(VSW_ACCT_USER, "user"),
	 .dflt = "", .shown = "empty: unchanged",
	 .help = "Owner of each vhost-user server socket vsw creates (e.g. "
		 "libvirt-qemu)."},
	{"socket-group", SW(socket_group), ACCOUNT_ROW(VSW_ACCT_GROUP, "group"),
	 .dflt = "", .shown = "empty: unchanged",
	 .help = "Group of each vhost-user server socket vsw creates (e.g. "
		 "kvm, with socket-mode 0660)."},
	{"socket-dirs", SW(socket_dirs), .kind = VSW_KIND_STRING,
	 .max = VSW_PATH_MAX - 1, .charset = PATH_CHARS " ",
	 .what = "absolute directories of [A-Za-z0-9_.-/] separated by "
		 "spaces (no '.' or '..' components)",
	 .type = "directories, separated by spaces", .dflt = "",
	 .shown = "empty: run-dir only",
	 .help = "Directories besides run-dir where a runtime port-add may "
		 "place vhost-user sockets (e.g. /var/run/openvswitch)."},
	{"socket-watch-dir", SW(socket_watch_dir), .kind = VSW_KIND_STRING,
	 .max = VSW_SUN_PATH_MAX - 3, .charset = PATH_CHARS,
	 .what = "an absolute directory of [A-Za-z0-9_.-/] (no '.' or '..' "
		 "components; \"\" = off)",
	 .type = "absolute path", .dflt = "", .shown = "empty: off",
	 .help = "Plug each unix socket that appears here as a vhost-user "
		 "client port named after the file; see "
		 "docs/configuration.md."},
	{"socket-watch-profile", SW(socket_watch_profile),
	 .kind = VSW_KIND_STRING, .max = VSW_PATH_MAX - 1,
	 .charset = PATH_CHARS " ,=:",
	 .what = "port-add keys KEY=VALUE,... (not type, path or mode)",
	 .type = "port-add keys", .dflt = "", .shown = "empty: port defaults",
	 .help = "Keys of the ports socket-watch-dir plugs, e.g. "
		 "queues=2,vlan-mode=access,tag=10."},
	{"ovsdb", SW(ovsdb), .kind = VSW_KIND_STRING,
	 .max = sizeof(((struct vsw_switch_conf *)0)->ovsdb) - 1,
	 .charset = PATH_CHARS ":[]",
	 .what = "unix:/absolute/path or tcp:IPv4:PORT or tcp:[IPv6]:PORT "
		 "(\"\" = off)",
	 .type = "unix:PATH, tcp:IP:PORT", .dflt = "", .shown = "empty: off",
	 .help = "Take ports from this OVSDB (ovsdb-server's Open_vSwitch "
		 "database), as ovs-vswitchd does; see docs/integration.md."},
	{"state-file", SW(state_file), .kind = VSW_KIND_PATH,
	 .max = VSW_PATH_MAX, .shown = "<run-dir>/" VSW_STATE_FILE,
	 .help = "Where vsw keeps what changed at run time (ports, set, "
		 "static MACs); restored at start."},
	{"metrics-listen", SW(metrics_listen), .kind = VSW_KIND_STRING,
	 .max = VSW_LISTEN_MAX - 1,
	 .what = "IPV4:PORT or [IPV6]:PORT, numeric, port 1..65535, e.g. "
		 "127.0.0.1:9417 (\"\" = off)",
	 .type = "ADDR:PORT", .dflt = "", .shown = "empty: off",
	 .help = "Serve the Prometheus text of vswctl metrics at GET /metrics "
		 "on this TCP address (docs/telemetry.md); empty: off."},

	/* [port NAME] */
	{"type", PT(type), .kind = VSW_KIND_CHOICE, .choices = port_types,
	 .ports = VSW_KEY_ANY, .required = true, .help = "Kind of port."},
	{"path", PT(path), .kind = VSW_KIND_PATH, .max = VSW_SUN_PATH_MAX,
	 .note = " (sun_path)", .ports = VSW_KEY_VHOST,
	 .shown = "<run-dir>/<NAME>.sock",
	 .help = "vhost-user socket; unique among ports."},
	{"mode", PT(mode), .kind = VSW_KIND_CHOICE, .choices = vhost_modes,
	 .ports = VSW_KEY_VHOST, .dflt = "server",
	 .help = "server: vsw creates the socket; client: vsw connects to "
		 "QEMU's (server=on)."},
	{"devargs", PT(devargs), .kind = VSW_KIND_STRING, .min = 1,
	 .max = VSW_DEVARGS_MAX - 2, .ports = VSW_KEY_DEV, .rest = true,
	 .what = "ethdev devargs such as net_memif0,role=server",
	 .type = "string", .required = true,
	 .help = "The DPDK device, as for --vdev or -a (vxlan: the "
		 "underlay); last in a runtime list (it holds commas)."},
	{"queues", PT(queues), .min = 1, .max = VSW_MAX_QUEUES,
	 .ports = VSW_KEY_ANY,
	 .shown = "vhost-user " STR(VSW_MAX_QUEUES) ", ethdev 1",
	 .help = "vhost-user: the most queue pairs vsw polls; ethdev, "
		 "vxlan: rx queues."},
	{"rxq", PT(queues), .min = 1, .max = VSW_MAX_QUEUES,
	 .ports = VSW_KEY_DEV, .alias_of = "queues", .shown = "1",
	 .help = "Synonym of queues; give only one of the two."},
	{"txq", PT(txq), .max = VSW_MAX_QUEUES, .note = " (0 = one per worker)",
	 .ports = VSW_KEY_DEV, .dflt = "0",
	 .help = "Tx queues; 0 = one per worker."},
	{"lcores", LCORES_ROW,
	 .help = "Pinning: rx queue i is polled by the worker on lcore "
		 "lcores[i % n]."},
	{"workers", LCORES_ROW, .alias_of = "lcores", .deprecated = true,
	 .help = "Old name of lcores (lcore ids, not worker indexes): "
		 "accepted with a warning."},
	{"mtu", PT(mtu), .min = VSW_MTU_MIN, .max = VSW_MTU_MAX,
	 .noun = "an MTU",
	 .note = " bytes (frames up to MTU + " STR(VSW_FRAME_OVERHEAD) ")",
	 .ports = VSW_KEY_ANY, .runtime = true, .dflt = STR(VSW_MTU_DEFAULT),
	 .shown = STR(VSW_MTU_DEFAULT) ", vxlan " STR(VSW_VXLAN_MTU_DEFAULT),
	 .help = "Frames up to mtu + " STR(
		 VSW_FRAME_OVERHEAD) " bytes are taken from and sent to the "
				     "port (vxlan: inner frames; the underlay "
				     "carries " STR(
					     VSW_VXLAN_OVERHEAD) " "
								 "more)."},
	{"offloads", PT(offloads), .kind = VSW_KIND_CHOICE, .choices = offloads,
	 .ports = VSW_KEY_ANY, .shown = "[switch] offloads",
	 .help = "The switch's offloads for this port alone: on or off "
		 "(vhost-user: what the guest is offered; ethdev: TSO and "
		 "checksums on the NIC, where it has them)."},
	{"guest-rx-spread", PT(guest_rx_spread), .kind = VSW_KIND_CHOICE,
	 .choices = port_on_off, .ports = VSW_KEY_VHOST, .runtime = true,
	 .shown = "[switch] guest-rx-spread",
	 .help = "The switch's guest-rx-spread for this port alone: on or "
		 "off (off for a guest that polls all its queues on one "
		 "CPU)."},
	{"max-macs", PT(max_macs), .max = VSW_MAX_MACS_MAX,
	 .note = " (0 = no per-port limit)", .ports = VSW_KEY_ANY,
	 .runtime = true, .dflt = "0",
	 .help = "MACs the port may have learned at once; 0 = no per-port "
		 "limit."},
	{"allowed-macs", PT(allowed), .kind = VSW_KIND_MACS, .min = 1,
	 .max = VSW_MAX_ALLOWED_MACS, .ports = VSW_KEY_ANY, .runtime = true,
	 .type = "any, or MACs separated by spaces", .dflt = "any",
	 .help = "Source MACs the port may send from; frames from others are "
		 "dropped."},
	{"vlan-mode", PT(vlan_mode), .kind = VSW_KIND_CHOICE,
	 .choices = vlan_modes, .ports = VSW_KEY_ANY, .runtime = true,
	 .shown = "access with a tag, else trunk",
	 .help = "As in OVS: access (untagged, in VLAN tag), trunk (tagged, "
		 "the trunks VLANs), native-*: a trunk whose untagged frames "
		 "are VLAN tag."},
	{"tag", PT(tag), .min = 0, .max = VSW_VLAN_DEAD, .noun = "a VLAN id",
	 .note = " (0 = none, 4095 = dead)", .ports = VSW_KEY_ANY,
	 .runtime = true, .dflt = "0", .shown = "none",
	 .help = "The VLAN of an access port, the native VLAN of a native-* "
		 "port; 0 = none; 4095 = the dead VLAN (carries nothing)."},
	{"trunks", PT(trunks), .kind = VSW_KIND_VLANS, .min = 0,
	 .max = VSW_VLAN_MAX, .ports = VSW_KEY_ANY, .runtime = true,
	 .type = "VLAN ids and ranges, e.g. 10,20-30", .dflt = "all",
	 .help = "VLANs a trunk carries tagged (0: untagged frames); all = "
		 "every VLAN, untagged ones in VLAN 0."},
	{"allowed-ips", PT(ips), .kind = VSW_KIND_IPS, .min = 1,
	 .max = VSW_MAX_ALLOWED_IPS, .ports = VSW_KEY_ANY, .runtime = true,
	 .type = "any, or IPs / prefixes separated by spaces", .dflt = "any",
	 .help = "Source IPs (and ARP/ND addresses) the port may use; see "
		 "docs/security.md."},
	{"storm-broadcast-pps", PT(storm_bcast_pps), .max = VSW_STORM_PPS_MAX,
	 .note = " (0 = no limit)", .ports = VSW_KEY_ANY, .runtime = true,
	 .dflt = "0",
	 .help = "Broadcast frames per second the port may send; the rest is "
		 "dropped (storm_broadcast)."},
	{"storm-multicast-pps", PT(storm_mcast_pps), .max = VSW_STORM_PPS_MAX,
	 .note = " (0 = no limit)", .ports = VSW_KEY_ANY, .runtime = true,
	 .dflt = "0",
	 .help = "Multicast frames per second the port may send (storm "
		 "control)."},
	{"storm-unknown-pps", PT(storm_unknown_pps), .max = VSW_STORM_PPS_MAX,
	 .note = " (0 = no limit)", .ports = VSW_KEY_ANY, .runtime = true,
	 .dflt = "0",
	 .help = "Unicast frames to unlearned MACs per second the port may "
		 "send (storm control)."},
	{"socket-owner", PT(socket_owner), ACCOUNT_ROW(VSW_ACCT_USER, "user"),
	 .ports = VSW_KEY_VHOST, .shown = "[switch] socket-owner",
	 .help = "Owner of the port's server socket (mode = server only)."},
	{"socket-group", PT(socket_group), ACCOUNT_ROW(VSW_ACCT_GROUP, "group"),
	 .ports = VSW_KEY_VHOST, .shown = "[switch] socket-group",
	 .help = "Group of the port's server socket (mode = server only)."},
	{"socket-mode", PT(socket_mode), SOCKET_MODE_ROW,
	 .ports = VSW_KEY_VHOST, .shown = "[switch] socket-mode",
	 .help = "Permissions of the port's server socket (mode = server "
		 "only)."},
	{"local-ip", PT(local_ip), .kind = VSW_KIND_STRING, .min = 9,
	 .max = sizeof(((struct vsw_port_conf *)0)->local_ip) - 1,
	 .charset = "0123456789./", .ports = VSW_KEY_VXLAN, .required = true,
	 .what = "an IPv4 address with its prefix length, e.g. 10.0.0.1/24",
	 .type = "A.B.C.D/LEN",
	 .help = "This VTEP's underlay address and subnet (remote VTEPs in it "
		 "are on-link); vsw answers ARP for it."},
	{"gateway", PT(gateway), .kind = VSW_KIND_STRING,
	 .max = sizeof(((struct vsw_port_conf *)0)->gateway) - 1,
	 .charset = "0123456789.", .ports = VSW_KEY_VXLAN,
	 .what = "an IPv4 address in local-ip's subnet", .type = "A.B.C.D",
	 .dflt = "", .shown = "none",
	 .help = "The underlay router for remote VTEPs outside local-ip's "
		 "subnet."},
	{"remote-ips", PT(remote_ips), .kind = VSW_KIND_STRING,
	 .max = VSW_VXLAN_LIST_MAX - 1, .charset = "0123456789. ",
	 .ports = VSW_KEY_VXLAN,
	 .what = "IPv4 addresses separated by spaces, at most " STR(
		 VSW_VXLAN_VTEPS_MAX),
	 .type = "IPv4 addresses separated by spaces", .dflt = "",
	 .shown = "none",
	 .help = "The remote VTEPs: the only sources taken, and where "
		 "broadcast, multicast and unknown unicast go (head-end "
		 "replication)."},
	{"vni", PT(vni), .min = 0, .max = VSW_VNI_MAX, .noun = "a VNI",
	 .note = " (0 = none)", .ports = VSW_KEY_VXLAN, .dflt = "0",
	 .shown = "none",
	 .help = "The VNI of untagged frames (a port without VLANs, or an "
		 "access port: tag)."},
	{"vnis", PT(vnis), .kind = VSW_KIND_STRING,
	 .max = VSW_VXLAN_LIST_MAX - 1,
	 .charset = "0123456789: ", .ports = VSW_KEY_VXLAN,
	 .what = "VLAN:VNI pairs separated by spaces, e.g. 100:5100 "
		 "200:5200",
	 .type = "VLAN:VNI pairs separated by spaces", .dflt = "",
	 .shown = "none",
	 .help = "VLANs carried as VNIs: the port is a trunk of these VLANs "
		 "(trunks, when not given)."},
	{"evpn", PT(evpn), .kind = VSW_KIND_CHOICE, .choices = on_off,
	 .ports = VSW_KEY_VXLAN, .dflt = "off",
	 .help = "on: remote VTEPs and MACs come from BGP EVPN (FRR's zebra) "
		 "through kernel shadow devices, and local MACs go to it "
		 "(docs/overlay.md); remote-ips must be empty."},
	{"external-ids", PT(external_ids), .kind = VSW_KIND_STRING,
	 .max = VSW_EXTERNAL_IDS_MAX, .ports = VSW_KEY_ANY, .runtime = true,
	 .charset = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_-.:=/@+ ",
	 .what = "KEY=VALUE pairs separated by spaces, of "
		 "[A-Za-z0-9_.:=/@+-]",
	 .type = "KEY=VALUE pairs separated by spaces", .dflt = "",
	 .shown = "empty",
	 .help = "OVS external_ids (iface-id, attached-mac...), kept for "
		 "orchestrators; vsw-vsctl sets them (docs/vsw-vsctl.md)."},
};

const size_t vsw_n_keys = sizeof(vsw_keys) / sizeof(vsw_keys[0]);

const struct vsw_key *vsw_key_find(enum vsw_key_sect sect, const char *name,
				   size_t len)
{
	for (size_t i = 0; i < vsw_n_keys; i++) {
		const struct vsw_key *k = &vsw_keys[i];

		if (k->sect == sect && strncmp(k->name, name, len) == 0 &&
		    k->name[len] == '\0')
			return k;
	}
	return NULL;
}

const char *vsw_key_canon(const struct vsw_key *k)
{
	return k->alias_of != NULL ? k->alias_of : k->name;
}

static void cat(char *buf, size_t len, const char *s)
{
	size_t n = strnlen(buf, len);

	if (n < len)
		snprintf(buf + n, len - n, "%s", s);
}

char *vsw_keys_list(char *buf, size_t len, enum vsw_key_sect sect,
		    unsigned int ports, int runtime)
{
	buf[0] = '\0';
	for (size_t i = 0; i < vsw_n_keys; i++) {
		const struct vsw_key *k = &vsw_keys[i];

		if (k->sect != sect || k->deprecated ||
		    (sect == VSW_SECT_PORT && !(k->ports & ports)) ||
		    (runtime >= 0 && k->runtime != (runtime > 0)))
			continue;
		if (buf[0] != '\0')
			cat(buf, len, ", ");
		cat(buf, len, k->name);
	}
	return buf;
}

char *vsw_key_choices_str(const struct vsw_key *k, char *buf, size_t len)
{
	buf[0] = '\0';
	for (const struct vsw_key_choice *c = k->choices; c && c->word; c++) {
		if (c != k->choices)
			cat(buf, len, c[1].word != NULL ? ", " : " or ");
		cat(buf, len, c->word);
	}
	return buf;
}

char *vsw_key_ports_str(const struct vsw_key *k, char *buf, size_t len)
{
	buf[0] = '\0';
	for (const struct vsw_key_choice *c = port_types; c->word; c++) {
		if (!(k->ports & (1u << c->val)))
			continue;
		if (buf[0] != '\0')
			cat(buf, len, ", ");
		cat(buf, len, c->word);
	}
	return buf;
}

static const char *word_of(const struct vsw_key_choice *c, unsigned int v)
{
	for (; c->word != NULL; c++)
		if (c->val == v)
			return c->word;
	return "unknown";
}

const char *vsw_port_type_str(enum vsw_port_type t)
{
	return word_of(port_types, t);
}

const char *vsw_vhost_mode_str(enum vsw_vhost_mode m)
{
	return word_of(vhost_modes, m);
}

const char *vsw_poll_mode_str(enum vsw_poll_mode m)
{
	return word_of(poll_modes, m);
}

const char *vsw_vlan_mode_str(enum vsw_vlan_mode m)
{
	return word_of(vlan_modes, m);
}

/* ---- the printed table ---- */

enum { COL_KEY, COL_PORTS, COL_TYPE, COL_RANGE, COL_DFLT, COL_RUN, NCOL };
#define CELL_MAX 160

static void range_str(const struct vsw_key *k, char *b, size_t len)
{
	switch (k->kind) {
	case VSW_KIND_UINT:
		snprintf(b, len, "%u..%u", k->min, k->max);
		break;
	case VSW_KIND_CHOICE:
		b[0] = '\0';
		break;
	case VSW_KIND_PATH:
		snprintf(b, len, "< %u chars", k->max);
		break;
	case VSW_KIND_STRING:
		if (k->min > 0)
			snprintf(b, len, "%u..%u chars", k->min, k->max);
		else
			snprintf(b, len, "at most %u chars", k->max);
		break;
	case VSW_KIND_OCTAL:
		snprintf(b, len, "%04o..%04o", k->min, k->max);
		break;
	case VSW_KIND_LCORES:
		snprintf(b, len, "1..%d ids, each %u..%u", VSW_MAX_QUEUES,
			 k->min, k->max);
		break;
	case VSW_KIND_MACS:
		snprintf(b, len, "%u..%u unicast MACs", k->min, k->max);
		break;
	case VSW_KIND_VLANS:
		snprintf(b, len, "%u..%u", k->min, k->max);
		break;
	case VSW_KIND_IPS:
		snprintf(b, len, "%u..%u entries", k->min, k->max);
		break;
	}
}

/* "`a` \| `b`" (markdown) or "a|b". */
static void type_str(const struct vsw_key *k, bool md, char *b, size_t len)
{
	static const char *const kind_type[] = {
		[VSW_KIND_UINT] = "integer",
		[VSW_KIND_PATH] = "absolute path",
		[VSW_KIND_STRING] = "string",
		[VSW_KIND_OCTAL] = "octal",
		[VSW_KIND_LCORES] = "lcore ids",
		[VSW_KIND_MACS] = "MACs",
		[VSW_KIND_VLANS] = "VLAN ids",
		[VSW_KIND_IPS] = "IPs",
	};

	b[0] = '\0';
	if (k->kind != VSW_KIND_CHOICE) {
		snprintf(b, len, "%s", k->type ? k->type : kind_type[k->kind]);
		return;
	}
	for (const struct vsw_key_choice *c = k->choices; c->word; c++) {
		if (c != k->choices)
			cat(b, len, md ? " \\| " : "|");
		cat(b, len, md ? "`" : "");
		cat(b, len, c->word);
		cat(b, len, md ? "`" : "");
	}
}

static void dflt_str(const struct vsw_key *k, bool md, char *b, size_t len)
{
	const char *d = k->shown      ? k->shown
			: k->dflt     ? k->dflt
			: k->required ? "required"
				      : "";
	bool quote = md && ((k->shown == NULL && k->dflt != NULL &&
			     strspn(d, "0123456789") != strlen(d)) ||
			    d[0] == '<');

	snprintf(b, len, quote ? "`%s`" : "%s", d);
}

static void cells(const struct vsw_key *k, bool md, char c[NCOL][CELL_MAX])
{
	const char *run = k->sect == VSW_SECT_SWITCH
				  ? (k->runtime ? "set" : "start-up")
				  : (k->runtime ? "port-set" : "fixed");

	snprintf(c[COL_KEY], CELL_MAX, md ? "`%s`" : "%s", k->name);
	vsw_key_ports_str(k, c[COL_PORTS], CELL_MAX);
	type_str(k, md, c[COL_TYPE], CELL_MAX);
	range_str(k, c[COL_RANGE], CELL_MAX);
	dflt_str(k, md, c[COL_DFLT], CELL_MAX);
	snprintf(c[COL_RUN], CELL_MAX, md && k->runtime ? "`%s`" : "%s", run);
}

static const char *const headers[NCOL] = {"Key",   "Port types", "Type",
					  "Range", "Default",	 "Run time"};

/* One row: cells padded to @w (plain) or between '|' (markdown). */
static void print_row(FILE *f, bool md, enum vsw_key_sect sect,
		      char c[NCOL][CELL_MAX], const int w[NCOL],
		      const char *help)
{
	for (int i = 0; i < NCOL; i++) {
		if (i == COL_PORTS && sect == VSW_SECT_SWITCH)
			continue;
		if (md)
			fprintf(f, "| %s ", c[i]);
		else
			fprintf(f, "%-*s  ", w[i], c[i]);
	}
	if (md)
		fprintf(f, "| %s |\n", help);
	else
		fprintf(f, "%s\n", help);
}

/* Markdown cells may not hold '|'. */
static void md_escape(const char *s, char *b, size_t len)
{
	size_t o = 0;

	for (; *s != '\0' && o + 3 < len; s++) {
		if (*s == '|')
			b[o++] = '\\';
		b[o++] = *s;
	}
	b[o] = '\0';
}

static void print_sect(FILE *f, bool md, enum vsw_key_sect sect)
{
	char c[NCOL][CELL_MAX], help[2 * CELL_MAX];
	int w[NCOL] = {0};

	for (int i = 0; i < NCOL; i++) {
		snprintf(c[i], CELL_MAX, "%s", headers[i]);
		w[i] = (int)strlen(headers[i]);
	}
	for (size_t r = 0; r < vsw_n_keys; r++) {
		char t[NCOL][CELL_MAX];

		if (vsw_keys[r].sect != sect)
			continue;
		cells(&vsw_keys[r], md, t);
		for (int i = 0; i < NCOL; i++)
			if ((int)strlen(t[i]) > w[i])
				w[i] = (int)strlen(t[i]);
	}
	print_row(f, md, sect, c, w, md ? "Meaning" : "Help");
	if (md)
		fprintf(f, "|---|---|---|---|---|%s---|\n",
			sect == VSW_SECT_PORT ? "---|" : "");
	for (size_t r = 0; r < vsw_n_keys; r++) {
		const struct vsw_key *k = &vsw_keys[r];

		if (k->sect != sect)
			continue;
		cells(k, md, c);
		if (md)
			md_escape(k->help, help, sizeof(help));
		else
			snprintf(help, sizeof(help), "%s", k->help);
		print_row(f, md, sect, c, w, help);
	}
}

void vsw_keys_print(FILE *f, bool markdown)
{
	static const char *const name[] = {"switch", "port"};
	static const char *const intro[] = {
		"[switch] keys; run time: set = `vswctl set KEY VALUE`, "
		"start-up = only in the file",
		"[port NAME] keys; run time: port-set = `vswctl port-set NAME "
		"KEY=VALUE`, fixed = when the port is added"};

	for (int s = VSW_SECT_SWITCH; s <= VSW_SECT_PORT; s++) {
		if (s != VSW_SECT_SWITCH)
			fprintf(f, "\n");
		if (markdown)
			fprintf(f,
				"<!-- %s keys: begin (generated: vsw "
				"--help-config --markdown) -->\n",
				name[s]);
		else
			fprintf(f, "%s\n\n", intro[s]);
		print_sect(f, markdown, (enum vsw_key_sect)s);
		if (markdown)
			fprintf(f, "<!-- %s keys: end -->\n", name[s]);
	}
}
