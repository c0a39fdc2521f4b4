/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the config parser's files share (config.c: errors, validation,
 * defaults; values.c: a value by the kind of its key; sections.c:
 * [switch], [port NAME], [fdb]; file.c: reading a file; runtime.c:
 * port-add's and port-set's KEY=VALUE lists, `set`; text.c: VLAN
 * helpers, MACs and addresses as text).  Not for outside config/.
 */
#ifndef VSW_CONFIG_PRIV_H
#define VSW_CONFIG_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_cfgfile.h>

#include "vsw_config.h"
#include "vsw_keys.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define KV_MAX_ENTRIES 16
/* rte_cfgfile reads lines into a buffer of this size, '\n' included. */
#define CFG_LINE_MAX (CFG_NAME_LEN + CFG_VALUE_LEN + 4 - 2)
#define CMD_SOURCE "<command>"
#define LIST_MAX 512 /* a list of key names */
#define NAME_RULE "characters of [A-Za-z0-9_] (telemetry keys allow no others)"

/* rte_cfgfile silently cuts values at CFG_VALUE_LEN - 1 characters */
_Static_assert(VSW_DEVARGS_MAX - 2 < CFG_VALUE_LEN - 1, "devargs fit");

/* Where an error is: file and section, plus the caller's buffer. */
struct pctx {
	const char *file;
	const char *section;
	char *err;
	size_t errlen;
};

int cfg_bad_name(const struct pctx *c, const char *form);
int cfg_bad_section(const struct pctx *c, const char *problem,
		    const char *what);
int cfg_bad_value(const struct pctx *c, const char *key, const char *value,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
const char *cfg_canon_key(enum vsw_key_sect sect, const char *key);
int cfg_check_dup_keys(const struct pctx *c, enum vsw_key_sect sect,
		       const struct rte_cfgfile_entry *e, int n);
int cfg_check_path(const struct pctx *c, const struct vsw_key *k,
		   const char *value);
int cfg_check_printable(const struct pctx *c, const char *key,
			const char *value);
int cfg_check_sock_path(const struct pctx *c, const char *path);
int cfg_check_vlan(const struct pctx *c, const struct vsw_port_conf *pc);
bool cfg_copy_trimmed(char *dst, size_t size, const char *src, size_t len);
void cfg_default_sock_path(char *buf, size_t len, const char *run_dir,
			   const char *name);
int cfg_missing_key(const struct pctx *c, const char *key, const char *what);
int cfg_parse_fdb(const struct pctx *c, const struct rte_cfgfile_entry *e,
		  int n, struct vsw_config *cfg);
int cfg_parse_key(const struct pctx *c, const struct vsw_key *k,
		  const char *value, void *conf);
bool cfg_parse_mac(const char *s, size_t len, uint8_t mac[6]);
int cfg_parse_port(const struct pctx *c, const char *name,
		   const struct rte_cfgfile_entry *e, int n,
		   struct vsw_port_conf *pc);
int cfg_parse_switch(const struct pctx *c, const struct rte_cfgfile_entry *e,
		     int n, struct vsw_switch_conf *sw);
int cfg_parse_switch_entry(const struct pctx *c, const char *key,
			   const char *value, struct vsw_switch_conf *sw);
int cfg_parse_uint(const char *s, unsigned int min, unsigned int max,
		   unsigned int *out);
int cfg_port_count_err(const struct vsw_config *cfg, char *err, size_t errlen);
void cfg_port_defaults(struct vsw_port_conf *pc, const char *name);
const struct vsw_key *cfg_port_key(const char *key);
void cfg_set_defaults(enum vsw_key_sect sect, void *conf);
void cfg_set_err(const struct pctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* VSW_CONFIG_PRIV_H */
