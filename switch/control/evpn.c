/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * BGP EVPN for vxlan ports with `evpn = on`, through a kernel shadow
 * (docs/overlay.md).  vsw writes no control plane: FRR's zebra programs
 * EVPN state into Linux bridge and vxlan devices and learns local MACs
 * from a bridge's FDB.  So for every VNI of such a port vsw makes, in its
 * own network namespace:
 *
 *   vsb<VNI>  a bridge
 *   vsx<VNI>  a vxlan device (the VNI, local-ip, UDP 4789, no learning),
 *             port of vsb<VNI>: zebra finds the VNI here and installs
 *             remote MACs (MAC dst VTEP, extern_learn) and the flood list
 *             (00:00:00:00:00:00 dst VTEP) on it
 *   vsl<VNI>  one end of a veth pair (vsl<VNI>p the other), port of
 *             vsb<VNI>: vsw writes the switch's local MACs of the VNI's
 *             VLAN here, which zebra advertises (type-2 routes)
 *
 * all up, none carrying traffic: the data goes through vsw's vxlan port,
 * whose underlay the kernel does not own.  Each device has the alias
 * "vsw:PORT"; vsw removes a leftover device of that name only when it
 * carries that alias, and never touches another device.
 *
 * From the kernel (netlink, libmnl; the control loop drains its events
 * every pass, 100 ms): a flood entry adds the VTEP to the VNI's flood list
 * (the port's endpoint_get/endpoint_vni), a remote MAC becomes an FDB
 * entry owned by the port and that VTEP; their removal (a withdrawn route,
 * a BGP session gone) removes them.  A remote MAC's entry is a dynamic
 * one that vsw refreshes each second (kept in its own list, put back if
 * flushed or evicted), not a static one: a VM that comes back to this
 * host is learned here with its first frame, vsw writes it as local, and
 * zebra's sequence numbers settle the move; a static entry would hold it
 * at the tunnel until the other host withdrew it (once it hears from the
 * VM, which unicast frames that stay here never tell it).  Never saved in the
 * state file: zebra gives it again at start.  To the kernel (every second): the switch's MACs of the mapped
 * VLANs on other ports, added, moved or aged; written as dynamic entries
 * (zebra treats a static one as sticky, which would pin a VM that moves)
 * and rewritten every 60 s so the bridge never ages them.
 *
 * Runs on the control thread with ctl_lock held, like everything in
 * control/.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>

#include "control.h"

#define EVPN_SYNC_S 1	     /* local MACs to the kernel, at most this often */
#define EVPN_REFRESH_S 60    /* rewritten so the bridge never ages them */
#define EVPN_LOCAL_MAX 65536 /* local MACs written, at most */

struct evpn_vni {
	uint32_t vni;
	uint16_t fdb_vlan;	  /* the FDB's VLAN for the VNI's frames */
	unsigned int br, vx, dev; /* ifindexes */
};

struct evpn_port {
	struct vsw_port *p;	 /* NULL: free */
	struct vsw_port *failed; /* its attach failed (logged once) */
	char name[VSW_PORT_NAME_MAX];
	unsigned int n;
	struct evpn_vni v[VSW_VXLAN_VNIS_MAX];
};

/* A local MAC written to the kernel: its FDB key, and the VNI entry's
 * device it was written on. */
struct evpn_local {
	uint64_t key;
	unsigned int dev;
};

/* Remote MACs zebra installed: FDB key -> owner (port, VTEP), in an
 * rte_hash (control thread only). */
#define EVPN_REMOTE_MAX 65536

struct vsw_evpn {
	struct mnl_socket *ev;	/* neighbour events */
	struct mnl_socket *req; /* requests, acknowledged */
	unsigned int seq;
	struct evpn_port ports[VSW_MAX_PORTS];
	struct evpn_local *written, *want;
	unsigned int n_written, n_want;
	struct rte_hash *remote;
	uint32_t last_sync, last_refresh;
	struct vsw_fdb_wstats ws; /* (the refreshes': not the workers') */
	/* counters (`info`): */
	uint64_t remote_macs, flood_entries, local_writes, errors;
};

/* ---- netlink requests ---- */

/* Send @nlh on the request socket and wait for its ack: 0 or -errno. */
static int nl_do(struct vsw_evpn *e, struct nlmsghdr *nlh)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int portid = mnl_socket_get_portid(e->req);
	int rc;

	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++e->seq;
	if (mnl_socket_sendto(e->req, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		rc = (int)mnl_socket_recvfrom(e->req, buf, sizeof(buf));
		if (rc < 0)
			return -errno;
		rc = mnl_cb_run(buf, (size_t)rc, e->seq, portid, NULL, NULL);
	} while (rc > 0);
	return rc < 0 ? -errno : 0;
}

static struct nlmsghdr *link_msg(char *buf, uint16_t type, uint16_t flags,
				 unsigned int ifindex)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifm;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	ifm->ifi_index = (int)ifindex;
	return nlh;
}

static int link_up(struct vsw_evpn *e, unsigned int ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = link_msg(buf, RTM_NEWLINK, 0, ifindex);
	struct ifinfomsg *ifm = mnl_nlmsg_get_payload(nlh);

	ifm->ifi_flags = IFF_UP;
	ifm->ifi_change = IFF_UP;
	return nl_do(e, nlh);
}

static int link_del(struct vsw_evpn *e, unsigned int ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	return nl_do(e, link_msg(buf, RTM_DELLINK, 0, ifindex));
}

/* The alias of device @name ("" when none): sysfs, one line. */
static void alias_of(const char *name, char *out, size_t len)
{
	char path[64];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/sys/class/net/%s/ifalias", name);
	f = fopen(path, "r");
	if (f == NULL)
		return;
	if (fgets(out, (int)len, f) == NULL)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

/*
 * Make device @name of @kind for port @port (alias "vsw:PORT"): a
 * leftover of that name with a vsw alias is removed first; any other
 * device of that name is an error.  @fill adds the kind's attributes.
 * The new ifindex, or -errno with a message.
 */
static int make_link(struct vsw_evpn *e, const char *port, const char *name,
		     const char *kind, unsigned int master,
		     void (*fill)(struct nlmsghdr *nlh, const void *arg),
		     const void *arg, char *err, size_t errlen)
{
	char buf[MNL_SOCKET_BUFFER_SIZE], alias[64], want[64];
	unsigned int old = if_nametoindex(name);
	struct nlattr *li, *data;
	struct nlmsghdr *nlh;
	int rc;

	snprintf(want, sizeof(want), "vsw:%s", port);
	if (old != 0) {
		alias_of(name, alias, sizeof(alias));
		if (strncmp(alias, "vsw:", 4) != 0) {
			snprintf(err, errlen,
				 "port %s: device %s exists and is not vsw's "
				 "(alias \"%s\"): remove or rename it",
				 port, name, alias);
			return -EEXIST;
		}
		VSW_LOG(INFO, "evpn: removing leftover %s (%s)", name, alias);
		link_del(e, old);
	}
	nlh = link_msg(buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, 0);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	mnl_attr_put_strz(nlh, IFLA_IFALIAS, want);
	if (master != 0)
		mnl_attr_put_u32(nlh, IFLA_MASTER, master);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, kind);
	if (fill != NULL) {
		data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
		fill(nlh, arg);
		mnl_attr_nest_end(nlh, data);
	}
	mnl_attr_nest_end(nlh, li);
	rc = nl_do(e, nlh);
	if (rc == 0 && if_nametoindex(name) == 0)
		rc = -ENODEV;
	if (rc < 0) {
		snprintf(err, errlen, "port %s: cannot make %s device %s: %s",
			 port, kind, name, strerror(-rc));
		return rc;
	}
	return (int)if_nametoindex(name);
}

struct vx_args {
	uint32_t vni;
	uint32_t local; /* host order */
};

static void fill_vxlan(struct nlmsghdr *nlh, const void *arg)
{
	const struct vx_args *a = arg;

	mnl_attr_put_u32(nlh, IFLA_VXLAN_ID, a->vni);
	mnl_attr_put_u32(nlh, IFLA_VXLAN_LOCAL, htonl(a->local));
	mnl_attr_put_u16(nlh, IFLA_VXLAN_PORT, htons(VSW_VXLAN_UDP_PORT));
	mnl_attr_put_u8(nlh, IFLA_VXLAN_LEARNING, 0);
}

static void fill_veth(struct nlmsghdr *nlh, const void *arg)
{
	struct nlattr *peer = mnl_attr_nest_start(nlh, VETH_INFO_PEER);
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));

	memset(ifm, 0, sizeof(*ifm));
	mnl_attr_put_strz(nlh, IFLA_IFNAME, arg);
	mnl_attr_nest_end(nlh, peer);
}

/* ---- remote state: the kernel's neighbour entries ---- */

/* The port and VNI entry whose vxlan device is @ifindex, or NULL. */
static struct evpn_port *by_vx(struct vsw_evpn *e, unsigned int ifindex,
			       struct evpn_vni **vp)
{
	for (int i = 0; i < VSW_MAX_PORTS; i++) {
		struct evpn_port *ep = &e->ports[i];

		for (unsigned int k = 0; ep->p != NULL && k < ep->n; k++)
			if (ep->v[k].vx == ifindex) {
				*vp = &ep->v[k];
				return ep;
			}
	}
	return NULL;
}

struct neigh_attrs {
	const struct nlattr *tb[NDA_MAX + 1];
};

static int neigh_attr(const struct nlattr *a, void *data)
{
	struct neigh_attrs *na = data;
	int type = mnl_attr_get_type(a);

	if (mnl_attr_type_valid(a, NDA_MAX) > 0)
		na->tb[type] = a;
	return MNL_CB_OK;
}

static void remote_set(struct vsw_evpn *e, uint64_t key, uint16_t owner)
{
	if (rte_hash_add_key_data(e->remote, &key, (void *)(uintptr_t)owner) <
	    0)
		e->errors++; /* (full) */
}

static void remote_del(struct vsw_evpn *e, uint64_t key)
{
	rte_hash_del_key(e->remote, &key);
}

static int neigh_cb(const struct nlmsghdr *nlh, void *data)
{
	struct vsw_ctl *ctl = data;
	struct vsw_evpn *e = ctl->evpn;
	const struct ndmsg *nd = mnl_nlmsg_get_payload(nlh);
	struct neigh_attrs na;
	struct evpn_port *ep;
	struct evpn_vni *v;
	const uint8_t *mac;
	uint32_t ip;
	uint64_t key, val;
	bool add = nlh->nlmsg_type == RTM_NEWNEIGH, zero;
	uint16_t owner;
	int vt;

	if ((nlh->nlmsg_type != RTM_NEWNEIGH &&
	     nlh->nlmsg_type != RTM_DELNEIGH) ||
	    nd->ndm_family != AF_BRIDGE ||
	    (ep = by_vx(e, (unsigned int)nd->ndm_ifindex, &v)) == NULL)
		return MNL_CB_OK;
	memset(&na, 0, sizeof(na));
	mnl_attr_parse(nlh, sizeof(*nd), neigh_attr, &na);
	/* the vxlan device's own entries (dst VTEP); not the bridge's */
	if (na.tb[NDA_LLADDR] == NULL || na.tb[NDA_DST] == NULL ||
	    mnl_attr_get_payload_len(na.tb[NDA_LLADDR]) != 6 ||
	    mnl_attr_get_payload_len(na.tb[NDA_DST]) != 4 ||
	    (nd->ndm_flags & NTF_MASTER))
		return MNL_CB_OK;
	mac = mnl_attr_get_payload(na.tb[NDA_LLADDR]);
	memcpy(&ip, mnl_attr_get_payload(na.tb[NDA_DST]), 4);
	ip = ntohl(ip);
	zero = (mac[0] | mac[1] | mac[2] | mac[3] | mac[4] | mac[5]) == 0;
	vt = ep->p->ops->endpoint_get(ep->p, ip, add);
	if (vt < 0) {
		if (add) {
			e->errors++;
			VSW_LOG(WARNING,
				"evpn: %s: VTEP %u.%u.%u.%u not taken: %s",
				ep->name, ip >> 24, (ip >> 16) & 0xff,
				(ip >> 8) & 0xff, ip & 0xff, strerror(-vt));
		}
		return MNL_CB_OK;
	}
	if (zero) {
		ep->p->ops->endpoint_vni(ep->p, (unsigned int)vt, v->vni, add);
		e->flood_entries += add;
		/* a VTEP gone from a VNI (its host, or its BGP session):
		 * what the switch learned behind it goes too */
		if (!add)
			vsw_fdb_flush_owner(
				ctl->rt->fdb,
				vsw_fdb_owner(ep->p->id, (uint8_t)vt));
		return MNL_CB_OK;
	}
	if (mac[0] & 1)
		return MNL_CB_OK; /* (a multicast MAC is not a host) */
	key = vsw_fdb_key(mac, v->fdb_vlan);
	owner = vsw_fdb_owner(ep->p->id, (uint8_t)vt);
	if (add) {
		remote_set(e, key, owner);
		/* (static: the operator's, kept) */
		if (!vsw_fdb_lookup(ctl->rt->fdb, key, &val) ||
		    !(val & VSW_FDB_VAL_STATIC))
			vsw_fdb_learn(ctl->rt->fdb, key, owner, ctl->rt->now_s,
				      &e->ws);
		e->remote_macs++;
		return MNL_CB_OK;
	}
	/* a withdrawn MAC: the entry it made, if it is still that (not a
	 * VM learned here since, not another VTEP's) */
	remote_del(e, key);
	if (vsw_fdb_lookup(ctl->rt->fdb, key, &val) &&
	    !(val & VSW_FDB_VAL_STATIC) && vsw_fdb_val_owner(val) == owner)
		vsw_fdb_del(ctl->rt->fdb, key);
	return MNL_CB_OK;
}

/* Each second: every remote MAC still at its VTEP, or gone from the FDB
 * (flushed, evicted), gets its entry refreshed; one the switch learned
 * elsewhere since is left to it. */
static void refresh_remote(struct vsw_ctl *ctl)
{
	struct vsw_evpn *e = ctl->evpn;
	const void *k;
	uint32_t it = 0;
	uint64_t val;
	void *d;

	while (rte_hash_iterate(e->remote, &k, &d, &it) >= 0) {
		uint64_t key = *(const uint64_t *)k;
		uint16_t owner = (uint16_t)(uintptr_t)d;

		if (!vsw_fdb_lookup(ctl->rt->fdb, key, &val) ||
		    (!(val & VSW_FDB_VAL_STATIC) &&
		     vsw_fdb_val_owner(val) == owner))
			vsw_fdb_learn(ctl->rt->fdb, key, owner, ctl->rt->now_s,
				      &e->ws);
	}
}

static int dump_neigh(struct vsw_ctl *ctl);

/* Read every event waiting (non-blocking). */
static void drain_events(struct vsw_ctl *ctl)
{
	struct vsw_evpn *e = ctl->evpn;
	char buf[MNL_SOCKET_BUFFER_SIZE];
	ssize_t n;

	while ((n = mnl_socket_recvfrom(e->ev, buf, sizeof(buf))) > 0)
		mnl_cb_run(buf, (size_t)n, 0, 0, neigh_cb, ctl);
	if (n < 0 && errno == ENOBUFS) {
		/* events lost: the kernel's table is the truth; read it
		 * (additions again; a removal lost stays until its entry's
		 * next change: counted, logged) */
		VSW_LOG(WARNING, "evpn: netlink events lost; reading again");
		e->errors++;
		dump_neigh(ctl);
	}
}

/* Dump the bridge neighbour table through neigh_cb. */
static int dump_neigh(struct vsw_ctl *ctl)
{
	struct vsw_evpn *e = ctl->evpn;
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int portid = mnl_socket_get_portid(e->req);
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ndmsg *nd;
	int rc;

	nlh->nlmsg_type = RTM_GETNEIGH;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = ++e->seq;
	nd = mnl_nlmsg_put_extra_header(nlh, sizeof(*nd));
	nd->ndm_family = AF_BRIDGE;
	if (mnl_socket_sendto(e->req, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		rc = (int)mnl_socket_recvfrom(e->req, buf, sizeof(buf));
		if (rc <= 0)
			return rc < 0 ? -errno : 0;
		rc = mnl_cb_run(buf, (size_t)rc, e->seq, portid, neigh_cb, ctl);
	} while (rc > 0);
	return rc < 0 ? -errno : 0;
}

/* ---- local MACs: the switch's FDB to the kernel ---- */

/* Write (@add) or remove local MAC @key on bridge port @dev. */
static int local_write(struct vsw_evpn *e, uint64_t key, unsigned int dev,
		       bool add)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ndmsg *nd;
	uint8_t mac[6];

	nlh->nlmsg_type = add ? RTM_NEWNEIGH : RTM_DELNEIGH;
	nlh->nlmsg_flags = add ? NLM_F_CREATE | NLM_F_REPLACE : 0;
	nd = mnl_nlmsg_put_extra_header(nlh, sizeof(*nd));
	nd->ndm_family = AF_BRIDGE;
	nd->ndm_ifindex = (int)dev;
	nd->ndm_state = NUD_REACHABLE;
	nd->ndm_flags = NTF_MASTER;
	vsw_fdb_key_mac(key, mac);
	mnl_attr_put(nlh, NDA_LLADDR, 6, mac);
	e->local_writes++;
	return nl_do(e, nlh);
}

struct want_walk {
	struct vsw_ctl *ctl;
	struct vsw_evpn *e;
};

/* An FDB entry the kernel should hold: a MAC of a mapped VLAN on a port
 * that is not the VNI's vxlan port. */
static void want_entry(uint64_t key, uint64_t val, uint64_t pos, void *arg)
{
	struct want_walk *w = arg;
	struct vsw_evpn *e = w->e;
	uint16_t vlan = vsw_fdb_key_vlan(key), port = vsw_fdb_val_port(val);

	(void)pos;
	if (e->n_want == EVPN_LOCAL_MAX)
		return;
	for (int i = 0; i < VSW_MAX_PORTS; i++) {
		struct evpn_port *ep = &e->ports[i];

		if (ep->p == NULL || ep->p->id == port)
			continue;
		for (unsigned int k = 0; k < ep->n; k++)
			if (ep->v[k].fdb_vlan == vlan) {
				e->want[e->n_want].key =
					key & ~VSW_FDB_KEY_VALID;
				e->want[e->n_want++].dev = ep->v[k].dev;
				return;
			}
	}
}

static int by_key(const void *a, const void *b)
{
	const struct evpn_local *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

/* What the kernel holds becomes what the FDB has: a merge of two sorted
 * lists; everything again every EVPN_REFRESH_S. */
static void sync_local(struct vsw_ctl *ctl)
{
	struct vsw_evpn *e = ctl->evpn;
	struct want_walk w = {ctl, e};
	uint32_t now = ctl->rt->now_s;
	bool refresh = now - e->last_refresh >= EVPN_REFRESH_S;
	uint64_t pos = 0;
	unsigned int i = 0, j = 0;

	if (now - e->last_sync < EVPN_SYNC_S)
		return;
	e->last_sync = now;
	refresh_remote(ctl);
	e->n_want = 0;
	do
		vsw_fdb_walk(ctl->rt->fdb, &pos, 4096, want_entry, &w);
	while (pos != 0);
	qsort(e->want, e->n_want, sizeof(*e->want), by_key);
	while (i < e->n_want || j < e->n_written) {
		int c = i == e->n_want ? 1
			: j == e->n_written
				? -1
				: by_key(&e->want[i], &e->written[j]);

		if (c < 0 || (c == 0 && refresh))
			local_write(e, e->want[i].key, e->want[i].dev, true);
		else if (c > 0)
			local_write(e, e->written[j].key, e->written[j].dev,
				    false);
		i += c <= 0;
		j += c >= 0;
	}
	if (refresh)
		e->last_refresh = now;
	{
		struct evpn_local *t = e->written;

		e->written = e->want;
		e->n_written = e->n_want;
		e->want = t;
	}
}

/* ---- ports ---- */

/* The FDB's VLAN for VNI entry @k of @x on port @pc. */
static uint16_t fdb_vlan(const struct vsw_vxlan_conf *x, unsigned int k,
			 const struct vsw_port_conf *pc)
{
	if (x->map[k].vlan != VSW_NO_VLAN)
		return x->map[k].vlan;
	return vsw_config_vlan_mode(pc) == VSW_VLAN_ACCESS ? (uint16_t)pc->tag
							   : 0;
}

static void detach(struct vsw_evpn *e, struct evpn_port *ep)
{
	for (unsigned int k = 0; k < ep->n; k++) {
		if (ep->v[k].dev != 0)
			link_del(e, ep->v[k].dev); /* (its peer too) */
		if (ep->v[k].vx != 0)
			link_del(e, ep->v[k].vx);
		if (ep->v[k].br != 0)
			link_del(e, ep->v[k].br);
	}
	VSW_LOG(INFO, "evpn: %s: shadow devices removed", ep->name);
	memset(ep, 0, sizeof(*ep)); /* (failed too) */
}

static int attach(struct vsw_ctl *ctl, struct vsw_port *p, char *err,
		  size_t errlen)
{
	struct vsw_evpn *e = ctl->evpn;
	struct evpn_port *ep = &e->ports[p->id];
	struct vsw_vxlan_conf x;
	const char *key;
	char what[160], name[IFNAMSIZ], peer[IFNAMSIZ];
	int rc = 0;

	if (p->ops->endpoint_get == NULL || p->ops->endpoint_vni == NULL ||
	    vsw_config_vxlan(&p->conf, &x, &key, what, sizeof(what)) < 0) {
		snprintf(err, errlen, "port %s: not a vxlan port", p->name);
		return -EINVAL;
	}
	ep->p = p;
	snprintf(ep->name, sizeof(ep->name), "%s", p->name);
	for (unsigned int k = 0; k < x.n_vnis && rc >= 0; k++) {
		struct evpn_vni *v = &ep->v[ep->n++];
		struct vx_args a = {x.map[k].vni, x.local_ip};

		v->vni = x.map[k].vni;
		v->fdb_vlan = fdb_vlan(&x, k, &p->conf);
		snprintf(name, sizeof(name), "vsb%u", v->vni);
		rc = make_link(e, p->name, name, "bridge", 0, NULL, NULL, err,
			       errlen);
		if (rc < 0)
			break;
		v->br = (unsigned int)rc;
		snprintf(name, sizeof(name), "vsx%u", v->vni);
		rc = make_link(e, p->name, name, "vxlan", v->br, fill_vxlan, &a,
			       err, errlen);
		if (rc < 0)
			break;
		v->vx = (unsigned int)rc;
		snprintf(name, sizeof(name), "vsl%u", v->vni);
		snprintf(peer, sizeof(peer), "vsl%up", v->vni);
		rc = make_link(e, p->name, name, "veth", v->br, fill_veth, peer,
			       err, errlen);
		if (rc < 0)
			break;
		v->dev = (unsigned int)rc;
		if ((rc = link_up(e, if_nametoindex(peer))) < 0 ||
		    (rc = link_up(e, v->dev)) < 0 ||
		    (rc = link_up(e, v->vx)) < 0 ||
		    (rc = link_up(e, v->br)) < 0)
			snprintf(err, errlen, "port %s: cannot bring up %s: %s",
				 p->name, name, strerror(-rc));
	}
	if (rc < 0) {
		detach(e, ep);
		return rc;
	}
	VSW_LOG(INFO, "evpn: %s: shadow devices for %u VNIs", p->name, ep->n);
	return dump_neigh(ctl);
}

static int evpn_open(struct vsw_ctl *ctl)
{
	struct vsw_evpn *e = calloc(1, sizeof(*e));

	if (e == NULL)
		return -ENOMEM;
	e->written = calloc(EVPN_LOCAL_MAX, sizeof(*e->written));
	e->want = calloc(EVPN_LOCAL_MAX, sizeof(*e->want));
	{
		struct rte_hash_parameters hp = {
			.name = "vsw_evpn_remote",
			.entries = EVPN_REMOTE_MAX,
			.key_len = sizeof(uint64_t),
			.hash_func = rte_hash_crc,
			.socket_id = SOCKET_ID_ANY,
		};

		e->remote = rte_hash_create(&hp);
	}
	e->ev = mnl_socket_open2(NETLINK_ROUTE, SOCK_NONBLOCK | SOCK_CLOEXEC);
	e->req = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (e->written == NULL || e->want == NULL || e->remote == NULL ||
	    e->ev == NULL || e->req == NULL ||
	    mnl_socket_bind(e->ev, 1u << (RTNLGRP_NEIGH - 1),
			    MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_bind(e->req, 0, MNL_SOCKET_AUTOPID) < 0) {
		int rc = -errno;

		if (e->ev != NULL)
			mnl_socket_close(e->ev);
		if (e->req != NULL)
			mnl_socket_close(e->req);
		free(e->written);
		free(e->want);
		rte_hash_free(e->remote);
		free(e);
		return rc < 0 ? rc : -ENOMEM;
	}
	ctl->evpn = e;
	return 0;
}

void vsw_ctl_evpn_poll(struct vsw_ctl *ctl)
{
	struct vsw_evpn *e;
	char err[VSW_ERR_MAX];
	bool any = false;

	for (int i = 0; i < VSW_MAX_PORTS; i++)
		any |= ctl->ports[i] != NULL && ctl->ports[i]->conf.evpn;
	if (!any && ctl->evpn == NULL)
		return;
	if (ctl->evpn == NULL && evpn_open(ctl) < 0) {
		VSW_LOG(ERR, "evpn: no netlink socket: %s", strerror(errno));
		return;
	}
	e = ctl->evpn;
	for (int i = 0; i < VSW_MAX_PORTS; i++) {
		struct vsw_port *p = ctl->ports[i];
		struct evpn_port *ep = &e->ports[i];

		if (ep->p != NULL && ep->p != p)
			detach(e, ep); /* its port is gone */
		if (p != NULL && p->conf.evpn && ep->p == NULL &&
		    ep->failed != p) {
			err[0] = '\0';
			if (attach(ctl, p, err, sizeof(err)) < 0) {
				VSW_LOG(ERR, "evpn: %s", err);
				ep->failed = p; /* (not again for it) */
			}
		}
	}
	drain_events(ctl);
	sync_local(ctl);
}

void vsw_ctl_evpn_fini(struct vsw_ctl *ctl)
{
	struct vsw_evpn *e = ctl->evpn;

	if (e == NULL)
		return;
	for (int i = 0; i < VSW_MAX_PORTS; i++)
		if (e->ports[i].p != NULL)
			detach(e, &e->ports[i]);
	mnl_socket_close(e->ev);
	mnl_socket_close(e->req);
	free(e->written);
	free(e->want);
	rte_hash_free(e->remote);
	free(e);
	ctl->evpn = NULL;
}

void vsw_ctl_evpn_stats(const struct vsw_ctl *ctl, uint64_t out[4])
{
	const struct vsw_evpn *e = ctl->evpn;

	out[0] = e ? e->remote_macs : 0;
	out[1] = e ? e->flood_entries : 0;
	out[2] = e ? e->local_writes : 0;
	out[3] = e ? e->errors : 0;
}
