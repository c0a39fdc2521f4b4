/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Socket-directory watching ([switch] socket-watch-dir), as
 * networking-vpp's agent did it: a unix socket that appears in the
 * directory (QEMU's vhost-user server, libvirt's mode='server') is
 * plugged as a vhost-user CLIENT port named after the file, with the
 * keys of socket-watch-profile; when the file goes, so does the port.
 * The sockets present at start are plugged too.
 *
 * Calling context: the control loop, with ctl_lock held, once per pass
 * (every 100 ms at most): the inotify fd is non-blocking and read until
 * empty.  Ports are added and removed with vsw_ctl_port_add and
 * vsw_ctl_port_del, the functions behind /vsw/port/add and /vsw/port/del,
 * so a plugged port is checked, built and recorded exactly like one a
 * client adds.  Trade-off: a socket is plugged up to one pass after it
 * appears, in exchange for no thread and no lock of its own.
 *
 * Only ports it plugged are removed: the names are kept here, and a port
 * is removed only while its path is still the file that went.  At start,
 * client ports whose socket lies in the directory (restored state) are
 * taken as plugged.  A file whose port name is taken by another port,
 * whose path a port already uses, or whose name holds other characters
 * than [A-Za-z0-9_.-] (a ',' would add keys to the port-add list) is left
 * alone (logged).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control.h"

#define WATCH_EVENTS                                                           \
	(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM |                 \
	 IN_DELETE_SELF | IN_MOVE_SELF)

/* what a socket's file name may hold (it goes into a port-add list) */
#define FILE_CHARS                                                             \
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"

/* The port name of socket file @file: ".sock" dropped, [^A-Za-z0-9_] -> _,
 * at most 31 characters.  False when nothing is left. */
static bool sock_port_name(const char *file, char *name)
{
	size_t n = strlen(file);

	if (n > 5 && strcmp(file + n - 5, ".sock") == 0)
		n -= 5;
	if (n > VSW_PORT_NAME_MAX - 1)
		n = VSW_PORT_NAME_MAX - 1;
	for (size_t i = 0; i < n; i++) {
		char ch = file[i];

		name[i] = (ch >= 'a' && ch <= 'z') ||
					  (ch >= 'A' && ch <= 'Z') ||
					  (ch >= '0' && ch <= '9')
				  ? ch
				  : '_';
	}
	name[n] = '\0';
	return n > 0;
}

static bool sock_path(const struct vsw_watch *w, const char *file, char *path,
		      size_t len)
{
	size_t n = strlen(w->dir);

	/* socket-watch-dir may end in '/': no "//" (path_below refuses it) */
	return (size_t)snprintf(
		       path, len, "%.*s/%s",
		       (int)(n > 1 && w->dir[n - 1] == '/' ? n - 1 : n), w->dir,
		       file) < len;
}

static struct vsw_port *port_on_path(struct vsw_ctl *ctl, const char *path)
{
	for (int i = 0; i < VSW_MAX_PORTS; i++)
		if (ctl->ports[i] != NULL &&
		    ctl->ports[i]->type == VSW_PORT_VHOST &&
		    strcmp(ctl->ports[i]->conf.path, path) == 0)
			return ctl->ports[i];
	return NULL;
}

static void remember(struct vsw_watch *w, const char *name)
{
	for (int i = 0; i < VSW_MAX_PORTS; i++)
		if (w->plugged[i][0] == '\0') {
			snprintf(w->plugged[i], VSW_PORT_NAME_MAX, "%s", name);
			return;
		}
}

static int plugged_slot(const struct vsw_watch *w, const char *name)
{
	for (int i = 0; i < VSW_MAX_PORTS; i++)
		if (strcmp(w->plugged[i], name) == 0)
			return i;
	return -1;
}

/* A socket file appeared: plug it (unless a port has its path or name). */
static void plug(struct vsw_ctl *ctl, const char *file)
{
	struct vsw_watch *w = &ctl->watch;
	char path[VSW_PATH_MAX], name[VSW_PORT_NAME_MAX], kv[3 * VSW_PATH_MAX],
		err[VSW_ERR_MAX];
	const char *prof = ctl->cfg.sw.socket_watch_profile;
	struct stat st;

	if (!sock_path(w, file, path, sizeof(path)) || lstat(path, &st) < 0 ||
	    !S_ISSOCK(st.st_mode) || port_on_path(ctl, path) != NULL)
		return; /* gone already, not a socket, or a port's own */
	if (strspn(file, FILE_CHARS) != strlen(file)) {
		/* a ',' or '=' would add keys to the port-add list */
		VSW_LOG(WARNING,
			"watch: %s: file name not of [A-Za-z0-9_.-]; not "
			"plugged",
			path);
		return;
	}
	if (!sock_port_name(file, name)) {
		VSW_LOG(WARNING, "watch: %s: no port name in the file name",
			path);
		return;
	}
	if (vsw_ctl_port_by_name(ctl, name) != NULL) {
		VSW_LOG(WARNING,
			"watch: %s: port name %s taken by another port; not "
			"plugged",
			path, name);
		return;
	}
	snprintf(kv, sizeof(kv), "type=vhost-user,mode=client,path=%s%s%s",
		 path, prof[0] ? "," : "", prof);
	if (vsw_ctl_port_add(ctl, name, kv, err, sizeof(err)) < 0) {
		VSW_LOG(ERR, "watch: %s: cannot plug port %s: %s", path, name,
			err);
		return;
	}
	remember(w, name);
	VSW_LOG(INFO, "watch: %s appeared: port %s plugged (vhost-user client)",
		path, name);
}

/* Remove plugged port @slot if its path is @path (NULL: any). */
static void unplug_slot(struct vsw_ctl *ctl, int slot, const char *path)
{
	struct vsw_watch *w = &ctl->watch;
	struct vsw_port *p = vsw_ctl_port_by_name(ctl, w->plugged[slot]);
	char err[VSW_ERR_MAX];

	if (p != NULL && (path == NULL || strcmp(p->conf.path, path) == 0)) {
		if (vsw_ctl_port_del(ctl, w->plugged[slot], err, sizeof(err)) <
		    0) {
			VSW_LOG(ERR, "watch: cannot remove port %s: %s",
				w->plugged[slot], err);
			return;
		}
		VSW_LOG(INFO, "watch: socket of port %s went: port removed",
			w->plugged[slot]);
	} else if (p != NULL) {
		return; /* the name now belongs to another socket */
	}
	w->plugged[slot][0] = '\0';
}

static void unplug(struct vsw_ctl *ctl, const char *file)
{
	struct vsw_watch *w = &ctl->watch;
	char path[VSW_PATH_MAX], name[VSW_PORT_NAME_MAX];
	int slot;

	if (!sock_path(w, file, path, sizeof(path)) ||
	    !sock_port_name(file, name))
		return;
	slot = plugged_slot(w, name);
	if (slot >= 0)
		unplug_slot(ctl, slot, path);
}

/* Is @path a file directly in the watched directory? */
static bool in_dir(const struct vsw_watch *w, const char *path)
{
	size_t n = strlen(w->dir);

	return strncmp(path, w->dir, n) == 0 && path[n] == '/' &&
	       strchr(path + n + 1, '/') == NULL;
}

/*
 * Take client ports in the directory as plugged (restored state), drop
 * those whose socket is gone, plug every socket the directory holds.
 */
static void scan(struct vsw_ctl *ctl)
{
	struct vsw_watch *w = &ctl->watch;
	struct dirent *de;
	struct stat st;
	DIR *d;

	for (int i = 0; i < VSW_MAX_PORTS; i++) {
		struct vsw_port *p = ctl->ports[i];

		if (p != NULL && p->type == VSW_PORT_VHOST &&
		    p->conf.mode == VSW_VHOST_CLIENT &&
		    in_dir(w, p->conf.path) && plugged_slot(w, p->name) < 0)
			remember(w, p->name);
	}
	for (int i = 0; i < VSW_MAX_PORTS; i++) {
		struct vsw_port *p =
			w->plugged[i][0]
				? vsw_ctl_port_by_name(ctl, w->plugged[i])
				: NULL;

		if (p != NULL && lstat(p->conf.path, &st) < 0)
			unplug_slot(ctl, i, NULL);
		else if (p == NULL)
			w->plugged[i][0] = '\0';
	}
	d = opendir(w->dir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			plug(ctl, de->d_name);
	closedir(d);
}

void vsw_ctl_watch_init(struct vsw_ctl *ctl)
{
	struct vsw_watch *w = &ctl->watch;
	w->dir = ctl->cfg.sw.socket_watch_dir;
	if (w->dir[0] == '\0')
		return;
	if (mkdir(w->dir, 0755) < 0 && errno != EEXIST)
		VSW_LOG(ERR, "watch: cannot create %s: %s", w->dir,
			strerror(errno));
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->fd < 0 || inotify_add_watch(w->fd, w->dir, WATCH_EVENTS) < 0) {
		VSW_LOG(ERR, "watch: cannot watch %s: %s; no port is plugged",
			w->dir, strerror(errno));
		if (w->fd >= 0)
			close(w->fd);
		w->fd = -1;
		return;
	}
	VSW_LOG(INFO, "watch: plugging the sockets of %s", w->dir);
	pthread_mutex_lock(&ctl->ctl_lock);
	scan(ctl);
	pthread_mutex_unlock(&ctl->ctl_lock);
}

static void on_event(struct vsw_ctl *ctl, const struct inotify_event *ev)
{
	struct vsw_watch *w = &ctl->watch;
	if (ev->mask & IN_Q_OVERFLOW) {
		scan(ctl); /* events lost: look at the directory itself */
	} else if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
		VSW_LOG(ERR, "watch: %s removed or moved: watching stops",
			w->dir);
		close(w->fd);
		w->fd = -1;
	} else if (ev->len > 0 && ev->name[0] != '.') {
		if (ev->mask & (IN_CREATE | IN_MOVED_TO))
			plug(ctl, ev->name);
		else if (ev->mask & (IN_DELETE | IN_MOVED_FROM))
			unplug(ctl, ev->name);
	}
}

void vsw_ctl_watch_poll(struct vsw_ctl *ctl)
{
	struct vsw_watch *w = &ctl->watch;
	char buf[4096]
		__attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	while (w->fd >= 0 && !ctl->stopping &&
	       (n = read(w->fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; w->fd >= 0 && p < buf + n;) {
			const struct inotify_event *ev = (const void *)p;

			on_event(ctl, ev);
			p += sizeof(*ev) + ev->len;
		}
	}
}

void vsw_ctl_watch_fini(struct vsw_ctl *ctl)
{
	struct vsw_watch *w = &ctl->watch;
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}
