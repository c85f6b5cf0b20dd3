// SPDX-License-Identifier: GPL-2.0-only
/*
 * killrun - deliver messages to a program as an MTA does, with SIGKILLs
 *
 * DESCRIPTION
 *	killrun [-s SEED] [-k MAX_US] [-a MAX_ATTEMPTS] [-P PERCENT] [-v]
 *		-- PROGRAM [ARG...] <LIST
 *
 *	For every file named on standard input (one path a line), run
 *	PROGRAM with the file as its standard input, and, as Postfix's
 *	pipe(8) does when the command dies on a signal or exits 75,
 *	deliver the same bytes again until an exit 0.  The first attempt
 *	of every message is killed (SIGKILL) after a delay drawn
 *	uniformly from [0, MAX_US] microseconds; a later attempt is killed
 *	with probability PERCENT (default 50), and attempts from
 *	MAX_ATTEMPTS on are never killed.  MAX_US adapts: it starts at -k
 *	(default 20000) and follows 1.2 times the mean duration of the
 *	runs that finished unkilled, so that the kills cover the whole run.
 *
 *	Output, on standard output: one "# " line of figures (kills that
 *	hit a running process, kills that came after it had finished,
 *	exits 0 and 75, other exits).  The exit status is 0 when every
 *	message ended with an exit 0 and no attempt exited with anything
 *	but 0 or 75 (or died of another signal), else 1.
 *
 *	A test helper (tests/cli/t0600-faults.sh builds it with cc), not a
 *	part of triage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

struct figures {
	unsigned long messages, attempts, killed, late, exit0, exit75, other;
	double run_us, runs;
};

/* run - one attempt; returns the wait status, *killed when our kill hit */
static int run(const char *path, char **argv, long kill_us, int *killed,
	       double *took)
{
	double t0 = now_us();
	int status = 0, fd;
	pid_t pid;

	*killed = 0;
	pid = fork();
	if (pid < 0) {
		perror("killrun: fork");
		exit(2);
	}
	if (pid == 0) {
		fd = open(path, O_RDONLY);
		if (fd < 0 || dup2(fd, 0) < 0) {
			perror(path);
			_exit(111);
		}
		close(fd);
		execv(argv[0], argv);
		perror(argv[0]);
		_exit(111);
	}
	if (kill_us >= 0) {
		int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
		struct pollfd p = { .fd = pfd, .events = POLLIN };
		struct timespec ts = { kill_us / 1000000,
				       (kill_us % 1000000) * 1000 };
		int r;

		do
			r = ppoll(&p, 1, &ts, NULL);
		while (r < 0 && errno == EINTR);
		if (r == 0)
			kill(pid, SIGKILL);
		if (pfd >= 0)
			close(pfd);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("killrun: waitpid");
			exit(2);
		}
	*took = now_us() - t0;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && kill_us >= 0)
		*killed = 1;
	return status;
}

int main(int argc, char **argv)
{
	unsigned seed = (unsigned)time(NULL), max_attempts = 12, percent = 50;
	double max_us = 20000;
	struct figures f;
	char line[4096];
	int c, verbose = 0, bad = 0;

	memset(&f, 0, sizeof(f));
	while ((c = getopt(argc, argv, "+s:k:a:P:v")) != -1) {
		switch (c) {
		case 's':
			seed = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'k':
			max_us = strtod(optarg, NULL);
			break;
		case 'a':
			max_attempts = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'P':
			percent = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || argv[optind][0] != '/')
		goto usage;
	srandom(seed);
	signal(SIGPIPE, SIG_IGN);

	while (fgets(line, sizeof(line), stdin)) {
		unsigned attempt;
		int done = 0;

		line[strcspn(line, "\n")] = '\0';
		if (!*line)
			continue;
		f.messages++;
		for (attempt = 1; !done; attempt++) {
			long kill_us = -1;
			int status, killed;
			double took;

			if (attempt == 1 ||
			    (attempt < max_attempts &&
			     (unsigned)(random() % 100) < percent))
				kill_us = (long)((double)random() / RAND_MAX *
						 max_us);
			status = run(line, argv + optind, kill_us, &killed,
				     &took);
			f.attempts++;
			if (killed) {
				f.killed++;
			} else if (WIFEXITED(status) &&
				   WEXITSTATUS(status) == 0) {
				f.exit0++;
				done = 1;
				if (kill_us >= 0)
					f.late++;
				f.run_us += took;
				f.runs++;
				/* cover the whole run, also when it grows */
				max_us = 1.2 * f.run_us / f.runs;
			} else if (WIFEXITED(status) &&
				   WEXITSTATUS(status) == 75) {
				f.exit75++;
			} else {
				f.other++;
				bad = 1;
				fprintf(stderr, "killrun: %s: status 0x%x\n",
					line, status);
				if (attempt > max_attempts + 5)
					break;
			}
			if (verbose)
				printf("%s attempt %u kill_us %ld status 0x%x "
				       "killed %d\n",
				       line, attempt, kill_us, status, killed);
		}
		if (!done)
			bad = 1;
	}
	printf("# killrun: %lu messages, %lu attempts, %lu killed while running, "
	       "%lu kills after the exit, exits: %lu x 0, %lu x 75, %lu other; "
	       "kill window %.0f us (mean unkilled run %.0f us), seed %u\n",
	       f.messages, f.attempts, f.killed, f.late, f.exit0, f.exit75,
	       f.other, max_us, f.runs ? f.run_us / f.runs : 0.0, seed);
	return bad;
usage:
	fprintf(stderr,
		"usage: killrun [-s SEED] [-k MAX_US] [-a MAX_ATTEMPTS] "
		"[-P PERCENT] [-v] -- /PROGRAM [ARG...] <LIST\n");
	return 2;
}
