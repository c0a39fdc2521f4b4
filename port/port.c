/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Port life cycle common to every kind: allocate the kind's struct, fill
 * the generic part from the config, call the kind's create through its
 * descriptor (kinds.c), free it.  Runs on the control thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_malloc.h>

#include "common/debug.h"
#include "port_priv.h"

static const struct vsw_port_kind *kind_of(enum vsw_port_type type)
{
	for (unsigned int i = 0; vsw_port_kinds[i] != NULL; i++)
		if (vsw_port_kinds[i]->type == type)
			return vsw_port_kinds[i];
	return NULL;
}

int vsw_port_lib_init(const struct vsw_port_env *env)
{
	int rc = 0;

	for (unsigned int i = 0; rc == 0 && vsw_port_kinds[i] != NULL; i++)
		if (vsw_port_kinds[i]->lib_init != NULL)
			rc = vsw_port_kinds[i]->lib_init(env);
	return rc;
}

int vsw_port_create(const struct vsw_port_conf *conf, uint16_t id,
		    const struct vsw_port_env *env, struct vsw_port **out,
		    char *err, size_t errlen)
{
	const struct vsw_port_kind *k = kind_of(conf->type);
	struct vsw_port *p;
	int rc;

	if (k == NULL) {
		snprintf(err, errlen, "port %s: no port kind %d", conf->name,
			 (int)conf->type);
		return -EINVAL;
	}
	p = rte_zmalloc("vsw_port", k->size, RTE_CACHE_LINE_SIZE);
	if (p == NULL) {
		snprintf(err, errlen, "port %s: out of memory", conf->name);
		return -ENOMEM;
	}
	snprintf(p->name, sizeof(p->name), "%s", conf->name);
	p->id = id;
	p->type = conf->type;
	p->conf = *conf;
	p->mp = env->mp;
	p->offloads = vsw_port_offloads_on(conf, env);
	rc = k->create(p, env, err, errlen);
	if (rc < 0) {
		rte_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

void vsw_port_info_get(struct vsw_port *p, struct vsw_port_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->vid = -1;
	pi->offloads = p->offloads;
	pi->tx_offloads = __atomic_load_n(&p->tx_offloads, __ATOMIC_RELAXED);
	if (p->ops->info != NULL)
		p->ops->info(p, pi);
}

void vsw_port_destroy(struct vsw_port *p)
{
	if (p == NULL)
		return;
	p->ops->destroy(p);
	vsw_retire(p, kind_of(p->type)->size, rte_free);
}
