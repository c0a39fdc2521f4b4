/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The state file: what changed at run time survives a restart.
 *
 * The effective config -- [switch] as `set` left it, the ports as they
 * run (ctl->ports[i]->conf, which port-add, port-del and port-set keep),
 * the static FDB entries -- is written by config/write.c to
 * <state>.tmp in the state file's directory, fsync'd, renamed over the
 * state file, and the directory fsync'd: a crash leaves the old file or
 * the new one, never a mix (rename is atomic), at worst a stray .tmp,
 * which the next start removes.  Every mutation saves before it is
 * acknowledged, from the control operations themselves (ports.c,
 * settings.c, fdb.c), so whatever path changes a port
 * (telemetry, a socket-directory watcher) persists it.  A save that
 * fails undoes the change and the command fails: what was acknowledged
 * is on disk, what failed is not in effect (port-del writes first, since
 * a deleted port cannot be brought back as it was).  Every operation
 * saves through commit.c; this file calls nothing else in control/.
 *
 * At start-up (before EAL) the state file is laid over the config file
 * (config/write.c vsw_config_overlay); after the ports exist its static
 * entries enter the FDB (fdb.c).  ctl_lock held for everything after
 * start-up.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/debug.h"
#include "control.h"

#define STATE_HEADER                                                           \
	"; vsw state: the config as changed at run time, written by vsw "      \
	"before it\n; acknowledges each change and read over the config "      \
	"file at start\n; (docs/configuration.md).  Edit only while vsw is "   \
	"stopped.\n"

uint64_t vsw_statefile_generation(const struct vsw_ctl *ctl)
{
	return ctl->state_generation;
}

/* ---- the effective config ---- */

/* Sorted by MAC, then VLAN: the same text for the same entries. */
static int fdb_cmp(const void *a, const void *b)
{
	const struct vsw_fdb_conf *x = a, *y = b;
	int c = memcmp(x->mac, y->mac, sizeof(x->mac));

	return c != 0 ? c : (int)x->vlan - (int)y->vlan;
}

/* The static entries (control keeps their keys, fdb.c), of ports that
 * exist: looked up, not walked for, under ctl_lock. */
static void collect_statics(const struct vsw_ctl *ctl, struct vsw_config *cfg)
{
	cfg->n_fdb = 0;
	for (unsigned int i = 0; i < ctl->n_static; i++) {
		uint64_t key = ctl->static_keys[i], val = 0;
		uint16_t port;
		struct vsw_fdb_conf *fc;

		if (!vsw_fdb_lookup(ctl->rt->fdb, key, &val) ||
		    !(val & VSW_FDB_VAL_STATIC))
			continue;
		port = vsw_fdb_val_port(val);
		if (port >= VSW_MAX_PORTS || ctl->ports[port] == NULL)
			continue; /* a port being deleted: its entries too */
		fc = &cfg->fdb[cfg->n_fdb++];
		vsw_fdb_key_mac(key, fc->mac);
		fc->vlan = vsw_fdb_key_vlan(key);
		snprintf(fc->port, sizeof(fc->port), "%s",
			 ctl->ports[port]->name);
	}
	qsort(cfg->fdb, cfg->n_fdb, sizeof(cfg->fdb[0]), fdb_cmp);
}

void vsw_statefile_collect(const struct vsw_ctl *ctl, struct vsw_config *cfg)
{
	vsw_config_init(cfg);
	snprintf(cfg->source, sizeof(cfg->source), "%s", ctl->cfg.source);
	cfg->sw = ctl->sw_own; /* not what the database lays over it */
	for (int i = 0; i < VSW_MAX_PORTS; i++)
		if (ctl->ports[i] != NULL)
			cfg->ports[cfg->n_ports++] = ctl->ports[i]->conf;
	collect_statics(ctl, cfg);
}

char *vsw_statefile_text(const struct vsw_ctl *ctl, size_t *len, char *err,
			 size_t errlen)
{
	struct vsw_config *cfg = malloc(sizeof(*cfg));
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	int rc = -ENOMEM;

	if (cfg != NULL && f != NULL) {
		vsw_statefile_collect(ctl, cfg);
		rc = vsw_config_write(cfg, f, err, errlen);
	}
	if (f != NULL && fclose(f) != 0 && rc == 0)
		rc = -ENOMEM;
	free(cfg);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (rc < 0) {
		free(buf);
		return NULL;
	}
	*len = size;
	return buf;
}

/* ---- writing it ---- */

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * @text into @tmp, flushed to disk.  The test hook sleeps halfway and
 * before the end, so that a kill lands inside a save (41_state_crash).
 */
static int write_tmp(const char *tmp, const char *text, size_t len,
		     unsigned int test_delay_us)
{
	int fd, rc;

	/* a new inode of ours: not a file someone planted under the name
	 * (O_EXCL: a file or link that appears meanwhile fails the save) */
	if (unlink(tmp) < 0 && errno != ENOENT)
		return -errno;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0644);
	if (fd < 0)
		return -errno;
	rc = write_all(fd, STATE_HEADER, strlen(STATE_HEADER));
	if (rc == 0)
		rc = write_all(fd, text, len / 2);
	if (rc == 0 && test_delay_us)
		usleep(test_delay_us);
	if (rc == 0)
		rc = write_all(fd, text + len / 2, len - len / 2);
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && test_delay_us)
		usleep(test_delay_us);
	return rc;
}

/* The rename reaches the disk: fsync the directory holding @path. */
static int sync_dir(const char *path)
{
	char dir[VSW_PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, rc = 0;

	snprintf(dir, sizeof(dir), "%.*s",
		 slash > path ? (int)(slash - path) : 1, path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

int vsw_statefile_save(struct vsw_ctl *ctl, char *err, size_t errlen)
{
	char path[VSW_PATH_MAX], tmp[VSW_PATH_MAX + 8], why[VSW_ERR_MAX];
	size_t len = 0;
	char *text = vsw_statefile_text(ctl, &len, why, sizeof(why));
	bool made = text != NULL;
	int rc = made ? 0 : -EINVAL;

	vsw_config_state_path(&ctl->cfg.sw, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (rc == 0)
		rc = write_tmp(tmp, text, len, ctl->state_delay_us);
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	/* renamed: the file holds the change, which must then stand (an
	 * undo would be back after a restart); only its durability is in
	 * doubt */
	if (rc == 0 && (rc = sync_dir(path)) < 0) {
		VSW_LOG(WARNING, "state file %s: directory not synced: %s",
			path, strerror(-rc));
		rc = 0;
	}
	free(text);
	if (rc == 0) {
		ctl->state_generation++;
		return 0;
	}
	if (made) {
		unlink(tmp);
		snprintf(why, sizeof(why), "%s", strerror(-rc));
	}
	VSW_LOG(ERR, "cannot write the state file %s: %s", path, why);
	if (err != NULL)
		snprintf(err, errlen,
			 "not done: cannot write the state file %s: %s", path,
			 why);
	return rc;
}

/* ---- start-up ---- */

/*
 * The state file decides vsw's ports and settings at the next start, with
 * none of port-add's limits (test 40_state_restart): refuse one that a
 * user other than vsw's own (or root) could have written or planted -- a
 * symbolic link, a file not ours, a file or directory writable by group
 * or others, as sshd's StrictModes does -- before it is read, and refuse
 * to write into such a directory.  With the directory ours alone, nobody
 * can swap the file between this check and the read.
 */
static bool owner_ok(const struct stat *st)
{
	return st->st_uid == geteuid() || st->st_uid == 0;
}

static int state_trusted(const char *path, bool file, char *err, size_t errlen)
{
	char dir[VSW_PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;

	snprintf(dir, sizeof(dir), "%.*s",
		 slash > path ? (int)(slash - path) : 1, path);
	if (stat(dir, &st) == 0 &&
	    (!owner_ok(&st) || (st.st_mode & (S_IWGRP | S_IWOTH)))) {
		snprintf(err, errlen,
			 "state file %s: its directory %s is %s: refused "
			 "(whoever can write there decides vsw's ports at "
			 "the next start; make it root's, mode 0755 or "
			 "0700)",
			 path, dir,
			 !owner_ok(&st) ? "not owned by root"
					: "writable by group or others");
		return -EPERM;
	}
	if (!file || lstat(path, &st) < 0)
		return 0;
	if (!S_ISREG(st.st_mode) || !owner_ok(&st) ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(err, errlen,
			 "state file %s: %s: refused (vsw writes it itself, "
			 "a regular file of root's, mode 0644)",
			 path,
			 S_ISLNK(st.st_mode)	? "a symbolic link"
			 : !S_ISREG(st.st_mode) ? "not a regular file"
			 : !owner_ok(&st)	? "not owned by root"
					  : "writable by group or others");
		return -EPERM;
	}
	return 0;
}

/* The directory of the state file exists (one level is made, 0755). */
static void make_dir(const struct vsw_ctl *ctl)
{
	char path[VSW_PATH_MAX];
	char *slash;

	vsw_config_state_path(&ctl->cfg.sw, path, sizeof(path));
	slash = strrchr(path, '/');
	if (slash == NULL || slash == path)
		return;
	*slash = '\0';
	if (mkdir(path, 0755) == 0)
		VSW_LOG(INFO, "made %s for the state file", path);
}

int vsw_statefile_init(struct vsw_ctl *ctl, char *err, size_t errlen)
{
	char path[VSW_PATH_MAX];

	ctl->state_delay_us = vsw_test_hook_us("VSW_TEST_STATE_DELAY_US",
					       "each state save sleeps twice");
	make_dir(ctl);
	vsw_config_state_path(&ctl->cfg.sw, path, sizeof(path));
	return state_trusted(path, false, err, errlen);
}

/* The state file's errors name it; this says what to do about one. */
#define STATE_HINT                                                             \
	" (the state file holds what changed at run time: fix it, or move "    \
	"it away to start from the config file alone, as --reset-state "       \
	"does)"

static int overlay(struct vsw_config *cfg, const char *path, char *note,
		   size_t notelen, char *err, size_t errlen)
{
	struct vsw_config *st = malloc(sizeof(*st));
	char source[VSW_PATH_MAX];
	int rc = -ENOMEM;

	if (st != NULL)
		rc = vsw_config_load_state(path, st, err, errlen);
	if (rc == 0) {
		snprintf(source, sizeof(source), "%s", cfg->source);
		vsw_config_overlay(cfg, st);
		/* the merged ports are the state's: its name in messages */
		snprintf(cfg->source, sizeof(cfg->source), "%s", path);
		rc = vsw_config_validate(cfg, NULL, NULL, err, errlen);
		snprintf(cfg->source, sizeof(cfg->source), "%s", source);
		snprintf(note, notelen,
			 "state restored from %s: %u port(s), %u static "
			 "MAC(s)",
			 path, cfg->n_ports, cfg->n_fdb);
	}
	if (rc < 0 && st == NULL)
		snprintf(err, errlen, "%s: out of memory", path);
	if (rc < 0 && strlen(err) + sizeof(STATE_HINT) <= errlen)
		strcat(err, STATE_HINT);
	free(st);
	return rc;
}

int vsw_statefile_startup(struct vsw_config *cfg, bool reset, bool offline,
			  char *note, size_t notelen, char *err, size_t errlen)
{
	char path[VSW_PATH_MAX], other[VSW_PATH_MAX + 8];

	note[0] = '\0';
	vsw_config_state_path(&cfg->sw, path, sizeof(path));
	snprintf(other, sizeof(other), "%s.tmp", path);
	if (!offline && unlink(other) == 0) /* a save cut short: never used */
		fprintf(stderr, "vsw: removed %s (left by a crash)\n", other);
	if (reset) {
		snprintf(other, sizeof(other), "%s.old", path);
		if (!offline && rename(path, other) == 0)
			snprintf(note, notelen,
				 "--reset-state: %s moved to %s; starting "
				 "from the config file",
				 path, other);
		return 0;
	}
	if (lstat(path, &(struct stat){0}) < 0 && errno == ENOENT)
		return state_trusted(path, false, err, errlen);
	if (state_trusted(path, true, err, errlen) < 0)
		return -EPERM;
	return overlay(cfg, path, note, notelen, err, errlen);
}
