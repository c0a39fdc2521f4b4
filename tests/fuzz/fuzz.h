/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the libFuzzer harnesses share: FUZZ_CHECK, an invariant that aborts
 * with the failed condition (libFuzzer then keeps the input as a crash
 * file), and the rule every error message of vsw follows: a non-empty,
 * NUL-terminated line of printable characters, so that nothing read from
 * a file or a socket can forge a log line or drive a terminal.
 */
#ifndef VSW_FUZZ_H
#define VSW_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, what);
	abort();
}

#define FUZZ_CHECK(cond)                                                       \
	do {                                                                   \
		if (!(cond))                                                   \
			fuzz_fail(__FILE__, __LINE__, #cond);                  \
	} while (0)

/* Print @s[0..len) with every non-printable byte as \xNN. */
static inline void fuzz_print_escaped(FILE *f, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			fputc(c, f);
		else
			fprintf(f, "\\x%02x", c);
	}
}

/* Bytes 0x00..0x1f and 0x7f; UTF-8 (>= 0x80) may be quoted from a file. */
static inline int fuzz_is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/*
 * Is @id in VSW_FUZZ_KNOWN (comma-separated; tools/fuzz sets it from
 * tests/fuzz/known-issues)?  A known, reported bug outside the fuzzers'
 * reach to fix: its check is relaxed so that fuzzing goes on past it.
 */
static inline bool fuzz_known(const char *id)
{
	const char *list = getenv("VSW_FUZZ_KNOWN"), *p = list;
	size_t n = strlen(id);

	while (p != NULL && (p = strstr(p, id)) != NULL) {
		if ((p == list || p[-1] == ',') &&
		    (p[n] == '\0' || p[n] == ','))
			return true;
		p += n;
	}
	return false;
}

/* @msg, a buffer of @size bytes, holds a printable one-line message. */
#define FUZZ_CHECK_MSG(msg, size)                                              \
	fuzz_check_msg(__FILE__, __LINE__, (msg), (size), false)
/* The same, but control characters other than '\n' are let by. */
#define FUZZ_CHECK_LINE(msg, size)                                             \
	fuzz_check_msg(__FILE__, __LINE__, (msg), (size), true)

static inline void fuzz_check_msg(const char *file, int line, const char *msg,
				  size_t size, bool one_line_only)
{
	const char *nul = memchr(msg, '\0', size);
	size_t len = nul != NULL ? (size_t)(nul - msg) : size;
	unsigned char c;

	for (size_t i = 0; nul != NULL && i < len; i++) {
		c = (unsigned char)msg[i];
		if (one_line_only ? c == '\n' : fuzz_is_control(c))
			nul = NULL;
	}
	if (nul != NULL && len > 0)
		return;
	fprintf(stderr, "%s:%d: bad message (%s): \"", file, line,
		nul == NULL ? "control character or no NUL" : "empty");
	fuzz_print_escaped(stderr, msg, len);
	fputs("\"\n", stderr);
	abort();
}

/* A NUL-terminated copy of @data (libFuzzer's buffer has no NUL). */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	FUZZ_CHECK(s != NULL);
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif /* VSW_FUZZ_H */
