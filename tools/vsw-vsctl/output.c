/*
 * Output as ovs-vsctl writes it (lib/table.c, lib/ovsdb-data.c): a cell
 * in "string" form (strings quoted when they are not plain words, sets
 * in [], maps in {}), "bare" form (no punctuation: --bare) or JSON
 * (OVSDB's ["set", [...]] and ["map", [[k, v]...]]); list, find and get
 * print tables in list (default), table or json format; the other
 * commands print text, each on one line with --oneline ("\n" and "\\"
 * escaped), so that os-vif can take line i as command i's result.
 */
#include "vsctl.h"
#include "tools/telclient/telclient.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vs_out_append(struct vs_out *o, const char *fmt, ...)
{
	va_list ap, again;
	int n;

	va_start(ap, fmt);
	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n >= 0) { /* measured, then written in place */
		o->text = xrealloc(o->text, o->len + (size_t)n + 1);
		vsnprintf(o->text + o->len, (size_t)n + 1, fmt, again);
		o->len += (size_t)n;
	}
	va_end(again);
}

/* ovsdb-data.c's string_needs_quotes: not a plain word, or a UUID. */
static bool needs_quotes(const char *s)
{
	unsigned int a, b, c, d;
	unsigned long long e;
	int end = 0;

	if (!isalpha((unsigned char)s[0]) && s[0] != '_')
		return true;
	for (const char *p = s + 1; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-.", *p))
			return true;
	if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0)
		return true;
	return strlen(s) == 36 &&
	       sscanf(s, "%8x-%4x-%4x-%4x-%12llx%n", &a, &b, &c, &d, &e,
		      &end) == 5 &&
	       end == 36;
}

static char *json_str(const char *s)
{
	json_t *j = json_string(s ? s : "");
	char *t = json_dumps(j, JSON_ENCODE_ANY);

	json_decref(j);
	return t ? t : xstrdup("\"\"");
}

/* One atom (integer i, or string s) in form @f, appended to @o. */
static void atom(struct vs_out *o, const struct vs_cell_val *v, int i,
		 const char *s, enum vs_cell f)
{
	char *q;

	if (v->is_int && s == NULL) {
		vs_out_append(o, "%ld", v->ints[i]);
		return;
	}
	if (f == VS_CELL_BARE || (f == VS_CELL_STRING && !needs_quotes(s))) {
		vs_out_append(o, "%s", s);
		return;
	}
	q = json_str(s);
	vs_out_append(o, "%s", q);
	free(q);
}

static char *as_text(const struct vs_cell_val *v, enum vs_cell f)
{
	struct vs_out o = {0};
	bool brackets = f == VS_CELL_STRING && (v->is_set || v->n == 0);

	if (brackets)
		vs_out_append(&o, "%c", v->is_map ? '{' : '[');
	for (int i = 0; i < v->n; i++) {
		if (i > 0)
			vs_out_append(&o, f == VS_CELL_BARE ? " " : ", ");
		atom(&o, v, i, v->is_int ? NULL : v->keys[i], f);
		if (v->is_map) {
			vs_out_append(&o, "=");
			atom(&o, v, i, v->vals[i], f);
		}
	}
	if (brackets)
		vs_out_append(&o, "%c", v->is_map ? '}' : ']');
	return o.text ? o.text : xstrdup("");
}

static char *as_json(const struct vs_cell_val *v)
{
	struct vs_out o = {0};

	if (!v->is_map && v->n == 1) {
		atom(&o, v, 0, v->is_int ? NULL : v->keys[0], VS_CELL_JSON);
		return o.text;
	}
	vs_out_append(&o, "[\"%s\",[", v->is_map ? "map" : "set");
	for (int i = 0; i < v->n; i++) {
		vs_out_append(&o, "%s%s", i ? "," : "", v->is_map ? "[" : "");
		atom(&o, v, i, v->is_int ? NULL : v->keys[i], VS_CELL_JSON);
		if (v->is_map) {
			vs_out_append(&o, ",");
			atom(&o, v, i, v->vals[i], VS_CELL_JSON);
			vs_out_append(&o, "]");
		}
	}
	vs_out_append(&o, "]]");
	return o.text;
}

void vs_cell_texts(const struct vs_cell_val *v, char *t[3])
{
	t[VS_CELL_STRING] = as_text(v, VS_CELL_STRING);
	t[VS_CELL_BARE] = as_text(v, VS_CELL_BARE);
	t[VS_CELL_JSON] = as_json(v);
}

/* ---- tables ---- */

static bool first_table = true;

static void print_list(const struct vs_opts *o, const struct vs_table *t)
{
	if (!first_table)
		putchar('\n');
	first_table = false;
	for (int r = 0; r < t->nrows; r++) {
		if (r > 0)
			putchar('\n');
		for (int c = 0; c < t->ncols; c++) {
			if (o->headings)
				printf("%-20s: ", t->heads[c]);
			printf("%s\n", t->cells[r][c][o->cell]);
		}
	}
}

/* A line of the table without its trailing blanks, as ovs-vsctl ends it. */
static void end_line(struct vs_out *l)
{
	while (l->len > 0 && l->text[l->len - 1] == ' ')
		l->len--;
	printf("%.*s\n", (int)l->len, l->text ? l->text : "");
	l->len = 0;
}

static void print_table(const struct vs_opts *o, const struct vs_table *t)
{
	struct vs_out l = {0};
	int w[16];

	if (!first_table)
		putchar('\n');
	first_table = false;
	for (int c = 0; c < t->ncols; c++) {
		w[c] = o->headings ? (int)strlen(t->heads[c]) : 0;
		for (int r = 0; r < t->nrows; r++)
			if ((int)strlen(t->cells[r][c][o->cell]) > w[c])
				w[c] = (int)strlen(t->cells[r][c][o->cell]);
	}
	for (int line = 0; o->headings && line < 2; line++) {
		for (int c = 0; c < t->ncols; c++)
			if (line == 0)
				vs_out_append(&l, c ? " %-*s" : "%-*s", w[c],
					      t->heads[c]);
			else
				for (int i = -(c > 0); i < w[c]; i++)
					vs_out_append(&l, i < 0 ? " " : "-");
		end_line(&l);
	}
	for (int r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++)
			vs_out_append(&l, c ? " %-*s" : "%-*s", w[c],
				      t->cells[r][c][o->cell]);
		end_line(&l);
	}
	free(l.text);
}

/* {"data":[[...],...],"headings":[...]}: cells as OVSDB JSON. */
static void print_table_json(const struct vs_table *t)
{
	fputs("{\"data\":[", stdout);
	for (int r = 0; r < t->nrows; r++) {
		fputs(r ? ",[" : "[", stdout);
		for (int c = 0; c < t->ncols; c++)
			printf("%s%s", c ? "," : "", t->cells[r][c][2]);
		putchar(']');
	}
	fputs("],\"headings\":[", stdout);
	for (int c = 0; c < t->ncols; c++) {
		char *q = json_str(t->heads[c]);

		printf("%s%s", c ? "," : "", q);
		free(q);
	}
	fputs("]}\n", stdout);
}

static void print_text(const struct vs_opts *o, const struct vs_out *out)
{
	const char *s = out->text ? out->text : "";
	size_t n = out->len;

	if (!o->oneline) {
		fputs(s, stdout);
		return;
	}
	if (n > 0 && s[n - 1] == '\n')
		n--;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\n')
			fputs("\\n", stdout);
		else if (s[i] == '\\')
			fputs("\\\\", stdout);
		else
			putchar(s[i]);
	putchar('\n');
}

void vs_out_free(struct vs_out *out)
{
	struct vs_table *t = out->table;

	for (int r = 0; t != NULL && r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++)
			for (int k = 0; k < 3; k++)
				free(t->cells[r][c][k]);
	free(t);
	free(out->text);
	memset(out, 0, sizeof(*out));
}

void vs_print(const struct vs_opts *o, struct vs_out *out)
{
	struct vs_table *t = out->table;

	if (t == NULL)
		print_text(o, out);
	else if (o->format == VS_FMT_JSON)
		print_table_json(t);
	else if (o->format == VS_FMT_TABLE)
		print_table(o, t);
	else
		print_list(o, t);
	vs_out_free(out);
}
