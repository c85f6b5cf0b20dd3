// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_digest - the fuzzer digest: grouping by crash title, when a
 * section is due, the recipient, the message, and that a report is
 * listed exactly once even when it commits after the cursor moved
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "config.h"
#include "digest.h"
#include "evidence.h"
#include "map.h"
#include "record.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

#define T0  1704067200 /* 2024-01-01 00:00 UTC */
#define DAY 86400

static const char maintainers[] = "XFS FILESYSTEM\n"
				  "M:\tXavier <xavier@xfs.example>\n"
				  "L:\tlinux-xfs@lists.example\n"
				  "F:\tfs/xfs/\n"
				  "\n"
				  "LIST ONLY\n"
				  "L:\tonly-list@lists.example\n"
				  "F:\tfs/list/\n"
				  "\n"
				  "NOBODY\n"
				  "S:\tOrphan\n"
				  "F:\tfs/nobody/\n";

static const char routes[] =
	"router_address = triage@router.example\n"
	"roster \"XFS FILESYSTEM\" fuzz@xfs.example class=fuzzer\n"
	"action fuzzer digest daily\n"
	"filter_timeout = 120\n";

struct fixture {
	struct audit *db;
	struct config *cfg;
	struct map *map;
	char path[64];
	int n;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	bool temp;
	int fd;

	assert_int_equal(audit_open(":memory:", AUDIT_CREATE, 0, &f->db, &temp),
			 0);
	f->cfg = config_parse(routes, "routes.conf");
	assert_non_null(f->cfg);
	snprintf(f->path, sizeof(f->path), "/tmp/test_digest.XXXXXX");
	fd = mkstemp(f->path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, maintainers, sizeof(maintainers) - 1),
			 (ssize_t)sizeof(maintainers) - 1);
	close(fd);
	f->map = map_load_text(f->path, NULL);
	assert_non_null(f->map);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	map_free(f->map);
	config_free(f->cfg);
	audit_close(f->db);
	unlink(f->path);
	free(f);
	return 0;
}

/* add - a fuzzer report of section in state digest, with a crash title */
static int64_t add(struct fixture *f, const char *section, const char *title,
		   int64_t at)
{
	struct report *r = report_new();
	struct evidence ev;
	struct audit_section s = { section, 1.0, "guilty file" };
	struct audit_classification c = { .class = "fuzzer", .at = at };
	int64_t id;

	f->n++;
	snprintf(r->sha256, sizeof(r->sha256), "%064x", f->n);
	r->raw = xasprintf("From: syzbot <syzbot@example.org>\n"
			   "Subject: [syzbot] %s\n\nreport %d\n",
			   title ? title : "no title", f->n);
	r->raw_len = strlen(r->raw);
	free(r->subject);
	r->subject =
		xasprintf("[syzbot] %s #%d", title ? title : "no title", f->n);
	free(r->from);
	r->from = xstrdup("syzbot <syzbot@example.org>");
	memset(&ev, 0, sizeof(ev));
	ev.title = (char *)title;
	assert_int_equal(audit_insert_report(f->db, r, at, "digest", 0, &id),
			 0);
	assert_int_equal(audit_insert_evidence(f->db, id, &ev), 0);
	assert_int_equal(audit_insert_classification(f->db, id, &c), 0);
	assert_int_equal(audit_insert_sections(f->db, id, &s, 1), 0);
	report_free(r);
	return id;
}

static void test_collect_groups(void **state)
{
	struct fixture *f = *state;
	struct digest d;
	const struct digest_section *s;

	add(f, "XFS FILESYSTEM", "KASAN: use-after-free in xfs_a", T0 + 100);
	add(f, "XFS FILESYSTEM", "WARNING in xfs_b", T0 + 200);
	add(f, "XFS FILESYSTEM", "KASAN: use-after-free in xfs_a", T0 + 300);
	add(f, "XFS FILESYSTEM", NULL, T0 + 400);
	add(f, "LIST ONLY", "BUG in list_c", T0 + 500);

	assert_int_equal(digest_collect(f->db, f->cfg, NULL, &d), 0);
	assert_int_equal(d.n, 2);
	assert_string_equal(d.v[0].section, "LIST ONLY");
	s = &d.v[1];
	assert_string_equal(s->section, "XFS FILESYSTEM");
	assert_int_equal(s->nreports, 4);
	assert_int_equal(s->ngroups, 3);
	assert_int_equal(s->period, DAY);
	assert_int_equal(s->last_sent_at, 0);
	/* first digest: one period after the oldest report */
	assert_int_equal(s->due_at, T0 + 100 + DAY);
	/* most reports first, then the oldest */
	assert_string_equal(s->groups[0].title,
			    "KASAN: use-after-free in xfs_a");
	assert_int_equal(s->groups[0].count, 2);
	assert_int_equal(s->groups[0].reports[0], 1);
	assert_int_equal(s->groups[0].reports[1], 3);
	assert_int_equal(s->groups[0].first_seen, T0 + 100);
	assert_int_equal(s->groups[0].last_seen, T0 + 300);
	assert_string_equal(s->groups[0].subject,
			    "[syzbot] KASAN: use-after-free in xfs_a #1");
	assert_true(s->groups[0].has_title);
	assert_string_equal(s->groups[1].title, "WARNING in xfs_b");
	/* no crash title: the subject is the group */
	assert_false(s->groups[2].has_title);
	assert_string_equal(s->groups[2].title, "[syzbot] no title #4");
	digest_release(&d);

	/* one section, named in any case */
	assert_int_equal(digest_collect(f->db, f->cfg, "xfs filesystem", &d),
			 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].nreports, 4);
	digest_release(&d);
}

static void test_compose(void **state)
{
	struct fixture *f = *state;
	struct router_id rid = { .address = "triage@router.example",
				 .name = "triage",
				 .bounce = "triage@router.example" };
	struct strbuf msg = STRBUF_INIT(DIGEST_MAX_BYTES);
	struct digest d;

	setenv("TZ", "UTC", 1);
	tzset();
	add(f, "XFS FILESYSTEM", "KASAN: use-after-free in xfs_a", T0 + 100);
	add(f, "XFS FILESYSTEM", "KASAN: use-after-free in xfs_a", T0 + 300);
	add(f, "XFS FILESYSTEM", "WARNING in \033[2Jxfs_b", T0 + 200);
	assert_int_equal(digest_collect(f->db, f->cfg, NULL, &d), 0);
	assert_int_equal(digest_compose(&d.v[0], &rid, "fuzz@xfs.example",
					T0 + DAY, &msg),
			 0);
	assert_non_null(strstr(msg.buf,
			       "From: triage <triage@router.example>\n"
			       "To: fuzz@xfs.example\n"
			       "Subject: [fuzzer digest] XFS FILESYSTEM: "
			       "3 reports, 2 crash titles\n"));
	assert_non_null(strstr(msg.buf, "\nAuto-Submitted: auto-generated\n"));
	assert_non_null(
		strstr(msg.buf, "\nX-Triage-Section: XFS FILESYSTEM\n"));
	assert_non_null(
		strstr(msg.buf, "\nMessage-ID: <triage-digest.1704153600."));
	assert_non_null(strstr(msg.buf,
			       "\n1. KASAN: use-after-free in xfs_a\n"
			       "   2 reports, first 2024-01-01 00:01:40 +0000, "
			       "last 2024-01-01 00:05:00 +0000\n"
			       "   reports 1, 2\n"));
	/* untrusted titles are cleaned */
	assert_non_null(strstr(msg.buf, "\n2. WARNING in ?[2Jxfs_b\n"));
	assert_null(strchr(msg.buf, '\033'));
	sb_release(&msg);
	digest_release(&d);
}

struct seen {
	int calls, queued;
	char to[64], why[64];
};

static void note(const struct digest_sent *s, void *arg)
{
	struct seen *x = arg;

	x->calls++;
	if (s->outbox)
		x->queued++;
	snprintf(x->to, sizeof(x->to), "%s", s->to ? s->to : "");
	snprintf(x->why, sizeof(x->why), "%s", s->why ? s->why : "");
}

static void test_enqueue(void **state)
{
	struct fixture *f = *state;
	struct audit_outbox_item it;
	struct audit_record rec;
	struct seen x;
	struct digest d;
	int64_t at, late;

	add(f, "XFS FILESYSTEM", "KASAN: use-after-free in xfs_a", T0 + 100);
	add(f, "XFS FILESYSTEM", "WARNING in xfs_b", T0 + 200);

	/* not due yet: nothing written */
	memset(&x, 0, sizeof(x));
	assert_int_equal(digest_enqueue(f->db, f->cfg, f->map, NULL, "alice",
					T0 + 1000, note, &x),
			 0);
	assert_int_equal(x.calls, 1);
	assert_string_equal(x.why, "not due yet");
	assert_int_equal(audit_digest_cursor(f->db, "XFS FILESYSTEM", &at), 0);

	/* due: one mail to the fuzzer roster, actions, the cursor */
	memset(&x, 0, sizeof(x));
	assert_int_equal(digest_enqueue(f->db, f->cfg, f->map, NULL, "alice",
					T0 + DAY + 100, note, &x),
			 1);
	assert_string_equal(x.to, "fuzz@xfs.example");
	assert_int_equal(audit_digest_cursor(f->db, "XFS FILESYSTEM", &at), 1);
	assert_int_equal(at, T0 + DAY + 100);
	assert_int_equal(
		audit_outbox_claim_due(f->db, T0 + DAY + 100, 60, false, &it),
		1);
	assert_string_equal(it.kind, "digest");
	assert_int_equal(it.report, 0);
	assert_string_equal(it.recipients, "fuzz@xfs.example");
	assert_non_null(strstr(it.message, "2 reports, 2 crash titles"));
	audit_outbox_item_release(&it);
	assert_int_equal(audit_get_report(f->db, 1, 0, &rec), 1);
	assert_int_equal(rec.nactions, 1);
	assert_string_equal(rec.actions[0].action, "digest");
	assert_string_equal(rec.actions[0].who, "alice");
	assert_string_equal(rec.actions[0].argument, "XFS FILESYSTEM");
	assert_string_equal(rec.state, "digest");
	audit_record_release(&rec);

	/* nothing new: nothing to send, whenever */
	assert_int_equal(digest_collect(f->db, f->cfg, NULL, &d), 0);
	assert_int_equal(d.n, 0);
	digest_release(&d);
	assert_int_equal(
		digest_enqueue_due(f->db, f->cfg, f->map, T0 + 9 * DAY), 0);

	/*
	 * A filter that started before the digest and committed after it:
	 * received before the cursor, never listed; it is in the next one,
	 * due a period after the cursor.  One older than the grace is not
	 * (such a report cannot exist: the filter's deadline).
	 */
	late = add(f, "XFS FILESYSTEM", "WARNING in xfs_b", T0 + DAY + 70);
	add(f, "XFS FILESYSTEM", "WARNING in xfs_b", T0 + DAY + 100 - 181);
	assert_int_equal(digest_collect(f->db, f->cfg, "XFS FILESYSTEM", &d),
			 0);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.v[0].nreports, 1);
	assert_int_equal(d.v[0].groups[0].reports[0], late);
	assert_int_equal(d.v[0].due_at, T0 + 2 * DAY + 100);
	digest_release(&d);
}

static void test_recipient(void **state)
{
	struct fixture *f = *state;
	char to[64];
	struct seen x;

	assert_int_equal(digest_recipient(f->db, f->cfg, f->map,
					  "XFS FILESYSTEM", T0, to, sizeof(to)),
			 0);
	assert_string_equal(to, "fuzz@xfs.example");
	/* away by mail ("#triage away"): someone else, until then */
	assert_int_equal(
		audit_person_away(f->db, "fuzz@xfs.example", T0 + 10 * DAY, T0),
		0);
	assert_int_equal(digest_recipient(f->db, f->cfg, f->map,
					  "XFS FILESYSTEM", T0 + DAY, to,
					  sizeof(to)),
			 0);
	assert_string_not_equal(to, "fuzz@xfs.example");
	assert_int_equal(digest_recipient(f->db, f->cfg, f->map,
					  "XFS FILESYSTEM", T0 + 11 * DAY, to,
					  sizeof(to)),
			 0);
	assert_string_equal(to, "fuzz@xfs.example");
	/* no person: the list */
	assert_int_equal(digest_recipient(f->db, f->cfg, f->map, "LIST ONLY",
					  T0, to, sizeof(to)),
			 0);
	assert_string_equal(to, "only-list@lists.example");
	/* nobody at all, or no such section: the reports keep waiting */
	assert_int_equal(digest_recipient(f->db, f->cfg, f->map, "NOBODY", T0,
					  to, sizeof(to)),
			 -1);
	assert_int_equal(digest_recipient(f->db, f->cfg, f->map, "NO SUCH", T0,
					  to, sizeof(to)),
			 -1);
	add(f, "NOBODY", "BUG in nobody_d", T0);
	memset(&x, 0, sizeof(x));
	assert_int_equal(digest_enqueue(f->db, f->cfg, f->map, NULL, "triage",
					T0 + 2 * DAY, note, &x),
			 0);
	assert_string_equal(x.why, "nobody to send it to");
	assert_int_equal(x.queued, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_collect_groups, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_compose, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enqueue, setup, teardown),
		cmocka_unit_test_setup_teardown(test_recipient, setup,
						teardown),
	};

	msg_setup("test_digest", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
