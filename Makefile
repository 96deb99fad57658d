# Mentat: one Makefile for everything.
#
#   make            debug build (asserts on), leaves ./mentat
#   make run        install what is missing, build, play the main job on ./mentat.db
#   make test       install, build, include and phase-faction checks, every suite, fuzz corpus
#                   replay, clang build, lint, the ASan+UBSan build of the
#                   suites, short fuzz runs
#   make release    optimised build without asserts in build-release/
#   make asan       the suites under AddressSanitizer and UBSan
#   make fuzz       every libFuzzer target for FUZZ_SECONDS each (clang)
#   make fuzz-seeds rewrite the state decoder's seed corpus (after a format change)
#   make bench      `mentat bench` from the release build
#   make soak       long runs: the privacy audit over SOAK_GAMES genuine games,
#                   the bots' strength tournament and ledger games, with and
#                   without the Nexus Cards, and Advanced games (bots-soak),
#                   the durability campaigns (campaign-soak)
#   make lint       clang-tidy over the sources and the tests (.clang-tidy), warnings as
#                   errors
#   make install    libmentat.so and .a, headers, pkg-config file, the command,
#                   its man page and the web client (share/mentat/web) under
#                   PREFIX (default /usr/local; DESTDIR too)
#   make install-check  install into a temporary prefix and build and run a game
#                   server against it (tests/install/play.c), with pkg-config
#   make clean

CC ?= cc
BUILD ?= build
OPT ?= -O2 -g
SAN_FLAGS ?=
FUZZ_SECONDS ?= 300
FUZZ_SHORT_SECONDS ?= 10

WARN = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
       -Wmissing-prototypes -Wconversion -Werror
# protobuf-c's generated code is not ours and is not -Wconversion clean.
GEN_WARN = -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter
CPPFLAGS += -I. -I$(BUILD)/gen -D_DEFAULT_SOURCE
PIC ?=
CFLAGS += $(OPT) $(SAN_FLAGS) $(PIC)
LIB_LDLIBS = -llmdb -lprotobuf-c -lsodium -lzstd -lpthread -lm
LDLIBS = -lmicrohttpd $(LIB_LDLIBS) -lsqlite3

ENGINE_SRC  := $(wildcard engine/*.c engine/data/*.c)
SCHEMA_SRC  := $(wildcard schema/*.c)
LEDGER_SRC  := $(wildcard ledger/*.c)
INSPECT_SRC := $(wildcard inspect/*.c)
SERVER_SRC  := $(wildcard server/*.c)
TOOLS_SRC   := $(wildcard tools/*.c tools/bots/*.c tools/bench/*.c)
PROTO       := $(wildcard schema/*.proto)
GEN_C       := $(patsubst schema/%.proto,$(BUILD)/gen/%.pb-c.c,$(PROTO))
GEN_H       := $(GEN_C:.c=.h)
TEST_SRC    := $(wildcard tests/engine/test_*.c tests/schema/test_*.c \
                 tests/ledger/test_*.c tests/inspect/test_*.c tests/server/test_*.c \
                 tests/tools/test_*.c)
TEST_HELP   := $(wildcard tests/support/*.c)
FUZZ_SRC    := $(wildcard tests/fuzz/fuzz_*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LAYERS = server inspect ledger schema engine
LIBS = $(patsubst %,$(BUILD)/lib%.a,$(LAYERS))
TEST_BIN := $(patsubst %.c,$(BUILD)/%,$(TEST_SRC))
FUZZ_REPLAY := $(patsubst tests/fuzz/%.c,$(BUILD)/tests/fuzz/replay_%,$(FUZZ_SRC))
MENTAT := $(BUILD)/mentat

.PHONY: all deps run test check release asan fuzz fuzz-short fuzz-seeds bench lint clean FORCE \
        include-check soak audit-soak bots-soak campaign-soak compile clang install install-check
.SUFFIXES:
.DELETE_ON_ERROR:
.SECONDARY: $(GEN_C) $(GEN_H)

all: $(MENTAT)
	@if [ "$(BUILD)" = build ]; then cp $(MENTAT) ./mentat; fi

deps:
	@sh scripts/deps.sh

$(BUILD)/gen/%.pb-c.c $(BUILD)/gen/%.pb-c.h: schema/%.proto
	@mkdir -p $(BUILD)/gen
	protoc-c --proto_path=schema --c_out=$(BUILD)/gen $<

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(GEN_WARN) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/%.o: %.c $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libengine.a: $(call obj,$(ENGINE_SRC))
	@rm -f $@; ar rcs $@ $^
$(BUILD)/libschema.a: $(call obj,$(SCHEMA_SRC)) $(patsubst $(BUILD)/gen/%.c,$(BUILD)/obj/gen/%.o,$(GEN_C))
	@rm -f $@; ar rcs $@ $^
$(BUILD)/libledger.a: $(call obj,$(LEDGER_SRC))
	@rm -f $@; ar rcs $@ $^
$(BUILD)/libinspect.a: $(call obj,$(INSPECT_SRC))
	@rm -f $@; ar rcs $@ $^
$(BUILD)/libserver.a: $(call obj,$(SERVER_SRC))
	@rm -f $@; ar rcs $@ $^

# libmentat: engine, schema, ledger and inspect in one library. The shared
# one is built from position-independent objects (make install builds in
# build-pic) and exports only the public API (scripts/libmentat.map).
LIB_VERSION = 1.0.0
LIB_SONAME = libmentat.so.1
LIB_OBJ = $(call obj,$(ENGINE_SRC) $(SCHEMA_SRC) $(LEDGER_SRC) $(INSPECT_SRC)) \
          $(patsubst $(BUILD)/gen/%.c,$(BUILD)/obj/gen/%.o,$(GEN_C))
$(BUILD)/libmentat.so.$(LIB_VERSION): $(LIB_OBJ) scripts/libmentat.map
	$(CC) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=scripts/libmentat.map \
	    -Wl,--no-undefined $(LIB_OBJ) $(LIB_LDLIBS) -o $@
$(BUILD)/libmentat.a: $(LIB_OBJ)
	@rm -f $@; ar rcs $@ $^
$(BUILD)/mentat.1: docs/CLI.md scripts/man.sh
	sh scripts/man.sh docs/CLI.md $(LIB_VERSION) > $@

$(MENTAT): $(call obj,$(TOOLS_SRC)) $(LIBS)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

# Test binaries may use the tools' code except its main().
TOOLS_LIB_OBJ = $(call obj,$(filter-out tools/mentat.c,$(TOOLS_SRC)))
$(BUILD)/tests/%: tests/%.c $(call obj,$(TEST_HELP)) $(TOOLS_LIB_OBJ) $(LIBS) $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $< $(call obj,$(TEST_HELP)) $(TOOLS_LIB_OBJ) \
	    $(LIBS) -lcmocka $(LDLIBS) -o $@

# The standalone fuzz driver replays a corpus through a target under gcc.
$(BUILD)/tests/fuzz/replay_%: tests/fuzz/%.c tests/fuzz/driver.c $(LIBS) $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $< tests/fuzz/driver.c $(LIBS) $(LDLIBS) -o $@

include-check:
	@sh scripts/check-includes.sh
	@sh scripts/check-phase-factions.sh --self-test
	@sh scripts/check-phase-factions.sh

# The suites, the corpus replay, run from the repository root.
check: $(MENTAT) $(TEST_BIN) $(FUZZ_REPLAY)
	@sh scripts/run-tests.sh $(BUILD) $(TEST_BIN) -- $(FUZZ_REPLAY)

# Everything compiled, nothing run (the clang build uses it).
compile: $(MENTAT) $(TEST_BIN) $(FUZZ_REPLAY) $(BUILD)/tests/fuzz/seed_state

test: deps include-check
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory check
	@$(MAKE) --no-print-directory install-check
	@$(MAKE) --no-print-directory clang
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory asan
	@$(MAKE) --no-print-directory fuzz-short

# The whole tree under clang, warnings as errors.
clang:
	@$(MAKE) --no-print-directory BUILD=build-clang CC=clang OPT="-O1" compile
	@echo "clang: every file compiles clean"

release:
	@$(MAKE) --no-print-directory BUILD=build-release OPT="-O2 -DNDEBUG" $(BUILD_RELEASE_TARGET) build-release/mentat

asan:
	@$(MAKE) --no-print-directory BUILD=build-asan OPT="-O1 -g" \
	    SAN_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" check

FUZZ_BIN := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(FUZZ_SRC))
# Always relinked (FORCE): the libraries it links are built by the sub-make,
# which make cannot see from here, so a target must never be taken for
# up to date over changed sources.
build-fuzz/%: tests/fuzz/%.c FORCE
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang OPT="-O1 -g" \
	    SAN_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" \
	    $(patsubst %,build-fuzz/lib%.a,$(LAYERS))
	clang $(WARN) $(CPPFLAGS:$(BUILD)/gen=build-fuzz/gen) -Ibuild-fuzz/gen -O1 -g \
	    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all $< \
	    $(patsubst %,build-fuzz/lib%.a,$(LAYERS)) $(LDLIBS) -o $@

fuzz: $(FUZZ_BIN)
	@sh scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

fuzz-seeds: $(BUILD)/tests/fuzz/seed_state
	rm -f tests/fuzz/corpus/fuzz_state/*
	$(BUILD)/tests/fuzz/seed_state tests/fuzz/corpus/fuzz_state

fuzz-short: $(FUZZ_BIN)
	@sh scripts/fuzz.sh $(FUZZ_SHORT_SECONDS) $(FUZZ_BIN)

run: deps
	@$(MAKE) --no-print-directory all
	@sh scripts/run-main-job.sh

bench: deps release
	build-release/mentat bench

# The hidden-information audit over SOAK_GAMES genuine games, every seat
# and the public of each, each pair replayed up to the head (make test runs
# the same suite with one viewer, 3 pairs and 40 steps per game); then as
# many Advanced games the same way.
SOAK_GAMES ?= 200
SOAK_TRIALS ?= 28
soak: audit-soak bots-soak campaign-soak
audit-soak: $(BUILD)/tests/inspect/test_audit
	MENTAT_AUDIT_GAMES=$(SOAK_GAMES) MENTAT_AUDIT_TRIALS=$(SOAK_TRIALS) MENTAT_AUDIT_STEPS=0 \
	    MENTAT_AUDIT_EVERY_VIEWER=1 $(BUILD)/tests/inspect/test_audit
	MENTAT_AUDIT_GAMES=$(SOAK_GAMES) MENTAT_AUDIT_ADVANCED=1 MENTAT_AUDIT_STEPS=0 \
	    MENTAT_AUDIT_EVERY_VIEWER=1 $(BUILD)/tests/inspect/test_audit

# The bots at length, from the release build: the strength tournament of
# the README (SOAK_TOURNAMENT games of four levels) and SOAK_LEDGER_GAMES
# six-seat games through a durable ledger, each moved through 3 backups.
SOAK_TOURNAMENT ?= 1200
# ... and SOAK_TOURNAMENT_ADVANCED games of the same four levels in the
# Advanced game.
SOAK_TOURNAMENT_ADVANCED ?= 1200
SOAK_LEDGER_GAMES ?= 100
# ... and SOAK_NEXUS_GAMES games with the Nexus Cards, a quarter at each
# table size from 3 to 6 seats, every bot level seated: 0 rejections, 0
# stuck games, each printing how often each panel was played.
SOAK_NEXUS_GAMES ?= 1000
# ... and SOAK_ADVANCED_GAMES Advanced games, a fifth at each table size
# from 2 to 6 seats, every bot level seated: 0 rejections, 0 stuck games.
SOAK_ADVANCED_GAMES ?= 1000
bots-soak: release
	build-release/mentat tournament --games $(SOAK_TOURNAMENT) --levels easy,medium,hard,brutal \
	    --jobs 2 --seed 1
	build-release/mentat tournament --games $(SOAK_TOURNAMENT_ADVANCED) \
	    --levels easy,medium,hard,brutal --rules advanced --jobs 2 --seed 1
	rm -rf build-release/soak && mkdir -p build-release/soak
	build-release/mentat --db build-release/soak/mentat.db --keys build-release/soak/keys keygen
	build-release/mentat --db build-release/soak/mentat.db --keys build-release/soak/keys \
	    games --players 6 --rules basic --games $(SOAK_LEDGER_GAMES) --jobs 2 --seed 1 \
	    --continuations 3
	for n in 3 4 5 6; do \
	    bots=$$(echo easy,medium,hard,brutal,easy,medium | cut -d, -f1-$$n); \
	    build-release/mentat --db build-release/soak/mentat.db --keys build-release/soak/keys \
	        games --players $$n --rules basic --modules nexus_cards --bots $$bots \
	        --games $$(( $(SOAK_NEXUS_GAMES) / 4 )) --jobs 2 --seed $$n || exit 1; \
	done
	for n in 2 3 4 5 6; do \
	    bots=$$(echo brutal,hard,medium,easy,medium,hard | cut -d, -f1-$$n); \
	    build-release/mentat --db build-release/soak/mentat.db --keys build-release/soak/keys \
	        games --players $$n --rules advanced --bots $$bots \
	        --games $$(( $(SOAK_ADVANCED_GAMES) / 5 )) --jobs 2 --seed $$n || exit 1; \
	done
	build-release/mentat --db build-release/soak/mentat.db --keys build-release/soak/keys \
	    verify --all

# The durability campaigns at length (make test runs 4 trials of each):
# kill -9 during appends, group commits, backups and restores; single-byte
# changes of archives and ledgers; a full tmpfs; writers and readers at
# once; then fault injection at every call of append, backup and restore.
SOAK_CAMPAIGN_TRIALS ?= 200
campaign-soak: $(MENTAT) $(BUILD)/tests/ledger/test_campaigns $(BUILD)/tests/ledger/test_fault
	MENTAT_CAMPAIGN_TRIALS=$(SOAK_CAMPAIGN_TRIALS) $(BUILD)/tests/ledger/test_campaigns
	$(BUILD)/tests/ledger/test_fault
PREFIX ?= /usr/local
DESTDIR ?=
PIC_BUILD = build-pic
INSTALL_HEADERS = engine/engine.h schema/schema.h ledger/ledger.h inspect/inspect.h
WEB_FILES = $(wildcard tools/web/*.html tools/web/*.js tools/web/*.css tools/web/*.svg)
# `mentat serve` looks for the web client where install puts it
# (MENTAT_WEB_DIR, compiled into cmd_serve.c only when installing, which
# rebuilds it for the PREFIX at hand), then in ./tools/web.
ifdef MENTAT_WEB_DIR
$(BUILD)/obj/tools/cmd_serve.o: CPPFLAGS += -DMENTAT_WEB_DIR='"$(MENTAT_WEB_DIR)"'
endif
install:
	@rm -f $(PIC_BUILD)/obj/tools/cmd_serve.o
	@$(MAKE) --no-print-directory BUILD=$(PIC_BUILD) OPT="-O2 -g -DNDEBUG" PIC=-fPIC \
	    MENTAT_WEB_DIR=$(PREFIX)/share/mentat/web \
	    $(PIC_BUILD)/libmentat.so.$(LIB_VERSION) $(PIC_BUILD)/libmentat.a $(PIC_BUILD)/mentat \
	    $(PIC_BUILD)/mentat.1
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin \
	    $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/mentat/web \
	    $(patsubst %,$(DESTDIR)$(PREFIX)/include/mentat/%,$(dir $(INSTALL_HEADERS)))
	install -m 755 $(PIC_BUILD)/libmentat.so.$(LIB_VERSION) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libmentat.so.$(LIB_VERSION) $(DESTDIR)$(PREFIX)/lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(PREFIX)/lib/libmentat.so
	install -m 644 $(PIC_BUILD)/libmentat.a $(DESTDIR)$(PREFIX)/lib/
	for h in $(INSTALL_HEADERS); do install -m 644 $$h $(DESTDIR)$(PREFIX)/include/mentat/$$h; done
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(LIB_VERSION)|' scripts/mentat.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/mentat.pc
	install -m 755 $(PIC_BUILD)/mentat $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(PIC_BUILD)/mentat.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(WEB_FILES) $(DESTDIR)$(PREFIX)/share/mentat/web/

install-check:
	@sh scripts/install-test.sh

lint: $(GEN_H)
	@sh scripts/lint.sh $(BUILD) $(ENGINE_SRC) $(SCHEMA_SRC) $(LEDGER_SRC) $(INSPECT_SRC) $(SERVER_SRC) \
	    $(TOOLS_SRC) $(TEST_SRC) $(TEST_HELP) $(FUZZ_SRC) tests/fuzz/driver.c tests/fuzz/seed_state.c

FORCE:

clean:
	rm -rf build build-release build-asan build-fuzz build-clang build-pic mentat

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
