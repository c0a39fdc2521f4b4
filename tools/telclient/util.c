/*
 * vswctl utilities (also linked by vsw-vsctl, with transport.c, as the
 * vswctl_transport library): messages and exit codes, allocation that exits on
 * failure, integers and names from the command line, the clock.
 */
#define _GNU_SOURCE /* vasprintf */
#include "telclient.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *ctl_prog = "vswctl";

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", ctl_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'vswctl help'.\n", stderr);
	return EXIT_USAGE;
}

int error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", ctl_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_ERR;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (p == NULL) {
		fprintf(stderr, "%s: out of memory\n", ctl_prog);
		exit(EXIT_ERR);
	}
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fprintf(stderr, "%s: out of memory\n", ctl_prog);
		exit(EXIT_ERR);
	}
	return s;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (d == NULL) {
		fprintf(stderr, "%s: out of memory\n", ctl_prog);
		exit(EXIT_ERR);
	}
	return d;
}

int parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (s[0] == '\0' || s[strspn(s, "0123456789")] != '\0')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int port_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > PORT_NAME_MAX)
		return 0;
	return strspn(name, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

const char *worker_id(const char *key)
{
	return strncmp(key, "worker", 6) == 0 ? key + 6 : key;
}

double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
