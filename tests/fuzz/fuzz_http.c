/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for the request parser of metrics-listen's HTTP
 * responder (switch/http.c vsw_http_parse): any bytes, as any local
 * client may send them, in a buffer exactly as long as the input (ASan
 * sees a read past it).
 *
 * Besides not crashing: the answer is 0 (incomplete), 1 (a request) or
 * one of the statuses 400, 414 and 505; a request is GET, HEAD or another
 * method, and its path starts with '/', ends within VSW_HTTP_PATH_MAX
 * and holds only printable characters, no space and no '?' (the query is
 * cut off); the same bytes give the same answer; and a complete head
 * (any answer but 0) gives the same answer and path whatever bytes a
 * client sends after it.
 */
#include "fuzz.h"
#include "switch/http.h"

static bool path_ok(const struct vsw_http_req *r)
{
	size_t n = strnlen(r->path, sizeof(r->path));

	if (n == sizeof(r->path) || n == 0 || r->path[0] != '/')
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)r->path[i] <= 0x20 ||
		    (unsigned char)r->path[i] >= 0x7f || r->path[i] == '?')
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char tail[] = "\r\n\r\nGET /x HTTP/1.1\r\n\r\n\0 ?";
	struct vsw_http_req a, b;
	char *more;
	int rc, again;

	if (size > 2 * VSW_HTTP_REQ_MAX)
		return 0; /* the server stops reading at VSW_HTTP_REQ_MAX */
	memset(&a, 0x55, sizeof(a));
	rc = vsw_http_parse((const char *)data, size, &a);
	FUZZ_CHECK(rc == 0 || rc == 1 || rc == 400 || rc == 414 || rc == 505);
	if (rc == 1) {
		FUZZ_CHECK(a.method == VSW_HTTP_GET ||
			   a.method == VSW_HTTP_HEAD ||
			   a.method == VSW_HTTP_OTHER);
		FUZZ_CHECK(path_ok(&a));
	}
	memset(&b, 0x55, sizeof(b));
	again = vsw_http_parse((const char *)data, size, &b);
	FUZZ_CHECK(again == rc);
	FUZZ_CHECK(rc != 1 ||
		   (a.method == b.method && strcmp(a.path, b.path) == 0));
	if (rc == 0)
		return 0;
	/* what follows a complete head does not change it */
	more = malloc(size + 64);
	if (more == NULL)
		abort();
	memcpy(more, data, size);
	memset(more + size, 'X', 32);
	memset(more + size + 32, '\n', 32);
	memcpy(more + size + 32, tail, sizeof(tail));
	memset(&b, 0x55, sizeof(b));
	again = vsw_http_parse(more, size + 64, &b);
	FUZZ_CHECK(again == rc);
	FUZZ_CHECK(rc != 1 ||
		   (a.method == b.method && strcmp(a.path, b.path) == 0));
	free(more);
	return 0;
}
