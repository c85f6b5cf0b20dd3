/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * command - the "#triage VERB ARGS" lines of a reply (triage-mail(7))
 *
 * DESCRIPTION
 *	Maintainers act on a report by replying to its forward, as they
 *	do with syzbot ("#syz dup:") or regzbot.  command_parse() reads
 *	the text/plain body of such a reply and returns the commands it
 *	carries, each checked for form only: what a section name or a
 *	report id means, who may say it and whether an address is one
 *	SMTP accepts is for the caller (app/mailcmd.c), which reads the
 *	database.  This stage is pure: no SQL, no I/O.
 *
 *	A command is a line "#triage VERB [ARGS]" (leading blanks allowed,
 *	"#triage" in any case, then a blank), outside quoted text: lines
 *	starting with '>' (after blanks) are someone else's words, and
 *	everything after a signature separator line "-- " is ignored.
 *	Verbs, in any case:
 *
 *	  reroute SECTION|ADDRESS    class user|fuzzer|ai
 *	  dup ID|MESSAGE-ID          undup
 *	  invalid [REASON]           needinfo [WHAT]
 *	  fixed COMMIT               fix-proposed MESSAGE-ID|URL
 *	  note TEXT                  notme
 *	  away UNTIL                 cap N/day
 *	  help
 *
 *	needinfo's WHAT is one or more of version, dmesg, reproducer and
 *	bisect (none: version and dmesg), or any other text, sent as
 *	written.  COMMIT is 7 to 40 hex digits; UNTIL is YYYY-MM-DD (a real
 *	day); N is 0 to COMMAND_CAP_MAX.
 *
 *	Bounds: at most COMMAND_MAX commands a message (more are counted
 *	in dropped, not run); a line longer than COMMAND_LINE_MAX bytes
 *	(RFC 5322's 998) is no command (an error when it starts like one);
 *	an argument must be UTF-8 without control characters.  An unknown
 *	verb or a bad argument is a command with verb COMMAND_ERROR and
 *	the reason in error, so that the sender's confirmation says what
 *	was wrong; nothing here fails.
 *
 * Ownership:
 *	struct command_list is plain data (no pointers).
 */
#ifndef TRIAGE_COMMAND_H
#define TRIAGE_COMMAND_H

#include <stddef.h>
#include <stdint.h>

#define COMMAND_MAX	 8
#define COMMAND_LINE_MAX 998
#define COMMAND_CAP_MAX	 1000
#define COMMAND_ERR_MAX	 160

enum command_verb {
	COMMAND_ERROR = -1,
	COMMAND_REROUTE,
	COMMAND_CLASS,
	COMMAND_DUP,
	COMMAND_UNDUP,
	COMMAND_INVALID,
	COMMAND_NEEDINFO,
	COMMAND_FIXED,
	COMMAND_FIX_PROPOSED,
	COMMAND_NOTE,
	COMMAND_NOTME,
	COMMAND_AWAY,
	COMMAND_CAP,
	COMMAND_HELP,
	COMMAND_NVERBS
};

/* needinfo's items (bits of struct command.items) */
enum {
	COMMAND_NEED_VERSION = 1 << 0,
	COMMAND_NEED_DMESG = 1 << 1,
	COMMAND_NEED_REPRODUCER = 1 << 2,
	COMMAND_NEED_BISECT = 1 << 3,
};

struct command {
	enum command_verb verb;
	/*
	 * the line as written after "#triage " (trimmed, cut at 80 bytes):
	 * what the confirmation quotes
	 */
	char line[81];
	/* the argument, trimmed: UTF-8 without controls, or "" */
	char arg[COMMAND_LINE_MAX + 1];
	int is_addr;	/* reroute: arg has an '@' (an address) */
	int64_t id;	/* dup: a report id, or 0 (arg is a Message-ID) */
	int is_url;	/* fix-proposed: arg is an http(s) URL */
	unsigned items; /* needinfo: COMMAND_NEED_*, 0: free text in arg */
	int cap;	/* cap: reports a day */
	int y, m, d;	/* away: the last day away */
	char error[COMMAND_ERR_MAX]; /* verb COMMAND_ERROR: why */
};

struct command_list {
	struct command cmd[COMMAND_MAX];
	size_t n;
	size_t dropped; /* command lines over COMMAND_MAX */
};

/* command_parse - the commands of text (len bytes, need not end in NUL) */
void command_parse(const char *text, size_t len, struct command_list *out);

/* command_verb_name - "reroute", "fix-proposed" ... ("?" for others) */
const char *command_verb_name(enum command_verb v);

/* command_usage - one line of usage for verb v ("reroute SECTION|ADDRESS") */
const char *command_usage(enum command_verb v);

#endif
