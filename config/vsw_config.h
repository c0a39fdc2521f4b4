/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vsw configuration: the plain structs the rest of vsw is built from.
 *
 * config/ turns an INI file (read with DPDK's rte_cfgfile, which needs no
 * EAL) or the embedded default into these structs and validates them.  It
 * includes no other DPDK header, so it is unit-tested without EAL.  Every
 * error names the file, the section, the key, the value found and what was
 * expected, e.g.
 *   vsw.conf: [port vm0] queues = "abc": expected an integer in 1..16
 */
#ifndef VSW_CONFIG_H
#define VSW_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VSW_MAX_PORTS 64
#define VSW_MAX_QUEUES 16
#define VSW_PORT_NAME_MAX 32
#define VSW_PATH_MAX 256
#define VSW_DEVARGS_MAX 256
#define VSW_ERR_MAX 512
#define VSW_BURST_MAX 256
#define VSW_DEFAULT_RUN_DIR "/run/vsw"

enum vsw_port_type { VSW_PORT_VHOST = 0, VSW_PORT_ETHDEV = 1 };
enum vsw_vhost_mode { VSW_VHOST_SERVER = 0, VSW_VHOST_CLIENT = 1 };
enum vsw_poll_mode { VSW_POLL_BUSY = 0, VSW_POLL_ADAPTIVE = 1 };

struct vsw_switch_conf {
	unsigned int burst;		   /* 1..VSW_BURST_MAX, default 32 */
	unsigned int tx_flush_interval_us; /* 0 = flush every iteration */
	unsigned int tx_retries;      /* vhost enqueue retries, default 4 */
	enum vsw_poll_mode poll_mode; /* default busy */
	bool kicks_allowed;	      /* kick-suppression = off (measuring) */
	unsigned int fdb_size;	      /* 16..16M entries, default 65536 */
	unsigned int fdb_aging_s;     /* 0 = never age, default 300 */
	unsigned int mbufs;	      /* mbuf pool size, default 32767 */
	/* adaptive poll mode: sleep after this long without a packet */
	unsigned int idle_threshold_us; /* default 200 */
	unsigned int max_sleep_us;	/* one sleep at most, default 1000 */
	/* automatic rx queue rebalance among workers */
	unsigned int rebalance_interval_s;    /* 0 = off (default) */
	unsigned int rebalance_threshold_pct; /* default 25 */
	char run_dir[VSW_PATH_MAX];	      /* default /run/vsw */
};

struct vsw_port_conf {
	char name[VSW_PORT_NAME_MAX];
	enum vsw_port_type type;
	/* vhost-user */
	char path[VSW_PATH_MAX]; /* socket; default <run-dir>/<name>.sock */
	enum vsw_vhost_mode mode;
	/* ethdev */
	char devargs[VSW_DEVARGS_MAX];
	/* queues = rx queue count (vhost: queue pairs; ethdev: rxq), 1..16 */
	unsigned int queues;
	unsigned int txq; /* ethdev only; 0 = one per worker */
	/* optional pinning: rx queue i is polled by lcore workers[i % n] */
	unsigned int n_workers;
	unsigned int workers[VSW_MAX_QUEUES];
};

struct vsw_config {
	char source[VSW_PATH_MAX]; /* file name, or "<default>" */
	struct vsw_switch_conf sw;
	unsigned int n_ports;
	struct vsw_port_conf ports[VSW_MAX_PORTS];
};

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
 * Check cross-section rules (unique names and socket paths, pinning to
 * lcores that exist: @lcore_ok(lcore, arg) says whether a worker lcore is
 * usable; NULL skips that check).  Returns 0 or -EINVAL with @err set.
 */
int vsw_config_validate(const struct vsw_config *cfg,
			bool (*lcore_ok)(unsigned int lcore, void *arg),
			void *arg, char *err, size_t errlen);

/*
 * Parse one "port-add" style key=value list (the runtime form of a [port]
 * section, e.g. "type=vhost-user,path=/x.sock,mode=client,queues=2")
 * into @pc named @name, using @sw for defaults.  Same errors as the file,
 * with "<command>" as the file name.
 */
int vsw_config_port_from_kv(const char *name, const char *kvlist,
			    const struct vsw_switch_conf *sw,
			    struct vsw_port_conf *pc, char *err, size_t errlen);

/*
 * Change one [switch] key at run time (the `set` command): same parsing
 * and messages as the file, "<command>" as the file name.  Keys fixed at
 * start-up (run-dir, fdb-size, mbufs) give -EPERM.  @sw is changed only
 * on success.
 */
int vsw_config_set_switch_key(struct vsw_switch_conf *sw, const char *key,
			      const char *value, char *err, size_t errlen);

/* A port name: 1..31 characters of [A-Za-z0-9_] (telemetry dict keys). */
bool vsw_config_port_name_ok(const char *name);

/* Strings for enum values ("vhost-user", "server", "busy", ...). */
const char *vsw_port_type_str(enum vsw_port_type t);
const char *vsw_vhost_mode_str(enum vsw_vhost_mode m);
const char *vsw_poll_mode_str(enum vsw_poll_mode m);

#endif /* VSW_CONFIG_H */
