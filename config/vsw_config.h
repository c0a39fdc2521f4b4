/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vsw configuration: the plain structs the rest of vsw is built from.
 *
 * config/ turns an INI file (read with DPDK's rte_cfgfile, which needs no
 * EAL) or the embedded default into these structs and validates them.  It
 * includes no other DPDK header, so it is unit-tested without EAL.  The
 * keys, their ranges and defaults are rows of one table (vsw_keys.h).  Every
 * error names the file, the section, the key, the value found and what was
 * expected, e.g.
 *   vsw.conf: [port vm0] queues = "abc": expected an integer in 1..16
 */
#ifndef VSW_CONFIG_H
#define VSW_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define VSW_MAX_PORTS 64
#define VSW_MAX_QUEUES 16
#define VSW_PORT_NAME_MAX 32
#define VSW_PATH_MAX 256
#define VSW_DEVARGS_MAX 256
/* an error: a config path (VSW_PATH_MAX), its key and value, and the
 * keys it could have been (the [switch] list alone is over 400 bytes) */
#define VSW_ERR_MAX 1024
#define VSW_ACCOUNT_MAX 64 /* a user or group name, with its NUL */
#define VSW_BURST_MAX 256
#define VSW_DEFAULT_RUN_DIR "/run/vsw"
#define VSW_MTU_DEFAULT 1500
#define VSW_MTU_MIN 68
#define VSW_MTU_MAX 9000
/* Longest frame a port takes for its MTU: Ethernet header + one 802.1Q tag
 * (as the Linux bridge allows), no FCS (virtio and mbufs carry none). */
#define VSW_FRAME_OVERHEAD 18
#define VSW_MAX_ALLOWED_MACS 14 /* what a 255-character value holds */
#define VSW_MAX_MACS_MAX 16777216
#define VSW_MAX_ALLOWED_IPS 16	    /* allowed-ips: addresses or prefixes */
#define VSW_STORM_PPS_MAX 100000000 /* storm-*-pps: 100 Mpps at most */
#define VSW_ETH_RX_DESC 1024	    /* descriptors per ethdev rx / tx queue */
#define VSW_ETH_TX_DESC 1024
#define VSW_MBUF_CACHE 256	   /* per-lcore cache of the mbuf pool */
#define VSW_MAX_STATIC_FDB 1024	   /* [fdb] entries (static MACs) */
#define VSW_STATE_FILE "vsw.state" /* state-file default, in run-dir */
/* metrics-listen: "[IPv6]:port" at most, with its NUL */
#define VSW_LISTEN_MAX 56

enum vsw_port_type {
	VSW_PORT_VHOST = 0,
	VSW_PORT_ETHDEV = 1,
	VSW_PORT_VXLAN = 2,
};
enum vsw_vhost_mode { VSW_VHOST_SERVER = 0, VSW_VHOST_CLIENT = 1 };
enum vsw_poll_mode { VSW_POLL_BUSY = 0, VSW_POLL_ADAPTIVE = 1 };
/* offloads (checksum offload and TSO with guests and NICs): the switch's
 * on or off; a port's own, or DEFAULT (not given) for the switch's */
enum vsw_offloads {
	VSW_OFFLOADS_DEFAULT = 0,
	VSW_OFFLOADS_ON = 1,
	VSW_OFFLOADS_OFF = 2,
};
/* a port's own on or off for a switch key (guest-rx-spread), or SWITCH
 * (not given): the switch's */
enum vsw_port_on_off {
	VSW_PORT_SWITCH = 0,
	VSW_PORT_ON = 1,
	VSW_PORT_OFF = 2,
};
/* OVS's vlan_mode; AUTO (not given): access when tag is set, else trunk */
enum vsw_vlan_mode {
	VSW_VLAN_AUTO = 0,
	VSW_VLAN_ACCESS = 1,
	VSW_VLAN_TRUNK = 2,
	VSW_VLAN_NATIVE_UNTAGGED = 3,
	VSW_VLAN_NATIVE_TAGGED = 4,
};
#define VSW_VLAN_MAX 4094 /* highest VLAN id a port may carry */
/* tag = 4095: the dead VLAN (OVS/Neutron's isolation, os-vif's
 * isolate_vif): the port carries no VLAN, every frame it sends is dropped
 * (drop_vlan_not_allowed) and nothing is sent to it. */
#define VSW_VLAN_DEAD 4095
#define VSW_EXTERNAL_IDS_MAX 200 /* external-ids: characters at most */
#define VSW_VLAN_WORDS 64	 /* uint64_t words of a 4096-bit VLAN set */
/* vxlan ports: remote VTEPs and VNIs a port holds at most, the text of
 * their lists, the headers a frame gains (outer Ethernet, IPv4, UDP,
 * VXLAN) and the MTU an overlay port gets when none is given */
#define VSW_VXLAN_VTEPS_MAX 64
#define VSW_VXLAN_VNIS_MAX 64
#define VSW_VXLAN_LIST_MAX 1040
#define VSW_VXLAN_OVERHEAD 50
#define VSW_VXLAN_MTU_DEFAULT (VSW_MTU_DEFAULT - VSW_VXLAN_OVERHEAD)
#define VSW_VNI_MAX 16777215
#define VSW_VXLAN_UDP_PORT 4789

struct vsw_switch_conf {
	unsigned int burst;		   /* 1..VSW_BURST_MAX, default 32 */
	unsigned int tx_flush_interval_us; /* 0 = flush every iteration */
	bool tx_flush_adaptive;		   /* tx-flush-adaptive, default on */
	unsigned int tx_retries;      /* vhost enqueue retries, default 4 */
	unsigned int tx_hold_us;      /* refused frames held, default 1000 */
	enum vsw_poll_mode poll_mode; /* default busy */
	bool kick_suppression;	      /* kick-suppression, default on */
	bool call_suppression;	      /* call-suppression, default on */
	bool guest_calls_direct;      /* guest-calls: direct (default) */
	bool guest_rx_spread;	      /* guest-rx-spread, default on */
	enum vsw_offloads offloads;   /* ON (default) or OFF */
	unsigned int fdb_size;	      /* 16..16M entries, default 65536 */
	unsigned int fdb_aging_s;     /* 0 = never age, default 300 */
	unsigned int mbufs;	      /* mbuf pool size, default 32767 */
	unsigned int big_mbufs;	      /* 64 KiB mbufs for TSO guests, 1023 */
	/* adaptive poll mode: sleep after this long without a packet */
	unsigned int idle_threshold_us; /* default 200 */
	unsigned int max_sleep_us;	/* one sleep at most, default 1000 */
	/* automatic rx queue rebalance among workers */
	unsigned int rebalance_interval_s;	/* 0 = off (default) */
	unsigned int rebalance_threshold_pct;	/* default 25 */
	unsigned int rebalance_improvement_pct; /* default 25 */
	char run_dir[VSW_PATH_MAX];		/* default /run/vsw */
	bool read_only; /* control = read-only: mutating commands refused */
	/* drivers port-add may probe at run time ("pci" = PCI addresses) */
	char port_add_drivers[VSW_PATH_MAX]; /* default "pci net_memif" */
	/* vhost-user server sockets: owner, group and mode applied after
	 * creation (names or numeric ids; "" = leave root's) */
	unsigned int socket_mode; /* default 0600 */
	char socket_owner[VSW_ACCOUNT_MAX];
	char socket_group[VSW_ACCOUNT_MAX];
	/* directories besides run-dir where a runtime port-add may place
	 * vhost-user sockets: absolute paths separated by spaces */
	char socket_dirs[VSW_PATH_MAX];
	/* plug a vhost-user client port for each socket that appears here
	 * ("" = off), with the port-add keys of socket_watch_profile */
	char socket_watch_dir[VSW_PATH_MAX];
	char socket_watch_profile[VSW_PATH_MAX];
	/* the OVS bridge name vsw-vsctl gave the switch ("" = none yet) */
	char bridge[64];
	char state_file[VSW_PATH_MAX]; /* "" = <run-dir>/vsw.state */
	/* ovsdb-server to take ports from: "unix:PATH", "tcp:IP:PORT"
	 * ("" = off; switch/ovsdb/) */
	char ovsdb[VSW_PATH_MAX];
	/* where vsw serves GET /metrics: "IPV4:PORT" or "[IPV6]:PORT";
	 * "" = off (default); fixed at start-up */
	char metrics_listen[VSW_LISTEN_MAX];
};

struct vsw_port_conf {
	char name[VSW_PORT_NAME_MAX];
	enum vsw_port_type type;
	/* vhost-user */
	char path[VSW_PATH_MAX]; /* socket; default <run-dir>/<name>.sock */
	enum vsw_vhost_mode mode;
	/* server sockets: the switch's socket-* unless given (0, "") */
	unsigned int socket_mode;
	char socket_owner[VSW_ACCOUNT_MAX];
	char socket_group[VSW_ACCOUNT_MAX];
	/* ethdev */
	char devargs[VSW_DEVARGS_MAX];
	/*
	 * vhost-user: the most queue pairs vsw polls (the guest decides how
	 * many it has; default VSW_MAX_QUEUES); ethdev: rx queues (default
	 * 1).  1..16.
	 */
	unsigned int queues;
	unsigned int mtu; /* 68..9000, default 1500: frames up to mtu+18 */
	enum vsw_offloads offloads; /* DEFAULT: the switch's */
	/* vhost-user: guest-rx-spread; SWITCH: the switch's */
	enum vsw_port_on_off guest_rx_spread;
	unsigned int max_macs; /* learned MACs at most; 0 = no per-port limit */
	/* source MACs the port may send from; 0 = any */
	unsigned int n_allowed;
	uint8_t allowed[VSW_MAX_ALLOWED_MACS][6];
	/* VLANs (OVS's meaning): vlan-mode, tag (0 = none), trunks */
	enum vsw_vlan_mode vlan_mode;
	unsigned int tag;
	bool trunks_set;		 /* false: every VLAN (trunks empty) */
	uint64_t trunks[VSW_VLAN_WORDS]; /* bit v: VLAN v listed */
	/* source IPv4/IPv6 addresses or prefixes the port may use; 0 = any */
	unsigned int n_ips;
	struct vsw_ip_prefix {
		uint8_t family;	  /* 4 or 6 */
		uint8_t plen;	  /* prefix length: 32 / 128 for one address */
		uint8_t addr[16]; /* network order; IPv4 in the first 4 */
	} ips[VSW_MAX_ALLOWED_IPS];
	/* storm control: packets per second the port may inject; 0 = off */
	unsigned int storm_bcast_pps;
	unsigned int storm_mcast_pps;
	unsigned int storm_unknown_pps;
	unsigned int txq; /* ethdev only; 0 = one per worker */
	/* optional pinning: rx queue i is polled by lcore lcores[i % n] */
	unsigned int n_lcores;
	unsigned int lcores[VSW_MAX_QUEUES];
	/* "k=v k=v": OVS external_ids, kept for orchestrators (vsw-vsctl) */
	char external_ids[VSW_EXTERNAL_IDS_MAX + 1];
	/* vxlan (as written; vsw_config_vxlan parses them) */
	char local_ip[20];		     /* A.B.C.D/LEN */
	char gateway[16];		     /* A.B.C.D, "" = none */
	char remote_ips[VSW_VXLAN_LIST_MAX]; /* A.B.C.D ... */
	unsigned int vni;		     /* untagged frames; 0 = none */
	char vnis[VSW_VXLAN_LIST_MAX];	     /* VLAN:VNI ... */
	bool evpn; /* remote VTEPs and MACs from FRR (control/evpn.c) */
};

/* A vxlan port's settings, parsed (vsw_config_vxlan). */
struct vsw_vxlan_conf {
	uint32_t local_ip; /* host order */
	uint8_t plen;	   /* its prefix length: the on-link subnet */
	uint32_t gateway;  /* host order; 0 = none */
	unsigned int n_remotes;
	uint32_t remotes[VSW_VXLAN_VTEPS_MAX]; /* host order */
	unsigned int n_vnis;
	struct {
		uint16_t vlan; /* VSW_NO_VLAN: untagged frames (vni) */
		uint32_t vni;
	} map[VSW_VXLAN_VNIS_MAX + 1];
};
#define VSW_NO_VLAN 0xffff

/*
 * Parse and check a vxlan port's local-ip, gateway, remote-ips, vni and
 * vnis into @out: 0, or -EINVAL with the key in *@key and what was
 * expected in @what (the caller names file and section).
 */
int vsw_config_vxlan(const struct vsw_port_conf *pc, struct vsw_vxlan_conf *out,
		     const char **key, char *what, size_t wlen);

/* A static FDB entry, [fdb] MAC[@VLAN] = PORT. */
struct vsw_fdb_conf {
	uint8_t mac[6];
	uint16_t vlan; /* 0..4095 */
	char port[VSW_PORT_NAME_MAX];
};

struct vsw_config {
	char source[VSW_PATH_MAX]; /* file name, or "<default>" */
	struct vsw_switch_conf sw;
	unsigned int n_ports;
	struct vsw_port_conf ports[VSW_MAX_PORTS];
	unsigned int n_fdb;
	struct vsw_fdb_conf fdb[VSW_MAX_STATIC_FDB];
};

/*
 * Where warnings go (a deprecated key name, one line, no newline): @fn,
 * or stderr ("vsw: warning: ...") when @fn is NULL, the default.
 */
void vsw_config_on_warning(void (*fn)(const char *msg, void *arg), void *arg);

/* Fill @cfg with the switch defaults and no ports. */
void vsw_config_init(struct vsw_config *cfg);

/*
 * The embedded default: two vhost-user server ports vm0 and vm1 with one
 * queue pair each, sockets <run_dir>/vm0.sock and vm1.sock.  @run_dir may
 * be NULL for VSW_DEFAULT_RUN_DIR.
 */
void vsw_config_default(struct vsw_config *cfg, const char *run_dir);

/*
 * Load and validate @path into @cfg.  Returns 0, or -errno with a message
 * in @err naming file, section, key, value found and what was expected.
 */
int vsw_config_load(const char *path, struct vsw_config *cfg, char *err,
		    size_t errlen);

/*
 * Load a state file (vsw_config_write's output): as vsw_config_load
 * (no port at all is an empty switch, as in a config file).
 */
int vsw_config_load_state(const char *path, struct vsw_config *cfg, char *err,
			  size_t errlen);

/*
 * config/write.c: print @cfg as an INI file that vsw_config_load reads
 * back to the same struct: [switch] and each [port NAME] with every key
 * whose value differs from its default (keys without a default: when
 * set), then [fdb].  Aliases and deprecated names are never written.
 * 0, or -EINVAL (a value INI cannot carry) / -EIO with @err set.
 */
int vsw_config_write(const struct vsw_config *cfg, FILE *f, char *err,
		     size_t errlen);

/*
 * The state file over the config file (start-up): the state's values of
 * the keys `set` changes, its ports (replacing the file's) and its [fdb]
 * entries; the keys fixed at start-up stay the config file's.
 */
void vsw_config_overlay(struct vsw_config *cfg, const struct vsw_config *state);

/* MACs as text, for config/ and the telemetry API alike: exactly
 * "aa:bb:cc:dd:ee:ff" (17 characters, any case) into @mac, any MAC
 * (callers refuse multicast where it matters); and back, lower case. */
#define VSW_MAC_STR 18
bool vsw_config_parse_mac(const char *s, size_t len, uint8_t mac[6]);
void vsw_config_mac_str(const uint8_t mac[6], char buf[VSW_MAC_STR]);

/* Where the state file is: state-file, or <run-dir>/vsw.state. */
void vsw_config_state_path(const struct vsw_switch_conf *sw, char *buf,
			   size_t len);

/*
 * The rule that keeps ports apart, for a config file, the state file and a
 * run-time port-add alike: @pc may not take a name, a vhost-user socket
 * path or an ethdev device (its devargs up to the first comma) that one of
 * @ports[0..n) has.  What clashes, and with which (*@with).
 */
enum vsw_clash {
	VSW_CLASH_NONE,
	VSW_CLASH_NAME,
	VSW_CLASH_PATH,
	VSW_CLASH_DEVICE,
};
enum vsw_clash vsw_config_port_clash(const struct vsw_port_conf *ports,
				     unsigned int n,
				     const struct vsw_port_conf *pc,
				     unsigned int *with);

/*
 * Check cross-section rules (unique names, socket paths and devices, [fdb] entries
 * naming ports, pinning to lcores that exist: @lcore_ok(lcore, arg) says whether a worker lcore is
 * usable; NULL skips that check).  Returns 0 or -EINVAL with @err set.
 */
int vsw_config_validate(const struct vsw_config *cfg,
			bool (*lcore_ok)(unsigned int lcore, void *arg),
			void *arg, char *err, size_t errlen);

/*
 * Parse one "port-add" style key=value list (the runtime form of a [port]
 * section, e.g. "type=vhost-user,path=/x.sock,mode=client,queues=2")
 * into @pc named @name, using @sw for defaults.  Same errors as the file,
 * with "<command>" as the file name.  With @sw, also what a runtime client
 * may create: vhost-user paths below sw->run_dir or a directory of
 * socket-dirs or socket-watch-dir (vsw_config_sock_dir_ok), ethdev
 * drivers listed in sw->port_add_drivers.
 */
int vsw_config_port_from_kv(const char *name, const char *kvlist,
			    const struct vsw_switch_conf *sw,
			    struct vsw_port_conf *pc, char *err, size_t errlen);

/*
 * Change settings of an existing port at run time (the `port-set`
 * command): "max-macs=N,mtu=N,allowed-macs=MAC MAC..." on a copy of @pc;
 * other keys give -EPERM.  @pc is changed only on success.
 */
int vsw_config_port_set_kv(struct vsw_port_conf *pc, const char *kvlist,
			   char *err, size_t errlen);

/* "02:00:00:00:00:01 02:00:00:00:00:02" (or "any") for logs and views. */
void vsw_config_allowed_str(const struct vsw_port_conf *pc, char *buf,
			    size_t len);

/* One allowed-ips entry as text: "10.0.0.5", "2001:db8::/64". */
void vsw_config_ip_str(const struct vsw_ip_prefix *ip, char *buf, size_t len);

/*
 * Change one [switch] key at run time (the `set` command): same parsing
 * and messages as the file, "<command>" as the file name.  Keys fixed at
 * start-up (run-dir, fdb-size, mbufs) give -EPERM.  @sw is changed only
 * on success.
 */
int vsw_config_set_switch_key(struct vsw_switch_conf *sw, const char *key,
			      const char *value, char *err, size_t errlen);

/*
 * mbufs the pool needs so that receive never starves for lack of them
 * (the pool must not run dry): every ethdev rx and tx descriptor can hold one, each
 * worker's pool cache (1.5x at peak) and its tx buffers (a burst per
 * port), a burst in flight per worker, and 1024 for control.  With
 * @n_workers workers.
 */
unsigned int vsw_config_mbufs_needed(const struct vsw_config *cfg,
				     unsigned int n_workers);

/* -EINVAL with "FILE: [switch] mbufs = N: expected at least M ..." when
 * the pool is too small for @cfg (source names the file). */
int vsw_config_check_mbufs(const struct vsw_config *cfg, unsigned int n_workers,
			   char *err, size_t errlen);

/* devargs that name a PCI device (DDDD:BB:DD.F or BB:DD.F). */
bool vsw_config_devargs_is_pci(const char *devargs);

/*
 * The uid (@group false) or gid (@group true) of @name: a name known to
 * the system's user or group database, or a decimal id.  0, or -ENOENT
 * (no such name) or -EINVAL (empty or not a name).
 */
int vsw_config_account_id(const char *name, bool group, unsigned int *id);

/*
 * Where a runtime client may place vhost-user sockets: @path is a file
 * directly or further below run-dir, one of socket-dirs or the
 * socket-watch-dir, with no empty, "." or ".." component.
 */
bool vsw_config_sock_dir_ok(const struct vsw_switch_conf *sw, const char *path);

/* A metrics-listen value: a numeric address and a port. */
struct vsw_listen {
	uint8_t family;	  /* 4 or 6 */
	uint8_t addr[16]; /* network order; IPv4 in the first 4 */
	uint16_t port;	  /* 1..65535, host order */
};

/*
 * "IPV4:PORT" or "[IPV6]:PORT" (numeric addresses, port 1..65535) into
 * @out; 0, or -EINVAL.  The config's check of metrics-listen and what
 * vsw binds.
 */
int vsw_config_listen_parse(const char *s, struct vsw_listen *out);

/* A port name: 1..31 characters of [A-Za-z0-9_] (telemetry dict keys). */
bool vsw_config_port_name_ok(const char *name);

/* A [switch] key that only the config file sets (run-dir, mbufs...). */
bool vsw_config_switch_key_fixed(const char *key);

/* The port's VLAN mode: vlan_mode, or access/trunk when it was not given. */
enum vsw_vlan_mode vsw_config_vlan_mode(const struct vsw_port_conf *pc);

/* Does the port carry VLAN @v (0: untagged frames on a trunk)? */
bool vsw_config_vlan_member(const struct vsw_port_conf *pc, unsigned int v);

/* "10,20-30" (or "all") for logs and views. */
void vsw_config_trunks_str(const struct vsw_port_conf *pc, char *buf,
			   size_t len);

/* Strings for enum values ("vhost-user", "server", "busy", ...). */
const char *vsw_port_type_str(enum vsw_port_type t);
const char *vsw_vhost_mode_str(enum vsw_vhost_mode m);
const char *vsw_poll_mode_str(enum vsw_poll_mode m);
const char *vsw_vlan_mode_str(enum vsw_vlan_mode m);

#endif /* VSW_CONFIG_H */
