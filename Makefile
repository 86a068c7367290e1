# hookline: the two commands a newcomer needs are
#   make demo   - set up, build the library and run the demo agent loop
#   make test   - run every test (Rust, header drift, ctest, Go, Node, Python, installed files)
# Release artifacts (not needed for either): `make dist` builds the per-platform
# tarballs and npm packages into build/dist, `make test-dist` checks them (CI).
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
# npm tarballs for this machine (make npm-packages).
NPM_PACKAGES := $(BUILD)/npm
# Release platforms (make dist): scripts/dist.sh names their targets.
DIST_PLATFORMS ?= linux-x64-gnu linux-arm64-gnu linux-x64-musl darwin-x64 darwin-arm64 windows-x64

.PHONY: test-windows all lib header setup setup-demo demo stress test test-rust test-header test-c test-c-sanitize test-c-valgrind faults fuzz fuzz-smoke test-fuzz-script test-go test-node bench soak clean install pc-uninstalled npm-packages test-install test-install-root test-package setup-dist dist test-dist

all: lib

# The library and the `hookline` command; also records which system libraries
# the static archive needs, so that `make install` needs no Rust toolchain.
lib:
	$(CARGO) build --release
	scripts/install.sh --record-native-libs

# Regenerate the committed header with the pinned cbindgen, then the ABI schema (which lists its
# functions). The Go module carries its own copy of the header (it must build outside this checkout).
header:
	scripts/cbindgen.sh $(CBINDGEN_VERSION) include/hookline.h
	cp include/hookline.h bindings/go/hookline.h
	$(MAKE) schema

setup:
	scripts/setup.sh

# The demo needs only a C compiler and cargo (no npm, no Go).
setup-demo:
	scripts/setup.sh --demo

demo: setup-demo lib
	$(MAKE) -C examples/demo run

test: setup lib lint test-rust test-cli test-header test-c test-c-sanitize test-posix-runner faults test-go test-node test-python test-readme test-install test-install-root test-package
	@echo "all test suites passed"

# Lint gates: clippy on every target with warnings as errors, rustfmt, and
# rustdoc with warnings as errors (broken intra-doc links fail).
.PHONY: lint
lint:
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings
	$(CARGO) fmt --all -- --check
	RUSTDOCFLAGS=-Dwarnings $(CARGO) doc --workspace --no-deps --quiet
	@echo "lint: clippy, rustfmt and rustdoc are clean"

# The Rust tests (the library's unit tests, tests/it/, tests/runner.rs, the CLI's, the doctests) in
# cargo's test profile: unoptimised, so they build in a fraction of the release build's time. The
# output is kept in build/logs: the fault summary reports from it. `make test-rust-release` runs
# the same tests built as the library ships (optimised; not part of `make test`).
test-rust:
	mkdir -p $(BUILD)/logs
	$(CARGO) test 2>&1 | tee $(BUILD)/logs/rust.log

.PHONY: test-rust-release
test-rust-release:
	mkdir -p $(BUILD)/logs
	$(CARGO) test --release 2>&1 | tee $(BUILD)/logs/rust-release.log

# Regenerate include/hookline.schema.json, the ABI schema the bindings' tests check against
# (tests/it/schema.rs writes it from the Rust model; `make test` fails when it drifts).
.PHONY: schema
schema:
	HOOKLINE_WRITE_SCHEMA=1 $(CARGO) test --test it -- --exact schema::the_committed_schema_is_the_code_s

# The hookline command on the demo: its config passes `check`, its cases pass `test`.
.PHONY: test-cli
test-cli: lib
	target/release/hookline check examples/demo/hooks.json
	target/release/hookline test examples/demo/cases.json
	target/release/hookline check --strict examples/codex/.codex/hooks.json
	cd examples/windsurf && ../../target/release/hookline check --strict .windsurf/hooks.json
	cd examples/kiro && ../../target/release/hookline check .kiro/hooks/guard.json
	cd examples/crush && ../../target/release/hookline check --strict crush.json
	cd examples/openhands && ../../target/release/hookline check --strict .openhands/hooks.json
	cd examples/goose && ../../target/release/hookline check --strict .agents/plugins/guard/hooks/hooks.json
	cd examples/augment && ../../target/release/hookline check --strict .augment/settings.json

test-header:
	scripts/cbindgen.sh $(CBINDGEN_VERSION) $(BUILD)/hookline.h.fresh
	diff -u include/hookline.h $(BUILD)/hookline.h.fresh || (echo "include/hookline.h drifted from the code: run 'make header'" && exit 1)
	cmp include/hookline.h bindings/go/hookline.h || (echo "bindings/go/hookline.h differs from include/hookline.h: run 'make header'" && exit 1)
	for f in LICENSE-MIT LICENSE-APACHE; do cmp $$f bindings/node/$$f && cmp $$f bindings/go/$$f && cmp $$f bindings/python/$$f || { echo "bindings/*/$$f differs from ./$$f: copy it"; exit 1; }; done
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
	HOOKLINE_RUNNER=posix $(CARGO) test 2>&1 | tee $(BUILD)/logs/rust-posix-runner.log
	cmake -S ctests -B $(BUILD)/ctests-posix-runner -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build $(BUILD)/ctests-posix-runner -j2
	cd $(BUILD)/ctests-posix-runner && HOOKLINE_RUNNER=posix ctest --output-on-failure -j2

# Windows (x86_64-pc-windows-gnu, mingw-w64) cross-built and tested under Wine: the unit tests
# that apply on Windows, the Windows runner's tests and a C host of the C ABI (not part of
# `make test`; CI runs it; installs Wine, mingw-w64 and the rust target when missing).
test-windows:
	scripts/test-windows.sh

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

# Fuzzing: every target of fuzz/Cargo.toml, one after another. Installs the
# nightly toolchain and a pinned cargo-fuzz when missing; fails when a target
# cannot be built, did not run, or found something (docs/hardening.md §4).
FUZZ_SECONDS ?= 60
fuzz:
	fuzz/run.sh $(FUZZ_SECONDS)

# A few seconds per target, unoptimised (builds faster), then the script's
# own test. CI runs it after `make test`.
FUZZ_SMOKE_SECONDS ?= 3
fuzz-smoke:
	FUZZ_BUILD=--dev fuzz/run.sh $(FUZZ_SMOKE_SECONDS)
	FUZZ_BUILD=--dev fuzz/test-run.sh

# The fuzz script fails on a planted crash, an unbuildable target, no targets.
test-fuzz-script:
	FUZZ_BUILD=--dev fuzz/test-run.sh

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

# Install what `make` built (it never builds: `make && sudo make install`):
# lib/libhookline.so.X.Y.Z (SONAME libhookline.so.X.Y before 1.0, + symlinks),
# lib/libhookline.a, include/hookline.h, lib/pkgconfig/hookline{,-static}.pc,
# lib/cmake/hookline/, bin/hookline. PREFIX, DESTDIR, INSTALL_LIBDIR,
# INSTALL_INCLUDEDIR. As root into a directory the runtime linker searches
# (such as /usr/local/lib) and without DESTDIR, it runs ldconfig.
install:
	PREFIX="$(PREFIX)" LIBDIR="$(INSTALL_LIBDIR)" INCLUDEDIR="$(INSTALL_INCLUDEDIR)" DESTDIR="$(DESTDIR)" scripts/install.sh

# The npm tarballs for this machine: the main package (its optional
# dependencies name every platform package) and this platform's package
# carrying the stripped library, in build/npm.
npm-packages: lib
	rm -rf $(NPM_PACKAGES)
	scripts/npm-pack.sh $(NPM_PACKAGES)

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
# the npm tarballs installed into a fresh project (platform package picked
# through the main package's optional dependencies; the README's TypeScript
# quickstart compiled there with the README's tsc command).
test-install: lib npm-packages
	scripts/test-install.sh

# `make install` as root with no Rust toolchain on PATH (as after sudo), into
# /usr/local of a private mount namespace: ldconfig runs, and a program linked
# with pkg-config starts with no LD_LIBRARY_PATH. Needs root (skipped otherwise).
test-install-root: lib
	scripts/test-install-root.sh

# Release tarballs for every platform and the npm packages, in build/dist
# (scripts/dist.sh; not part of `make test`). setup-dist installs the cross
# toolchain (zig, cargo-zigbuild, rustup targets) and the Debian tools.
setup-dist:
	scripts/setup-dist.sh

dist: setup-dist
	scripts/dist.sh $(DIST_PLATFORMS)

# Checks the tarballs of `make dist`: files, architectures, stripping, glibc
# symbol versions <= 2.17, SHA256SUMS, signatures; runs them here (the arm64
# build under qemu); installs the npm packages. Run by CI after `make test`.
test-dist: dist
	scripts/test-dist.sh $(DIST_PLATFORMS)

test-node: lib
	cd bindings/node && npm test

# Every C, Go and TypeScript snippet of the READMEs, compiled and run.
.PHONY: test-readme
test-readme: lib pc-uninstalled python-env
	scripts/readme-snippets.sh
	$(MAKE) examples

# The example agents of the bindings, the commands the README gives; each works after `make demo`
# in a fresh clone (it builds or installs what it needs: the in-tree pkg-config files for Go, the
# Node modules for Node) and exits non-zero when a hook decided otherwise than the example expects.
.PHONY: examples example-go example-node example-python
examples: example-go example-node example-python
example-go: pc-uninstalled
	cd bindings/go && PKG_CONFIG_PATH=$(CURDIR)/build/pkgconfig LD_LIBRARY_PATH=$(CURDIR)/target/release \
	  go run ./examples/agent
example-node: lib
	cd bindings/node && { [ -d node_modules/koffi ] || npm ci --no-audit --no-fund --loglevel=error; } && \
	  node examples/agent.mjs
example-python: lib
	PYTHONPATH=$(CURDIR)/bindings/python/src python3 bindings/python/examples/agent.py

# The Python binding (bindings/python). Its tools (pytest, mypy, build, auditwheel), pinned in
# bindings/python/requirements-dev.txt, live in build/python/venv (python-env; idempotent).
PY_VENV := $(BUILD)/python/venv
PY := $(CURDIR)/$(PY_VENV)/bin/python
PY_DIST := $(CURDIR)/$(BUILD)/python/dist
.PHONY: python-env python-wheel python-sdist test-python python-sdist-check
python-env:
	bindings/python/scripts/dev-env.sh

# The platform wheel bundling target/release/libhookline.so, tagged manylinux by auditwheel:
# build/python/dist/hookline-<version>-py3-none-manylinux_*.whl (`pip install` it anywhere).
python-wheel: lib python-env
	bindings/python/scripts/build-wheel.sh

# The sdist: the package plus the crate's sources (`cargo package`); a wheel built from it
# compiles libhookline with cargo.
python-sdist: python-env
	rm -f $(PY_DIST)/hookline-*.tar.gz
	$(PY) -m build --sdist --no-isolation --outdir $(PY_DIST) bindings/python >$(BUILD)/python/sdist.log 2>&1 || { cat $(BUILD)/python/sdist.log; exit 1; }
	rm -rf bindings/python/src/hookline.egg-info

# mypy --strict on the package, then pytest (the wheel installed into a fresh venv included).
test-python: lib python-wheel python-sdist
	cd bindings/python && $(PY) -m mypy --strict --no-incremental src/hookline
	cd bindings/python && MYPYPATH=src $(PY) -m mypy --strict --no-incremental examples
	cd bindings/python && HOOKLINE_TEST_WHEEL="$$(ls $(PY_DIST)/hookline-*.whl)" \
	  HOOKLINE_TEST_SDIST="$$(ls $(PY_DIST)/hookline-*.tar.gz)" $(PY) -m pytest -q -p no:cacheprovider

# A wheel built from the sdist alone (cargo compiles the crate it carries, a few minutes), then
# installed into a fresh venv and used outside the checkout (not part of `make test`).
python-sdist-check: python-sdist
	rm -rf $(BUILD)/python/from-sdist && mkdir -p $(BUILD)/python/from-sdist
	$(PY) -m pip wheel --no-deps --no-build-isolation --wheel-dir $(BUILD)/python/from-sdist $$(ls $(PY_DIST)/hookline-*.tar.gz)
	cd bindings/python && HOOKLINE_TEST_WHEEL="$$(ls $(CURDIR)/$(BUILD)/python/from-sdist/hookline-*.whl)" \
	  $(PY) -m pytest -q -p no:cacheprovider tests/test_wheel.py -k fresh_venv

# Mixed load for a fixed number of iterations; RSS, fds and zombies must stay
# flat (not part of CI; SOAK_ITERATIONS=N to change the length).
soak: lib
	mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra -Werror -Iinclude soak/soak.c -L$(LIBDIR) -lhookline -lpthread -Wl,-rpath,$(CURDIR)/$(LIBDIR) -o $(BUILD)/soak
	$(BUILD)/soak

clean:
	$(CARGO) clean
	rm -rf $(BUILD) bindings/python/build bindings/python/src/hookline.egg-info
