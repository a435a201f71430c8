# SPDX-License-Identifier: GPL-2.0-only
# Convenience front end for Meson. `make demo` and `make check` are the two
# commands of README.md: both install what they need first, demo only what
# building and running idlelab needs, check also the test tools.

BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 15

.PHONY: all deps deps-test build demo check test-build test test-live asan fuzz bench clean

all: build

deps:
	@./tools/install-deps.sh build

deps-test:
	@./tools/install-deps.sh build test

# tests=auto: the suite is built when cmocka and json-c are installed
$(BUILD)/build.ninja:
	meson setup $(BUILD) -Dwerror=true --buildtype=release

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

# The main job on the built-in default platform: only the binary is built.
demo: deps $(BUILD)/build.ninja
	ninja -C $(BUILD) src/cli/idlelab
	./tools/demo.sh $(BUILD)/src/cli/idlelab

# A build directory configured before the test tools were there gets them now
# (one configured when the option was a boolean is configured anew).
test-build: deps-test $(BUILD)/build.ninja
	meson configure $(BUILD) -Dtests=enabled || meson setup --wipe $(BUILD) -Dtests=enabled
	ninja -C $(BUILD)

# The deterministic suite (the default test setup leaves out the suite 'live').
test: test-build
	meson test -C $(BUILD) --print-errorlogs

# The tests that read how this machine idles, or change its governor while
# they run (root): not part of make check, whose result must not depend on
# the machine's load.
test-live: test-build
	meson test -C $(BUILD) --setup live --suite live --print-errorlogs

$(ASAN_BUILD)/build.ninja:
	meson setup $(ASAN_BUILD) -Dwerror=true -Dtests=enabled -Db_sanitize=address,undefined -Db_lundef=false --buildtype=debug

asan: deps-test $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 meson test -C $(ASAN_BUILD) --print-errorlogs

$(FUZZ_BUILD)/build.ninja:
	CC=clang meson setup $(FUZZ_BUILD) -Dfuzz=true -Dtests=disabled --buildtype=debug

# A short run of every fuzz target on its seed corpus (copied, so the
# checked-in corpus stays as it is).
fuzz: deps-test $(FUZZ_BUILD)/build.ninja
	ninja -C $(FUZZ_BUILD)
	./tools/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# Everything CI runs: the test suite, again under ASan+UBSan, then the fuzzers.
check: test asan fuzz

bench: build
	./tools/bench.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
