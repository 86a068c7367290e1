# hookline: the two commands a newcomer needs are
#   make demo   - set up, build the library and run the demo agent loop
#   make test   - run every test (Rust, header drift, ctest, Go, Node)
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
CARGO ?= cargo
LIBDIR := target/release
CBINDGEN_VERSION := 0.29.0
BUILD := build

.PHONY: all lib header setup setup-demo demo stress test test-rust test-header test-c test-c-sanitize test-c-valgrind faults fuzz test-go test-node bench soak clean

all: lib

lib:
	$(CARGO) build --release

# Regenerate the committed header with the pinned cbindgen.
header:
	scripts/cbindgen.sh $(CBINDGEN_VERSION) include/hookline.h

setup:
	scripts/setup.sh

# The demo needs only a C compiler and cargo (no npm, no Go).
setup-demo:
	scripts/setup.sh --demo

demo: setup-demo lib
	$(MAKE) -C examples/demo run

test: setup lib test-rust test-cli test-header test-c test-c-sanitize faults test-go test-node test-readme
	@echo "all test suites passed"

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
	@echo "header: include/hookline.h matches a fresh cbindgen $(CBINDGEN_VERSION) generation"

test-c: lib
	cmake -S ctests -B $(BUILD)/ctests -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build $(BUILD)/ctests -j2
	cd $(BUILD)/ctests && ctest --output-on-failure -j2

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

test-go: lib
	cd bindings/go && go vet ./... && go test -race -count=1 ./...

test-node: lib
	cd bindings/node && npm test

# Every C, Go and TypeScript snippet of the READMEs, compiled and run.
.PHONY: test-readme
test-readme: lib
	scripts/readme-snippets.sh

# Mixed load for a fixed number of iterations; RSS, fds and zombies must stay
# flat (not part of CI; SOAK_ITERATIONS=N to change the length).
soak: lib
	mkdir -p $(BUILD)
	$(CC) -O2 -Wall -Wextra -Werror -Iinclude soak/soak.c -L$(LIBDIR) -lhookline -lpthread -Wl,-rpath,$(CURDIR)/$(LIBDIR) -o $(BUILD)/soak
	$(BUILD)/soak

clean:
	$(CARGO) clean
	rm -rf $(BUILD)
