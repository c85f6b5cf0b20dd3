// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_config - routes.conf syntax, and the bounded string buffer
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "act.h"
#include "config.h"
#include "kind.h"
#include "strbuf.h"
#include "util.h"

static void test_settings_and_records(void **state)
{
	const char *text = "# comment\n"
			   "state_dir = /var/lib/x\n"
			   "maintainers=/a/MAINTAINERS\n"
			   "smtp_port = 587   # trailing comment\n"
			   "roster \"XFS FILESYSTEM\" alice@example.org\n"
			   "\tbob@example.org\n"
			   "reply_bugtracker = yes\r\n"
			   "regressions_list =\n"
			   "state_dir = /srv/triage\n";
	struct config *cfg;

	unsetenv("TRIAGE_STATE_DIR");
	cfg = config_parse(text, "test.conf");
	assert_non_null(cfg);
	assert_int_equal(cfg->nproblems, 0);
	/* The last setting wins. */
	assert_string_equal(config_get(cfg, "state_dir"), "/srv/triage");
	assert_string_equal(config_get(cfg, "maintainers"), "/a/MAINTAINERS");
	assert_int_equal(config_int(cfg, "smtp_port"), 587);
	assert_true(config_bool(cfg, "reply_bugtracker"));
	/* An empty value means "not set": the default (here none). */
	assert_null(config_get(cfg, "regressions_list"));
	assert_null(config_setting(cfg, "regressions_list"));
	/* What is not set is the table's default. */
	assert_string_equal(config_get(cfg, "router_address"),
			    "triage@localhost");
	assert_int_equal(config_int(cfg, "db_busy_timeout"), 5000);
	assert_int_equal(config_seconds(cfg, "delivery_max_age"), 5 * 86400);
	assert_true(config_is(cfg, "transport", "smtp"));
	assert_false(config_bool(cfg, "bugzilla_cc"));
	/* A record with a quoted argument and a continuation line. */
	assert_int_equal(cfg->nrec, 7);
	assert_string_equal(cfg->rec[3].name, "roster");
	assert_int_equal(cfg->rec[3].argc, 3);
	assert_string_equal(cfg->rec[3].argv[0], "XFS FILESYSTEM");
	assert_string_equal(cfg->rec[3].argv[2], "bob@example.org");
	assert_int_equal(cfg->rec[3].line, 5);
	config_free(cfg);
	/* no configuration at all: the defaults */
	assert_int_equal(config_int(NULL, "filter_timeout"), 120);
	assert_null(config_get(NULL, "smtp_user"));
}

/* one problem of a file: its line, its key, the start of why */
static void assert_problem(const struct config *cfg, size_t i, unsigned line,
			   const char *key, bool unknown, const char *why)
{
	assert_true(i < cfg->nproblems);
	assert_int_equal(cfg->problems[i].line, line);
	assert_string_equal(cfg->problems[i].key, key);
	assert_int_equal(cfg->problems[i].unknown, unknown);
	if (!strstr(cfg->problems[i].msg, why))
		fail_msg("'%s' does not say '%s'", cfg->problems[i].msg, why);
}

/* every value checked against its type; a bad one is not used */
static void test_bad_values(void **state)
{
	const char *text = "trasport = sendmail\n"	       /* 1 */
			   "smtp_port = abc\n"		       /* 2 */
			   "smtp_port = 70000\n"	       /* 3 */
			   "transport = sendmial\n"	       /* 4 */
			   "reply_bugtracker = maybe\n"	       /* 5 */
			   "delivery_max_age = 5x\n"	       /* 6 */
			   "router_address = nobody\n"	       /* 7 */
			   "experts_weight = reviewed-by:x\n"  /* 8 */
			   "experts_since = 2 years\n"	       /* 9 */
			   "experts_halflife = 0.5\n"	       /* 10 */
			   "action user deliver\n"	       /* 11 */
			   "away bob@example.org 2026-01-01\n" /* 12 */
			   "cap * day=3 month=9\n"	       /* 13 */
			   "rooster \"X\" a@example.org\n"     /* 14 */
			   "smtp_tls = STARTTLS\n"	       /* 15: fine */
			   "cap alice@example.org day=5 week=20\n" /* 16 */
			   "action fuzzer digest weekly\n"	   /* 17 */
			   "experts_since = 2026-01-01\n";	   /* 18 */
	struct config *cfg = config_parse(text, "t.conf");

	assert_non_null(cfg);
	assert_int_equal(cfg->nproblems, 14);
	assert_int_equal(cfg->nbad, 12);
	assert_problem(cfg, 0, 1, "trasport", true, "did you mean transport?");
	assert_problem(cfg, 1, 2, "smtp_port", false,
		       "'abc' is not a whole number from 1 to 65535");
	assert_problem(cfg, 2, 3, "smtp_port", false, "'70000'");
	assert_problem(cfg, 3, 4, "transport", false,
		       "'sendmial' is not smtp or sendmail");
	assert_problem(cfg, 4, 5, "reply_bugtracker", false, "yes or no");
	assert_problem(cfg, 5, 6, "delivery_max_age", false, "'5x'");
	assert_problem(cfg, 6, 7, "router_address", false, "mail address");
	assert_problem(cfg, 7, 8, "experts_weight", false, "KIND:WEIGHT");
	assert_problem(cfg, 8, 9, "experts_since", false, "'2 years'");
	assert_problem(cfg, 9, 10, "experts_halflife", false, "from 1 to");
	assert_problem(cfg, 10, 11, "action", false,
		       "'deliver' is not forward, hold, digest or record");
	assert_problem(cfg, 11, 12, "away", false, "takes 3 arguments, not 2");
	assert_problem(cfg, 12, 13, "cap", false, "'month=9'");
	assert_problem(cfg, 13, 14, "rooster", true, "did you mean roster?");
	/* the bad values are not used: the defaults are */
	assert_int_equal(config_int(cfg, "smtp_port"), 0);
	assert_true(config_is(cfg, "transport", "smtp"));
	assert_string_equal(config_get(cfg, "router_address"),
			    "triage@localhost");
	assert_int_equal(config_seconds(cfg, "delivery_max_age"), 5 * 86400);
	assert_true(config_is(cfg, "smtp_tls", "starttls"));
	assert_string_equal(config_get(cfg, "experts_since"), "2026-01-01");
	/* reported in one line for the filter, or every one */
	assert_int_equal(config_report(cfg, CONFIG_ONE_LINE), 12);
	assert_int_equal(config_report(cfg, 0), 12);
	config_free(cfg);
}

/* 'action': a class is forwarded, held or digested; a kind recorded or held */
static void test_action_records(void **state)
{
	const char *text = "action patch record\n"	   /* fine */
			   "action Discussion HOLD\n"	   /* fine */
			   "action fuzzer digest hourly\n" /* fine */
			   "action patch forward\n"	   /* 4 */
			   "action review record daily\n"  /* 5 */
			   "action user record\n"	   /* 6 */
			   "action user forward daily\n"   /* 7 */
			   "action unmapped forward\n"	   /* 8 */
			   "action report record\n"	   /* 9 */
			   "action spam hold\n";	   /* fine */
	const char *const *cls;
	struct config *cfg = config_parse(text, "t.conf");
	struct act_config ac;
	int k;

	(void)state;
	assert_non_null(cfg);
	assert_int_equal(cfg->nproblems, 6);
	assert_problem(
		cfg, 0, 4, "action", false,
		"'action patch' takes record or hold: a patch is no report");
	assert_problem(cfg, 1, 5, "action", false,
		       "record or hold: a review is");
	assert_problem(cfg, 2, 6, "action", false, "not recorded");
	assert_problem(cfg, 3, 7, "action", false, "only a digest");
	assert_problem(cfg, 4, 8, "action", false, "always held");
	assert_problem(cfg, 5, 9, "action", false, "'report' is not user");
	/* act reads the good records and none of the bad */
	act_config_load(&ac, cfg);
	assert_int_equal(ac.kind_rule[KIND_PATCH], ACT_RECORD);
	assert_int_equal(ac.kind_rule[KIND_DISCUSSION], ACT_HOLD);
	assert_int_equal(ac.kind_rule[KIND_SPAM], ACT_HOLD);
	assert_int_equal(ac.rule[ACT_FUZZER].action, ACT_DIGEST);
	assert_int_equal(ac.rule[ACT_FUZZER].period, 3600);
	assert_int_equal(ac.rule[ACT_USER].action, ACT_FORWARD);
	assert_int_equal(ac.rule[ACT_UNMAPPED].action, ACT_HOLD);
	config_free(cfg);
	/* the table's words are the kinds and classes the stages know */
	for (k = 0; k < KIND_N; k++)
		if (k != KIND_REPORT) {
			char line[64];

			snprintf(line, sizeof(line), "action %s record\n",
				 kind_name((enum msg_kind)k));
			cfg = config_parse(line, "k.conf");
			assert_non_null(cfg);
			assert_int_equal(cfg->nproblems, 0);
			config_free(cfg);
		}
	for (cls = (const char *const[]){ "user", "fuzzer", "ai", "uncertain",
					  "unmapped", NULL };
	     *cls; cls++)
		assert_true(act_class_from_name(*cls) >= 0);
}

/* a name the table lacks is a bug of the program: it dies */
static void test_unknown_key_in_code_dies(void **state)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		fclose(stderr); /* the BUG message is expected */
		config_get(NULL, "no_such_setting");
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) != 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		fclose(stderr);
		config_int(NULL, "transport"); /* not an int */
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) != 0);
}

static void test_environment_overrides_state_dir(void **state)
{
	struct config *cfg = config_parse("state_dir = /a\n", "t");
	char *p;

	setenv("TRIAGE_STATE_DIR", "/tmp/x", 1);
	p = config_state_path(cfg, "db");
	assert_string_equal(p, "/tmp/x/db");
	free(p);
	unsetenv("TRIAGE_STATE_DIR");
	p = config_state_path(cfg, "db");
	assert_string_equal(p, "/a/db");
	free(p);
	config_free(cfg);
}

static void test_syntax_errors(void **state)
{
	assert_null(config_parse("roster \"unterminated\n", "t"));
	assert_null(config_parse("a b c d e f g h i j k l m n o p q r s t u v "
				 "w x y z 1 2 3 4 5 6 7 8\n",
				 "t"));
}

static void test_builtin_default_parses(void **state)
{
	struct config *cfg = config_parse(config_default_text, "(built-in)");

	assert_non_null(cfg);
	assert_int_equal(cfg->nproblems, 0);
	assert_non_null(config_get(cfg, "maintainers"));
	config_free(cfg);
}

/* ---- the table against the code, the manual and the shipped file ---- */

static char *src_file(const char *rel)
{
	const char *src = getenv("TRIAGE_SRCDIR");
	char *path = xasprintf("%s/%s", src && *src ? src : ".", rel);
	char *text;

	if (read_file(path, 1u << 20, &text, NULL) < 0)
		fail_msg("cannot read %s", path);
	free(path);
	return text;
}

/* every entry: a name once, a default of its own type, its readers */
static void test_table_entries(void **state)
{
	size_t i, j;

	assert_true(config_nkeys > 50);
	for (i = 0; i < config_nkeys; i++) {
		const struct config_key *k = &config_keys[i];
		struct config *cfg;
		char *line;

		assert_non_null(k->readers);
		for (j = i + 1; j < config_nkeys; j++)
			assert_string_not_equal(k->name, config_keys[j].name);
		assert_ptr_equal(config_key(k->name), k);
		if (k->record) {
			assert_true(k->nargs >= 1 && k->min_args >= 1 &&
				    k->min_args <= k->max_args);
			continue;
		}
		if (!k->def)
			continue;
		line = xasprintf("%s = %s\n", k->name, k->def);
		cfg = config_parse(line, "default");
		assert_non_null(cfg);
		if (cfg->nproblems)
			fail_msg("the default of %s: %s", k->name,
				 cfg->problems[0].msg);
		config_free(cfg);
		free(line);
	}
}

/*
 * scan - every config_get/_int/_number/_bool/_seconds/_is/_setting(cfg,
 * "NAME" ...) of one source file: NAME is in the table, of that type
 */
static int scanned_files, scanned_names;

static void scan_text(const char *path, const char *text)
{
	static const struct {
		const char *call;
		int type; /* -1: any setting */
	} getters[] = {
		{ "config_get(", -1 },
		{ "config_setting(", -1 },
		{ "config_int(", CONFIG_INT },
		{ "config_number(", CONFIG_NUMBER },
		{ "config_bool(", CONFIG_BOOL },
		{ "config_seconds(", CONFIG_DURATION },
		{ "config_is(", CONFIG_ENUM },
	};
	size_t g;

	for (g = 0; g < ARRAY_SIZE(getters); g++) {
		const char *p = text;

		while ((p = strstr(p, getters[g].call))) {
			const char *comma, *q, *end;
			const struct config_key *k;
			char name[64];

			p += strlen(getters[g].call);
			comma = strpbrk(p, ",;)");
			if (!comma || *comma != ',')
				continue;
			for (q = comma + 1;
			     *q == ' ' || *q == '\t' || *q == '\n'; q++)
				;
			if (*q != '"')
				continue; /* a name passed in: not a literal */
			end = strchr(q + 1, '"');
			assert_non_null(end);
			assert_true((size_t)(end - q - 1) < sizeof(name));
			memcpy(name, q + 1, (size_t)(end - q - 1));
			name[end - q - 1] = '\0';
			k = config_key(name);
			if (!k || k->record)
				fail_msg(
					"%s: %s\"%s\": not a setting of config_keys[]",
					path, getters[g].call, name);
			if (getters[g].type >= 0 &&
			    k->v.type != (enum config_type)getters[g].type)
				fail_msg(
					"%s: %s\"%s\": the setting is of another type",
					path, getters[g].call, name);
			scanned_names++;
		}
	}
	scanned_files++;
}

static int scan_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	char *text;

	if (type != FTW_F || !ends_with(path, ".c") ||
	    strstr(path, "/lib/config"))
		return 0;
	if (read_file(path, 8u << 20, &text, NULL) < 0)
		fail_msg("cannot read %s", path);
	scan_text(path, text);
	free(text);
	return 0;
}

static void test_code_asks_for_known_settings(void **state)
{
	const char *src = getenv("TRIAGE_SRCDIR");
	char *dir = xasprintf("%s/router", src && *src ? src : ".");

	assert_int_equal(nftw(dir, scan_one, 16, FTW_PHYS), 0);
	free(dir);
	/* the scan reads the program: it finds most of the settings */
	assert_true(scanned_files > 50);
	assert_true(scanned_names > 50);
}

/* the names of the manual's tagged paragraphs (.TP then .B/.BR NAME ...) */
static bool documented(const char *man, const char *name)
{
	const char *p = man;
	size_t n = strlen(name);

	while ((p = strstr(p, ".TP\n."))) {
		const char *line = p + 4, *eol = strchr(line, '\n'), *w;

		p = line;
		if (!eol)
			break;
		for (w = line; w + n <= eol; w++)
			if (!strncmp(w, name, n) &&
			    (w == line || strchr(" \"", w[-1])) &&
			    (w + n == eol || strchr(" \"\\", w[n])))
				return true;
	}
	return false;
}

/* each tagged paragraph's names are in the table */
static void manual_names_known(const char *man)
{
	const char *p = man;

	while ((p = strstr(p, ".TP\n."))) {
		const char *line = p + 4, *eol = strchr(line, '\n'), *w;

		p = line;
		if (!eol)
			break;
		/* ".B name ..." or ".BR a \", \" b ..." */
		for (w = strchr(line, ' '); w && w < eol; w = strchr(w, ' ')) {
			char word[64];
			size_t n = 0;

			while (*w == ' ' || *w == '"' || *w == ',')
				w++;
			while (w < eol && n + 1 < sizeof(word) &&
			       ((*w >= 'a' && *w <= 'z') || *w == '_'))
				word[n++] = *w++;
			word[n] = '\0';
			if (n && (w == eol || strchr(" \"", *w)) &&
			    !config_key(word))
				fail_msg(
					"routes.conf(5) documents '%s', which config_keys[] lacks",
					word);
			if (line[1] == 'B' && line[2] == ' ')
				break; /* .B: one name, then its syntax */
		}
	}
}

/* a line of the shipped routes.conf that sets it, or shows it commented */
static bool shipped(const char *conf, const struct config_key *k)
{
	const char *p = conf;
	size_t n = strlen(k->name);

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p;

		if (*q == '#')
			q++;
		if (strncmp(q, k->name, n))
			continue;
		q += n;
		while (*q == ' ' || *q == '\t')
			q++;
		if (k->record ? q > p + n + (*p == '#') : *q == '=')
			return true;
	}
	return false;
}

static void test_manual_and_shipped_file(void **state)
{
	char *man = src_file("man/routes.conf.5");
	char *conf = src_file("routes.conf");
	size_t i;

	for (i = 0; i < config_nkeys; i++) {
		if (!documented(man, config_keys[i].name))
			fail_msg(
				"config_keys[] has %s, which routes.conf(5) does not document",
				config_keys[i].name);
		if (!shipped(conf, &config_keys[i]))
			fail_msg(
				"the shipped routes.conf does not show %s (set or as a comment)",
				config_keys[i].name);
	}
	manual_names_known(man);
	free(man);
	free(conf);
}

static void test_strbuf_cap(void **state)
{
	struct strbuf sb = STRBUF_INIT(8);

	assert_int_equal(sb_adds(&sb, "1234"), 0);
	assert_int_equal(sb_addf(&sb, "%d", 567), 0);
	assert_string_equal(sb_str(&sb), "1234567");
	/* Past the cap: refused, buffer unchanged. */
	assert_int_equal(sb_adds(&sb, "89"), -1);
	assert_string_equal(sb_str(&sb), "1234567");
	assert_int_equal(sb_addc(&sb, '8'), 0);
	assert_int_equal(sb_addc(&sb, '9'), -1);
	assert_int_equal(sb.len, 8);
	sb_release(&sb);
}

static void test_utf8(void **state)
{
	assert_true(utf8_valid("plain", 5));
	assert_true(utf8_valid("caf\xc3\xa9", 5));
	assert_false(utf8_valid("caf\xc3", 4));
	assert_false(utf8_valid("\xc0\xaf", 2));     /* overlong */
	assert_false(utf8_valid("\xed\xa0\x80", 3)); /* surrogate */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_settings_and_records),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_action_records),
		cmocka_unit_test(test_unknown_key_in_code_dies),
		cmocka_unit_test(test_table_entries),
		cmocka_unit_test(test_code_asks_for_known_settings),
		cmocka_unit_test(test_manual_and_shipped_file),
		cmocka_unit_test(test_environment_overrides_state_dir),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_builtin_default_parses),
		cmocka_unit_test(test_strbuf_cap),
		cmocka_unit_test(test_utf8),
	};

	msg_setup("test_config", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
