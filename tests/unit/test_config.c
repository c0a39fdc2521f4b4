/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit test for config/: the embedded default, full and minimal files,
 * every class of error message (asserted on its exact text), the runtime
 * "k=v,k=v" port form and validation with an lcore callback.  Config files
 * are written to mkstemp() files in /tmp and removed at the end.  No EAL.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/vsw_config.h"
#include "config/vsw_keys.h"
#include "vsw_test.h"

#define MAX_TMP 192

static char tmp_paths[MAX_TMP][32];
static unsigned int n_tmp;
static struct vsw_config cfg;
static char err[VSW_ERR_MAX];
static char want[VSW_ERR_MAX + 64];

/* Write @text to a new temporary file; returns its path. */
static const char *write_conf(const char *text)
{
	char *path = tmp_paths[n_tmp];
	size_t len = strlen(text);
	int fd;

	if (n_tmp == MAX_TMP)
		abort();
	snprintf(path, sizeof(tmp_paths[0]), "/tmp/vsw_cfg_XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		abort();
	close(fd);
	n_tmp++;
	return path;
}

static int load(const char *text, const char **path)
{
	*path = write_conf(text);
	err[0] = '\0';
	return vsw_config_load(*path, &cfg, err, sizeof(err));
}

/* Loading @text fails with -EINVAL and exactly "<file>: @msg". */
static int load_fails(const char *text, const char *msg)
{
	const char *path;
	int ret = load(text, &path);

	snprintf(want, sizeof(want), "%s: %s", path, msg);
	if (ret != -EINVAL || strcmp(err, want) != 0) {
		fprintf(stderr, "  ret %d\n  got  %s\n  want %s\n", ret, err,
			want);
		return 0;
	}
	return cfg.n_ports == 0 && strcmp(cfg.source, "<default>") == 0;
}

#define PORT0 "[port vm0]\ntype = vhost-user\n"
#define BAD_INT(key, v, range) key " = \"" v "\": expected an integer in " range

static void test_init(void)
{
	memset(&cfg, 0xa5, sizeof(cfg));
	vsw_config_init(&cfg);
	CHECK(cfg.sw.burst == 32);
	CHECK(cfg.sw.tx_flush_interval_us == 0);
	CHECK(cfg.sw.tx_retries == 4);
	CHECK(cfg.sw.tx_hold_us == 1000);
	CHECK(cfg.sw.poll_mode == VSW_POLL_BUSY);
	CHECK(cfg.sw.fdb_size == 65536);
	CHECK(cfg.sw.fdb_aging_s == 300);
	CHECK(cfg.sw.mbufs == 32767);
	CHECK(strcmp(cfg.sw.run_dir, "/run/vsw") == 0);
	CHECK(strcmp(cfg.source, "<default>") == 0);
	CHECK(cfg.n_ports == 0);
}

static void test_default(void)
{
	vsw_config_default(&cfg, NULL);
	CHECK(cfg.n_ports == 2);
	CHECK(strcmp(cfg.ports[0].name, "vm0") == 0);
	CHECK(strcmp(cfg.ports[1].name, "vm1") == 0);
	CHECK(cfg.ports[0].type == VSW_PORT_VHOST);
	CHECK(cfg.ports[1].mode == VSW_VHOST_SERVER);
	CHECK(cfg.ports[0].queues == 16 && cfg.ports[1].queues == 16);
	CHECK(cfg.ports[0].mtu == 1500 && cfg.ports[0].max_macs == 0);
	CHECK(cfg.ports[0].n_allowed == 0);
	CHECK(cfg.ports[0].n_lcores == 0);
	CHECK(strcmp(cfg.ports[0].path, "/run/vsw/vm0.sock") == 0);
	CHECK(strcmp(cfg.ports[1].path, "/run/vsw/vm1.sock") == 0);
	CHECK(cfg.sw.burst == 32 && strcmp(cfg.source, "<default>") == 0);
	CHECK(vsw_config_validate(&cfg, NULL, NULL, err, sizeof(err)) == 0);

	vsw_config_default(&cfg, "/tmp/vswtest");
	CHECK(strcmp(cfg.sw.run_dir, "/tmp/vswtest") == 0);
	CHECK(strcmp(cfg.ports[1].path, "/tmp/vswtest/vm1.sock") == 0);
}

static void test_enum_strings(void)
{
	CHECK(strcmp(vsw_port_type_str(VSW_PORT_VHOST), "vhost-user") == 0);
	CHECK(strcmp(vsw_port_type_str(VSW_PORT_ETHDEV), "ethdev") == 0);
	CHECK(strcmp(vsw_vhost_mode_str(VSW_VHOST_SERVER), "server") == 0);
	CHECK(strcmp(vsw_vhost_mode_str(VSW_VHOST_CLIENT), "client") == 0);
	CHECK(strcmp(vsw_poll_mode_str(VSW_POLL_BUSY), "busy") == 0);
	CHECK(strcmp(vsw_poll_mode_str(VSW_POLL_ADAPTIVE), "adaptive") == 0);
}

static const char full_conf[] =
	"; every key\n"
	"[switch]\n"
	"burst = 64                 ; 1..256\n"
	"tx-flush-interval-us = 100\n"
	"tx-retries = 0\n"
	"poll-mode = adaptive\n"
	"fdb-size = 1024\n"
	"fdb-aging-s = 0\n"
	"mbufs = 8191\n"
	"run-dir = /tmp/vsw-full\n"
	"\n"
	"[port vm0]\n"
	"type = vhost-user\n"
	"path = /tmp/vsw-full/a.sock ; the socket\n"
	"mode = client\n"
	"queues = 4\n"
	"lcores = 1,2, 3\n"
	"[port uplink_1]\n"
	"type = ethdev\n"
	"devargs = net_memif0,role=server,socket=/tmp/m.sock\n"
	"rxq = 2\n"
	"txq = 3\n"
	"lcores = 7\n";

static void test_full_file(void)
{
	const struct vsw_port_conf *p;
	const char *path;

	CHECK(load(full_conf, &path) == 0);
	CHECK(strcmp(cfg.source, path) == 0);
	CHECK(cfg.sw.burst == 64 && cfg.sw.tx_flush_interval_us == 100);
	CHECK(cfg.sw.tx_retries == 0 && cfg.sw.poll_mode == VSW_POLL_ADAPTIVE);
	CHECK(cfg.sw.fdb_size == 1024 && cfg.sw.fdb_aging_s == 0);
	CHECK(cfg.sw.mbufs == 8191);
	CHECK(strcmp(cfg.sw.run_dir, "/tmp/vsw-full") == 0);
	CHECK(cfg.n_ports == 2);
	p = &cfg.ports[0];
	CHECK(strcmp(p->name, "vm0") == 0 && p->type == VSW_PORT_VHOST);
	CHECK(strcmp(p->path, "/tmp/vsw-full/a.sock") == 0);
	CHECK(p->mode == VSW_VHOST_CLIENT && p->queues == 4);
	CHECK(p->n_lcores == 3 && p->lcores[0] == 1 && p->lcores[2] == 3);
	p = &cfg.ports[1];
	CHECK(strcmp(p->name, "uplink_1") == 0 && p->type == VSW_PORT_ETHDEV);
	CHECK(strcmp(p->devargs, "net_memif0,role=server,socket=/tmp/m.sock") ==
	      0);
	CHECK(p->queues == 2 && p->txq == 3 && p->path[0] == '\0');
	CHECK(p->n_lcores == 1 && p->lcores[0] == 7);
}

static void test_defaults_applied(void)
{
	const char *path;

	CHECK(load(PORT0 "[port e0]\ntype=ethdev\ndevargs=net_null0\n",
		   &path) == 0);
	CHECK(cfg.sw.burst == 32 && cfg.sw.tx_retries == 4);
	CHECK(cfg.sw.fdb_size == 65536 && cfg.sw.fdb_aging_s == 300);
	CHECK(cfg.sw.mbufs == 32767 && cfg.sw.poll_mode == VSW_POLL_BUSY);
	CHECK(cfg.n_ports == 2);
	CHECK(strcmp(cfg.ports[0].path, "/run/vsw/vm0.sock") == 0);
	CHECK(cfg.ports[0].mode == VSW_VHOST_SERVER);
	CHECK(cfg.ports[0].queues == 16 && cfg.ports[0].n_lcores == 0);
	CHECK(cfg.ports[1].queues == 1 && cfg.ports[1].txq == 0);
	CHECK(cfg.ports[1].mtu == 1500);
}

static void test_run_dir_after_ports(void)
{
	const char *path;

	CHECK(load(PORT0 "[switch]\nrun-dir = /tmp/late\n", &path) == 0);
	CHECK(strcmp(cfg.ports[0].path, "/tmp/late/vm0.sock") == 0);
	CHECK(load(PORT0 "[switch]\nrun-dir = /tmp/slash/\n", &path) == 0);
	CHECK(strcmp(cfg.ports[0].path, "/tmp/slash/vm0.sock") == 0);
}

static void test_comments_whitespace(void)
{
	const char *path;

	CHECK(load("  ; leading comment\n[ port vm0 ]   ; trailing\n"
		   "\ttype\t=\tvhost-user\t; c\n  queues=  3;c\n\n",
		   &path) == 0);
	CHECK(cfg.n_ports == 1 && strcmp(cfg.ports[0].name, "vm0") == 0);
	CHECK(cfg.ports[0].queues == 3);
}

static void test_unreadable(void)
{
	const char *missing = "/tmp/vsw_cfg_does_not_exist.conf";

	memset(&cfg, 0, sizeof(cfg));
	CHECK(vsw_config_load(missing, &cfg, err, sizeof(err)) == -ENOENT);
	CHECK(strcmp(err, "/tmp/vsw_cfg_does_not_exist.conf: cannot read: "
			  "No such file or directory") == 0);
	CHECK(cfg.n_ports == 0 && cfg.sw.burst == 32);
	CHECK(vsw_config_load("/tmp", &cfg, err, sizeof(err)) == -EISDIR);
	CHECK(strcmp(err, "/tmp: cannot read: Is a directory") == 0);
}

static void test_syntax(void)
{
	char long_line[400];

	CHECK(load_fails("[switch]\nburst 32\n",
			 "cannot read: line 2 \"burst 32\": expected "
			 "KEY = VALUE or [SECTION]"));
	CHECK(load_fails("burst = 32\n" PORT0,
			 "cannot read: line 1 \"burst = 32\": expected a "
			 "[SECTION] before any key"));
	CHECK(load_fails(PORT0 "[switch\n", "cannot read: line 3 \"[switch\": "
					    "expected a closing ']'"));
	snprintf(long_line, sizeof(long_line), PORT0 "path = /%0350d\n", 0);
	CHECK(load_fails(long_line, "cannot read: line 3 \"...\": expected "
				    "a line of at most 322 characters"));
}

static void test_unknown_section(void)
{
	CHECK(load_fails(PORT0 "[switches]\n",
			 "[switches]: unknown section; expected [switch], "
			 "[port NAME] or [fdb]"));
	CHECK(load_fails("[portvm0]\ntype = vhost-user\n",
			 "[portvm0]: unknown section; expected [switch], "
			 "[port NAME] or [fdb]"));
}

#define BAD_NAME                                                               \
	"invalid port name; expected [port NAME] with NAME 1..31 "             \
	"characters of [A-Za-z0-9_] (telemetry keys allow no others)"

static void test_port_name(void)
{
	const char *path;

	CHECK(load_fails("[port vm-0]\ntype = vhost-user\n",
			 "[port vm-0]: " BAD_NAME));
	CHECK(load_fails("[port]\ntype = vhost-user\n", "[port]: " BAD_NAME));
	CHECK(load_fails("[port  vm0]\ntype = vhost-user\n",
			 "[port  vm0]: " BAD_NAME));
	CHECK(load_fails("[port a2345678901234567890123456789012]\n",
			 "[port a2345678901234567890123456789012]: " BAD_NAME));
	CHECK(load("[port a234567890123456789012345678901]\ntype=vhost-user\n",
		   &path) == 0);
}

/* The runtime `set` command: same parsing, "<command>" as the file. */
static void test_set_switch_key(void)
{
	struct vsw_config cfg;
	char err[VSW_ERR_MAX];

	vsw_config_init(&cfg);
	CHECK(cfg.sw.idle_threshold_us == 200 && cfg.sw.max_sleep_us == 1000);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "tx-flush-interval-us", "50",
					err, sizeof(err)) == 0);
	CHECK(cfg.sw.tx_flush_interval_us == 50);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "poll-mode", "adaptive", err,
					sizeof(err)) == 0);
	CHECK(cfg.sw.poll_mode == VSW_POLL_ADAPTIVE);
	CHECK(cfg.sw.kick_suppression);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "kick-suppression", "off", err,
					sizeof(err)) == 0);
	CHECK(!cfg.sw.kick_suppression);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "kick-suppression", "maybe",
					err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "expected on or off") != NULL);
	CHECK(cfg.sw.call_suppression);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "call-suppression", "off", err,
					sizeof(err)) == 0);
	CHECK(!cfg.sw.call_suppression);
	CHECK(cfg.sw.guest_calls_direct);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "guest-calls", "relay", err,
					sizeof(err)) == 0);
	CHECK(!cfg.sw.guest_calls_direct);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "guest-calls", "fast", err,
					sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "expected direct or relay") != NULL);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "burst", "999", err,
					sizeof(err)) == -EINVAL);
	CHECK(strcmp(err, "<command>: [switch] burst = \"999\": expected an "
			  "integer in 1..256") == 0);
	CHECK(cfg.sw.burst == 32);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "fdb-size", "100", err,
					sizeof(err)) == -EPERM);
	CHECK(strstr(err, "fdb-size: fixed at start-up") != NULL);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "nope", "1", err,
					sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "[switch] nope = \"1\": expected a [switch] key") !=
	      NULL);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "max-sleep-us", "5", err,
					sizeof(err)) == -EINVAL);
	CHECK(cfg.sw.max_sleep_us == 1000);
}

static void test_unknown_keys(void)
{
	CHECK(load_fails(
		PORT0 "[switch]\nburts = 32\n",
		"[switch] burts = \"32\": expected a [switch] key "
		"(burst, tx-flush-interval-us, tx-flush-adaptive, "
		"tx-retries, tx-hold-us, "
		"poll-mode, kick-suppression, call-suppression, "
		"guest-rx-spread, "
		"guest-calls, "
		"idle-threshold-us, "
		"max-sleep-us, fdb-aging-s, rebalance-interval-s, "
		"rebalance-threshold-pct, rebalance-improvement-pct, bridge, "
		"run-dir, fdb-size, mbufs, "
		"big-mbufs, offloads, "
		"control, port-add-drivers, socket-mode, "
		"socket-owner, socket-group, socket-dirs, "
		"socket-watch-dir, socket-watch-profile, ovsdb, state-file, "
		"metrics-listen)"));
	CHECK(load_fails(
		PORT0 "queue = 2\n",
		"[port vm0] queue = \"2\": expected a port key (type, "
		"path, mode, devargs, queues, rxq, txq, lcores, "
		"mtu, offloads, guest-rx-spread, max-macs, allowed-macs, "
		"vlan-mode, tag, "
		"trunks, allowed-ips, storm-broadcast-pps, "
		"storm-multicast-pps, storm-unknown-pps, "
		"socket-owner, socket-group, socket-mode, local-ip, "
		"gateway, remote-ips, vni, vnis, evpn, external-ids)"));
}

static void test_keys_wrong_type(void)
{
	CHECK(load_fails(
		PORT0 "devargs = net_null0\n",
		"[port vm0] devargs = \"net_null0\": expected a "
		"vhost-user port key (type, path, mode, queues, "
		"lcores, mtu, offloads, guest-rx-spread, max-macs, "
		"allowed-macs, vlan-mode, "
		"tag, "
		"trunks, allowed-ips, storm-broadcast-pps, "
		"storm-multicast-pps, storm-unknown-pps, "
		"socket-owner, socket-group, socket-mode, external-ids)"));
	CHECK(load_fails(
		PORT0 "txq = 1\n",
		"[port vm0] txq = \"1\": expected "
		"a vhost-user port key (type, "
		"path, mode, queues, lcores, mtu, "
		"offloads, guest-rx-spread, max-macs, allowed-macs, "
		"vlan-mode, tag, "
		"trunks, allowed-ips, storm-broadcast-pps, "
		"storm-multicast-pps, storm-unknown-pps, "
		"socket-owner, socket-group, socket-mode, external-ids)"));
	CHECK(load_fails(
		"[port e0]\npath = /x.sock\ntype = ethdev\n",
		"[port e0] path = \"/x.sock\": expected an ethdev "
		"port key (type, devargs, queues, rxq, txq, "
		"lcores, mtu, offloads, max-macs, allowed-macs, vlan-mode, "
		"tag, "
		"trunks, allowed-ips, storm-broadcast-pps, "
		"storm-multicast-pps, storm-unknown-pps, external-ids)"));
	CHECK(load_fails(
		"[port e0]\ntype = ethdev\nmode = server\n",
		"[port e0] mode = \"server\": expected an ethdev "
		"port key (type, devargs, queues, rxq, txq, "
		"lcores, mtu, offloads, max-macs, allowed-macs, vlan-mode, "
		"tag, "
		"trunks, allowed-ips, storm-broadcast-pps, "
		"storm-multicast-pps, storm-unknown-pps, external-ids)"));
}

static void test_non_numeric(void)
{
	CHECK(load_fails(PORT0 "queues = abc\n",
			 "[port vm0] " BAD_INT("queues", "abc", "1..16")));
	CHECK(load_fails(PORT0 "queues = 12abc\n",
			 "[port vm0] " BAD_INT("queues", "12abc", "1..16")));
	CHECK(load_fails(PORT0 "queues = -1\n",
			 "[port vm0] " BAD_INT("queues", "-1", "1..16")));
	CHECK(load_fails(PORT0 "queues =\n",
			 "[port vm0] " BAD_INT("queues", "", "1..16")));
	CHECK(load_fails(PORT0 "queues = +2\n",
			 "[port vm0] " BAD_INT("queues", "+2", "1..16")));
	CHECK(load_fails(PORT0 "queues = 0x2\n",
			 "[port vm0] " BAD_INT("queues", "0x2", "1..16")));
	CHECK(load_fails(PORT0 "[switch]\nburst = 99999999999999999999\n",
			 "[switch] " BAD_INT("burst", "99999999999999999999",
					     "1..256")));
}

static void test_switch_ranges(void)
{
	const char *path;

	CHECK(load_fails(PORT0 "[switch]\nburst = 0\n",
			 "[switch] " BAD_INT("burst", "0", "1..256")));
	CHECK(load_fails(PORT0 "[switch]\nburst = 257\n",
			 "[switch] " BAD_INT("burst", "257", "1..256")));
	CHECK(load_fails(PORT0 "[switch]\ntx-retries = 33\n",
			 "[switch] " BAD_INT("tx-retries", "33", "0..32")));
	CHECK(load_fails(
		PORT0 "[switch]\nfdb-size = 15\n",
		"[switch] " BAD_INT("fdb-size", "15", "16..16777216")));
	CHECK(load_fails(PORT0 "[switch]\nfdb-aging-s = 86401\n",
			 "[switch] " BAD_INT("fdb-aging-s", "86401",
					     "0..86400 (0 = never)")));
	CHECK(load_fails(
		PORT0 "[switch]\nmbufs = 1023\n",
		"[switch] " BAD_INT("mbufs", "1023", "1024..4194304")));
	CHECK(load_fails(PORT0 "[switch]\ntx-flush-interval-us = 1000001\n",
			 "[switch] " BAD_INT("tx-flush-interval-us", "1000001",
					     "0..1000000 (0 = flush every "
					     "iteration)")));
	CHECK(load(PORT0 "[switch]\nburst = 256\nmbufs = 4194304\n"
			 "fdb-size = 16777216\nfdb-aging-s = 86400\n",
		   &path) == 0);
	CHECK(cfg.sw.burst == 256 && cfg.sw.mbufs == 4194304);
}

static void test_switch_enums_paths(void)
{
	CHECK(load_fails(PORT0 "[switch]\npoll-mode = lazy\n",
			 "[switch] poll-mode = \"lazy\": expected busy or "
			 "adaptive"));
	CHECK(load_fails(PORT0 "[switch]\nrun-dir = run/vsw\n",
			 "[switch] run-dir = \"run/vsw\": expected an absolute "
			 "path shorter than 256 characters"));
}

static void test_port_values(void)
{
	CHECK(load_fails(PORT0 "queues = 17\n",
			 "[port vm0] " BAD_INT("queues", "17", "1..16")));
	CHECK(load_fails(PORT0 "mode = listen\n",
			 "[port vm0] mode = \"listen\": expected server or "
			 "client"));
	CHECK(load_fails("[port vm0]\ntype = tap\n",
			 "[port vm0] type = \"tap\": expected vhost-user, "
			 "ethdev or vxlan"));
	CHECK(load_fails("[port e0]\ntype = ethdev\ndevargs = x\ntxq = 17\n",
			 "[port e0] txq = \"17\": expected an integer in 0..16 "
			 "(0 = one per worker)"));
	CHECK(load_fails("[port e0]\ntype = ethdev\ndevargs =\n",
			 "[port e0] devargs = \"\": expected ethdev devargs "
			 "such as net_memif0,role=server, 1..254 characters"));
}

static void test_missing_keys(void)
{
	CHECK(load_fails("[port vm0]\nqueues = 2\n",
			 "[port vm0] type: missing; expected vhost-user, "
			 "ethdev or vxlan"));
	CHECK(load_fails("[port e0]\ntype = ethdev\nrxq = 2\n",
			 "[port e0] devargs: missing; expected ethdev devargs "
			 "such as net_memif0,role=server"));
}

static void test_sock_path(void)
{
	char text[256];
	const char *path;

	CHECK(load_fails(PORT0 "path = vm0.sock\n",
			 "[port vm0] path = \"vm0.sock\": expected an absolute "
			 "path shorter than 108 characters (sun_path)"));
	/* 107 characters fit in sun_path with the NUL, 108 do not */
	snprintf(text, sizeof(text), PORT0 "path = /%0106d\n", 0);
	CHECK(load(text, &path) == 0);
	snprintf(text, sizeof(text), PORT0 "path = /%0107d\n", 0);
	CHECK(load(text, &path) == -EINVAL);
	CHECK(strstr(err, "[port vm0] path = \"/000") != NULL);
	CHECK(strstr(err, "expected an absolute path shorter than 108") !=
	      NULL);
}

static void test_duplicates(void)
{
	const char *path;

	CHECK(load_fails(PORT0 PORT0, "[port vm0]: duplicate port name; "
				      "expected each port name once"));
	CHECK(load_fails(PORT0 "path = /tmp/a.sock\n[port vm1]\n"
			       "type = vhost-user\npath = /tmp/a.sock\n",
			 "[port vm1] path = \"/tmp/a.sock\": expected a socket "
			 "path no other port uses (port vm0 uses it)"));
	/* a default path collides with an explicit one */
	CHECK(load_fails(PORT0 "[port vm1]\ntype = vhost-user\n"
			       "path = /run/vsw/vm0.sock\n",
			 "[port vm1] path = \"/run/vsw/vm0.sock\": expected a "
			 "socket path no other port uses (port vm0 uses it)"));
	/* one device in two sections would be configured under the first
	 * (before vsw 0.3 only a run-time port-add refused it) */
	CHECK(load_fails("[port e0]\ntype = ethdev\n"
			 "devargs = net_memif0,role=server\n"
			 "[port e1]\ntype = ethdev\n"
			 "devargs = net_memif0,role=client\n",
			 "[port e1] devargs = \"net_memif0,role=client\": "
			 "expected a device no other port uses (port e0 is "
			 "net_memif0)"));
	CHECK(load("[port e0]\ntype = ethdev\ndevargs = net_memif0\n"
		   "[port e1]\ntype = ethdev\ndevargs = net_memif1\n",
		   &path) == 0);
	CHECK(load_fails(PORT0 "queues = 1\nqueues = 2\n",
			 "[port vm0] queues = \"2\": expected queues only once "
			 "in a section"));
	CHECK(load_fails("[port e0]\ntype = ethdev\ndevargs = x\nqueues = 1\n"
			 "rxq = 2\n",
			 "[port e0] rxq = \"2\": expected only one of queues "
			 "and rxq"));
	CHECK(load_fails(PORT0 "[switch]\n[switch]\n",
			 "[switch]: duplicate section; expected one [switch] "
			 "section"));
}

/* An empty switch: a [switch] section alone, or an empty file, is a
 * switch with no ports that an orchestrator fills (port-add, OVSDB). */
static void test_zero_ports(void)
{
	const char *path;

	CHECK(load("[switch]\nburst = 16\n", &path) == 0 && err[0] == '\0');
	CHECK(cfg.n_ports == 0 && cfg.sw.burst == 16);
	CHECK(strcmp(cfg.source, path) == 0);
	CHECK(load("", &path) == 0 && cfg.n_ports == 0 && cfg.sw.burst == 32);
}

/* [switch] ovsdb: where ovsdb-server listens, or "" (off). */
static void test_ovsdb(void)
{
	static const char *good[] = {"unix:/run/openvswitch/db.sock",
				     "tcp:127.0.0.1:6640", "tcp:[::1]:6640",
				     ""};
	static const char *bad[] = {
		"unix:run/db.sock",    "tcp:127.0.0.1",	     "tcp:127.0.0.1:0",
		"tcp:127.0.0.1:65536", "tcp:localhost:6640", "tcp:[::1:6640",
		"tcp:::1:6640",	       "ssl:127.0.0.1:6640", "tcp:1.2.3.4:66x"};
	char text[256], msg[512];
	const char *path;

	for (unsigned int i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(text, sizeof(text), "[switch]\novsdb = %s\n", good[i]);
		CHECK(load(text, &path) == 0 &&
		      strcmp(cfg.sw.ovsdb, good[i]) == 0);
	}
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "[switch]\novsdb = %s\n", bad[i]);
		snprintf(
			msg, sizeof(msg),
			"[switch] ovsdb = \"%s\": expected unix:/absolute/path "
			"(shorter than 108 characters) or tcp:IPv4:PORT or "
			"tcp:[IPv6]:PORT, PORT 1..65535",
			bad[i]);
		CHECK(load_fails(text, msg));
	}
}

static void test_too_many_ports(void)
{
	static char text[65 * 40];
	size_t off = 0;
	int i;

	for (i = 0; i < 65; i++)
		off += snprintf(text + off, sizeof(text) - off,
				"[port p%d]\ntype = vhost-user\n", i);
	CHECK(load_fails(text, "[port p64]: too many ports; expected at most "
			       "64 [port NAME] sections"));
}

#define BAD_LCORES(v)                                                          \
	"[port vm0] lcores = \"" v "\": expected a comma-separated list of "   \
	"1..16 lcore ids (0..1023)"

static void test_lcores(void)
{
	CHECK(load_fails(PORT0 "lcores = 1,,2\n", BAD_LCORES("1,,2")));
	CHECK(load_fails(PORT0 "lcores = 1,a\n", BAD_LCORES("1,a")));
	CHECK(load_fails(PORT0 "lcores = 1,\n", BAD_LCORES("1,")));
	CHECK(load_fails(PORT0 "lcores = 1024\n", BAD_LCORES("1024")));
	CHECK(load_fails(PORT0 "lcores = 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,"
			       "15,16\n",
			 BAD_LCORES("0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,"
				    "16")));
}

static char warned[VSW_ERR_MAX];
static unsigned int n_warned;

static void on_warning(const char *msg, void *arg)
{
	(void)arg;
	snprintf(warned, sizeof(warned), "%s", msg);
	n_warned++;
}

/* workers, the old name of lcores: the same, with a one-line warning. */
static void test_workers_deprecated(void)
{
	const char *path;
	struct vsw_port_conf pc;

	vsw_config_on_warning(on_warning, NULL);
	n_warned = 0;
	CHECK(load(PORT0 "workers = 2, 3\n", &path) == 0);
	CHECK(cfg.ports[0].n_lcores == 2 && cfg.ports[0].lcores[1] == 3);
	snprintf(want, sizeof(want),
		 "%s: [port vm0] workers: deprecated; write lcores (the same "
		 "value)",
		 path);
	CHECK(n_warned == 1 && strcmp(warned, want) == 0);
	CHECK(load_fails(PORT0 "workers = x\n",
			 "[port vm0] workers = \"x\": expected a "
			 "comma-separated list of 1..16 lcore ids (0..1023)"));
	CHECK(load_fails(PORT0 "lcores = 1\nworkers = 1\n",
			 "[port vm0] workers = \"1\": expected only one of "
			 "lcores and workers"));
	n_warned = 0;
	vsw_config_init(&cfg);
	CHECK(vsw_config_port_from_kv("v", "type=vhost-user,workers=1", &cfg.sw,
				      &pc, err, sizeof(err)) == 0);
	CHECK(pc.n_lcores == 1 && pc.lcores[0] == 1 && n_warned == 1);
	CHECK(strcmp(warned, "<command>: [port v] workers: deprecated; write "
			     "lcores (the same value)") == 0);
	CHECK(vsw_config_port_from_kv("v", "type=vhost-user,lcores=1", &cfg.sw,
				      &pc, err, sizeof(err)) == 0);
	CHECK(n_warned == 1);
	vsw_config_on_warning(NULL, NULL);
}

static void test_error_resets_cfg(void)
{
	const char *path;

	CHECK(load(full_conf, &path) == 0 && cfg.n_ports == 2);
	CHECK(load(PORT0 "bogus = 1\n", &path) == -EINVAL);
	CHECK(cfg.n_ports == 0 && cfg.sw.burst == 32);
	CHECK(strcmp(cfg.sw.run_dir, "/run/vsw") == 0);
	/* a NULL error buffer is allowed */
	path = write_conf("[bad]\n");
	CHECK(vsw_config_load(path, &cfg, NULL, 0) == -EINVAL);
}

static void test_kv_vhost(void)
{
	struct vsw_port_conf pc;
	struct vsw_switch_conf sw;

	vsw_config_init(&cfg);
	sw = cfg.sw;
	CHECK(vsw_config_port_from_kv("vm2",
				      "type=vhost-user,path=/run/vsw/x.sock,"
				      "mode=client,queues=2",
				      &sw, &pc, err, sizeof(err)) == 0);
	CHECK(strcmp(pc.name, "vm2") == 0 && pc.type == VSW_PORT_VHOST);
	CHECK(strcmp(pc.path, "/run/vsw/x.sock") == 0);
	CHECK(pc.mode == VSW_VHOST_CLIENT && pc.queues == 2);
	snprintf(sw.run_dir, sizeof(sw.run_dir), "/tmp/kv");
	CHECK(vsw_config_port_from_kv("vm3", " type = vhost-user ,", &sw, &pc,
				      err, sizeof(err)) == 0);
	CHECK(strcmp(pc.path, "/tmp/kv/vm3.sock") == 0);
	CHECK(pc.mode == VSW_VHOST_SERVER && pc.queues == 16);
	CHECK(vsw_config_port_from_kv("vm4", "type=vhost-user", NULL, &pc, err,
				      sizeof(err)) == 0);
	CHECK(strcmp(pc.path, "/run/vsw/vm4.sock") == 0);
}

static void test_kv_devargs_commas(void)
{
	struct vsw_port_conf pc;

	vsw_config_init(&cfg);
	CHECK(vsw_config_port_from_kv("up",
				      "type=ethdev,rxq=2,txq=1,lcores=1,"
				      "devargs=net_memif0,role=server,"
				      "socket=/x",
				      &cfg.sw, &pc, err, sizeof(err)) == 0);
	CHECK(pc.type == VSW_PORT_ETHDEV && pc.queues == 2 && pc.txq == 1);
	CHECK(pc.n_lcores == 1 && pc.lcores[0] == 1);
	CHECK(strcmp(pc.devargs, "net_memif0,role=server,socket=/x") == 0);
	/* devargs not last: the rest is taken as devargs, rxq is lost */
	CHECK(vsw_config_port_from_kv("up",
				      "type=ethdev,devargs=net_memif1,"
				      "rxq=2",
				      &cfg.sw, &pc, err, sizeof(err)) == 0);
	CHECK(strcmp(pc.devargs, "net_memif1,rxq=2") == 0 && pc.queues == 1);
}

static void test_kv_errors(void)
{
	struct vsw_port_conf pc;

	vsw_config_init(&cfg);
	CHECK(vsw_config_port_from_kv("vm0", "type=vhost-user,queues=abc",
				      &cfg.sw, &pc, err,
				      sizeof(err)) == -EINVAL);
	CHECK(strcmp(err, "<command>: [port vm0] queues = \"abc\": expected "
			  "an integer in 1..16") == 0);
	CHECK(vsw_config_port_from_kv("vm0", "type=vhost-user,client", &cfg.sw,
				      &pc, err, sizeof(err)) == -EINVAL);
	CHECK(strcmp(err, "<command>: [port vm0] \"client\": expected "
			  "KEY=VALUE") == 0);
	CHECK(vsw_config_port_from_kv("vm0", "", &cfg.sw, &pc, err,
				      sizeof(err)) == -EINVAL);
	CHECK(strcmp(err, "<command>: [port vm0] type: missing; expected "
			  "vhost-user, ethdev or vxlan") == 0);
	CHECK(vsw_config_port_from_kv("vm-0", "type=vhost-user", &cfg.sw, &pc,
				      err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "<command>: [port vm-0]: invalid port name") == err);
	CHECK(vsw_config_port_from_kv("vm0", "type=vhost-user,devargs=x",
				      &cfg.sw, &pc, err,
				      sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "devargs = \"x\": expected a vhost-user port key"));
	CHECK(vsw_config_port_from_kv("e0", "type=ethdev", &cfg.sw, &pc, err,
				      sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "[port e0] devargs: missing; expected") != NULL);
}

static bool lcore_1_to_3(unsigned int lcore, void *arg)
{
	(*(unsigned int *)arg)++;
	return lcore >= 1 && lcore <= 3;
}

static void test_validate_lcores(void)
{
	unsigned int calls = 0;
	const char *path;

	CHECK(load(PORT0 "lcores = 1,3\n[port vm1]\ntype = vhost-user\n"
			 "lcores = 2, 5\n",
		   &path) == 0);
	CHECK(vsw_config_validate(&cfg, NULL, NULL, err, sizeof(err)) == 0);
	CHECK(vsw_config_validate(&cfg, lcore_1_to_3, &calls, err,
				  sizeof(err)) == -EINVAL);
	CHECK(calls == 4);
	snprintf(want, sizeof(want),
		 "%s: [port vm1] lcores = \"5\": expected a worker lcore id "
		 "(lcore 5 is not a worker)",
		 path);
	CHECK(strcmp(err, want) == 0);
	cfg.ports[1].lcores[1] = 3;
	CHECK(vsw_config_validate(&cfg, lcore_1_to_3, &calls, err,
				  sizeof(err)) == 0);
}

static void test_validate_lengths(void)
{
	char dir[200];

	snprintf(dir, sizeof(dir), "/%0150d", 0);
	vsw_config_default(&cfg, dir);
	CHECK(vsw_config_validate(&cfg, NULL, NULL, err, sizeof(err)) ==
	      -EINVAL);
	CHECK(strstr(err, "<default>: [port vm0] path = \"/0000") == err);
	CHECK(strstr(err, "vm0.sock\": expected an absolute path shorter than "
			  "108 characters (sun_path)") != NULL);
	vsw_config_default(&cfg, "relative");
	CHECK(vsw_config_validate(&cfg, NULL, NULL, err, sizeof(err)) ==
	      -EINVAL);
	CHECK(strcmp(err, "<default>: [switch] run-dir = \"relative\": "
			  "expected an absolute path shorter than 256 "
			  "characters") == 0);
	vsw_config_default(&cfg, NULL);
	cfg.n_ports = 0; /* a switch whose ports were all deleted: valid */
	CHECK(vsw_config_validate(&cfg, NULL, NULL, err, sizeof(err)) == 0);
	snprintf(cfg.ports[1].name, sizeof(cfg.ports[1].name), "vm0");
	cfg.n_ports = 2;
	CHECK(vsw_config_validate(&cfg, NULL, NULL, err, sizeof(err)) ==
	      -EINVAL);
	CHECK(strcmp(err, "<default>: [port vm0]: duplicate port name; "
			  "expected each port name once") == 0);
}

/*
 * Path of @rel in the source tree: below VSW_SRC (ctest sets it to the
 * source root), or else found from this file's path (absolute under
 * CMake).
 */
static const char *src_path(const char *rel)
{
	static char buf[VSW_PATH_MAX];
	const char *src = getenv("VSW_SRC");
	const char *self = "tests/unit/test_config.c";
	size_t n = strlen(__FILE__);

	if (src != NULL && src[0] != '\0')
		snprintf(buf, sizeof(buf), "%s/%s", src, rel);
	else if (n >= strlen(self))
		snprintf(buf, sizeof(buf), "%.*s%s", (int)(n - strlen(self)),
			 __FILE__, rel);
	else
		snprintf(buf, sizeof(buf), "%s",
			 rel); /* from the source root */
	return buf;
}

static void test_shipped_files(void)
{
	static const char *const files[] = {
		"config/vsw.conf.sample",
		"config/examples/two-vms.conf",
		"config/examples/vm-and-memif.conf",
		"config/examples/client-mode.conf",
	};
	struct vsw_config def;
	unsigned int i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (vsw_config_load(src_path(files[i]), &cfg, err,
				    sizeof(err)) != 0) {
			fprintf(stderr, "  %s\n", err);
			CHECK(0);
		}
	}
	/* two-vms.conf is the embedded default */
	vsw_config_default(&def, NULL);
	CHECK(vsw_config_load(src_path(files[1]), &cfg, err, sizeof(err)) == 0);
	snprintf(def.source, sizeof(def.source), "%s", cfg.source);
	CHECK(memcmp(&def, &cfg, sizeof(def)) == 0);
	CHECK(vsw_config_load(src_path(files[2]), &cfg, err, sizeof(err)) == 0);
	CHECK(cfg.n_ports == 2 && cfg.ports[1].type == VSW_PORT_ETHDEV);
	CHECK(vsw_config_load(src_path(files[3]), &cfg, err, sizeof(err)) == 0);
	CHECK(cfg.ports[0].mode == VSW_VHOST_CLIENT &&
	      cfg.ports[1].queues == 2);
}

static void test_port_security_keys(void)
{
	const char *path;
	struct vsw_port_conf *p = &cfg.ports[0];

	CHECK(load(PORT0 "mtu = 9000\nmax-macs = 4\nallowed-macs = "
			 "02:00:00:00:00:01  02:AB:00:00:00:02\n",
		   &path) == 0);
	CHECK(p->mtu == 9000 && p->max_macs == 4 && p->n_allowed == 2);
	CHECK(p->allowed[1][1] == 0xab && p->allowed[0][5] == 1);
	CHECK(load(PORT0 "allowed-macs = any\n", &path) == 0);
	CHECK(p->n_allowed == 0);
	CHECK(load_fails(PORT0 "mtu = 9001\n",
			 "[port vm0] mtu = \"9001\": expected an MTU in "
			 "68..9000 bytes (frames up to MTU + 18)"));
	CHECK(load_fails(PORT0 "mtu = 67\n",
			 "[port vm0] mtu = \"67\": expected an MTU in "
			 "68..9000 bytes (frames up to MTU + 18)"));
	CHECK(load(PORT0 "allowed-macs = 01:00:00:00:00:01\n", &path) < 0);
	CHECK(load(PORT0 "allowed-macs = 02:00:00:00:00:1\n", &path) < 0);
	CHECK(load(PORT0 "allowed-macs = 02-00-00-00-00-01\n", &path) < 0);
	CHECK(load(PORT0 "max-macs = 16777217\n", &path) < 0);
}

/* vlan-mode, tag, trunks: OVS's defaults, ranges, lists, the rules. */
static void test_vlan_keys(void)
{
	const char *path;
	struct vsw_port_conf *p = &cfg.ports[0], pc;
	char buf[64];

	CHECK(load(PORT0, &path) == 0);
	CHECK(vsw_config_vlan_mode(p) == VSW_VLAN_TRUNK && p->tag == 0 &&
	      !p->trunks_set && vsw_config_vlan_member(p, 0) &&
	      vsw_config_vlan_member(p, 4094) &&
	      !vsw_config_vlan_member(p, 4095));
	CHECK(load(PORT0 "tag = 10\n", &path) == 0);
	CHECK(vsw_config_vlan_mode(p) == VSW_VLAN_ACCESS &&
	      vsw_config_vlan_member(p, 10) && !vsw_config_vlan_member(p, 0));
	CHECK(load(PORT0 "trunks = 0, 10,20-22 4094\n", &path) == 0);
	vsw_config_trunks_str(p, buf, sizeof(buf));
	CHECK(strcmp(buf, "0,10,20-22,4094") == 0);
	CHECK(vsw_config_vlan_member(p, 0) && vsw_config_vlan_member(p, 21) &&
	      !vsw_config_vlan_member(p, 23) && !vsw_config_vlan_member(p, 11));
	/* native: the tag always, VLAN 0 never (as OVS) */
	CHECK(load(PORT0 "vlan-mode = native-tagged\ntag = 5\ntrunks = 0,7\n",
		   &path) == 0);
	CHECK(vsw_config_vlan_member(p, 5) && vsw_config_vlan_member(p, 7) &&
	      !vsw_config_vlan_member(p, 0) && !vsw_config_vlan_member(p, 6));
	CHECK(load(PORT0 "vlan-mode = native-untagged\ntag = 5\n", &path) == 0);
	CHECK(vsw_config_vlan_member(p, 4094) && !vsw_config_vlan_member(p, 0));
	CHECK(load_fails(PORT0 "tag = 4096\n",
			 "[port vm0] tag = \"4096\": expected a VLAN id in "
			 "0..4095 (0 = none, 4095 = dead)"));
	/* 4095, the dead VLAN (os-vif's isolation): a member of nothing */
	CHECK(load(PORT0 "tag = 4095\n", &path) == 0);
	CHECK(vsw_config_vlan_mode(p) == VSW_VLAN_ACCESS &&
	      !vsw_config_vlan_member(p, 4095) &&
	      !vsw_config_vlan_member(p, 0) && !vsw_config_vlan_member(p, 1));
	CHECK(load_fails(PORT0 "trunks = 10,5000\n",
			 "[port vm0] trunks = \"10,5000\": expected \"all\", "
			 "or VLAN ids 0..4094 and ranges LOW-HIGH separated "
			 "by commas (e.g. 10,20-30)"));
	CHECK(load(PORT0 "trunks = 30-20\n", &path) < 0);
	CHECK(load(PORT0 "trunks = 1-\n", &path) < 0);
	CHECK(load(PORT0 "trunks = x\n", &path) < 0);
	CHECK(load(PORT0 "trunks = ,\n", &path) < 0);
	CHECK(load(PORT0 "trunks = 1-2-3\n", &path) < 0);
	CHECK(load(PORT0 "vlan-mode = tagged\n", &path) < 0);
	CHECK(load_fails(PORT0 "vlan-mode = access\n",
			 "[port vm0] vlan-mode = \"access\": expected a tag = "
			 "1..4095 with it (or vlan-mode = trunk)"));
	CHECK(load_fails(PORT0 "vlan-mode = trunk\ntag = 10\n",
			 "[port vm0] tag = \"10\": expected 0 on a trunk port "
			 "(vlan-mode = access, native-untagged or "
			 "native-tagged take a tag)"));
	CHECK(load_fails(PORT0 "tag = 10\ntrunks = 20\n",
			 "[port vm0] trunks = \"20\": expected all on an "
			 "access port (trunks apply to vlan-mode = trunk and "
			 "native-*)"));
	/* at run time: the keys of one command together; lists with commas */
	vsw_config_default(&cfg, NULL);
	pc = cfg.ports[0];
	CHECK(vsw_config_port_set_kv(&pc, "tag=20", err, sizeof(err)) == 0);
	CHECK(vsw_config_vlan_mode(&pc) == VSW_VLAN_ACCESS && pc.tag == 20);
	CHECK(vsw_config_port_set_kv(&pc, "vlan-mode=trunk", err,
				     sizeof(err)) == -EINVAL);
	CHECK(pc.tag == 20);
	CHECK(vsw_config_port_set_kv(&pc,
				     "vlan-mode=trunk,tag=0,trunks=10,20-30,"
				     "mtu=9000",
				     err, sizeof(err)) == 0);
	vsw_config_trunks_str(&pc, buf, sizeof(buf));
	CHECK(strcmp(buf, "10,20-30") == 0 && pc.mtu == 9000);
	CHECK(vsw_config_port_set_kv(&pc, "trunks=all", err, sizeof(err)) == 0);
	CHECK(!pc.trunks_set);
	CHECK(vsw_config_port_set_kv(&pc, "mtu=1500,10", err, sizeof(err)) ==
	      -EINVAL);
	CHECK(vsw_config_port_from_kv("v", "type=vhost-user,trunks=1,2,tag=0",
				      NULL, &pc, err, sizeof(err)) == 0);
	vsw_config_trunks_str(&pc, buf, sizeof(buf));
	CHECK(strcmp(buf, "1-2") == 0);
	CHECK(strcmp(vsw_vlan_mode_str(VSW_VLAN_NATIVE_TAGGED),
		     "native-tagged") == 0);
}

static void test_allowed_ips_storm(void)
{
	static const uint8_t v6[16] = {0x20, 0x01, 0x0d, 0xb8};
	struct vsw_port_conf *p = &cfg.ports[0];
	const char *path;
	char buf[64];

	CHECK(load(PORT0 "allowed-ips = 10.0.0.5  2001:db8::/32 "
			 "192.168.1.77/24 fe80::/64\n"
			 "storm-broadcast-pps = 100\nstorm-unknown-pps = 7\n",
		   &path) == 0);
	CHECK(p->n_ips == 4);
	CHECK(p->ips[0].family == 4 && p->ips[0].plen == 32 &&
	      p->ips[0].addr[0] == 10 && p->ips[0].addr[3] == 5);
	CHECK(p->ips[1].family == 6 && p->ips[1].plen == 32 &&
	      memcmp(p->ips[1].addr, v6, 16) == 0);
	/* host bits of a prefix are cleared */
	CHECK(p->ips[2].plen == 24 && p->ips[2].addr[3] == 0);
	vsw_config_ip_str(&p->ips[0], buf, sizeof(buf));
	CHECK(strcmp(buf, "10.0.0.5") == 0);
	vsw_config_ip_str(&p->ips[2], buf, sizeof(buf));
	CHECK(strcmp(buf, "192.168.1.0/24") == 0);
	vsw_config_ip_str(&p->ips[3], buf, sizeof(buf));
	CHECK(strcmp(buf, "fe80::/64") == 0);
	CHECK(p->storm_bcast_pps == 100 && p->storm_mcast_pps == 0 &&
	      p->storm_unknown_pps == 7);
	CHECK(load(PORT0 "allowed-ips = any\n", &path) == 0 && p->n_ips == 0);
	CHECK(load_fails(PORT0 "allowed-ips = 10.0.0.256\n",
			 "[port vm0] allowed-ips = \"10.0.0.256\": expected "
			 "\"any\" or 1..16 IPv4 or IPv6 addresses or prefixes "
			 "(ADDR/LEN) separated by spaces"));
	CHECK(load(PORT0 "allowed-ips = 10.0.0.0/33\n", &path) < 0);
	CHECK(load(PORT0 "allowed-ips = 10.0.0.0/\n", &path) < 0);
	CHECK(load(PORT0 "allowed-ips = 10.0.0.0/-1\n", &path) < 0);
	CHECK(load(PORT0 "allowed-ips = ::1/129\n", &path) < 0);
	CHECK(load(PORT0 "allowed-ips = 02:00:00:00:00:01\n", &path) < 0);
	CHECK(load(PORT0 "allowed-ips = 1.1.1.1 1.1.1.2 1.1.1.3 1.1.1.4 "
			 "1.1.1.5 1.1.1.6 1.1.1.7 1.1.1.8 1.1.1.9 1.1.1.10 "
			 "1.1.1.11 1.1.1.12 1.1.1.13 1.1.1.14 1.1.1.15 "
			 "1.1.1.16\n",
		   &path) == 0);
	CHECK(p->n_ips == 16);
	CHECK(load(PORT0 "allowed-ips = 1.1.1.1 1.1.1.2 1.1.1.3 1.1.1.4 "
			 "1.1.1.5 1.1.1.6 1.1.1.7 1.1.1.8 1.1.1.9 1.1.1.10 "
			 "1.1.1.11 1.1.1.12 1.1.1.13 1.1.1.14 1.1.1.15 "
			 "1.1.1.16 1.1.1.17\n",
		   &path) < 0);
	CHECK(load_fails(PORT0 "storm-multicast-pps = 100000001\n",
			 "[port vm0] storm-multicast-pps = \"100000001\": "
			 "expected an integer in 0..100000000 (0 = no limit)"));
	/* all of them at run time */
	vsw_config_default(&cfg, NULL);
	CHECK(vsw_config_port_set_kv(p,
				     "allowed-ips=10.1.1.1 2001:db8::1,"
				     "storm-multicast-pps=5",
				     err, sizeof(err)) == 0);
	CHECK(p->n_ips == 2 && p->ips[1].family == 6 &&
	      p->storm_mcast_pps == 5);
}

/* vsw-vsctl's keys: [switch] bridge, a port's external-ids. */
static void test_ovs_keys(void)
{
	struct vsw_port_conf pc;

	vsw_config_default(&cfg, NULL);
	pc = cfg.ports[0];
	CHECK(pc.external_ids[0] == '\0' && cfg.sw.bridge[0] == '\0');
	CHECK(vsw_config_port_set_kv(&pc,
				     "external-ids=iface-id=1b2c-3d "
				     "attached-mac=fa:16:3e:00:00:01",
				     err, sizeof(err)) == 0);
	CHECK(strcmp(pc.external_ids,
		     "iface-id=1b2c-3d attached-mac=fa:16:3e:00:00:01") == 0);
	CHECK(vsw_config_port_set_kv(&pc, "external-ids=", err, sizeof(err)) ==
		      0 &&
	      pc.external_ids[0] == '\0');
	CHECK(vsw_config_port_set_kv(&pc, "external-ids=k=\"v\"", err,
				     sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "expected KEY=VALUE pairs separated by spaces") !=
	      NULL);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "bridge", "br-int", err,
					sizeof(err)) == 0 &&
	      strcmp(cfg.sw.bridge, "br-int") == 0);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "bridge", "", err,
					sizeof(err)) == 0 &&
	      cfg.sw.bridge[0] == '\0');
	CHECK(vsw_config_set_switch_key(&cfg.sw, "bridge", "br int", err,
					sizeof(err)) == -EINVAL);
}

static void test_port_set(void)
{
	struct vsw_port_conf pc;
	char buf[400];

	vsw_config_default(&cfg, NULL);
	pc = cfg.ports[0];
	CHECK(vsw_config_port_set_kv(&pc, "max-macs=8,mtu=9000", err,
				     sizeof(err)) == 0);
	CHECK(pc.max_macs == 8 && pc.mtu == 9000);
	CHECK(vsw_config_port_set_kv(&pc,
				     "allowed-macs=02:00:00:00:00:01 "
				     "02:00:00:00:00:02",
				     err, sizeof(err)) == 0);
	CHECK(pc.n_allowed == 2 && pc.max_macs == 8);
	vsw_config_allowed_str(&pc, buf, sizeof(buf));
	CHECK(strcmp(buf, "02:00:00:00:00:01 02:00:00:00:00:02") == 0);
	CHECK(vsw_config_port_set_kv(&pc, "queues=2", err, sizeof(err)) ==
	      -EPERM);
	CHECK(strstr(err, "fixed when the port is added") != NULL);
	/* a bad value leaves the port as it was */
	CHECK(vsw_config_port_set_kv(&pc, "max-macs=1,mtu=x", err,
				     sizeof(err)) == -EINVAL);
	CHECK(pc.max_macs == 8);
	CHECK(vsw_config_port_set_kv(&pc, "", err, sizeof(err)) < 0);
}

static void test_runtime_limits(void)
{
	struct vsw_port_conf pc;
	struct vsw_switch_conf sw;

	vsw_config_init(&cfg);
	sw = cfg.sw;
	/* sockets only below run-dir, no '..' */
	CHECK(vsw_config_port_from_kv("v", "type=vhost-user,path=/etc/x.sock",
				      &sw, &pc, err, sizeof(err)) < 0);
	CHECK(strstr(err, "below run-dir /run/vsw") != NULL);
	CHECK(vsw_config_port_from_kv("v",
				      "type=vhost-user,path=/run/vsw/../x.sock",
				      &sw, &pc, err, sizeof(err)) < 0);
	CHECK(vsw_config_port_from_kv("v", "type=vhost-user,path=/run/vsw/",
				      &sw, &pc, err, sizeof(err)) < 0);
	CHECK(vsw_config_port_from_kv("v",
				      "type=vhost-user,path=/run/vsw/a/b.sock",
				      &sw, &pc, err, sizeof(err)) == 0);
	/* drivers only from port-add-drivers */
	CHECK(vsw_config_port_from_kv("e",
				      "type=ethdev,devargs=net_pcap0,"
				      "tx_pcap=/etc/passwd",
				      &sw, &pc, err, sizeof(err)) < 0);
	CHECK(strstr(err, "port-add-drivers") != NULL);
	CHECK(vsw_config_port_from_kv("e",
				      "type=ethdev,devargs=net_af_packet0,"
				      "iface=eth0",
				      &sw, &pc, err, sizeof(err)) < 0);
	CHECK(vsw_config_port_from_kv("e", "type=ethdev,devargs=0000:3b:00.0",
				      &sw, &pc, err, sizeof(err)) == 0);
	CHECK(vsw_config_port_from_kv("e",
				      "type=ethdev,devargs=net_memif0,"
				      "socket-abstract=no,socket=/tmp/m",
				      &sw, &pc, err, sizeof(err)) < 0);
	CHECK(vsw_config_port_from_kv("e",
				      "type=ethdev,devargs=net_memif0,"
				      "socket-abstract=no,socket=/run/vsw/m",
				      &sw, &pc, err, sizeof(err)) == 0);
	/* memif reads the last of repeated keys and any socket-abstract but
	 * "yes" as no: all of them count */
	CHECK(vsw_config_port_from_kv("e",
				      "type=ethdev,devargs=net_memif0,"
				      "socket-abstract=yes,socket=/tmp/m,"
				      "socket-abstract=no",
				      &sw, &pc, err, sizeof(err)) < 0);
	CHECK(vsw_config_port_from_kv("e",
				      "type=ethdev,devargs=net_memif0,"
				      "socket-abstract=nope,socket=/tmp/m",
				      &sw, &pc, err, sizeof(err)) < 0);
	CHECK(vsw_config_port_from_kv("e",
				      "type=ethdev,devargs=net_memif0,"
				      "socket-abstract=no,socket=/run/vsw/m,"
				      "socket=/tmp/m",
				      &sw, &pc, err, sizeof(err)) < 0);
	CHECK(vsw_config_port_from_kv("e",
				      "type=ethdev,devargs=net_memif0,"
				      "socket-abstract=no",
				      &sw, &pc, err, sizeof(err)) < 0);
	CHECK(vsw_config_port_from_kv("e", "type=ethdev,devargs=net_memif0",
				      &sw, &pc, err, sizeof(err)) == 0);
	snprintf(sw.port_add_drivers, sizeof(sw.port_add_drivers),
		 "net_af_packet");
	CHECK(vsw_config_port_from_kv("e", "type=ethdev,devargs=0000:3b:00.0",
				      &sw, &pc, err, sizeof(err)) < 0);
	CHECK(vsw_config_port_from_kv("e",
				      "type=ethdev,devargs=net_af_packet0,"
				      "iface=veth0",
				      &sw, &pc, err, sizeof(err)) == 0);
}

static void test_hygiene_and_switch_keys(void)
{
	const char *path;

	CHECK(load_fails(PORT0 "[switch]\nrun-dir = /run/\x1b[31mx\n",
			 "cannot read: line 4: byte 0x1b at column 16; "
			 "expected printable ASCII"));
	CHECK(load_fails("[port vm0]\ntype = vhost-user\npath = /r/\xc3\xa9\n",
			 "cannot read: line 3: byte 0xc3 at column 11; "
			 "expected printable ASCII"));
	/* non-ASCII in a comment is fine */
	CHECK(load(PORT0 "; caf\xc3\xa9\nqueues = 2 ; \x01 x\n", &path) == 0);
	/* rte_cfgfile would cut these silently (found by fuzz_config) */
	{
		char buf[600];

		snprintf(buf, sizeof(buf),
			 PORT0 "[switch]\nrun-dir = /%0300d\n", 0);
		CHECK(load_fails(buf, "cannot read: line 4 \"...\": expected a "
				      "value of at most 255 characters"));
		snprintf(buf, sizeof(buf),
			 PORT0 "[switch]\ntx-flush-interval-us = %0290d5\n", 0);
		CHECK(load(buf, &path) < 0);
		snprintf(buf, sizeof(buf), PORT0 "[switch]\n%070d = 1\n", 0);
		CHECK(load_fails(buf, "cannot read: line 4 \"...\": expected a "
				      "key of at most 63 characters"));
	}
	CHECK(load(PORT0 "[switch]\ncontrol = read-only\nsocket-mode = 0660\n"
			 "socket-group = kvm\nport-add-drivers = \n",
		   &path) == 0);
	CHECK(cfg.sw.read_only && cfg.sw.socket_mode == 0660);
	CHECK(strcmp(cfg.sw.socket_group, "kvm") == 0);
	CHECK(cfg.sw.port_add_drivers[0] == '\0');
	CHECK(load(PORT0 "[switch]\nsocket-mode = 0400\n", &path) < 0);
	CHECK(load(PORT0 "[switch]\nsocket-mode = 660\n", &path) < 0);
	CHECK(load(PORT0 "[switch]\nsocket-group = a:b\n", &path) < 0);
	CHECK(load(PORT0 "[switch]\nport-add-drivers = net-x\n", &path) < 0);
	vsw_config_init(&cfg);
	CHECK(vsw_config_set_switch_key(&cfg.sw, "control", "read-write", err,
					sizeof(err)) == -EPERM);
}

/* Every row of the key table is whole, and its default parses to itself. */
static void test_key_table(void)
{
	char text[4096] = "[switch]\n", list[512];
	struct vsw_switch_conf dflt;
	struct vsw_port_conf pc;
	size_t off = strlen(text);
	const char *path;

	for (size_t i = 0; i < vsw_n_keys; i++) {
		const struct vsw_key *k = &vsw_keys[i];

		CHECK(k->name[0] != '\0' && k->help != NULL &&
		      strchr(k->help, '\n') == NULL);
		CHECK(k->sect == VSW_SECT_SWITCH || k->ports != 0);
		CHECK(k->alias_of == NULL ||
		      vsw_key_find(k->sect, k->alias_of, strlen(k->alias_of)) !=
			      NULL);
		CHECK(vsw_key_find(k->sect, k->name, strlen(k->name)) == k);
		if (k->sect == VSW_SECT_SWITCH && k->dflt != NULL)
			off += (size_t)snprintf(text + off, sizeof(text) - off,
						"%s = %s\n", k->name, k->dflt);
	}
	vsw_config_init(&cfg);
	dflt = cfg.sw;
	snprintf(text + off, sizeof(text) - off, PORT0);
	CHECK(load(text, &path) == 0);
	if (err[0] != '\0')
		fprintf(stderr, "  %s\n", err);
	CHECK(memcmp(&cfg.sw, &dflt, sizeof(dflt)) == 0);
	CHECK(strcmp(vsw_keys_list(list, sizeof(list), VSW_SECT_PORT,
				   VSW_KEY_ANY, 1),
		     "mtu, guest-rx-spread, max-macs, allowed-macs, vlan-mode, "
		     "tag, trunks, "
		     "allowed-ips, storm-broadcast-pps, storm-multicast-pps, "
		     "storm-unknown-pps, external-ids") == 0);
	CHECK(strcmp(vsw_keys_list(list, sizeof(list), VSW_SECT_SWITCH, 0, 0),
		     "run-dir, fdb-size, mbufs, big-mbufs, offloads, control, "
		     "port-add-drivers, "
		     "socket-mode, socket-owner, socket-group, socket-dirs, "
		     "socket-watch-dir, socket-watch-profile, "
		     "ovsdb, state-file, metrics-listen") == 0);
	CHECK(vsw_config_port_from_kv("v",
				      "type=vhost-user,"
				      "k123456789k123456789k123456789k1234567"
				      "89k123456789k123456789k123456789=1",
				      NULL, &pc, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err,
		     "expected a port key (type, path, mode, devargs, "
		     "queues, rxq, txq, lcores, mtu, offloads, "
		     "guest-rx-spread, max-macs, "
		     "allowed-macs, vlan-mode, tag, trunks, allowed-ips, "
		     "storm-broadcast-pps, storm-multicast-pps, "
		     "storm-unknown-pps, socket-owner, socket-group, "
		     "socket-mode, local-ip, gateway, remote-ips, vni, vnis, "
		     "evpn, external-ids)") != NULL);
	CHECK(vsw_config_switch_key_fixed("mbufs") &&
	      !vsw_config_switch_key_fixed("burst") &&
	      !vsw_config_switch_key_fixed("nope"));
	CHECK(strcmp(vsw_port_type_str(VSW_PORT_ETHDEV), "ethdev") == 0 &&
	      strcmp(vsw_poll_mode_str(VSW_POLL_ADAPTIVE), "adaptive") == 0 &&
	      strcmp(vsw_vhost_mode_str(VSW_VHOST_CLIENT), "client") == 0);
}

static void test_mbufs_needed(void)
{
	const char *path;

	/* two vhost ports, one worker: caches, buffers and 1024 spare */
	vsw_config_default(&cfg, NULL);
	CHECK(vsw_config_mbufs_needed(&cfg, 1) == 1024 + 384 + 32 * 3);
	CHECK(vsw_config_check_mbufs(&cfg, 1, err, sizeof(err)) == 0);
	/* an ethdev port with 4 rx queues, 2 workers: 4 + 2 rings of 1024 */
	CHECK(load(PORT0 "[switch]\nmbufs = 4096\n[port e0]\ntype = ethdev\n"
			 "devargs = net_null0\nrxq = 4\n",
		   &path) == 0);
	CHECK(vsw_config_mbufs_needed(&cfg, 2) ==
	      1024 + 6 * 1024 + 2 * (384 + 32 * 3));
	CHECK(vsw_config_check_mbufs(&cfg, 2, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "[switch] mbufs = \"4096\": expected at least "
			  "8128 for 2 port(s) and 2 worker(s)") != NULL);
}

/* metrics-listen: IPv4 and [IPv6] with a port, "" = off; the message */
static void test_metrics_listen(void)
{
	static const char *const bad[] = {
		"127.0.0.1",	     "127.0.0.1:",
		"127.0.0.1:0",	     "127.0.0.1:65536",
		"127.0.0.1:009417x", ":9417",
		"::1:9417",	     "[::1]",
		"[127.0.0.1]:80",    "[::1:80",
		"1.2.3:80",	     "[]:80",
		"localhost:80",
	};
	struct vsw_listen l;
	const char *path;

	vsw_config_init(&cfg);
	CHECK(cfg.sw.metrics_listen[0] == '\0');
	CHECK(load(PORT0 "[switch]\nmetrics-listen = 127.0.0.1:9417\n",
		   &path) == 0);
	CHECK(strcmp(cfg.sw.metrics_listen, "127.0.0.1:9417") == 0);
	CHECK(vsw_config_listen_parse(cfg.sw.metrics_listen, &l) == 0 &&
	      l.family == 4 && l.port == 9417 && l.addr[0] == 127 &&
	      l.addr[3] == 1);
	CHECK(vsw_config_listen_parse("[::1]:65535", &l) == 0 &&
	      l.family == 6 && l.port == 65535 && l.addr[15] == 1);
	CHECK(vsw_config_listen_parse("[::]:1", &l) == 0 && l.family == 6);
	CHECK(vsw_config_listen_parse("0.0.0.0:80", &l) == 0 && l.family == 4);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (vsw_config_listen_parse(bad[i], &l) == 0) {
			fprintf(stderr, "  accepted: %s\n", bad[i]);
			CHECK(0);
		}
	CHECK(load(PORT0 "[switch]\nmetrics-listen =\n", &path) == 0 &&
	      cfg.sw.metrics_listen[0] == '\0');
	CHECK(load_fails("[switch]\nmetrics-listen = localhost:9417\n" PORT0,
			 "[switch] metrics-listen = \"localhost:9417\": "
			 "expected IPV4:PORT or [IPV6]:PORT, numeric, port "
			 "1..65535, e.g. 127.0.0.1:9417 (\"\" = off)"));
	CHECK(load_fails("[switch]\nmetrics-listen = 127.0.0.1:0\n" PORT0,
			 "[switch] metrics-listen = \"127.0.0.1:0\": "
			 "expected IPV4:PORT or [IPV6]:PORT, numeric, port "
			 "1..65535, e.g. 127.0.0.1:9417 (\"\" = off)"));
	CHECK(vsw_config_switch_key_fixed("metrics-listen"));
}

/* socket-owner/-group/-mode per switch and port, socket-dirs, watching */
static void test_socket_keys(void)
{
	struct vsw_port_conf pc;
	struct vsw_switch_conf sw;
	const char *path;
	unsigned int id = 7;

	CHECK(vsw_config_account_id("root", false, &id) == 0 && id == 0);
	CHECK(vsw_config_account_id("root", true, &id) == 0 && id == 0);
	CHECK(vsw_config_account_id("4242", true, &id) == 0 && id == 4242);
	CHECK(vsw_config_account_id("no_such_user_vsw", false, &id) == -ENOENT);
	CHECK(vsw_config_account_id("", false, &id) == -EINVAL);
	CHECK(load("[switch]\nsocket-owner = root\nsocket-group = 0\n"
		   "socket-dirs = /var/run/openvswitch "
		   "/var/lib/vhost_sockets/\n"
		   "socket-watch-dir = /run/vsw-watch\n"
		   "socket-watch-profile = "
		   "queues=2,vlan-mode=access,tag=10\n" PORT0
		   "socket-owner = 4242\nsocket-mode = 0660\n",
		   &path) == 0);
	CHECK(strcmp(cfg.sw.socket_owner, "root") == 0 &&
	      strcmp(cfg.sw.socket_group, "0") == 0);
	CHECK(strcmp(cfg.ports[0].socket_owner, "4242") == 0 &&
	      cfg.ports[0].socket_mode == 0660 &&
	      cfg.ports[0].socket_group[0] == '\0');
	CHECK(load_fails("[switch]\nsocket-owner = no_such_user_vsw\n" PORT0,
			 "[switch] socket-owner = \"no_such_user_vsw\": "
			 "expected a user name of [A-Za-z0-9_.-] that exists "
			 "on this host, or a numeric id (no user "
			 "\"no_such_user_vsw\" here)"));
	CHECK(load_fails(PORT0 "socket-group = no_such_group_vsw\n",
			 "[port vm0] socket-group = \"no_such_group_vsw\": "
			 "expected a group name of [A-Za-z0-9_.-] that exists "
			 "on this host, or a numeric id (no group "
			 "\"no_such_group_vsw\" here)"));
	CHECK(load_fails(PORT0 "socket-mode = 0400\n",
			 "[port vm0] socket-mode = \"0400\": expected octal "
			 "permissions 0600..0777 with the owner's rw bits "
			 "set, e.g. 0660"));
	CHECK(load_fails(PORT0 "mode = client\npath = /x.sock\n"
			       "socket-owner = root\n",
			 "[port vm0] socket-owner = \"root\": expected no "
			 "socket-owner on a mode = client port (its socket is "
			 "QEMU's)"));
	/* what a writer of the effective config may write back: no value */
	CHECK(load(PORT0 "mode = client\npath = /x.sock\nsocket-owner =\n"
			 "socket-group =\nsocket-mode = 0\n",
		   &path) == 0);
	CHECK(cfg.ports[0].socket_mode == 0);
	CHECK(load_fails("[switch]\nsocket-dirs = /ok run/vsw\n" PORT0,
			 "[switch] socket-dirs = \"/ok run/vsw\": expected "
			 "absolute directories of [A-Za-z0-9_.-/] separated by "
			 "spaces (no '.' or '..' components)"));
	CHECK(load(PORT0 "[switch]\nsocket-dirs = /a/../b\n", &path) < 0);
	CHECK(load(PORT0 "[switch]\nsocket-watch-dir = /a//b\n", &path) < 0);
	CHECK(load_fails(
		"[switch]\nsocket-watch-profile = path=/x.sock\n" PORT0,
		"[switch] socket-watch-profile = \"path=/x.sock\": "
		"expected port-add keys without path (vsw sets type, "
		"path and mode)"));
	CHECK(load_fails("[switch]\nsocket-watch-profile = queues=99\n" PORT0,
			 "[switch] socket-watch-profile = \"queues=99\": "
			 "expected port-add keys of a vhost-user client port "
			 "(<command>: [port watched] queues = \"99\": expected "
			 "an integer in 1..16)"));
	/* runtime sockets: run-dir, socket-dirs, socket-watch-dir */
	vsw_config_init(&cfg);
	sw = cfg.sw;
	CHECK(vsw_config_port_from_kv(
		      "v", "type=vhost-user,path=/var/run/openvswitch/v.sock",
		      &sw, &pc, err, sizeof(err)) == -EINVAL);
	snprintf(sw.socket_dirs, sizeof(sw.socket_dirs),
		 " /var/run/openvswitch  /var/lib/vhost_sockets/ ");
	snprintf(sw.socket_watch_dir, sizeof(sw.socket_watch_dir), "/w");
	CHECK(vsw_config_port_from_kv(
		      "v", "type=vhost-user,path=/var/run/openvswitch/v.sock",
		      &sw, &pc, err, sizeof(err)) == 0);
	CHECK(vsw_config_port_from_kv(
		      "v",
		      "type=vhost-user,path=/var/lib/vhost_sockets/a/v.sock",
		      &sw, &pc, err, sizeof(err)) == 0);
	CHECK(vsw_config_port_from_kv("v",
				      "type=vhost-user,mode=client,path=/w/v",
				      &sw, &pc, err, sizeof(err)) == 0);
	CHECK(vsw_config_port_from_kv("v", "type=vhost-user,path=/run/vsw/v",
				      &sw, &pc, err, sizeof(err)) == 0);
	CHECK(vsw_config_port_from_kv(
		      "v", "type=vhost-user,path=/var/run/openvswitchx/v.sock",
		      &sw, &pc, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "below run-dir /run/vsw, socket-dirs  "
			  "/var/run/openvswitch  /var/lib/vhost_sockets/ , "
			  "socket-watch-dir /w (no") != NULL);
	CHECK(vsw_config_port_from_kv(
		      "v",
		      "type=vhost-user,path=/var/run/openvswitch/../v.sock",
		      &sw, &pc, err, sizeof(err)) == -EINVAL);
	CHECK(vsw_config_port_from_kv("v",
				      "type=vhost-user,path=/var/run/v.sock",
				      &sw, &pc, err, sizeof(err)) == -EINVAL);
	/* port-add takes the socket keys; port-set does not */
	CHECK(vsw_config_port_from_kv("v",
				      "type=vhost-user,socket-owner=root,"
				      "socket-group=root,socket-mode=0660",
				      &sw, &pc, err, sizeof(err)) == 0);
	CHECK(pc.socket_mode == 0660 && strcmp(pc.socket_group, "root") == 0);
	CHECK(vsw_config_port_set_kv(&pc, "socket-mode=0666", err,
				     sizeof(err)) == -EPERM);
	CHECK(vsw_config_port_from_kv("v",
				      "type=vhost-user,socket-owner=nobody_vsw",
				      &sw, &pc, err, sizeof(err)) == -EINVAL);
	CHECK(vsw_config_port_from_kv("e",
				      "type=ethdev,socket-mode=0660,"
				      "devargs=net_memif0",
				      &sw, &pc, err, sizeof(err)) == -EINVAL);
}

int main(void)
{
	unsigned int i;

	RUN(test_init);
	RUN(test_default);
	RUN(test_enum_strings);
	RUN(test_full_file);
	RUN(test_defaults_applied);
	RUN(test_run_dir_after_ports);
	RUN(test_comments_whitespace);
	RUN(test_unreadable);
	RUN(test_syntax);
	RUN(test_unknown_section);
	RUN(test_port_name);
	RUN(test_unknown_keys);
	RUN(test_keys_wrong_type);
	RUN(test_non_numeric);
	RUN(test_switch_ranges);
	RUN(test_switch_enums_paths);
	RUN(test_port_values);
	RUN(test_missing_keys);
	RUN(test_sock_path);
	RUN(test_duplicates);
	RUN(test_zero_ports);
	RUN(test_ovsdb);
	RUN(test_too_many_ports);
	RUN(test_lcores);
	RUN(test_workers_deprecated);
	RUN(test_error_resets_cfg);
	RUN(test_vlan_keys);
	RUN(test_kv_vhost);
	RUN(test_kv_devargs_commas);
	RUN(test_kv_errors);
	RUN(test_validate_lcores);
	RUN(test_validate_lengths);
	RUN(test_shipped_files);
	RUN(test_set_switch_key);
	RUN(test_port_security_keys);
	RUN(test_allowed_ips_storm);
	RUN(test_port_set);
	RUN(test_ovs_keys);
	RUN(test_runtime_limits);
	RUN(test_hygiene_and_switch_keys);
	RUN(test_key_table);
	RUN(test_mbufs_needed);
	RUN(test_socket_keys);
	RUN(test_metrics_listen);
	for (i = 0; i < n_tmp; i++)
		unlink(tmp_paths[i]);
	return TEST_EXIT();
}
