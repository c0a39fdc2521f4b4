/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the port kinds share: the log type and unix socket files.  A leaf:
 * it calls no kind and nothing else of the port layer.
 */
#define _GNU_SOURCE /* O_PATH, AT_EMPTY_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "port_priv.h"

RTE_LOG_REGISTER_DEFAULT(vsw_port_logtype, INFO);

/* The port's value when it gives one, else the switch's. */
static const char *pick(const char *port, const char *sw)
{
	return port[0] != '\0' ? port : (sw != NULL ? sw : "");
}

/*
 * Owner, group and mode of @fd, an O_PATH descriptor of the socket: the
 * inode itself, whatever is renamed or linked at its path meanwhile.
 */
static int perms_at(int fd, unsigned int uid, unsigned int gid,
		    unsigned int mode)
{
	char proc[32];

	if ((uid != (unsigned int)-1 || gid != (unsigned int)-1) &&
	    fchownat(fd, "", (uid_t)uid, (gid_t)gid, AT_EMPTY_PATH) < 0)
		return -errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (mode != 0 && chmod(proc, mode) < 0) /* fchmod: not on O_PATH */
		return -errno;
	return 0;
}

/*
 * The socket was created 0600 root:root (umask 0077), so only root can
 * connect to it now.  chown first: from then on only the new owner can
 * (mode still 0600); chmod last opens it to the group or others as
 * socket-mode says.  No moment exists at which anyone else can connect.
 * Both act on the inode opened without following a link and checked to
 * be a socket of ours: one who can write the directory and swaps the
 * socket for a link to /etc/shadow gets an error, not a chmod of it.
 */
int vsw_port_socket_perms(const struct vsw_port_conf *pc,
			  const struct vsw_port_env *env, char *err,
			  size_t errlen)
{
	const char *owner = pick(pc->socket_owner, env->socket_owner);
	const char *group = pick(pc->socket_group, env->socket_group);
	unsigned int mode =
		pc->socket_mode ? pc->socket_mode : env->socket_mode;
	unsigned int uid = (unsigned int)-1, gid = (unsigned int)-1;
	const char *bad = NULL;
	struct stat st;
	int rc = 0, fd = -1;

	if (owner[0] != '\0' && vsw_config_account_id(owner, false, &uid) < 0)
		bad = "user", rc = -ENOENT;
	else if (group[0] != '\0' &&
		 vsw_config_account_id(group, true, &gid) < 0)
		bad = "group", rc = -ENOENT;
	else if ((fd = open(pc->path, O_PATH | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
		 fstat(fd, &st) < 0)
		rc = -errno;
	else if (!S_ISSOCK(st.st_mode) || st.st_uid != geteuid())
		bad = "socket of vsw's at that path", rc = -EPERM;
	else
		rc = perms_at(fd, uid, gid, mode);
	if (fd >= 0)
		close(fd);
	if (rc < 0)
		snprintf(err, errlen,
			 "port %s: cannot give %s owner %s group %s mode %04o: "
			 "%s%s",
			 pc->name, pc->path, owner[0] ? owner : "(unchanged)",
			 group[0] ? group : "(unchanged)", mode,
			 bad ? "no such " : "", bad ? bad : strerror(-rc));
	return rc;
}

int vsw_port_clear_stale_socket(const char *path, char *err, size_t errlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct stat st;
	int fd, rc;

	if (lstat(path, &st) < 0)
		return 0;
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(err, errlen, "%s exists and is not a socket", path);
		return -EEXIST;
	}
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "%s: path too long for a unix socket",
			 path);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	rc = fd >= 0 ? connect(fd, (struct sockaddr *)&sa, sizeof(sa)) : -1;
	if (fd >= 0)
		close(fd);
	if (rc == 0) {
		snprintf(err, errlen,
			 "%s is in use by another process (another vsw?)",
			 path);
		return -EADDRINUSE;
	}
	unlink(path);
	return 0;
}

int vsw_port_make_parent_dir(const char *path)
{
	char dir[VSW_PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return 0;
	*slash = '\0';
	for (char *c = dir + 1; *c; c++) {
		if (*c == '/') {
			*c = '\0';
			mkdir(dir, 0755);
			*c = '/';
		}
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}
