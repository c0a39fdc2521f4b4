/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port life cycle common to both kinds: allocate the struct from its
 * config, dispatch to the kind's constructor, free it.  Runs on the
 * control thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_log.h>
#include <rte_malloc.h>

#include "port.h"

RTE_LOG_REGISTER_DEFAULT(vsw_port_logtype, INFO);

int vsw_port_lib_init(const struct vsw_port_env *env)
{
	vsw_vhost_lib_init(env);
	return 0;
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
	p->eth_port = UINT16_MAX;
	p->mp = env->mp;
	for (unsigned int i = 0; i < VSW_MAX_QUEUES; i++) {
		rte_spinlock_init(&p->txq_lock[i]);
		p->kickfd[i] = -1;
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
	rte_free(p);
}
