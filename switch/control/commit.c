/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One commit path for every change that the state file holds: the
 * operation changes control's state (and publishes a table), then
 * commits; the commit writes the state file and, when it cannot, runs
 * the operation's undo, so what was acknowledged is on disk and what
 * failed is not in effect.  port-del is the one operation that commits
 * before it acts (a deleted port's guest connection cannot be brought
 * back): it hides the port from the state, commits, and only then
 * removes it.  ctl_lock held.
 */
#include "control.h"

int vsw_ctl_commit(struct vsw_ctl *ctl, vsw_ctl_undo_fn undo, void *arg,
		   const char *what, char *err, size_t errlen)
{
	int rc = vsw_statefile_save(ctl, err, errlen);

	if (rc < 0 && undo != NULL && undo(ctl, arg) < 0)
		VSW_LOG(ERR,
			"%s: in effect, though the state file does not hold "
			"it (and the undo failed)",
			what);
	return rc;
}
