/* SPDX-License-Identifier: BSD-3-Clause */
/* The EAL arguments vsw builds (eal_args.c); before EAL starts. */
#ifndef VSW_EAL_ARGS_H
#define VSW_EAL_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "config/vsw_config.h"

#define VSW_MAX_EAL_ARGS 128

/* Is option @name (alone or as name=value) among @argv's first @argc? */
bool vsw_has_arg(int argc, char **argv, const char *name);
/*
 * The user's EAL args (argv[0..argc)) plus our defaults into @out (at
 * least VSW_MAX_EAL_ARGS entries); the file prefix in use into @prefix.
 * Returns the new argc, or -E2BIG (with a message) when the user gave
 * more than half of VSW_MAX_EAL_ARGS.
 */
int vsw_eal_args(const struct vsw_config *cfg, int argc, char **argv,
		 char **out, char *prefix, size_t plen);

#endif /* VSW_EAL_ARGS_H */
