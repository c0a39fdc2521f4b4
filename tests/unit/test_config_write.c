/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit test for config/write.c: what vsw_config_write prints,
 * vsw_config_load reads back to the same struct (memcmp after init, the
 * file name aside).  Round trips: the switch defaults with no port, the
 * embedded default, a file giving every key of the key table a value
 * other than its default (generated from the table, so a key added later
 * is covered with no change here) and edge values (lcore 0, MAC
 * 00:00:00:00:00:00, VLAN 0, ';' in devargs); then [fdb] parsing and its
 * messages, the state overlay and the state path.  No EAL.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/vsw_config.h"
#include "config/vsw_keys.h"
#include "vsw_test.h"

static struct vsw_config a, b;
static char err[VSW_ERR_MAX];
static char path[] = "/tmp/vsw_cfgw_XXXXXX";

static void put_file(const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0)
		abort();
}

/* @cfg as text (malloc'd); NULL when the writer fails. */
static char *written(const struct vsw_config *cfg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (f == NULL)
		abort();
	rc = vsw_config_write(cfg, f, err, sizeof(err));
	fclose(f);
	if (rc == 0)
		return buf;
	free(buf);
	return NULL;
}

/* Write @cfg, load it back into b, compare: true when identical. */
static bool round_trip(const struct vsw_config *cfg)
{
	char *text = written(cfg), *again;
	bool same;

	if (text == NULL) {
		fprintf(stderr, "  write: %s\n", err);
		return false;
	}
	put_file(text);
	if (vsw_config_load_state(path, &b, err, sizeof(err)) < 0) {
		fprintf(stderr, "  load: %s\n----\n%s----\n", err, text);
		free(text);
		return false;
	}
	memcpy(b.source, cfg->source, sizeof(b.source));
	same = memcmp(cfg, &b, sizeof(b)) == 0;
	if (!same) {
		again = written(&b);
		fprintf(stderr,
			"  differs:\n---- written\n%s---- read back\n%s", text,
			again ? again : "?");
		free(again);
	}
	free(text);
	return same;
}

/* Load @text into a; 0 or the error. */
static int load_text(const char *text)
{
	put_file(text);
	return vsw_config_load(path, &a, err, sizeof(err));
}

static void test_defaults(void)
{
	char *text;

	vsw_config_init(&a);
	CHECK(round_trip(&a));
	text = written(&a);
	CHECK(text != NULL && strcmp(text, "[switch]\n") == 0);
	free(text);
	vsw_config_default(&a, NULL);
	CHECK(round_trip(&a));
	vsw_config_default(&a, "/tmp/vsw run dir/");
	CHECK(round_trip(&a));
	text = written(&a);
	CHECK(text != NULL &&
	      strstr(text, "[port vm0]\ntype = vhost-user\n"
			   "path = /tmp/vsw run dir/vm0.sock\nqueues = 16\n") !=
		      NULL);
	free(text);
}

/* Values with rules beyond their kind's (an account that exists, paths,
 * KEY=VALUE lists), by key name. */
static const char *const special[][2] = {
	{"socket-owner", "0"},
	{"socket-group", "0"},
	{"socket-dirs", "/tmp/vsw-w/d1 /tmp/vsw-w/d2"},
	{"socket-watch-dir", "/tmp/vsw-w/watch"},
	{"socket-watch-profile", "queues=2,mtu=2000"},
	{"ovsdb", "unix:/run/openvswitch/db.sock"},
	{"metrics-listen", "[::1]:9417"},
	{"external-ids", "iface-id=a1 attached-mac=02:00:00:00:00:01"},
};

/* A value of @k other than its default, as a file would give it. */
static void other_value(const struct vsw_key *k, char *v, size_t len)
{
	const char *d = k->dflt ? k->dflt : "";
	const struct vsw_key_choice *c;

	for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		if (strcmp(k->name, special[i][0]) == 0) {
			snprintf(v, len, "%s", special[i][1]);
			return;
		}

	switch (k->kind) {
	case VSW_KIND_UINT:
		snprintf(v, len, "%u",
			 strcmp(d, "") != 0 && (unsigned)atoi(d) == k->max
				 ? k->min
				 : k->max);
		break;
	case VSW_KIND_CHOICE: /* the last word that is not the default */
		for (c = k->choices; c->word != NULL; c++)
			if (strcmp(c->word, d) != 0)
				snprintf(v, len, "%s", c->word);
		break;
	case VSW_KIND_PATH:
		snprintf(v, len, "/tmp/vsw-w/%s", k->name);
		break;
	case VSW_KIND_STRING:
		if (k->charset == NULL) /* ';' as the file writes it */
			snprintf(v, len, "net_null0,a=b\\;c,%s", k->name);
		else
			snprintf(v, len, "%c%c%c", k->charset[1], k->charset[0],
				 k->charset[2]);
		break;
	case VSW_KIND_OCTAL:
		snprintf(v, len, "0%o", k->max);
		break;
	case VSW_KIND_LCORES:
		snprintf(v, len, "0,3");
		break;
	case VSW_KIND_MACS:
		snprintf(v, len, "00:00:00:00:00:00 02:00:00:00:00:0A");
		break;
	case VSW_KIND_VLANS:
		snprintf(v, len, "0,10,20-30, 4094");
		break;
	case VSW_KIND_IPS:
		snprintf(v, len, "0.0.0.0/0 2001:db8::1/64 10.0.0.5");
		break;
	}
}

/* A key only a vhost-user server port takes (not with mode = client). */
static bool server_only(const struct vsw_key *k)
{
	return k->sect == VSW_SECT_PORT && strncmp(k->name, "socket-", 7) == 0;
}

/*
 * Every key of @sect that a @ports port takes, with other_value; @server:
 * the socket-* keys of a server port instead of the others.
 */
static void every_key(FILE *f, enum vsw_key_sect sect, unsigned int ports,
		      bool server)
{
	char v[256];

	for (size_t i = 0; i < vsw_n_keys; i++) {
		const struct vsw_key *k = &vsw_keys[i];

		if (k->sect != sect || k->alias_of != NULL || k->deprecated ||
		    (sect == VSW_SECT_PORT && !(k->ports & ports)) ||
		    strcmp(k->name, "type") == 0 ||
		    (ports == VSW_KEY_VHOST && server != server_only(k)))
			continue;
		other_value(k, v, sizeof(v));
		fprintf(f, "%s = %s\n", k->name, v);
	}
}

/* Is every key of @sect for @ports written as "KEY = " in @text? */
static bool all_written(const char *text, enum vsw_key_sect sect,
			unsigned int ports)
{
	bool ok = true;

	for (size_t i = 0; i < vsw_n_keys; i++) {
		const struct vsw_key *k = &vsw_keys[i];
		char line[80];

		if (k->sect != sect || k->alias_of != NULL || k->deprecated ||
		    (sect == VSW_SECT_PORT && !(k->ports & ports)))
			continue;
		snprintf(line, sizeof(line), "\n%s = ", k->name);
		if (strstr(text, line) == NULL) {
			fprintf(stderr, "  key %s not written\n", k->name);
			ok = false;
		}
	}
	return ok;
}

static void test_every_key(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fprintf(f, "[switch]\n");
	every_key(f, VSW_SECT_SWITCH, 0, false);
	fprintf(f, "[port vh]\ntype = vhost-user\n");
	every_key(f, VSW_SECT_PORT, VSW_KEY_VHOST, false);
	fprintf(f, "[port eth]\ntype = ethdev\n");
	every_key(f, VSW_SECT_PORT, VSW_KEY_ETHDEV, false);
	fprintf(f, "[port srv]\ntype = vhost-user\n");
	every_key(f, VSW_SECT_PORT, VSW_KEY_VHOST, true);
	fprintf(f, "[fdb]\n02:00:00:00:00:01 = vh\n"
		   "02:00:00:00:00:02@4095 = eth\n00:00:00:00:00:03@0 = eth\n");
	fclose(f);
	CHECK(load_text(text) == 0);
	if (err[0] != '\0' && a.n_ports == 0)
		fprintf(stderr, "  %s\n----\n%s", err, text);
	free(text);
	CHECK(a.n_ports == 3 && a.n_fdb == 3 && a.ports[0].n_lcores == 2 &&
	      a.ports[0].lcores[0] == 0 && a.ports[1].n_allowed == 2 &&
	      strchr(a.ports[1].devargs, ';') != NULL);
	CHECK(round_trip(&a));
	text = written(&a);
	CHECK(text != NULL && all_written(text, VSW_SECT_SWITCH, 0));
	CHECK(text != NULL && strstr(text, "[port vh]\n") != NULL &&
	      all_written(strstr(text, "[port vh]\n"), VSW_SECT_PORT,
			  VSW_KEY_VHOST)); /* vh and srv together */
	CHECK(text != NULL && strstr(text, "[port eth]\n") != NULL &&
	      all_written(strstr(text, "[port eth]\n"), VSW_SECT_PORT,
			  VSW_KEY_ETHDEV));
	CHECK(text != NULL && strstr(text, "\\;c,devargs\n") != NULL);
	CHECK(text != NULL &&
	      strstr(text, "[fdb]\n02:00:00:00:00:01 = vh\n"
			   "02:00:00:00:00:02@4095 = eth\n"
			   "00:00:00:00:00:03 = eth\n") != NULL);
	free(text);
}

/* Values a file may write in several ways come back the same. */
static void test_forms(void)
{
	CHECK(load_text("[switch]\nsocket-mode = 00660\nburst = 032\n"
			"[port a]\ntype = vhost-user\n"
			"allowed-ips = 10.1.2.3/8 ::ffff:1.2.3.4 "
			"2001:DB8:0:0::1\n"
			"trunks = 30-31 10 20,21\nvlan-mode = trunk\n"
			"[port b]\ntype = vhost-user\ntag = 5\n"
			"[port c]\ntype = ethdev\ndevargs = net_null1\n"
			"rxq = 3\nworkers = 1\nallowed-macs = any\n") == 0);
	CHECK(round_trip(&a));
}

/* A value INI cannot carry is an error naming section and key. */
static void test_write_errors(void)
{
	char *text;

	vsw_config_default(&a, NULL);
	snprintf(a.sw.socket_group, sizeof(a.sw.socket_group), " kvm");
	text = written(&a);
	CHECK(text == NULL);
	CHECK(strcmp(err, "cannot write [switch] socket-group = \" kvm\": an "
			  "INI value has no blank at either end and at most "
			  "255 characters") == 0);
	free(text);
	vsw_config_default(&a, NULL);
	a.ports[1].type = VSW_PORT_ETHDEV;
	memset(a.ports[1].devargs, ';', 200);
	text = written(&a);
	CHECK(text == NULL &&
	      strstr(err, "cannot write [port vm1] devargs") == err);
	free(text);
}

#define PORTS "[port a]\ntype = vhost-user\n[port b]\ntype = vhost-user\n"

/* FILE: [fdb] KEY = "VALUE": expected @what */
static bool fdb_fails(const char *text, const char *what)
{
	char want[VSW_ERR_MAX + 64];

	snprintf(want, sizeof(want), "%s: [fdb] %s", path, what);
	if (load_text(text) == -EINVAL && strcmp(err, want) == 0)
		return true;
	fprintf(stderr, "  got  %s\n  want %s\n", err, want);
	return false;
}

#define BAD_KEY                                                                \
	"\": expected a key MAC or MAC@VLAN (a unicast MAC "                   \
	"aa:bb:cc:dd:ee:ff, VLAN 0..4095)"

static void test_fdb_section(void)
{
	CHECK(load_text(PORTS "[fdb]\n02:00:00:00:00:0a@7 = b\n"
			      "02:00:00:00:00:0A = a\n") == 0);
	CHECK(a.n_fdb == 2 && a.fdb[0].vlan == 7 && a.fdb[0].mac[5] == 10 &&
	      strcmp(a.fdb[0].port, "b") == 0 && a.fdb[1].vlan == 0 &&
	      strcmp(a.fdb[1].port, "a") == 0);
	CHECK(fdb_fails(PORTS "[fdb]\n01:00:00:00:00:01 = a\n",
			"01:00:00:00:00:01 = \"a" BAD_KEY));
	CHECK(fdb_fails(PORTS "[fdb]\n02:00:00:00:00:01@4096 = a\n",
			"02:00:00:00:00:01@4096 = \"a" BAD_KEY));
	CHECK(fdb_fails(PORTS "[fdb]\n02:00:00:00:00:01@ = a\n",
			"02:00:00:00:00:01@ = \"a" BAD_KEY));
	CHECK(fdb_fails(PORTS "[fdb]\n02:00:00:00:01 = a\n",
			"02:00:00:00:01 = \"a" BAD_KEY));
	CHECK(fdb_fails(PORTS "[fdb]\n02:00:00:00:00:01 = a-b\n",
			"02:00:00:00:00:01 = \"a-b\": expected a port name of "
			"1..31 characters of [A-Za-z0-9_] (telemetry keys "
			"allow no others)"));
	CHECK(fdb_fails(PORTS "[fdb]\n02:00:00:00:00:01@3 = a\n"
			      "02:00:00:00:00:01@3 = b\n",
			"02:00:00:00:00:01@3 = \"b\": expected each MAC and "
			"VLAN once"));
	CHECK(fdb_fails(PORTS "[fdb]\n02:00:00:00:00:01@3 = c\n",
			"02:00:00:00:00:01@3 = \"c\": expected the name of a "
			"port of the config (no [port c] section)"));
}

/* The state over the config: runtime keys, ports and [fdb] from it. */
static void test_overlay(void)
{
	static struct vsw_config st;

	CHECK(load_text("[switch]\nrun-dir = /tmp/r\nfdb-size = 1024\n"
			"burst = 8\npoll-mode = adaptive\n" PORTS) == 0);
	put_file("[switch]\nrun-dir = /tmp/other\nfdb-size = 64\n"
		 "burst = 64\n[port c]\ntype = vhost-user\n[fdb]\n"
		 "02:00:00:00:00:01 = c\n");
	CHECK(vsw_config_load_state(path, &st, err, sizeof(err)) == 0);
	vsw_config_overlay(&a, &st);
	CHECK(strcmp(a.sw.run_dir, "/tmp/r") == 0 && a.sw.fdb_size == 1024);
	CHECK(a.sw.burst == 64 && a.sw.poll_mode == VSW_POLL_BUSY);
	CHECK(a.n_ports == 1 && strcmp(a.ports[0].name, "c") == 0 &&
	      strcmp(a.ports[0].path, "/tmp/other/c.sock") == 0);
	CHECK(a.n_fdb == 1 && strcmp(a.fdb[0].port, "c") == 0);
	put_file("[switch]\nburst = 64\n");
	CHECK(vsw_config_load_state(path, &st, err, sizeof(err)) == 0 &&
	      st.n_ports == 0);
	/* a config file without ports is an empty switch, as a state is */
	CHECK(vsw_config_load(path, &st, err, sizeof(err)) == 0 &&
	      st.n_ports == 0);
}

static void test_state_path(void)
{
	char p[VSW_PATH_MAX + 16];

	vsw_config_init(&a);
	vsw_config_state_path(&a.sw, p, sizeof(p));
	CHECK(strcmp(p, "/run/vsw/vsw.state") == 0);
	snprintf(a.sw.run_dir, sizeof(a.sw.run_dir), "/tmp/x/");
	vsw_config_state_path(&a.sw, p, sizeof(p));
	CHECK(strcmp(p, "/tmp/x/vsw.state") == 0);
	snprintf(a.sw.state_file, sizeof(a.sw.state_file), "/var/lib/v.st");
	vsw_config_state_path(&a.sw, p, sizeof(p));
	CHECK(strcmp(p, "/var/lib/v.st") == 0);
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	vsw_config_on_warning(NULL, NULL);
	RUN(test_defaults);
	RUN(test_every_key);
	RUN(test_forms);
	RUN(test_write_errors);
	RUN(test_fdb_section);
	RUN(test_overlay);
	RUN(test_state_path);
	unlink(path);
	return TEST_EXIT();
}
