// Benchmark: the run directory (formats/run_dir.hpp) on simulated rounds, one thread:
//
//   bytes per round on disk (the whole directory)                      <= 12
//   writing: RunDirWriter::append_visit (delta text + zstd -3 + write), rounds/s
//   opening: open_run_dir (manifest + the index of every frame), frames/s
//   reading: RunDirReader::read_pair over every pair, rounds/s
//
//   tscaudit_bench_run_dir [--cpus C] [--rounds N] [--visit-rounds V] [--reps K] [--dir PATH]
//                         (defaults 8, 30000, 3000, 3, a temporary directory in /tmp;
//                         with --dir, the last repetition's directory is kept there)
//
// Every ordered pair of C CPUs gets N simulated rounds (quantum 26 ticks, default delays,
// offset 100 * (b - a) ticks, seed from the pair) in visits of V rounds, the default
// matrix plan's visit size. Simulating is not timed. Each repetition writes a new
// directory, then opens and reads it; the table shows the median and the quartiles of
// std::chrono::steady_clock around each phase. The directory was just written, so reading
// comes from the page cache: it measures decompressing and parsing, not the disk.
#include <stdlib.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "bench_stats.hpp"
#include "core/errors.hpp"
#include "formats/run_dir.hpp"
#include "io/run_dir_writer.hpp"
#include "simulate/simulate.hpp"

using namespace tscaudit;
using bench::quantile;
namespace fs = std::filesystem;

namespace {

struct Options {
  int cpus = 8;
  std::uint64_t rounds = 30'000;
  std::uint64_t visit_rounds = 3000;
  int reps = 3;
  std::string dir;
};

Options parse_options(int argc, char** argv) {
  Options o;
  for (const auto& [name, value] : bench::option_pairs(argc, argv)) {
    if (name == "--cpus") {
      o.cpus = std::stoi(value);
    } else if (name == "--rounds") {
      o.rounds = std::stoull(value);
    } else if (name == "--visit-rounds") {
      o.visit_rounds = std::stoull(value);
    } else if (name == "--reps") {
      o.reps = std::stoi(value);
    } else if (name == "--dir") {
      o.dir = value;
    } else {
      throw UsageError("unknown option " + name + " (known: --cpus C --rounds N --visit-rounds V --reps K --dir PATH)");
    }
  }
  if (o.cpus < 2 || o.rounds == 0 || o.visit_rounds == 0 || o.reps < 1) {
    throw UsageError("--cpus >= 2, --rounds, --visit-rounds and --reps >= 1");
  }
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void row(const char* what, const std::vector<double>& per_second, const char* unit) {
  std::printf("%-44s %12.3g %12.3g %12.3g %s\n", what, quantile(per_second, 0.25), quantile(per_second, 0.5),
              quantile(per_second, 0.75), unit);
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse_options(argc, argv);
  std::string root = o.dir;
  bool remove_root = false;
  if (root.empty()) {
    std::string tmpl = (fs::temp_directory_path() / "tscaudit-bench-rundir-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw IoError("cannot create a temporary directory");
    root = tmpl;
    remove_root = true;
  }

  RunDirManifest manifest;
  for (int c = 0; c < o.cpus; ++c) manifest.cpus.push_back(c);
  manifest.started_utc = "2026-01-01T00:00:00.000Z";
  manifest.pair_header.set("tool_version", "bench");

  // The rounds of every pair, simulated once.
  std::vector<std::vector<Round>> rounds;
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < o.cpus; ++a) {
    for (int b = 0; b < o.cpus; ++b) {
      if (a == b) continue;
      SimulationSpec spec;
      spec.rounds = o.rounds;
      spec.seed =
          static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(o.cpus) + static_cast<std::uint64_t>(b) + 1;
      spec.quantum_ticks = 26;
      spec.offset_ticks = 100.0 * (b - a);
      SimulationTruth truth;
      rounds.push_back(simulate(spec, truth).rounds);
      pairs.emplace_back(a, b);
    }
  }
  const double total_rounds = static_cast<double>(pairs.size() * o.rounds);

  std::vector<double> write_rate, open_rate, read_rate, bytes_per_round;
  std::uint64_t frames = 0;
  for (int rep = 0; rep < o.reps; ++rep) {
    const std::string dir = root + "/run-" + std::to_string(rep);
    auto t0 = std::chrono::steady_clock::now();
    {
      auto w = RunDirWriter::create(dir, manifest, std::nullopt);
      // Visit by visit across the pairs, as a matrix measures them.
      for (std::uint64_t first = 0, visit = 0; first < o.rounds; first += o.visit_rounds, ++visit) {
        for (std::size_t p = 0; p < pairs.size(); ++p) {
          const std::uint64_t n = std::min(o.visit_rounds, o.rounds - first);
          std::vector<Round> part(rounds[p].begin() + static_cast<std::ptrdiff_t>(first),
                                  rounds[p].begin() + static_cast<std::ptrdiff_t>(first + n));
          for (Round& r : part) r.seq = (r.seq - first) & kMaxSeq;
          w->append_visit(pairs[p].first, pairs[p].second, visit, first, part, 26, "");
        }
      }
      w->finish(RunDirStatus::complete, "", "2026-01-01T00:01:00.000Z");
    }
    write_rate.push_back(total_rounds / seconds_since(t0));

    std::uintmax_t bytes = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      if (e.is_regular_file()) bytes += e.file_size();
    }
    bytes_per_round.push_back(static_cast<double>(bytes) / total_rounds);

    t0 = std::chrono::steady_clock::now();
    const RunDirReader r = open_run_dir(dir);
    const double open_s = seconds_since(t0);
    frames = 0;
    for (const auto& [a, b] : r.pairs()) frames += r.visits_of(a, b).size();
    open_rate.push_back(static_cast<double>(frames) / open_s);

    t0 = std::chrono::steady_clock::now();
    std::size_t read = 0;
    for (const auto& [a, b] : r.pairs()) read += r.read_pair(a, b).rounds.size();
    read_rate.push_back(static_cast<double>(read) / seconds_since(t0));
    if (read != pairs.size() * o.rounds) throw RuntimeError("read back a different number of rounds");
    if (remove_root || rep + 1 < o.reps) fs::remove_all(dir);  // --dir keeps the last one
  }
  if (remove_root) fs::remove_all(root);

  std::printf("run directory: %d CPUs, %zu ordered pairs, %llu rounds each in visits of %llu (%llu frames), %d reps\n",
              o.cpus, pairs.size(), static_cast<unsigned long long>(o.rounds),
              static_cast<unsigned long long>(o.visit_rounds), static_cast<unsigned long long>(frames), o.reps);
  std::printf("%-44s %12s %12s %12s\n", "", "q25", "median", "q75");
  row("bytes per round on disk (target <= 12)", bytes_per_round, "B");
  row("write: append_visit + finish", write_rate, "rounds/s");
  row("open: manifest + index of every frame", open_rate, "frames/s");
  row("read: read_pair of every pair", read_rate, "rounds/s");
  return quantile(bytes_per_round, 0.5) <= 12.0 ? 0 : 1;
} catch (const std::exception& e) {
  std::cerr << "tscaudit_bench_run_dir: " << e.what() << "\n";
  return exit_code_of(e);
}
