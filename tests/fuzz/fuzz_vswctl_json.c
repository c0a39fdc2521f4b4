/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for vswctl's JSON reader (tools/vswctl/json.c): the
 * input is one telemetry reply, as a rogue or broken server may send it.
 *
 * Checks: a refused reply gives no tree and a printable one-line message;
 * a parsed tree is well formed (members have names, elements none, numbers
 * their text); the accessors agree with it (json_get finds a member's
 * first occurrence, json_count counts, json_u64 and json_i64 give back the
 * number's text, json_text a string's bytes); json_write prints one line
 * that parses back to the same tree.  Parsing allocates O(size) bytes
 * (review L9): the sanitizer's malloc hook counts what json_parse
 * allocates, which must stay under alloc_limit().  VSW_FUZZ_JSON_ALLOC=N
 * prints each input's figures and lowers the limit to N bytes per input
 * byte (ctest's fuzz_json_alloc: a real 16 KiB reply).
 */
#include <inttypes.h>
#include <sanitizer/allocator_interface.h>
#include <stdbool.h>

#include "fuzz.h"
#include "json.h"

#define MEMBERS_GET_MAX 64 /* json_get checks per object (it is O(n)) */

static FILE *devnull;
static double per_byte_max; /* VSW_FUZZ_JSON_ALLOC; 0: not set */
static _Thread_local bool counting;
static _Thread_local size_t allocated;

static void count_malloc(const volatile void *p, size_t size)
{
	(void)p;
	if (counting)
		allocated += size;
}

static void count_free(const volatile void *p)
{
	(void)p;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	FUZZ_CHECK(devnull != NULL);
	if (getenv("VSW_FUZZ_JSON_ALLOC") != NULL)
		per_byte_max = atof(getenv("VSW_FUZZ_JSON_ALLOC"));
	FUZZ_CHECK(__sanitizer_install_malloc_and_free_hooks(count_malloc,
							     count_free) != 0);
	return 0;
}

/*
 * At most a node and a NUL per input byte ("[[[[" makes one per byte),
 * plus the text of numbers and strings, which never exceeds the input.
 */
static size_t alloc_limit(size_t size)
{
	return (size + 1) * (sizeof(struct json) + 16) + size;
}

static char *write_text(const struct json *j, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	FUZZ_CHECK(f != NULL);
	json_write(f, j);
	FUZZ_CHECK(fclose(f) == 0);
	return buf;
}

/* Integer accessors give back the number's own text. */
static void check_number(const struct json *j)
{
	char back[32];
	uint64_t u;
	int64_t i;

	FUZZ_CHECK(j->str != NULL && strlen(j->str) == j->len && j->len > 0);
	if (json_u64(j, &u) == 0) {
		snprintf(back, sizeof(back), "%" PRIu64, u);
		FUZZ_CHECK(j->is_int && strcmp(back, j->str) == 0);
	}
	if (json_i64(j, &i) == 0 && strcmp(j->str, "-0") != 0) {
		snprintf(back, sizeof(back), "%" PRId64, i);
		FUZZ_CHECK(j->is_int && strcmp(back, j->str) == 0);
	}
}

/* json_get(obj, name) is the first member of that name. */
static void check_get(const struct json *obj, const struct json *m)
{
	const struct json *hit = json_get(obj, m->key), *c;

	FUZZ_CHECK(hit != NULL && strcmp(hit->key, m->key) == 0);
	for (c = obj->child; c != hit; c = c->next)
		FUZZ_CHECK(c != m && strcmp(c->key, hit->key) != 0);
}

static void check_tree(const struct json *j, int depth)
{
	const struct json *c;
	size_t n = 0;

	FUZZ_CHECK(depth <= 64);
	if (j->type != JSON_NUMBER) {
		uint64_t u;
		int64_t i;

		FUZZ_CHECK(json_u64(j, &u) < 0 && json_i64(j, &i) < 0);
	}
	if (j->type == JSON_NUMBER)
		check_number(j);
	if (j->type == JSON_STRING)
		FUZZ_CHECK(j->str != NULL && j->str[j->len] == '\0');
	if (j->type != JSON_ARRAY && j->type != JSON_OBJECT)
		FUZZ_CHECK(j->child == NULL);
	FUZZ_CHECK(json_get(j, "") == NULL || j->type == JSON_OBJECT);
	for (c = j->child; c != NULL; c = c->next, n++) {
		FUZZ_CHECK((c->key != NULL) == (j->type == JSON_OBJECT));
		if (j->type == JSON_OBJECT && n < MEMBERS_GET_MAX)
			check_get(j, c);
		check_tree(c, depth + 1);
	}
	FUZZ_CHECK(json_count(j) == n);
}

static bool same_tree(const struct json *a, const struct json *b)
{
	for (; a != NULL && b != NULL; a = a->next, b = b->next) {
		if (a->type != b->type ||
		    (a->key == NULL) != (b->key == NULL) ||
		    (a->key != NULL && strcmp(a->key, b->key) != 0) ||
		    a->boolean != b->boolean || a->is_int != b->is_int ||
		    a->len != b->len ||
		    (a->len > 0 && memcmp(a->str, b->str, a->len) != 0) ||
		    !same_tree(a->child, b->child))
			return false;
	}
	return a == NULL && b == NULL;
}

/* json_text is a string's bytes, or what json_write prints. */
static void check_text(const struct json *j)
{
	size_t len;
	char *text = json_text(j), *written;

	FUZZ_CHECK(text != NULL);
	if (j->type == JSON_STRING) {
		FUZZ_CHECK(memcmp(text, j->str, j->len + 1) == 0);
	} else {
		written = write_text(j, &len);
		FUZZ_CHECK(strcmp(text, written) == 0);
		free(written);
	}
	free(text);
}

/* Written back, the tree is one line that parses to the same tree. */
static void check_round_trip(const struct json *root)
{
	char err[128] = "";
	struct json *again;
	size_t len, len2;
	char *text, *text2;

	text = write_text(root, &len);
	FUZZ_CHECK(memchr(text, '\n', len) == NULL);
	again = json_parse(text, len, err, sizeof(err));
	if (again == NULL)
		fprintf(stderr, "re-parse failed: %s\n", err);
	FUZZ_CHECK(again != NULL && same_tree(root, again));
	text2 = write_text(again, &len2);
	FUZZ_CHECK(len == len2 && memcmp(text, text2, len) == 0);
	free(text2);
	free(text);
	json_free(again);
}

static struct json *parse_counted(const uint8_t *data, size_t size, char *err,
				  size_t errlen)
{
	struct json *root;

	allocated = 0;
	counting = true;
	root = json_parse((const char *)data, size, err, errlen);
	counting = false;
	FUZZ_CHECK(allocated <= alloc_limit(size));
	if (per_byte_max > 0) {
		fprintf(stderr,
			"json_parse: %zu bytes in, %zu bytes allocated "
			"(%.1f per byte, at most %.1f)\n",
			size, allocated, (double)allocated / (size ? size : 1),
			per_byte_max);
		FUZZ_CHECK(allocated <= per_byte_max * (size ? size : 1));
	}
	return root;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[128];
	struct json *root = parse_counted(data, size, err, sizeof(err));
	const struct json *c;

	if (root == NULL) {
		FUZZ_CHECK_MSG(err, sizeof(err));
		return 0;
	}
	check_tree(root, 0);
	json_write(devnull, root);
	json_show(devnull, root);
	check_text(root);
	for (c = root->child; c != NULL; c = c->next)
		check_text(c);
	check_round_trip(root);
	json_free(root);
	return 0;
}
