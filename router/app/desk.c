// SPDX-License-Identifier: GPL-2.0-only
/*
 * desk - what the triager's commands share (see desk.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <unistd.h>

#include "audit.h"
#include "config.h"
#include "deliver.h"
#include "desk.h"
#include "outbox.h"
#include "forward.h"
#include "map.h"
#include "strbuf.h"
#include "util.h"

#define DRAIN_EXTRA 8 /* due rows sent besides ours, as the filter does */

/* ---- clock and login ---------------------------------------------------- */

/* desk_now - the time, or TRIAGE_NOW (unix seconds) when set */
time_t desk_now(void)
{
	const char *s = getenv("TRIAGE_NOW");
	unsigned long v;

	if (s && *s && parse_ulong(s, &v) == 0 && v > 0 &&
	    v < (unsigned long)INT64_MAX)
		return (time_t)v;
	return time(NULL);
}

/* desk_login_valid - 1 to 32 of [A-Za-z0-9._-], not starting with "-" */
bool desk_login_valid(const char *s)
{
	size_t n;

	if (!s || !*s || *s == '-')
		return false;
	for (n = 0; s[n]; n++) {
		char c = s[n];

		if (n >= DESK_LOGIN_MAX)
			return false;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-'))
			return false;
	}
	return true;
}

/* desk_who - the login name recorded with an action; -1 when unusable */
int desk_who(char *buf, size_t size)
{
	const char *env = getenv("TRIAGE_USER");
	const char *name = NULL;
	struct passwd *pw;

	if (env && *env) {
		name = env;
	} else {
		errno = 0;
		pw = getpwuid(getuid());
		if (!pw)
			return error(
				"cannot find the login name of uid %ld%s%s",
				(long)getuid(), errno ? ": " : "",
				errno ? strerror(errno) : "");
		name = pw->pw_name;
	}
	if (!desk_login_valid(name))
		return error("'%s' is not a usable login name%s", name,
			     env && *env ? " (TRIAGE_USER)" : "");
	if (strlen(name) >= size)
		return error("login name too long");
	strcpy(buf, name);
	return 0;
}

/* ---- database ------------------------------------------------------------- */

/*
 * desk_open - the audit database for a desk command; 0, or the exit
 * status to return (EX_CANTCREAT, EX_NOINPUT, EX_TEMPFAIL, EX_IOERR)
 */
int desk_open(const struct config *cfg, enum desk_mode mode, struct audit **db)
{
	char *path;
	int timeout = (int)config_int(cfg, "db_busy_timeout");
	bool temporary = false;
	int ret;

	*db = NULL;
	/* run as root, a state directory others could aim (config.h) */
	if ((ret = config_state_refused(cfg)) != 0)
		return ret;
	path = config_state_path(cfg, "triage.db");
	if (access(path, mode == DESK_READ ? R_OK : R_OK | W_OK) != 0) {
		int e = errno;

		if (e == ENOENT && access(path, F_OK) != 0 && errno == ENOENT) {
			error("no database at %s: nothing has been recorded yet (triage-filter creates it)",
			      path);
			free(path);
			return EX_NOINPUT;
		}
		if (e == EACCES || e == EPERM || e == EROFS) {
			/* the state directory is the triage group's (README) */
			error("cannot %s the database %s: %s; the triagers are the members of its group (ls -l; 'id -nG' shows yours, and a new member must log in again)",
			      mode == DESK_READ ? "read" : "write to", path,
			      strerror(e));
			free(path);
			return EX_NOPERM;
		}
		error("cannot open the database %s: %s", path, strerror(e));
		free(path);
		return EX_IOERR;
	}
	if (audit_open(path, mode == DESK_READ ? AUDIT_RDONLY : 0, timeout, db,
		       &temporary) < 0) {
		if (temporary) {
			error("the database %s is busy or unavailable; try again",
			      path);
			ret = EX_TEMPFAIL;
		} else {
			ret = EX_IOERR;
		}
	}
	free(path);
	return ret;
}

/*
 * desk_busy - after a failed write: print why and return the exit
 * status (EX_TEMPFAIL when the failure may pass, else EX_IOERR)
 */
int desk_busy(struct audit *db, const char *what)
{
	if (audit_temporary(db)) {
		error("the database is busy (another process has held its write lock too long); %s; try again",
		      what);
		return EX_TEMPFAIL;
	}
	error("%s", what);
	return EX_IOERR;
}

/* ---- arguments ------------------------------------------------------------ */

/* desk_parse_id - a report id: "12" or "#12"; -1 when it is not one */
int desk_parse_id(const char *s, int64_t *id)
{
	unsigned long v;

	if (s && *s == '#')
		s++;
	if (!s || !*s || *s == '0' || parse_ulong(s, &v) < 0 ||
	    v > (unsigned long)INT64_MAX)
		return -1;
	*id = (int64_t)v;
	return 0;
}

/* desk_midnight - local midnight of the day days_back before now */
time_t desk_midnight(time_t now, int days_back)
{
	struct tm tm;

	localtime_r(&now, &tm);
	tm.tm_hour = 0;
	tm.tm_min = 0;
	tm.tm_sec = 0;
	tm.tm_mday -= days_back;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

/*
 * desk_parse_since - "Nh", "Nd", "Nw" before now, "YYYY-MM-DD" (local
 * midnight) or "all" (0); -1 when it is none of these
 */
int desk_parse_since(const char *s, time_t now, time_t *out)
{
	struct tm tm;
	char *end;
	long n;
	int y, m, d;
	char extra;

	if (!s || !*s)
		return -1;
	if (!strcmp(s, "all")) {
		*out = 0;
		return 0;
	}
	if (strlen(s) == 10 &&
	    sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &extra) == 3) {
		if (y < 1970 || m < 1 || m > 12 || d < 1 || d > 31)
			return -1;
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = y - 1900;
		tm.tm_mon = m - 1;
		tm.tm_mday = d;
		tm.tm_isdst = -1;
		*out = mktime(&tm);
		return *out == (time_t)-1 || tm.tm_mday != d ? -1 : 0;
	}
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || n < 0 || n > 100000 || end[0] == '\0' || end[1] != '\0')
		return -1;
	switch (*end) {
	case 'h':
		*out = now - (time_t)n * 3600;
		return 0;
	case 'd':
		*out = now - (time_t)n * 86400;
		return 0;
	case 'w':
		*out = now - (time_t)n * 7 * 86400;
		return 0;
	}
	return -1;
}

/* ---- text --------------------------------------------------------------- */

/* utf8_next - decode one well-formed character; 0 when invalid */
static size_t utf8_next(const unsigned char *p, size_t len, uint32_t *cp)
{
	size_t n, k;
	uint32_t c;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if ((p[0] & 0xe0) == 0xc0) {
		n = 2;
		c = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		c = p[0] & 0x0f;
	} else if ((p[0] & 0xf8) == 0xf0) {
		n = 4;
		c = p[0] & 0x07;
	} else {
		return 0;
	}
	if (n > len)
		return 0;
	for (k = 1; k < n; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[k] & 0x3f);
	}
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) ||
	    (n == 4 && c < 0x10000) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* unsafe - characters a terminal acts on or that reorder text */
static bool unsafe(uint32_t c)
{
	return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
	       c == 0x200e || c == 0x200f || c == 0x061c;
}

/* desk_clean - append s made safe for a terminal (see DESCRIPTION) */
void desk_clean(struct strbuf *out, const char *s, size_t len, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	if (!s)
		return;
	while (i < len) {
		uint32_t c;
		size_t n = utf8_next(p + i, len - i, &c);

		if (!n) {
			sb_addc(out, '?');
			i++;
			continue;
		}
		if ((c == '\n' || c == '\t') && (flags & DESK_MULTILINE))
			sb_addc(out, (char)c);
		else if (c == '\r' && (flags & DESK_MULTILINE))
			; /* CRLF bodies: the LF ends the line */
		else if (c == '\t' || c == '\n' || c == '\r')
			sb_addc(out, ' ');
		else if (unsafe(c))
			sb_addc(out, '?');
		else
			sb_add(out, p + i, n);
		i += n;
	}
}

/* char_width - columns of one safe character (no wcwidth: no locale) */
static unsigned char_width(uint32_t c)
{
	if ((c >= 0x300 && c <= 0x36f) || (c >= 0x1ab0 && c <= 0x1aff) ||
	    (c >= 0x1dc0 && c <= 0x1dff) || (c >= 0x20d0 && c <= 0x20ff) ||
	    (c >= 0xfe20 && c <= 0xfe2f) || c == 0x200b || c == 0x200d)
		return 0;
	if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0x303e) ||
	    (c >= 0x3041 && c <= 0x33ff) || (c >= 0x3400 && c <= 0x4dbf) ||
	    (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xa000 && c <= 0xa4cf) ||
	    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	    (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||
	    (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd))
		return 2;
	return 1;
}

/* desk_width - display columns of a cleaned string */
size_t desk_width(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), i = 0, w = 0;

	while (i < len) {
		uint32_t c;
		size_t n = utf8_next(p + i, len - i, &c);

		if (!n) {
			w++;
			i++;
			continue;
		}
		w += char_width(c);
		i += n;
	}
	return w;
}

/*
 * desk_fit - append cleaned s cut to width columns ("..." marks a cut)
 * and, with pad, padded with spaces to exactly width
 */
void desk_fit(struct strbuf *out, const char *s, size_t width, bool pad)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), i = 0, w = 0, total = desk_width(s);

	if (total > width) {
		size_t room = width > 3 ? width - 3 : 0;

		while (i < len) {
			uint32_t c;
			size_t n = utf8_next(p + i, len - i, &c);
			unsigned cw = n ? char_width(c) : 1;

			if (!n)
				n = 1;
			if (w + cw > room)
				break;
			sb_add(out, p + i, n);
			w += cw;
			i += n;
		}
		for (i = 0; i < 3 && w < width; i++, w++)
			sb_addc(out, '.');
	} else {
		sb_adds(out, s);
		w = total;
	}
	for (; pad && w < width; w++)
		sb_addc(out, ' ');
}

/* desk_format_age - "45s", "12m", "3h" (under two days), "5d" */
void desk_format_age(time_t age, char *buf, size_t size)
{
	if (age < 0)
		age = 0;
	if (age < 120)
		snprintf(buf, size, "%llds", (long long)age);
	else if (age < 120 * 60)
		snprintf(buf, size, "%lldm", (long long)age / 60);
	else if (age < 48 * 3600)
		snprintf(buf, size, "%lldh", (long long)age / 3600);
	else
		snprintf(buf, size, "%lldd", (long long)age / 86400);
}

/* desk_format_time - "2026-12-03 13:56:48 +0000" in local time */
void desk_format_time(time_t t, char *buf, size_t size)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, size, "%Y-%m-%d %H:%M:%S %z", &tm))
		snprintf(buf, size, "@%lld", (long long)t);
}

/* ---- candidates ----------------------------------------------------------- */

/* desk_candidates - split a decision's candidates; returns how many */
size_t desk_candidates(const char *text, struct desk_candidate **out)
{
	struct desk_candidate *v = NULL;
	size_t n = 0, alloc = 0;
	const char *p = text, *eol;

	*out = NULL;
	for (; p && *p; p = *eol ? eol + 1 : eol) {
		const char *sp1, *sp2, *colon;
		struct desk_candidate *c;
		char *end;

		eol = strchrnul(p, '\n');
		sp1 = memchr(p, ' ', (size_t)(eol - p));
		sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1))
			  : NULL;
		if (!sp1 || !sp2)
			continue;
		ALLOC_GROW(v, n, alloc);
		c = &v[n++];
		c->addr = xstrndup(p, (size_t)(sp1 - p));
		c->score = strtod(sp1 + 1, &end);
		colon = memmem(sp2 + 1, (size_t)(eol - sp2 - 1), ": ", 2);
		if (!colon && eol > sp2 + 1 && eol[-1] == ':')
			colon = eol - 1;
		if (colon) {
			c->status =
				xstrndup(sp2 + 1, (size_t)(colon - sp2 - 1));
			c->why = colon + 2 <= eol
					 ? xstrndup(colon + 2,
						    (size_t)(eol - colon - 2))
					 : xstrdup("");
		} else {
			c->status = xstrndup(sp2 + 1, (size_t)(eol - sp2 - 1));
			c->why = xstrdup("");
		}
	}
	*out = v;
	return n;
}

/* desk_candidates_free - free what desk_candidates() returned */
void desk_candidates_free(struct desk_candidate *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].addr);
		free(v[i].status);
		free(v[i].why);
	}
	free(v);
}

/* ---- forwarding ----------------------------------------------------------- */

/* desk_forward - a forward decision and its outbox row for a report */
int64_t desk_forward(struct audit *db, const struct router_id *rid,
		     const struct audit_record *rec, const char *addr,
		     const char *name, const char *cls, const char *section,
		     const char *reason, const char *candidates,
		     const char *security, time_t now)
{
	struct audit_decision d;

	if (!rec->raw)
		return error("report %lld: the message was not read",
			     (long long)rec->id);
	if (!addr_valid(addr))
		return error("recipient '%s' is not a valid address", addr);
	memset(&d, 0, sizeof(d));
	d.at = now;
	d.action = "forward";
	d.recipient = addr;
	d.recipient_name = name;
	d.reason = reason;
	d.candidates = candidates;
	if (audit_insert_decision(db, rec->id, &d, NULL) < 0)
		return -1;
	return forward_queue_cc(db, rid, rec->id, rec->raw, rec->raw_len,
				rec->sha256, addr, name, NULL, cls, section,
				reason, security, now);
}

const char *desk_security(const struct audit_record *rec)
{
	const char *why = rec->ndecisions ? rec->decisions[0].security : NULL;

	return why && *why ? why : NULL;
}

/* names - value (a MAINTAINERS entry: "addr", "Name <addr>", "addr (x)") is addr */
static bool names(const char *value, const char *addr)
{
	size_t n = strlen(addr);
	const char *at;

	for (at = value; n && (at = strcasestr(at, addr)); at++) {
		char before = at == value ? ' ' : at[-1], after = at[n];

		if (strchr(" \t<:", before) &&
		    (!after || strchr(" \t>(,", after)))
			return true;
	}
	return false;
}

const char *desk_public_target(const struct map *map, const char *addr)
{
	uint32_t s, i, nsec, n;

	if (!strncasecmp(addr, "security@", 9))
		return "a security contact";
	if (!map)
		return "unchecked: no MAINTAINERS map to tell a list from a "
		       "person";
	nsec = map_nsections(map);
	for (s = 0; s < nsec; s++) {
		bool contact = false, named = false, list = false;

		n = map_nentries(map, s);
		for (i = 0; i < n; i++) {
			char tag = map_entry_tag(map, s, i);
			const char *v = map_entry_value(map, s, i);

			if (tag == 'F' && strstr(v, "security-bugs"))
				contact = true;
			else if (strchr("LMR", tag) && names(v, addr)) {
				named = true;
				list |= tag == 'L';
			}
		}
		if (named && contact)
			return "a security contact";
		if (list)
			return "a MAINTAINERS list";
	}
	return NULL;
}

#define FOLLOWUPS_MAX 256 /* held follow-ups sent along with one root */

struct followups {
	int64_t id[FOLLOWUPS_MAX];
	size_t n;
};

static int held_followup(const struct audit_related *x, void *arg)
{
	struct followups *f = arg;

	if (!strcmp(x->relation, "follow-up") && !strcmp(x->state, "held") &&
	    f->n < FOLLOWUPS_MAX)
		f->id[f->n++] = x->id;
	return 0;
}

/*
 * desk_forward_followups - the held follow-ups of thread root go to
 * addr after it (oldest first), each a follow-up decision (no load)
 * and a forward; not those from addr itself
 */
/* reporter_of - the From address of report id, in a new string */
static int reporter_of(struct audit *db, int64_t id, char **from)
{
	struct audit_record rec;
	int rc = audit_get_report(db, id, 0, &rec);

	*from = NULL;
	if (rc <= 0)
		return rc;
	if (rec.from_addr && *rec.from_addr)
		*from = xstrdup(rec.from_addr);
	audit_record_release(&rec);
	return 1;
}

int desk_forward_followups(struct audit *db, const struct router_id *rid,
			   int64_t root, const char *addr, const char *name,
			   const char *cls, const char *section,
			   const char *reason, time_t now, unsigned *kept)
{
	struct followups f;
	struct audit_record rec;
	struct audit_decision d;
	char *why, *reporter;
	size_t i;
	int rc, sent = 0;

	f.n = 0;
	*kept = 0;
	if (audit_related(db, root, 0, held_followup, &f) < 0 ||
	    reporter_of(db, root, &reporter) < 0)
		return -1;
	for (i = 0; i < f.n; i++) {
		rc = audit_get_report(db, f.id[i], AUDIT_GET_RAW, &rec);
		if (rc < 0)
			goto fail;
		if (rc == 0)
			continue;
		if (rec.from_addr && !strcasecmp(rec.from_addr, addr)) {
			audit_record_release(&rec);
			continue;
		}
		/*
		 * Approving a report vouches for it, not for what others
		 * sent in its thread: a stranger's follow-up held on its
		 * own merits stays held for its own decision
		 */
		if (!reporter || !rec.from_addr ||
		    strcasecmp(rec.from_addr, reporter) != 0) {
			audit_record_release(&rec);
			(*kept)++;
			continue;
		}
		/* one that cannot go out (no re-encoded copy) stays held */
		rc = rec.raw ? forward_can_send(db, rec.id, rec.raw,
						rec.raw_len)
			     : 1;
		if (rc <= 0) {
			if (rc == 0)
				warn("follow-up %lld cannot go out as it came "
				     "and has no re-encoded copy: it stays held",
				     (long long)rec.id);
			audit_record_release(&rec);
			if (rc < 0)
				goto fail;
			continue;
		}
		why = xasprintf("follow-up to report #%lld; %s",
				(long long)root, reason);
		memset(&d, 0, sizeof(d));
		d.at = now;
		d.action = "follow-up";
		d.recipient = addr;
		d.recipient_name = name;
		d.reason = why;
		rc = rec.raw && addr_valid(addr) &&
				     audit_insert_decision(db, rec.id, &d,
							   NULL) == 0 &&
				     forward_queue(db, rid, rec.id, rec.raw,
						   rec.raw_len, rec.sha256,
						   addr, name, cls, section,
						   why, now) > 0 &&
				     audit_set_state(db, rec.id, "forwarded",
						     now) == 0
			     ? 0
			     : -1;
		free(why);
		audit_record_release(&rec);
		if (rc < 0)
			goto fail;
		sent++;
	}
	free(reporter);
	return sent;
fail:
	free(reporter);
	return -1;
}

/* desk_class_header - the X-Triage-Class value of a recorded report */
const char *desk_class_header(const struct audit_record *rec)
{
	const struct audit_classification *c = rec->classification;

	if (c && c->header && *c->header &&
	    (!rec->class || !strcmp(rec->class, c->class)))
		return c->header;
	return rec->class ? rec->class : "uncertain";
}

/* desk_drain - send due mail now with the sendmail transport */
void desk_drain(const struct config *cfg, struct audit *db, unsigned queued,
		FILE *out)
{
	struct outbox_sendmail sm;
	struct outbox_stats st = { 0, 0, 0 };

	if (!queued)
		return;
	if (!config_is(cfg, "transport", "sendmail")) {
		if (out)
			fprintf(out,
				"queued %u message%s: the outbox worker ('triage deliver') sends %s\n",
				queued, queued == 1 ? "" : "s",
				queued == 1 ? "it" : "them");
		return;
	}
	outbox_sendmail_config(&sm, cfg);
	if (outbox_drain(db, outbox_sendmail, &sm, queued + DRAIN_EXTRA,
			 (int)(sm.timeout_ms / 1000) * 2, outbox_max_age(cfg),
			 true, &st) < 0) {
		warn("the messages stay queued: 'triage deliver' or the next message sends them");
		return;
	}
	if (out)
		fprintf(out, "sendmail: %u sent, %u to retry, %u failed\n",
			st.sent, st.retried, st.failed);
}

/* desk_status_exit - the exit status of a bulk action */
int desk_status_exit(const struct desk_status *st)
{
	if (st->unknown)
		return EX_NOINPUT;
	if (st->refused)
		return EX_DATAERR;
	return 0;
}

/* ---- terminal ------------------------------------------------------------- */

/* desk_color_option - "always", "never" or "auto" (also git's synonyms) */
int desk_color_option(const char *arg, enum desk_color_when *when)
{
	if (!arg || !strcmp(arg, "always") || !strcmp(arg, "true"))
		*when = DESK_COLOR_ALWAYS;
	else if (!strcmp(arg, "never") || !strcmp(arg, "false"))
		*when = DESK_COLOR_NEVER;
	else if (!strcmp(arg, "auto"))
		*when = DESK_COLOR_AUTO;
	else
		return error("--color takes always, never or auto, not '%s'",
			     arg);
	return 0;
}

static unsigned term_columns(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	unsigned long v;

	if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	if (env && parse_ulong(env, &v) == 0 && v > 0 && v < 10000)
		return (unsigned)v;
	return 80;
}

/* start_pager - run the pager with our standard output as its input */
static pid_t start_pager(void)
{
	const char *pager = getenv("PAGER");
	int fd[2];
	pid_t pid;

	if (!pager)
		pager = "less -FRX";
	if (!*pager || !strcmp(pager, "cat"))
		return 0;
	fflush(stdout);
	if (pipe(fd) < 0)
		return 0;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return 0;
	}
	if (pid == 0) {
		dup2(fd[0], 0);
		close(fd[0]);
		close(fd[1]);
		/* git's defaults: quit on one screen, colours, no clear */
		setenv("LESS", "FRX", 0);
		setenv("LV", "-c", 0);
		/*
		 * What the desk prints is UTF-8 whatever the locale (U+FFFD
		 * for what it cleaned, names, subjects): in the POSIX locale
		 * less would show "<E2><80><93>" for each such character.
		 */
		if (!getenv("LESSCHARDEF"))
			setenv("LESSCHARSET", "utf-8", 0);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	dup2(fd[1], 1);
	close(fd[0]);
	close(fd[1]);
	return pid;
}

/* desk_term_setup - terminal, colour and pager decisions (see DESCRIPTION) */
void desk_term_setup(struct desk_term *t, enum desk_color_when when, bool pager)
{
	const char *no_color = getenv("NO_COLOR");

	memset(t, 0, sizeof(*t));
	t->tty = isatty(1);
	t->columns = t->tty ? term_columns() : 0;
	if (when == DESK_COLOR_ALWAYS)
		t->color = true;
	else if (when == DESK_COLOR_AUTO)
		t->color = t->tty && !(no_color && *no_color) &&
			   !(getenv("TERM") && !strcmp(getenv("TERM"), "dumb"));
	if (pager && t->tty)
		t->pager = start_pager();
}

/* desk_color - the escape sequence for an SGR code, or "" without colour */
const char *desk_color(const struct desk_term *t, const char *sgr)
{
	static char buf[4][16];
	static unsigned next;
	char *b;

	if (!t->color || !*sgr)
		return "";
	b = buf[next++ % ARRAY_SIZE(buf)];
	snprintf(b, sizeof(buf[0]), "\033[%sm", sgr);
	return b;
}

/* desk_reset - the escape sequence that ends a colour, or "" */
const char *desk_reset(const struct desk_term *t)
{
	return t->color ? "\033[m" : "";
}

/* desk_term_finish - flush, close the pager's input and wait for it */
void desk_term_finish(struct desk_term *t)
{
	int status, fd;

	fflush(stdout);
	if (!t->pager)
		return;
	/* The pager reads until EOF: give it one by closing our end. */
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		dup2(fd, 1);
		close(fd);
	} else {
		close(1);
	}
	while (waitpid(t->pager, &status, 0) < 0 && errno == EINTR)
		;
	t->pager = 0;
}

/* desk_class_color - the colour of a class name */
const char *desk_class_color(const char *cls)
{
	if (!cls)
		return DESK_DIM;
	if (!strcmp(cls, "user"))
		return DESK_GREEN;
	if (!strcmp(cls, "fuzzer"))
		return DESK_BLUE;
	if (!strcmp(cls, "ai"))
		return DESK_MAGENTA;
	if (!strcmp(cls, "uncertain"))
		return DESK_YELLOW;
	if (!strcmp(cls, "failed"))
		return DESK_RED;
	return DESK_DIM;
}

/* desk_parse_ids - every argument a report id ("12" or "#12") */
int desk_parse_ids(char *const *argv, int n, int64_t **ids)
{
	int i;

	*ids = xcalloc((size_t)n + 1, sizeof(**ids));
	for (i = 0; i < n; i++) {
		if (desk_parse_id(argv[i], &(*ids)[i]) < 0) {
			error("'%s' is not a report id", argv[i]);
			free(*ids);
			*ids = NULL;
			return EX_USAGE;
		}
	}
	return 0;
}

/* desk_each - one action per id; stops at a database failure */
int desk_each(struct audit *db, const int64_t *ids, int n, const char *verb,
	      int (*one)(void *arg, int64_t id), void *arg)
{
	int i;

	for (i = 0; i < n; i++) {
		if (one(arg, ids[i]) < 0) {
			char what[128];

			snprintf(what, sizeof(what),
				 "report %lld and those after it were not %s",
				 (long long)ids[i], verb);
			return desk_busy(db, what);
		}
	}
	return 0;
}
