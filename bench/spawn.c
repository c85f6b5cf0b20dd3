// SPDX-License-Identifier: GPL-2.0-only
/*
 * spawn - time one process per input line (a tiny hyperfine for loops)
 *
 *	spawn [-n RUNS] [-i | -s FILE | -F] LIST -- COMMAND [ARGS...]
 *
 * For each line of LIST (or RUNS times the first line), runs COMMAND
 * ARGS... LINE with stdout and stderr to /dev/null (-i: LINE on stdin
 * instead of as the last argument; -s FILE: FILE on stdin and no
 * argument added; -F: the file LINE names on stdin), and prints the median and mean wall
 * time and the mean child CPU time (user+system) in milliseconds:
 *
 *	runs=N wall_median_ms=X wall_mean_ms=Y cpu_mean_ms=Z failures=F
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	char **lines = NULL, buf[4096], **cargv;
	size_t nlines = 0, alloc = 0, runs, i;
	double *wall, wsum = 0, csum = 0;
	int opt, nrep = 0, use_stdin = 0, failures = 0, cargc, k;
	int line_file = 0;
	const char *stdin_file = NULL;
	FILE *f;

	while ((opt = getopt(argc, argv, "+n:is:F")) != -1) {
		if (opt == 'n')
			nrep = atoi(optarg);
		else if (opt == 'i')
			use_stdin = 1;
		else if (opt == 's')
			stdin_file = optarg;
		else if (opt == 'F')
			line_file = 1;
		else
			return 64;
	}
	if (argc - optind < 3 || strcmp(argv[optind + 1], "--") != 0) {
		fprintf(stderr, "usage: spawn [-n RUNS] [-i | -s FILE | -F] LIST -- CMD [ARGS]\n");
		return 64;
	}
	f = fopen(argv[optind], "r");
	if (!f) {
		perror(argv[optind]);
		return 66;
	}
	while (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (nlines == alloc) {
			alloc = alloc ? alloc * 2 : 256;
			lines = realloc(lines, alloc * sizeof(*lines));
		}
		lines[nlines++] = strdup(buf);
	}
	fclose(f);
	if (!nlines)
		return 65;
	runs = nrep > 0 ? (size_t)nrep : nlines;
	wall = calloc(runs, sizeof(*wall));
	cargc = argc - optind - 2;
	cargv = calloc((size_t)cargc + 2, sizeof(*cargv));
	for (k = 0; k < cargc; k++)
		cargv[k] = argv[optind + 2 + k];
	for (i = 0; i < runs; i++) {
		const char *line = lines[nrep > 0 ? 0 : i];
		int pipefd[2] = { -1, -1 }, status;
		struct rusage ru;
		double t0 = now();
		pid_t pid;

		cargv[cargc] = use_stdin || stdin_file || line_file
				       ? NULL
				       : (char *)line;
		if (use_stdin && pipe(pipefd) < 0)
			return 71;
		pid = fork();
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			dup2(null, 2);
			if (stdin_file || line_file) {
				int in = open(line_file ? line : stdin_file,
					      O_RDONLY);

				if (in < 0)
					_exit(126);
				dup2(in, 0);
			}
			if (use_stdin) {
				dup2(pipefd[0], 0);
				close(pipefd[0]);
				close(pipefd[1]);
			}
			execvp(cargv[0], cargv);
			_exit(127);
		}
		if (use_stdin) {
			ssize_t w;

			close(pipefd[0]);
			w = write(pipefd[1], line, strlen(line));
			w += write(pipefd[1], "\n", 1);
			(void)w;
			close(pipefd[1]);
		}
		if (wait4(pid, &status, 0, &ru) < 0)
			return 71;
		wall[i] = now() - t0;
		wsum += wall[i];
		csum += (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
			(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) /
				1e3;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failures++;
	}
	qsort(wall, runs, sizeof(*wall), cmp);
	printf("runs=%zu wall_median_ms=%.3f wall_mean_ms=%.3f cpu_mean_ms=%.3f failures=%d\n",
	       runs, wall[runs / 2], wsum / (double)runs, csum / (double)runs,
	       failures);
	return 0;
}
