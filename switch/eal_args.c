/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The EAL command line vsw passes on: the user's arguments plus our
 * defaults (a --file-prefix, the PCI devices the config names or
 * --no-pci, --no-huge when no hugepage is free).  Runs before EAL.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "eal_args.h"

bool vsw_has_arg(int argc, char **argv, const char *name)
{
	size_t len = strlen(name);

	for (int i = 0; i < argc; i++)
		if (strncmp(argv[i], name, len) == 0 &&
		    (argv[i][len] == '\0' || argv[i][len] == '='))
			return true;
	return false;
}

/* Free hugepages, or 0 when no hugetlbfs is mounted to use them. */
static long free_hugepages(void)
{
	char line[256];
	bool mounted = false;
	long n = 0;
	FILE *f = fopen("/proc/mounts", "r");

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, " hugetlbfs ") != NULL)
			mounted = true;
	if (f != NULL)
		fclose(f);
	f = fopen("/proc/meminfo", "r");
	if (f == NULL || !mounted) {
		if (f != NULL)
			fclose(f);
		return 0;
	}
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "HugePages_Free: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

/*
 * Unless the user chose devices, vsw takes only the PCI devices its config
 * names (so it never grabs a NIC the host uses): -a for each, or --no-pci.
 */
static int pci_args(const struct vsw_config *cfg, int argc, char **argv,
		    char **out, int n, int max)
{
	static char allow[VSW_MAX_PORTS][VSW_DEVARGS_MAX + 4];
	int k = 0;

	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "-a", 2) == 0 ||
		    strncmp(argv[i], "-b", 2) == 0 ||
		    strncmp(argv[i], "--allow", 7) == 0 ||
		    strncmp(argv[i], "--block", 7) == 0 ||
		    strcmp(argv[i], "--no-pci") == 0)
			return n;
	for (unsigned int i = 0; i < cfg->n_ports && n < max; i++) {
		const struct vsw_port_conf *pc = &cfg->ports[i];

		if (pc->type == VSW_PORT_VHOST ||
		    !vsw_config_devargs_is_pci(pc->devargs))
			continue;
		snprintf(allow[k], sizeof(allow[k]), "-a%.*s",
			 (int)strcspn(pc->devargs, ","), pc->devargs);
		out[n++] = allow[k++];
	}
	if (k == 0 && n < max)
		out[n++] = (char *)"--no-pci";
	return n;
}

int vsw_eal_args(const struct vsw_config *cfg, int argc, char **argv,
		 char **out, char *prefix, size_t plen)
{
	int n = 0;
	const char *fp = NULL;

	if (argc > VSW_MAX_EAL_ARGS / 2) {
		fprintf(stderr,
			"vsw: %d EAL arguments; at most %d are accepted\n",
			argc - 1, VSW_MAX_EAL_ARGS / 2 - 1);
		return -E2BIG;
	}
	for (int i = 0; i < argc; i++) {
		out[n++] = argv[i];
		if (strncmp(argv[i], "--file-prefix=", 14) == 0)
			fp = argv[i] + 14;
		else if (strcmp(argv[i], "--file-prefix") == 0 && i + 1 < argc)
			fp = argv[i + 1];
	}
	if (fp == NULL) {
		out[n++] = (char *)"--file-prefix=vsw";
		fp = "vsw";
	}
	snprintf(prefix, plen, "%s", fp);
	n = pci_args(cfg, argc, argv, out, n, VSW_MAX_EAL_ARGS - 8);
	if (!vsw_has_arg(argc, argv, "--no-huge") && free_hugepages() == 0 &&
	    !vsw_has_arg(argc, argv, "--in-memory")) {
		out[n++] = (char *)"--no-huge";
		if (!vsw_has_arg(argc, argv, "-m") &&
		    !vsw_has_arg(argc, argv, "--socket-mem"))
			out[n++] = (char *)"-m1024";
		fprintf(stderr,
			"vsw: no free hugepages; running with "
			"--no-huge (reserve some for better performance)\n");
	}
	out[n] = NULL;
	return n;
}
