/*
 * ovs-vsctl's database commands on the model: set, get, list, find.
 * A record is named by its name (the bridge also as "."); UUIDs do not
 * exist in vsw.  find compares with "=" only: the cell's bare text, or a
 * map's value for COLUMN:KEY=VALUE ("find port name=X", the userspace
 * CNI's look-up).  Rows come sorted by name.
 */
#include "cols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The row @rec of @t: 0 with *@p (NULL for the bridge), 1 missing. */
static int find_row(struct vs_model *m, enum vs_tbl t, const char *rec,
		    struct vs_port **p)
{
	*p = NULL;
	if (t == VS_T_BRIDGE)
		return m->bridge[0] && (strcmp(rec, m->bridge) == 0 ||
					strcmp(rec, ".") == 0)
			       ? 0
			       : 1;
	*p = vs_port_find(m, rec);
	return *p == NULL;
}

/* 0 found, 1 missing with --if-exists, -1 error. */
static int get_row(struct vs_model *m, const struct vs_cmd *c, const char *rec,
		   int t, struct vs_port **p, char *err, size_t len)
{
	if (find_row(m, (enum vs_tbl)t, rec, p) == 0)
		return 0;
	if (c->if_exists)
		return 1;
	return vs_fail(err, len, "no row \"%s\" in table %s", rec,
		       vs_table_name((enum vs_tbl)t));
}

/* TABLE RECORD of set and get: 0 with *@t, *@p; 1 missing; -1 error. */
static int table_row(struct vs_model *m, const struct vs_cmd *c, int *t,
		     struct vs_port **p, char *err, size_t len)
{
	*t = vs_table_find(c->argv[1], err, len);
	if (*t < 0)
		return -1;
	return get_row(m, c, c->argv[2], *t, p, err, len);
}

int vs_cmd_set(struct vs_model *m, const struct vs_cmd *c, char *err,
	       size_t len)
{
	struct vs_port *p;
	int t, rc = table_row(m, c, &t, &p, err, len);

	if (rc != 0)
		return rc < 0 ? -1 : 0;
	return vs_col_set(m, (enum vs_tbl)t, p, c->argv + 3, c->argc - 3, err,
			  len);
}

static void free_texts(char *t[3])
{
	for (int i = 0; i < 3; i++)
		free(t[i]);
}

/* One COLUMN[:KEY] of get: its string form on a line. */
static int get_one(struct vs_model *m, int t, struct vs_port *p,
		   const struct vs_cmd *c, const char *a, struct vs_out *out,
		   char *err, size_t len)
{
	size_t n = strcspn(a, ":");
	int col = vs_col_find((enum vs_tbl)t, a, n, err, len);
	struct vs_cell_val v, one;
	char key[VSW_EXTERNAL_IDS_MAX + 1], *txt[3];
	int i;

	if (col < 0)
		return -1;
	vs_col_read(m, (enum vs_tbl)t, p, vs_table_cols((enum vs_tbl)t)[col],
		    &v);
	if (a[n] == ':') {
		if (!v.is_map)
			return vs_fail(err, len,
				       "cannot specify key to get for non-map "
				       "column %s",
				       vs_table_cols((enum vs_tbl)t)[col]);
		vs_unquote(a + n + 1, key, sizeof(key));
		for (i = 0; i < v.n && strcmp(v.keys[i], key) != 0; i++)
			;
		if (i == v.n) {
			if (c->if_exists)
				return 0;
			return vs_fail(
				err, len,
				"no key \"%s\" in %s record \"%s\" column "
				"%s",
				key, vs_table_name((enum vs_tbl)t), c->argv[2],
				vs_table_cols((enum vs_tbl)t)[col]);
		}
		memset(&one, 0, sizeof(one));
		one.n = 1;
		one.keys[0] = v.vals[i];
		v = one;
	}
	vs_cell_texts(&v, txt);
	vs_out_append(out, "%s\n", txt[VS_CELL_STRING]);
	free_texts(txt);
	return 0;
}

int vs_cmd_get(struct vs_model *m, const struct vs_cmd *c, struct vs_out *out,
	       char *err, size_t len)
{
	struct vs_port *p;
	int t, rc = table_row(m, c, &t, &p, err, len);

	if (rc != 0)
		return rc < 0 ? -1 : 0;
	for (int i = 3; i < c->argc; i++)
		if (get_one(m, t, p, c, c->argv[i], out, err, len) < 0)
			return -1;
	return 0;
}

/* ---- list and find ---- */

struct cols {
	int n;
	const char *name[16];
};

static int pick_cols(int t, const char *spec, struct cols *cs, char *err,
		     size_t len)
{
	const char *const *all = vs_table_cols((enum vs_tbl)t);

	cs->n = 0;
	if (spec == NULL) {
		while (all[cs->n] && cs->n < 16) {
			cs->name[cs->n] = all[cs->n];
			cs->n++;
		}
		return 0;
	}
	for (const char *s = spec; *s != '\0' && cs->n < 16;) {
		size_t n = strcspn(s, ", ");
		int c;

		if (n > 0) {
			c = vs_col_find((enum vs_tbl)t, s, n, err, len);
			if (c < 0)
				return -1;
			cs->name[cs->n++] = all[c];
		}
		s += n;
		s += strspn(s, ", ");
	}
	if (cs->n == 0)
		return vs_fail(err, len,
			       "must specify at least one column name");
	return 0;
}

static void add_row(struct vs_model *m, int t, struct vs_port *p,
		    const struct cols *cs, struct vs_table *tb)
{
	for (int i = 0; i < cs->n; i++) {
		struct vs_cell_val v;

		vs_col_read(m, (enum vs_tbl)t, p, cs->name[i], &v);
		vs_cell_texts(&v, tb->cells[tb->nrows][i]);
	}
	tb->nrows++;
}

/* Does row @p of @t meet "COLUMN[:KEY]=VALUE"? 1, 0, or -1 (error). */
static int match(struct vs_model *m, int t, struct vs_port *p, const char *a,
		 char *err, size_t len)
{
	size_t n = strcspn(a, ":=<>!{");
	const char *op = a + n, *eq;
	char key[VSW_EXTERNAL_IDS_MAX + 1] = "", want[VSW_PATH_MAX], *txt[3];
	struct vs_cell_val v;
	int c = vs_col_find((enum vs_tbl)t, a, n, err, len), r;

	if (c < 0)
		return -1;
	if (*op == ':') {
		eq = strchr(op, '=');
		if (eq == NULL)
			eq = op + strlen(op);
		snprintf(key, sizeof(key), "%.*s", (int)(eq - op - 1), op + 1);
		op = eq;
	}
	if (op[0] != '=' || strchr("<>!{", op[-1]) != NULL)
		return vs_fail(err, len,
			       "unsupported: find condition %s (vsw-vsctl "
			       "compares with =)",
			       a);
	vs_unquote(op + 1, want, sizeof(want));
	vs_col_read(m, (enum vs_tbl)t, p, vs_table_cols((enum vs_tbl)t)[c], &v);
	if (key[0] != '\0') {
		for (int i = 0; i < v.n; i++)
			if (v.is_map && strcmp(v.keys[i], key) == 0)
				return strcmp(v.vals[i], want) == 0;
		return 0;
	}
	vs_cell_texts(&v, txt);
	r = strcmp(txt[VS_CELL_BARE], want) == 0 ||
	    strcmp(txt[VS_CELL_STRING], want) == 0;
	free_texts(txt);
	return r;
}

static int list_rows(struct vs_model *m, const struct vs_cmd *c, int t,
		     const struct cols *cs, struct vs_table *tb, char *err,
		     size_t len)
{
	bool find = c->syn->name[0] == 'f';
	int order[VS_MAX_PORTS], n = 0;

	if (t == VS_T_BRIDGE) {
		for (int i = 2; find && i < c->argc; i++) {
			int r = match(m, t, NULL, c->argv[i], err, len);

			if (r <= 0)
				return r;
		}
		if (m->bridge[0])
			add_row(m, t, NULL, cs, tb);
		return 0;
	}
	for (int i = 0; i < m->n; i++) /* sorted by name */
		if (!m->ports[i].deleted) {
			int j = n++;

			for (; j > 0 && strcmp(m->ports[order[j - 1]].ovs,
					       m->ports[i].ovs) > 0;
			     j--)
				order[j] = order[j - 1];
			order[j] = i;
		}
	for (int k = 0; k < n; k++) {
		struct vs_port *p = &m->ports[order[k]];
		int r = 1;

		for (int i = 2; find && r == 1 && i < c->argc; i++)
			r = match(m, t, p, c->argv[i], err, len);
		if (r < 0)
			return -1;
		if (r == 1)
			add_row(m, t, p, cs, tb);
	}
	return 0;
}

int vs_cmd_list(struct vs_model *m, const struct vs_cmd *c, struct vs_out *out,
		char *err, size_t len)
{
	int t = vs_table_find(c->argv[1], err, len);
	struct vs_table *tb;
	struct cols cs;

	if (t < 0 || pick_cols(t, c->columns, &cs, err, len) < 0)
		return -1;
	tb = calloc(1, sizeof(*tb));
	out->table = tb;
	tb->ncols = cs.n;
	for (int i = 0; i < cs.n; i++)
		tb->heads[i] = cs.name[i];
	if (c->syn->name[0] == 'f' || c->argc == 2)
		return list_rows(m, c, t, &cs, tb, err, len);
	for (int i = 2; i < c->argc; i++) { /* list TABLE RECORD... */
		struct vs_port *p;
		int rc = get_row(m, c, c->argv[i], t, &p, err, len);

		if (rc < 0)
			return -1;
		if (rc == 0 && tb->nrows == VS_MAX_PORTS)
			return vs_fail(err, len, "list: more than %d records",
				       VS_MAX_PORTS);
		if (rc == 0)
			add_row(m, t, p, &cs, tb);
	}
	return 0;
}
