// SPDX-License-Identifier: GPL-2.0-only
/*
 * spawn - time one process per input line (a tiny hyperfine for loops)
 *
 *	spawn [-n RUNS] [-j JOBS] [-a BASE [-b N]] [-i | -s FILE | -F] LIST -- COMMAND [ARGS...]
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
 *
 * -a BASE: a baseline measured alongside: before each run of COMMAND,
 * BASE (no arguments, stdin /dev/null) runs once, so both see the same
 * load (one job at a time only); with -b N, N runs of BASE, then N of
 * COMMAND, and so on, so that few of either run just after the other
 * (whose pages and caches it may find cold).  Its figures follow on
 * the same line, each key prefixed with base_, then the ratio of the
 * two CPU medians, ratio_cpu, and how much it moved over the run: the
 * same ratio over each fifth of the pairs, in the order they ran, the
 * smallest and the largest (ratio_cpu_lo, ratio_cpu_hi).
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

/* one command's figures over its runs */
struct stats {
	double *wall, *cpu;
	double wsum, csum, usum, ssum, fsum;
	long maxrss;
	int failures;
	size_t n;
};

static void stats_init(struct stats *st, size_t runs)
{
	memset(st, 0, sizeof(*st));
	st->wall = calloc(runs, sizeof(*st->wall));
	st->cpu = calloc(runs, sizeof(*st->cpu));
	if (!st->wall || !st->cpu)
		exit(71);
}

static void stats_add(struct stats *st, double wall, const struct rusage *ru,
		      int status)
{
	double u = tv_ms(ru->ru_utime), s = tv_ms(ru->ru_stime);

	st->wall[st->n] = wall;
	st->cpu[st->n++] = u + s;
	st->wsum += wall;
	st->csum += u + s;
	st->usum += u;
	st->ssum += s;
	st->fsum += (double)ru->ru_minflt;
	if (ru->ru_maxrss > st->maxrss)
		st->maxrss = ru->ru_maxrss;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		st->failures++;
}

/* median - of v[lo, hi), sorted in a copy */
static double median(const double *v, size_t lo, size_t hi)
{
	size_t n = hi - lo;
	double *c = malloc(n * sizeof(*c)), m;

	if (!c)
		exit(71);
	memcpy(c, v + lo, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp);
	m = c[n / 2];
	free(c);
	return m;
}

static void stats_print(const struct stats *st, const char *prefix,
			double seconds)
{
	double n = (double)st->n;

	printf("%sruns=%zu %swall_median_ms=%.3f %swall_mean_ms=%.3f %scpu_median_ms=%.3f %scpu_mean_ms=%.3f %suser_mean_ms=%.3f %ssys_mean_ms=%.3f %smaxrss_kib=%ld %sminflt_mean=%.0f %sper_s=%.0f %sfailures=%d",
	       prefix, st->n, prefix, median(st->wall, 0, st->n), prefix,
	       st->wsum / n, prefix, median(st->cpu, 0, st->n), prefix,
	       st->csum / n, prefix, st->usum / n, prefix, st->ssum / n, prefix,
	       st->maxrss, prefix, st->fsum / n, prefix, n / seconds, prefix,
	       st->failures);
}

/* run_base - BASE once, stdin /dev/null, output discarded, waited for */
static void run_base(char *base, struct stats *st)
{
	char *argv[] = { base, NULL };
	struct rusage ru;
	double t0 = now();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		exit(71);
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		exit(71);
	stats_add(st, now() - t0, &ru, status);
}

int main(int argc, char **argv)
{
	char **lines = NULL, buf[4096], **cargv, *base = NULL;
	size_t nlines = 0, alloc = 0, runs, i, started = 0, done = 0;
	double t_start;
	int opt, nrep = 0, use_stdin = 0, cargc, k, jobs = 1;
	int line_file = 0, running = 0, block = 1;
	const char *stdin_file = NULL;
	struct slot slots[MAX_JOBS];
	struct stats st, bst;
	FILE *f;

	while ((opt = getopt(argc, argv, "+n:j:a:b:is:F")) != -1) {
		if (opt == 'n')
			nrep = atoi(optarg);
		else if (opt == 'j')
			jobs = atoi(optarg);
		else if (opt == 'a')
			base = optarg;
		else if (opt == 'b')
			block = atoi(optarg);
		else if (opt == 'i')
			use_stdin = 1;
		else if (opt == 's')
			stdin_file = optarg;
		else if (opt == 'F')
			line_file = 1;
		else
			return 64;
	}
	if (jobs < 1 || jobs > MAX_JOBS || (base && jobs != 1) || block < 1 ||
	    argc - optind < 3 || strcmp(argv[optind + 1], "--") != 0) {
		fprintf(stderr,
			"usage: spawn [-n RUNS] [-j JOBS] [-a BASE [-b N]] [-i | -s FILE | -F] LIST -- CMD [ARGS]\n");
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
	stats_init(&st, runs);
	stats_init(&bst, runs);
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

			/* the baseline's runs, just before this block */
			if (base && started % (size_t)block == 0)
				for (i = started;
				     i < runs && i < started + (size_t)block;
				     i++)
					run_base(base, &bst);
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

			if (pid < 0)
				return 71;
			for (k = 0; k < MAX_JOBS && slots[k].pid != pid; k++)
				;
			if (k == MAX_JOBS)
				continue;
			slots[k].pid = 0;
			running--;
			stats_add(&st, now() - slots[k].t0, &ru, status);
			done++;
		}
	}
	t_start = (now() - t_start) / 1e3;
	stats_print(&st, "", t_start);
	if (base) {
		/* the ratio over each fifth of the pairs, in the order run */
		double lo = 0, hi = 0, r;
		size_t q, parts = runs >= 5 ? 5 : 1;

		for (q = 0; q < parts; q++) {
			size_t a = runs * q / parts, b = runs * (q + 1) / parts;

			r = median(st.cpu, a, b) / median(bst.cpu, a, b);
			if (!q || r < lo)
				lo = r;
			if (!q || r > hi)
				hi = r;
		}
		putchar(' ');
		stats_print(&bst, "base_", t_start);
		printf(" ratio_cpu=%.2f ratio_cpu_lo=%.2f ratio_cpu_hi=%.2f",
		       median(st.cpu, 0, runs) / median(bst.cpu, 0, runs), lo,
		       hi);
	}
	putchar('\n');
	for (i = 0; i < nlines; i++)
		free(lines[i]);
	free(lines);
	return 0;
}
