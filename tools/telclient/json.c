/*
 * The JSON values of vsw's replies written back out: compact, one line,
 * members in the order vsw sent them (vswctl --json, and the numbers of
 * the Prometheus text, metrics.c), and the worker's per-queue keys.
 */
#define _GNU_SOURCE /* open_memstream, strndup */
#include "telclient.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		fprintf(stderr, "%s: open_memstream failed\n", ctl_prog);
		exit(EXIT_ERR);
	}
	if (json_is_string(v))
		fwrite(json_string_value(v), 1, json_string_length(v), f);
	else if (v != NULL)
		val_write(f, v);
	fclose(f);
	return buf;
}

/*
 * Split "rxq_<port>_<q>_pct" into port and queue (port names may hold
 * '_', so the queue is the last number); 0 or -1 if key is not one.
 */
int rxq_key(const char *key, char *port, size_t portsz, char **q)
{
	size_t n = strlen(key), plen;
	const char *end, *us;

	if (n < 10 || strncmp(key, "rxq_", 4) != 0 ||
	    strcmp(key + n - 4, "_pct") != 0)
		return -1;
	end = key + n - 4;
	for (us = end - 1; us > key + 4 && *us != '_'; us--)
		;
	plen = (size_t)(us - (key + 4));
	if (*us != '_' || us + 1 == end || plen == 0 || plen >= portsz)
		return -1;
	if (strspn(us + 1, "0123456789") != (size_t)(end - us - 1))
		return -1;
	memcpy(port, key + 4, plen);
	port[plen] = '\0';
	*q = strndup(us + 1, (size_t)(end - us - 1));
	return 0;
}
