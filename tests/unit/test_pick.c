// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pick - the pick stage: triager, expert, M:/R:, L:, burnout caps
 *
 * A fixture MAINTAINERS is compiled with map_compile(); the experts
 * table is imported from git log output written by the test; the
 * audit database is a fake load callback that counts assignments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "evidence.h"
#include "experts.h"
#include "maintainers.h"
#include "map.h"
#include "pick.h"
#include "util.h"

#define DAY 86400
/* 2026-12-03 12:00:00 UTC (the tests run with TZ=UTC) */
#define NOW 1796299200L

static const char maintainers_text[] =
	"XFS FILESYSTEM\n"
	"M:\tChandan Maint <chandan@example.org>\n"
	"R:\tDarrick Rev <darrick@example.org>\n"
	"L:\tlinux-xfs@vger.kernel.org\n"
	"S:\tSupported\n"
	"B:\thttps://bugzilla.example.org/xfs\n"
	"F:\tfs/xfs/\n"
	"\n"
	"NETWORKING [GENERAL]\n"
	"M:\tDave Net <davem@example.org>\n"
	"L:\tnetdev@vger.kernel.org\n"
	"B:\tmailto:netdev@vger.kernel.org\n"
	"F:\tnet/\n"
	"\n"
	"SAMSUNG SOC\n"
	"M:\tKrzysztof Soc <krzk@example.org>\n"
	"L:\tlinux-samsung-soc@vger.kernel.org\n"
	"B:\tmailto:samsung-bugs@example.org\n"
	"F:\tarch/arm/mach-samsung/\n"
	"\n"
	"LISTONLY DRIVER\n"
	"L:\tlistonly@example.org (moderated for non-subscribers)\n"
	"F:\tdrivers/listonly/\n"
	"\n"
	"SOLO DRIVER\n"
	"M:\tSolo Maint <solo@example.org>\n"
	"L:\tsolo-list@example.org (subscribers-only)\n"
	"F:\tdrivers/solo/\n"
	"\n"
	"EMPTY DRIVER\n"
	"S:\tOrphan\n"
	"F:\tdrivers/empty/\n"
	"\n"
	"FILESYSTEMS (VFS and infrastructure)\n"
	"M:\tAl Vfs <viro@example.org>\n"
	"L:\tlinux-fsdevel@vger.kernel.org\n"
	"F:\tfs/\n"
	"\n"
	"THE REST\n"
	"M:\tLinus <torvalds@example.org>\n"
	"L:\tlinux-kernel@vger.kernel.org\n"
	"F:\t*\n"
	"F:\t*/\n";

/*
 * Experts for fs/xfs/xfs_inode.c: e1 3.0 (3 reviews), e2 2.0, e3 1.5
 * (a review and an ack), e4 0.5 (below experts_min_score), the author
 * 0.3.  fs/other/x.c (outside any section but THE REST): e5.
 */
static const char experts_log[] =
	"\x1e"
	"1796299200\x1fx1@example.org\x1fX One\x1f"
	"Reviewed-by: E One <e1@example.org>\x1f"
	"Reviewed-by: E Two <e2@example.org>\x1f"
	"Reviewed-by: E Three <e3@example.org>\n\nfs/xfs/xfs_inode.c\n"
	"\x1e"
	"1796299200\x1fx1@example.org\x1fX One\x1f"
	"Reviewed-by: E One <e1@example.org>\x1f"
	"Reviewed-by: E Two <e2@example.org>\x1f"
	"Acked-by: E Three <e3@example.org>\x1f"
	"Acked-by: E Four <e4@example.org>\n\nfs/xfs/xfs_inode.c\n"
	"\x1e"
	"1796299200\x1fx1@example.org\x1fX One\x1f"
	"Reviewed-by: E One <e1@example.org>\n\nfs/xfs/xfs_inode.c\n"
	"\x1e"
	"1796299200\x1fx1@example.org\x1fX One\x1f"
	"Reviewed-by: E Five <e5@example.org>\n\nfs/other/x.c\n";

static struct map *map;
static struct experts *ex;
static char tmpdir[] = "/tmp/triage-pick-XXXXXX";

/* ---- the fake audit database ------------------------------------------- */

struct fake_db {
	struct {
		char addr[64];
		time_t when;
	} a[512];
	size_t n;
	unsigned calls;
	unsigned fail_at; /* the call that fails (a database error), or 0 */
};

static int fake_load(void *ctx, const char *addr, time_t day_start,
		     time_t week_start, unsigned *day, unsigned *week)
{
	struct fake_db *db = ctx;
	size_t i;

	db->calls++;
	*day = 0;
	*week = 0;
	if (db->calls == db->fail_at)
		return -1;
	for (i = 0; i < db->n; i++) {
		if (strcmp(db->a[i].addr, addr) != 0)
			continue;
		*day += db->a[i].when >= day_start;
		*week += db->a[i].when >= week_start;
	}
	return 0;
}

static void give(struct fake_db *db, const char *addr, unsigned n, time_t when)
{
	while (n--) {
		assert_true(db->n < ARRAY_SIZE(db->a));
		snprintf(db->a[db->n].addr, sizeof(db->a[db->n].addr), "%s",
			 addr);
		db->a[db->n++].when = when;
	}
}

/* ---- helpers ------------------------------------------------------------ */

static struct pick_config *conf(const char *text)
{
	struct config *cfg = config_parse(text, "routes.conf");
	struct pick_config *pc;

	assert_non_null(cfg);
	pc = pick_config_load(cfg, map);
	config_free(cfg);
	return pc;
}

static uint32_t sec(const char *title)
{
	int s = map_find_section(map, title);

	assert_true(s >= 0);
	return (uint32_t)s;
}

struct report {
	struct pick_section s[4];
	size_t ns;
	struct evidence ev;
	char *files[2];
	struct pick_request rq;
	struct pick_result res;
	struct fake_db db;
};

/* report - a report mapped to one section (plus THE REST) */
static void report(struct report *r, const char *title, const char *file,
		   struct pick_config *pc)
{
	memset(r, 0, sizeof(*r));
	if (title) {
		r->s[r->ns].section = sec(title);
		r->s[r->ns++].score = 3;
	}
	r->s[r->ns].section = sec("THE REST");
	r->s[r->ns++].score = -1;
	r->files[0] = (char *)file;
	r->ev.guilty_file = (char *)file;
	r->ev.files = r->files;
	r->ev.nfiles = file ? 1 : 0;
	r->rq.map = map;
	r->rq.sections = r->s;
	r->rq.nsections = r->ns;
	r->rq.ev = &r->ev;
	r->rq.reporter = "Some User <user@example.net>";
	r->rq.class = "user";
	r->rq.cfg = pc;
	r->rq.ex = ex;
	r->rq.load = fake_load;
	r->rq.load_ctx = &r->db;
	r->rq.now = NOW;
}

static const struct pick_candidate *cand(const struct pick_result *res,
					 const char *addr)
{
	size_t i;

	for (i = 0; i < res->ncand; i++)
		if (strcmp(res->cand[i].addr, addr) == 0)
			return &res->cand[i];
	return NULL;
}

static int setup(void **state)
{
	struct maintainers m;
	struct experts_options o;
	char *log, *idx;
	int fd;

	setenv("TZ", "UTC", 1);
	tzset();
	if (!mkdtemp(tmpdir))
		return -1;
	maintainers_init(&m);
	maintainers_parse(&m, maintainers_text, strlen(maintainers_text),
			  "MAINTAINERS");
	map = map_compile(&m, NULL);
	maintainers_release(&m);
	log = xasprintf("%s/log", tmpdir);
	idx = xasprintf("%s/experts.idx", tmpdir);
	fd = open(log, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, experts_log, strlen(experts_log)) < 0)
		return -1;
	lseek(fd, 0, SEEK_SET);
	experts_options_init(&o);
	o.now = NOW;
	if (experts_import_fd(fd, &o, idx, NULL) < 0)
		return -1;
	close(fd);
	ex = experts_open(idx);
	unlink(log);
	unlink(idx);
	rmdir(tmpdir);
	free(log);
	free(idx);
	return map && ex ? 0 : -1;
}

static int teardown(void **state)
{
	map_free(map);
	experts_free(ex);
	return 0;
}

/* ---- configuration ------------------------------------------------------ */

static void test_config_validation(void **state)
{
	struct pick_config *pc = conf(
		"roster \"xfs filesystem\" alice@example.org Bob@Example.org\n"
		"roster \"XFS FILESYSTEM\" fuzz@example.org class=fuzzer,ai\n"
		"roster \"NO SUCH SECTION\" carol@example.org\n"
		"roster \"SAMSUNG SOC\" not-an-address dave@example.org\n"
		"roster \"SAMSUNG SOC\" x@example.org class=robots\n"
		"roster \"SAMSUNG SOC\"\n"
		"cap alice@example.org day=5 week=20\n"
		"cap * day=10\n"
		"cap * week=40\n"
		"cap bob@example.org day=five\n"
		"cap \"Bob <bob@example.org>\" day=1\n"
		"away bob@example.org 2026-12-20 2027-01-05\n"
		"away bob@example.org 2027-02-30 2027-03-01\n"
		"away bob@example.org 2027-01-05 2026-12-20\n"
		"away carol@example.org 2026-12-20\n"
		"experts_min_score = 2.5\n"
		"unrelated record is ignored\n");

	assert_int_equal(pc->nrosters, 3);
	assert_string_equal(pc->rosters[0].section, "xfs filesystem");
	assert_int_equal(pc->rosters[0].naddrs, 2);
	assert_string_equal(pc->rosters[0].addrs[1], "bob@example.org");
	assert_int_equal(pc->rosters[0].classes, PICK_CLASS_ALL);
	assert_int_equal(pc->rosters[1].classes,
			 PICK_CLASS_FUZZER | PICK_CLASS_AI);
	assert_int_equal(pc->rosters[1].line, 2);
	/* The bad address is dropped, the good one kept. */
	assert_string_equal(pc->rosters[2].section, "SAMSUNG SOC");
	assert_int_equal(pc->rosters[2].naddrs, 1);
	assert_string_equal(pc->rosters[2].addrs[0], "dave@example.org");
	/* "cap bob day=five" keeps the record without a limit. */
	assert_int_equal(pc->ncaps, 2);
	assert_int_equal(pc->caps[0].day, 5);
	assert_int_equal(pc->caps[0].week, 20);
	assert_int_equal(pc->caps[1].day, PICK_UNLIMITED);
	assert_int_equal(pc->def.day, 10);
	assert_int_equal(pc->def.week, 40);
	assert_int_equal(pc->naways, 1);
	assert_string_equal(pc->aways[0].to, "2027-01-05");
	assert_int_equal(pc->aways[0].from, 1797724800L);  /* 2026-12-20 */
	assert_int_equal(pc->aways[0].until, 1799193600L); /* 2027-01-06 */
	assert_true(pc->expert_min_score == 2.5);
	pick_config_free(pc);

	/* Without a map, titles cannot be checked and are kept. */
	{
		struct config *cfg =
			config_parse("roster \"NO SUCH\" a@example.org\n", "c");

		pc = pick_config_load(cfg, NULL);
		assert_int_equal(pc->nrosters, 1);
		pick_config_free(pc);
		config_free(cfg);
	}
	assert_int_equal(pick_class_bits("Fuzzer"), PICK_CLASS_FUZZER);
	assert_int_equal(pick_class_bits("spam"), 0);
	assert_int_equal(pick_class_bits(NULL), 0);
}

/* ---- tier 1: triagers ----------------------------------------------------- */

static void test_roster_least_loaded(void **state)
{
	struct pick_config *pc = conf("roster \"XFS FILESYSTEM\" "
				      "alice@example.org bob@example.org\n"
				      "cap * day=5 week=20\n");
	struct report r;

	report(&r, "XFS FILESYSTEM", "fs/xfs/xfs_inode.c", pc);
	give(&r.db, "alice@example.org", 3, NOW - 3600);
	give(&r.db, "bob@example.org", 1, NOW - 3600);
	give(&r.db, "bob@example.org", 4, NOW - 3 * DAY);
	/* bob: 1/5 today but 5 this week, 5/20 = alice's 3/5 would be
	 * 0.6 against bob's max(0.2, 0.25): bob is less loaded. */
	pick_recipient(&r.rq, &r.res);
	assert_int_equal(r.res.outcome, PICK_PERSON);
	assert_string_equal(r.res.addr, "bob@example.org");
	assert_string_equal(
		r.res.reason,
		"roster for XFS FILESYSTEM; bob@example.org at 1/5 today, 5/20 this week");
	assert_int_equal(r.res.section, (int)sec("XFS FILESYSTEM"));
	assert_string_equal(r.res.bug_url, "https://bugzilla.example.org/xfs");
	assert_int_equal(cand(&r.res, "alice@example.org")->status,
			 PICK_AVAILABLE);
	assert_int_equal(cand(&r.res, "alice@example.org")->day, 3);
	assert_int_equal(cand(&r.res, "bob@example.org")->status, PICK_CHOSEN);
	assert_int_equal(cand(&r.res, "bob@example.org")->role, PICK_ROSTER);
	/* Lower tiers are listed for 'triage show', not evaluated. */
	assert_int_equal(cand(&r.res, "e1@example.org")->status,
			 PICK_UNCHECKED);
	assert_int_equal(cand(&r.res, "chandan@example.org")->status,
			 PICK_UNCHECKED);
	assert_int_equal(cand(&r.res, "linux-xfs@vger.kernel.org")->role,
			 PICK_LIST);
	assert_int_equal(r.db.calls, 2); /* one look per evaluated candidate */
	pick_result_release(&r.res);

	/* Equal load: roster order. */
	report(&r, "XFS FILESYSTEM", NULL, pc);
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "alice@example.org");
	pick_result_release(&r.res);
	pick_config_free(pc);
}

static void test_roster_by_class(void **state)
{
	struct pick_config *pc = conf(
		"roster \"XFS FILESYSTEM\" alice@example.org class=user\n"
		"roster \"XFS FILESYSTEM\" fuzz@example.org class=fuzzer\n");
	struct report r;

	report(&r, "XFS FILESYSTEM", NULL, pc);
	r.rq.class = "fuzzer";
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "fuzz@example.org");
	assert_null(cand(&r.res, "alice@example.org"));
	pick_result_release(&r.res);
	r.rq.class = "user";
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "alice@example.org");
	assert_null(cand(&r.res, "fuzz@example.org"));
	pick_result_release(&r.res);
	/* An unknown class matches no class-restricted roster. */
	r.rq.class = NULL;
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "chandan@example.org");
	pick_result_release(&r.res);
	pick_config_free(pc);
}

static void test_bmailto(void **state)
{
	struct pick_config *pc = conf("cap * day=5\n");
	struct report r;

	/* A person (not one of the section's lists): the triager. */
	report(&r, "SAMSUNG SOC", NULL, pc);
	pick_recipient(&r.rq, &r.res);
	assert_int_equal(r.res.outcome, PICK_PERSON);
	assert_string_equal(r.res.addr, "samsung-bugs@example.org");
	assert_int_equal(cand(&r.res, "samsung-bugs@example.org")->role,
			 PICK_TRIAGER);
	assert_string_equal(
		r.res.reason,
		"B: mailto: triager for SAMSUNG SOC; samsung-bugs@example.org at 0/5 today");
	assert_null(r.res.bug_url);
	pick_result_release(&r.res);

	/* The section's own list named by B: mailto: a list, uncapped. */
	report(&r, "NETWORKING [GENERAL]", "net/core/dev.c", pc);
	give(&r.db, "netdev@vger.kernel.org", 50, NOW);
	pick_recipient(&r.rq, &r.res);
	assert_int_equal(r.res.outcome, PICK_TO_LIST);
	assert_string_equal(r.res.addr, "netdev@vger.kernel.org");
	assert_string_equal(
		r.res.reason,
		"B: mailto: triager for NETWORKING [GENERAL] (netdev@vger.kernel.org, a list)");
	assert_int_equal(r.db.calls, 0);
	/* MAINTAINERS asks for reports there; its L: line is plain */
	assert_int_equal(r.res.list_why, PICK_LIST_ASKED);
	assert_null(r.res.list_note);
	pick_result_release(&r.res);
	pick_config_free(pc);
}

/* ---- tier 2: experts ------------------------------------------------------ */

static void test_expert_after_saturated_roster(void **state)
{
	struct pick_config *pc = conf("roster \"XFS FILESYSTEM\" "
				      "alice@example.org bob@example.org\n"
				      "cap * day=5\n");
	struct report r;

	report(&r, "XFS FILESYSTEM", "fs/xfs/xfs_inode.c", pc);
	give(&r.db, "alice@example.org", 5, NOW - 60);
	give(&r.db, "bob@example.org", 6, NOW - 60);
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "e1@example.org");
	assert_string_equal(r.res.name, "E One");
	assert_string_equal(
		r.res.reason,
		"top Reviewed-by expert for fs/xfs/xfs_inode.c (score 3.0, 3 reviews); alice@example.org saturated 5/5 today; bob@example.org saturated 6/5 today");
	assert_int_equal(cand(&r.res, "alice@example.org")->status,
			 PICK_SATURATED);
	assert_int_equal(cand(&r.res, "e1@example.org")->role, PICK_EXPERT);
	assert_true(cand(&r.res, "e1@example.org")->score == 3.0);
	/* the section's M:, the alternative show names, not needed */
	assert_non_null(cand(&r.res, "chandan@example.org"));
	assert_int_equal(cand(&r.res, "chandan@example.org")->role,
			 PICK_MAINTAINER);
	assert_int_equal(cand(&r.res, "chandan@example.org")->status,
			 PICK_UNCHECKED);
	/* Below experts_min_score: never a candidate. */
	assert_null(cand(&r.res, "e4@example.org"));
	assert_null(cand(&r.res, "x1@example.org"));
	pick_result_release(&r.res);
	pick_config_free(pc);
}

static void test_expert_spreads_by_load(void **state)
{
	struct pick_config *pc = conf("cap e1@example.org day=2\n"
				      "cap * day=10 week=40\n");
	struct report r;

	report(&r, "XFS FILESYSTEM", "fs/xfs/xfs_inode.c", pc);
	give(&r.db, "e1@example.org", 2, NOW - 60);
	give(&r.db, "e2@example.org", 3, NOW - 60);
	give(&r.db, "e3@example.org", 1, NOW - 60);
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "e3@example.org");
	assert_string_equal(
		r.res.reason,
		"Reviewed-by expert #3 for fs/xfs/xfs_inode.c (score 1.5, 1 review, 1 ack); e1@example.org saturated 2/2 today");
	assert_int_equal(cand(&r.res, "e2@example.org")->status,
			 PICK_AVAILABLE);
	pick_result_release(&r.res);
	pick_config_free(pc);
}

static void test_expert_away_and_reporter(void **state)
{
	struct pick_config *pc =
		conf("away e1@example.org 2026-12-01 2026-12-05\n"
		     "away e2@example.org 2026-11-01 2026-12-02\n"
		     "away e3@example.org 2026-12-04 2026-12-31\n");
	struct report r;

	report(&r, "XFS FILESYSTEM", "fs/xfs/xfs_new_file.c", pc);
	pick_recipient(&r.rq, &r.res);
	/* e2 is back (the away ended yesterday); e3 leaves tomorrow. */
	assert_string_equal(r.res.addr, "e2@example.org");
	assert_string_equal(
		r.res.reason,
		"Reviewed-by expert #2 for fs/xfs/ (nearest to fs/xfs/xfs_new_file.c) (score 2.0, 2 reviews); e1@example.org away until 2026-12-05");
	assert_int_equal(cand(&r.res, "e1@example.org")->status, PICK_AWAY);
	pick_result_release(&r.res);

	/* The reporter is never picked, whatever the case of the address. */
	r.rq.reporter = "E Two <E2@EXAMPLE.ORG>";
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "e3@example.org");
	assert_int_equal(cand(&r.res, "e2@example.org")->status, PICK_REPORTER);
	assert_non_null(
		strstr(r.res.reason, "; e2@example.org is the reporter"));
	pick_result_release(&r.res);
	pick_config_free(pc);
}

/*
 * The expert stays inside the section: experts found by climbing above
 * it (fs/ for a file XFS was chosen for by its list) are not its own;
 * the section's M: is picked instead
 */
static void test_expert_inside_the_section(void **state)
{
	struct pick_config *pc = conf("");
	struct report r;

	(void)state;
	report(&r, "XFS FILESYSTEM", "fs/newfs/super.c", pc);
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "chandan@example.org");
	assert_null(cand(&r.res, "e1@example.org"));
	assert_null(cand(&r.res, "e5@example.org"));
	pick_result_release(&r.res);
	/* for VFS, whose F: holds fs/, the same climb is inside */
	report(&r, "FILESYSTEMS (VFS and infrastructure)", "fs/newfs/super.c",
	       pc);
	pick_recipient(&r.rq, &r.res);
	assert_non_null(cand(&r.res, "e1@example.org"));
	assert_int_equal(cand(&r.res, "e1@example.org")->role, PICK_EXPERT);
	pick_result_release(&r.res);
	pick_config_free(pc);
}

/* ---- tiers 3 and 4: M:/R: and L: ------------------------------------------ */

static void test_maintainers_and_list(void **state)
{
	struct pick_config *pc = conf("cap * day=2 week=3\n");
	struct report r;

	/* No triager, no expert table. */
	report(&r, "XFS FILESYSTEM", "fs/xfs/xfs_inode.c", pc);
	r.rq.ex = NULL;
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "chandan@example.org");
	assert_string_equal(r.res.name, "Chandan Maint");
	assert_int_equal(cand(&r.res, "chandan@example.org")->role,
			 PICK_MAINTAINER);
	assert_string_equal(r.res.reason,
			    "M: of XFS FILESYSTEM (no triager, no expert)");
	pick_result_release(&r.res);

	/* The M: is the reporter: the R:. */
	r.rq.reporter = "chandan@Example.ORG";
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "darrick@example.org");
	assert_string_equal(
		r.res.reason,
		"R: of XFS FILESYSTEM (no triager, no expert); chandan@example.org is the reporter");
	pick_result_release(&r.res);

	/* A weekly cap: 3 reports three days ago saturate the week. */
	r.rq.reporter = NULL;
	give(&r.db, "chandan@example.org", 3, NOW - 3 * DAY);
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "darrick@example.org");
	assert_non_null(strstr(r.res.reason,
			       "chandan@example.org saturated 3/3 this week"));
	assert_int_equal(cand(&r.res, "chandan@example.org")->day, 0);
	assert_int_equal(cand(&r.res, "chandan@example.org")->week, 3);
	pick_result_release(&r.res);

	/* Eight days ago is outside the week. */
	memset(&r.db, 0, sizeof(r.db));
	give(&r.db, "chandan@example.org", 3, NOW - 8 * DAY);
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "chandan@example.org");
	pick_result_release(&r.res);

	/* Everyone saturated: the list. */
	give(&r.db, "chandan@example.org", 2, NOW - 60);
	give(&r.db, "darrick@example.org", 2, NOW - 60);
	r.rq.ex = ex;
	give(&r.db, "e1@example.org", 2, NOW - 60);
	give(&r.db, "e2@example.org", 2, NOW - 60);
	give(&r.db, "e3@example.org", 2, NOW - 60);
	pick_recipient(&r.rq, &r.res);
	assert_int_equal(r.res.outcome, PICK_TO_LIST);
	assert_string_equal(r.res.addr, "linux-xfs@vger.kernel.org");
	assert_string_equal(
		r.res.reason,
		"L: linux-xfs@vger.kernel.org (no person available); e1@example.org saturated 2/2 today; e2@example.org saturated 2/2 today; e3@example.org saturated 2/2 today; chandan@example.org saturated 2/2 today; 1 more unavailable");
	assert_int_equal(r.res.section, (int)sec("XFS FILESYSTEM"));
	/* the overflow: its people were passed over */
	assert_int_equal(r.res.list_why, PICK_LIST_PASSED);
	pick_result_release(&r.res);
	pick_config_free(pc);
}

/* fake_person - chandan says he is away till tomorrow, darrick caps at 1 */
static int fake_person(void *ctx, const char *addr, time_t *away_until,
		       int *cap_day)
{
	(void)ctx;
	*away_until = 0;
	*cap_day = PICK_UNLIMITED;
	if (!strcmp(addr, "chandan@example.org"))
		*away_until = NOW + DAY;
	else if (!strcmp(addr, "darrick@example.org"))
		*cap_day = 1;
	return 0;
}

static void test_declined_and_declared(void **state)
{
	struct pick_config *pc = conf("cap * day=5\n");
	char who[] = "Chandan@example.org";
	char *declined[] = { who };
	struct report r;

	(void)state;
	report(&r, "XFS FILESYSTEM", "fs/xfs/xfs_inode.c", pc);
	r.rq.ex = NULL;
	/* "#triage notme": never the same person again */
	r.rq.declined = declined;
	r.rq.ndeclined = 1;
	assert_int_equal(pick_recipient(&r.rq, &r.res), 0);
	assert_string_equal(r.res.addr, "darrick@example.org");
	assert_int_equal(cand(&r.res, "chandan@example.org")->status,
			 PICK_DECLINED);
	assert_non_null(
		strstr(r.res.reason, "chandan@example.org gave it back"));
	pick_result_release(&r.res);

	/* "#triage away": not picked while away; "#triage cap 1/day" */
	r.rq.declined = NULL;
	r.rq.ndeclined = 0;
	r.rq.person = fake_person;
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "darrick@example.org");
	assert_int_equal(cand(&r.res, "chandan@example.org")->status,
			 PICK_AWAY);
	assert_int_equal(cand(&r.res, "darrick@example.org")->cap_day, 1);
	pick_result_release(&r.res);
	give(&r.db, "darrick@example.org", 1, NOW - 60);
	pick_recipient(&r.rq, &r.res);
	assert_int_equal(r.res.outcome, PICK_TO_LIST);
	assert_int_equal(cand(&r.res, "darrick@example.org")->status,
			 PICK_SATURATED);
	/* one away, one at a cap: passed over, not a list-only section */
	assert_int_equal(r.res.list_why, PICK_LIST_PASSED);
	assert_non_null(strstr(r.res.reason, "(no person available)"));
	pick_result_release(&r.res);
	/* back the day after: available again */
	r.rq.now = NOW + DAY;
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "chandan@example.org");
	pick_result_release(&r.res);
	pick_config_free(pc);
}

static void test_list_only_and_next_group(void **state)
{
	struct pick_config *pc = conf("");
	struct report r;

	report(&r, "LISTONLY DRIVER", "drivers/listonly/a.c", pc);
	pick_recipient(&r.rq, &r.res);
	assert_int_equal(r.res.outcome, PICK_TO_LIST);
	assert_string_equal(r.res.addr, "listonly@example.org");
	assert_string_equal(
		r.res.reason,
		"L: listonly@example.org (the section names no person)");
	assert_int_equal(r.res.list_why, PICK_LIST_NO_PERSON);
	assert_string_equal(r.res.list_note, "(moderated for non-subscribers)");
	pick_result_release(&r.res);

	/* Its only person sent the report: the list, said so. */
	report(&r, "SOLO DRIVER", "drivers/solo/a.c", pc);
	r.rq.reporter = "Solo <SOLO@example.org>";
	pick_recipient(&r.rq, &r.res);
	assert_int_equal(r.res.outcome, PICK_TO_LIST);
	assert_string_equal(r.res.addr, "solo-list@example.org");
	assert_int_equal(r.res.list_why, PICK_LIST_REPORTER);
	assert_string_equal(r.res.list_note, "(subscribers-only)");
	assert_string_equal(
		r.res.reason,
		"L: solo-list@example.org (no person but the reporter); solo@example.org is the reporter");
	pick_result_release(&r.res);
	/* ... and someone else's: its person */
	r.rq.reporter = "Some User <user@example.net>";
	pick_recipient(&r.rq, &r.res);
	assert_int_equal(r.res.outcome, PICK_PERSON);
	assert_string_equal(r.res.addr, "solo@example.org");
	pick_result_release(&r.res);

	/* A section with nobody at all: the next section by score. */
	report(&r, "EMPTY DRIVER", "drivers/empty/a.c", pc);
	r.s[2] = r.s[1];
	r.s[1].section = sec("FILESYSTEMS (VFS and infrastructure)");
	r.s[1].score = 2;
	r.rq.nsections = 3;
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.addr, "viro@example.org");
	assert_string_equal(
		r.res.reason,
		"M: of FILESYSTEMS (VFS and infrastructure) (no triager, no expert)");
	assert_int_equal(r.res.section,
			 (int)sec("FILESYSTEMS (VFS and infrastructure)"));
	pick_result_release(&r.res);

	/* Nothing anywhere but THE REST: nobody, not Linus. */
	r.rq.nsections = 2;
	r.s[1] = r.s[2];
	pick_recipient(&r.rq, &r.res);
	assert_int_equal(r.res.outcome, PICK_NOBODY);
	assert_null(r.res.addr);
	assert_string_equal(r.res.reason,
			    "nobody available for EMPTY DRIVER and no list");
	assert_null(cand(&r.res, "torvalds@example.org"));
	pick_result_release(&r.res);
	pick_config_free(pc);
}

static void test_equal_scores_pool(void **state)
{
	struct pick_config *pc = conf("cap * day=4\n");
	struct report r;

	report(&r, "XFS FILESYSTEM", NULL, pc);
	r.s[2] = r.s[1];
	r.s[1].section = sec("FILESYSTEMS (VFS and infrastructure)");
	r.s[1].score = 3; /* a tie with XFS */
	r.rq.nsections = 3;
	r.rq.ex = NULL;
	give(&r.db, "chandan@example.org", 4, NOW - 60);
	give(&r.db, "viro@example.org", 2, NOW - 60);
	give(&r.db, "darrick@example.org", 1, NOW - 60);
	pick_recipient(&r.rq, &r.res);
	/* M: of both, then R:; the first is saturated: least loaded. */
	assert_string_equal(r.res.addr, "darrick@example.org");
	assert_string_equal(r.res.cand[0].addr, "chandan@example.org");
	assert_string_equal(r.res.cand[1].addr, "viro@example.org");
	assert_string_equal(r.res.cand[2].addr, "darrick@example.org");
	pick_result_release(&r.res);
	pick_config_free(pc);
}

static void test_unmapped(void **state)
{
	struct pick_config *pc = conf("");
	struct report r;

	report(&r, NULL, "fs/other/x.c", pc);
	pick_recipient(&r.rq, &r.res);
	assert_int_equal(r.res.outcome, PICK_UNMAPPED);
	assert_null(r.res.addr);
	assert_int_equal(r.res.section, -1);
	assert_string_equal(
		r.res.reason,
		"unmapped: only THE REST; experts for fs/other/x.c: e5@example.org");
	assert_int_equal(cand(&r.res, "e5@example.org")->status,
			 PICK_SUGGESTED);
	assert_null(cand(&r.res, "torvalds@example.org"));
	pick_result_release(&r.res);

	/* The reporter is not suggested either. */
	r.rq.reporter = "e5@example.org";
	pick_recipient(&r.rq, &r.res);
	assert_string_equal(r.res.reason, "unmapped: only THE REST");
	assert_int_equal(cand(&r.res, "e5@example.org")->status, PICK_REPORTER);
	pick_result_release(&r.res);

	r.rq.nsections = 0;
	r.rq.ev = NULL;
	pick_recipient(&r.rq, &r.res);
	assert_int_equal(r.res.outcome, PICK_UNMAPPED);
	assert_string_equal(r.res.reason, "unmapped: no MAINTAINERS section");
	assert_int_equal(r.res.ncand, 0);
	pick_result_release(&r.res);
	pick_config_free(pc);
}

/*
 * Thirteen reports in a day for fs/xfs/xfs_inode.c, everyone capped at
 * four a day: the best expert takes four, then the next two share by
 * load, then the M: takes the rest; nobody goes over the cap.
 */
static void test_spreading_over_a_day(void **state)
{
	struct pick_config *pc = conf("cap * day=4\n");
	struct report r;
	const char *order[13];
	unsigned e1 = 0, e2 = 0, e3 = 0, ch = 0;
	int i;

	report(&r, "XFS FILESYSTEM", "fs/xfs/xfs_inode.c", pc);
	for (i = 0; i < 13; i++) {
		r.rq.now = NOW + i * 60;
		pick_recipient(&r.rq, &r.res);
		assert_int_equal(r.res.outcome, PICK_PERSON);
		give(&r.db, r.res.addr, 1, r.rq.now);
		order[i] = strcmp(r.res.addr, "e1@example.org") == 0   ? "e1"
			   : strcmp(r.res.addr, "e2@example.org") == 0 ? "e2"
			   : strcmp(r.res.addr, "e3@example.org") == 0 ? "e3"
			   : strcmp(r.res.addr, "chandan@example.org") == 0
				   ? "M"
				   : "?";
		e1 += order[i][1] == '1';
		e2 += order[i][1] == '2';
		e3 += order[i][1] == '3';
		ch += order[i][0] == 'M';
		pick_result_release(&r.res);
	}
	assert_int_equal(e1, 4);
	assert_int_equal(e2, 4);
	assert_int_equal(e3, 4);
	assert_int_equal(ch, 1);
	/* Round-robin once the best is saturated. */
	assert_string_equal(order[4], "e2");
	assert_string_equal(order[5], "e3");
	assert_string_equal(order[6], "e2");
	assert_string_equal(order[7], "e3");
	assert_string_equal(order[12], "M");
	pick_config_free(pc);
}

/*
 * A load that cannot be read is not a load of zero: the pick fails,
 * whichever candidate's look failed, rather than give the report to
 * someone who may be at their cap.
 */
static void test_load_failure_fails_the_pick(void **state)
{
	struct pick_config *pc = conf("roster \"XFS FILESYSTEM\" "
				      "alice@example.org bob@example.org\n"
				      "cap * day=1\n");
	struct report r;
	unsigned k;

	for (k = 1; k <= 2; k++) {
		report(&r, "XFS FILESYSTEM", "fs/xfs/xfs_inode.c", pc);
		give(&r.db, "alice@example.org", 1, NOW - 3600);
		r.db.fail_at = k;
		assert_int_equal(pick_recipient(&r.rq, &r.res), -1);
		assert_int_equal(r.res.outcome, PICK_NOBODY);
		assert_null(r.res.addr);
		assert_int_equal(r.res.ncand, 0);
		assert_non_null(r.res.reason);
		/* no look after the failed one */
		assert_int_equal(r.db.calls, k);
		pick_result_release(&r.res);
	}
	/* the same pick with the loads read: bob, alice is at her cap */
	report(&r, "XFS FILESYSTEM", "fs/xfs/xfs_inode.c", pc);
	give(&r.db, "alice@example.org", 1, NOW - 3600);
	assert_int_equal(pick_recipient(&r.rq, &r.res), 0);
	assert_string_equal(r.res.addr, "bob@example.org");
	assert_int_equal(cand(&r.res, "alice@example.org")->status,
			 PICK_SATURATED);
	pick_result_release(&r.res);
	pick_config_free(pc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_validation),
		cmocka_unit_test(test_roster_least_loaded),
		cmocka_unit_test(test_roster_by_class),
		cmocka_unit_test(test_bmailto),
		cmocka_unit_test(test_expert_after_saturated_roster),
		cmocka_unit_test(test_expert_spreads_by_load),
		cmocka_unit_test(test_expert_away_and_reporter),
		cmocka_unit_test(test_expert_inside_the_section),
		cmocka_unit_test(test_maintainers_and_list),
		cmocka_unit_test(test_declined_and_declared),
		cmocka_unit_test(test_list_only_and_next_group),
		cmocka_unit_test(test_equal_scores_pool),
		cmocka_unit_test(test_unmapped),
		cmocka_unit_test(test_spreading_over_a_day),
		cmocka_unit_test(test_load_failure_fails_the_pick),
	};

	msg_setup("test_pick", 1, false);
	return cmocka_run_group_tests(tests, setup, teardown);
}
