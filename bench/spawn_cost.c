// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/spawn_cost - the CPU of starting a program from a process of
 * 8 MB (as deliver starts sendmail): posix_spawn() against fork() and
 * execv(), the child's CPU included
 *
 *	cc -O2 -o build/bench/spawn_cost bench/spawn_cost.c
 *	build/bench/spawn_cost [N]
 *
 * Runs /bin/true N times (default 1,000) each way and prints the
 * microseconds of CPU (this process's and its children's, getrusage())
 * per start.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

static double cpu_now(void)
{
	struct rusage s, c;

	getrusage(RUSAGE_SELF, &s);
	getrusage(RUSAGE_CHILDREN, &c);
	return tv(s.ru_utime) + tv(s.ru_stime) + tv(c.ru_utime) +
	       tv(c.ru_stime);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, i, st;
	char *const av[] = { "/bin/true", NULL };
	size_t size = 8u << 20;
	char *mem = malloc(size);
	double t0, t1, t2;
	pid_t p;

	if (!mem || n <= 0)
		return 1;
	memset(mem, 1, size); /* the pages fork() has to copy the tables of */
	t0 = cpu_now();
	for (i = 0; i < n; i++) {
		if (posix_spawn(&p, av[0], NULL, NULL, av, environ) != 0)
			return 1;
		waitpid(p, &st, 0);
	}
	t1 = cpu_now();
	for (i = 0; i < n; i++) {
		p = fork();
		if (p < 0)
			return 1;
		if (p == 0) {
			execv(av[0], av);
			_exit(127);
		}
		waitpid(p, &st, 0);
	}
	t2 = cpu_now();
	printf("CPU us per start: posix_spawn %.0f, fork+execv %.0f (%d each, %zu MB touched)\n",
	       (t1 - t0) * 1e6 / n, (t2 - t1) * 1e6 / n, n,
	       (size_t)mem[size - 1] * (size >> 20));
	return 0;
}
