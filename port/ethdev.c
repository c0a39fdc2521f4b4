/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ethdev ports: any DPDK PMD named by devargs (a PCI address, or a vdev
 * such as net_memif0,role=server,socket=... in tests).
 *
 * One rx queue per configured queue, polled by one worker each, and one
 * tx queue per worker so that workers never share a tx queue.  When the
 * device offers fewer tx queues than there are workers, queues are shared
 * and each takes a spinlock (txq_shared).  The control thread polls the
 * link and publishes `up`.
 *
 * Frames longer than one mbuf arrive and leave as chains: the port asks
 * for RX scatter and TX multi-segment support where the PMD offers them
 * and tells the switch whether it can send chains (tx_chains); a chained
 * frame for a port that cannot is dropped by the switch as too_big,
 * never handed to a PMD that would send its first segment and leak the
 * rest (test 33_jumbo_af_packet).  The MTU is set on the device when the PMD allows it.
 *
 * net_af_packet (a kernel interface through a TPACKET_V2 ring, DPDK 22.11)
 * needs care of its own: the kernel writes each frame into a ring slot of
 * `framesz` bytes (devargs, default 2048) at offset 66 and cuts what does
 * not fit (tpacket_rcv: the 52-byte TPACKET2_HDRLEN, sockaddr_ll
 * included, plus 16, aligned to 16, less the 14-byte MAC header); the PMD copies the slot into ONE mbuf with no
 * bound check (an overflow, fixed upstream only in 25.11.1: 203e04a9da)
 * and reports 1518 bytes as its limit whatever framesz is.  So vsw takes
 * its limit from framesz (a port whose mtu + 18 does not fit a slot whole
 * is refused: frames would arrive cut) and gives the port a pool of its
 * own whose mbufs hold a whole slot when the switch's do not.  The PMD
 * also looks for slot i at i * framesz, which holds only when blocksz is
 * a multiple of framesz (else it reads headers from inside frames): such
 * devargs are refused too.  Its MTU is the kernel interface's, which the
 * operator sets (docs/configuration.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_kvargs.h>
#include <rte_mempool.h>
#include <rte_pci.h>
#include <rte_spinlock.h>

#include "ethdev_priv.h"

#define ETH_RX_DESC VSW_ETH_RX_DESC
#define ETH_TX_DESC VSW_ETH_TX_DESC

#define AFP_DRIVER "net_af_packet"
#define AFP_FRAMESZ_DEFAULT 2048 /* the PMD's, 22.11; blocksz: the page */
/* where TPACKET_V2 puts a frame in its slot (macoff of tpacket_rcv:
 * TPACKET_ALIGN(TPACKET2_HDRLEN + 16) - ETH_HLEN = 80 - 14), and the part
 * of a slot the PMD copies into one mbuf (its rx set-up refuses a pool
 * whose mbufs hold less: framesz - TPACKET2_HDRLEN + sockaddr_ll) */
#define AFP_RX_OFFSET 66
#define AFP_COPY_OFFSET 32
#define AFP_ALIGN 16	    /* TPACKET_ALIGNMENT: framesz is a multiple of it */
#define AFP_POOL_MBUFS 2047 /* per rx queue, own pool */
#define AFP_POOL_CACHE 64

static inline struct vsw_eth_port *eth_cast(struct vsw_port *p)
{
	return container_of(p, struct vsw_eth_port, base);
}

static uint16_t eth_rx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
		       uint16_t n)
{
	return rte_eth_rx_burst(eth_cast(p)->port_id, q, pkts, n);
}

uint16_t vsw_eth_tx(struct vsw_eth_port *e, uint16_t q, struct rte_mbuf **pkts,
		    uint16_t n)
{
	struct vsw_port *p = &e->base;
	uint16_t sent;

	q %= e->n_txq;
	/* offloads: the PMD's own preparation (pseudo-header checksums)
	 * of the frames the datapath left to it; one it refuses stays ours */
	if (!e->txq_shared) {
		if (unlikely(p->tx_offloads != 0))
			n = rte_eth_tx_prepare(e->port_id, q, pkts, n);
		return rte_eth_tx_burst(e->port_id, q, pkts, n);
	}
	rte_spinlock_lock(&e->txq_lock[q]);
	if (unlikely(p->tx_offloads != 0))
		n = rte_eth_tx_prepare(e->port_id, q, pkts, n);
	sent = rte_eth_tx_burst(e->port_id, q, pkts, n);
	rte_spinlock_unlock(&e->txq_lock[q]);
	return sent;
}

static uint16_t eth_tx(struct vsw_port *p, uint16_t q, struct rte_mbuf **pkts,
		       uint16_t n)
{
	return vsw_eth_tx(eth_cast(p), q, pkts, n);
}

void vsw_eth_poll(struct vsw_port *p)
{
	struct rte_eth_link link;
	bool up;

	if (rte_eth_link_get_nowait(eth_cast(p)->port_id, &link) < 0)
		return;
	up = link.link_status == RTE_ETH_LINK_UP;
	if (up != vsw_port_is_up(p)) {
		PORT_LOG(INFO, "%s: link %s", p->name, up ? "up" : "down");
		if (up)
			p->connects++;
		else
			p->disconnects++;
	}
	__atomic_store_n(&p->up, up, __ATOMIC_RELEASE);
}

/* Stop, close and detach the device, so its devargs can be probed again. */
static void detach(struct vsw_eth_port *e)
{
	struct rte_eth_dev_info info;
	struct rte_device *dev = NULL;

	if (rte_eth_dev_info_get(e->port_id, &info) == 0)
		dev = info.device;
	rte_eth_dev_stop(e->port_id);
	rte_eth_dev_close(e->port_id);
	if (dev != NULL && rte_dev_remove(dev) < 0)
		PORT_LOG(WARNING, "%s: cannot detach device", e->base.name);
}

/* The device @devargs probed but no ethdev by the name we looked for
 * (a bus: prefix in the config file...): remove it too, or a retry would
 * find it probed (-EEXIST) and still no ethdev. */
static void unprobe(const char *devargs)
{
	struct rte_devargs da;

	if (rte_devargs_parse(&da, devargs) < 0)
		return;
	if (da.bus != NULL)
		rte_eal_hotplug_remove(rte_bus_name(da.bus), da.name);
	rte_devargs_reset(&da);
}

/* The port's own pool, once every mbuf is back; one still out (another
 * port's tx ring may hold it) keeps the pool (logged, never freed). */
static void free_rx_pool(struct vsw_eth_port *e)
{
	if (e->rx_mp == NULL)
		return;
	if (rte_mempool_full(e->rx_mp))
		rte_mempool_free(e->rx_mp);
	else
		PORT_LOG(WARNING,
			 "%s: %u mbufs of its pool still in use: "
			 "pool kept",
			 e->base.name, rte_mempool_in_use_count(e->rx_mp));
	e->rx_mp = NULL;
}

void vsw_eth_close(struct vsw_eth_port *e)
{
	detach(e);
	free_rx_pool(e);
}

static void eth_destroy(struct vsw_port *p)
{
	vsw_eth_close(eth_cast(p));
	PORT_LOG(INFO, "%s: removed", p->name);
}

/*
 * The longest frame @mtu allows does not fit af_packet's slots whole.  A
 * frame the kernel cut arrives as afp_whole bytes (the PMD copies what the
 * slot holds and never looks at the real length), so the mtu's frames
 * must be shorter than that: a cut one is then always oversize.
 */
static bool afp_cuts(const struct vsw_eth_port *e, unsigned int mtu)
{
	return e->afp_whole != 0 &&
	       mtu + e->mtu_extra + VSW_FRAME_OVERHEAD >= e->afp_whole;
}

static void afp_cut_msg(const struct vsw_eth_port *e, unsigned int mtu,
			char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "port %s: mtu %u needs frames of %u bytes; net_af_packet "
		 "holds %u whole (and cuts longer ones to that): give "
		 "framesz >= %u in its devargs",
		 e->base.name, mtu, mtu + e->mtu_extra + VSW_FRAME_OVERHEAD,
		 e->afp_whole - 1,
		 (mtu + e->mtu_extra + VSW_FRAME_OVERHEAD + 1 + AFP_RX_OFFSET +
		  AFP_ALIGN - 1) /
			 AFP_ALIGN * AFP_ALIGN);
}

/* Control: the PMD's MTU; one that cannot change it keeps the switch's
 * frame checks as the only limit. */
int vsw_eth_set_mtu(struct vsw_port *p, unsigned int mtu, char *err,
		    size_t errlen)
{
	struct vsw_eth_port *e = eth_cast(p);
	int rc;

	if (afp_cuts(e, mtu)) {
		if (err != NULL)
			afp_cut_msg(e, mtu, err, errlen);
		return -EINVAL;
	}
	if (e->kernel_mtu)
		return 0; /* the kernel interface's MTU is the operator's */
	rc = rte_eth_dev_set_mtu(e->port_id, (uint16_t)(mtu + e->mtu_extra));

	if (rc == -ENOTSUP)
		return 0;
	if (rc < 0 && err != NULL)
		snprintf(err, errlen, "port %s: the device refuses mtu %u: %s",
			 p->name, mtu, strerror(-rc));
	return rc;
}

static void eth_info(struct vsw_port *p, struct vsw_port_info *pi)
{
	pi->tx_queues_shared = eth_cast(p)->txq_shared;
}

static const struct vsw_port_ops eth_port_ops = {
	.rx = eth_rx,
	.tx = eth_tx,
	.poll = vsw_eth_poll,
	.destroy = eth_destroy,
	.set_mtu = vsw_eth_set_mtu,
	.info = eth_info,
};

/* Probe the device and find its port id (first new port, or by name). */
static int probe(struct vsw_eth_port *e, char *err, size_t errlen)
{
	const struct vsw_port *p = &e->base;
	char name[VSW_DEVARGS_MAX];
	struct rte_pci_addr pci;
	int rc;

	/* the ethdev's name: the devargs' first field, and a PCI address
	 * in full (DDDD:BB:DD.F) as the PCI bus names its devices */
	snprintf(name, sizeof(name), "%s", p->conf.devargs);
	name[strcspn(name, ",")] = '\0';
	if (rte_pci_addr_parse(name, &pci) == 0)
		rte_pci_device_name(&pci, name, sizeof(name));
	rc = rte_dev_probe(p->conf.devargs);
	if (rc < 0 && rc != -EEXIST) {
		snprintf(err, errlen,
			 "port %s: cannot probe devargs \"%s\": %s", p->name,
			 p->conf.devargs, strerror(-rc));
		return rc;
	}
	if (rte_eth_dev_get_port_by_name(name, &e->port_id) != 0) {
		if (rc == 0)
			unprobe(p->conf.devargs);
		snprintf(err, errlen,
			 "port %s: devargs \"%s\" gave no ethdev "
			 "named %s",
			 p->name, p->conf.devargs, name);
		return -ENODEV;
	}
	return 0;
}

/*
 * A PMD whose TCP_TSO is not what a TSO frame needs: net_tap cuts with
 * DPDK's rte_gso, TCP over IPv4 alone (an IPv6 TSO frame goes nowhere),
 * and refuses a segment whose headers, Ethernet's included, and payload
 * exceed the interface's MTU (a Linux guest's 1448-byte segments with TCP
 * timestamps are 1514 bytes: every one refused).  vsw cuts for it.
 */
static bool tso_unfit(const char *driver)
{
	return strcmp(driver, "net_tap") == 0;
}

/*
 * offloads = on: the NIC fills TCP and UDP checksums and cuts TCP frames
 * (TSO) when it can do all of what that takes; the datapath does the rest
 * itself.  The IPv4 header checksum is not needed for either: a frame
 * left to the host has its own (the sender wrote it), and a TSO frame's
 * is written by the datapath for a NIC without IPV4_CKSUM (the virtio and
 * vmxnet3 PMDs: TSO and TCP checksums only).  Returns VSW_TXO_* and sets
 * them in @conf.
 */
static uint32_t tx_offloads(const struct rte_eth_dev_info *info,
			    struct rte_eth_conf *conf)
{
	const uint64_t capa = info->tx_offload_capa;
	const uint64_t csum =
		RTE_ETH_TX_OFFLOAD_TCP_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	const uint64_t tso = csum | RTE_ETH_TX_OFFLOAD_TCP_TSO |
			     RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	const uint64_t ip4 = capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM;
	const uint32_t ip = ip4 != 0 ? VSW_TXO_IPCSUM : 0;

	if ((capa & tso) == tso && !tso_unfit(info->driver_name)) {
		conf->txmode.offloads |= tso | ip4;
		return VSW_TXO_CSUM | VSW_TXO_TSO4 | VSW_TXO_TSO6 | ip;
	}
	if ((capa & csum) == csum) {
		conf->txmode.offloads |= csum;
		return VSW_TXO_CSUM;
	}
	return 0;
}

static int setup_queues(struct vsw_eth_port *e,
			const struct rte_eth_dev_info *info, uint16_t nrx,
			uint16_t ntx)
{
	uint16_t rxd = ETH_RX_DESC, txd = ETH_TX_DESC, id = e->port_id;
	int sock = rte_eth_dev_socket_id(id);
	struct vsw_port *p = &e->base;
	struct rte_eth_conf conf;
	int rc;

	memset(&conf, 0, sizeof(conf));
	if (info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	if (info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER)
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	/* (af_packet: ethdev would check mtu 9000 against its 1518) */
	if (p->conf.mtu + e->mtu_extra >= info->min_mtu &&
	    p->conf.mtu + e->mtu_extra <= info->max_mtu && !e->kernel_mtu)
		conf.rxmode.mtu = p->conf.mtu + e->mtu_extra;
	p->tx_chains =
		(conf.txmode.offloads & RTE_ETH_TX_OFFLOAD_MULTI_SEGS) != 0;
	p->tx_offloads = p->offloads ? tx_offloads(info, &conf) : 0;
	rc = rte_eth_dev_configure(id, nrx, ntx, &conf);
	if (rc == 0)
		rc = rte_eth_dev_adjust_nb_rx_tx_desc(id, &rxd, &txd);
	for (uint16_t q = 0; rc == 0 && q < nrx; q++)
		rc = rte_eth_rx_queue_setup(id, q, rxd, sock < 0 ? 0 : sock,
					    NULL, p->mp);
	for (uint16_t q = 0; rc == 0 && q < ntx; q++)
		rc = rte_eth_tx_queue_setup(id, q, txd, sock < 0 ? 0 : sock,
					    NULL);
	return rc;
}

/* A number in net_af_packet devargs (@dflt, the PMD's default, when
 * absent); AFP_ARG_BAD when the key is given twice or is not plain
 * decimal, where the PMD (last one wins, atoi) could read another value
 * than ours and fill mbufs past their end. */
#define AFP_ARG_BAD UINT_MAX
static unsigned int afp_arg(const char *devargs, const char *key,
			    unsigned int dflt)
{
	const char *args = strchr(devargs, ',');
	unsigned int v = dflt;
	struct rte_kvargs *kv;
	const char *val;

	kv = args != NULL ? rte_kvargs_parse(args + 1, NULL) : NULL;
	if (kv == NULL)
		return v; /* none, or the PMD refused them already */
	val = rte_kvargs_get(kv, key);
	if (val != NULL) {
		char *end;
		unsigned long n;

		errno = 0;
		n = strtoul(val, &end, 10);
		v = rte_kvargs_count(kv, key) != 1 || val[0] < '0' ||
				    val[0] > '9' || *end != '\0' || errno ||
				    n >= AFP_ARG_BAD
			    ? AFP_ARG_BAD
			    : (unsigned int)n;
	}
	rte_kvargs_free(kv);
	return v;
}

/*
 * net_af_packet: the frame limit from its slots, and a pool of mbufs that
 * hold a whole slot when the switch's are smaller (see the top).
 */
static int afp_prepare(struct vsw_eth_port *e, const struct vsw_port_env *env,
		       uint16_t nrx, char *err, size_t errlen)
{
	const char *da = e->base.conf.devargs;
	unsigned int framesz = afp_arg(da, "framesz", AFP_FRAMESZ_DEFAULT);
	unsigned int blocksz = afp_arg(da, "blocksz", (unsigned)getpagesize());
	uint32_t room;
	char name[RTE_MEMPOOL_NAMESIZE];
	static unsigned int gen;

	if (framesz == AFP_ARG_BAD || blocksz == AFP_ARG_BAD) {
		snprintf(err, errlen,
			 "port %s: net_af_packet framesz and blocksz: each at "
			 "most once, a decimal number",
			 e->base.name);
		return -EINVAL;
	}
	if (framesz <= AFP_RX_OFFSET + RTE_ETHER_MIN_LEN) {
		e->kernel_mtu = false; /* (the kernel refuses such a ring) */
		return 0;
	}
	if (framesz > UINT16_MAX - RTE_PKTMBUF_HEADROOM) {
		snprintf(err, errlen,
			 "port %s: net_af_packet framesz %u: an mbuf holds at "
			 "most %u",
			 e->base.name, framesz,
			 UINT16_MAX - RTE_PKTMBUF_HEADROOM);
		return -EINVAL;
	}
	if (blocksz % framesz != 0) {
		/* the PMD looks for slot i at i * framesz; the kernel puts
		 * blocksz / framesz slots in each block */
		snprintf(err, errlen,
			 "port %s: net_af_packet blocksz %u is not a multiple "
			 "of framesz %u: the PMD would read its ring wrong",
			 e->base.name, blocksz, framesz);
		return -EINVAL;
	}
	e->afp_whole = framesz - AFP_RX_OFFSET;
	if (afp_cuts(e, e->base.conf.mtu)) {
		afp_cut_msg(e, e->base.conf.mtu, err, errlen);
		return -EINVAL;
	}
	room = rte_pktmbuf_data_room_size(env->mp) - RTE_PKTMBUF_HEADROOM;
	if (framesz - AFP_COPY_OFFSET <= room)
		return 0;
	snprintf(name, sizeof(name), "vsw_afp%u_%u", e->base.id, gen++);
	e->rx_mp = rte_pktmbuf_pool_create(
		name, AFP_POOL_MBUFS * nrx, AFP_POOL_CACHE, 0,
		(uint16_t)(framesz + RTE_PKTMBUF_HEADROOM),
		rte_eth_dev_socket_id(e->port_id) < 0
			? 0
			: rte_eth_dev_socket_id(e->port_id));
	if (e->rx_mp == NULL) {
		snprintf(err, errlen,
			 "port %s: cannot allocate %u mbufs of %u bytes for "
			 "net_af_packet's framesz: %s",
			 e->base.name, AFP_POOL_MBUFS * nrx, framesz,
			 rte_strerror(rte_errno));
		return -ENOMEM;
	}
	e->base.mp = e->rx_mp;
	return 0;
}

/* The device can take frames of mtu + 18: 0, or -EINVAL with a message. */
static int check_frame_len(struct vsw_eth_port *e,
			   const struct rte_eth_dev_info *info, char *err,
			   size_t errlen)
{
	const struct vsw_port *p = &e->base;

	if (e->kernel_mtu || p->conf.mtu + e->mtu_extra + VSW_FRAME_OVERHEAD <=
				     info->max_rx_pktlen)
		return 0;
	snprintf(err, errlen,
		 "port %s: mtu %u needs frames of %u bytes; device "
		 "\"%s\" takes at most %u",
		 p->name, p->conf.mtu,
		 p->conf.mtu + e->mtu_extra + VSW_FRAME_OVERHEAD,
		 p->conf.devargs, info->max_rx_pktlen);
	return -EINVAL;
}

int vsw_eth_open(struct vsw_eth_port *e, const struct vsw_port_env *env,
		 char *err, size_t errlen)
{
	struct vsw_port *p = &e->base;
	struct rte_eth_dev_info info;
	uint16_t nrx, ntx;
	int rc;

	e->port_id = UINT16_MAX;
	for (unsigned int i = 0; i < VSW_MAX_QUEUES; i++)
		rte_spinlock_init(&e->txq_lock[i]);
	rc = probe(e, err, errlen);
	if (rc < 0)
		return rc;
	rc = rte_eth_dev_info_get(e->port_id, &info);
	if (rc < 0)
		goto fail;
	nrx = (uint16_t)p->conf.queues;
	if (nrx > info.max_rx_queues) {
		snprintf(err, errlen,
			 "port %s: rxq = %u but the device has at "
			 "most %u rx queues",
			 p->name, nrx, info.max_rx_queues);
		rc = -EINVAL;
		goto fail_msg;
	}
	/* (not net_tap: it reports 1522 too, but its tx drops frames above
	 * the ethdev MTU, which ethdev keeps within those 1522 bytes) */
	e->kernel_mtu = strcmp(info.driver_name, AFP_DRIVER) == 0;
	if (strcmp(info.driver_name, AFP_DRIVER) == 0)
		rc = afp_prepare(e, env, nrx, err, errlen);
	if (rc == 0)
		rc = check_frame_len(e, &info, err, errlen);
	if (rc < 0)
		goto fail_msg;
	ntx = (uint16_t)(p->conf.txq ? p->conf.txq : env->n_workers);
	if (ntx > info.max_tx_queues)
		ntx = info.max_tx_queues;
	if (ntx > VSW_MAX_QUEUES)
		ntx = VSW_MAX_QUEUES;
	if (ntx == 0) { /* q % n_txq would divide by zero */
		snprintf(err, errlen, "port %s: device \"%s\" has no tx queue",
			 p->name, p->conf.devargs);
		rc = -EINVAL;
		goto fail_msg;
	}
	e->txq_shared = ntx < env->n_workers || e->ctl_tx;
	rc = setup_queues(e, &info, nrx, ntx);
	if (rc == 0) {
		rte_eth_promiscuous_enable(e->port_id); /* may be ENOTSUP */
		rc = rte_eth_dev_start(e->port_id);
	}
	if (rc < 0)
		goto fail;
	p->n_rxq = nrx;
	e->n_txq = ntx;
	vsw_eth_poll(p);
	PORT_LOG(INFO, "%s: ethdev %s (port %u), %u rxq, %u txq%s, mtu %u%s%s",
		 p->name, p->conf.devargs, e->port_id, nrx, ntx,
		 e->txq_shared ? " (shared, locked)" : "", p->conf.mtu,
		 p->tx_chains ? "" : ", no chained tx",
		 e->rx_mp != NULL ? ", own pool of big mbufs" : "");
	return 0;
fail:
	snprintf(err, errlen, "port %s: cannot set up device \"%s\": %s",
		 p->name, p->conf.devargs, strerror(-rc));
fail_msg:
	/* detach too, so that the same devargs can be tried again */
	detach(e);
	free_rx_pool(e);
	return rc;
}

static int eth_create(struct vsw_port *p, const struct vsw_port_env *env,
		      char *err, size_t errlen)
{
	int rc = vsw_eth_open(eth_cast(p), env, err, errlen);

	if (rc == 0)
		p->ops = &eth_port_ops;
	return rc;
}

/* clang-format off */
static const char *const eth_keys[] = {
	"type", "devargs", "queues", "rxq", "txq", "workers", "mtu",
	"max-macs", "allowed-macs", "offloads", NULL,
};
/* clang-format on */

const struct vsw_port_kind vsw_ethdev_port_kind = {
	.name = "ethdev",
	.type = VSW_PORT_ETHDEV,
	.size = sizeof(struct vsw_eth_port),
	.create = eth_create,
	.keys = eth_keys,
};
