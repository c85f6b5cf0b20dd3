/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * experts - who reviews what, mined from git history
 *
 * DESCRIPTION
 *	Part of the pick stage.  experts_import() runs one
 *
 *		git -C DIR log --no-merges --since=@T --format=... --name-only
 *
 *	(exec'd directly, no shell; its output streamed through a pipe with
 *	a bounded line buffer) and credits the people named in each
 *	commit's Reviewed-by:, Acked-by: and Signed-off-by: trailers, and
 *	its author, to every file the commit touched and to each directory
 *	above it ("fs/xfs/xfs_inode.c" also credits "fs/xfs/" and "fs/").
 *
 *	Credit per commit and person is weight(kind) * 2^(-age/halflife),
 *	age measured from the committer date to the reference time "now".
 *	A person counts once per commit, with the strongest kind they
 *	appear under.  The author is credited once as "authored"; the
 *	author's own Signed-off-by: (the DCO line every kernel patch
 *	carries) is that same authorship and is not counted again, and a
 *	trailer naming the author (a self-review) is ignored.  A non-author
 *	Signed-off-by: is the maintainer who applied the patch.
 *
 *	Addresses are lower-cased and validated (one "@", printable ASCII,
 *	a dotted domain, at most 254 bytes); invalid ones are skipped.
 *	Bots are skipped: syzbot, the kernel test robot (lkp@intel.com),
 *	"noreply"/"no-reply" addresses, local parts ending in "-bot",
 *	"_bot", ".bot", "[bot]" or "robot", syzkaller.appspotmail.com, and
 *	the patterns of the experts_ignore setting (fnmatch(3) globs
 *	matched against the lower-cased address, "*@example.org").
 *
 *	Each path keeps its best max_per_path people (by score).  The
 *	table is written as a compiled, position-independent image
 *	(atomically) that experts_open() mmaps; experts_for_path() returns
 *	the people for a file or, when the file has none, for its nearest
 *	directory that has some.
 *
 *	The routes.conf settings (syntax in pick.h):
 *	  experts_weight   = reviewed-by:1.0 acked-by:0.5 signed-off-by:0.2
 *			     authored:0.1
 *	  experts_halflife = 180       (days)
 *	  experts_since    = 2y        (Nd, Nw, Nm, Ny, YYYY-MM-DD or "all")
 *	  experts_max      = 8         (people kept per path)
 *	  experts_ignore   = GLOB ...  (addresses never credited)
 *
 *	Validation is lazy, for the per-message filter: experts_open()
 *	checks the header, the array bounds and the string table's
 *	termination (constant time); every record a lookup touches is
 *	checked before use, so a damaged record is refused, never followed.
 *	experts_verify() checks every record (import runs it on its output).
 *
 * Ownership:
 *	Strings in struct expert are borrowed from the index and valid
 *	until experts_free().  struct experts_options owns its ignore list.
 *
 * Errors:
 *	experts_import() prints a message and returns -1 when git or its
 *	output fails, -2 when the index cannot be written; experts_open()
 *	prints a message and returns NULL.
 */
#ifndef TRIAGE_EXPERTS_H
#define TRIAGE_EXPERTS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

struct config;
struct experts;

enum experts_kind {
	EXPERTS_REVIEWED, /* Reviewed-by: */
	EXPERTS_ACKED,	  /* Acked-by: */
	EXPERTS_SIGNED,	  /* Signed-off-by: of someone other than the author */
	EXPERTS_AUTHORED, /* the commit's author */
	EXPERTS_NKINDS,
};

#define EXPERTS_ADDR_MAX      254
#define EXPERTS_NAME_MAX      128
#define EXPERTS_DEFAULT_SINCE "2y"

struct experts_options {
	double weight[EXPERTS_NKINDS];
	double halflife_days; /* > 0 */
	time_t since;	      /* oldest commit (committer date); 0: all */
	time_t now;	      /* reference time for the decay */
	unsigned max_per_path;
	char **ignore; /* fnmatch(3) patterns, lower case */
	size_t nignore;
	bool progress; /* a progress line on stderr (a terminal) */
};

struct experts_stats {
	unsigned long commits; /* commits read */
	unsigned long credits; /* (commit, person) pairs credited */
	unsigned long bots;    /* trailers/authors skipped as bots or ignored */
	unsigned long invalid; /* unparseable or invalid addresses */
	unsigned long skipped; /* commits skipped: overlong or bad lines */
	unsigned long files;   /* file paths in the table */
	unsigned long dirs;    /* directory paths in the table */
	unsigned long people;
	size_t bytes; /* size of the index */
	double seconds;
	/* the commit history (experts_history.h), experts_import() only */
	unsigned long history_commits, history_releases;
	size_t history_bytes;
	double history_seconds;
	bool history_complete;
};

/* one person for a path, best first */
struct expert {
	const char *addr; /* lower-case bare address */
	const char *name; /* display name, or "" */
	double score;
	unsigned count[EXPERTS_NKINDS]; /* commits per kind */
	time_t last;			/* newest commit credited */
	const char *path; /* the file, or directory ("fs/xfs/"), matched */
	unsigned commits; /* commits that touched that path */
};

/* options: defaults, then routes.conf (warns about bad values) */
void experts_options_init(struct experts_options *o);
void experts_options_config(struct experts_options *o,
			    const struct config *cfg);
void experts_options_release(struct experts_options *o);
int experts_set_weights(struct experts_options *o, const char *spec);
int experts_parse_since(const char *s, time_t now, time_t *out);

/*
 * The git log format the import reads: per commit a header line
 * "\x1e" CT "\x1f" AUTHOR-EMAIL "\x1f" AUTHOR-NAME "\x1f" [SHA "\x1f"]
 * TRAILERS, the trailers "Key: value" separated by "\x1f", then (after
 * a blank line) one changed path per line.  SHA (%H, 40 hex digits) is
 * optional; with it the import also writes the commit table.
 */
#define EXPERTS_LOG_FORMAT                                                    \
	"--format=%x1e%ct%x1f%aE%x1f%aN%x1f%H%x1f%(trailers:key=Reviewed-by," \
	"key=Acked-by,key=Signed-off-by,unfold,separator=%x1f)"

/*
 * import: run git in dir (or read its output from fd), write out;
 * experts_import() also writes the commit history of dir (all of it)
 * to history_path(out) (experts_history.h)
 */
int experts_import(const char *dir, const struct experts_options *o,
		   const char *out, struct experts_stats *stats);
int experts_import_fd(int fd, const struct experts_options *o, const char *out,
		      struct experts_stats *stats);

/*
 * The git log reader, shared with 'triage fixes import' (fixes read
 * commits' trailers too): experts_git_log() runs
 *
 *	git -C DIR -c core.quotePath=false log --no-merges --no-color
 *	    --no-show-signature ARGS...
 *
 * exec'd directly (no shell), and hands fn each line of its output,
 * NUL-terminated in place, through one bounded read buffer; a line
 * longer than the buffer reaches fn once, cut, with overlong set, and
 * is then dropped.  experts_read_lines() does the same for output
 * already produced (fd).  -1 when git cannot run, fails or dies
 * (printed).  ARGS must not come unchecked from a user: a value that
 * starts with '-' is an option to git.
 */
typedef void (*experts_line_fn)(void *arg, char *line, size_t len,
				bool overlong);
int experts_git_log(const char *dir, const char *const *args, size_t nargs,
		    experts_line_fn fn, void *arg);
int experts_read_lines(int fd, experts_line_fn fn, void *arg);
/* experts_git_run - the same runner for "git -C DIR ARGS..." (any command) */
int experts_git_run(const char *dir, const char *const *args, size_t nargs,
		    experts_line_fn fn, void *arg);
/*
 * experts_next_trailer - the next "Key: value" of a "\x1f"-separated
 * trailer list at *p (git's %(trailers:separator=%x1f)), cut in place:
 * *key, and *value with its leading blanks skipped; false at the end
 */
bool experts_next_trailer(char **p, char **key, char **value);

/* the index */
struct experts *experts_open(const char *path);
void experts_free(struct experts *ex);
int experts_verify(const struct experts *ex);
time_t experts_reference_time(const struct experts *ex);
unsigned long experts_commits(const struct experts *ex);
size_t experts_for_path(const struct experts *ex, const char *path,
			struct expert *out, size_t max);

/*
 * The commit table: experts_import() also writes, next to the index
 * (experts_commits_path(): "INDEX.commits"), one sorted text line per
 * commit of the log, "SHA AUTHOR REVIEWER,REVIEWER" ("-": none), so
 * that a regression bisected to a commit can name the commit's author
 * and its Reviewed-by reviewers.  experts_commit_find() looks one up
 * by a unique prefix of 7 to 40 hex digits: a binary search of the
 * mapped table, which reads a few of its pages.
 */
#define EXPERTS_COMMIT_REVIEWERS 8

struct experts_commit {
	char sha[41];
	char author[EXPERTS_ADDR_MAX + 1];
	char reviewers[EXPERTS_COMMIT_REVIEWERS][EXPERTS_ADDR_MAX + 1];
	size_t nreviewers;
};

char *experts_commits_path(const char *index);
int experts_commit_find(const char *path, const char *sha,
			struct experts_commit *out);

/* addresses */
const char *experts_kind_name(enum experts_kind k);
int experts_parse_addr(const char *text, char *addr, size_t addrsz, char *name,
		       size_t namesz);
bool experts_addr_valid(const char *addr);
bool experts_is_bot(const char *addr, const char *name);

#endif
