/*
 * vswctl output: aligned tables, "key: value" lists, table cells, and
 * the JSON that --json prints (compact, one line, members in the order
 * vsw sent them).
 */
#define _GNU_SOURCE /* open_memstream */
#include "vswctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char kv_align[] = "ll";

/* ---- tables ---------------------------------------------------------- */

/* Append a row, taking ownership of the ncols malloc'd strings. */
void table_add(struct table *t, char **row)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->cells = xrealloc(t->cells,
				    t->cap * t->ncols * sizeof(*t->cells));
	}
	memcpy(&t->cells[t->nrows * t->ncols], row, t->ncols * sizeof(*row));
	t->nrows++;
}

static void table_line(const struct table *t, const char *const *row,
		       const int *width)
{
	for (size_t c = 0; c < t->ncols; c++) {
		int last = c + 1 == t->ncols;
		const char *sep = last ? "\n" : t->gap ? t->gap : "  ";

		if (t->align[c] == 'r')
			printf("%*s%s", width[c], row[c], sep);
		else if (last)
			printf("%s%s", row[c], sep);
		else
			printf("%-*s%s", width[c], row[c], sep);
	}
}

void table_print(struct table *t)
{
	int *width = calloc(t->ncols, sizeof(*width));
	size_t r, c;

	for (c = 0; c < t->ncols && t->heads != NULL; c++)
		width[c] = (int)strlen(t->heads[c]);
	for (r = 0; r < t->nrows; r++)
		for (c = 0; c < t->ncols; c++) {
			int n = (int)strlen(t->cells[r * t->ncols + c]);

			width[c] = n > width[c] ? n : width[c];
		}
	if (t->heads != NULL)
		table_line(t, t->heads, width);
	for (r = 0; r < t->nrows; r++)
		table_line(t, (const char *const *)&t->cells[r * t->ncols],
			   width);
	for (r = 0; r < t->nrows * t->ncols; r++)
		free(t->cells[r]);
	free(t->cells);
	free(width);
}

/* Value of member key of obj for a table cell ("-" if absent or ""). */
char *cell(json_t *obj, const char *key)
{
	json_t *v = key ? json_object_get(obj, key) : obj;

	if (v == NULL || (json_is_string(v) && json_string_length(v) == 0))
		return xstrdup("-");
	return val_text(v);
}

/* Add "label:" / value to a two-column key: value list. */
void kv_add(struct table *t, const char *indent, const char *key, json_t *v)
{
	char *row[2];

	row[0] = xasprintf("%s%s:", indent, key);
	row[1] = cell(v, NULL);
	table_add(t, row);
}

/* ---- JSON ------------------------------------------------------------ */

/* '"', '\\', '\n', '\t' escaped by name, other controls as \u00XX. */
void str_write(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/*
 * Integers as vsw sent them (decimal). vsw sends no fractions; should a
 * real come, the shortest %g that reads back the same double, with ".0"
 * when that looks like an integer, so it stays a real.
 */
static void num_write(FILE *f, const json_t *v)
{
	char buf[40];
	double d = json_real_value(v);

	if (json_is_integer(v)) {
		fprintf(f, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	fputs(buf, f);
	if (strpbrk(buf, ".e") == NULL)
		fputs(".0", f);
}

void val_write(FILE *f, json_t *v)
{
	const char *key;
	json_t *m;
	size_t i, n = 0;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		fputc('{', f);
		json_object_foreach (v, key, m) {
			if (n++ > 0)
				fputc(',', f);
			str_write(f, key, strlen(key));
			fputc(':', f);
			val_write(f, m);
		}
		fputc('}', f);
		break;
	case JSON_ARRAY:
		fputc('[', f);
		json_array_foreach (v, i, m) {
			if (i > 0)
				fputc(',', f);
			val_write(f, m);
		}
		fputc(']', f);
		break;
	case JSON_STRING:
		str_write(f, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
	case JSON_REAL:
		num_write(f, v);
		break;
	case JSON_TRUE:
		fputs("true", f);
		break;
	case JSON_FALSE:
		fputs("false", f);
		break;
	case JSON_NULL:
		fputs("null", f);
		break;
	}
}

char *val_text(json_t *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL) {
		perror("vswctl: open_memstream");
		exit(EXIT_ERR);
	}
	if (json_is_string(v))
		fwrite(json_string_value(v), 1, json_string_length(v), f);
	else if (v != NULL)
		val_write(f, v);
	fclose(f);
	return buf;
}

int print_json(json_t *reply, json_t *data)
{
	val_write(stdout, data);
	putchar('\n');
	json_decref(reply);
	return EXIT_OK;
}
