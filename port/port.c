/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port life cycle common to both kinds: allocate the struct from its
 * config, dispatch to the kind's constructor, free it.  Runs on the
 * control thread only.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_log.h>
#include <rte_malloc.h>

#include "debug.h"
#include "port.h"

RTE_LOG_REGISTER_DEFAULT(vsw_port_logtype, INFO);

int vsw_port_lib_init(const struct vsw_port_env *env)
{
	vsw_vhost_lib_init(env);
	return 0;
}

int vsw_port_socket_perms(const struct vsw_port *p,
			  const struct vsw_port_env *env, char *err,
			  size_t errlen)
{
	const char *path = p->conf.path;
	struct group *g;
	int rc = 0;

	if (p->conf.mode != VSW_VHOST_SERVER || env->socket_mode == 0)
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
			 "port %s: cannot give %s mode %04o group %s: %s",
			 p->name, path, env->socket_mode,
			 env->socket_group && env->socket_group[0]
				 ? env->socket_group
				 : "(unchanged)",
			 rc == -ENOENT ? "no such group" : strerror(-rc));
	return rc;
}

int vsw_port_create(const struct vsw_port_conf *conf, uint16_t id,
		    const struct vsw_port_env *env, struct vsw_port **out,
		    char *err, size_t errlen)
{
	struct vsw_port *p;
	int rc;

	p = rte_zmalloc("vsw_port", sizeof(*p), RTE_CACHE_LINE_SIZE);
	if (p == NULL) {
		snprintf(err, errlen, "port %s: out of memory", conf->name);
		return -ENOMEM;
	}
	snprintf(p->name, sizeof(p->name), "%s", conf->name);
	p->id = id;
	p->type = conf->type;
	p->conf = *conf;
	p->vid = -1;
	p->conn_vid = -1;
	p->eth_port = UINT16_MAX;
	p->mp = env->mp;
	for (unsigned int i = 0; i < VSW_MAX_QUEUES; i++) {
		rte_spinlock_init(&p->txq_lock[i]);
		p->kickfd[i] = -1;
		p->kick_pending[i] = -1;
	}
	if (conf->type == VSW_PORT_VHOST)
		rc = vsw_vhost_port_create(p, env, err, errlen);
	else
		rc = vsw_ethdev_port_create(p, env, err, errlen);
	if (rc < 0) {
		rte_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

void vsw_port_destroy(struct vsw_port *p)
{
	if (p == NULL)
		return;
	p->ops->destroy(p);
	vsw_retire(p, sizeof(*p), rte_free);
}
