/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for the parameters of every /vsw telemetry command
 * (switch/api/ctl_args.c) and for the config functions they reach.
 *
 * The first byte picks the command, modulo vsw_args_n_cmds, so commands
 * added to vsw_args_cmds[] later are fuzzed without a change here; the
 * rest of the input up to a NUL is the parameter string (a one-byte input
 * passes NULL, as the telemetry library does for a bare command).  The
 * KEY=VALUE list of port/add and port/set then goes to
 * vsw_config_port_from_kv and vsw_config_validate, and the KEY,VALUE of
 * set to vsw_config_set_switch_key, as the control thread does.  Checks:
 * errors are one printable line starting with the command; what a parser
 * accepts passed the hygiene check and its fields agree with the text; a
 * refused set leaves the [switch] settings alone.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <strings.h>

#include "api/ctl_args.h"
#include "datapath/fdb.h"
#include "fuzz.h"
#include "config/vsw_config.h"

static char err[VSW_ERR_MAX];

static bool lcore_ok(unsigned int lcore, void *arg)
{
	(void)arg;
	return lcore > 0 && lcore < 4;
}

/* A port as port/add would create it: sane fields, validated config. */
static void check_port(const struct vsw_args *a, const struct vsw_port_conf *pc)
{
	struct vsw_config one;
	int rc;

	FUZZ_CHECK(strcmp(pc->name, a->name) == 0);
	FUZZ_CHECK(pc->queues >= 1 && pc->queues <= VSW_MAX_QUEUES);
	FUZZ_CHECK(pc->txq <= VSW_MAX_QUEUES);
	FUZZ_CHECK(pc->n_lcores <= VSW_MAX_QUEUES);
	if (pc->type == VSW_PORT_VHOST)
		FUZZ_CHECK(pc->path[0] == '/' && strlen(pc->path) < 108);
	else
		FUZZ_CHECK(pc->type == VSW_PORT_ETHDEV &&
			   pc->devargs[0] != '\0' && pc->path[0] == '\0');
	vsw_config_init(&one);
	one.ports[0] = *pc;
	one.n_ports = 1;
	rc = vsw_config_validate(&one, lcore_ok, NULL, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -EINVAL);
	if (rc < 0)
		FUZZ_CHECK_MSG(err, sizeof(err));
}

static void port_kv(const struct vsw_args *a)
{
	struct vsw_switch_conf sw;
	struct vsw_config cfg;
	struct vsw_port_conf pc;
	int rc;

	vsw_config_init(&cfg);
	sw = cfg.sw;
	rc = vsw_config_port_from_kv(a->name, a->rest, &sw, &pc, err,
				     sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -EINVAL);
	if (rc < 0)
		FUZZ_CHECK_MSG(err, sizeof(err));
	else
		check_port(a, &pc);
}

/* port/set: only runtime keys change, and only on success */
static void port_set(const struct vsw_args *a)
{
	struct vsw_config cfg;
	struct vsw_port_conf pc, before;
	int rc;

	vsw_config_default(&cfg, NULL);
	pc = before = cfg.ports[0];
	rc = vsw_config_port_set_kv(&pc, a->rest, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -EPERM);
	if (rc < 0) {
		FUZZ_CHECK_MSG(err, sizeof(err));
		FUZZ_CHECK(memcmp(&before, &pc, sizeof(pc)) == 0);
		return;
	}
	FUZZ_CHECK(pc.mtu >= VSW_MTU_MIN && pc.mtu <= VSW_MTU_MAX);
	FUZZ_CHECK(pc.n_allowed <= VSW_MAX_ALLOWED_MACS);
	FUZZ_CHECK(pc.queues == before.queues && pc.type == before.type);
	FUZZ_CHECK(strcmp(pc.path, before.path) == 0);
}

static void switch_set(const struct vsw_args *a)
{
	struct vsw_switch_conf before, again;
	struct vsw_config cfg;
	int rc;

	vsw_config_init(&cfg);
	before = cfg.sw;
	rc = vsw_config_set_switch_key(&cfg.sw, a->key, a->value, err,
				       sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -EPERM);
	FUZZ_CHECK((rc == -EPERM) == vsw_config_switch_key_fixed(a->key));
	if (rc < 0) {
		FUZZ_CHECK_MSG(err, sizeof(err));
		FUZZ_CHECK(memcmp(&before, &cfg.sw, sizeof(before)) == 0);
		return;
	}
	again = cfg.sw; /* setting it twice changes nothing more */
	FUZZ_CHECK(vsw_config_set_switch_key(&again, a->key, a->value, err,
					     sizeof(err)) == 0);
	FUZZ_CHECK(memcmp(&again, &cfg.sw, sizeof(again)) == 0);
}

/* Does @s contain @word, ignoring case? */
static bool has_word(const char *s, const char *word)
{
	for (; *s != '\0'; s++)
		if (strncasecmp(s, word, strlen(word)) == 0)
			return true;
	return false;
}

/* The FDB key's MAC, as aa:bb:cc:dd:ee:ff, is in the parameters. */
static void check_fdb_key(const char *params, uint64_t key)
{
	char text[18];
	uint8_t mac[6];

	vsw_fdb_key_mac(key, mac);
	snprintf(text, sizeof(text), "%02x:%02x:%02x:%02x:%02x:%02x", mac[0],
		 mac[1], mac[2], mac[3], mac[4], mac[5]);
	FUZZ_CHECK(key & VSW_FDB_KEY_VALID);
	FUZZ_CHECK(!(mac[0] & 1));
	FUZZ_CHECK(has_word(params, text));
}

static void check_accepted(const char *params, const struct vsw_args *a)
{
	size_t len = params != NULL ? strlen(params) : 0;

	FUZZ_CHECK(vsw_args_check(params, err, sizeof(err)) == 0);
	FUZZ_CHECK(len <= VSW_ARGS_MAX);
	if (a->has_name)
		FUZZ_CHECK(vsw_config_port_name_ok(a->name) &&
			   strstr(params, a->name) != NULL);
	if (a->rest != NULL)
		FUZZ_CHECK(a->rest > params && a->rest <= params + len);
	if (a->fdb_key != 0)
		check_fdb_key(params, a->fdb_key);
	FUZZ_CHECK(a->n[0] <= 1ul << 31 && a->n[1] <= 1ul << 31);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct vsw_args_cmd *c;
	struct vsw_args a, b;
	char *params;
	int rc;

	if (size == 0)
		return 0;
	c = &vsw_args_cmds[data[0] % vsw_args_n_cmds];
	params = size > 1 ? fuzz_strndup(data + 1, size - 1) : NULL;
	rc = vsw_args_parse(c, params, &a, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -EINVAL);
	FUZZ_CHECK(vsw_args_parse(c, params, &b, err, sizeof(err)) == rc);
	if (rc < 0) {
		FUZZ_CHECK_MSG(err, sizeof(err));
		FUZZ_CHECK(strncmp(err, c->name, strlen(c->name)) == 0);
	} else {
		FUZZ_CHECK(memcmp(&a, &b, sizeof(a)) == 0);
		check_accepted(params, &a);
		if (c->parse == vsw_args_name_kv &&
		    strcmp(c->name, "/vsw/port/set") == 0)
			port_set(&a);
		else if (c->parse == vsw_args_name_kv)
			port_kv(&a);
		if (c->parse == vsw_args_set)
			switch_set(&a);
	}
	free(params);
	return 0;
}
