#!/bin/sh
# t0210-frame-drivers: stack frames the symbol index places through the
# driver they belong to (issue 20): a driver's init function that
# module_platform_driver() made ("foo_driver_init", indexed by 'triage
# update' in the file that registers the driver), and a function of a
# tree newer than the index ("mt7921_..." unknown: the mt7921 driver
# its name starts with); each report maps to the driver's section, and
# 'triage show' names the frame's file as the evidence
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER

need_tools "frame drivers are not tested" sqlite3

# mail FILE ID SUBJECT - a report of the trace on stdin
mail() {
	{
		printf "From: Sam Board <sam@users.example>\nTo: bugs@example.org\n" &&
		printf "Subject: %s\n" "$3" &&
		printf "Message-ID: <%s@users.example>\n" "$2" &&
		printf "Date: Mon, 30 Nov 2026 09:00:00 +0000\n\n" &&
		printf "Hi,\n\nsince 6.13 my board crashes, every time:\n\n" &&
		cat &&
		printf "\nWith 6.12 it worked fine.  I can test patches.\n\nSam\n"
	} >"$1"
}

test_setup 'a MAINTAINERS, a small tree, the indexes' '
	mkdir -p "$T/tree/drivers/spi" "$T/tree/drivers/base" "$T/tree/lib" \
		"$T/tree/drivers/net/wireless/mt7921" "$T/tree/net/mac80211" &&
	printf "obj-\$(CONFIG_SPI_BCM2835) += spi-bcm2835.o\n" >"$T/tree/drivers/spi/Makefile" &&
	cat >"$T/tree/drivers/spi/spi-bcm2835.c" <<-\EOF &&
	static int bcm2835_spi_probe(struct platform_device *pdev)
	{
		return 0;
	}

	static struct platform_driver bcm2835_spi_driver = {
		.probe = bcm2835_spi_probe,
	};
	module_platform_driver(bcm2835_spi_driver);
	EOF
	printf "int driver_register(void *drv) { return driver_find(drv); }\nint driver_find(void *drv) { return kset_find_obj(drv); }\n" >"$T/tree/drivers/base/driver.c" &&
	printf "int __platform_driver_register(void *drv) { return driver_register(drv); }\n" >"$T/tree/drivers/base/platform.c" &&
	printf "void *kset_find_obj(void *k) { return k; }\n" >"$T/tree/lib/kobject.c" &&
	printf "obj-\$(CONFIG_MT7921_COMMON) += mt7921-common.o\nmt7921-common-y := mac.o\n" >"$T/tree/drivers/net/wireless/mt7921/Makefile" &&
	printf "void mt7921_mac_reset(void) { }\n" >"$T/tree/drivers/net/wireless/mt7921/mac.c" &&
	printf "void ieee80211_sta_process_chanswitch(void) { }\nvoid ieee80211_rx_mgmt_beacon(void) { }\n" >"$T/tree/net/mac80211/mlme.c" &&
	printf "void ieee80211_iface_work(void) { }\n" >"$T/tree/net/mac80211/iface.c" &&
	cat >"$T/MAINTAINERS" <<-\EOF &&
	DRIVER CORE, KOBJECTS, DEBUGFS AND SYSFS
	M:	Greg Core <greg@core.example.org>
	S:	Supported
	F:	drivers/base/
	F:	lib/kobject*

	MAC80211
	M:	Jo Wifi <jo@wifi.example.org>
	L:	linux-wireless@vger.kernel.org
	S:	Maintained
	F:	net/mac80211/

	MEDIATEK MT76 WIRELESS LAN DRIVER
	M:	Fe Lix <felix@mt76.example.org>
	L:	linux-wireless@vger.kernel.org
	S:	Maintained
	F:	drivers/net/wireless/mt7921/

	SPI SUBSYSTEM
	M:	Sue Peri <sue@spi.example.org>
	L:	linux-spi@vger.kernel.org
	S:	Maintained
	F:	drivers/spi/
	EOF
	routes_conf triage@example.org "maintainers = $T/MAINTAINERS" "kernel_tree = $T/tree" &&
	"$TRIAGE" update >"$T/out" &&
	"$TRIAGE" symbols --best bcm2835_spi_driver_init bcm2835_spi_driver_exit >"$T/sym" &&
	printf "bcm2835_spi_driver_init\tdrivers/spi/spi-bcm2835.c\nbcm2835_spi_driver_exit\tdrivers/spi/spi-bcm2835.c\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/sym"
'

test_expect_success 'a driver'"'"'s init made by module_platform_driver(): the driver'"'"'s section, past the driver core' '
	mail "$T/01.eml" frame-01 "NULL pointer dereference at boot on a Raspberry Pi 4" <<-\EOF &&
	[    1.523401] Unable to handle kernel NULL pointer dereference at virtual address 0000000000000000
	[    1.523410] Internal error: Oops: 0000000096000004 [#1] PREEMPT SMP
	[    1.523420] CPU: 2 PID: 1 Comm: swapper/0 Not tainted 6.13.0 #1
	[    1.523425] Hardware name: Raspberry Pi 4 Model B Rev 1.4 (DT)
	[    1.523430] pc : kset_find_obj+0x24/0xd0
	[    1.523433] lr : driver_find+0x2c/0x80
	[    1.523440] Call trace:
	[    1.523441]  kset_find_obj+0x24/0xd0
	[    1.523443]  driver_find+0x2c/0x80
	[    1.523445]  driver_register+0x58/0x150
	[    1.523447]  __platform_driver_register+0x2c/0x40
	[    1.523449]  bcm2835_spi_driver_init+0x20/0x30
	[    1.523451]  do_one_initcall+0x60/0x290
	[    1.523453]  kernel_init_freeable+0x20c/0x3e0
	EOF
	feed "$T/01.eml" &&
	test "$(q "SELECT section FROM reports WHERE id = 1")" = "SPI SUBSYSTEM" &&
	"$TRIAGE" show 1 >"$T/show1" &&
	grep "^ *bcm2835_spi_driver_init  drivers/spi/spi-bcm2835.c (index)" "$T/show1" &&
	grep "^sections  SPI SUBSYSTEM .*guilty file drivers/spi/spi-bcm2835.c" "$T/show1"
'

test_expect_success 'a function the index does not know: the driver its name starts with, not the caller'"'"'s' '
	mail "$T/02.eml" frame-02 "NULL pointer dereference on a channel switch" <<-\EOF &&
	[ 5120.100001] BUG: kernel NULL pointer dereference, address: 0000000000000000
	[ 5120.100005] Oops: Oops: 0000 [#1] SMP NOPTI
	[ 5120.100009] CPU: 7 UID: 0 PID: 6710 Comm: kworker/u64:1 Not tainted 6.15.0 #4
	[ 5120.100012] Hardware name: Micro Computer (HK) Tech Limited EliteMini Series/F7BSI, BIOS 1.08 11/05/2024
	[ 5120.100015] RIP: 0010:mt7921_channel_switch_rx_beacon+0x1f/0x100
	[ 5120.100030] Call Trace:
	[ 5120.100031]  <TASK>
	[ 5120.100033]  ieee80211_sta_process_chanswitch+0x67c/0xee0 [mac80211]
	[ 5120.100036]  ieee80211_rx_mgmt_beacon+0x842/0x22a0 [mac80211]
	[ 5120.100039]  ieee80211_iface_work+0x62e/0x890 [mac80211]
	[ 5120.100041]  </TASK>
	EOF
	feed "$T/02.eml" &&
	id=$(id_of frame-02@users.example) &&
	test "$(q "SELECT section FROM reports WHERE id = $id")" = "MEDIATEK MT76 WIRELESS LAN DRIVER" &&
	"$TRIAGE" show "$id" >"$T/show2" &&
	grep "^frames    mt7921_channel_switch_rx_beacon  drivers/net/wireless/mt7921/ (index)" "$T/show2" &&
	grep "^sections  MEDIATEK MT76 WIRELESS LAN DRIVER .*guilty file drivers/net/wireless/mt7921/" "$T/show2"
'

test_done
