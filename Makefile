# The two commands of the quick start, and a few helpers. Each target installs what is
# missing (scripts/install-deps.sh) and configures the build on first use.
#   make report   the main job: a report of this machine into $(REPORT_DIR)
#   make test     build and run the whole suite with ctest
#   make test-sanitize   the suite again under ASan+UBSan (build-sanitize/)
#   make fuzz     the readers' libFuzzer harnesses (FUZZ_SECONDS=N FUZZ_TARGET=name)
BUILD_DIR  ?= build
BUILD_TYPE ?= RelWithDebInfo
REPORT_DIR ?= report
JOBS       ?= $(shell nproc)
SANITIZE_DIR ?= build-sanitize

.PHONY: all deps build test test-sanitize fuzz report bench clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD_DIR)/build.ninja: | deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)

build: deps $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# The suite again with AddressSanitizer (and LeakSanitizer) and UBSan, in its own tree:
# -O1 with line tables, which compiles fastest and still gives file:line stacks; no
# benchmarks. Any report fails its test: ASan stops at the first error, UBSan is made to
# (halt_on_error), and both exit 66, a code no test expects.
SANITIZER_ENV = ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1:exitcode=66 \
                UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=66

$(SANITIZE_DIR)/build.ninja: | deps
	cmake -S . -B $(SANITIZE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
	  -DTSCSYNC_SANITIZE=address,undefined -DTSCSYNC_BUILD_BENCH=OFF

test-sanitize: deps $(SANITIZE_DIR)/build.ninja
	cmake --build $(SANITIZE_DIR) -j $(JOBS)
	cd $(SANITIZE_DIR) && $(SANITIZER_ENV) ctest --output-on-failure -j $(JOBS)

# The main job: platform facts, all pairs (ordering read and plain rdtsc), the verdict,
# heatmaps, report.md and report.html. REPORT_ARGS passes options (--parallel, --rounds N).
report: build
	$(BUILD_DIR)/tscsync report --out $(REPORT_DIR) $(REPORT_ARGS)

# libFuzzer with clang, ASan and UBSan, one core; see scripts/fuzz.sh and docs/testing.md, "Fuzzing".
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TARGET=$(FUZZ_TARGET) bash scripts/fuzz.sh

bench: build
	$(BUILD_DIR)/tscsync_bench

clean:
	rm -rf $(BUILD_DIR)
