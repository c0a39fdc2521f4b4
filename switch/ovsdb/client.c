/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The OVSDB client's thread: connect, monitor, answer the server's echo
 * probes, keep the replica, sync.  Its life:
 *
 *   down --connect--> monitoring --first reply--> synced --EOF/error--> down
 *
 * A full sync runs after each batch of updates (every change an
 * ovs-vsctl transaction makes arrives as one update), the statistics are
 * written every STATS_S seconds and link states checked every second.
 * Down, it retries 1, 2, 4, then every 8 seconds; vsw forwards all the
 * while with the ports it has, and the first sync after a reconnect makes
 * them what the database says by then.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <rte_lcore.h>

#include "common/log.h"
#include "control/control.h"
#include "ovsdb_priv.h"

#define STATS_S 5
#define BACKOFF_MAX_S 8
#define MONITOR_ID "vsw"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void set_error(struct vsw_ovsdb *o, const char *fmt, const char *a,
		      const char *b)
{
	char msg[3 * VSW_PATH_MAX]; /* the address and a reason fit whole */
	size_t n;

	snprintf(msg, sizeof(msg), fmt, a, b);
	/* what `info` shows: cut to its field */
	n = strnlen(msg, sizeof(o->st.last_error) - 1);
	msg[n] = '\0';
	pthread_mutex_lock(&o->lock);
	if (strcmp(msg, o->st.last_error) != 0)
		VSW_LOG(WARNING, "ovsdb: %s", msg);
	memcpy(o->st.last_error, msg, n + 1);
	pthread_mutex_unlock(&o->lock);
}

static void set_conn(struct vsw_ovsdb *o, bool connected, bool synced)
{
	pthread_mutex_lock(&o->lock);
	o->st.connected = connected;
	o->st.synced = synced;
	if (connected && !synced)
		o->st.connects++;
	pthread_mutex_unlock(&o->lock);
}

/* One message from the server. */
static int on_msg(json_t *m, void *arg)
{
	struct vsw_ovsdb *o = arg;
	const char *method = json_string_value(json_object_get(m, "method"));
	json_t *id = json_object_get(m, "id"), *params;

	if (method != NULL && strcmp(method, "echo") == 0) /* liveness probe */
		return rpc_send(&o->rpc, json_pack("{s:O, s:n, s:O}", "result",
						   json_object_get(m, "params"),
						   "error", "id", id));
	if (method != NULL && strcmp(method, "update") == 0) {
		params = json_object_get(m, "params");
		if (o->replica == NULL ||
		    db_apply_update(o->replica, json_array_get(params, 1)) < 0)
			return -EPROTO;
		o->dirty = true;
		return 0;
	}
	if (method != NULL)
		return 0; /* a request we do not serve: ignored, as RFC says */
	if (json_is_string(id) &&
	    strcmp(json_string_value(id), MONITOR_ID) == 0) {
		json_t *res = json_object_get(m, "result");

		if (!json_is_object(res)) {
			char *e = json_dumps(json_object_get(m, "error"),
					     JSON_COMPACT | JSON_ENCODE_ANY);

			set_error(o, "monitor refused: %s%s", e ? e : "?", "");
			free(e);
			return -EPROTO;
		}
		json_decref(o->replica);
		o->replica = json_object();
		if (db_apply_update(o->replica, res) < 0)
			return -EPROTO;
		json_object_clear(o->written);
		o->cur_cfg = -1;
		o->dirty = true;
		set_conn(o, true, true);
		pthread_mutex_lock(&o->lock);
		o->st.last_error[0] = '\0'; /* the server answers again */
		pthread_mutex_unlock(&o->lock);
		VSW_LOG(INFO, "ovsdb: synchronising with the database");
		return 0;
	}
	/* a transaction's reply: errors are logged, and everything is
	 * written again at the next sync (a row may have gone meanwhile) */
	json_t *res = json_object_get(m, "result"), *r;
	size_t i;

	json_array_foreach (res, i, r) {
		const char *e = json_string_value(json_object_get(r, "error"));

		if (e != NULL) {
			const char *d = json_string_value(
				json_object_get(r, "details"));

			set_error(o, "write-back refused: %s: %s", e,
				  d ? d : "");
			json_object_clear(o->written);
			break;
		}
	}
	return 0;
}

static int start_monitor(struct vsw_ovsdb *o)
{
	return rpc_send(&o->rpc,
			json_pack("{s:s, s:[s,s,o], s:s}", "method", "monitor",
				  "params", "Open_vSwitch", MONITOR_ID,
				  db_monitor_request(), "id", MONITOR_ID));
}

/* Wait up to @ms for the socket or the stop event; true: stop. */
static bool wait_io(struct vsw_ovsdb *o, int ms, bool *readable)
{
	struct pollfd p[2] = {{.fd = o->stop_fd, .events = POLLIN},
			      {.fd = o->rpc.fd, .events = POLLIN}};

	*readable = false;
	if (poll(p, o->rpc.fd >= 0 ? 2 : 1, ms) < 0)
		return false;
	*readable = o->rpc.fd >= 0 &&
		    (p[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0;
	return (p[0].revents & POLLIN) != 0;
}

/* Connected: monitor, then serve until the connection ends or stop. */
static bool serve(struct vsw_ovsdb *o)
{
	double next_stats = now_s() + STATS_S, next_links = now_s() + 1;
	bool readable;
	int rc = start_monitor(o);

	while (rc == 0) {
		if (wait_io(o, 250, &readable))
			return true;
		if (readable)
			rc = rpc_read(&o->rpc, on_msg, o);
		if (rc == 0 && o->replica != NULL && o->dirty) {
			o->dirty = false;
			rc = sync_run(o, SYNC_FULL);
		}
		if (rc == 0 && o->replica != NULL && now_s() >= next_stats) {
			next_stats = now_s() + STATS_S;
			next_links = now_s() + 1;
			rc = sync_run(o, SYNC_STATS);
		} else if (rc == 0 && o->replica != NULL &&
			   now_s() >= next_links) {
			next_links = now_s() + 1;
			rc = sync_run(o, SYNC_LINKS);
		}
	}
	set_error(o,
		  "connection to the database lost (%s)%s; vsw keeps "
		  "forwarding and reconnects",
		  o->rpc.err[0] ? o->rpc.err : strerror(-rc), "");
	o->rpc.err[0] = '\0';
	return false;
}

static uint32_t client_main(void *arg)
{
	struct vsw_ovsdb *o = arg;
	unsigned int backoff = 1;
	bool readable;
	int rc;

	for (;;) {
		rc = rpc_connect(&o->rpc, &o->at);
		if (rc == 0) {
			backoff = 1;
			set_conn(o, true, false);
			VSW_LOG(INFO, "ovsdb: connected to %s",
				o->ctl->cfg.sw.ovsdb);
			if (serve(o))
				break;
			rpc_close(&o->rpc);
			json_decref(o->replica);
			o->replica = NULL;
			set_conn(o, false, false);
		} else {
			set_error(o, "cannot connect to %s: %s",
				  o->ctl->cfg.sw.ovsdb, strerror(-rc));
		}
		if (wait_io(o, (int)backoff * 1000, &readable))
			break;
		backoff = backoff * 2 > BACKOFF_MAX_S ? BACKOFF_MAX_S
						      : backoff * 2;
	}
	rpc_close(&o->rpc);
	return 0;
}

/* OVS's run directory (that of a unix db socket; vsw's run-dir for
 * tcp), where dpdkvhostuser sockets go unless the database names a
 * subdirectory (other_config:vhost-sock-dir, sync.c). */
static void sock_dir(struct vsw_ovsdb *o)
{
	const char *slash = strrchr(o->at.path, '/');

	if (o->at.is_unix && slash != NULL && slash != o->at.path)
		snprintf(o->run_dir, sizeof(o->run_dir), "%.*s",
			 (int)(slash - o->at.path), o->at.path);
	else
		snprintf(o->run_dir, sizeof(o->run_dir), "%s",
			 o->ctl->cfg.sw.run_dir);
	snprintf(o->sock_dir, sizeof(o->sock_dir), "%s", o->run_dir);
	snprintf(o->st.sock_dir, sizeof(o->st.sock_dir), "%s", o->sock_dir);
}

int vsw_ovsdb_start(struct vsw_ctl *ctl, struct vsw_ovsdb **out, char *err,
		    size_t errlen)
{
	struct vsw_ovsdb *o = calloc(1, sizeof(*o));
	int rc;

	if (o == NULL)
		return -ENOMEM;
	o->ctl = ctl;
	o->rpc.fd = -1;
	o->cur_cfg = -1;
	pthread_mutex_init(&o->lock, NULL);
	if (vsw_ovsdb_remote_parse(ctl->cfg.sw.ovsdb, &o->at) < 0) {
		snprintf(err, errlen, "[switch] ovsdb = \"%s\": not an address",
			 ctl->cfg.sw.ovsdb);
		free(o);
		return -EINVAL;
	}
	sock_dir(o);
	o->written = json_object();
	o->errs = json_object();
	o->told = json_object();
	o->stop_fd = eventfd(0, EFD_CLOEXEC);
	rc = o->stop_fd < 0
		     ? -errno
		     : rte_ctrl_thread_create(&o->thread, "vsw-ovsdb", NULL,
					      (void *)client_main, o);
	if (rc != 0) {
		snprintf(err, errlen, "ovsdb: cannot start its thread: %s",
			 strerror(rc < 0 ? -rc : rc));
		if (o->stop_fd >= 0)
			close(o->stop_fd);
		json_decref(o->written);
		json_decref(o->errs);
		json_decref(o->told);
		free(o);
		return rc < 0 ? rc : -rc;
	}
	*out = o;
	return 0;
}

void vsw_ovsdb_stop(struct vsw_ovsdb *o)
{
	uint64_t one = 1;

	if (o == NULL)
		return;
	if (write(o->stop_fd, &one, sizeof(one)) < 0)
		VSW_LOG(WARNING, "ovsdb: cannot wake its thread");
	pthread_join(o->thread, NULL);
	close(o->stop_fd);
	rpc_free(&o->rpc);
	json_decref(o->replica);
	json_decref(o->written);
	json_decref(o->errs);
	json_decref(o->told);
	pthread_mutex_destroy(&o->lock);
	free(o);
}

void vsw_ovsdb_get_status(struct vsw_ovsdb *o, struct vsw_ovsdb_status *s)
{
	pthread_mutex_lock(&o->lock);
	*s = o->st;
	pthread_mutex_unlock(&o->lock);
}
