# triage - bug-report triage router
#
#   make            build every program (never installs anything: a missing
#                   Debian package is named with the apt-get line for it)
#   make deps       install the Debian packages the build needs (as root)
#   make demo       install missing Debian packages, build, run the example
#   make check      install missing Debian packages, build, run every test
#   make bench      benchmarks, with ratios against baselines run alongside
#   make install    PREFIX=/usr/local DESTDIR= (never overwrites routes.conf)
#   make uninstall  the same PREFIX: removes what install put there (not
#                   routes.conf once changed, never the state directory)
#
# Knobs (also in an untracked config.mak): DEVELOPER=1 adds -Werror;
# SANITIZE=address,undefined builds with sanitizers; V=1 shows commands;
# CC=clang builds with clang (a change of compiler or flags rebuilds all).

-include config.mak

VERSION = 0.1

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec
DATADIR ?= $(PREFIX)/share/triage
MANDIR ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc/triage
STATEDIR ?= /var/lib/triage
# systemd reads units from here too (systemd.unit(5)): no copy into /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system

PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
       -Wmissing-prototypes -Wpointer-arith -Wvla -Wwrite-strings \
       -Wno-unused-parameter
ifdef DEVELOPER
WARN += -Werror
# a developer's build fills every uninitialised automatic variable with a
# pattern (0xfe bytes): reading one fails the same way on every run and
# with either compiler, where a release build reads whatever the stack
# held (NULLs hid recompose()'s uninitialised item from gcc's builds;
# clang's crashed in t0760)
CFLAGS += -ftrivial-auto-var-init=pattern
endif
ifdef SANITIZE
CFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all \
	  -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
endif

# Programs and the libraries they link (router/cmd/cmd.h explains the split):
# a program pays at start-up for every shared library it links, and the
# filter and 'triage map' run once per message or path ('make bench').
#   triage          pcre2 sqlite3 jansson zlib
#   triage-filter   + gmime                             (the MTA program)
#   triage-mime     + gmime: commands that parse mail
#   triage-net      + libcurl, libmicrohttpd
CORE_PKGS = libpcre2-8 sqlite3 jansson zlib
FILTER_PKGS = gmime-3.0 libpcre2-8 sqlite3 jansson zlib
MIME_PKGS = $(CORE_PKGS) gmime-3.0
NET_PKGS = $(CORE_PKGS) libcurl libmicrohttpd
ALL_PKGS = $(CORE_PKGS) gmime-3.0 libcurl libmicrohttpd

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(ALL_PKGS) 2>/dev/null)
CMOCKA_CFLAGS := $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CORE_LIBS := $(shell $(PKG_CONFIG) --libs $(CORE_PKGS) 2>/dev/null)
FILTER_LIBS := $(shell $(PKG_CONFIG) --libs $(FILTER_PKGS) 2>/dev/null)
# The filter's libraries in the order the loader searches them (its
# DT_NEEDED order): those most symbols are bound to first, SQLite (whose
# 1,500 references to its own exported functions are looked up through
# every library before it), libm and libc (libm before libc, which also
# exports frexp and ldexp), GLib, then the rest as pkg-config lists them.
# The loader's lookups of one run walk a third fewer libraries; every
# symbol binds to the same library (LD_DEBUG=bindings).
FILTER_FIRST_LIBS := $(shell $(PKG_CONFIG) --libs sqlite3 2>/dev/null) -lm -lc \
	$(shell $(PKG_CONFIG) --libs glib-2.0 2>/dev/null)
MIME_LIBS := $(shell $(PKG_CONFIG) --libs $(MIME_PKGS) 2>/dev/null)
NET_LIBS := $(shell $(PKG_CONFIG) --libs $(NET_PKGS) 2>/dev/null)
TEST_LIBS := $(shell $(PKG_CONFIG) --libs $(ALL_PKGS) cmocka 2>/dev/null)

# Hardening: every program is a position-independent executable (ASLR)
# with full RELRO (-z relro -z now: the GOT read-only after start-up),
# stack protector, fortified libc calls, stack-clash protection and
# control-flow protection (CET on x86, branch protection on arm64).
# These are Debian's hardening=+all (dpkg-buildflags) plus what dpkg
# 1.22 adds to it (stack clash, control flow); the libraries stay
# shared, so apt's security updates of glibc, GLib, GMime, zlib, pcre2
# and SQLite reach every program.  _FORTIFY_SOURCE needs optimisation
# (glibc warns without it, an error with DEVELOPER=1), and a sanitizer
# does its checks itself.  CFLAGS and LDFLAGS come after these, so
# -fno-stack-protector and the like still override them.
MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)
HARDEN_CFLAGS = -fPIE -fstack-protector-strong -fstack-clash-protection \
	$(if $(filter x86_64-% i386-% i486-% i586-% i686-%,$(MACHINE)), \
	-fcf-protection) \
	$(if $(filter aarch64-%,$(MACHINE)),-mbranch-protection=standard)
HARDEN_CPPFLAGS = $(if $(SANITIZE),,$(if $(filter -O -O1 -O2 -O3 -Os -Og -Oz \
	-Ofast,$(CFLAGS)),-U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2))
HARDEN_LDFLAGS = -pie -Wl,-z,relro,-z,now

# router/'s layers (README "Layout"), lowest first: a file may call only
# its own layer and lower ones, and store and net do not call each other.
# Each of lib ... app is an archive, linked highest first and never in a
# group, so a call up is an undefined reference unless what it calls was
# linked anyway; 'make check-layers' (tests/layers) checks every call of
# every object, siblings' too.  Every folder is on the include path: a
# file includes "util.h" wherever it is.
LAYER_LEVELS = lib stages store,net app cmd bin
LAYERS = lib stages store net app
LINK_LAYERS = app net store stages lib
ROUTER_INC = $(LAYERS:%=-Irouter/%) -Irouter/cmd -Irouter/bin

ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(ROUTER_INC) $(WARN) $(PKG_CFLAGS) \
	     -DTRIAGE_VERSION='"$(VERSION)"' -DSYSCONFDIR='"$(SYSCONFDIR)"' \
	     -DDATADIR='"$(DATADIR)"' -DSTATEDIR='"$(STATEDIR)"' \
	     -DLIBEXECDIR='"$(LIBEXECDIR)"' $(HARDEN_CPPFLAGS) \
	     $(HARDEN_CFLAGS) $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(HARDEN_LDFLAGS) -Wl,--as-needed $(LDFLAGS)

ifndef V
QUIET_CC = @echo '   CC     ' $@;
QUIET_LINK = @echo '   LINK   ' $@;
QUIET_AR = @echo '   AR     ' $@;
QUIET_GEN = @echo '   GEN    ' $@;
endif

B = build
# layer_objs,L,DIR: the objects of router/L/ (lib's with the embedded
# default configuration), under DIR
layer_objs = $(patsubst %.c,$(2)/%.o,$(wildcard router/$(1)/*.c)) \
	     $(if $(filter lib,$(1)),$(2)/default_config.o)
ARCHIVES = $(LINK_LAYERS:%=$(B)/%.a)
# Commands by program; the rest of router/cmd/ is in triage itself.
MIME_CMDS = explain train eval
NET_CMDS = serve deliver bugzilla
cmd_objs = $(patsubst %.c,$(B)/%.o,$(wildcard $(1:%=router/cmd/%.c)))
CORE_CMD_OBJS = $(patsubst %.c,$(B)/%.o,$(filter-out \
	$(MIME_CMDS:%=router/cmd/%.c) $(NET_CMDS:%=router/cmd/%.c), \
	$(wildcard router/cmd/*.c)))
MIME_CMD_OBJS = $(call cmd_objs,$(MIME_CMDS))
NET_CMD_OBJS = $(call cmd_objs,$(NET_CMDS))
TEST_SRCS = $(wildcard tests/unit/test_*.c)
TESTS = $(patsubst tests/unit/%.c,$(B)/tests/%,$(TEST_SRCS))
PROGRAMS = triage $(if $(wildcard router/bin/triage-filter.c),triage-filter) \
	   $(if $(wildcard router/bin/triage-client.c),triage-client) \
	   $(if $(MIME_CMD_OBJS),triage-mime) $(if $(NET_CMD_OBJS),triage-net)

.PHONY: all binaries archives demo check check-run check-unit check-cli \
	check-shared check-e2e check-layers check-lengths bench bench-run install clean \
	format format-check deps deps-check deps-test kernel-tree uninstall
.DELETE_ON_ERROR:

# 'make' only checks for the build's packages (tools/deps.sh names the
# missing ones and the apt-get line); 'make deps' installs them.
all: deps-check
	@$(MAKE) --no-print-directory binaries

binaries: $(PROGRAMS)

deps-check:
	@tools/deps.sh check build

deps:
	@tools/deps.sh install build

deps-test:
	@tools/deps.sh install test

# Rebuild everything when the compiler flags change (git's GIT-CFLAGS).
$(B)/FLAGS: FORCE
	@mkdir -p $(B)
	@echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS)' >$@.new
	@cmp -s $@.new $@ && rm -f $@.new || mv -f $@.new $@

.PHONY: FORCE

$(B)/%.o: %.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(B)/default_config.c: routes.conf tools/embed.sh
	@mkdir -p $(B)
	$(QUIET_GEN)tools/embed.sh config_default_text routes.conf >$@

$(B)/default_config.o: $(B)/default_config.c $(B)/FLAGS
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# one archive per layer: $(B)/lib.a ... $(B)/app.a
define layer_archive
$(B)/$(1).a: $(call layer_objs,$(1),$(B))
	@rm -f $$@
	$$(QUIET_AR)$$(AR) rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call layer_archive,$(l))))

archives: $(ARCHIVES)

triage: $(B)/router/bin/triage.o $(CORE_CMD_OBJS) $(ARCHIVES)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CORE_LIBS) -lm

triage-mime: $(B)/router/bin/triage.o $(CORE_CMD_OBJS) $(MIME_CMD_OBJS) \
	     $(ARCHIVES)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(MIME_LIBS) -lm

triage-net: $(B)/router/bin/triage.o $(CORE_CMD_OBJS) $(NET_CMD_OBJS) \
	    $(ARCHIVES)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(NET_LIBS) -lm

# The filter is linked like the other programs, against the shared
# libraries, so that their security updates reach it.  Its start-up cost
# (the loader and GMime's libraries, once per message) is what the
# resident filter removes: triage-filter -l SOCKET behind triage-client
# ('make bench' measures both against an empty static program).  A
# -static-pie link of the libraries' archives starts faster, but Debian
# ships no libmount.a (GIO needs one: it would be stubbed) and the
# archives' security updates would need a rebuild: not offered.
#
# Its 3,400 relative relocations packed (DT_RELR, glibc 2.36 and
# binutils 2.38): the loader reads a few hundred bytes of them, not
# 80 KB, at every start; where the linker lacks it, nothing changes.
# The probe links as the filter is linked (the same flags: LDFLAGS may
# pick another linker, -fuse-ld=gold has no DT_RELR), into a scratch
# file it removes (a linker may replace its output file: never
# /dev/null); a warning counts as no.  Run only when the filter links.
FILTER_RELR = $(shell p=$(B)/relr-probe.$$$$; mkdir -p $(B) && \
	printf 'int main(void) { return 0; }\n' >$$p.c && \
	$(CC) $(HARDEN_CFLAGS) $(CFLAGS) $(ALL_LDFLAGS) \
		-Wl,-z,pack-relative-relocs -o $$p $$p.c >$$p.out 2>&1 && \
	! grep -q . $$p.out && echo -Wl,-z,pack-relative-relocs; \
	rm -f $$p $$p.c $$p.out)
triage-filter: $(B)/router/bin/triage-filter.o $(B)/router/bin/resident.o \
	       $(ARCHIVES)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) $(FILTER_RELR) -o $@ $^ $(FILTER_FIRST_LIBS) \
		$(FILTER_LIBS) -lm

# triage-client: its start is all it costs, and it parses nothing: it
# passes its descriptors and environment to a socket and reads one byte.
# On x86-64 it runs without libc (router/lib/nolibc.h) as a static PIE: the
# kernel loads it at a random address without a loader, nolibc's _start
# applies its own relocations and makes them read-only (RELRO), and it
# sets up the stack protector's canary from the kernel's AT_RANDOM.
# _FORTIFY_SOURCE is left out: its checks are libc functions.  Elsewhere,
# and under a sanitizer, it is linked with libc like the other programs.
CLIENT_NOLIBC := $(if $(SANITIZE),,$(filter x86_64-%,$(MACHINE)))
CLIENT_CFLAGS = $(if $(CLIENT_NOLIBC),-DNOLIBC -U_FORTIFY_SOURCE \
	-fno-asynchronous-unwind-tables)

$(B)/router/bin/triage-client.o: router/bin/triage-client.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) $(CLIENT_CFLAGS) -MMD -MP -c -o $@ $<

triage-client: $(B)/router/bin/triage-client.o
ifdef CLIENT_NOLIBC
	$(QUIET_LINK)$(CC) $(filter-out -pie,$(ALL_LDFLAGS)) -static-pie \
		-nostdlib -o $@ $^ -lgcc
else
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^
endif

# A unit test links the archives as the programs do, after the objects
# of router/bin/ it tests, if any (given as prerequisites).
$(B)/tests/test_%: tests/unit/test_%.c $(ARCHIVES) $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) $(ALL_LDFLAGS) -o $@ \
		$< $(filter %.o,$^) $(ARCHIVES) $(TEST_LIBS) -lm

$(B)/tests/test_resident: $(B)/router/bin/resident.o

-include $(shell find $(B)/router $(B)/tests -name '*.d' 2>/dev/null)

# A kernel source tree from Debian's linux-source-6.12, for the symbol
# index, --tree tests and the get_maintainer.pl baseline.
KERNEL_TARBALL = /usr/src/linux-source-6.12.tar.xz
KERNEL_TREE = $(B)/linux
$(KERNEL_TREE)/.stamp: $(KERNEL_TARBALL)
	@echo '   UNPACK ' $(KERNEL_TARBALL)
	@rm -rf $(KERNEL_TREE) $(KERNEL_TREE).tmp && mkdir -p $(KERNEL_TREE).tmp
	@tar -xJf $(KERNEL_TARBALL) -C $(KERNEL_TREE).tmp --strip-components=1
	@mv $(KERNEL_TREE).tmp $(KERNEL_TREE) && touch $@
kernel-tree:
	@if [ -f $(KERNEL_TARBALL) ]; then \
		$(MAKE) --no-print-directory $(KERNEL_TREE)/.stamp; \
	else \
		echo "note: no $(KERNEL_TARBALL) (Debian package linux-source-6.12): tests that need a kernel tree are skipped"; \
	fi

# ---- tests -------------------------------------------------------------

check: deps-test
	@$(MAKE) --no-print-directory check-run

# Every part runs, even after one failed; each adds its counts to
# $(B)/test-results, and the last line sums them up (tests/summary.sh):
# "N passed, N failed, N skipped".
check-run: binaries $(TESTS) kernel-tree
	@rm -rf $(B)/test-results && mkdir -p $(B)/test-results
	@st=0; \
	export TEST_RESULTS=$(CURDIR)/$(B)/test-results; \
	$(MAKE) --no-print-directory check-unit || st=1; \
	$(MAKE) --no-print-directory check-layers || st=1; \
	tests/run-replay.sh $(MAKE) --no-print-directory check-fuzz-replay || st=1; \
	$(MAKE) --no-print-directory check-cli || st=1; \
	$(MAKE) --no-print-directory check-shared || st=1; \
	$(MAKE) --no-print-directory check-e2e || st=1; \
	echo "== summary"; \
	tests/summary.sh $$TEST_RESULTS && [ $$st = 0 ]

check-unit: $(TESTS)
	@TRIAGE_SRCDIR=$(CURDIR) tests/run-unit.sh $(TESTS)

# router/'s layers call only down (tests/layers): the programs' objects
# and the archives, as they are linked.  triage-client.o is linked alone,
# without libc: its memcpy and the like are its own, not the others'.
check-layers: binaries $(ARCHIVES) check-lengths
	@LAYER_LEVELS='$(LAYER_LEVELS)' LINK_LAYERS='$(LINK_LAYERS)' \
	LAYER_B='$(CURDIR)/$(B)' \
	LAYER_SKIP='$(CURDIR)/$(B)/router/bin/triage-client.o' \
	LAYER_CC='$(CC)' LAYER_CFLAGS='$(HARDEN_CFLAGS) $(CFLAGS)' \
	LAYER_LDFLAGS='$(ALL_LDFLAGS)' LAYER_LIBS='$(FUZZ_LIBS)' \
	tests/run-scripts.sh layers

# Issue 19: no C file over 2,000 lines, no function over 150 (tables
# aside, in *_table.c), anywhere under router/ ('tools/longfuncs.sh DIR'
# lists what is over).
LENGTH_DIRS = router
check-lengths:
	@tools/longfuncs.sh $(LENGTH_DIRS) && \
	echo "ok: no C file over 2000 lines, no function over 150 in $(LENGTH_DIRS)"

check-cli: binaries
	@tests/run-scripts.sh cli

check-shared: binaries kernel-tree
	@tests/run-scripts.sh shared

check-e2e: binaries
	@tests/run-scripts.sh e2e

# The classifier on the public labelled corpus (issues 4, 18), with the
# symbol index of the kernel tree when there is one, and without it.
# EVAL_SPLIT marks each labelled message "tune" or "held-out" (written by
# tools/split-reports.py; more labelled directories go in EVAL_CORPUS
# and get their marks in the same file): figures for the tuning part
# (in-sample for the rules and thresholds, the model cross-validated
# within it) and for the held-out part, which nothing is trained or
# fitted on.  EVAL_ARGS adds options, e.g. EVAL_ARGS=--fit-thresholds.
# tests/corpus/train (the project's own compositions, split by
# tools/split-train.sh) joins it; their marks are concatenated.  The
# shipped model (classifiers/model.bin, tools/train-model.sh: tuning
# parts only) is measured as it is, then a model trained here on the
# tuning part, as a site would train one.
EVAL_CORPUS = $(or $(TRIAGE_SHARED),../shared)/corpus/reports tests/corpus/train
EVAL_SPLIT = classifiers/split.tsv tests/corpus/train/split.tsv
EVAL_ARGS =
EVAL_RUN = ./triage eval $(foreach d,$(EVAL_CORPUS),--corpus $(d)) \
	--split $(B)/eval-split.tsv --rules classifiers --local "" $(EVAL_ARGS)
.PHONY: eval
eval: binaries kernel-tree
	@if [ ! -f $(firstword $(EVAL_CORPUS))/index.tsv ]; then \
		echo "note: $(firstword $(EVAL_CORPUS)) is absent: nothing to evaluate"; \
		exit 0; \
	fi; \
	cat $(EVAL_SPLIT) >$(B)/eval-split.tsv || exit 1; \
	if [ -f $(KERNEL_TREE)/MAINTAINERS ]; then \
		./triage update --kernel-tree $(KERNEL_TREE) \
			--output $(B)/eval-symbols.idx >/dev/null || exit 1; \
		echo "######## make eval: the shipped model, with the symbol index of $(KERNEL_TREE)"; \
		$(EVAL_RUN) --symbols $(B)/eval-symbols.idx \
			--model classifiers/model.bin || exit 1; \
		echo; \
		echo "######## make eval: a model trained on the tuning part, with the symbol index of $(KERNEL_TREE)"; \
		$(EVAL_RUN) --symbols $(B)/eval-symbols.idx || exit 1; \
		echo; \
	fi; \
	echo "######## make eval: without a symbol index"; \
	$(EVAL_RUN) --no-symbols

# The real filter over real list mail, judged against the hand labels of
# tests/real (its README): kind accuracy, forwarded non-reports, class
# precision/recall and section agreement of the first reports.  The
# held-out part is ../shared/corpus/lists (always, when present) and,
# with REAL_MAIL=DIR (tools/fetch-real-mail.sh), more reports of other
# lists; the tuning part is only in REAL_MAIL.  Nothing is ever fitted
# on the held-out part.
REAL_LISTS = $(or $(TRIAGE_SHARED),../shared)/corpus/lists
REAL_MAINTAINERS = $(or $(TRIAGE_SHARED),../shared)/data/linux/MAINTAINERS
REAL_MAIL =
REAL_SETS = lists=held-out:tests/real/lists.tsv:$(REAL_LISTS) \
	$(if $(REAL_MAIL),held-reports=held-out:tests/real/held-reports.tsv:$(REAL_MAIL)/held-reports \
	held-reports2=held-out:tests/real/held-reports2.tsv:$(REAL_MAIL)/held-reports2 \
	held-reports3=held-out:tests/real/held-reports3.tsv:$(REAL_MAIL)/held-reports3 \
	held-reports4=held-out:tests/real/held-reports4.tsv:$(REAL_MAIL)/held-reports4 \
	held-reports6=held-out:tests/real/held-reports6.tsv:$(REAL_MAIL)/held-reports6 \
	tune-stream=tuning:tests/real/tune-stream.tsv:$(REAL_MAIL)/tune-stream \
	tune-reports=tuning:tests/real/tune-reports.tsv:$(REAL_MAIL)/tune-reports \
	tune-reports2=tuning:tests/real/tune-reports2.tsv:$(REAL_MAIL)/tune-reports2 \
	tune-reports3=tuning:tests/real/tune-reports3.tsv:$(REAL_MAIL)/tune-reports3 \
	tune-reports4=tuning:tests/real/tune-reports4.tsv:$(REAL_MAIL)/tune-reports4 \
	tune-reports5=tuning:tests/real/tune-reports5.tsv:$(REAL_MAIL)/tune-reports5 \
	tune-reports6=tuning:tests/real/tune-reports6.tsv:$(REAL_MAIL)/tune-reports6)
.PHONY: eval-real
eval-real: binaries kernel-tree
	@if [ ! -f $(REAL_MAINTAINERS) ]; then \
		echo "note: $(REAL_MAINTAINERS) is absent: nothing to evaluate"; \
		exit 0; \
	fi; \
	python3 tools/eval-real.py --maintainers $(REAL_MAINTAINERS) \
		$(if $(wildcard $(KERNEL_TREE)/MAINTAINERS),--kernel-tree $(KERNEL_TREE)) \
		$(EVAL_REAL_ARGS) $(REAL_SETS)

# ---- fuzzing (issues 8, 25) ---------------------------------------------
#
#   make fuzz [FUZZ_TIME=60] [FUZZ_TARGETS="rules config"]
#	builds fuzz/fuzz_TARGET.c with clang's libFuzzer and the library
#	with -fsanitize=fuzzer-no-link,address,undefined into build/fuzz/,
#	and runs each harness FUZZ_TIME seconds under nice, one at a time,
#	from its seeds, with its dictionary fuzz/TARGET.dict; new corpus
#	goes to build/fuzz/corpus/TARGET, crashes to
#	build/fuzz/artifacts/TARGET.  One line of figures per harness; it
#	fails when any crashed, after running them all (fuzz/run.sh).
#   make fuzz-ci [FUZZ_CI_TIME=60]
#	what CI runs (OSS-Fuzz's CIFuzz): installs clang, then every
#	harness FUZZ_CI_TIME seconds from the committed corpus; fails on a
#	crash and prints its reproducer (path and base64).  What it finds
#	besides is not kept.
#   make fuzz-merge [FUZZ_TARGETS=...]
#	after 'make fuzz': copies to tests/corpus/fuzz/TARGET the inputs
#	that reach code no committed input or seed reaches (-merge=1 as a
#	set cover), to be committed (fuzz/merge.sh).
#   make check-fuzz-replay (part of check-run; gcc, no clang needed)
#	every seed and every committed input of tests/corpus/fuzz/TARGET
#	through the same harness, linked with fuzz/replay.c.

# gcc expands memcmp() and strncmp() of a constant length inline, after
# its AddressSanitizer pass, and checks none of those reads (it leaves
# the call to libasan's interceptor, which then never runs): under
# SANITIZE the replay missed memcmp(p, "[inline]", 8) reading 8 bytes
# where 5 were left (issue 25).  As calls, the interceptors check them.
ifdef SANITIZE
CFLAGS += -fno-builtin-memcmp -fno-builtin-bcmp -fno-builtin-strncmp \
	  -fno-builtin-strcmp -fno-builtin-strncasecmp -fno-builtin-strcasecmp
endif

FUZZ_TARGETS ?= intake_parse evidence maintainers rules config webhook \
		bugzilla_rest experts_log index smtp_reply kind claims command
FUZZ_TIME ?= 60
FUZZ_CI_TIME ?= 60
FUZZ_CC ?= clang
FUZZ_B = $(B)/fuzz
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	   -fno-omit-frame-pointer
# FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION (libFuzzer's convention):
# image.c reads an index into a block of its size instead of mapping it
FUZZ_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(ROUTER_INC) -Ifuzz -g -O1 $(PKG_CFLAGS) \
	      -DTRIAGE_VERSION='"$(VERSION)"' -DSYSCONFDIR='"$(SYSCONFDIR)"' \
	      -DDATADIR='"$(DATADIR)"' -DSTATEDIR='"$(STATEDIR)"' \
	      -DLIBEXECDIR='"$(LIBEXECDIR)"' \
	      -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $(FUZZ_SAN)
FUZZ_LIBS := $(shell $(PKG_CONFIG) --libs $(ALL_PKGS) 2>/dev/null) -lm
FUZZ_ARCHIVES = $(LINK_LAYERS:%=$(FUZZ_B)/%.a)
# Seed corpora per target, besides tests/corpus/fuzz/TARGET (directories).
# FUZZ_GEN_SEEDS_ are made by the clang build, for fuzzing only.
FUZZ_SEEDS_intake_parse = tests/corpus/mime tests/corpus/explain \
	tests/corpus/desk tests/corpus/classify/ai \
	tests/corpus/classify/fuzzer tests/corpus/classify/user \
	tests/corpus/hostile
FUZZ_SEEDS_evidence = tests/corpus/evidence
FUZZ_SEEDS_claims = tests/corpus/evidence
FUZZ_SEEDS_kind = tests/corpus/kinds tests/corpus/threads tests/corpus/explain
FUZZ_SEEDS_maintainers = tests/data
FUZZ_SEEDS_rules = classifiers
FUZZ_SEEDS_config = $(FUZZ_B)/seed/config
FUZZ_GEN_SEEDS_index = $(FUZZ_B)/seed/index
# TARGET:DIR:DIR... for fuzz/run.sh and fuzz/merge.sh
FUZZ_EMPTY :=
FUZZ_SPACE := $(FUZZ_EMPTY) $(FUZZ_EMPTY)
fuzz_spec = $(subst $(FUZZ_SPACE),:,$(strip $(1) \
	    $(wildcard tests/corpus/fuzz/$(1)) $(FUZZ_SEEDS_$(1)) \
	    $(FUZZ_GEN_SEEDS_$(1))))

.PHONY: fuzz fuzz-build fuzz-ci fuzz-merge check-fuzz-replay

$(FUZZ_B)/FLAGS: FORCE
	@mkdir -p $(FUZZ_B)
	@echo '$(FUZZ_CC) $(FUZZ_CFLAGS)' >$@.new
	@cmp -s $@.new $@ && rm -f $@.new || mv -f $@.new $@

$(FUZZ_B)/obj/%.o: %.c $(FUZZ_B)/FLAGS
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP \
		-c -o $@ $<

$(FUZZ_B)/obj/default_config.o: $(B)/default_config.c $(FUZZ_B)/FLAGS
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

-include $(shell find $(FUZZ_B)/obj -name '*.d' 2>/dev/null)

# the layers' archives again, instrumented: $(FUZZ_B)/lib.a ...
define fuzz_archive
$(FUZZ_B)/$(1).a: $(call layer_objs,$(1),$(FUZZ_B)/obj)
	@rm -f $$@
	$$(QUIET_AR)$$(AR) rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call fuzz_archive,$(l))))

$(FUZZ_B)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(FUZZ_ARCHIVES)
	$(QUIET_LINK)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_ARCHIVES) $(FUZZ_LIBS)

# fuzz_smtp_reply includes smtp.c for its static reply parser
$(FUZZ_B)/fuzz_smtp_reply $(FUZZ_B)/replay_smtp_reply: router/net/smtp.c

$(FUZZ_B)/seed/config/routes.conf: routes.conf
	@mkdir -p $(dir $@)
	@cp routes.conf $@

# fuzz_index's seeds: a valid index of each kind, in the current formats
$(FUZZ_B)/seed_index: fuzz/seed_index.c fuzz/fuzz.h $(FUZZ_ARCHIVES)
	$(QUIET_LINK)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -o $@ \
		$< $(FUZZ_ARCHIVES) $(FUZZ_LIBS)

$(FUZZ_B)/seed/index/.stamp: $(FUZZ_B)/seed_index tests/data/MAINTAINERS.kernel
	@rm -rf $(dir $@)
	$(QUIET_GEN)ASAN_OPTIONS=detect_leaks=0 $(FUZZ_B)/seed_index \
		tests/data/MAINTAINERS.kernel tests/data/kernel-tree $(dir $@) \
		>/dev/null && touch $@

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz_%) $(FUZZ_B)/seed/config/routes.conf \
	    $(if $(filter index,$(FUZZ_TARGETS)),$(FUZZ_B)/seed/index/.stamp)

fuzz: fuzz-build
	@fuzz/run.sh $(FUZZ_B) $(FUZZ_TIME) \
		$(foreach t,$(FUZZ_TARGETS),$(call fuzz_spec,$(t)))

fuzz-ci:
	@tools/deps.sh install fuzz
	@$(MAKE) --no-print-directory fuzz-build
	@fuzz/run.sh --ci $(FUZZ_B) $(FUZZ_CI_TIME) \
		$(foreach t,$(FUZZ_TARGETS),$(call fuzz_spec,$(t)))

fuzz-merge: fuzz-build
	@fuzz/merge.sh $(FUZZ_B) \
		$(foreach t,$(FUZZ_TARGETS),$(call fuzz_spec,$(t)))

$(FUZZ_B)/replay_%: fuzz/fuzz_%.c fuzz/replay.c fuzz/fuzz.h $(ARCHIVES) \
		    $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) -Ifuzz $(ALL_LDFLAGS) -o $@ $< \
		fuzz/replay.c $(ARCHIVES) $(FUZZ_LIBS)

check-fuzz-replay: $(FUZZ_TARGETS:%=$(FUZZ_B)/replay_%) \
		   $(FUZZ_B)/seed/config/routes.conf
	@set -e; $(foreach t,$(FUZZ_TARGETS),printf '== fuzz replay $(t): '; \
		./$(FUZZ_B)/replay_$(t) $(wildcard tests/corpus/fuzz/$(t)) \
		$(FUZZ_SEEDS_$(t));)

# ---- demo and bench ----------------------------------------------------

demo:
	@tools/deps.sh install demo
	@$(MAKE) --no-print-directory binaries kernel-tree
	@tools/demo.sh

bench:
	@tools/deps.sh check bench
	@$(MAKE) --no-print-directory binaries kernel-tree
	@bench/run.sh

# ---- install -----------------------------------------------------------

install: binaries
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR) \
		$(DESTDIR)$(SYSCONFDIR) $(DESTDIR)$(DATADIR)/classifiers \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(MANDIR)/man8
	install -d $(DESTDIR)$(LIBEXECDIR)/triage
	install -m 755 triage $(DESTDIR)$(BINDIR)/triage
	$(if $(filter triage-filter,$(PROGRAMS)),install -m 755 triage-filter \
		$(DESTDIR)$(LIBEXECDIR)/triage-filter)
	$(if $(filter triage-client,$(PROGRAMS)),install -m 755 triage-client \
		$(DESTDIR)$(LIBEXECDIR)/triage-client)
	$(foreach p,$(filter triage-mime triage-net,$(PROGRAMS)), \
		install -m 755 $(p) $(DESTDIR)$(LIBEXECDIR)/triage/$(p);)
	$(if $(wildcard classifiers/*.rules),install -m 644 \
		$(wildcard classifiers/*.rules) $(DESTDIR)$(DATADIR)/classifiers/)
	$(if $(wildcard classifiers/model.bin),install -m 644 \
		classifiers/model.bin $(DESTDIR)$(DATADIR)/classifiers/model.bin)
	$(if $(wildcard man/*.1),install -m 644 $(wildcard man/*.1) \
		$(DESTDIR)$(MANDIR)/man1/)
	$(if $(wildcard man/*.5),install -m 644 $(wildcard man/*.5) \
		$(DESTDIR)$(MANDIR)/man5/)
	$(if $(wildcard man/*.7),install -m 644 $(wildcard man/*.7) \
		$(DESTDIR)$(MANDIR)/man7/)
	$(if $(wildcard man/*.8),install -m 644 $(wildcard man/*.8) \
		$(DESTDIR)$(MANDIR)/man8/)
	test -f $(DESTDIR)$(SYSCONFDIR)/routes.conf || \
		install -m 644 routes.conf $(DESTDIR)$(SYSCONFDIR)/routes.conf
	install -d $(DESTDIR)$(UNITDIR)
	$(foreach u,$(wildcard contrib/*.service), \
		sed -e 's|/usr/local/bin|$(BINDIR)|g' \
		    -e 's|/usr/local/libexec|$(LIBEXECDIR)|g' $(u) \
		    >$(DESTDIR)$(UNITDIR)/$(notdir $(u)).new && \
		chmod 644 $(DESTDIR)$(UNITDIR)/$(notdir $(u)).new && \
		mv -f $(DESTDIR)$(UNITDIR)/$(notdir $(u)).new \
		    $(DESTDIR)$(UNITDIR)/$(notdir $(u));)

# uninstall: what install wrote; routes.conf only while it is the one
# shipped (an admin's changes stay), the state directory never (the
# reports and the audit trail outlive the programs)
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/triage \
		$(DESTDIR)$(LIBEXECDIR)/triage-filter \
		$(DESTDIR)$(LIBEXECDIR)/triage-client \
		$(DESTDIR)$(LIBEXECDIR)/triage/triage-mime \
		$(DESTDIR)$(LIBEXECDIR)/triage/triage-net \
		$(addprefix $(DESTDIR)$(DATADIR)/,$(wildcard classifiers/*.rules)) \
		$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(wildcard man/*.1))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(wildcard man/*.5))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man7/,$(notdir $(wildcard man/*.7))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(wildcard man/*.8))) \
		$(addprefix $(DESTDIR)$(UNITDIR)/,$(notdir $(wildcard contrib/*.service)))
	-rmdir $(DESTDIR)$(LIBEXECDIR)/triage $(DESTDIR)$(DATADIR)/classifiers \
		$(DESTDIR)$(DATADIR) $(DESTDIR)$(UNITDIR) 2>/dev/null
	if cmp -s routes.conf $(DESTDIR)$(SYSCONFDIR)/routes.conf; then \
		rm -f $(DESTDIR)$(SYSCONFDIR)/routes.conf; \
		rmdir $(DESTDIR)$(SYSCONFDIR) 2>/dev/null || :; \
	elif test -f $(DESTDIR)$(SYSCONFDIR)/routes.conf; then \
		echo "kept $(DESTDIR)$(SYSCONFDIR)/routes.conf (changed; remove it by hand)"; \
	fi
	@echo "kept $(STATEDIR) (the reports and the audit log): remove it by hand"

clean:
	rm -rf $(B)/router $(B)/tests $(B)/*.a $(B)/*.c $(B)/*.o $(B)/demo \
		$(B)/bench triage triage-filter triage-client triage-mime triage-net

# every C file of the repository (outside git: every one but build/'s)
FORMAT_FILES = $(or $(shell git ls-files '*.c' '*.h' 2>/dev/null), \
	       $(shell find . -path ./build -prune -o -name '*.[ch]' -print))
format:
	clang-format -i $(FORMAT_FILES)

format-check:
	clang-format --dry-run --Werror $(FORMAT_FILES)
