/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reading a config or state file: a prescan of every line (no control or
 * non-ASCII byte outside comments, no key or value rte_cfgfile would cut),
 * then rte_cfgfile and the sections in order, the default socket paths,
 * the port count.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cfgfile.h>

#include "config_priv.h"

/* ---- file ---- */

static int dispatch_section(const struct pctx *c,
			    const struct rte_cfgfile_entry *e, int n,
			    struct vsw_config *cfg, bool *seen_switch)
{
	const char *name = c->section;
	int ret;

	if (strcmp(name, "switch") == 0) {
		if (*seen_switch)
			return cfg_bad_section(c, "duplicate section",
					       "one [switch] section");
		*seen_switch = true;
		return cfg_parse_switch(c, e, n, &cfg->sw);
	}
	if (strcmp(name, "fdb") == 0)
		return cfg_parse_fdb(c, e, n, cfg);
	if (strncmp(name, "port ", 5) != 0 && strcmp(name, "port") != 0)
		return cfg_bad_section(c, "unknown section",
				       "[switch], [port NAME] or [fdb]");
	name += name[4] == ' ' ? 5 : 4;
	if (!vsw_config_port_name_ok(name))
		return cfg_bad_name(c, "[port NAME] with NAME");
	if (cfg->n_ports == VSW_MAX_PORTS) {
		cfg_set_err(c,
			    "%s: [%s]: too many ports; expected at most %d "
			    "[port NAME] sections",
			    c->file, c->section, VSW_MAX_PORTS);
		return -EINVAL;
	}
	ret = cfg_parse_port(c, name, e, n, &cfg->ports[cfg->n_ports]);
	if (ret == 0)
		cfg->n_ports++;
	return ret;
}

static int parse_section(struct rte_cfgfile *f, int idx, const char *file,
			 struct vsw_config *cfg, bool *seen_switch, char *err,
			 size_t errlen)
{
	char name[CFG_NAME_LEN] = "";
	struct pctx c = {file, name, err, errlen};
	struct rte_cfgfile_entry *e;
	int n, ret = -EINVAL;

	n = rte_cfgfile_section_num_entries_by_index(f, name, idx);
	if (n < 0) {
		cfg_set_err(&c, "%s: cannot read: section %d", file, idx);
		return -EINVAL;
	}
	e = calloc(n > 0 ? n : 1, sizeof(*e));
	if (e == NULL) {
		cfg_set_err(&c, "%s: cannot read: %s", file, strerror(ENOMEM));
		return -ENOMEM;
	}
	if (rte_cfgfile_section_entries_by_index(f, idx, name, e, n) == n)
		ret = dispatch_section(&c, e, n, cfg, seen_switch);
	else
		cfg_set_err(&c, "%s: cannot read: [%s]", file, name);
	free(e);
	return ret;
}

/* FILE: cannot read: line N "TEXT": expected WHAT */
static int syntax_err(const struct pctx *c, unsigned int lineno,
		      const char *text, const char *what)
{
	cfg_set_err(c, "%s: cannot read: line %u \"%s\": expected %s", c->file,
		    lineno, text, what);
	return -EINVAL;
}

/*
 * rte_cfgfile skips lines that are neither "[section]" nor "key = value"
 * and fails without saying why on others; find those lines first.
 */
/* Length of @p[0..len) without blanks at either end. */
static size_t trimmed_len(const char *p, size_t len)
{
	while (len > 0 && isspace((unsigned char)p[0])) {
		p++;
		len--;
	}
	while (len > 0 && isspace((unsigned char)p[len - 1]))
		len--;
	return len;
}

/*
 * Bytes rte_cfgfile would take silently: NUL (the rest of the line is
 * lost), control characters and non-ASCII outside comments.  Never quoted
 * back: the message names the line and column instead.
 */
static int check_line_bytes(const struct pctx *c, const char *line, size_t n,
			    unsigned int lineno)
{
	bool comment = false;

	for (size_t i = 0; i < n && line[i] != '\n'; i++) {
		unsigned char b = (unsigned char)line[i];

		if (b == ';' && (i == 0 || line[i - 1] != '\\'))
			comment = true;
		if (b == 0 || (!comment && b != '\t' && b != '\r' &&
			       (b < 0x20 || b > 0x7e))) {
			cfg_set_err(c,
				    "%s: cannot read: line %u: byte 0x%02x at "
				    "column "
				    "%zu; expected printable ASCII",
				    c->file, lineno, (unsigned int)b, i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Keys, values and section names longer than rte_cfgfile's buffers are
 * cut there without a word; refuse them here.
 */
static int check_lengths(const struct pctx *c, const char *p,
			 unsigned int lineno)
{
	const char *eq = strchr(p, '=');

	const char *what = NULL;
	char buf[64];
	int max = 0;

	if (*p == '[' && strcspn(p + 1, "]") >= CFG_NAME_LEN)
		what = "a section name", max = CFG_NAME_LEN - 1;
	else if (*p != '[' && eq != NULL &&
		 trimmed_len(p, (size_t)(eq - p)) >= CFG_NAME_LEN)
		what = "a key", max = CFG_NAME_LEN - 1;
	else if (*p != '[' && eq != NULL &&
		 trimmed_len(eq + 1, strlen(eq + 1)) >= CFG_VALUE_LEN)
		what = "a value", max = CFG_VALUE_LEN - 1;
	if (what == NULL)
		return 0;
	snprintf(buf, sizeof(buf), "%s of at most %d characters", what, max);
	return syntax_err(c, lineno, *p == '[' ? "[...]" : "...", buf);
}

static int prescan_line(const struct pctx *c, char *line, size_t n,
			unsigned int lineno, bool *in_section)
{
	size_t len = strcspn(line, "\n");
	char *p, *semi;
	int rc;

	if (len > CFG_LINE_MAX) {
		char what[48];

		snprintf(what, sizeof(what), "a line of at most %d characters",
			 CFG_LINE_MAX);
		return syntax_err(c, lineno, "...", what);
	}
	rc = check_line_bytes(c, line, n, lineno);
	if (rc < 0)
		return rc;
	line[len] = '\0';
	semi = strchr(line, ';'); /* like rte_cfgfile: first ';' unless \; */
	if (semi != NULL && (semi == line || semi[-1] != '\\'))
		*semi = '\0';
	for (p = line; isspace((unsigned char)*p); p++)
		;
	len = strlen(p);
	while (len > 0 && isspace((unsigned char)p[len - 1]))
		p[--len] = '\0';
	if (*p == '\0')
		return 0;
	rc = check_lengths(c, p, lineno);
	if (rc < 0)
		return rc;
	if (*p == '[') {
		*in_section = true;
		if (strchr(p, ']') == NULL)
			return syntax_err(c, lineno, p, "a closing ']'");
		return 0;
	}
	if (strchr(p, '=') == NULL)
		return syntax_err(c, lineno, p, "KEY = VALUE or [SECTION]");
	if (!*in_section)
		return syntax_err(c, lineno, p, "a [SECTION] before any key");
	return 0;
}

static int prescan_file(const struct pctx *c)
{
	unsigned int lineno = 0;
	bool in_section = false;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;
	FILE *fp;

	fp = fopen(c->file, "r");
	if (fp == NULL) {
		ret = -errno;
		cfg_set_err(c, "%s: cannot read: %s", c->file, strerror(-ret));
		return ret;
	}
	while (ret == 0 && (n = getline(&line, &cap, fp)) >= 0)
		ret = prescan_line(c, line, (size_t)n, ++lineno, &in_section);
	if (ret == 0 && ferror(fp)) {
		ret = errno ? -errno : -EIO;
		cfg_set_err(c, "%s: cannot read: %s", c->file, strerror(-ret));
	}
	free(line);
	fclose(fp);
	return ret;
}

static void set_default_paths(struct vsw_config *cfg)
{
	struct vsw_port_conf *pc;
	unsigned int i;

	for (i = 0; i < cfg->n_ports; i++) {
		pc = &cfg->ports[i];
		if (pc->type == VSW_PORT_VHOST && pc->path[0] == '\0')
			cfg_default_sock_path(pc->path, sizeof(pc->path),
					      cfg->sw.run_dir, pc->name);
	}
}

/* FILE: N ports; expected 0..64 [port NAME] sections */
int cfg_port_count_err(const struct vsw_config *cfg, char *err, size_t errlen)
{
	struct pctx c = {cfg->source, "switch", err, errlen};

	cfg_set_err(&c, "%s: %u ports; expected 0..%d [port NAME] sections",
		    cfg->source, cfg->n_ports, VSW_MAX_PORTS);
	return -EINVAL;
}

static int parse_file(const char *path, struct vsw_config *cfg, char *err,
		      size_t errlen)
{
	struct pctx c = {path, "", err, errlen};
	bool seen_switch = false;
	struct rte_cfgfile *f;
	int i, n, ret;

	ret = prescan_file(&c);
	if (ret < 0)
		return ret;
	f = rte_cfgfile_load(path, CFG_FLAG_EMPTY_VALUES);
	if (f == NULL) {
		cfg_set_err(&c, "%s: cannot read: not a valid INI file", path);
		return -EINVAL;
	}
	n = rte_cfgfile_num_sections(f, NULL, 0);
	for (i = 0; ret == 0 && i < n; i++)
		ret = parse_section(f, i, path, cfg, &seen_switch, err, errlen);
	rte_cfgfile_close(f);
	return ret;
}

static int config_load(const char *path, struct vsw_config *cfg, char *err,
		       size_t errlen)
{
	int ret;

	vsw_config_init(cfg);
	if (path == NULL || path[0] == '\0') {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "<none>: cannot read: %s",
				 strerror(ENOENT));
		return -ENOENT;
	}
	snprintf(cfg->source, sizeof(cfg->source), "%s", path);
	ret = parse_file(path, cfg, err, errlen);
	if (ret == 0) {
		set_default_paths(cfg);
		ret = vsw_config_validate(cfg, NULL, NULL, err, errlen);
	}
	if (ret < 0)
		vsw_config_init(cfg);
	return ret;
}

int vsw_config_load(const char *path, struct vsw_config *cfg, char *err,
		    size_t errlen)
{
	return config_load(path, cfg, err, errlen);
}

int vsw_config_load_state(const char *path, struct vsw_config *cfg, char *err,
			  size_t errlen)
{
	return config_load(path, cfg, err, errlen);
}
