/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the host takes from a pinned CPU: a bare loop reads the monotonic
 * clock for SECONDS on CPU and counts the gaps between two reads, which
 * only an interrupt, the scheduler or the hypervisor can open.  A switch's
 * worker on that CPU stalls as long: a guest ring of N descriptors filled
 * at R frames/s overflows in any gap over N / R, whatever the switch.
 * tools/bench runs it on the DUT's CPU before and after the latency block
 * (docs/benchmarking.md).  Usage: cpugaps CPU SECONDS; prints one JSON
 * line.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	uint64_t n100 = 0, n250 = 0, n1000 = 0, lost = 0, longest = 0;
	uint64_t prev, end;
	char *e1 = NULL, *e2 = NULL;
	long cpu = argc == 3 ? strtol(argv[1], &e1, 10) : -1;
	long secs = argc == 3 ? strtol(argv[2], &e2, 10) : -1;
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE || *e1 != '\0' || secs < 1 ||
	    secs > 600 || *e2 != '\0') {
		fprintf(stderr, "usage: cpugaps CPU SECONDS (1..600)\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("cpugaps: sched_setaffinity");
		return 1;
	}
	prev = now_ns();
	end = prev + (uint64_t)secs * 1000000000u;
	while (prev < end) {
		uint64_t t = now_ns(), gap = t - prev;

		prev = t;
		if (gap < 100000)
			continue;
		n100++;
		n250 += gap >= 250000;
		n1000 += gap >= 1000000;
		lost += gap;
		longest = gap > longest ? gap : longest;
	}
	printf("{\"cpu\": %ld, \"seconds\": %ld, \"gaps_over_100us\": %lu, "
	       "\"gaps_over_250us\": %lu, \"gaps_over_1ms\": %lu, "
	       "\"longest_us\": %.1f, \"in_gaps_us\": %.1f}\n",
	       cpu, secs, (unsigned long)n100, (unsigned long)n250,
	       (unsigned long)n1000, (double)longest / 1e3, (double)lost / 1e3);
	return 0;
}
