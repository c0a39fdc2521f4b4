/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The replica of the tables vsw monitors, and OVSDB's datum encoding
 * (RFC 7047 5.1): an atom alone, ["set", [ATOM...]], ["map", [[K, V]...]],
 * ["uuid", U].  Only the columns vsw reads are monitored: those vsw
 * writes back (ofport, statistics...) are not, so its own writes bring
 * no updates back.
 */
#include <string.h>

#include "ovsdb_priv.h"

json_t *db_monitor_request(void)
{
	return json_pack("{s:{s:[s,s]}, s:{s:[s,s]}, s:{s:[s,s,s,s,s,s]},"
			 " s:{s:[s,s,s,s,s,s,s,s]}}",
			 "Open_vSwitch", "columns", "next_cfg", "other_config",
			 "Bridge", "columns", "name", "ports", "Port",
			 "columns", "name", "interfaces", "tag", "trunks",
			 "vlan_mode", "qos", "Interface", "columns", "name",
			 "type", "options", "mtu_request", "external_ids",
			 "ofport_request", "ingress_policing_rate", "mac");
}

/*
 * {TABLE: {UUID: {"old": ROW, "new": ROW}}}: "new" alone is an initial
 * row or an insert, both a modify, "old" alone a delete.  A modify's
 * "new" is merged over the row (it holds at least what changed).
 */
int db_apply_update(json_t *replica, json_t *updates)
{
	const char *table, *uuid;
	json_t *rows, *ru;

	if (!json_is_object(updates))
		return -1;
	json_object_foreach (updates, table, rows) {
		json_t *t = json_object_get(replica, table);

		if (!json_is_object(rows))
			return -1;
		if (t == NULL) {
			t = json_object();
			json_object_set_new(replica, table, t);
		}
		json_object_foreach (rows, uuid, ru) {
			json_t *nw = json_object_get(ru, "new");
			json_t *row = json_object_get(t, uuid);

			if (nw == NULL) {
				json_object_del(t, uuid);
			} else if (!json_is_object(nw)) {
				return -1;
			} else if (row == NULL) {
				json_object_set(t, uuid, nw);
			} else {
				json_object_update(row, nw);
			}
		}
	}
	return 0;
}

json_t *datum_set_at(json_t *d, size_t i)
{
	if (json_is_array(d) && json_array_size(d) == 2 &&
	    json_is_string(json_array_get(d, 0))) {
		const char *tag = json_string_value(json_array_get(d, 0));

		if (strcmp(tag, "set") == 0)
			return json_array_get(json_array_get(d, 1), i);
		if (strcmp(tag, "uuid") == 0 || strcmp(tag, "named-uuid") == 0)
			return i == 0 ? d : NULL;
		return NULL; /* a map is no set */
	}
	return i == 0 && d != NULL && !json_is_array(d) ? d : NULL;
}

const char *datum_str(json_t *d)
{
	json_t *a = datum_set_at(d, 0);

	return json_is_string(a) ? json_string_value(a) : NULL;
}

long long datum_int(json_t *d, long long dflt)
{
	json_t *a = datum_set_at(d, 0);

	return json_is_integer(a) ? json_integer_value(a) : dflt;
}

const char *atom_uuid(json_t *a)
{
	if (json_is_array(a) && json_array_size(a) == 2 &&
	    json_is_string(json_array_get(a, 0)) &&
	    strcmp(json_string_value(json_array_get(a, 0)), "uuid") == 0)
		return json_string_value(json_array_get(a, 1));
	return NULL;
}

const char *datum_map_get(json_t *d, const char *key)
{
	json_t *pairs, *kv;
	size_t i;

	if (!json_is_array(d) || json_array_size(d) != 2 ||
	    !json_is_string(json_array_get(d, 0)) ||
	    strcmp(json_string_value(json_array_get(d, 0)), "map") != 0)
		return NULL;
	pairs = json_array_get(d, 1);
	json_array_foreach (pairs, i, kv) {
		const char *k = json_string_value(json_array_get(kv, 0));

		if (k != NULL && strcmp(k, key) == 0)
			return json_string_value(json_array_get(kv, 1));
	}
	return NULL;
}

json_t *datum_map(const char *const *k, const char *const *v, size_t n)
{
	json_t *pairs = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(pairs, json_pack("[s,s]", k[i], v[i]));
	return json_pack("[s,o]", "map", pairs);
}

json_t *datum_empty(void)
{
	return json_pack("[s,[]]", "set");
}
