# triage - bug-report triage router
#
#   make            build triage and triage-filter
#   make demo       install missing Debian packages, build, run the example
#   make check      install missing Debian packages, build, run every test
#   make bench      benchmarks, with ratios against baselines run alongside
#   make install    PREFIX=/usr/local DESTDIR= (never overwrites routes.conf)
#
# Knobs (also in an untracked config.mak): DEVELOPER=1 adds -Werror;
# SANITIZE=address,undefined builds with sanitizers; V=1 shows commands.

-include config.mak

VERSION = 0.1

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec
DATADIR ?= $(PREFIX)/share/triage
MANDIR ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc/triage
STATEDIR ?= /var/lib/triage

PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
       -Wmissing-prototypes -Wpointer-arith -Wvla -Wwrite-strings \
       -Wno-unused-parameter
ifdef DEVELOPER
WARN += -Werror
endif
ifdef SANITIZE
CFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all \
	  -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
endif

# Programs and the libraries they link (router/cmd.h explains the split):
# a program pays at start-up for every shared library it links, and the
# filter and 'triage map' run once per message or path.
#   triage          pcre2 sqlite3 jansson zlib          (0.8 ms to start)
#   triage-filter   + gmime, without jansson            (the MTA program)
#   triage-mime     + gmime: commands that parse mail   (3.4 ms)
#   triage-net      + libcurl, libmicrohttpd             (9.3 ms)
CORE_PKGS = libpcre2-8 sqlite3 jansson zlib
FILTER_PKGS = gmime-3.0 libpcre2-8 sqlite3 zlib
MIME_PKGS = $(CORE_PKGS) gmime-3.0
NET_PKGS = $(CORE_PKGS) libcurl libmicrohttpd
ALL_PKGS = $(CORE_PKGS) gmime-3.0 libcurl libmicrohttpd

# (cmocka separately: the programs must build where it is not installed)
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(ALL_PKGS) 2>/dev/null)
CMOCKA_CFLAGS := $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CORE_LIBS := $(shell $(PKG_CONFIG) --libs $(CORE_PKGS) 2>/dev/null)
FILTER_LIBS := $(shell $(PKG_CONFIG) --libs $(FILTER_PKGS) 2>/dev/null)
MIME_LIBS := $(shell $(PKG_CONFIG) --libs $(MIME_PKGS) 2>/dev/null)
NET_LIBS := $(shell $(PKG_CONFIG) --libs $(NET_PKGS) 2>/dev/null)
TEST_LIBS := $(shell $(PKG_CONFIG) --libs $(ALL_PKGS) cmocka 2>/dev/null)

ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE -Irouter $(WARN) $(PKG_CFLAGS) \
	     -DTRIAGE_VERSION='"$(VERSION)"' -DSYSCONFDIR='"$(SYSCONFDIR)"' \
	     -DDATADIR='"$(DATADIR)"' -DSTATEDIR='"$(STATEDIR)"' \
	     -DLIBEXECDIR='"$(LIBEXECDIR)"' $(CFLAGS)
ALL_LDFLAGS = -Wl,--as-needed $(LDFLAGS)

ifndef V
QUIET_CC = @echo '   CC     ' $@;
QUIET_LINK = @echo '   LINK   ' $@;
QUIET_AR = @echo '   AR     ' $@;
QUIET_GEN = @echo '   GEN    ' $@;
endif

B = build
LIB_SRCS = $(filter-out router/triage.c router/triage-filter.c \
	     router/triage-client.c, \
	     $(wildcard router/*.c))
LIB_OBJS = $(patsubst %.c,$(B)/%.o,$(LIB_SRCS)) $(B)/default_config.o
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
PROGRAMS = triage $(if $(wildcard router/triage-filter.c),triage-filter) \
	   $(if $(wildcard router/triage-client.c),triage-client) \
	   $(if $(MIME_CMD_OBJS),triage-mime) $(if $(NET_CMD_OBJS),triage-net)

.PHONY: all binaries demo check check-run check-unit check-cli \
	check-shared check-e2e bench bench-run install clean format \
	format-check deps-build deps-test kernel-tree
.DELETE_ON_ERROR:

all: deps-build
	@$(MAKE) --no-print-directory binaries

binaries: $(PROGRAMS)

deps-build:
	@tools/deps.sh build

deps-test:
	@tools/deps.sh test

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

$(B)/libtriage.a: $(LIB_OBJS)
	@rm -f $@
	$(QUIET_AR)$(AR) rcs $@ $^

triage: $(B)/router/triage.o $(CORE_CMD_OBJS) $(B)/libtriage.a
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CORE_LIBS) -lm

triage-mime: $(B)/router/triage.o $(CORE_CMD_OBJS) $(MIME_CMD_OBJS) \
	     $(B)/libtriage.a
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(MIME_LIBS) -lm

triage-net: $(B)/router/triage.o $(CORE_CMD_OBJS) $(NET_CMD_OBJS) \
	    $(B)/libtriage.a
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(NET_LIBS) -lm

# The filter starts once per message, and a program linked with gmime's
# twenty shared libraries spends ~2.5 ms just loading them: link the
# static archives of gmime, GLib and the rest (libmount, of which Debian
# ships none, is stubbed: router/compat/libmount-stub.c), keeping only
# libc shared.  Measured: 6.6 ms -> 4.9 ms per message.  Without the
# archives (or with sanitizers) the shared libraries are used.
#
# libc too, and not position-independent (bench/filter.sh, stage
# "start"): the loader and libc's relocations go, and so do the
# copy-on-write faults of relocated data (PIE: 7,200 relocations):
# 0.80 -> 0.50 ms CPU before main(), 620 -> 530 page faults.  glibc's
# iconv still loads its gconv modules for uncommon charsets (dlopen,
# same glibc: relink after a libc6 upgrade).  FILTER_LINK=pie keeps
# libc shared.
FILTER_STATIC_ARCHIVES = -lgmime-3.0 -lgio-2.0 -lgobject-2.0 \
	-lgmodule-2.0 -lglib-2.0 -lffi -lgpgme -lassuan -lgpg-error -lidn2 \
	-lunistring -lselinux -lpcre2-8 -lsqlite3 -lz
FILTER_STATIC_LIBS = -Wl,-Bstatic $(FILTER_STATIC_ARCHIVES) -Wl,-Bdynamic \
	-lm -pthread -ldl
FILTER_LINK ?= static
# relink when FILTER_LINK changes (valgrind needs FILTER_LINK=pie)
$(B)/FILTER_LINK: FORCE
	@mkdir -p $(B)
	@echo '$(FILTER_LINK)' >$@.new
	@cmp -s $@.new $@ && rm -f $@.new || mv -f $@.new $@

FILTER_OBJS = $(B)/router/triage-filter.o $(B)/libtriage.a \
	      $(B)/router/compat/libmount-stub.o
# The static filter's object files that a report runs go first, text and
# read-only data (router/filter-hot.ld, made by tools/hotlist.sh from
# the link map): a 6 KB report maps 2.1 MB of text, not 3.7 MB.
FILTER_HOT = -Wl,-T,router/filter-hot.ld -Wl,-Map=$(B)/triage-filter.map
triage-filter: $(FILTER_OBJS) $(B)/FILTER_LINK router/filter-hot.ld
ifdef SANITIZE
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $(filter-out %stub.o,$(FILTER_OBJS)) \
		$(FILTER_LIBS) -lm
else ifeq ($(FILTER_LINK),static)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -static -o $@ $(FILTER_OBJS) \
		$(FILTER_STATIC_ARCHIVES) -lm -pthread $(FILTER_HOT) \
		2>$(B)/filter-static.log || \
	{ echo "   note: static link with router/filter-hot.ld failed (see $(B)/filter-static.log); without it"; \
	  $(CC) $(ALL_LDFLAGS) -static -o $@ $(FILTER_OBJS) \
		$(FILTER_STATIC_ARCHIVES) -lm -pthread 2>$(B)/filter-static.log; } || \
	{ echo "   note: fully static link failed (see $(B)/filter-static.log); libc shared"; \
	  $(CC) $(ALL_LDFLAGS) -o $@ $(FILTER_OBJS) $(FILTER_STATIC_LIBS) 2>$(B)/filter-static.log || \
	  $(CC) $(ALL_LDFLAGS) -o $@ $(filter-out %stub.o,$(FILTER_OBJS)) $(FILTER_LIBS) -lm; }
else
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $(FILTER_OBJS) $(FILTER_STATIC_LIBS) \
		2>$(B)/filter-static.log || \
	{ echo "   note: static link failed (see $(B)/filter-static.log); using shared libraries"; \
	  $(CC) $(ALL_LDFLAGS) -o $@ $(filter-out %stub.o,$(FILTER_OBJS)) $(FILTER_LIBS) -lm; }
endif

# triage-client: its start is all it costs.  On x86-64 it runs without
# libc (router/nolibc.h: 0.12 ms against 0.23 for an empty static glibc
# program); elsewhere, and under a sanitizer, with libc, static if it can.
CLIENT_NOLIBC := $(if $(SANITIZE),,$(filter x86_64-%,$(shell \
	$(CC) -dumpmachine 2>/dev/null)))
CLIENT_CFLAGS = $(if $(CLIENT_NOLIBC),-DNOLIBC -fno-pie -fno-stack-protector \
	-U_FORTIFY_SOURCE -fno-asynchronous-unwind-tables)

$(B)/router/triage-client.o: router/triage-client.c $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) $(CLIENT_CFLAGS) -MMD -MP -c -o $@ $<

triage-client: $(B)/router/triage-client.o
ifdef SANITIZE
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^
else ifdef CLIENT_NOLIBC
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -static -no-pie -nostdlib -o $@ $^ -lgcc
else
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -static -o $@ $^ 2>$(B)/client-static.log || \
	$(CC) $(ALL_LDFLAGS) -o $@ $^
endif

$(B)/tests/test_%: tests/unit/test_%.c $(B)/libtriage.a $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) $(ALL_LDFLAGS) -o $@ \
		$< $(B)/libtriage.a $(TEST_LIBS) -lm

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

check-run: binaries $(TESTS) kernel-tree
	@$(MAKE) --no-print-directory check-unit check-fuzz-replay \
		check-cli check-shared check-e2e
	@echo "make check: all tests passed"

check-unit: $(TESTS)
	@set -e; for t in $(TESTS); do \
		echo "== $$t"; TRIAGE_SRCDIR=$(CURDIR) ./$$t; done

check-cli: binaries
	@tests/run-cli.sh

check-shared: binaries kernel-tree
	@tests/run-shared.sh

check-e2e: binaries
	@tests/run-e2e.sh

# The classifier cross-validated on the public labelled corpus (issue 4):
# 5 folds grouped by author and thread, with the symbol index of the
# kernel tree when there is one, and without it.
EVAL_CORPUS = $(or $(TRIAGE_SHARED),../shared)/corpus/reports
.PHONY: eval
eval: binaries kernel-tree
	@if [ ! -f $(EVAL_CORPUS)/index.tsv ]; then \
		echo "note: $(EVAL_CORPUS) is absent: nothing to evaluate"; \
		exit 0; \
	fi; \
	if [ -f $(KERNEL_TREE)/MAINTAINERS ]; then \
		./triage update --kernel-tree $(KERNEL_TREE) \
			--output $(B)/eval-symbols.idx >/dev/null || exit 1; \
		echo "== triage eval, with the symbol index of $(KERNEL_TREE)"; \
		./triage eval --corpus $(EVAL_CORPUS) --rules classifiers \
			--local "" --symbols $(B)/eval-symbols.idx || exit 1; \
		echo; \
	fi; \
	echo "== triage eval, without a symbol index"; \
	./triage eval --corpus $(EVAL_CORPUS) --rules classifiers --local "" \
		--no-symbols

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
		bugzilla_rest experts_log index smtp_reply
FUZZ_TIME ?= 60
FUZZ_CI_TIME ?= 60
FUZZ_CC ?= clang
FUZZ_B = $(B)/fuzz
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	   -fno-omit-frame-pointer
# FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION (libFuzzer's convention):
# image.c reads an index into a block of its size instead of mapping it
FUZZ_CFLAGS = -std=gnu11 -D_GNU_SOURCE -Irouter -Ifuzz -g -O1 $(PKG_CFLAGS) \
	      -DTRIAGE_VERSION='"$(VERSION)"' -DSYSCONFDIR='"$(SYSCONFDIR)"' \
	      -DDATADIR='"$(DATADIR)"' -DSTATEDIR='"$(STATEDIR)"' \
	      -DLIBEXECDIR='"$(LIBEXECDIR)"' \
	      -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $(FUZZ_SAN)
FUZZ_LIBS := $(shell $(PKG_CONFIG) --libs $(ALL_PKGS) 2>/dev/null) -lm
FUZZ_LIB_OBJS = $(patsubst %.c,$(FUZZ_B)/obj/%.o,$(LIB_SRCS)) \
		$(FUZZ_B)/obj/default_config.o
# Seed corpora per target, besides tests/corpus/fuzz/TARGET (directories).
# FUZZ_GEN_SEEDS_ are made by the clang build, for fuzzing only.
FUZZ_SEEDS_intake_parse = tests/corpus/mime tests/corpus/explain \
	tests/corpus/desk tests/corpus/classify/ai \
	tests/corpus/classify/fuzzer tests/corpus/classify/user \
	tests/corpus/hostile
FUZZ_SEEDS_evidence = tests/corpus/evidence
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

$(FUZZ_B)/libtriage-fuzz.a: $(FUZZ_LIB_OBJS)
	@rm -f $@
	$(QUIET_AR)$(AR) rcs $@ $^

$(FUZZ_B)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(FUZZ_B)/libtriage-fuzz.a
	$(QUIET_LINK)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_B)/libtriage-fuzz.a $(FUZZ_LIBS)

# fuzz_smtp_reply includes smtp.c for its static reply parser
$(FUZZ_B)/fuzz_smtp_reply $(FUZZ_B)/replay_smtp_reply: router/smtp.c

$(FUZZ_B)/seed/config/routes.conf: routes.conf
	@mkdir -p $(dir $@)
	@cp routes.conf $@

# fuzz_index's seeds: a valid index of each kind, in the current formats
$(FUZZ_B)/seed_index: fuzz/seed_index.c fuzz/fuzz.h $(FUZZ_B)/libtriage-fuzz.a
	$(QUIET_LINK)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -o $@ \
		$< $(FUZZ_B)/libtriage-fuzz.a $(FUZZ_LIBS)

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
	@tools/deps.sh fuzz
	@$(MAKE) --no-print-directory fuzz-build
	@fuzz/run.sh --ci $(FUZZ_B) $(FUZZ_CI_TIME) \
		$(foreach t,$(FUZZ_TARGETS),$(call fuzz_spec,$(t)))

fuzz-merge: fuzz-build
	@fuzz/merge.sh $(FUZZ_B) \
		$(foreach t,$(FUZZ_TARGETS),$(call fuzz_spec,$(t)))

$(FUZZ_B)/replay_%: fuzz/fuzz_%.c fuzz/replay.c fuzz/fuzz.h $(B)/libtriage.a \
		    $(B)/FLAGS
	@mkdir -p $(dir $@)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) -Ifuzz $(ALL_LDFLAGS) -o $@ $< \
		fuzz/replay.c $(B)/libtriage.a $(FUZZ_LIBS)

check-fuzz-replay: $(FUZZ_TARGETS:%=$(FUZZ_B)/replay_%) \
		   $(FUZZ_B)/seed/config/routes.conf
	@set -e; $(foreach t,$(FUZZ_TARGETS),printf '== fuzz replay $(t): '; \
		./$(FUZZ_B)/replay_$(t) $(wildcard tests/corpus/fuzz/$(t)) \
		$(FUZZ_SEEDS_$(t));)

# ---- demo and bench ----------------------------------------------------

demo:
	@tools/deps.sh demo
	@$(MAKE) --no-print-directory binaries kernel-tree
	@tools/demo.sh

bench:
	@tools/deps.sh bench
	@$(MAKE) --no-print-directory binaries kernel-tree
	@bench/run.sh

# ---- install -----------------------------------------------------------

install: binaries
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR) \
		$(DESTDIR)$(SYSCONFDIR) $(DESTDIR)$(DATADIR)/classifiers \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(MANDIR)/man8
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
	$(if $(wildcard man/*.1),install -m 644 $(wildcard man/*.1) \
		$(DESTDIR)$(MANDIR)/man1/)
	$(if $(wildcard man/*.5),install -m 644 $(wildcard man/*.5) \
		$(DESTDIR)$(MANDIR)/man5/)
	$(if $(wildcard man/*.8),install -m 644 $(wildcard man/*.8) \
		$(DESTDIR)$(MANDIR)/man8/)
	test -f $(DESTDIR)$(SYSCONFDIR)/routes.conf || \
		install -m 644 routes.conf $(DESTDIR)$(SYSCONFDIR)/routes.conf

clean:
	rm -rf $(B)/router $(B)/tests $(B)/*.a $(B)/*.c $(B)/*.o $(B)/demo \
		$(B)/bench triage triage-filter triage-client triage-mime triage-net

FORMAT_FILES = $(wildcard router/*.[ch] router/cmd/*.c tests/unit/*.[ch] \
	       fuzz/*.[ch])
format:
	clang-format -i $(FORMAT_FILES)

format-check:
	clang-format --dry-run --Werror $(FORMAT_FILES)
