/* SPDX-License-Identifier: BSD-3-Clause */
/* Minimal unit-test helpers: CHECK() records failures, main returns them. */
#ifndef VSW_TEST_H
#define VSW_TEST_H
#include <stdio.h>

static int vsw_test_failures;

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
			vsw_test_failures++;                                   \
		}                                                              \
	} while (0)

#define RUN(fn)                                                                \
	do {                                                                   \
		int before_ = vsw_test_failures;                               \
		fn();                                                          \
		printf("%s %s\n",                                              \
		       vsw_test_failures == before_ ? "ok  " : "FAIL", #fn);   \
	} while (0)

#define TEST_EXIT() (vsw_test_failures ? 1 : 0)
#endif
