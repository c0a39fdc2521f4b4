/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one table of configuration keys (config/keys.c).
 *
 * Each row is one key of [switch] or [port NAME]: its name, the syntax of
 * its value (kind), where it is stored, its range, default, whether a
 * running vsw takes a new value (`set` / `port-set`), the port kinds that
 * accept it and one line of help.  From it come the parser's checks and
 * messages and the defaults (config.c), `vsw --help-config` and the key
 * tables of docs/configuration.md (vsw_keys_print), and the keys vswctl
 * accepts.  Plain C: no DPDK, so vswctl compiles it too.
 */
#ifndef VSW_KEYS_H
#define VSW_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define VSW_LCORE_ID_MAX 1023
#define VSW_SUN_PATH_MAX 108 /* sizeof(((struct sockaddr_un *)0)->sun_path) */

enum vsw_key_sect { VSW_SECT_SWITCH, VSW_SECT_PORT };

enum vsw_key_kind {
	VSW_KIND_UINT,	 /* decimal in min..max */
	VSW_KIND_CHOICE, /* one of choices[] */
	VSW_KIND_PATH,	 /* absolute path shorter than max */
	VSW_KIND_STRING, /* min..max characters of charset (NULL: any) */
	VSW_KIND_OCTAL,	 /* octal min..max holding min's bits */
	VSW_KIND_LCORES, /* comma-separated ids min..max, up to 16 */
	VSW_KIND_MACS,	 /* "any" or up to max unicast MACs */
	VSW_KIND_VLANS,	 /* "" or "all", or VLAN ids and ranges min..max */
	VSW_KIND_IPS,	 /* "any" or up to max IPv4/IPv6 addresses, prefixes */
};

/* Port kinds that accept a port key: bit (1u << enum vsw_port_type). */
#define VSW_KEY_VHOST (1u << 0)
#define VSW_KEY_ETHDEV (1u << 1)
#define VSW_KEY_VXLAN (1u << 2)
#define VSW_KEY_DEV (VSW_KEY_ETHDEV | VSW_KEY_VXLAN) /* on a DPDK device */
#define VSW_KEY_ANY (VSW_KEY_VHOST | VSW_KEY_ETHDEV | VSW_KEY_VXLAN)

struct vsw_key_choice {
	const char *word;
	unsigned int val;
};

struct vsw_key {
	const char *name;
	enum vsw_key_sect sect;
	enum vsw_key_kind kind;
	unsigned int ports;   /* port keys: VSW_KEY_VHOST/ETHDEV/VXLAN bits */
	bool runtime;	      /* switch: `set`; port: `port-set` */
	bool required;	      /* port keys: no default, must be given */
	bool rest;	      /* in a "k=v,..." list: last, takes the rest */
	const char *alias_of; /* another name of that key (one per section) */
	bool deprecated;      /* an old name: accepted with a warning */
	/* the field in struct vsw_switch_conf or vsw_port_conf */
	size_t off, size;
	unsigned int min, max;
	const struct vsw_key_choice *choices; /* CHOICE, NULL-terminated */
	const char *charset;		      /* STRING */
	const char *what;  /* expected value in messages (not UINT/CHOICE) */
	const char *noun;  /* UINT: "an MTU" (default "an integer") */
	const char *note;  /* after the range in messages: " (0 = off)" */
	const char *type;  /* shown type (default from the kind) */
	const char *dflt;  /* default value as written in a file, or NULL */
	const char *shown; /* default as shown, when not dflt */
	const char *help;  /* one line */
	/* STRING keys that name a system account: checked to exist */
	enum { VSW_ACCT_NONE, VSW_ACCT_USER, VSW_ACCT_GROUP } account;
};

extern const struct vsw_key vsw_keys[];
extern const size_t vsw_n_keys;

/* The row of @name in @sect (the key up to @len chars), or NULL. */
const struct vsw_key *vsw_key_find(enum vsw_key_sect sect, const char *name,
				   size_t len);

/* The name a key stands for: alias_of, or its own. */
const char *vsw_key_canon(const struct vsw_key *k);

/*
 * "a, b, c": the names of the non-deprecated keys of @sect that a port
 * kind in @ports accepts (switch keys: any @ports), with @runtime -1
 * (all), 0 (fixed) or 1 (changeable at run time).  Returns @buf.
 */
char *vsw_keys_list(char *buf, size_t len, enum vsw_key_sect sect,
		    unsigned int ports, int runtime);

/* "vhost-user or ethdev", "busy or adaptive" for a CHOICE key. */
char *vsw_key_choices_str(const struct vsw_key *k, char *buf, size_t len);

/* The port kinds a port key applies to, "vhost-user, ethdev". */
char *vsw_key_ports_str(const struct vsw_key *k, char *buf, size_t len);

/*
 * Print the table: key, type, range, default, run time, help (and the
 * port kinds of port keys); with @markdown, docs/configuration.md's two
 * tables between their marker comments.
 */
void vsw_keys_print(FILE *f, bool markdown);

#endif /* VSW_KEYS_H */
