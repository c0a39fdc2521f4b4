/*
 * Mutating verbs: port-add, port-del, port-set, rxq-move, rxq-rebalance,
 * set, fdb-flush, fdb-add, fdb-del, stats-clear (docs/cli.md). Arguments
 * are checked here where the client can (names, integers, MACs); the rest
 * is up to vsw, whose {"error": ...} replies exit 1.
 */
#define _GNU_SOURCE /* asprintf */
#include "vswctl.h"
#include "config/vsw_keys.h" /* the config keys, as vsw knows them */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD_MAX 1023 /* DPDK telemetry reads requests into 1 KiB */
#define LIST_MAX 512 /* a list of key names */
#define VLAN_MAX 4095

/* Send cmd; print msg (or --json the reply data). */
static int mutate(struct ctl *ctl, const char *cmd, const char *msg)
{
	json_t *reply, *data;
	int rc;

	if (strlen(cmd) > CMD_MAX)
		return usage_error("command too long (%zu bytes, at most %d)",
				   strlen(cmd), CMD_MAX);
	rc = ctl_query(ctl, cmd, &reply, &data);
	if (rc)
		return rc;
	if (ctl->json)
		return print_json(reply, data);
	if (msg != NULL)
		puts(msg);
	json_decref(reply);
	return EXIT_OK;
}

/* Like mutate; prints "<verb> N <one|many>" with N the reply's key. */
static int mutate_count(struct ctl *ctl, const char *cmd, const char *key,
			const char *const words[3])
{
	json_t *reply, *data;
	uint64_t n = 0;
	int rc = ctl_query(ctl, cmd, &reply, &data);

	if (rc)
		return rc;
	if (ctl->json)
		return print_json(reply, data);
	if (val_u64(json_object_get(data, key), &n) < 0)
		rc = error("bad reply to '%s': no %s", cmd, key);
	else
		printf("%s %" PRIu64 " %s\n", words[0], n,
		       words[n == 1 ? 1 : 2]);
	json_decref(reply);
	return rc;
}

static int check_port(const char *name)
{
	if (port_name_ok(name))
		return 0;
	return usage_error("bad port name '%s' (letters, digits and '_', at "
			   "most %d)",
			   name, PORT_NAME_MAX);
}

/* ---- port-add / port-del --------------------------------------------- */

/* The port key (config/keys.c) of a KEY=VALUE word, or NULL. */
static const struct vsw_key *port_key_of(const char *word)
{
	const char *eq = strchr(word, '=');

	return eq ? vsw_key_find(VSW_SECT_PORT, word, (size_t)(eq - word))
		  : NULL;
}

/* KEY=VALUE of a port key other than devargs (the one that takes the
 * rest of the list). */
static int is_port_key(const char *word)
{
	const struct vsw_key *k = port_key_of(word);

	return k != NULL && !k->rest;
}

/* One line on stderr when the key of @word is an old name (workers). */
static void warn_deprecated(const char *word)
{
	const struct vsw_key *k = port_key_of(word);

	if (k != NULL && k->deprecated)
		fprintf(stderr,
			"vswctl: warning: %s is deprecated; write %s (the "
			"same value)\n",
			k->name, vsw_key_canon(k));
}

/* The length of "devargs=" when @w starts with it, else 0. */
static size_t rest_key(const char *w)
{
	const struct vsw_key *k = port_key_of(w);

	return k != NULL && k->rest ? strlen(k->name) + 1 : 0;
}

/* A list key's value may hold commas: trunks=10,20-30 (never an '='). */
static int commas_ok(const struct vsw_key *k, const char *w)
{
	return (k->kind == VSW_KIND_VLANS || k->kind == VSW_KIND_LCORES) &&
	       strchr(strchr(w, '=') + 1, '=') == NULL;
}

/* allowed-macs=, allowed-ips=: words, which may follow on their own. */
static int is_macs_key(const char *w)
{
	const struct vsw_key *k = port_key_of(w);

	return k != NULL &&
	       (k->kind == VSW_KIND_MACS || k->kind == VSW_KIND_IPS);
}

static void append(char **s, const char *sep, const char *word)
{
	size_t a = strlen(*s), b = strlen(sep), c = strlen(word);
	char *n = xrealloc(*s, a + b + c + 1);

	memcpy(n + a, sep, b);
	memcpy(n + a + b, word, c + 1);
	*s = n;
}

/*
 * After allowed-macs=MAC (allowed-ips=IP), a word without '=' or ',' is
 * one more MAC (IP) of it: append it to *cmd (which ends with that key) after a space.
 */
static int more_macs(int in_macs, const char *w, char **cmd)
{
	size_t n = strlen(*cmd);

	if (!in_macs || strchr(w, '=') != NULL || strchr(w, ',') != NULL)
		return 0;
	append(cmd, n > 0 && (*cmd)[n - 1] == '=' ? "" : " ", w);
	return 1;
}

/*
 * argv: KEY=VALUE words. devargs=... and the words after it that are not
 * port keys form the devargs value (joined by ','), sent last. The MACs
 * of allowed-macs are one quoted word or the words that follow it.
 */
static int port_add_cmd(int argc, char **argv, char **cmd)
{
	char *dev = NULL, list[LIST_MAX];
	size_t dlen = 0;
	int type = 0, in_macs = 0;

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];

		if (dev == NULL && (dlen = rest_key(w)) > 0) {
			dev = xstrdup(w);
			in_macs = 0;
		} else if (more_macs(in_macs, w, cmd)) {
			continue;
		} else if (dev != NULL && !is_port_key(w)) {
			append(&dev, dev[dlen] && w[0] ? "," : "", w);
			in_macs = 0;
		} else if (!is_port_key(w) || (strchr(w, ',') != NULL &&
					       !commas_ok(port_key_of(w), w))) {
			free(dev);
			return usage_error("'port-add': bad argument '%s' "
					   "(KEY=VALUE, KEY one of %s)",
					   w,
					   vsw_keys_list(list, sizeof(list),
							 VSW_SECT_PORT,
							 VSW_KEY_ANY, -1));
		} else {
			type |= strncmp(w, "type=", 5) == 0;
			in_macs = is_macs_key(w);
			warn_deprecated(w);
			append(cmd, ",", w);
		}
	}
	if (dev != NULL)
		append(cmd, ",", dev);
	free(dev);
	if (!type)
		return usage_error("'port-add' expects type=vhost-user or "
				   "type=ethdev");
	return 0;
}

int verb_port_add(struct ctl *ctl, int argc, char **argv)
{
	char *cmd, *msg;
	int rc = check_port(argv[0]);

	if (rc)
		return rc;
	cmd = xasprintf("/vsw/port/add,%s", argv[0]);
	rc = port_add_cmd(argc - 1, argv + 1, &cmd);
	msg = xasprintf("port %s added", argv[0]);
	if (rc == 0)
		rc = mutate(ctl, cmd, msg);
	free(msg);
	free(cmd);
	return rc;
}

int verb_port_del(struct ctl *ctl, int argc, char **argv)
{
	char cmd[64], msg[64];
	int rc = check_port(argv[0]);

	(void)argc;
	if (rc)
		return rc;
	snprintf(cmd, sizeof(cmd), "/vsw/port/del,%s", argv[0]);
	snprintf(msg, sizeof(msg), "port %s removed", argv[0]);
	return mutate(ctl, cmd, msg);
}

/* ---- port-set -------------------------------------------------------- */

/*
 * A KEY=VALUE word: KEY a port key, no ',' anywhere (it separates them)
 * but in the value of a list key (trunks=10,20-30).
 */
static int kv_word_ok(const char *w)
{
	const struct vsw_key *k = port_key_of(w);

	return k != NULL && (strchr(w, ',') == NULL || commas_ok(k, w));
}

/* Append "KEY = VALUE" of the word w to *msg, after ", " if not first. */
static void msg_kv(char **msg, const char *w)
{
	const char *eq = strchr(w, '=');
	char *n = xasprintf("%s%s%.*s = %s", *msg, **msg ? ", " : "",
			    (int)(eq - w), w, eq + 1);

	free(*msg);
	*msg = n;
}

/*
 * argv: KEY=VALUE words, sent as ",KEY=VALUE" each. allowed-macs takes
 * MACs separated by spaces: quoted as one word, or as the words after
 * allowed-macs= that hold no '=' (joined by spaces). *msg gets
 * "KEY = VALUE, ..." for the success line.
 */
static int port_set_cmd(int argc, char **argv, char **cmd, char **msg)
{
	char list[LIST_MAX];
	int in_macs = 0;

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		size_t n = strlen(*msg);

		if (more_macs(in_macs, w, cmd)) {
			append(msg, n > 0 && (*msg)[n - 1] == ' ' ? "" : " ",
			       w);
			continue;
		}
		if (!kv_word_ok(w) || !port_key_of(w)->runtime)
			return usage_error(
				"'port-set': bad argument '%s' (KEY=VALUE, KEY "
				"one of %s; no ',' but in a list)",
				w,
				vsw_keys_list(list, sizeof(list), VSW_SECT_PORT,
					      VSW_KEY_ANY, 1));
		in_macs = is_macs_key(w);
		append(cmd, ",", w);
		msg_kv(msg, w);
	}
	return 0;
}

int verb_port_set(struct ctl *ctl, int argc, char **argv)
{
	char *cmd, *msg = xstrdup(""), *line;
	int rc = check_port(argv[0]);

	if (rc) {
		free(msg);
		return rc;
	}
	cmd = xasprintf("/vsw/port/set,%s", argv[0]);
	rc = port_set_cmd(argc - 1, argv + 1, &cmd, &msg);
	line = xasprintf("port %s: %s", argv[0], msg);
	if (rc == 0)
		rc = mutate(ctl, cmd, line);
	free(line);
	free(msg);
	free(cmd);
	return rc;
}

/* ---- rx queues ------------------------------------------------------- */

int verb_rxq_move(struct ctl *ctl, int argc, char **argv)
{
	char cmd[96], msg[128];
	long q, w;
	int rc = check_port(argv[0]);

	(void)argc;
	if (rc)
		return rc;
	if (parse_int(argv[1], 0, 65535, &q) < 0)
		return usage_error("'rxq-move': QUEUE must be an integer "
				   "0..65535, got '%s'",
				   argv[1]);
	if (parse_int(argv[2], 0, 65535, &w) < 0)
		return usage_error("'rxq-move': WORKER must be an integer "
				   "0..65535, got '%s'",
				   argv[2]);
	snprintf(cmd, sizeof(cmd), "/vsw/rxq/move,%s,%ld,%ld", argv[0], q, w);
	snprintf(msg, sizeof(msg), "%s rx queue %ld moved to worker %ld",
		 argv[0], q, w);
	return mutate(ctl, cmd, msg);
}

int verb_rxq_rebalance(struct ctl *ctl, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	static const char *const words[3] = {"moved", "rx queue", "rx queues"};

	return mutate_count(ctl, "/vsw/rxq/rebalance", "moved", words);
}

/* ---- set ------------------------------------------------------------- */

int verb_set(struct ctl *ctl, int argc, char **argv)
{
	char *cmd, *msg;
	int rc;

	const struct vsw_key *k =
		vsw_key_find(VSW_SECT_SWITCH, argv[0], strlen(argv[0]));
	char list[LIST_MAX];

	(void)argc;
	vsw_keys_list(list, sizeof(list), VSW_SECT_SWITCH, 0, 1);
	if (k == NULL)
		return usage_error("'set': bad KEY '%s' (one of %s)", argv[0],
				   list);
	if (!k->runtime)
		return usage_error("'set': %s is fixed at start-up (set it in "
				   "the config file); KEY one of %s",
				   argv[0], list);
	if (argv[1][0] == '\0' || strchr(argv[1], ',') != NULL)
		return usage_error("'set': bad VALUE '%s' (empty or with ',')",
				   argv[1]);
	cmd = xasprintf("/vsw/set,%s,%s", argv[0], argv[1]);
	msg = xasprintf("%s = %s", argv[0], argv[1]);
	rc = mutate(ctl, cmd, msg);
	free(msg);
	free(cmd);
	return rc;
}

/* ---- fdb ------------------------------------------------------------- */

int verb_fdb_flush(struct ctl *ctl, int argc, char **argv)
{
	static const char *const words[3] = {"flushed", "entry", "entries"};
	char cmd[64];
	int rc;

	if (argc == 0)
		return mutate_count(ctl, "/vsw/fdb/flush", "flushed", words);
	if ((rc = check_port(argv[0])) != 0)
		return rc;
	snprintf(cmd, sizeof(cmd), "/vsw/fdb/flush,%s", argv[0]);
	return mutate_count(ctl, cmd, "flushed", words);
}

static int mac_ok(const char *s)
{
	if (strlen(s) != 17)
		return 0;
	for (int i = 0; i < 17; i++) {
		int colon = i % 3 == 2;

		if (colon ? s[i] != ':'
			  : strchr("0123456789abcdefABCDEF", s[i]) == NULL)
			return 0;
	}
	return 1;
}

/* "vlan=N" or "N", 0..4095; -1 on a usage error (reported). */
static long vlan_arg(const char *verb, const char *s)
{
	const char *v = strncmp(s, "vlan=", 5) == 0 ? s + 5 : s;
	long n;

	if (parse_int(v, 0, VLAN_MAX, &n) == 0)
		return n;
	usage_error("'%s': expected vlan=N with N in 0..%d, got '%s'", verb,
		    VLAN_MAX, s);
	return -1;
}

int verb_fdb_add(struct ctl *ctl, int argc, char **argv)
{
	char cmd[96], msg[96], vl[24] = "";
	long vlan = 0;
	int rc;

	if (!mac_ok(argv[0]))
		return usage_error("'fdb-add': bad MAC '%s' "
				   "(xx:xx:xx:xx:xx:xx)",
				   argv[0]);
	if ((rc = check_port(argv[1])) != 0)
		return rc;
	if (argc == 3 && (vlan = vlan_arg("fdb-add", argv[2])) < 0)
		return EXIT_USAGE;
	if (argc == 3)
		snprintf(vl, sizeof(vl), ",%ld", vlan);
	snprintf(cmd, sizeof(cmd), "/vsw/fdb/add,%s,%s%s", argv[0], argv[1],
		 vl);
	snprintf(msg, sizeof(msg), "%s vlan %ld -> %s added (static)", argv[0],
		 vlan, argv[1]);
	return mutate(ctl, cmd, msg);
}

int verb_fdb_del(struct ctl *ctl, int argc, char **argv)
{
	char cmd[96], msg[96], vl[24] = "";
	long vlan = 0;

	if (!mac_ok(argv[0]))
		return usage_error("'fdb-del': bad MAC '%s' "
				   "(xx:xx:xx:xx:xx:xx)",
				   argv[0]);
	if (argc == 2 && (vlan = vlan_arg("fdb-del", argv[1])) < 0)
		return EXIT_USAGE;
	if (argc == 2)
		snprintf(vl, sizeof(vl), ",%ld", vlan);
	snprintf(cmd, sizeof(cmd), "/vsw/fdb/del,%s%s", argv[0], vl);
	snprintf(msg, sizeof(msg), "%s vlan %ld removed", argv[0], vlan);
	return mutate(ctl, cmd, msg);
}

int verb_stats_clear(struct ctl *ctl, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return mutate(ctl, "/vsw/stats/clear", "counters cleared");
}
