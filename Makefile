# The two commands of the quick start, and a few helpers. Each target installs what is
# missing (scripts/install-deps.sh) and configures the build on first use.
#   make report   the main job: builds the tool alone, then a report of this machine into $(REPORT_DIR)
#   make test     build everything (tests, benchmarks, fuzz replays, the TSan suite) and run the suite
#   make bench    build and run the benchmarks
#   make test-sanitize   the suite again under ASan+UBSan (build-sanitize/)
#   make test-arm64      the aarch64 build, cross-compiled and run under qemu-aarch64 (build-arm64/)
#   make fuzz     the readers' libFuzzer harnesses (FUZZ_SECONDS=N FUZZ_TARGET=name)
#   make install  the tool, its man page, completions and systemd units, and libtscaudit
#                 (the libraries, tscaudit.h, tscaudit.pc, the library's man pages) (PREFIX=/usr/local)
#   make package  the Debian packages tscaudit, libtscaudit0 and libtscaudit-dev in build/ (CPack)
#   make abi-baseline  libtscaudit's ABI, as the test "lib: abi" compares it, written to
#                 src/quick/libtscaudit.abi (after a deliberate change of the ABI)
#   make static   the tool alone, fully static (build-static/tscaudit): a binary to copy onto any Linux
#   make reference  the generated parts of man/tscaudit.1, docs/commands.md and the completions,
#                 written again from the command line's tables (after a command or an option changes)
BUILD_DIR  ?= build
BUILD_TYPE ?= RelWithDebInfo
REPORT_DIR ?= report
JOBS       ?= $(shell nproc)
SANITIZE_DIR ?= build-sanitize
ARM64_DIR ?= build-arm64
STATIC_DIR ?= build-static
# WERROR=ON makes every warning on the project's own targets an error (CI builds so).
WERROR     ?= OFF

.PHONY: all deps configure tool library build reference test test-sanitize test-arm64 fuzz report bench tidy format clean install package static abi-baseline

all: build

deps:
	@bash scripts/install-deps.sh

# Configured every time (a second or two once done), so that WERROR and BUILD_TYPE given on
# the command line always take effect.
configure: deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DTSCAUDIT_WERROR=$(WERROR) >/dev/null

# The tool alone: what `make report` needs, without the suite's 150 other targets.
tool: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target tscaudit

# libtscaudit: the shared and static libraries and tscaudit.pc in $(BUILD_DIR)/lib (docs/library.md).
library: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target tscaudit_shared tscaudit_static

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Every command and option is described once, where the command line registers it
# (src/app/cli_commands.cpp, the command list in src/app/command_list.cpp); this writes the
# reference parts of the man page, docs/commands.md and the completions from there. The
# test "docs: the reference parts are the command line's" fails until they are written again.
reference: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target tscaudit_reference
	$(BUILD_DIR)/tscaudit_reference write .

# The suite's own tools: promtool, node_exporter, lintian, abidiff (scripts/install-deps.sh).
test: build
	@bash scripts/install-deps.sh fleet package
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# The suite again with AddressSanitizer (and LeakSanitizer) and UBSan, in its own tree:
# -O1 with line tables, which compiles fastest and still gives file:line stacks (the tests'
# own code at -O0: tests/CMakeLists.txt); no benchmarks. Any report fails its test: ASan
# stops at the first error, UBSan is made to (halt_on_error), and both exit 66, a code no
# test expects.
# Left to the plain build: the serial runs of every --help example, of every command's text
# widths and of a reader that goes away while gnuplot draws, the largest simulated machines
# (256 CPUs, the structure of six machines, the simulate command's whole machines): they run
# code paths that other tests, on smaller machines, run under the sanitizers too, and took 7
# minutes of the sanitizer run's 13; and what the sanitizers cannot reach: the packages
# (dpkg, lintian, apt), the docs' text and the shell's completion (docs/testing.md,
# "Sanitizers").
SANITIZE_SKIP = ^(cli: (every command's examples work|text output (fits 100 columns|starts with the answer)|a reader of standard output that goes away|check --from a simulated 256-CPU machine|simulate a whole machine|check finds the structure of simulated machines)|fleet: (package|completion)|docs:)
SANITIZER_ENV = ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:check_initialization_order=1:strict_init_order=1:exitcode=66 \
                UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=66

test-sanitize: deps
	cmake -S . -B $(SANITIZE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
	  -DTSCAUDIT_SANITIZE=address,undefined -DTSCAUDIT_BUILD_BENCH=OFF -DTSCAUDIT_WERROR=$(WERROR) >/dev/null
	cmake --build $(SANITIZE_DIR) -j $(JOBS)
	@bash scripts/install-deps.sh fleet package
	cd $(SANITIZE_DIR) && $(SANITIZER_ENV) ctest --output-on-failure -j $(JOBS) -E "$(SANITIZE_SKIP)"

# The aarch64 build under emulation (docs/testing.md, "Under emulation: aarch64"): cross-
# compiled with cmake/toolchain-aarch64.cmake, and run by ctest under qemu-aarch64, its
# CMAKE_CROSSCOMPILING_EMULATOR. It builds what that run needs and nothing else: the tool,
# the unit tests of the analysis, the hardware invariants and the object-code check (no
# benchmarks, fuzz replays, ThreadSanitizer or native-only tests).
test-arm64:
	@bash scripts/install-deps.sh build arm64
	cmake -S . -B $(ARM64_DIR) -G Ninja -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/toolchain-aarch64.cmake \
	  -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DTSCAUDIT_BUILD_BENCH=OFF -DTSCAUDIT_WERROR=$(WERROR) >/dev/null
	cmake --build $(ARM64_DIR) -j $(JOBS)
	cd $(ARM64_DIR) && ctest --output-on-failure -j $(JOBS)

# The main job: platform facts, all pairs (ordering read and plain rdtsc), the verdict,
# heatmaps, report.md and report.html. REPORT_ARGS passes options (--parallel, --rounds N).
report: tool
	$(BUILD_DIR)/tscaudit report --out $(REPORT_DIR) $(REPORT_ARGS)

# The installed tool: the binary, tscaudit(1), the completions, the systemd units, the
# alert rules; and libtscaudit: its libraries, header, .pc and tscaudit_quick_check(3)
# (cmake/TscauditPackage.cmake). PREFIX defaults to CMake's (/usr/local).
PREFIX ?=
install: tool library
	cmake --install $(BUILD_DIR) $(if $(PREFIX),--prefix $(PREFIX))

# The Debian packages, with CPack, one per install component: build/tscaudit_VERSION_ARCH.deb,
# libtscaudit0_VERSION_ARCH.deb and libtscaudit-dev_VERSION_ARCH.deb (prefix /usr, stripped,
# Depends from dpkg-shlibdeps). `lintian build/*.deb` checks them.
package: tool library
	@bash scripts/install-deps.sh package
	cd $(BUILD_DIR) && cpack -G DEB

# libtscaudit's ABI baseline (tests/lib/README.md, "When the ABI changes on purpose"): abidw
# of this build's x86-64 library, with the options that "lib: abi" describes the built library
# with. Only when the ABI changes on purpose: the test fails on any difference from the
# committed file.
abi-baseline: library
	@bash scripts/install-deps.sh package
	bash tests/lib/abi.sh write $(BUILD_DIR)/lib/libtscaudit.so.0 src/quick/libtscaudit.abi include

# The tool fully static (-static: glibc, libstdc++, hwloc and zstd linked in), in its own tree,
# without the suite: a binary that needs nothing of the machine it is copied to but its kernel
# (README, "What the binary needs at run time"). The suite's "cli: the static binary" test
# checks it once it is built.
static: deps
	cmake -S . -B $(STATIC_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DTSCAUDIT_STATIC=ON \
	  -DTSCAUDIT_BUILD_TESTS=OFF -DTSCAUDIT_BUILD_BENCH=OFF -DTSCAUDIT_WERROR=$(WERROR) >/dev/null
	cmake --build $(STATIC_DIR) -j $(JOBS) --target tscaudit

# libFuzzer with clang, ASan and UBSan, one core; see scripts/fuzz.sh and docs/testing.md, "Fuzzing".
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TARGET=$(FUZZ_TARGET) bash scripts/fuzz.sh

bench: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target tscaudit tscaudit_bench tscaudit_bench_analysis tscaudit_bench_run_dir \
	  tscaudit_bench_quick
	$(BUILD_DIR)/tscaudit_bench
	$(BUILD_DIR)/tscaudit_bench_analysis
	$(BUILD_DIR)/tscaudit_bench_run_dir
	$(BUILD_DIR)/tscaudit_bench_machines
	$(BUILD_DIR)/tscaudit_bench_quick

# The checks of .clang-tidy over every source of the project (about 15 minutes of CPU), in
# a tree of its own, configured but not built, without precompiled headers (clang cannot read
# g++'s). And the style of .clang-format, applied to every C++ file.
TIDY_DIR ?= build-tidy
tidy: deps
	@bash scripts/install-deps.sh tidy
	cmake -S . -B $(TIDY_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON >/dev/null
	git ls-files '*.cpp' | xargs -P $(JOBS) -n 4 clang-tidy -p $(TIDY_DIR) --quiet

format:
	@bash scripts/install-deps.sh tidy
	git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR)
