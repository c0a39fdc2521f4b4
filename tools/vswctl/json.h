/*
 * Minimal JSON reader/writer for vswctl.
 *
 * Parses one JSON text (the replies of the DPDK telemetry socket) into a
 * tree that keeps object members in the order they were received. Numbers
 * keep their source text, so 64-bit counters print back exactly; helpers
 * convert them to integers on demand. Libc only.
 */
#ifndef VSWCTL_JSON_H
#define VSWCTL_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json {
	enum json_type type;
	char *key;	    /* member name when inside an object, else NULL */
	char *str;	    /* decoded string, or the number's source text */
	size_t len;	    /* length of str */
	int boolean;	    /* JSON_BOOL value */
	int is_int;	    /* JSON_NUMBER without fraction or exponent */
	struct json *child; /* first element or member */
	struct json *next;  /* next sibling */
};

/* Parse text[0..len); NULL on error with a message in err. */
struct json *json_parse(const char *text, size_t len, char *err, size_t errlen);
void json_free(struct json *j);

/* Member of an object by name, or NULL. */
struct json *json_get(const struct json *obj, const char *key);
/* Integer value of a number node; 0 on success, -1 if not such an int. */
int json_u64(const struct json *j, uint64_t *out);
int json_i64(const struct json *j, int64_t *out);
/* Number of elements or members of an array or object. */
size_t json_count(const struct json *j);

/* Write compact JSON on one line (no trailing newline). */
void json_write(FILE *f, const struct json *j);
/* Write a value for humans: strings unquoted, the rest as JSON. */
void json_show(FILE *f, const struct json *j);
/* json_show into a new malloc'd string ("" for NULL j). */
char *json_text(const struct json *j);

#endif /* VSWCTL_JSON_H */
