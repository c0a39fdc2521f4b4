/*
 * show-config: the running config as INI (docs/cli.md), what the state
 * file holds.  vsw sends it in pages of text pieces (/vsw/config,OFFSET);
 * a page from another generation (a change saved between two pages)
 * starts the read again, so the text printed is one config, never a mix.
 */
#include "vswctl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRIES 5
#define PAGES_MAX 1000
#define AGAIN (-2) /* the generation changed between two pages */

struct text {
	char *buf;
	size_t len, cap;
};

static void text_add(struct text *t, const char *s)
{
	size_t n = strlen(s);

	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->buf = xrealloc(t->buf, t->cap);
	}
	memcpy(t->buf + t->len, s, n + 1);
	t->len += n;
}

/* Append one page's pieces; its generation and next offset. */
static int add_page(const char *cmd, json_t *data, struct text *t,
		    uint64_t *gen, uint64_t *next)
{
	json_t *pieces = json_object_get(data, "text"), *p;
	size_t i;

	if (!json_is_array(pieces) ||
	    val_u64(json_object_get(data, "generation"), gen) < 0 ||
	    val_u64(json_object_get(data, "next_offset"), next) < 0)
		return error("bad reply to '%s': no text, generation or "
			     "next_offset",
			     cmd);
	json_array_foreach (pieces, i, p) {
		if (!json_is_string(p))
			return error("bad reply to '%s': a piece that is not "
				     "a string",
				     cmd);
		text_add(t, json_string_value(p));
	}
	return 0;
}

/* Read the whole text once: 0, AGAIN, or an exit code. */
static int read_once(struct ctl *ctl, struct text *t, uint64_t *gen)
{
	uint64_t off = 0, next = 0, g = 0;
	json_t *reply, *data;
	char cmd[64];
	int rc;

	t->len = 0;
	for (int page = 0; page < PAGES_MAX; page++) {
		snprintf(cmd, sizeof(cmd), "/vsw/config,%" PRIu64, off);
		rc = ctl_query(ctl, cmd, &reply, &data);
		if (rc)
			return rc;
		rc = add_page(cmd, data, t, &g, &next);
		json_decref(reply);
		if (rc)
			return rc;
		if (page > 0 && g != *gen)
			return AGAIN;
		*gen = g;
		if ((rc = page_next(cmd, next, &off)) >= 0)
			return rc;
	}
	return error("/vsw/config: more than %d pages", PAGES_MAX);
}

int verb_show_config(struct ctl *ctl, int argc, char **argv)
{
	struct text t = {0};
	uint64_t gen = 0;
	int rc = AGAIN;

	(void)argc;
	(void)argv;
	text_add(&t, "");
	for (int i = 0; i < TRIES && rc == AGAIN; i++)
		rc = read_once(ctl, &t, &gen);
	if (rc == AGAIN)
		rc = error("/vsw/config: the config changed while it was read, "
			   "%d times",
			   TRIES);
	if (rc == 0 && ctl->json) {
		printf("{\"generation\":%" PRIu64 ",\"config\":", gen);
		str_write(stdout, t.buf, t.len);
		printf("}\n");
	} else if (rc == 0) {
		fwrite(t.buf, 1, t.len, stdout);
	}
	free(t.buf);
	return rc;
}
