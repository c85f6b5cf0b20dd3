// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_crashsig - crash signatures and syzbot ids
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "crashsig.h"
#include "evidence.h"
#include "report.h"
#include "util.h"

static void test_title(void **state)
{
	char out[CRASHSIG_MAX];

	(void)state;
	crashsig_title("kernel BUG at fs/ext4/inode.c:1234!", out, sizeof(out));
	assert_string_equal(out, "kernel BUG at fs/ext4/inode.c:N!");
	crashsig_title(
		"BUG: unable to handle page fault for address 0xffff8880a1b2",
		out, sizeof(out));
	assert_string_equal(out,
			    "BUG: unable to handle page fault for address N");
	crashsig_title("  WARNING   in  ip6_route_add ", out, sizeof(out));
	assert_string_equal(out, "WARNING in ip6_route_add");
	crashsig_title("general protection fault in ffff88802a3b1c18 x", out,
		       sizeof(out));
	assert_string_equal(out, "general protection fault in N x");
	/* a bounded result */
	crashsig_title("KASAN: use-after-free Read in foo", out, 8);
	assert_string_equal(out, "KASAN: ");
}

static void test_function(void **state)
{
	char out[64];

	(void)state;
	crashsig_function("foo_bar.isra.0", out, sizeof(out));
	assert_string_equal(out, "foo_bar");
	crashsig_function("baz.constprop.3.cold", out, sizeof(out));
	assert_string_equal(out, "baz");
	crashsig_function("plain", out, sizeof(out));
	assert_string_equal(out, "plain");
}

static void test_compute(void **state)
{
	struct frame f[5];
	struct evidence ev;
	char a[CRASHSIG_MAX], b[CRASHSIG_MAX];

	(void)state;
	memset(&ev, 0, sizeof(ev));
	memset(f, 0, sizeof(f));
	assert_false(crashsig_compute(&ev, a, sizeof(a)));
	assert_string_equal(a, "");

	f[0].function = (char *)"dump_stack_lvl";
	f[1].function = (char *)"hci_conn_del.isra.0";
	f[2].function = (char *)"stale_one";
	f[2].unreliable = true;
	f[3].function = (char *)"hci_disconn_complete_evt";
	f[4].function = (char *)"hci_rx_work";
	ev.title = (char *)"KASAN: slab-use-after-free Read in hci_conn_del";
	ev.sig_guilty = (char *)"net/bluetooth/hci_conn.c";
	ev.frames = f;
	ev.nframes = 5;
	assert_true(crashsig_compute(&ev, a, sizeof(a)));
	assert_string_equal(a, "KASAN: slab-use-after-free Read in "
			       "hci_conn_del|net/bluetooth/hci_conn.c|"
			       "hci_conn_del,hci_disconn_complete_evt,"
			       "hci_rx_work");

	/* another build: other suffixes and offsets, same signature */
	f[1].function = (char *)"hci_conn_del.constprop.0";
	f[1].offset = 0x99;
	assert_true(crashsig_compute(&ev, b, sizeof(b)));
	assert_string_equal(a, b);

	/*
	 * the maintainer's reading of the trace (guilty_file) may change
	 * between releases of triage: the signature keeps syzkaller's
	 * file, so one crash keeps one signature
	 */
	ev.guilty_file = (char *)"drivers/bluetooth/btusb.c";
	assert_true(crashsig_compute(&ev, b, sizeof(b)));
	assert_string_equal(a, b);

	/* another guilty file: another bug */
	ev.sig_guilty = (char *)"net/bluetooth/hci_event.c";
	assert_true(crashsig_compute(&ev, b, sizeof(b)));
	assert_string_not_equal(a, b);
}

static void test_syzbot(void **state)
{
	struct report *r = report_new();
	struct evidence ev;
	char *rb[1];
	char id[CRASHSIG_SYZ_MAX];

	(void)state;
	memset(&ev, 0, sizeof(ev));
	free(r->from);
	r->from = xstrdup("Dana <dana@example.com>");
	r->body = xstrdup("dashboard link: https://syzkaller.appspot.com/bug?"
			  "extid=0123456789ABCDEF0123\n");
	r->body_len = strlen(r->body);
	assert_true(crashsig_syzbot_id(r, &ev, id, sizeof(id)));
	assert_string_equal(id, "0123456789abcdef0123");

	rb[0] = (char *)"syzbot+fedcba9876543210fedc@syzkaller.appspotmail.com";
	ev.reported_by = rb;
	ev.nreported_by = 1;
	assert_true(crashsig_syzbot_id(r, &ev, id, sizeof(id)));
	assert_string_equal(id, "fedcba9876543210fedc");

	ev.nreported_by = 0;
	free(r->body);
	r->body = xstrdup("no id here: extid=xyz\n");
	r->body_len = strlen(r->body);
	assert_false(crashsig_syzbot_id(r, &ev, id, sizeof(id)));
	report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_title),
		cmocka_unit_test(test_function),
		cmocka_unit_test(test_compute),
		cmocka_unit_test(test_syzbot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
