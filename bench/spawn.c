// SPDX-License-Identifier: GPL-2.0-only
/*
 * spawn - time one process per input line (a tiny hyperfine for loops)
 *
 *	spawn [-n RUNS] [-j JOBS] [-i | -s FILE | -F] LIST -- COMMAND [ARGS...]
 *
 * For each line of LIST (or RUNS times the first line), runs COMMAND
 * ARGS... LINE with stdout and stderr to /dev/null (-i: LINE on stdin
 * instead of as the last argument; -s FILE: FILE on stdin and no
 * argument added; -F: the file LINE names on stdin), JOBS at a time
 * (default 1), and prints the median and mean wall time, the median and
 * mean child CPU time (user+system, from wait4()) in milliseconds, the
 * largest peak RSS of any child, the mean number of page faults a child
 * took (minor: pages mapped without I/O, what a start-up mostly costs on
 * a virtual machine) and the throughput over the whole run:
 *
 *	runs=N wall_median_ms=X wall_mean_ms=Y cpu_median_ms=C
 *	cpu_mean_ms=Z user_mean_ms=U sys_mean_ms=S maxrss_kib=R
 *	minflt_mean=P per_s=T failures=F
 *
 * (on one line).  Child CPU time is what counts on a shared machine:
 * it does not grow with other processes' load as wall time does.
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

#define MAX_JOBS 64

struct slot {
	pid_t pid;
	double t0;
};

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

static double tv_ms(struct timeval tv)
{
	return (double)tv.tv_sec * 1e3 + (double)tv.tv_usec / 1e3;
}

int main(int argc, char **argv)
{
	char **lines = NULL, buf[4096], **cargv;
	size_t nlines = 0, alloc = 0, runs, i, started = 0, done = 0;
	double *wall, *cpu, wsum = 0, csum = 0, usum = 0, ssum = 0, t_start;
	double fsum = 0;
	int opt, nrep = 0, use_stdin = 0, failures = 0, cargc, k, jobs = 1;
	int line_file = 0, running = 0;
	long maxrss = 0;
	const char *stdin_file = NULL;
	struct slot slots[MAX_JOBS];
	FILE *f;

	while ((opt = getopt(argc, argv, "+n:j:is:F")) != -1) {
		if (opt == 'n')
			nrep = atoi(optarg);
		else if (opt == 'j')
			jobs = atoi(optarg);
		else if (opt == 'i')
			use_stdin = 1;
		else if (opt == 's')
			stdin_file = optarg;
		else if (opt == 'F')
			line_file = 1;
		else
			return 64;
	}
	if (jobs < 1 || jobs > MAX_JOBS || argc - optind < 3 ||
	    strcmp(argv[optind + 1], "--") != 0) {
		fprintf(stderr,
			"usage: spawn [-n RUNS] [-j JOBS] [-i | -s FILE | -F] LIST -- CMD [ARGS]\n");
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
	cpu = calloc(runs, sizeof(*cpu));
	cargc = argc - optind - 2;
	cargv = calloc((size_t)cargc + 2, sizeof(*cargv));
	for (k = 0; k < cargc; k++)
		cargv[k] = argv[optind + 2 + k];
	for (k = 0; k < MAX_JOBS; k++)
		slots[k].pid = 0;
	t_start = now();
	while (done < runs) {
		while (running < jobs && started < runs) {
			const char *line = lines[nrep > 0 ? 0 : started];
			int pipefd[2] = { -1, -1 };
			pid_t pid;

			cargv[cargc] = use_stdin || stdin_file || line_file
					       ? NULL
					       : (char *)line;
			if (use_stdin && pipe(pipefd) < 0)
				return 71;
			for (k = 0; slots[k].pid; k++)
				;
			slots[k].t0 = now();
			pid = fork();
			if (pid < 0)
				return 71;
			if (pid == 0) {
				int null = open("/dev/null", O_WRONLY);

				dup2(null, 1);
				dup2(null, 2);
				if (stdin_file || line_file) {
					int in = open(line_file ? line
								: stdin_file,
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
			slots[k].pid = pid;
			if (use_stdin) {
				ssize_t w;

				close(pipefd[0]);
				w = write(pipefd[1], line, strlen(line));
				w += write(pipefd[1], "\n", 1);
				(void)w;
				close(pipefd[1]);
			}
			started++;
			running++;
		}
		{
			struct rusage ru;
			int status;
			pid_t pid = wait4(-1, &status, 0, &ru);
			double u, s;

			if (pid < 0)
				return 71;
			for (k = 0; k < MAX_JOBS && slots[k].pid != pid; k++)
				;
			if (k == MAX_JOBS)
				continue;
			slots[k].pid = 0;
			running--;
			wall[done] = now() - slots[k].t0;
			u = tv_ms(ru.ru_utime);
			s = tv_ms(ru.ru_stime);
			cpu[done] = u + s;
			wsum += wall[done];
			csum += u + s;
			usum += u;
			ssum += s;
			fsum += (double)ru.ru_minflt;
			if (ru.ru_maxrss > maxrss)
				maxrss = ru.ru_maxrss;
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
				failures++;
			done++;
		}
	}
	t_start = now() - t_start;
	qsort(wall, runs, sizeof(*wall), cmp);
	qsort(cpu, runs, sizeof(*cpu), cmp);
	printf("runs=%zu wall_median_ms=%.3f wall_mean_ms=%.3f cpu_median_ms=%.3f cpu_mean_ms=%.3f user_mean_ms=%.3f sys_mean_ms=%.3f maxrss_kib=%ld minflt_mean=%.0f per_s=%.0f failures=%d\n",
	       runs, wall[runs / 2], wsum / (double)runs, cpu[runs / 2],
	       csum / (double)runs, usum / (double)runs, ssum / (double)runs,
	       maxrss, fsum / (double)runs, (double)runs / (t_start / 1e3),
	       failures);
	for (i = 0; i < nlines; i++)
		free(lines[i]);
	free(lines);
	return 0;
}
