/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A value, by the kind of its key (config/keys.c): numbers, choices,
 * paths, strings, accounts, octal modes, lcore lists, word lists, VLAN
 * lists, MACs, IP prefixes; each checked against its key's row, with the
 * error naming the key and what was expected; and the deprecated names.
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

/* ---- deprecated names ---- */

static void (*warn_fn)(const char *msg, void *arg);
static void *warn_arg;

void vsw_config_on_warning(void (*fn)(const char *msg, void *arg), void *arg)
{
	warn_fn = fn;
	warn_arg = arg;
}

/* FILE: [SECTION] OLD: deprecated; write NEW (the same value) */
static void warn_deprecated(const struct pctx *c, const struct vsw_key *k)
{
	char msg[VSW_ERR_MAX];

	snprintf(msg, sizeof(msg),
		 "%s: [%s] %s: deprecated; write %s (the same value)", c->file,
		 c->section, k->name, vsw_key_canon(k));
	if (warn_fn != NULL)
		warn_fn(msg, warn_arg);
	else
		fprintf(stderr, "vsw: warning: %s\n", msg);
}

/* ---- values, by the kind of their key (config/keys.c) ---- */

static int kind_uint(const struct pctx *c, const struct vsw_key *k,
		     const char *value, void *field)
{
	if (cfg_parse_uint(value, k->min, k->max, field) < 0)
		return cfg_bad_value(c, k->name, value, "%s in %u..%u%s",
				     k->noun ? k->noun : "an integer", k->min,
				     k->max, k->note ? k->note : "");
	return 0;
}

static int kind_choice(const struct pctx *c, const struct vsw_key *k,
		       const char *value, void *field)
{
	char what[LIST_MAX];

	for (const struct vsw_key_choice *ch = k->choices; ch->word; ch++) {
		if (strcmp(value, ch->word) != 0)
			continue;
		if (k->size == sizeof(bool))
			*(bool *)field = ch->val != 0;
		else
			*(unsigned int *)field = ch->val;
		return 0;
	}
	return cfg_bad_value(c, k->name, value, "%s",
			     vsw_key_choices_str(k, what, sizeof(what)));
}

int cfg_check_path(const struct pctx *c, const struct vsw_key *k,
		   const char *value)
{
	if (value[0] != '/' || strnlen(value, k->max) >= k->max)
		return cfg_bad_value(c, k->name, value,
				     "an absolute path shorter than %u "
				     "characters%s",
				     k->max, k->note ? k->note : "");
	return 0;
}

static int kind_path(const struct pctx *c, const struct vsw_key *k,
		     const char *value, void *field)
{
	int ret = cfg_check_path(c, k, value);

	if (ret == 0)
		snprintf(field, k->size, "%s", value);
	return ret;
}

static int kind_string(const struct pctx *c, const struct vsw_key *k,
		       const char *value, void *field)
{
	size_t n = strlen(value);

	if (n < k->min || n > k->max || n >= k->size ||
	    (k->charset != NULL && strspn(value, k->charset) != n)) {
		if (k->min > 0)
			return cfg_bad_value(c, k->name, value,
					     "%s, %u..%u characters", k->what,
					     k->min, k->max);
		return cfg_bad_value(c, k->name, value,
				     "%s, at most %u characters", k->what,
				     k->max);
	}
	if (k->account != VSW_ACCT_NONE && n > 0 &&
	    vsw_config_account_id(value, k->account == VSW_ACCT_GROUP,
				  &(unsigned int){0}) < 0)
		return cfg_bad_value(
			c, k->name, value, "%s (no %s \"%s\" here)", k->what,
			k->account == VSW_ACCT_GROUP ? "group" : "user", value);
	memcpy(field, value, n + 1);
	return 0;
}

int vsw_config_account_id(const char *name, bool group, unsigned int *id)
{
	char buf[4096];
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;

	if (name[0] == '\0')
		return -EINVAL;
	if (strspn(name, "0123456789") == strlen(name))
		return cfg_parse_uint(name, 0, 0xfffffffe, id);
	if (group) {
		if (getgrnam_r(name, &gr, buf, sizeof(buf), &grp) != 0 ||
		    grp == NULL)
			return -ENOENT;
		*id = (unsigned int)grp->gr_gid;
	} else {
		if (getpwnam_r(name, &pw, buf, sizeof(buf), &pwp) != 0 ||
		    pwp == NULL)
			return -ENOENT;
		*id = (unsigned int)pwp->pw_uid;
	}
	return 0;
}

/*
 * Octal, with a leading 0, in min..max and holding every bit of min; or 0
 * on a row without a default (a port's socket-mode: the switch's).
 */
static int kind_octal(const struct pctx *c, const struct vsw_key *k,
		      const char *value, void *field)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(value, &end, 8);
	if (value[0] != '0' || *end != '\0' || errno != 0 || v > k->max ||
	    ((v & k->min) != k->min && (v != 0 || k->dflt != NULL)))
		return cfg_bad_value(c, k->name, value, "%s %04o..%04o%s",
				     k->what, k->min, k->max,
				     k->note ? k->note : "");
	*(unsigned int *)field = (unsigned int)v;
	return 0;
}

/* Copy @src[0..len) without surrounding blanks; false if it does not fit. */
bool cfg_copy_trimmed(char *dst, size_t size, const char *src, size_t len)
{
	while (len > 0 && isspace((unsigned char)src[0])) {
		src++;
		len--;
	}
	while (len > 0 && isspace((unsigned char)src[len - 1]))
		len--;
	if (len >= size)
		return false;
	memcpy(dst, src, len);
	dst[len] = '\0';
	return true;
}

/* "1,2, 3": lcore ids for vsw_port_conf's lcores[] (the field). */
static int kind_lcores(const struct pctx *c, const struct vsw_key *k,
		       const char *value, void *field)
{
	struct vsw_port_conf *pc =
		(void *)((char *)field -
			 offsetof(struct vsw_port_conf, lcores));
	const char *p = value;
	unsigned int n = 0;
	char item[16];
	size_t len;

	for (;;) {
		len = strcspn(p, ",");
		if (n == ARRAY_SIZE(pc->lcores) ||
		    !cfg_copy_trimmed(item, sizeof(item), p, len) ||
		    cfg_parse_uint(item, k->min, k->max, &pc->lcores[n]) < 0)
			return cfg_bad_value(c, k->name, value,
					     "a comma-separated list of 1..%zu "
					     "lcore ids (%u..%u)",
					     ARRAY_SIZE(pc->lcores), k->min,
					     k->max);
		n++;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	pc->n_lcores = n;
	return 0;
}

/* One "aa:bb:cc:dd:ee:ff" of exactly 17 characters, unicast. */
bool cfg_parse_mac(const char *s, size_t len, uint8_t mac[6])
{
	return vsw_config_parse_mac(s, len, mac) && !(mac[0] & 1);
}

/*
 * "any" or "" (no words), or up to k->max (and @cap) words separated by
 * spaces, word i taken by @one into @list; a word @one refuses is a
 * message expecting "any" or @what.  The count goes to *@n.
 */
static int kind_words(const struct pctx *c, const struct vsw_key *k,
		      const char *value, unsigned int cap,
		      bool (*one)(const char *s, size_t len, void *list,
				  unsigned int i),
		      void *list, unsigned int *n, const char *what)
{
	const char *p = value;
	unsigned int i = 0;

	if (strcmp(value, "any") == 0) {
		*n = 0;
		return 0;
	}
	for (;;) {
		size_t len;

		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		len = strcspn(p, " ");
		if (i == k->max || i == cap || !one(p, len, list, i))
			return cfg_bad_value(
				c, k->name, value,
				"\"any\" or %u..%u %s separated by "
				"spaces",
				k->min, k->max, what);
		i++;
		p += len;
	}
	*n = i;
	return 0;
}

/* One VLAN id min..max of @s[0..len) (blanks around it allowed). */
static bool parse_vlan_id(const struct vsw_key *k, const char *s, size_t len,
			  unsigned int *v)
{
	char item[8];

	return cfg_copy_trimmed(item, sizeof(item), s, len) &&
	       cfg_parse_uint(item, k->min, k->max, v) == 0;
}

static int bad_vlans(const struct pctx *c, const struct vsw_key *k,
		     const char *value)
{
	return cfg_bad_value(c, k->name, value,
			     "\"all\", or VLAN ids %u..%u and ranges LOW-HIGH "
			     "separated by commas (e.g. 10,20-30)",
			     k->min, k->max);
}

/*
 * trunks: "all" or "" (every VLAN), or VLAN ids and ranges "10,20-30"
 * separated by commas or spaces, into vsw_port_conf's trunks bitmap.
 */
static int kind_vlans(const struct pctx *c, const struct vsw_key *k,
		      const char *value, void *field)
{
	struct vsw_port_conf *pc =
		(void *)((char *)field -
			 offsetof(struct vsw_port_conf, trunks));
	uint64_t set[VSW_VLAN_WORDS] = {0};
	const char *p = value;
	unsigned int n = 0;
	char all[4];

	if (cfg_copy_trimmed(all, sizeof(all), value, strlen(value)) &&
	    (all[0] == '\0' || strcmp(all, "all") == 0)) {
		pc->trunks_set = false;
		memset(pc->trunks, 0, sizeof(pc->trunks));
		return 0;
	}
	while (*p != '\0') {
		size_t len = strcspn(p, ", ");
		const char *dash = memchr(p, '-', len);
		unsigned int lo = 0, hi = 0;
		bool ok;

		if (len == 0) {
			p++;
			continue;
		}
		if (dash == NULL) {
			ok = parse_vlan_id(k, p, len, &lo);
			hi = lo;
		} else {
			size_t l1 = (size_t)(dash - p);

			ok = parse_vlan_id(k, p, l1, &lo) &&
			     parse_vlan_id(k, dash + 1, len - l1 - 1, &hi) &&
			     lo <= hi;
		}
		if (!ok)
			return bad_vlans(c, k, value);
		for (unsigned int v = lo; v <= hi; v++)
			set[v / 64] |= 1ull << (v % 64);
		n++;
		p += len;
	}
	if (n == 0) /* only separators */
		return bad_vlans(c, k, value);
	pc->trunks_set = true;
	memcpy(pc->trunks, set, sizeof(set));
	return 0;
}

static bool one_mac(const char *s, size_t len, void *list, unsigned int i)
{
	return cfg_parse_mac(s, len, ((uint8_t(*)[6])list)[i]);
}

/* "any" or "", or up to max unicast MACs separated by spaces. */
static int kind_macs(const struct pctx *c, const struct vsw_key *k,
		     const char *value, void *field)
{
	struct vsw_port_conf *pc =
		(void *)((char *)field -
			 offsetof(struct vsw_port_conf, allowed));

	return kind_words(c, k, value, ARRAY_SIZE(pc->allowed), one_mac,
			  pc->allowed, &pc->n_allowed,
			  "unicast MACs aa:bb:cc:dd:ee:ff");
}

/*
 * One "ADDR" or "ADDR/LEN" (IPv4 or IPv6) of @len characters into @ip;
 * host bits of a prefix are cleared.
 */
static bool parse_ip(const char *s, size_t len, struct vsw_ip_prefix *ip)
{
	char buf[INET6_ADDRSTRLEN + 8];
	const char *slash;
	unsigned int max, plen;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	slash = strchr(buf, '/');
	if (slash != NULL)
		buf[slash - buf] = '\0';
	memset(ip, 0, sizeof(*ip));
	if (inet_pton(AF_INET, buf, ip->addr) == 1)
		ip->family = 4, max = 32;
	else if (inet_pton(AF_INET6, buf, ip->addr) == 1)
		ip->family = 6, max = 128;
	else
		return false;
	plen = max;
	if (slash != NULL && (slash[1] == '\0' || strlen(slash + 1) > 3 ||
			      cfg_parse_uint(slash + 1, 0, max, &plen) < 0))
		return false;
	ip->plen = (uint8_t)plen;
	for (unsigned int b = plen; b < max; b++)
		ip->addr[b / 8] &= (uint8_t) ~(0x80u >> (b % 8));
	return true;
}

int vsw_config_listen_parse(const char *s, struct vsw_listen *out)
{
	char buf[VSW_LISTEN_MAX];
	const char *colon = strrchr(s, ':'), *a = s;
	size_t alen = colon != NULL ? (size_t)(colon - s) : 0;
	unsigned int port;

	memset(out, 0, sizeof(*out));
	if (colon == NULL || alen == 0 || alen >= sizeof(buf) ||
	    colon[1] == '\0' || strlen(colon + 1) > 5 ||
	    cfg_parse_uint(colon + 1, 1, 65535, &port) < 0)
		return -EINVAL;
	if (s[0] == '[') { /* [IPV6] */
		if (alen < 3 || s[alen - 1] != ']')
			return -EINVAL;
		a++;
		alen -= 2;
	}
	memcpy(buf, a, alen);
	buf[alen] = '\0';
	if (s[0] != '[' && inet_pton(AF_INET, buf, out->addr) == 1)
		out->family = 4;
	else if (s[0] == '[' && inet_pton(AF_INET6, buf, out->addr) == 1)
		out->family = 6;
	else
		return -EINVAL;
	out->port = (uint16_t)port;
	return 0;
}

static bool one_ip(const char *s, size_t len, void *list, unsigned int i)
{
	return parse_ip(s, len, &((struct vsw_ip_prefix *)list)[i]);
}

/* "any" or "", or up to max addresses or prefixes separated by spaces. */
static int kind_ips(const struct pctx *c, const struct vsw_key *k,
		    const char *value, void *field)
{
	struct vsw_port_conf *pc =
		(void *)((char *)field - offsetof(struct vsw_port_conf, ips));

	return kind_words(c, k, value, ARRAY_SIZE(pc->ips), one_ip, pc->ips,
			  &pc->n_ips,
			  "IPv4 or IPv6 addresses or prefixes (ADDR/LEN)");
}

typedef int kind_fn(const struct pctx *c, const struct vsw_key *k,
		    const char *value, void *field);

static kind_fn *const kind_parse[] = {
	[VSW_KIND_UINT] = kind_uint,   [VSW_KIND_CHOICE] = kind_choice,
	[VSW_KIND_PATH] = kind_path,   [VSW_KIND_STRING] = kind_string,
	[VSW_KIND_OCTAL] = kind_octal, [VSW_KIND_LCORES] = kind_lcores,
	[VSW_KIND_MACS] = kind_macs,   [VSW_KIND_VLANS] = kind_vlans,
	[VSW_KIND_IPS] = kind_ips,
};

/* Parse @value of key @k into its field of @conf (switch or port conf). */
int cfg_parse_key(const struct pctx *c, const struct vsw_key *k,
		  const char *value, void *conf)
{
	if (k->deprecated)
		warn_deprecated(c, k);
	return kind_parse[k->kind](c, k, value, (char *)conf + k->off);
}

/* Every key of @sect with a default gets it, as if the file said it. */
void cfg_set_defaults(enum vsw_key_sect sect, void *conf)
{
	struct pctx c = {"<default>", "", NULL, 0};

	for (size_t i = 0; i < vsw_n_keys; i++)
		if (vsw_keys[i].sect == sect && vsw_keys[i].dflt != NULL)
			cfg_parse_key(&c, &vsw_keys[i], vsw_keys[i].dflt, conf);
}

/* The name a key given in @sect stands for (rxq: queues). */
const char *cfg_canon_key(enum vsw_key_sect sect, const char *key)
{
	const struct vsw_key *k = vsw_key_find(sect, key, strlen(key));

	return k != NULL ? vsw_key_canon(k) : key;
}

int cfg_check_dup_keys(const struct pctx *c, enum vsw_key_sect sect,
		       const struct rte_cfgfile_entry *e, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		for (j = 0; j < i; j++) {
			if (strcmp(cfg_canon_key(sect, e[i].name),
				   cfg_canon_key(sect, e[j].name)))
				continue;
			if (strcmp(e[i].name, e[j].name) == 0)
				return cfg_bad_value(
					c, e[i].name, e[i].value,
					"%s only once in a section", e[i].name);
			return cfg_bad_value(c, e[i].name, e[i].value,
					     "only one of %s and %s", e[j].name,
					     e[i].name);
		}
	}
	return 0;
}
