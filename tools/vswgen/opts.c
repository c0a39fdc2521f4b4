/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * vswgen command line: the options after "--". Every value is checked;
 * a bad one prints 'vswgen: --opt "value": expected ...' and the caller
 * exits 2. Checks that need the ports (does port N exist?) are done in
 * main.c once EAL is up.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "vswgen.h"

enum {
	OPT_TX_PORT = 256,
	OPT_RX_PORT,
	OPT_SRC_MAC,
	OPT_DST_MAC,
	OPT_MACS,
	OPT_VLAN,
	OPT_SIZE,
	OPT_MBUF_SIZE,
	OPT_VERIFY,
	OPT_TEST_CORRUPT,
	OPT_RATE,
	OPT_COUNT,
	OPT_DURATION,
	OPT_BURST,
	OPT_ANNOUNCE,
	OPT_RX_ONLY,
	OPT_DRAIN_MS,
	OPT_LINK_WAIT,
	OPT_POLL_SLEEP,
	OPT_JSON,
	OPT_QUIET,
	OPT_PAIRS,
	OPT_LEAN,
	OPT_SEARCH,
	OPT_SEARCH_TRIAL,
	OPT_LOSS_TOL,
	OPT_SEARCH_STEPS,
	OPT_LATENCY_AT,
	OPT_RX_MODE,
	OPT_RR,
	OPT_RR_TIMEOUT,
	OPT_REFLECT,
	OPT_TCP,
	OPT_NO_LRO,
	OPT_VXLAN,
	OPT_RX_QUEUES,
	OPT_HELP,
};

static const struct option long_opts[] = {
	{"tx-port", required_argument, NULL, OPT_TX_PORT},
	{"rx-port", required_argument, NULL, OPT_RX_PORT},
	{"src-mac", required_argument, NULL, OPT_SRC_MAC},
	{"dst-mac", required_argument, NULL, OPT_DST_MAC},
	{"macs", required_argument, NULL, OPT_MACS},
	{"vlan", required_argument, NULL, OPT_VLAN},
	{"size", required_argument, NULL, OPT_SIZE},
	{"mbuf-size", required_argument, NULL, OPT_MBUF_SIZE},
	{"verify", no_argument, NULL, OPT_VERIFY},
	{"test-corrupt", required_argument, NULL, OPT_TEST_CORRUPT},
	{"rate", required_argument, NULL, OPT_RATE},
	{"count", required_argument, NULL, OPT_COUNT},
	{"duration", required_argument, NULL, OPT_DURATION},
	{"burst", required_argument, NULL, OPT_BURST},
	{"announce", required_argument, NULL, OPT_ANNOUNCE},
	{"rx-only", no_argument, NULL, OPT_RX_ONLY},
	{"drain-ms", required_argument, NULL, OPT_DRAIN_MS},
	{"link-wait", required_argument, NULL, OPT_LINK_WAIT},
	{"poll-sleep-us", required_argument, NULL, OPT_POLL_SLEEP},
	{"json", no_argument, NULL, OPT_JSON},
	{"quiet", no_argument, NULL, OPT_QUIET},
	{"pairs", no_argument, NULL, OPT_PAIRS},
	{"lean", no_argument, NULL, OPT_LEAN},
	{"search", no_argument, NULL, OPT_SEARCH},
	{"search-trial", required_argument, NULL, OPT_SEARCH_TRIAL},
	{"loss-tolerance", required_argument, NULL, OPT_LOSS_TOL},
	{"search-steps", required_argument, NULL, OPT_SEARCH_STEPS},
	{"latency-at", required_argument, NULL, OPT_LATENCY_AT},
	{"rx-mode", required_argument, NULL, OPT_RX_MODE},
	{"rr", optional_argument, NULL, OPT_RR},
	{"rr-timeout-ms", required_argument, NULL, OPT_RR_TIMEOUT},
	{"reflect", no_argument, NULL, OPT_REFLECT},
	{"tcp", required_argument, NULL, OPT_TCP},
	{"no-lro", no_argument, NULL, OPT_NO_LRO},
	{"vxlan", required_argument, NULL, OPT_VXLAN},
	{"rx-queues", required_argument, NULL, OPT_RX_QUEUES},
	{"help", no_argument, NULL, OPT_HELP},
	{NULL, 0, NULL, 0},
};

void gen_usage(FILE *f)
{
	fputs("usage: vswgen [EAL args] -- [options]\n"
	      "  --tx-port N|none     port to send on (default 0)\n"
	      "  --rx-port N|none     port to receive on (default 1 if 2+ "
	      "ports, else 0)\n"
	      "  --src-mac MAC        source MAC (default: the tx port's)\n"
	      "  --dst-mac MAC        destination MAC (default: the rx port's "
	      "MAC when\n"
	      "                       it differs from the tx port, else "
	      "broadcast)\n"
	      "  --macs N             cycle over N source MACs (default 1)\n"
	      "  --vlan N             802.1Q tag with VLAN id N\n"
	      "  --size BYTES         frame size without FCS, 60..9018 "
	      "(default 64);\n"
	      "                       frames larger than an mbuf are chained\n"
	      "  --mbuf-size BYTES    mbuf data room incl. 128 B headroom, "
	      "256..65535\n"
	      "                       (default 2176)\n"
	      "  --verify             send a checkable payload; check the "
	      "length and\n"
	      "                       every payload byte of received frames\n"
	      "  --test-corrupt N     with --verify: damage every Nth checked "
	      "frame\n"
	      "                       before the check (tests the checker)\n"
	      "  --rate PPS           offered packets/s (default 0: max)\n"
	      "  --count N            stop after N packets (default 0: none)\n"
	      "  --duration SEC       trial length (default 5)\n"
	      "  --burst N            1..512 (default 32)\n"
	      "  --announce N         send N broadcasts first, wait 100 ms\n"
	      "  --rx-only            do not send during the trial\n"
	      "  --drain-ms MS        receive MS ms after sending (default "
	      "300)\n"
	      "  --link-wait SEC      wait for links (default 10)\n"
	      "  --poll-sleep-us N    sleep N us after an empty rx poll\n"
	      "  --json               one JSON object at the end\n"
	      "  --quiet              no per-second progress line\n"
	      "  --search             zero-loss throughput search (RFC 2544)\n"
	      "  --search-trial SEC   length of a search trial (default 2)\n"
	      "  --loss-tolerance PCT accepted loss in a search (default 0)\n"
	      "  --search-steps N     binary search steps (default 8)\n"
	      "  --latency-at PCT     after --search, latency trial at PCT% "
	      "of the found rate\n"
	      "  --rx-mode MODE       poll (default) or interrupt: sleep in "
	      "epoll on the\n"
	      "                       rx queue's interrupt when it is empty "
	      "(with --rr,\n"
	      "                       --reflect or --rx-only)\n"
	      "  --rr[=N]             request/response: N requests in flight "
	      "(default 1),\n"
	      "                       each sent when its response arrives; "
	      "reports\n"
	      "                       transactions/s and round-trip latency\n"
	      "  --rr-timeout-ms MS   re-send a request unanswered after MS ms "
	      "(default 100)\n"
	      "  --reflect            send every vswgen frame received back to "
	      "its sender\n"
	      "  --pairs              with 2N ports: port 2k sends to port "
	      "2k+1, all at once\n"
	      "                       (--rate is the total; --count is per "
	      "pair)\n"
	      "  --lean               throughput only: frames prebuilt once, "
	      "received frames\n"
	      "                       counted, not read (no latency, reorder "
	      "or duplicates)\n"
	      "  --tcp MSS            a TCP/IPv4 stream (implies --lean): "
	      "--size up to 65407;\n"
	      "                       a frame of more than MSS + 54 bytes "
	      "is a TSO\n"
	      "                       super-frame cut at MSS by the port "
	      "(exit 3 if it\n"
	      "                       offers no TSO), others plain segments "
	      "with checksums;\n"
	      "                       the rx port asks for LRO where "
	      "offered; reports TCP\n"
	      "                       payload Gbit/s\n"
	      "  --no-lro             with --tcp: the rx port asks for no "
	      "LRO\n"
	      "  --rx-queues N        poll up to N rx queues per port "
	      "(default 1; a switch\n"
	      "                       sending on a queue per thread, as "
	      "OVS does, needs 2;\n"
	      "                       vsw spreads flows over all of a "
	      "port's queues when it\n"
	      "                       has more than vsw has workers)\n"
	      "  --vxlan PORT,MY_IP,PEER_IP,VNI\n"
	      "                       PORT is an underlay to a VTEP at "
	      "PEER_IP: vswgen asks\n"
	      "                       its MAC with ARP, then sends every "
	      "frame there in\n"
	      "                       VXLAN from MY_IP (--size is the inner "
	      "frame; + 50)\n",
	      f);
}

static int bad(const char *opt, const char *arg, const char *what)
{
	fprintf(stderr, "vswgen: --%s \"%s\": expected %s\n", opt, arg, what);
	return -1;
}

/* Unsigned integer in [min, max], decimal or 0x hex. */
static int parse_u64(const char *opt, const char *arg, uint64_t min,
		     uint64_t max, const char *what, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (arg[0] == '\0' || arg[0] == '-')
		return bad(opt, arg, what);
	v = strtoull(arg, &end, 0);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return bad(opt, arg, what);
	*out = v;
	return 0;
}

static int parse_u32(const char *opt, const char *arg, uint32_t min,
		     uint32_t max, const char *what, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(opt, arg, min, max, what, &v) < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_double(const char *opt, const char *arg, double min,
			double max, const char *what, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (arg[0] == '\0' || errno != 0 || *end != '\0' || !isfinite(v) ||
	    v < min || v > max)
		return bad(opt, arg, what);
	*out = v;
	return 0;
}

static int parse_port(const char *opt, const char *arg, int *out)
{
	uint64_t v;

	if (strcmp(arg, "none") == 0) {
		*out = GEN_PORT_NONE;
		return 0;
	}
	if (parse_u64(opt, arg, 0, RTE_MAX_ETHPORTS - 1,
		      "a port id or \"none\"", &v) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_mac(const char *opt, const char *arg,
		     struct rte_ether_addr *mac)
{
	if (rte_ether_unformat_addr(arg, mac) < 0)
		return bad(opt, arg, "a MAC address like 02:00:00:00:00:01");
	return 0;
}

static void set_defaults(struct gen_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tx_port = GEN_PORT_DEFAULT;
	o->rx_port = GEN_PORT_DEFAULT;
	memset(&o->dst_mac, 0xff, sizeof(o->dst_mac));
	o->macs = 1;
	o->vlan = -1;
	o->size = 64;
	o->mbuf_size = RTE_MBUF_DEFAULT_BUF_SIZE;
	o->duration = 5;
	o->burst = 32;
	o->drain_ms = 300;
	o->vx_port = -1;
	o->rx_queues = 1;
	o->link_wait = 10;
	o->search_trial = 2;
	o->search_steps = 8;
	o->rr_timeout_ms = 100;
}

/* Options taking no value, and the ports and MACs. */
static int parse_flag_or_addr(int c, const char *arg, struct gen_opts *o)
{
	switch (c) {
	case OPT_TX_PORT:
		return parse_port("tx-port", arg, &o->tx_port);
	case OPT_RX_PORT:
		return parse_port("rx-port", arg, &o->rx_port);
	case OPT_SRC_MAC:
		o->src_mac_set = true;
		return parse_mac("src-mac", arg, &o->src_mac);
	case OPT_DST_MAC:
		o->dst_mac_set = true;
		return parse_mac("dst-mac", arg, &o->dst_mac);
	case OPT_RX_ONLY:
		o->rx_only = true;
		return 0;
	case OPT_JSON:
		o->json = true;
		return 0;
	case OPT_QUIET:
		o->quiet = true;
		return 0;
	case OPT_PAIRS:
		o->pairs = true;
		return 0;
	case OPT_LEAN:
		o->lean = true;
		return 0;
	case OPT_SEARCH:
		o->search = true;
		return 0;
	case OPT_VERIFY:
		o->verify = true;
		return 0;
	case OPT_REFLECT:
		o->reflect = true;
		return 0;
	case OPT_NO_LRO:
		o->tcp_no_lro = true;
		return 0;
	case OPT_VXLAN:
		return gen_parse_vxlan(arg, o);
	case OPT_RX_MODE:
		if (strcmp(arg, "poll") != 0 && strcmp(arg, "interrupt") != 0)
			return bad("rx-mode", arg, "poll or interrupt");
		o->rx_intr = strcmp(arg, "interrupt") == 0;
		return 0;
	}
	return 1; /* not mine */
}

/* Options taking an integer. */
static int parse_int_opt(int c, const char *arg, struct gen_opts *o)
{
	uint32_t v;

	switch (c) {
	case OPT_RX_QUEUES:
		return parse_u32("rx-queues", arg, 1, 8,
				 "a number of rx queues, 1..8", &o->rx_queues);
	case OPT_MACS:
		return parse_u32("macs", arg, 1, 1u << 24,
				 "a number of MACs, 1..16777216", &o->macs);
	case OPT_VLAN:
		if (parse_u32("vlan", arg, 0, 4095, "a VLAN id, 0..4095", &v))
			return -1;
		o->vlan = (int)v;
		return 0;
	case OPT_SIZE: /* up to GEN_MAX_SIZE without --tcp: checked later */
		return parse_u32("size", arg, GEN_MIN_SIZE, GEN_TCP_MAX_SIZE,
				 "a frame size in bytes, 60..9018 (with --tcp "
				 "up to 65407)",
				 &o->size);
	case OPT_TCP:
		return parse_u32("tcp", arg, 88, 9000 - 40,
				 "a TCP segment size (MSS) in bytes, 88..8960",
				 &o->tcp_mss);
	case OPT_MBUF_SIZE:
		return parse_u32("mbuf-size", arg, GEN_MIN_MBUF_SIZE,
				 UINT16_MAX,
				 "an mbuf data room in bytes, 256..65535",
				 &o->mbuf_size);
	case OPT_TEST_CORRUPT:
		return parse_u32("test-corrupt", arg, 1, UINT32_MAX,
				 "a number of frames, 1..4294967295",
				 &o->test_corrupt);
	case OPT_RATE:
		return parse_u64("rate", arg, 0, 1000000000ull,
				 "a number of packets per second", &o->rate);
	case OPT_COUNT:
		return parse_u64("count", arg, 0, UINT64_MAX / 2,
				 "a number of packets", &o->count);
	case OPT_BURST:
		return parse_u32("burst", arg, 1, GEN_MAX_BURST,
				 "a burst size, 1..512", &o->burst);
	case OPT_ANNOUNCE:
		return parse_u32("announce", arg, 0, 1u << 24,
				 "a number of frames", &o->announce);
	case OPT_DRAIN_MS:
		return parse_u32("drain-ms", arg, 0, 3600000,
				 "a number of milliseconds", &o->drain_ms);
	case OPT_POLL_SLEEP:
		return parse_u32("poll-sleep-us", arg, 0, 1000000,
				 "a number of microseconds, 0..1000000",
				 &o->poll_sleep_us);
	case OPT_RR:
		if (arg == NULL) {
			o->rr = 1;
			return 0;
		}
		return parse_u32("rr", arg, 1, GEN_MAX_BURST,
				 "a window of requests in flight, 1..512",
				 &o->rr);
	case OPT_RR_TIMEOUT:
		return parse_u32("rr-timeout-ms", arg, 1, 60000,
				 "a number of milliseconds, 1..60000",
				 &o->rr_timeout_ms);
	case OPT_SEARCH_STEPS:
		return parse_u32("search-steps", arg, 1, 64,
				 "a number of steps, 1..64", &o->search_steps);
	}
	return 1;
}

/* Options taking a decimal number. */
static int parse_real_opt(int c, const char *arg, struct gen_opts *o)
{
	switch (c) {
	case OPT_DURATION:
		return parse_double("duration", arg, 0.001, 86400 * 365,
				    "a number of seconds", &o->duration);
	case OPT_LINK_WAIT:
		return parse_double("link-wait", arg, 0, 3600,
				    "a number of seconds", &o->link_wait);
	case OPT_SEARCH_TRIAL:
		return parse_double("search-trial", arg, 0.01, 3600,
				    "a number of seconds", &o->search_trial);
	case OPT_LOSS_TOL:
		return parse_double("loss-tolerance", arg, 0, 100,
				    "a loss percentage, 0..100", &o->loss_tol);
	case OPT_LATENCY_AT:
		return parse_double("latency-at", arg, 0.001, 100,
				    "a percentage of the zero-loss rate, "
				    "0..100",
				    &o->latency_at);
	}
	return 1;
}

/* --rr, --reflect and --rx-mode interrupt. */
static int check_rr_combinations(const struct gen_opts *o)
{
	if (o->rr > 0 && o->reflect) {
		fprintf(stderr, "vswgen: --rr and --reflect exclude each other "
				"(run a second vswgen to reflect)\n");
		return -1;
	}
	if ((o->rr > 0 || o->reflect) &&
	    (o->search || o->rx_only || o->tx_port == GEN_PORT_NONE ||
	     o->rx_port == GEN_PORT_NONE)) {
		fprintf(stderr,
			"vswgen: --%s needs a tx and an rx port and "
			"excludes --search and --rx-only\n",
			o->rr > 0 ? "rr" : "reflect");
		return -1;
	}
	if (o->rx_intr && o->rr == 0 && !o->reflect && !o->rx_only &&
	    o->tx_port != GEN_PORT_NONE) {
		fprintf(stderr, "vswgen: --rx-mode interrupt needs --rr, "
				"--reflect, --rx-only or --tx-port none\n");
		return -1;
	}
	if (o->rx_intr && o->rx_port == GEN_PORT_NONE) {
		fprintf(stderr,
			"vswgen: --rx-mode interrupt needs an rx port\n");
		return -1;
	}
	return 0;
}

/* --pairs and --lean. */
static int check_pairs_lean(const struct gen_opts *o)
{
	if (o->pairs &&
	    (o->tx_port != GEN_PORT_DEFAULT || o->rx_port != GEN_PORT_DEFAULT ||
	     o->src_mac_set || o->dst_mac_set || o->macs > 1 || o->rx_only ||
	     o->rr > 0 || o->reflect || o->rx_intr)) {
		fprintf(stderr,
			"vswgen: --pairs sets the ports and MACs itself: it "
			"excludes --tx-port, --rx-port, --src-mac, --dst-mac, "
			"--macs, --rx-only, --rr, --reflect and --rx-mode "
			"interrupt\n");
		return -1;
	}
	if (o->lean && (o->verify || o->rr > 0 || o->reflect || o->rx_intr ||
			o->latency_at > 0 ||
			(o->size + RTE_PKTMBUF_HEADROOM > o->mbuf_size &&
			 o->tcp_mss == 0))) {
		fprintf(stderr,
			"vswgen: --lean sends one prebuilt frame that fits one "
			"mbuf and measures no latency: it excludes --verify, "
			"--rr, --reflect, --rx-mode interrupt, "
			"--latency-at and chained --size\n");
		return -1;
	}
	return 0;
}

/* --tcp: a lean stream of untagged TCP/IPv4 frames. */
static int check_tcp(struct gen_opts *o)
{
	if (o->tcp_mss == 0) {
		if (o->size > GEN_MAX_SIZE) {
			fprintf(stderr,
				"vswgen: --size %u: expected a frame "
				"size in bytes, 60..9018 (up to 65407 "
				"with --tcp)\n",
				o->size);
			return -1;
		}
		if (o->tcp_no_lro) {
			fprintf(stderr, "vswgen: --no-lro needs --tcp\n");
			return -1;
		}
		return 0;
	}
	if (o->verify || o->rr > 0 || o->reflect || o->rx_intr ||
	    o->latency_at > 0 || o->vlan >= 0 || o->size < GEN_TCP_HDRS + 1) {
		fprintf(stderr,
			"vswgen: --tcp sends an untagged stream of frames of "
			"at least 55 bytes, lean: it excludes --verify, --rr, "
			"--reflect, --rx-mode interrupt, --latency-at and "
			"--vlan\n");
		return -1;
	}
	o->lean = true;
	return 0;
}

static int check_combinations(struct gen_opts *o)
{
	if (check_tcp(o) < 0)
		return -1;
	if (o->rx_queues > 1 && (o->rr > 0 || o->reflect || o->rx_intr)) {
		fprintf(stderr, "vswgen: --rx-queues excludes --rr, --reflect "
				"and --rx-mode interrupt\n");
		return -1;
	}
	if (o->vx_port >= 0 &&
	    (o->verify || o->rr > 0 || o->reflect || o->rx_intr ||
	     o->tcp_mss > 0 || o->vlan >= 0 || o->pairs)) {
		fprintf(stderr, "vswgen: --vxlan excludes --verify, --rr, "
				"--reflect, --rx-mode interrupt, --tcp, --vlan "
				"and --pairs\n");
		return -1;
	}
	if (o->test_corrupt > 0 && !o->verify) {
		fprintf(stderr, "vswgen: --test-corrupt needs --verify\n");
		return -1;
	}
	if (o->latency_at > 0 && !o->search) {
		fprintf(stderr, "vswgen: --latency-at needs --search\n");
		return -1;
	}
	if (o->search && (o->rx_only || o->tx_port == GEN_PORT_NONE ||
			  o->rx_port == GEN_PORT_NONE)) {
		fprintf(stderr, "vswgen: --search needs a tx and an rx port\n");
		return -1;
	}
	if (check_pairs_lean(o) < 0)
		return -1;
	return check_rr_combinations(o);
}

/*
 * Parse argv (argv[0] is the program name, the rest the options after
 * "--"). Returns 0, 1 when --help was printed, -1 on a usage error.
 */
int gen_parse_opts(int argc, char **argv, struct gen_opts *o)
{
	int c, rc;

	set_defaults(o);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		if (c == OPT_HELP || c == 'h') {
			gen_usage(stdout);
			return 1;
		}
		if (c == '?' || c == ':') {
			fprintf(stderr,
				"vswgen: bad option \"%s\" (see --help)\n",
				argv[optind - 1]);
			return -1;
		}
		/* --rr N as well as --rr=N and a bare --rr */
		if (c == OPT_RR && optarg == NULL && optind < argc &&
		    argv[optind][0] >= '0' && argv[optind][0] <= '9')
			optarg = argv[optind++];
		rc = parse_flag_or_addr(c, optarg, o);
		if (rc > 0)
			rc = parse_int_opt(c, optarg, o);
		if (rc > 0)
			rc = parse_real_opt(c, optarg, o);
		if (rc != 0)
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "vswgen: unexpected argument \"%s\"\n",
			argv[optind]);
		return -1;
	}
	return check_combinations(o);
}
