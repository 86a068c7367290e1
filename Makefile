# hookline: the two commands a newcomer needs are
#   make demo   - set up, build the library and run the demo agent loop
#   make test   - run every test (Rust, header drift, ctest, Go, Node, installed files)
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
CARGO ?= cargo
LIBDIR := target/release
CBINDGEN_VERSION := 0.29.0
BUILD := build
# `make install` destinations (DESTDIR: staging root for packaging).
PREFIX ?= /usr/local
INSTALL_LIBDIR ?= $(PREFIX)/lib
INSTALL_INCLUDEDIR ?= $(PREFIX)/include
DESTDIR ?=
# pkg-config files for the in-tree build (PKG_CONFIG_PATH for Go development).
PC_UNINSTALLED := $(BUILD)/pkgconfig
NODE_PREBUILD := bindings/node/prebuilds/$(shell node -p 'process.platform + "-" + process.arch' 2>/dev/null || echo unknown)

.PHONY: all lib header setup setup-demo demo stress test test-rust test-header test-c test-c-sanitize test-c-valgrind faults fuzz test-go test-node bench soak clean install pc-uninstalled node-prebuild test-install test-package

all: lib

lib:
	$(CARGO) build --release

# Regenerate the committed header with the pinned cbindgen.
# The Go module carries its own copy (it must build outside this checkout).
header:
	scripts/cbindgen.sh $(CBINDGEN_VERSION) include/hookline.h
	cp include/hookline.h bindings/go/hookline.h

setup:
	scripts/setup.sh

# The demo needs only a C compiler and cargo (no npm, no Go).
setup-demo:
	scripts/setup.sh --demo

demo: setup-demo lib
	$(MAKE) -C examples/demo run

test: setup lib lint test-rust test-cli test-header test-c test-c-sanitize test-posix-runner faults test-go test-node test-readme test-install test-package
	@echo "all test suites passed"

# Lint gates: clippy on every target with warnings as errors, rustfmt, and
# rustdoc with warnings as errors (broken intra-doc links fail).
.PHONY: lint
lint:
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings
	$(CARGO) fmt --all -- --check
	RUSTDOCFLAGS=-Dwarnings $(CARGO) doc --workspace --no-deps --quiet
	@echo "lint: clippy, rustfmt and rustdoc are clean"

# The output is kept in build/logs: the fault summary reports from it.
test-rust:
	mkdir -p $(BUILD)/logs
	$(CARGO) test --release 2>&1 | tee $(BUILD)/logs/rust.log

# The hookline command on the demo: its config passes `check`, its cases pass `test`.
.PHONY: test-cli
test-cli: lib
	target/release/hookline check examples/demo/hooks.json
	target/release/hookline test examples/demo/cases.json

test-header:
	scripts/cbindgen.sh $(CBINDGEN_VERSION) $(BUILD)/hookline.h.fresh
	diff -u include/hookline.h $(BUILD)/hookline.h.fresh || (echo "include/hookline.h drifted from the code: run 'make header'" && exit 1)
	cmp include/hookline.h bindings/go/hookline.h || (echo "bindings/go/hookline.h differs from include/hookline.h: run 'make header'" && exit 1)
	for f in LICENSE-MIT LICENSE-APACHE; do cmp $$f bindings/node/$$f && cmp $$f bindings/go/$$f || { echo "bindings/*/$$f differs from ./$$f: copy it"; exit 1; }; done
	@echo "header: include/hookline.h (and the Go module's copy) match a fresh cbindgen $(CBINDGEN_VERSION) generation"

test-c: lib
	cmake -S ctests -B $(BUILD)/ctests -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build $(BUILD)/ctests -j2
	cd $(BUILD)/ctests && ctest --output-on-failure -j2

# The whole Rust and C suites again on the portable POSIX runner backend (the one macOS and the
# BSDs use; see docs/runner.md), selected at run time. Own C build directory and log, so the
# fault summary keeps reading the default backend's runs.
.PHONY: test-posix-runner
test-posix-runner: lib
	mkdir -p $(BUILD)/logs
	HOOKLINE_RUNNER=posix $(CARGO) test --release 2>&1 | tee $(BUILD)/logs/rust-posix-runner.log
	cmake -S ctests -B $(BUILD)/ctests-posix-runner -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build $(BUILD)/ctests-posix-runner -j2
	cd $(BUILD)/ctests-posix-runner && HOOKLINE_RUNNER=posix ctest --output-on-failure -j2

# The C tests again under AddressSanitizer, LeakSanitizer and UBSan.
test-c-sanitize: lib
	HOOKLINE_SKIP_BUILD=1 scripts/sanitize-ctests.sh

# The C tests under valgrind memcheck (slower; not part of `make test`).
test-c-valgrind: lib
	scripts/valgrind-ctests.sh

# Fault suite and bad-input suite summaries, from the Rust and C runs above
# (nothing is run twice).
faults: test-rust test-c
	HOOKLINE_FAULT_LOGS=$(BUILD)/logs scripts/fault-summary.sh

# Every concurrency test many times in a row with the machine loaded
# (STRESS_ROUNDS=N, default 50; not part of `make test`).
stress: setup lib
	scripts/stress.sh

# Fuzzing (needs a nightly toolchain and cargo-fuzz; not part of `make test`).
FUZZ_SECONDS ?= 60
fuzz:
	fuzz/run.sh $(FUZZ_SECONDS)

# Benchmarks (not part of `make test`): medians, p99s and ratios to floors.
bench: lib
	$(MAKE) -C bench run

# The Go binding links through pkg-config: here against the in-tree build.
# bindings/go/otelhookline is a module of its own (the OpenTelemetry adapter;
# its dependencies come from the Go module proxy, downloaded by setup).
test-go: lib pc-uninstalled
	cd bindings/go && export PKG_CONFIG_PATH=$(CURDIR)/$(PC_UNINSTALLED) LD_LIBRARY_PATH=$(CURDIR)/$(LIBDIR) && \
	  go vet ./... && go test -race -count=1 ./...
	cd bindings/go/otelhookline && export PKG_CONFIG_PATH=$(CURDIR)/$(PC_UNINSTALLED) LD_LIBRARY_PATH=$(CURDIR)/$(LIBDIR) && \
	  go vet ./... && go test -race -count=1 ./...

pc-uninstalled: lib
	scripts/install.sh --uninstalled $(PC_UNINSTALLED)

# Install the C library: lib/libhookline.so.X.Y.Z (+ .so.X, .so symlinks),
# lib/libhookline.a, include/hookline.h, lib/pkgconfig/hookline{,-static}.pc,
# lib/cmake/hookline/. PREFIX, DESTDIR, INSTALL_LIBDIR, INSTALL_INCLUDEDIR.
install: lib
	PREFIX="$(PREFIX)" LIBDIR="$(INSTALL_LIBDIR)" INCLUDEDIR="$(INSTALL_INCLUDEDIR)" DESTDIR="$(DESTDIR)" scripts/install.sh

# The Node package carries the library for its platform (then `npm pack`).
node-prebuild: lib
	mkdir -p $(NODE_PREBUILD)
	cp $(LIBDIR)/libhookline.so $(NODE_PREBUILD)/libhookline.so

# The crate as `cargo package` makes it (sources, header, docs; no bindings).
test-package:
	mkdir -p $(BUILD)
	$(CARGO) package -p hookline --allow-dirty --no-verify --quiet
	$(CARGO) package -p hookline --allow-dirty --list --quiet > $(BUILD)/package-files.txt
	! grep -E '^(bindings|ctests|bench|fuzz|soak|examples)/' $(BUILD)/package-files.txt
	grep -qx src/lib.rs $(BUILD)/package-files.txt && grep -qx include/hookline.h $(BUILD)/package-files.txt
	@! $(CARGO) tree -p hookline -e normal --prefix none | grep -q '^clap' || { echo "the library crate depends on clap"; exit 1; }
	@echo "package: the crate packages ($$(wc -l < $(BUILD)/package-files.txt) files)"

# What a user outside the checkout gets: `make install` into a temporary
# DESTDIR used by C (pkg-config, static, CMake) and Go (vendored module), and
# the `npm pack` tarball installed into a fresh project.
test-install: lib node-prebuild
	scripts/test-install.sh

test-node: lib
	cd bindings/node && npm test

# Every C, Go and TypeScript snippet of the READMEs, compiled and run.
.PHONY: test-readme
test-readme: lib pc-uninstalled
	scripts/readme-snippets.sh

# Mixed load for a fixed number of iterations; RSS, fds and zombies must stay
# flat (not part of CI; SOAK_ITERATIONS=N to change the length).
soak: lib
	mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra -Werror -Iinclude soak/soak.c -L$(LIBDIR) -lhookline -lpthread -Wl,-rpath,$(CURDIR)/$(LIBDIR) -o $(BUILD)/soak
	$(BUILD)/soak

clean:
	$(CARGO) clean
	rm -rf $(BUILD) bindings/node/prebuilds
