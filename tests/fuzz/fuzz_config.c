/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for the configuration parser (config/config.c).
 *
 * Each input is a config file.  It is written to an in-memory file (a
 * memfd, opened by path as /proc/self/fd/N: no disk, nothing to clean up)
 * and loaded with vsw_config_load.  The file is then read with rte_cfgfile
 * as vsw reads it, and its sections are replayed through the run-time
 * forms: each [port NAME] as the port-add list "KEY=VALUE,...,devargs=..."
 * through vsw_config_port_from_kv, each [switch] entry through
 * vsw_config_set_switch_key.  Checks:
 *  - an error resets the config to vsw_config_init() and says so in one
 *    printable line starting with the file name;
 *  - a loaded config validates again (also with pinning checked against
 *    lcores 1..3) and each string value in it (run-dir, path, devargs) is
 *    a whole value of the file, not a cut one;
 *  - the run-time forms agree with the file: a loaded port's list yields
 *    the same port, its [switch] entries the same settings;
 *  - what vsw_config_write prints of a loaded config (the state file,
 *    show-config) loads back to the same struct.
 */
#define _GNU_SOURCE /* memfd_create */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_cfgfile.h>
#include <rte_log.h>

#include "fuzz.h"
#include "config/vsw_config.h"
#include "config/vsw_keys.h"

/* Open bugs (tests/fuzz/known-issues): values quoted unescaped, cut. */
#define KNOWN_QUOTES "config-quotes-control-chars"
#define KNOWN_CUTS "config-cuts-long-values"

static int memfd = -1, memfd2 = -1;
static char path[64], path2[64];
static char err[VSW_ERR_MAX];
static struct vsw_config cfg, fresh, again;

static void quiet(const char *msg, void *arg)
{
	(void)arg;
	FUZZ_CHECK_MSG(msg, strlen(msg) + 1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("vsw-fuzz-config", 0);
	FUZZ_CHECK(memfd >= 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	memfd2 = memfd_create("vsw-fuzz-config-written", 0);
	FUZZ_CHECK(memfd2 >= 0);
	snprintf(path2, sizeof(path2), "/proc/self/fd/%d", memfd2);
	vsw_config_init(&fresh);
	vsw_config_on_warning(quiet, NULL);	/* deprecated names: no noise */
	rte_log_set_global_level(RTE_LOG_CRIT); /* rte_cfgfile's complaints */
	return 0;
}

/* An error message: one printable line (see KNOWN_QUOTES). */
static void check_err(void)
{
	if (fuzz_known(KNOWN_QUOTES))
		FUZZ_CHECK_LINE(err, sizeof(err));
	else
		FUZZ_CHECK_MSG(err, sizeof(err));
}

static void write_file(const uint8_t *data, size_t size)
{
	size_t done = 0;
	ssize_t n;

	FUZZ_CHECK(ftruncate(memfd, 0) == 0);
	while (done < size) {
		n = pwrite(memfd, data + done, size - done, (off_t)done);
		FUZZ_CHECK(n > 0);
		done += (size_t)n;
	}
}

/* Is @s somewhere in the file as a whole value (not cut short)? */
static bool whole_value(const uint8_t *data, size_t size, const char *s)
{
	size_t n = strlen(s);
	const uint8_t *p = data, *end = data + size;

	if (strchr(s, ';') != NULL) /* written \; in the file */
		return true;
	while ((p = memmem(p, (size_t)(end - p), s, n)) != NULL) {
		if (p + n == end || p[n] == ';' || p[n] == '\0' ||
		    isspace(p[n]))
			return true;
		p++;
	}
	return false;
}

/* As if EAL had worker lcores 1..3 only: pinning elsewhere is refused. */
static bool lcore_ok(unsigned int lcore, void *arg)
{
	(void)arg;
	return lcore >= 1 && lcore <= 3;
}

/* A loaded string value was in the file whole (see KNOWN_CUTS). */
static void check_whole(const uint8_t *data, size_t size, const char *s)
{
	if (whole_value(data, size, s))
		return;
	if (fuzz_known(KNOWN_CUTS) && strlen(s) == CFG_VALUE_LEN - 1)
		return;
	fprintf(stderr, "value cut short: \"%s\"\n", s);
	FUZZ_CHECK(!"a value in the file whole");
}

static void check_loaded(const uint8_t *data, size_t size)
{
	const struct vsw_port_conf *pc;
	char dflt[VSW_PATH_MAX + VSW_PORT_NAME_MAX + 8];
	size_t rd = strlen(cfg.sw.run_dir);
	int rc;

	FUZZ_CHECK(strcmp(cfg.source, path) == 0);
	FUZZ_CHECK(cfg.n_ports <= VSW_MAX_PORTS); /* 0: an empty switch */
	FUZZ_CHECK(vsw_config_validate(&cfg, NULL, NULL, err, sizeof(err)) ==
		   0);
	rc = vsw_config_validate(&cfg, lcore_ok, NULL, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -EINVAL);
	if (rc < 0)
		FUZZ_CHECK_MSG(err, sizeof(err)); /* no text from the file */
	if (strcmp(cfg.sw.run_dir, VSW_DEFAULT_RUN_DIR) != 0)
		check_whole(data, size, cfg.sw.run_dir);
	for (unsigned int i = 0; i < cfg.n_ports; i++) {
		pc = &cfg.ports[i];
		snprintf(dflt, sizeof(dflt), "%s%s%s.sock", cfg.sw.run_dir,
			 rd > 0 && cfg.sw.run_dir[rd - 1] == '/' ? "" : "/",
			 pc->name);
		if (pc->type == VSW_PORT_ETHDEV)
			check_whole(data, size, pc->devargs);
		else if (strcmp(pc->path, dflt) != 0)
			check_whole(data, size, pc->path);
	}
}

/* The config as vsw_config_write prints it loads back the same. */
static void check_written(void)
{
	FILE *f;

	FUZZ_CHECK(ftruncate(memfd2, 0) == 0);
	f = fopen(path2, "w");
	FUZZ_CHECK(f != NULL);
	FUZZ_CHECK(vsw_config_write(&cfg, f, err, sizeof(err)) == 0);
	FUZZ_CHECK(fclose(f) == 0);
	FUZZ_CHECK(vsw_config_load(path2, &again, err, sizeof(err)) == 0);
	memcpy(again.source, cfg.source, sizeof(again.source));
	FUZZ_CHECK(memcmp(&again, &cfg, sizeof(cfg)) == 0);
}

/* The [switch] entries as `set` commands give the file's settings. */
static void replay_switch(const struct rte_cfgfile_entry *e, int n, bool loaded)
{
	struct vsw_switch_conf sw = fresh.sw, before;
	int rc;

	for (int i = 0; i < n; i++) {
		before = sw;
		rc = vsw_config_set_switch_key(&sw, e[i].name, e[i].value, err,
					       sizeof(err));
		FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -EPERM);
		FUZZ_CHECK(!loaded || rc != -EINVAL);
		if (rc == 0)
			continue;
		check_err();
		FUZZ_CHECK(memcmp(&sw, &before, sizeof(sw)) == 0);
	}
	if (!loaded)
		return;
	/* fixed at start-up (config/keys.c): only the file sets them */
	for (size_t i = 0; i < vsw_n_keys; i++) {
		const struct vsw_key *k = &vsw_keys[i];

		if (k->sect == VSW_SECT_SWITCH && !k->runtime)
			memcpy((char *)&sw + k->off,
			       (const char *)&cfg.sw + k->off, k->size);
	}
	FUZZ_CHECK(memcmp(&sw, &cfg.sw, sizeof(sw)) == 0);
}

/*
 * "KEY=VALUE,..." with devargs last, as port/add takes it; false when a
 * value other than devargs holds a comma (the list cannot say that).
 */
static bool port_list(const struct rte_cfgfile_entry *e, int n, char *buf,
		      size_t len)
{
	const struct rte_cfgfile_entry *devargs = NULL;
	bool ok = true;
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (strcmp(e[i].name, "devargs") == 0 && devargs == NULL) {
			devargs = &e[i];
			continue;
		}
		ok = ok && strchr(e[i].name, ',') == NULL &&
		     strchr(e[i].value, ',') == NULL;
		off += (size_t)snprintf(buf + off, len - off, "%s=%s,",
					e[i].name, e[i].value);
	}
	if (devargs != NULL)
		snprintf(buf + off, len - off, "devargs=%s", devargs->value);
	return ok;
}

/* A [port NAME] section as port/add gives the port the file gave. */
static void replay_port(const char *name, const struct rte_cfgfile_entry *e,
			int n, const struct vsw_port_conf *loaded)
{
	size_t len = (size_t)n * (CFG_NAME_LEN + CFG_VALUE_LEN + 2) + 1;
	char *list = malloc(len);
	struct vsw_port_conf pc;
	bool same_list;
	int rc;

	FUZZ_CHECK(list != NULL);
	same_list = port_list(e, n, list, len);
	rc = vsw_config_port_from_kv(name, list,
				     loaded != NULL ? &cfg.sw : &fresh.sw, &pc,
				     err, sizeof(err));
	FUZZ_CHECK(rc <= 0);
	if (rc < 0)
		check_err();
	/* what only the file may do: sockets outside run-dir, any driver */
	if (rc < 0 && (strstr(err, "below run-dir") != NULL ||
		       strstr(err, "port-add-drivers") != NULL))
		same_list = false;
	if (loaded != NULL && same_list) {
		if (rc < 0)
			fprintf(stderr, "port-add %s,%s: %s\n", name, list,
				err);
		FUZZ_CHECK(rc == 0 && memcmp(&pc, loaded, sizeof(pc)) == 0);
	}
	free(list);
}

static void replay_section(struct rte_cfgfile *f, int idx, bool loaded,
			   unsigned int *port)
{
	char name[CFG_NAME_LEN] = "";
	struct rte_cfgfile_entry *e;
	int n;

	n = rte_cfgfile_section_num_entries_by_index(f, name, idx);
	FUZZ_CHECK(n >= 0);
	e = calloc(n > 0 ? (size_t)n : 1, sizeof(*e));
	FUZZ_CHECK(e != NULL);
	FUZZ_CHECK(rte_cfgfile_section_entries_by_index(f, idx, name, e, n) ==
		   n);
	if (strcmp(name, "switch") == 0) {
		replay_switch(e, n, loaded);
	} else if (strncmp(name, "port ", 5) == 0) {
		FUZZ_CHECK(!loaded || *port < cfg.n_ports);
		replay_port(name + 5, e, n,
			    loaded ? &cfg.ports[(*port)++] : NULL);
	}
	free(e);
}

static void replay(bool loaded)
{
	struct rte_cfgfile *f = rte_cfgfile_load(path, CFG_FLAG_EMPTY_VALUES);
	unsigned int port = 0;
	int n;

	FUZZ_CHECK(f != NULL || !loaded);
	if (f == NULL)
		return;
	n = rte_cfgfile_num_sections(f, NULL, 0);
	for (int i = 0; i < n; i++)
		replay_section(f, i, loaded, &port);
	FUZZ_CHECK(!loaded || port == cfg.n_ports);
	rte_cfgfile_close(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int rc;

	write_file(data, size);
	memset(&cfg, 0x5a, sizeof(cfg));
	rc = vsw_config_load(path, &cfg, err, sizeof(err));
	FUZZ_CHECK(rc <= 0);
	if (rc == 0) {
		check_loaded(data, size);
		check_written();
	} else {
		check_err();
		FUZZ_CHECK(strncmp(err, path, strlen(path)) == 0);
		FUZZ_CHECK(memcmp(&cfg, &fresh, sizeof(cfg)) == 0);
	}
	/* rte_cfgfile is not vsw's first reader: skip what vsw refuses first */
	if (rc == 0 || strstr(err, ": cannot read: ") == NULL)
		replay(rc == 0);
	return 0;
}
