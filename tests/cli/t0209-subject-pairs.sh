#!/bin/sh
# t0209-subject-pairs: a chip's name and its subsystem's word next to
# each other in a subject ("bcm2835 SPI") name the module they make
# together (spi-bcm2835), not the one the chip's name makes alone (an
# MMC host's bcm2835): the report maps to the SPI section, and 'triage
# show' names the pair and the file as the evidence (issue 20)
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER

need_tools "subject pairs are not tested" sqlite3

test_setup 'a MAINTAINERS, a small tree with its Makefiles, the indexes' '
	mkdir -p "$T/tree/drivers/spi" "$T/tree/drivers/mmc/host" &&
	printf "obj-\$(CONFIG_SPI_BCM2835) += spi-bcm2835.o\n" >"$T/tree/drivers/spi/Makefile" &&
	printf "static int bcm2835_spi_probe(void) { return 0; }\n" >"$T/tree/drivers/spi/spi-bcm2835.c" &&
	printf "obj-\$(CONFIG_MMC_BCM2835) += bcm2835.o\n" >"$T/tree/drivers/mmc/host/Makefile" &&
	printf "static int bcm2835_probe(void) { return 0; }\n" >"$T/tree/drivers/mmc/host/bcm2835.c" &&
	cat >"$T/MAINTAINERS" <<-\EOF &&
	MULTIMEDIA CARD (MMC), SECURE DIGITAL (SD) AND SDIO SUBSYSTEM
	M:	Moe Card <moe@mmc.example.org>
	L:	linux-mmc@vger.kernel.org
	S:	Maintained
	F:	drivers/mmc/

	SPI SUBSYSTEM
	M:	Sue Peri <sue@spi.example.org>
	L:	linux-spi@vger.kernel.org
	S:	Maintained
	F:	drivers/spi/
	EOF
	routes_conf triage@example.org "maintainers = $T/MAINTAINERS" "kernel_tree = $T/tree" &&
	"$TRIAGE" update >"$T/out" &&
	test -f "$T/state/symbols.idx" &&
	{
		printf "From: Sam Board <sam@users.example>\nTo: bugs@example.org\n" &&
		printf "Subject: bcm2835 SPI transfers time out after resume\n" &&
		printf "Message-ID: <pair-01@users.example>\n" &&
		printf "Date: Mon, 30 Nov 2026 09:00:00 +0000\n\n" &&
		printf "Hi,\n\nsince 6.12 on my Raspberry Pi 3 every SPI transfer to the\n" &&
		printf "display times out after a suspend and resume cycle.  With 6.11\n" &&
		printf "it worked fine.  I can test patches.\n\nSam\n"
	} >"$T/01.eml"
'

test_expect_success 'the pair names spi-bcm2835: the SPI section, not the MMC host of bcm2835' '
	feed "$T/01.eml" &&
	test "$(q "SELECT section FROM reports WHERE id = 1")" = "SPI SUBSYSTEM" &&
	"$TRIAGE" show 1 >"$T/show" &&
	grep "driver in the subject: bcm2835 spi (drivers/spi/spi-bcm2835.c)" "$T/show" &&
	! grep "drivers/mmc/host/bcm2835.c" "$T/show"
'

test_expect_success 'alone, the chip'"'"'s name is the MMC host'"'"'s' '
	sed -e "s/^Subject: .*/Subject: bcm2835 transfers time out after resume/" \
		-e "s/pair-01/pair-02/" "$T/01.eml" >"$T/02.eml" &&
	feed "$T/02.eml" &&
	id=$(id_of pair-02@users.example) &&
	"$TRIAGE" show "$id" >"$T/show2" &&
	grep "driver in the subject: bcm2835 (drivers/mmc/host/bcm2835.c)" "$T/show2"
'

test_done
