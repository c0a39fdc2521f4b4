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

/* ---- JSON (val_write, str_write: tools/telclient/json.c) ---- */

int print_json(json_t *reply, json_t *data)
{
	val_write(stdout, data);
	putchar('\n');
	json_decref(reply);
	return EXIT_OK;
}
