// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage fixes - the commits that fixed reports
 *
 * DESCRIPTION
 *	triage fixes import --git DIR [--since DATE|REV]
 *	triage fixes [--since SPEC] [--json]
 *
 *	import reads the commits of the git repository in DIR (git log,
 *	run as experts import runs it: experts.h) with their Reported-by:,
 *	Closes:, Link: and Fixes: trailers, and marks fixed each report a
 *	trailer names:
 *
 *	  - by Message-ID: a Closes: or Link: URL of the archive_url
 *	    pattern, of lore's /r/, /all/ or list forms, or a bare
 *	    <message-id> (link.h); a follow-up names its thread's report,
 *	    a patch mailed to the alias as a fix proposed names that report;
 *	  - by the report's own address bugs+ID-TOKEN@ (the router's
 *	    local part), when the token checks (token.h);
 *	  - by syzbot id: "Reported-by: syzbot+HASH@..." names the first
 *	    report of that syzbot crash.
 *
 *	A reporter's address with a subject is never taken as naming a
 *	report (anyone's commit could match), and neither is Fixes: (it
 *	names the culprit, not a report); only a report (not a patch or a
 *	discussion) is marked.  Each match records the commit, the tree
 *	(the repository's remote.origin.url, else DIR) and the time in
 *	fixes, moves the report to state fixed (it leaves 'triage
 *	pending') and records an action 'fixed' with the login.  One
 *	commit fixes a report once: a second import changes nothing.
 *	With notify_reporter_fixed = yes each user report marked gets one
 *	short plain-text note to its reporter's envelope sender.
 *
 *	--since is YYYY-MM-DD, Nd, Nw, Nm or Ny (commit dates from then),
 *	or a revision (commits after it: REV..HEAD); default: all.
 *
 *	Without import: the reports fixed since SPEC (default 30d),
 *	oldest first: ID, the commit's first 12 digits, the report's
 *	subject and the tree, tab separated; --json prints an array.
 */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "archive.h"
#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "crashsig.h"
#include "deliver.h"
#include "desk.h"
#include "experts.h"
#include "forward.h"
#include "link.h"
#include "strbuf.h"
#include "token.h"
#include "util.h"

#define FIXES_FORMAT                                            \
	"--format=%x1e%H%x1f%ct%x1f%(trailers:key=Reported-by," \
	"key=Closes,key=Link,key=Fixes,unfold,separator=%x1f)%n%x1d%s"
#define TREE_MAX    1024
#define SUBJECT_MAX 512

#define IMPORT_USAGE "triage fixes import --git DIR [--since DATE|REV]"
#define LIST_USAGE   "triage fixes [--since SPEC] [--json]"

/* one commit being read, and the import's state */
struct importer {
	struct audit *db;
	const struct config *cfg;
	struct router_id rid;
	const struct token_key *key;
	const char *who, *tree;
	time_t now;
	bool notify;
	/* the commit: its header line's copy, until its subject line */
	char *header;
	char sha[41];
	char subject[SUBJECT_MAX];
	unsigned long commits, matched, marked, notes;
	int failed;
};

/* origin - the first line git prints: remote.origin.url */
static void origin(void *arg, char *line, size_t len, bool overlong)
{
	char *tree = arg;

	if (!overlong && len && !tree[0] && len < TREE_MAX)
		memcpy(tree, line, len + 1);
}

/*
 * report_of - 1 and *root when root is a report; a patch mail that was
 * a fix proposed for a report names that report (a commit's Link: is
 * usually the patch as it was posted); anything else, 0
 */
static int report_of(struct audit *db, int rc, int64_t *root)
{
	struct audit_root facts;

	if (rc != 1)
		return rc;
	rc = audit_root_get(db, *root, &facts);
	if (rc != 1)
		return rc;
	if (!strcmp(facts.kind, "patch"))
		return audit_fix_proposed_by(db, *root, root);
	return !strcmp(facts.kind, "report") ? 1 : 0;
}

/* named - the report a trailer names: 1 and *root, 0, -1 */
static int named(struct importer *im, const char *key, const char *value,
		 int64_t *root)
{
	const char *pattern = im->rid.archive;
	char id[512], tok[TOKEN_SIZE];
	int64_t rid;

	*root = 0;
	if (im->key && im->rid.local[0] &&
	    archive_report_addr(value, im->rid.local, &rid, tok, sizeof(tok))) {
		if (!token_check(im->key, rid, tok, strlen(tok)))
			return 0;
		return report_of(im->db, audit_thread_of(im->db, rid, root),
				 root);
	}
	if (!strcasecmp(key, "Reported-by")) {
		if (!crashsig_syzbot_in(value, id, sizeof(id)))
			return 0;
		return report_of(im->db,
				 audit_same_crash(im->db, NULL, id, 0, root),
				 root);
	}
	if ((!strcasecmp(key, "Closes") || !strcasecmp(key, "Link")) &&
	    link_archive_msgid(pattern, value, id, sizeof(id)))
		return report_of(im->db, audit_thread_find(im->db, id, root),
				 root);
	return 0;
}

/* notify - the reporter of report learns which commit fixed it */
static int notify(struct importer *im, int64_t report)
{
	struct audit_record r;
	struct deliver_message m;
	struct audit_outbox_new o;
	struct strbuf body = STRBUF_INIT(4096), msg = STRBUF_INIT(16384);
	char env[320], *subject = NULL;
	const char *to[2] = { env, NULL };
	int rc = audit_get_report(im->db, report, 0, &r);

	if (rc <= 0)
		return rc;
	rc = 0;
	/*
	 * a person's report only: a fuzzer's came from a bot, and a held
	 * uncertain or ai one was never passed on
	 */
	if (!r.envelope_from || !r.class || strcmp(r.class, "user") ||
	    addr_parse(r.envelope_from, env, sizeof(env)) < 0)
		goto out;
	sb_addf(&body,
		"Hello,\n\n"
		"the problem you reported has been fixed by commit\n\n"
		"    %.12s (\"%s\")\n\n"
		"in %s.\n\n"
		"This is an automatic note; answers to it are not read.\n",
		im->sha, im->subject, im->tree);
	subject = xasprintf("Re: %s", r.subject ? r.subject : "your report");
	memset(&m, 0, sizeof(m));
	m.from_name = im->rid.name;
	m.from_addr = im->rid.address;
	m.to = to;
	m.subject = subject;
	m.in_reply_to = r.message_id;
	m.auto_submitted = DELIVER_AUTO_GENERATED;
	m.body = body.buf;
	m.body_len = body.len;
	m.date = im->now;
	if (deliver_compose_message(&m, &msg) < 0)
		goto out;
	memset(&o, 0, sizeof(o));
	o.report = report;
	o.kind = "reply";
	o.created_at = im->now;
	o.envelope_from = "";
	o.recipients = env;
	o.message = msg.buf;
	o.message_len = msg.len;
	rc = audit_outbox_enqueue(im->db, &o, NULL) < 0 ? -1 : 1;
out:
	free(subject);
	sb_release(&body);
	sb_release(&msg);
	audit_record_release(&r);
	return rc;
}

/* mark - the commit fixed report (once per commit) */
static void mark(struct importer *im, int64_t report, const char *how)
{
	struct audit_fix f;
	int rc;

	im->matched++;
	memset(&f, 0, sizeof(f));
	f.report = report;
	f.at = im->now;
	f.state = "fixed";
	f.commit_sha = im->sha;
	f.subject = im->subject;
	f.tree = im->tree;
	f.how = how;
	if (audit_begin(im->db) < 0) {
		im->failed = -1;
		return;
	}
	rc = audit_mark_fixed(im->db, &f, im->who);
	if (rc == 1 && im->notify) {
		int n = notify(im, report);

		rc = n < 0 ? -1 : rc;
		im->notes += n > 0;
	}
	if (rc < 0 || audit_commit(im->db) < 0) {
		audit_rollback(im->db);
		im->failed = -1;
		return;
	}
	if (rc == 1) {
		im->marked++;
		printf("fixed: #%lld by %.12s (%s)\n", (long long)report,
		       im->sha, how);
	}
}

/* commit - the commit read (header and subject): its trailers matched */
static void commit(struct importer *im)
{
	char *p = im->header, *key, *value, *f;
	int64_t done[16], root;
	size_t ndone = 0, i;
	int rc;

	/* "\x1e" SHA "\x1f" CT "\x1f" TRAILERS */
	f = strchr(p + 1, '\x1f');
	if (!f || f - (p + 1) != 40 || !(f = strchr(f + 1, '\x1f')))
		return;
	memcpy(im->sha, p + 1, 40);
	im->sha[40] = '\0';
	im->commits++;
	for (p = f + 1;
	     !im->failed && experts_next_trailer(&p, &key, &value);) {
		rc = named(im, key, value, &root);
		if (rc < 0) {
			im->failed = -1;
			break;
		}
		for (i = 0; i < ndone && rc == 1; i++)
			if (done[i] == root)
				rc = 0;
		if (rc != 1)
			continue;
		if (ndone < ARRAY_SIZE(done))
			done[ndone++] = root;
		mark(im, root,
		     !strcasecmp(key, "Closes") ? "Closes:"
		     : !strcasecmp(key, "Link") ? "Link:"
						: "Reported-by:");
	}
}

static void line(void *arg, char *s, size_t len, bool overlong)
{
	struct importer *im = arg;

	if (overlong || im->failed)
		return;
	if (s[0] == '\x1e') {
		free(im->header);
		im->header = xmemdup0(s, len);
	} else if (s[0] == '\x1d' && im->header) {
		snprintf(im->subject, sizeof(im->subject), "%s", s + 1);
		commit(im);
		free(im->header);
		im->header = NULL;
	}
}

/*
 * since_arg - --since: a date ("--since=@T") or a revision ("REV..HEAD"
 * after "--end-of-options", so that it is never an option to git)
 */
static int since_arg(const char *spec, time_t now, char *buf, size_t size,
		     const char **args, size_t *n)
{
	time_t t;
	size_t i;

	if (experts_parse_since(spec, now, &t) == 0) {
		if (t > 0) {
			snprintf(buf, size, "--since=@%lld", (long long)t);
			args[(*n)++] = buf;
		}
		return 0;
	}
	for (i = 0; spec[i]; i++)
		if (!isalnum((unsigned char)spec[i]) &&
		    !strchr("._/~^@{}-", spec[i]))
			break;
	if (!spec[0] || spec[i] || spec[0] == '-' || i > 200)
		return error("--since '%s' is neither a date nor a revision",
			     spec);
	snprintf(buf, size, "%s..HEAD", spec);
	args[(*n)++] = "--end-of-options";
	args[(*n)++] = buf;
	return 0;
}

static int import_setup(struct importer *im, struct cmd_ctx *ctx)
{
	im->cfg = cmd_config(ctx);
	if (router_id_load(&im->rid, im->cfg) < 0)
		return EX_CONFIG;
	im->key = router_token_key(&im->rid);
	im->notify = config_bool(im->cfg, "notify_reporter_fixed");
	im->now = desk_now();
	return 0;
}

static int fixes_import(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = { IMPORT_USAGE, NULL };
	/* --default: no origin is no error (the tree is then DIR) */
	static const char *const cfg_args[] = { "config", "--default", "",
						"--get", "remote.origin.url" };
	const char *dir = NULL, *since = NULL, *args[5];
	char who[DESK_LOGIN_MAX + 1], tree[TREE_MAX] = "", sbuf[256];
	struct importer im;
	size_t nargs = 0;
	int ret;
	const struct opt opts[] = {
		OPT_STRING('g', "git", &dir, "DIR", "the git repository"),
		OPT_STRING('s', "since", &since, "DATE|REV",
			   "commits since a date, or after a revision"),
		OPT_END(),
	};

	if (parse_options(argc, argv, opts, usage, 0) || !dir)
		usage_with_options(usage, opts);
	memset(&im, 0, sizeof(im));
	ret = import_setup(&im, ctx);
	if (ret)
		return ret;
	args[nargs++] = FIXES_FORMAT;
	args[nargs++] = "--reverse"; /* oldest first: fixes in their order */
	if (since &&
	    since_arg(since, im.now, sbuf, sizeof(sbuf), args, &nargs) < 0)
		return EX_USAGE;
	if (desk_who(who, sizeof(who)) < 0)
		return EX_CONFIG;
	/* the tree: where the commits are published, else the directory */
	if (experts_git_run(dir, cfg_args, ARRAY_SIZE(cfg_args), origin, tree) <
		    0 ||
	    !tree[0])
		snprintf(tree, sizeof(tree), "%s", dir);
	im.who = who;
	im.tree = tree;
	ret = desk_open(im.cfg, DESK_WRITE, &im.db);
	if (ret)
		return ret;
	if (experts_git_log(dir, args, nargs, line, &im) < 0)
		ret = EX_NOINPUT;
	else if (im.failed)
		ret = desk_busy(im.db, "the import stopped");
	free(im.header);
	printf("fixes: %lu commits read, %lu reports named, %lu marked fixed, "
	       "%lu notes to reporters\n",
	       im.commits, im.matched, im.marked, im.notes);
	if (im.notes)
		desk_drain(im.cfg, im.db, (unsigned)im.notes, stdout);
	audit_close(im.db);
	return ret;
}

struct lister {
	bool json;
	json_t *arr;
};

static int list_one(const struct audit_fixed *f, void *arg)
{
	struct lister *l = arg;
	json_t *o;

	if (!l->json) {
		printf("%lld\t%.12s\t%s\t%s\n", (long long)f->report,
		       f->commit_sha, f->subject, f->tree);
		return 0;
	}
	o = json_object();
	json_object_set_new(o, "id", json_integer(f->report));
	json_object_set_new(o, "commit", cmd_json_str(f->commit_sha));
	json_object_set_new(o, "subject", cmd_json_str(f->subject));
	json_object_set_new(o, "tree", cmd_json_str(f->tree));
	json_object_set_new(o, "how", cmd_json_str(f->how));
	json_object_set_new(o, "at", json_integer(f->at));
	json_object_set_new(o, "state", cmd_json_str(f->state));
	json_array_append_new(l->arr, o);
	return 0;
}

int cmd_fixes(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = { LIST_USAGE, IMPORT_USAGE, NULL };
	const char *since = "30d";
	struct lister l = { false, NULL };
	struct audit *db;
	time_t t;
	int ret;
	const struct opt opts[] = {
		OPT_STRING('s', "since", &since, "SPEC",
			   "fixed since (30d; Nd, Nw, YYYY-MM-DD, all)"),
		OPT_BOOL(0, "json", &l.json, "print JSON instead of text"),
		OPT_END(),
	};

	if (argc >= 2 && strcmp(argv[1], "import") == 0)
		return fixes_import(argc - 1, argv + 1, ctx);
	if (parse_options(argc, argv, opts, usage, 0))
		usage_with_options(usage, opts);
	if (cmd_parse_since(since, desk_now(), &t) < 0)
		return EX_USAGE;
	ret = desk_open(cmd_config(ctx), DESK_READ, &db);
	if (ret)
		return ret;
	l.arr = l.json ? json_array() : NULL;
	if (audit_fixed_list(db, (int64_t)t, list_one, &l) < 0)
		ret = desk_busy(db, "the list is incomplete");
	if (l.json)
		cmd_print_json(l.arr);
	audit_close(db);
	return ret;
}
