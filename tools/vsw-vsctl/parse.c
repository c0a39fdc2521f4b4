/*
 * vsw-vsctl command line, parsed as ovs-vsctl parses it (utilities/
 * ovs-vsctl.c parse_options, lib/db-ctl-base.c ctl_parse_commands):
 * global options up to the first argument that is not one ("--" ends
 * them), then commands separated by "--", each with its own options
 * ("--may-exist add-port ...").  A command option given before the first
 * command belongs to it.  Errors carry ovs-vsctl's wording, since scripts
 * (os-vif) match on it; what vsw-vsctl does not take says "unsupported".
 */
#include "vsctl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct vs_syntax syntaxes[] = {
	{"add-br", 1, 3, "--may-exist", true},
	{"del-br", 1, 1, "--if-exists", true},
	{"list-br", 0, 0, "--real,--fake", false},
	{"br-exists", 1, 1, "", false},
	{"list-ports", 1, 1, "", false},
	{"list-ifaces", 1, 1, "", false},
	{"add-port", 2, INT_MAX, "--may-exist", true},
	{"del-port", 1, 2, "--if-exists,--with-iface", true},
	{"port-to-br", 1, 1, "", false},
	{"iface-to-br", 1, 1, "", false},
	{"comment", 0, INT_MAX, "", false},
	{"get", 2, INT_MAX, "--if-exists", false},
	{"list", 1, INT_MAX, "--if-exists,--columns=", false},
	{"find", 1, INT_MAX, "--columns=", false},
	{"set", 3, INT_MAX, "--if-exists", true},
	{NULL, 0, 0, NULL, false},
};

/* Command options anywhere before a command name (ovs-vsctl's OPT_LOCAL). */
static const char *const local_opts[] = {"--may-exist",	 "--if-exists",
					 "--with-iface", "--columns",
					 "--real",	 "--fake"};

const struct vs_syntax *vs_find_syntax(const char *name)
{
	for (const struct vs_syntax *s = syntaxes; s->name; s++)
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

static int fail(char *err, size_t len, const char *fmt, const char *a,
		const char *b)
{
	snprintf(err, len, fmt, a, b);
	return -1;
}

/* "--name=V" or "--name V" (or "-x V", "-xV"): the value, else NULL. */
static const char *opt_val(int argc, char **argv, int *i, const char *lng,
			   const char *shrt, bool *bad)
{
	const char *a = argv[*i];
	size_t n = strlen(lng);

	if (strncmp(a, lng, n) == 0 && a[n] == '=')
		return a + n + 1;
	if (strcmp(a, lng) != 0 && (shrt == NULL || strncmp(a, shrt, 2) != 0))
		return NULL;
	if (shrt != NULL && strncmp(a, shrt, 2) == 0 && a[2] != '\0')
		return a + 2;
	if (*i + 1 >= argc) {
		*bad = true;
		return NULL;
	}
	return argv[++*i];
}

static int set_format(struct vs_opts *o, const char *v, char *err, size_t len)
{
	if (strcmp(v, "list") == 0)
		o->format = VS_FMT_LIST;
	else if (strcmp(v, "table") == 0)
		o->format = VS_FMT_TABLE;
	else if (strcmp(v, "json") == 0)
		o->format = VS_FMT_JSON;
	else if (strcmp(v, "html") == 0 || strcmp(v, "csv") == 0)
		return fail(err, len, "unsupported: --format=%s%s", v,
			    " (vsw-vsctl prints list, table, json)");
	else
		return fail(err, len, "unknown output format \"%s\"%s", v, "");
	return 0;
}

static int set_data(struct vs_opts *o, const char *v, char *err, size_t len)
{
	static const char *const f[] = {"string", "bare", "json"};

	for (int i = 0; i < 3; i++)
		if (strcmp(v, f[i]) == 0) {
			o->cell = (enum vs_cell)i;
			return 0;
		}
	return fail(err, len, "unknown data format \"%s\"%s", v, "");
}

static int set_timeout(struct vs_opts *o, const char *v, char *err, size_t len)
{
	char *end;
	unsigned long t = strtoul(v, &end, 10);

	if (v[0] < '0' || v[0] > '9' || *end != '\0' || t == 0 || t > UINT_MAX)
		return fail(err, len, "value %s on -t or --timeout is invalid",
			    v, "");
	o->timeout = (unsigned int)t;
	return 0;
}

/* Options that take no value and change nothing here. */
static bool ignored_flag(const char *a)
{
	static const char *const f[] = {"--no-wait",	 "--no-syslog",
					"--retry",	 "--pretty",
					"--leader-only", "--no-leader-only"};

	for (size_t i = 0; i < sizeof(f) / sizeof(*f); i++)
		if (strcmp(a, f[i]) == 0)
			return true;
	return strncmp(a, "-v", 2) == 0 || strncmp(a, "--verbose", 9) == 0;
}

/* One global option at argv[*i]: 1 taken, 0 not one, -1 error. */
static int global_opt(int argc, char **argv, int *i, struct vs_opts *o,
		      char *err, size_t len)
{
	const char *a = argv[*i], *v;
	bool bad = false;

	if (strcmp(a, "--oneline") == 0)
		o->oneline = true;
	else if (strcmp(a, "--dry-run") == 0)
		o->dry_run = true;
	else if (strcmp(a, "--no-headings") == 0)
		o->headings = false;
	else if (strcmp(a, "--bare") == 0)
		o->format = VS_FMT_LIST, o->cell = VS_CELL_BARE,
		o->headings = false;
	else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
		o->help = true;
	else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0)
		o->version = true;
	else if (ignored_flag(a))
		;
	else if ((v = opt_val(argc, argv, i, "--db", NULL, &bad)))
		o->db = v;
	else if (!bad && (v = opt_val(argc, argv, i, "--timeout", "-t", &bad)))
		return set_timeout(o, v, err, len) < 0 ? -1 : 1;
	else if (!bad && (v = opt_val(argc, argv, i, "--format", "-f", &bad)))
		return set_format(o, v, err, len) < 0 ? -1 : 1;
	else if (!bad && (v = opt_val(argc, argv, i, "--data", "-d", &bad)))
		return set_data(o, v, err, len) < 0 ? -1 : 1;
	else if (!bad &&
		 (v = opt_val(argc, argv, i, "--max-column-width", NULL, &bad)))
		;
	else if (!bad &&
		 (v = opt_val(argc, argv, i, "--file-prefix", NULL, &bad)))
		o->prefix = v;
	else if (!bad && ((v = opt_val(argc, argv, i, "--socket", "-s", &bad))))
		o->sock = v;
	else if (bad)
		return fail(err, len, "option '%s' requires an argument", a,
			    "");
	else
		return 0;
	return 1;
}

static bool is_local_opt(const char *a)
{
	size_t n = strcspn(a, "=");

	for (size_t i = 0; i < sizeof(local_opts) / sizeof(*local_opts); i++)
		if (strlen(local_opts[i]) == n &&
		    strncmp(a, local_opts[i], n) == 0)
			return true;
	return false;
}

/* Option @opt ("--columns=mac") against the command's list. */
static int check_opt(const struct vs_syntax *s, const char *opt,
		     struct vs_cmd *c, char *err, size_t len)
{
	size_t n = strcspn(opt, "=");
	const char *p = s->options, *hit = NULL;
	char name[32];

	snprintf(name, sizeof(name), "%.*s", (int)n, opt);
	while ((p = strstr(p, name)) != NULL) {
		if (strchr("=,", p[n]) != NULL && p[n] != '\0') {
			hit = p;
			break;
		}
		if (p[n] == '\0') {
			hit = p;
			break;
		}
		p += n;
	}
	if (hit == NULL)
		return fail(err, len, "'%s' command has no '%s' option",
			    s->name, name);
	if ((hit[n] == '=') != (opt[n] == '='))
		return fail(err, len,
			    hit[n] == '=' ? "missing argument to '%s' option "
					    "on '%s' command"
					  : "'%s' option on '%s' does not "
					    "accept an argument",
			    name, s->name);
	if (strcmp(name, "--may-exist") == 0)
		c->may_exist = true;
	else if (strcmp(name, "--if-exists") == 0)
		c->if_exists = true;
	else if (strcmp(name, "--with-iface") == 0)
		c->with_iface = true;
	else if (strcmp(name, "--columns") == 0)
		c->columns = opt + n + 1;
	return 0;
}

/* The options before command @s's name: @pre (before the first
 * command), then argv[0..i); none twice. */
static int command_opts(const struct vs_syntax *s, char **pre, int npre,
			char **argv, int i, struct vs_cmd *c, char *err,
			size_t len)
{
	for (int j = 0; j < npre + i; j++) {
		const char *o = j < npre ? pre[j] : argv[j - npre];
		size_t on = strcspn(o, "=");

		for (int k = 0; k < j; k++) {
			const char *p = k < npre ? pre[k] : argv[k - npre];

			if (strcspn(p, "=") == on && strncmp(p, o, on) == 0)
				return fail(err, len,
					    "'%s' option specified multiple "
					    "times%s",
					    o, "");
		}
		if (check_opt(s, o, c, err, len) < 0)
			return -1;
	}
	return 0;
}

/* argv[0..n): [OPTIONS] NAME ARGS of one command. */
static int parse_one(char **argv, int n, char **pre, int npre, struct vs_cmd *c,
		     char *err, size_t len)
{
	const struct vs_syntax *s;
	int i = 0;
	char msg[64];

	while (i < n && argv[i][0] == '-')
		i++;
	if (i == n)
		return fail(err, len,
			    "missing command name (use --help for help)%s%s",
			    "", "");
	s = vs_find_syntax(argv[i]);
	if (s == NULL)
		return fail(err, len,
			    "unsupported: command '%s' (vsw-vsctl runs "
			    "add-br, del-br, list-br, br-exists, add-port, "
			    "del-port, list-ports, list-ifaces, port-to-br, "
			    "iface-to-br, set, get, list, find, comment; "
			    "docs/vsw-vsctl.md)%s",
			    argv[i], "");
	memset(c, 0, sizeof(*c));
	c->syn = s;
	if (command_opts(s, pre, npre, argv, i, c, err, len) < 0)
		return -1;
	c->argv = argv + i;
	c->argc = n - i;
	snprintf(msg, sizeof(msg), "%d",
		 c->argc - 1 < s->min_args ? s->min_args : s->max_args);
	if (c->argc - 1 < s->min_args)
		return fail(err, len,
			    "'%s' command requires at least %s arguments",
			    s->name, msg);
	if (c->argc - 1 > s->max_args)
		return fail(err, len, "'%s' command takes at most %s arguments",
			    s->name, msg);
	return 0;
}

/* Global options from argv[1]; local ones into @pre. The next index. */
static int global_opts(int argc, char **argv, struct vs_opts *o, char **pre,
		       int *npre, char *err, size_t len)
{
	int i = 1, rc;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--") == 0)
			return i + 1;
		if (is_local_opt(argv[i])) {
			pre[(*npre)++] = argv[i];
			continue;
		}
		rc = global_opt(argc, argv, &i, o, err, len);
		if (rc == 0)
			return fail(err, len, "unrecognized option '%s'",
				    argv[i], "");
		if (rc < 0)
			return -1;
	}
	return i;
}

int vs_parse(int argc, char **argv, struct vs_opts *o, struct vs_cmd **cmds,
	     int *n, char *err, size_t errlen)
{
	char **pre = calloc((size_t)argc + 1, sizeof(*pre));
	int npre = 0, start, rc = 0;
	int i = global_opts(argc, argv, o, pre, &npre, err, errlen);

	*cmds = calloc((size_t)argc + 1, sizeof(**cmds));
	*n = 0;
	if (i < 0 || o->help || o->version) {
		free(pre);
		return i < 0 ? -1 : 0;
	}
	for (start = i; rc == 0 && i <= argc; i++) {
		if (i < argc && strcmp(argv[i], "--") != 0)
			continue;
		if (i > start || npre > 0) {
			rc = parse_one(argv + start, i - start, pre, npre,
				       &(*cmds)[(*n)++], err, errlen);
			npre = 0;
		}
		start = i + 1;
	}
	if (rc == 0 && *n == 0)
		rc = fail(err, errlen,
			  "missing command name (use --help for help)%s%s", "",
			  "");
	free(pre);
	return rc;
}
