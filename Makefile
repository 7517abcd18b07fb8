# Diffable — the two commands a new user needs:
#   make demo   build everything and run the demo on built-in data
#   make test   install what is missing, then run every test (C, Swift, Python)
# Both do all set-up on a fresh Debian machine.

SHELL := /bin/bash
BUILD := build
CC ?= cc
CORE_DIR := CSources/CDiffCore
CORE_SOURCES := $(wildcard $(CORE_DIR)/*.c)
CORE_HEADERS := $(CORE_DIR)/include/dfc.h $(CORE_DIR)/dfc_internal.h
CORE_CFLAGS := -std=c11 -O2 -Wall -Wextra -Wpedantic -Wconversion -Werror -I$(CORE_DIR)/include
TEST_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -Wpedantic -Werror -fsanitize=address,undefined \
               -fno-sanitize-recover=undefined -fno-omit-frame-pointer -I$(CORE_DIR)/include
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_TEST_FLAGS ?=
export SWIFT_BACKTRACE := enable=no

.PHONY: all demo test deps c-test swift-test python-test lib bench bench-cli clean

all: lib
	swift build -c release

# ---- set-up ------------------------------------------------------------------

# libxxhash-dev gives xxhash.h; the core compiles XXH3 inline.
deps:
	@if ! pkg-config --exists libxxhash 2>/dev/null; then \
	    echo "installing libxxhash-dev"; \
	    $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libxxhash-dev pkg-config >/dev/null; \
	fi
	@pkg-config --exists libxxhash || { echo "libxxhash-dev is required (apt-get install libxxhash-dev)"; exit 1; }

# ---- the C core on its own -------------------------------------------------------

$(BUILD)/obj/%.o: $(CORE_DIR)/%.c $(CORE_HEADERS) | deps
	@mkdir -p $(dir $@)
	$(CC) $(CORE_CFLAGS) -fPIC -c $< -o $@

CORE_OBJECTS := $(patsubst $(CORE_DIR)/%.c,$(BUILD)/obj/%.o,$(CORE_SOURCES))

$(BUILD)/libdfc.a: $(CORE_OBJECTS)
	ar rcs $@ $^

$(BUILD)/libdfc.so: $(CORE_OBJECTS)
	$(CC) -shared -o $@ $^

lib: $(BUILD)/libdfc.a $(BUILD)/libdfc.so

$(BUILD)/cdiffcore-tests: Tests/CDiffCoreTests/test_main.c Tests/CDiffCoreTests/harness.h $(CORE_SOURCES) $(CORE_HEADERS) | deps
	@mkdir -p $(BUILD)
	gcc $(TEST_CFLAGS) Tests/CDiffCoreTests/test_main.c $(CORE_SOURCES) -o $@

c-test: $(BUILD)/cdiffcore-tests $(BUILD)/libdfc.a $(BUILD)/libdfc.so
	gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I$(CORE_DIR)/include -c Tests/CDiffCoreTests/header_alone.c -o $(BUILD)/header_alone_c.o
	g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -I$(CORE_DIR)/include -c Tests/CDiffCoreTests/header_alone.cpp -o $(BUILD)/header_alone_cpp.o
	Tests/CDiffCoreTests/check_symbols.sh $(BUILD)/libdfc.a $(BUILD)/libdfc.so
	$(BUILD)/cdiffcore-tests

# ---- Swift ---------------------------------------------------------------------

swift-test: deps
	swift test $(SWIFT_TEST_FLAGS)

# ---- the README's two commands ------------------------------------------------

test: deps c-test swift-test

demo: deps
	swift build -c release --product diffable
	.build/release/diffable demo

# ---- benchmarks (not part of make test) --------------------------------------------

bench-cli: deps
	swift build -c release --product diffable
	.build/release/diffable bench

bench: deps
	cd Benchmarks && swift package --disable-sandbox benchmark

clean:
	rm -rf $(BUILD) .build Benchmarks/.build
