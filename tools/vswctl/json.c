/*
 * Minimal JSON reader/writer for vswctl (see json.h).
 *
 * A recursive-descent parser over a byte buffer: objects, arrays, strings
 * with every escape (\uXXXX incl. surrogate pairs, decoded to UTF-8),
 * numbers (kept as source text), true/false/null. Nesting is bounded so a
 * hostile reply cannot exhaust the stack.
 */
#define _GNU_SOURCE /* open_memstream, strndup */
#include "json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

struct parser {
	const char *p;
	const char *end;
	const char *start;
	char *err;
	size_t errlen;
	int depth;
};

static struct json *parse_value(struct parser *ps);

static void fail(struct parser *ps, const char *fmt, ...)
{
	char msg[128];
	va_list ap;

	if (ps->err == NULL || ps->err[0] != '\0')
		return; /* keep the first error */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errlen, "%s at byte %zu", msg,
		 (size_t)(ps->p - ps->start));
}

static struct json *node_new(enum json_type type)
{
	struct json *j = calloc(1, sizeof(*j));

	if (j == NULL) {
		perror("vswctl: calloc");
		exit(1);
	}
	j->type = type;
	return j;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return 0;
	ps->p += n;
	return 1;
}

static struct json *parse_literal(struct parser *ps)
{
	struct json *j;

	if (literal(ps, "null"))
		return node_new(JSON_NULL);
	if (literal(ps, "true") || literal(ps, "false")) {
		j = node_new(JSON_BOOL);
		j->boolean = ps->p[-4] == 't';
		return j;
	}
	/* the message goes to a terminal: no raw control bytes in it */
	if (*ps->p >= 0x20 && *ps->p < 0x7f)
		fail(ps, "unexpected character '%c'", *ps->p);
	else
		fail(ps, "unexpected byte 0x%02x", (unsigned char)*ps->p);
	return NULL;
}

static size_t skip_digits(struct parser *ps)
{
	const char *s = ps->p;

	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
		ps->p++;
	return (size_t)(ps->p - s);
}

static struct json *parse_number(struct parser *ps)
{
	const char *s = ps->p;
	struct json *j;
	int is_int = 1;

	if (*ps->p == '-')
		ps->p++;
	if (ps->p < ps->end && *ps->p == '0')
		ps->p++;
	else if (skip_digits(ps) == 0)
		goto bad;
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		is_int = 0;
		if (skip_digits(ps) == 0)
			goto bad;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		is_int = 0;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (skip_digits(ps) == 0)
			goto bad;
	}
	j = node_new(JSON_NUMBER);
	j->is_int = is_int;
	j->len = (size_t)(ps->p - s);
	j->str = strndup(s, j->len);
	return j;
bad:
	fail(ps, "malformed number");
	return NULL;
}

static int hex4(struct parser *ps, unsigned *out)
{
	unsigned v = 0;
	int i;

	if (ps->end - ps->p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = *ps->p++;

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* \uXXXX (the "\u" already consumed), joining a surrogate pair. */
static int unicode_escape(struct parser *ps, char *o, size_t *n)
{
	unsigned cp, lo;

	if (hex4(ps, &cp) < 0)
		return -1;
	if (cp >= 0xd800 && cp < 0xdc00) {
		if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u')
			return -1;
		ps->p += 2;
		if (hex4(ps, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
			return -1;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	} else if (cp >= 0xdc00 && cp <= 0xdfff) {
		return -1;
	}
	*n += put_utf8(o + *n, cp);
	return 0;
}

static int string_escape(struct parser *ps, char *o, size_t *n)
{
	static const char from[] = "\"\\/bfnrt";
	static const char to[] = "\"\\/\b\f\n\r\t";
	const char *hit;
	char c;

	if (ps->p >= ps->end)
		return -1;
	c = *ps->p++;
	if (c == 'u')
		return unicode_escape(ps, o, n);
	hit = strchr(from, c);
	if (c == '\0' || hit == NULL)
		return -1;
	o[(*n)++] = to[hit - from];
	return 0;
}

/*
 * Source length of the string at @s (on the opening quote): up to its
 * closing quote, or to @end when there is none.  An escaped quote does not
 * close it; whether the escapes are valid is the decoder's business.
 */
static size_t string_span(const char *s, const char *end)
{
	size_t i, len = (size_t)(end - s);

	for (i = 1; i < len && s[i] != '"'; i++)
		if (s[i] == '\\')
			i++;
	return i < len ? i - 1 : len - 1;
}

/*
 * Decode a string at ps->p (on the opening quote) into a new buffer sized
 * for this string alone: decoded text is never longer than its source.
 */
static char *parse_string_raw(struct parser *ps, size_t *lenp)
{
	char *o = malloc(string_span(ps->p, ps->end) + 1);
	size_t n = 0;

	ps->p++;
	while (o != NULL && ps->p < ps->end && *ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p++;

		if (c < 0x20) {
			fail(ps, "control character in string");
			goto err;
		}
		if (c != '\\') {
			o[n++] = (char)c;
		} else if (string_escape(ps, o, &n) < 0) {
			fail(ps, "bad escape in string");
			goto err;
		}
	}
	if (o == NULL || ps->p >= ps->end) {
		fail(ps, "unterminated string");
		goto err;
	}
	ps->p++;
	o[n] = '\0';
	*lenp = n;
	return o;
err:
	free(o);
	return NULL;
}

static struct json *parse_string(struct parser *ps)
{
	size_t len;
	char *s = parse_string_raw(ps, &len);
	struct json *j;

	if (s == NULL)
		return NULL;
	j = node_new(JSON_STRING);
	j->str = s;
	j->len = len;
	return j;
}

/* Parse one member "key": value of an object. */
static struct json *parse_member(struct parser *ps)
{
	struct json *v;
	size_t len;
	char *key;

	skip_ws(ps);
	if (ps->p >= ps->end || *ps->p != '"') {
		fail(ps, "expected a member name");
		return NULL;
	}
	key = parse_string_raw(ps, &len);
	if (key == NULL)
		return NULL;
	skip_ws(ps);
	if (ps->p >= ps->end || *ps->p != ':') {
		fail(ps, "expected ':'");
		free(key);
		return NULL;
	}
	ps->p++;
	v = parse_value(ps);
	if (v == NULL) {
		free(key);
		return NULL;
	}
	v->key = key;
	return v;
}

/* Array or object: elements separated by ',' up to the closing char. */
static struct json *parse_container(struct parser *ps, enum json_type type)
{
	char close = type == JSON_OBJECT ? '}' : ']';
	struct json *j = node_new(type), **tail = &j->child;

	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return j;
	}
	for (;;) {
		*tail = type == JSON_OBJECT ? parse_member(ps)
					    : parse_value(ps);
		if (*tail == NULL)
			break;
		tail = &(*tail)->next;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return j;
		}
		fail(ps, "expected ',' or '%c'", close);
		break;
	}
	json_free(j);
	return NULL;
}

static struct json *parse_value(struct parser *ps)
{
	struct json *j;

	skip_ws(ps);
	if (ps->p >= ps->end) {
		fail(ps, "unexpected end of input");
		return NULL;
	}
	if (++ps->depth > JSON_MAX_DEPTH) {
		fail(ps, "nesting too deep");
		return NULL;
	}
	if (*ps->p == '{')
		j = parse_container(ps, JSON_OBJECT);
	else if (*ps->p == '[')
		j = parse_container(ps, JSON_ARRAY);
	else if (*ps->p == '"')
		j = parse_string(ps);
	else if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
		j = parse_number(ps);
	else
		j = parse_literal(ps);
	ps->depth--;
	return j;
}

struct json *json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct parser ps = {text, text + len, text, err, errlen, 0};
	struct json *j;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	j = parse_value(&ps);
	if (j == NULL)
		return NULL;
	skip_ws(&ps);
	/* Tolerate a trailing NUL some servers send with the message. */
	while (ps.p < ps.end && *ps.p == '\0')
		ps.p++;
	if (ps.p != ps.end) {
		fail(&ps, "trailing data after JSON value");
		json_free(j);
		return NULL;
	}
	return j;
}

void json_free(struct json *j)
{
	while (j != NULL) {
		struct json *next = j->next;

		json_free(j->child);
		free(j->key);
		free(j->str);
		free(j);
		j = next;
	}
}

struct json *json_get(const struct json *obj, const char *key)
{
	struct json *m;

	if (obj == NULL || obj->type != JSON_OBJECT)
		return NULL;
	for (m = obj->child; m != NULL; m = m->next)
		if (strcmp(m->key, key) == 0)
			return m;
	return NULL;
}

int json_u64(const struct json *j, uint64_t *out)
{
	char *end;

	if (j == NULL || j->type != JSON_NUMBER || !j->is_int ||
	    j->str[0] == '-')
		return -1;
	errno = 0;
	*out = strtoull(j->str, &end, 10);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

int json_i64(const struct json *j, int64_t *out)
{
	char *end;

	if (j == NULL || j->type != JSON_NUMBER || !j->is_int)
		return -1;
	errno = 0;
	*out = strtoll(j->str, &end, 10);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

size_t json_count(const struct json *j)
{
	const struct json *c;
	size_t n = 0;

	if (j == NULL)
		return 0;
	for (c = j->child; c != NULL; c = c->next)
		n++;
	return n;
}

static void write_string(FILE *f, const char *s, size_t len)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < len; i++) {
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

static void write_children(FILE *f, const struct json *j)
{
	const struct json *c;

	fputc(j->type == JSON_OBJECT ? '{' : '[', f);
	for (c = j->child; c != NULL; c = c->next) {
		if (c != j->child)
			fputc(',', f);
		if (j->type == JSON_OBJECT) {
			write_string(f, c->key, strlen(c->key));
			fputc(':', f);
		}
		json_write(f, c);
	}
	fputc(j->type == JSON_OBJECT ? '}' : ']', f);
}

void json_write(FILE *f, const struct json *j)
{
	switch (j->type) {
	case JSON_NULL:
		fputs("null", f);
		break;
	case JSON_BOOL:
		fputs(j->boolean ? "true" : "false", f);
		break;
	case JSON_NUMBER:
		fputs(j->str, f);
		break;
	case JSON_STRING:
		write_string(f, j->str, j->len);
		break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		write_children(f, j);
		break;
	}
}

void json_show(FILE *f, const struct json *j)
{
	if (j->type == JSON_STRING)
		fwrite(j->str, 1, j->len, f);
	else
		json_write(f, j);
}

char *json_text(const struct json *j)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL) {
		perror("vswctl: open_memstream");
		exit(1);
	}
	if (j != NULL)
		json_show(f, j);
	fclose(f);
	return buf;
}
