# The two commands of the quick start, and a few helpers. Each target installs what is
# missing (scripts/install-deps.sh) and configures the build on first use.
#   make report   the main job: a report of this machine into $(REPORT_DIR)
#   make test     build and run the whole suite with ctest
#   make fuzz     the readers' libFuzzer harnesses (FUZZ_SECONDS=N FUZZ_TARGET=name)
BUILD_DIR  ?= build
BUILD_TYPE ?= RelWithDebInfo
REPORT_DIR ?= report
JOBS       ?= $(shell nproc)

.PHONY: all deps build test fuzz report bench clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD_DIR)/build.ninja: | deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)

build: deps $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# The main job: platform facts, all pairs (ordering read and plain rdtsc), the verdict,
# heatmaps, report.md and report.html. REPORT_ARGS passes options (--parallel, --rounds N).
report: build
	$(BUILD_DIR)/tscsync report --out $(REPORT_DIR) $(REPORT_ARGS)

# libFuzzer with clang, ASan and UBSan, one core; see scripts/fuzz.sh and README "Fuzzing".
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TARGET=$(FUZZ_TARGET) bash scripts/fuzz.sh

bench: build
	$(BUILD_DIR)/tscsync_bench

clean:
	rm -rf $(BUILD_DIR)
