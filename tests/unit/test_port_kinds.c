/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The port kinds' descriptors (port/kinds.c) against the config parser:
 * each kind names the `type` string and enum value the parser uses, and
 * the [port] keys it lists are exactly those the parser accepts for that
 * type.  No EAL: nothing here creates a port.
 */
#include <stdbool.h>
#include <string.h>

#include "port/port_priv.h"
#include "config/vsw_config.h"
#include "vsw_test.h"

static bool listed(const char *const *keys, const char *key)
{
	for (; *keys != NULL; keys++)
		if (strcmp(*keys, key) == 0)
			return true;
	return false;
}

static void test_descriptors(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; vsw_port_kinds[i] != NULL; i++, n++) {
		const struct vsw_port_kind *k = vsw_port_kinds[i];

		CHECK(strcmp(k->name, vsw_port_type_str(k->type)) == 0);
		CHECK(k->size >= sizeof(struct vsw_port));
		CHECK(k->create != NULL);
		CHECK(k->keys != NULL && listed(k->keys, "type"));
		for (unsigned int j = 0; j < i; j++)
			CHECK(vsw_port_kinds[j]->type != k->type);
	}
	CHECK(n >= 2); /* vhost-user and ethdev at least */
}

/* Does the parser take @key in a port of kind @k?  A wrong value is fine
 * (its own message); a key of another type says "... port key (". */
static bool parser_accepts(const struct vsw_port_kind *k, const char *key)
{
	struct vsw_port_conf pc;
	char kv[128], err[VSW_ERR_MAX] = "";

	snprintf(kv, sizeof(kv), "type=%s,%s=@", k->name, key);
	vsw_config_port_from_kv("p", kv, NULL, &pc, err, sizeof(err));
	return strstr(err, "port key (") == NULL;
}

static void check_keys(const struct vsw_port_kind *k, const char *key)
{
	bool want = listed(k->keys, key);

	if (strcmp(key, "type") == 0)
		return; /* given already */
	if (parser_accepts(k, key) != want) {
		fprintf(stderr, "kind %s, key %s: listed %d, parser %d\n",
			k->name, key, want, !want);
		CHECK(false);
	}
}

static void test_keys_match_parser(void)
{
	for (unsigned int i = 0; vsw_port_kinds[i] != NULL; i++) {
		check_keys(vsw_port_kinds[i], "no-such-key");
		for (unsigned int j = 0; vsw_port_kinds[j] != NULL; j++)
			for (const char *const *key = vsw_port_kinds[j]->keys;
			     *key != NULL; key++)
				check_keys(vsw_port_kinds[i], *key);
	}
}

int main(void)
{
	RUN(test_descriptors);
	RUN(test_keys_match_parser);
	return TEST_EXIT();
}
