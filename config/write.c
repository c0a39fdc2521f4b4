/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The config writer: struct vsw_config back to an INI file that
 * vsw_config_load reads to the same struct (the state file, `vswctl
 * show-config`, `vsw --print-config`), and the state file laid over the
 * config file at start-up.
 *
 * Driven by the key table (vsw_keys.h) alone: each row's kind says how to
 * print its field, so a key added to the table is written with no code
 * here.  A key is written when its value differs from the row's default
 * (compared as text: the formatters print the canonical form the
 * defaults are written in); a key without a default when it is set
 * (a non-empty text, a non-zero number, a CHOICE with a word).  The
 * trade-off: a short file that says what differs, so a changed default
 * applies to what was never set, as it does for the config file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "vsw_config.h"
#include "vsw_keys.h"

#define VALUE_MAX 1024	  /* a formatted value, before the INI limit */
#define INI_VALUE_MAX 255 /* rte_cfgfile's CFG_VALUE_LEN - 1 */

/* The struct holding a port key's field (LCORES, MACS, VLANS, IPS keys
 * have a count or flag next to it, as their parsers in config.c). */
static const struct vsw_port_conf *port_of(const struct vsw_key *k,
					   const void *field)
{
	return (const void *)((const char *)field - k->off);
}

static void fmt_lcores(const struct vsw_port_conf *pc, char *b, size_t len)
{
	size_t o = 0;

	b[0] = '\0';
	for (unsigned int i = 0; i < pc->n_lcores && o < len; i++)
		o += (size_t)snprintf(b + o, len - o, "%s%u", i ? "," : "",
				      pc->lcores[i]);
}

static void fmt_ips(const struct vsw_port_conf *pc, char *b, size_t len)
{
	size_t o = 0;

	snprintf(b, len, "any");
	for (unsigned int i = 0; i < pc->n_ips && o < len; i++) {
		char ip[64];

		vsw_config_ip_str(&pc->ips[i], ip, sizeof(ip));
		o += (size_t)snprintf(b + o, len - o, "%s%s", i ? " " : "", ip);
	}
}

/*
 * The value of @k's field as the file writes it, in @b; false when the
 * field has no text (a CHOICE value with no word: vlan-mode not given).
 */
static bool format(const struct vsw_key *k, const void *field, char *b,
		   size_t len)
{
	unsigned int u = k->size == sizeof(bool) ? *(const bool *)field
			 : k->size == sizeof(unsigned int)
				 ? *(const unsigned int *)field
				 : 0;

	switch (k->kind) {
	case VSW_KIND_UINT:
		snprintf(b, len, "%u", u);
		return true;
	case VSW_KIND_OCTAL:
		snprintf(b, len, "0%o", u);
		return true;
	case VSW_KIND_CHOICE:
		for (const struct vsw_key_choice *c = k->choices; c->word; c++)
			if (c->val == u)
				return snprintf(b, len, "%s", c->word) >= 0;
		return false;
	case VSW_KIND_PATH:
	case VSW_KIND_STRING:
		snprintf(b, len, "%.*s", (int)k->size, (const char *)field);
		return true;
	case VSW_KIND_LCORES:
		fmt_lcores(port_of(k, field), b, len);
		return true;
	case VSW_KIND_MACS:
		vsw_config_allowed_str(port_of(k, field), b, len);
		return true;
	case VSW_KIND_VLANS:
		vsw_config_trunks_str(port_of(k, field), b, len);
		return true;
	case VSW_KIND_IPS:
		fmt_ips(port_of(k, field), b, len);
		return true;
	}
	return false;
}

/* What a key without a default reads as when the file does not give it. */
static const char *unset_text(enum vsw_key_kind kind)
{
	switch (kind) {
	case VSW_KIND_UINT:
		return "0";
	case VSW_KIND_OCTAL:
		return "00";
	case VSW_KIND_MACS:
	case VSW_KIND_IPS:
		return "any";
	case VSW_KIND_VLANS:
		return "all";
	default:
		return "";
	}
}

/*
 * @v as an INI value: ';' escaped (rte_cfgfile takes "\;" for ';'); no
 * blank at either end (rte_cfgfile strips them), at most INI_VALUE_MAX.
 */
static bool ini_value(const char *v, char *out, size_t len)
{
	size_t o = 0, n = strlen(v);

	if (n > 0 && (v[0] == ' ' || v[0] == '\t' || v[n - 1] == ' ' ||
		      v[n - 1] == '\t'))
		return false;
	for (; *v != '\0'; v++) {
		if (o + 3 > len)
			return false;
		if (*v == ';')
			out[o++] = '\\';
		out[o++] = *v;
	}
	out[o] = '\0';
	return o <= INI_VALUE_MAX;
}

struct wctx {
	FILE *f;
	const char *section;
	char *err;
	size_t errlen;
};

/* "KEY = VALUE", or "KEY =" for an empty value. */
static int put(struct wctx *w, const char *key, const char *value)
{
	char v[2 * VALUE_MAX];

	if (!ini_value(value, v, sizeof(v))) {
		snprintf(w->err, w->errlen,
			 "cannot write [%s] %s = \"%s\": an INI value has no "
			 "blank at either end and at most %d characters",
			 w->section, key, value, INI_VALUE_MAX);
		return -EINVAL;
	}
	fprintf(w->f, v[0] ? "%s = %s\n" : "%s =\n", key, v);
	return 0;
}

/* Every key of @sect that applies (@ports) and is not at its default. */
static int put_keys(struct wctx *w, enum vsw_key_sect sect, unsigned int ports,
		    const void *conf)
{
	char v[VALUE_MAX];

	for (size_t i = 0; i < vsw_n_keys; i++) {
		const struct vsw_key *k = &vsw_keys[i];
		int rc;

		if (k->sect != sect || k->alias_of != NULL || k->deprecated ||
		    (sect == VSW_SECT_PORT && !(k->ports & ports)))
			continue;
		if (!format(k, (const char *)conf + k->off, v, sizeof(v)))
			continue;
		if (strcmp(v, k->dflt != NULL ? k->dflt
					      : unset_text(k->kind)) == 0 &&
		    !k->required)
			continue;
		rc = put(w, k->name, v);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int put_fdb(struct wctx *w, const struct vsw_config *cfg)
{
	w->section = "fdb";
	if (cfg->n_fdb > 0)
		fprintf(w->f, "\n[fdb]\n");
	for (unsigned int i = 0; i < cfg->n_fdb; i++) {
		const struct vsw_fdb_conf *fc = &cfg->fdb[i];
		char mac[VSW_MAC_STR];

		vsw_config_mac_str(fc->mac, mac);
		fprintf(w->f, "%s", mac);
		if (fc->vlan != 0)
			fprintf(w->f, "@%u", fc->vlan);
		fprintf(w->f, " = %.*s\n", VSW_PORT_NAME_MAX - 1, fc->port);
	}
	return 0;
}

int vsw_config_write(const struct vsw_config *cfg, FILE *f, char *err,
		     size_t errlen)
{
	char sect[VSW_PORT_NAME_MAX + 8];
	struct wctx w = {f, "switch", err, errlen};
	int rc;

	fprintf(f, "[switch]\n");
	rc = put_keys(&w, VSW_SECT_SWITCH, 0, &cfg->sw);
	for (unsigned int i = 0; rc == 0 && i < cfg->n_ports; i++) {
		const struct vsw_port_conf *pc = &cfg->ports[i];

		snprintf(sect, sizeof(sect), "port %.*s", VSW_PORT_NAME_MAX - 1,
			 pc->name);
		w.section = sect;
		fprintf(f, "\n[%s]\n", sect);
		rc = put_keys(&w, VSW_SECT_PORT, 1u << pc->type, pc);
	}
	if (rc == 0)
		rc = put_fdb(&w, cfg);
	if (rc == 0 && ferror(f)) {
		snprintf(err, errlen, "cannot write the config: %s",
			 strerror(errno ? errno : EIO));
		rc = -EIO;
	}
	return rc;
}

void vsw_config_overlay(struct vsw_config *cfg, const struct vsw_config *state)
{
	for (size_t i = 0; i < vsw_n_keys; i++) {
		const struct vsw_key *k = &vsw_keys[i];

		if (k->sect == VSW_SECT_SWITCH && k->runtime &&
		    k->alias_of == NULL)
			memcpy((char *)&cfg->sw + k->off,
			       (const char *)&state->sw + k->off, k->size);
	}
	cfg->n_ports = state->n_ports;
	memcpy(cfg->ports, state->ports, sizeof(cfg->ports));
	cfg->n_fdb = state->n_fdb;
	memcpy(cfg->fdb, state->fdb, sizeof(cfg->fdb));
}

void vsw_config_state_path(const struct vsw_switch_conf *sw, char *buf,
			   size_t len)
{
	size_t n = strnlen(sw->run_dir, sizeof(sw->run_dir));

	if (sw->state_file[0] != '\0')
		snprintf(buf, len, "%s", sw->state_file);
	else
		snprintf(buf, len, "%.*s%s" VSW_STATE_FILE, (int)n, sw->run_dir,
			 n > 0 && sw->run_dir[n - 1] == '/' ? "" : "/");
}
