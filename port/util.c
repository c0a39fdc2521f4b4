/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the port kinds share: the log type and unix socket files.  A leaf:
 * it calls no kind and nothing else of the port layer.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "port_priv.h"

RTE_LOG_REGISTER_DEFAULT(vsw_port_logtype, INFO);

int vsw_port_socket_perms(const char *name, const char *path,
			  const struct vsw_port_env *env, char *err,
			  size_t errlen)
{
	struct group *g;
	int rc = 0;

	if (env->socket_mode == 0)
		return 0;
	if (env->socket_group != NULL && env->socket_group[0] != '\0') {
		g = getgrnam(env->socket_group);
		if (g == NULL || chown(path, (uid_t)-1, g->gr_gid) < 0)
			rc = g == NULL ? -ENOENT : -errno;
	}
	if (rc == 0 && chmod(path, env->socket_mode) < 0)
		rc = -errno;
	if (rc < 0)
		snprintf(err, errlen,
			 "port %s: cannot give %s mode %04o group %s: %s", name,
			 path, env->socket_mode,
			 env->socket_group && env->socket_group[0]
				 ? env->socket_group
				 : "(unchanged)",
			 rc == -ENOENT ? "no such group" : strerror(-rc));
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
