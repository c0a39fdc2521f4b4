/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Telemetry parameter parsing (no EAL): the hygiene check (control
 * characters, bytes >= 0x80, over-long strings are refused, never cut),
 * and every command shape with good and bad input.
 */
#include <string.h>

#include "api/ctl_args.h"
#include "datapath/fdb.h"
#include "vsw_test.h"

static char err[512];

static int parse(const char *cmd, const char *params, struct vsw_args *a)
{
	const struct vsw_args_cmd *c = vsw_args_find(cmd);

	CHECK(c != NULL);
	if (c == NULL)
		return -1;
	return vsw_args_parse(c, params, a, err, sizeof(err));
}

static void test_hygiene(void)
{
	struct vsw_args a;
	char long_name[VSW_ARGS_MAX + 2];

	CHECK(parse("/vsw/port", "vm0", &a) == 0);
	CHECK(parse("/vsw/port", "vm0\n[fake log line]", &a) < 0);
	CHECK(strstr(err, "printable ASCII") != NULL);
	CHECK(strchr(err, '\n') == NULL);
	CHECK(parse("/vsw/port", "vm\xc3\xa9", &a) < 0);
	CHECK(strstr(err, "0xc3") != NULL);
	CHECK(parse("/vsw/port", "vm\x7f", &a) < 0);
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	CHECK(parse("/vsw/set", long_name, &a) < 0);
	CHECK(strstr(err, "longer than 255") != NULL);
	long_name[VSW_ARGS_MAX] = '\0'; /* exactly 255: accepted by check */
	CHECK(vsw_args_check(long_name, err, sizeof(err)) == 0);
	CHECK(vsw_args_check(NULL, err, sizeof(err)) == 0);
}

static void test_names(void)
{
	struct vsw_args a;

	CHECK(parse("/vsw/port", "vm_0", &a) == 0 &&
	      strcmp(a.name, "vm_0") == 0);
	CHECK(parse("/vsw/port", "", &a) < 0);
	CHECK(parse("/vsw/port", NULL, &a) < 0);
	CHECK(parse("/vsw/port", "bad-name", &a) < 0);
	CHECK(parse("/vsw/port", "a23456789012345678901234567890123", &a) < 0);
	CHECK(parse("/vsw/fdb/flush", "", &a) == 0 && !a.has_name);
	CHECK(parse("/vsw/fdb/flush", "vm1", &a) == 0 && a.has_name);
	CHECK(parse("/vsw/info", "", &a) == 0);
	CHECK(parse("/vsw/info", "x", &a) < 0);
	CHECK(strncmp(err, "/vsw/info: ", 11) == 0);
}

static void test_pages(void)
{
	struct vsw_args a;

	CHECK(parse("/vsw/fdb", NULL, &a) == 0 && a.n[0] == 0 && a.n[1] == 0);
	CHECK(parse("/vsw/fdb", "100,50", &a) == 0 && a.n[0] == 100 &&
	      a.n[1] == 50);
	CHECK(parse("/vsw/ports", "7", &a) == 0 && a.n[0] == 7);
	CHECK(parse("/vsw/ports", "1,2,3", &a) < 0);
	CHECK(parse("/vsw/ports", "-1", &a) < 0);
	CHECK(parse("/vsw/ports", "1x", &a) < 0);
	CHECK(parse("/vsw/ports", "99999999999999999999999", &a) < 0);
	CHECK(parse("/vsw/ports", ",5", &a) < 0);
}

static void test_kv_and_moves(void)
{
	struct vsw_args a;

	CHECK(parse("/vsw/port/add", "vm2,type=vhost-user,queues=2", &a) == 0);
	CHECK(strcmp(a.name, "vm2") == 0 &&
	      strcmp(a.rest, "type=vhost-user,queues=2") == 0);
	CHECK(parse("/vsw/port/add", "vm2", &a) < 0);
	CHECK(parse("/vsw/port/add", "vm2,", &a) < 0);
	CHECK(parse("/vsw/port/set", "vm2,max-macs=4", &a) == 0);
	CHECK(parse("/vsw/rxq/move", "vm0,1,0", &a) == 0 && a.n[0] == 1 &&
	      a.n[1] == 0);
	CHECK(parse("/vsw/rxq/move", "vm0,16,0", &a) < 0);
	CHECK(parse("/vsw/rxq/move", "vm0,1", &a) < 0);
	CHECK(parse("/vsw/rxq/move", "vm0,1,0,", &a) < 0);
	CHECK(parse("/vsw/set", "burst,64", &a) == 0 &&
	      strcmp(a.key, "burst") == 0 && strcmp(a.value, "64") == 0);
	CHECK(parse("/vsw/set", "burst", &a) < 0);
	CHECK(parse("/vsw/set", "bridge,", &a) == 0 && a.value[0] == '\0');
	CHECK(parse("/vsw/set", ",1", &a) < 0);
}

static void test_fdb(void)
{
	const uint8_t mac[6] = {0x02, 0, 0, 0, 0, 0xaa};
	struct vsw_args a;

	CHECK(parse("/vsw/fdb/add", "02:00:00:00:00:aa,vm0", &a) == 0);
	CHECK(a.fdb_key == vsw_fdb_key(mac, 0) && strcmp(a.name, "vm0") == 0);
	CHECK(parse("/vsw/fdb/add", "02:00:00:00:00:aa,vm0,vlan=10", &a) == 0);
	CHECK(a.fdb_key == vsw_fdb_key(mac, 10));
	CHECK(parse("/vsw/fdb/add", "02:00:00:00:00:aa,vm0,4096", &a) < 0);
	CHECK(parse("/vsw/fdb/add", "01:00:00:00:00:aa,vm0", &a) < 0);
	CHECK(parse("/vsw/fdb/add", "02:00:00:00:00:a,vm0", &a) < 0);
	CHECK(parse("/vsw/fdb/add", "02:00:00:00:00:aaa,vm0", &a) < 0);
	CHECK(parse("/vsw/fdb/add", "0x:00:00:00:00:aa,vm0", &a) < 0);
	CHECK(parse("/vsw/fdb/add", "02:00:00:00:00:aa", &a) < 0);
	CHECK(parse("/vsw/fdb/del", "02:00:00:00:00:aa,10", &a) == 0);
	CHECK(a.fdb_key == vsw_fdb_key(mac, 10));
	CHECK(parse("/vsw/fdb/del", "02:00:00:00:00:aa,10,1", &a) < 0);
}

static void test_capture(void)
{
	const char *cmd = "/vsw/capture/start";
	struct vsw_args a;

	CHECK(parse(cmd, "vm0,rx,100,2048,65535,/tmp/x.pcapng", &a) == 0);
	CHECK(strcmp(a.name, "vm0") == 0 && a.cap_dir == 1 &&
	      a.cap_count == 100 && a.cap_ring == 2048 &&
	      a.cap_snaplen == 65535 &&
	      strcmp(a.cap_file, "/tmp/x.pcapng") == 0 &&
	      a.cap_filter[0] == '\0');
	/* the filter is the rest, commas and spaces included */
	CHECK(parse(cmd, "vm0,both,0,8,64,/f,ether src 02:00:00:00:00:01, x",
		    &a) == 0);
	CHECK(a.cap_dir == 3 && a.cap_count == 0 && a.cap_ring == 8 &&
	      a.cap_snaplen == 64 && strcmp(a.cap_file, "/f") == 0 &&
	      strcmp(a.cap_filter, "ether src 02:00:00:00:00:01, x") == 0);
	CHECK(parse(cmd, "vm0,tx,1,8,64,/f,", &a) == 0 && a.cap_dir == 2 &&
	      a.cap_filter[0] == '\0');
	/* the file's own checks (absolute, new) are control's */
	CHECK(parse(cmd, "vm0,tx,1,8,64,rel", &a) == 0);
	CHECK(parse(cmd, "vm0,rx,1,8,64", &a) < 0);
	CHECK(strstr(err, "expected 6 or 7 parameters") != NULL);
	CHECK(parse(cmd, "", &a) < 0 && parse(cmd, NULL, &a) < 0);
	CHECK(parse(cmd, "bad-name,rx,1,8,64,/f", &a) < 0);
	CHECK(parse(cmd, "vm0,in,1,8,64,/f", &a) < 0);
	CHECK(strstr(err, "expected rx, tx or both") != NULL);
	CHECK(strncmp(err, "/vsw/capture/start,PORT,", 24) == 0);
	CHECK(parse(cmd, "vm0,rx,-1,8,64,/f", &a) < 0);
	CHECK(parse(cmd, "vm0,rx,4294967296,8,64,/f", &a) < 0);
	CHECK(parse(cmd, "vm0,rx,4294967295,8,64,/f", &a) == 0);
	CHECK(parse(cmd, "vm0,rx,1,7,64,/f", &a) < 0);
	CHECK(parse(cmd, "vm0,rx,1,65537,64,/f", &a) < 0);
	CHECK(strstr(err, "RING 8..65536") != NULL);
	CHECK(parse(cmd, "vm0,rx,1,65536,65535,/f", &a) == 0);
	CHECK(parse(cmd, "vm0,rx,1,8,63,/f", &a) < 0);
	CHECK(parse(cmd, "vm0,rx,1,8,65536,/f", &a) < 0);
	CHECK(parse(cmd, "vm0,rx,1,8,64,", &a) < 0);
	CHECK(strstr(err, "expected a FILE") != NULL);
	CHECK(parse("/vsw/capture/stop", "vm0", &a) == 0);
	CHECK(parse("/vsw/capture/stop", "", &a) < 0);
	CHECK(parse("/vsw/capture", "", &a) == 0 && !a.has_name);
	CHECK(parse("/vsw/capture", "vm0", &a) == 0 && a.has_name);
}

static void test_table(void)
{
	/* every registered command name is unique and has a parser */
	for (unsigned int i = 0; i < vsw_args_n_cmds; i++) {
		CHECK(vsw_args_cmds[i].parse != NULL);
		CHECK(vsw_args_find(vsw_args_cmds[i].name) ==
		      &vsw_args_cmds[i]);
	}
	CHECK(vsw_args_find("/vsw/nope") == NULL);
}

int main(void)
{
	RUN(test_hygiene);
	RUN(test_names);
	RUN(test_pages);
	RUN(test_kv_and_moves);
	RUN(test_fdb);
	RUN(test_capture);
	RUN(test_table);
	return TEST_EXIT();
}
