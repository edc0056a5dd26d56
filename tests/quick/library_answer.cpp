// The library's answer to given evidence, for the test that feeds the same evidence to every
// deciding command and to libtscaudit (tests/cli/one_answer.py). tscaudit_quick_check
// measures live; this program gives its decision path the rounds of a run directory instead:
// decide_quick (the quick check's decision over the pairs read) and fill_result (what the C
// entry point writes into struct tscaudit_result), the code the library runs after measuring.
//
//   tscaudit_test_library_answer DIR       the pairs of run directory DIR (all its pairs planned)
//   tscaudit_test_library_answer --cpus L  tscaudit_quick_check itself, on the CPUs L
//
// Prints one line per field: verdict, bound_ticks, cpus, pairs, reason. Exit 0, or 2 with a
// message for a directory it cannot read.
#include <cstdio>
#include <exception>
#include <optional>
#include <string>

#include "io/run_dir_lock.hpp"
#include "matrix/matrix_plan.hpp"
#include "matrix/topology_order.hpp"
#include "quick/c_result.hpp"
#include "quick/quick_check.hpp"
#include "tscaudit.h"

using namespace tscaudit;

namespace {

void print(int rc, const tscaudit_result& r) {
  std::printf("rc %d\nverdict %s\nbound_ticks %.17g\ncpus %d\npairs %d\nreason %s\n", rc,
              tscaudit_verdict_name(r.verdict), r.bound_ticks, r.cpus, r.pairs, r.reason);
}

/// The decision on the pairs of `dir`, as the library decides on the pairs it measured.
int from_directory(const std::string& dir) {
  const RunDirReader reader = open_run_dir(dir);
  const RunDirManifest& manifest = reader.manifest();
  std::vector<CpuPlace> places;
  for (int cpu : manifest.cpus) places.push_back(CpuPlace{.cpu = cpu});
  QuickPlan quick;
  quick.order = order_by_topology(places, manifest.cpus);
  PlanSpec spec;
  spec.cpus = quick.order.cpu_numbers();
  spec.visits = 1;
  spec.rounds_per_visit = 1;
  quick.plan = make_plan(spec, PlanCosts{});
  // What the library knows of a run cut short: nothing here (it has no signals), but the
  // evidence may say so; the answer then is the library's inconclusive.
  QuickOptions options;
  if (manifest.status != RunDirStatus::complete) {
    const std::string why = std::string(run_dir_status_name(manifest.status)) + ": " + manifest.detail;
    options.cut_short = [why] { return why; };
  }
  double hz = manifest.tsc_hz;
  const auto source = [&](int a, int b) -> std::optional<Run> {
    std::optional<Run> run = reader.try_read_pair(a, b);
    if (run && !(hz > 0)) {
      if (const auto v = run->header.get("tsc_hz")) hz = std::stod(std::string(*v));
    }
    return run;
  };
  const QuickAnswer answer = decide_quick(quick, source, hz, options);
  tscaudit_result r{};
  r.size = sizeof r;
  fill_result(r, answer);
  print(TSCAUDIT_OK, r);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc == 3 && std::string(argv[1]) == "--cpus") {
      tscaudit_options options;
      tscaudit_options_init(&options);
      options.cpus = argv[2];
      tscaudit_result r{};
      r.size = sizeof r;
      print(tscaudit_quick_check(&options, &r), r);
      return 0;
    }
    if (argc == 2) return from_directory(argv[1]);
    std::fprintf(stderr, "usage: %s DIR | --cpus LIST\n", argv[0]);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 2;
  }
}
