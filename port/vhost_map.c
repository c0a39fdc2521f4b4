/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The vhost-user kind's shared state: which port serves which socket
 * path (map_lock, a leaf lock), and reg_lock (the vid and kick-fd life
 * cycle of every port).  See LOCK ORDER in vhost.c.  Calls no other file
 * of the port layer.
 */
#include <limits.h>
#include <string.h>

#include "vhost_priv.h"

pthread_mutex_t vsw_vhost_reg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vsw_vhost_port *registered[VSW_MAX_PORTS];

void vsw_vhost_map_lock(void)
{
	pthread_mutex_lock(&map_lock);
}

void vsw_vhost_map_unlock(void)
{
	pthread_mutex_unlock(&map_lock);
}

struct vsw_vhost_port *vsw_vhost_map_find(int vid)
{
	char path[PATH_MAX];

	if (rte_vhost_get_ifname(vid, path, sizeof(path)) < 0)
		return NULL;
	for (unsigned int i = 0; i < VSW_MAX_PORTS; i++)
		if (registered[i] &&
		    strcmp(registered[i]->base.conf.path, path) == 0)
			return registered[i];
	return NULL;
}

void vsw_vhost_map_set(uint16_t id, struct vsw_vhost_port *vp)
{
	pthread_mutex_lock(&map_lock);
	registered[id] = vp;
	pthread_mutex_unlock(&map_lock);
}

struct vsw_vhost_port *vsw_vhost_port_of(int vid)
{
	struct vsw_vhost_port *vp;

	pthread_mutex_lock(&map_lock);
	vp = vsw_vhost_map_find(vid);
	pthread_mutex_unlock(&map_lock);
	return vp;
}
