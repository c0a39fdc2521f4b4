/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CPU placement probe for tools/bench: a cache-line ping-pong between two
 * CPUs. Prints the median round-trip time in ns over 15 batches of 2000
 * round trips. Usage: pingpong CPU_A CPU_B
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROUNDS 2000
#define BATCHES 15

static _Atomic long flag __attribute__((aligned(64)));
static int cpu_b;

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	pthread_setaffinity_np(pthread_self(), sizeof(s), &s);
}

static void *pong(void *arg)
{
	long i;

	(void)arg;
	pin(cpu_b);
	for (i = 0; i < (long)ROUNDS * BATCHES; i++) {
		while (atomic_load_explicit(&flag, memory_order_acquire) !=
		       2 * i + 1)
			;
		atomic_store_explicit(&flag, 2 * i + 2, memory_order_release);
	}
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double ns[BATCHES];
	struct timespec t0, t1;
	pthread_t t;
	long i, b, n = 0;

	if (argc != 3)
		return 2;
	cpu_b = atoi(argv[2]);
	pin(atoi(argv[1]));
	pthread_create(&t, NULL, pong, NULL);
	for (b = 0; b < BATCHES; b++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (i = 0; i < ROUNDS; i++, n++) {
			atomic_store_explicit(&flag, 2 * n + 1,
					      memory_order_release);
			while (atomic_load_explicit(&flag,
						    memory_order_acquire) !=
			       2 * n + 2)
				;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ns[b] = ((t1.tv_sec - t0.tv_sec) * 1e9 +
			 (t1.tv_nsec - t0.tv_nsec)) /
			ROUNDS;
	}
	pthread_join(t, NULL);
	qsort(ns, BATCHES, sizeof(ns[0]), cmp);
	printf("%.0f\n", ns[BATCHES / 2]);
	return 0;
}
