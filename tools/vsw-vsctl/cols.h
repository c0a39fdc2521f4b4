/*
 * vsw-vsctl's OVS tables and columns (cols.c): names as ovs-vsctl
 * matches them, and each column read from the model as an OVSDB datum.
 */
#ifndef VSCTL_COLS_H
#define VSCTL_COLS_H

#include "vsctl.h"

enum vs_tbl { VS_T_BRIDGE, VS_T_PORT, VS_T_IFACE, VS_T_N };

/* The table @name stands for, or -1 with ovs-vsctl's message in @err. */
int vs_table_find(const char *name, char *err, size_t len);
const char *vs_table_name(enum vs_tbl t);
/* NULL-terminated column names of @t, in listing order. */
const char *const *vs_table_cols(enum vs_tbl t);
/* Index of the column @name[0..n) matches in @t, or -1 with a message. */
int vs_col_find(enum vs_tbl t, const char *name, size_t n, char *err,
		size_t len);
/* Column @col of row @p (the bridge for VS_T_BRIDGE) into @v. */
void vs_col_read(const struct vs_model *m, enum vs_tbl t,
		 const struct vs_port *p, const char *col,
		 struct vs_cell_val *v);

/* colset.c: "col[:key]=value"... of @argv set on row @p of @t. */
int vs_col_set(struct vs_model *m, enum vs_tbl t, struct vs_port *p,
	       char **argv, int argc, char *err, size_t len);
/* An OVSDB string as given on the command line: "..." unquoted. */
void vs_unquote(const char *s, char *out, size_t len);

/* dbcmds.c: set, get, list and find. */
int vs_cmd_set(struct vs_model *m, const struct vs_cmd *c, char *err,
	       size_t len);
int vs_cmd_get(struct vs_model *m, const struct vs_cmd *c, struct vs_out *out,
	       char *err, size_t len);
int vs_cmd_list(struct vs_model *m, const struct vs_cmd *c, struct vs_out *out,
		char *err, size_t len);

#endif /* VSCTL_COLS_H */
