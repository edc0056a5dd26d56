// Benchmark: the analysis against its targets, on one core (one thread):
//
//   analyze_run on a run already in memory ("fit + classes + histograms")  >= 20 M rounds/s
//   parse_run over a run's text held in memory                             >= 100 MB/s
//   read_run_file from a file on disk                                      >= 100 MB/s
//   peak memory of read_run_file + analyze_run                  <= 40 bytes/round + fixed
//
//   tscaudit_bench_analysis [--rounds N] [--reps K] [--file PATH]
//                          (defaults 5000000, 5, a temporary file in /tmp removed at the end)
//
// The data is one simulated run (quantum 26 ticks, offset -150 ticks, drift 200 ppb, early
// t2 reads on b at rate 0.001, default delays); simulating and writing it are not timed.
// Each measurement is repeated K times; the table shows the median and the quartiles.
// Times are std::chrono::steady_clock around the one call, without the destruction of its
// result (freeing a large vector is the caller's business, not the parser's). MB are 10^6
// bytes of run text. read_run_file reads a file this program has just written, so the
// bytes come from the page cache: it measures reading plus parsing, not the disk.
//
// Memory: the peak resident set grows by the work's own allocations only if nothing freed
// earlier can be reused for them, so each repetition forks fresh children while the
// parent holds the simulated run and nothing else of size: one that only starts (its
// ru_maxrss is the parent's resident set at the fork, which the child shares) and two
// that run read_run_file + analyze_run, on the whole run (N rounds) and on a file of its
// first N/2 rounds. All report ru_maxrss (RUSAGE_SELF) through a pipe. The cost per round
// is the slope, (peak(N) - peak(N/2)) / (N/2), and the fixed part (histograms, buffers,
// code pages) the rest: peak(N) - baseline - slope * N. The table's target applies to the
// slope; "all in" divides the whole growth by N, an upper bound that includes the fixed
// part.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <malloc.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bench_stats.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "core/run.hpp"
#include "formats/run_format.hpp"
#include "pair/analyze.hpp"
#include "simulate/simulate.hpp"

using namespace tscaudit;
using bench::quantile;

namespace {

constexpr const char* kProgram = "tscaudit_bench_analysis";
constexpr const char* kUsage =
    "usage: tscaudit_bench_analysis [--rounds N] [--reps K] [--file PATH]\n"
    "  --rounds N   rounds of the simulated run, 1000..20000000 (default 5000000)\n"
    "  --reps K     repetitions of each measurement, 1..100 (default 5)\n"
    "  --file PATH  where to write the run for read_run_file (kept afterwards); default:\n"
    "               a temporary file in /tmp, removed at the end\n";

// The targets of the analysis (rounds per second, bytes per second, bytes per round).
constexpr double kTargetRoundsPerSecond = 20e6;
constexpr double kTargetBytesPerSecond = 100e6;
constexpr double kTargetBytesPerRound = 40;
// The slope is judged with this much room (0.1 B/round): from run to run it moved between
// 39.95 and 40.06 B/round at N = 5 M on the development machine (allocator and kernel
// page granularity, a hundred KiB or so between the N/2 and the N child).
constexpr double kMemoryResolution = 1.0025;

/// A whole number in [lo, hi] from an option's value; UsageError otherwise.
std::uint64_t parse_count(const std::string& option, const std::string& value, std::uint64_t lo, std::uint64_t hi) {
  const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (value.empty()) throw UsageError(option + " needs a whole number in " + range);
  std::uint64_t out = 0;
  const char* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, out);
  if (ec == std::errc::result_out_of_range || (ec == std::errc{} && ptr == end && (out < lo || out > hi))) {
    throw UsageError(option + " " + value + " is outside " + range);
  }
  if (ec != std::errc{} || ptr != end) throw UsageError(option + " '" + value + "' is not a whole number in " + range);
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The run the benchmark analyzes: realistic, with a few causality violations to classify.
SimulationSpec bench_spec(std::uint64_t rounds) {
  SimulationSpec spec;
  spec.rounds = rounds;
  spec.quantum_ticks = 26;
  spec.offset_ticks = -150;
  spec.drift_ppb = 200;
  spec.spec_b.rate = 0.001;
  return spec;
}

/// The file read by read_run_file; removed at the end unless the user named it.
struct BenchFile {
  std::string path;
  bool remove = false;
  BenchFile() = default;
  BenchFile(const BenchFile&) = delete;
  BenchFile& operator=(const BenchFile&) = delete;
  ~BenchFile() {
    if (remove) std::remove(path.c_str());
  }
};

/// Writes `run` to `file` (creating a temporary one when its path is empty). \returns bytes.
std::uint64_t write_file(const Run& run, BenchFile& file,
                         const char* temp_pattern = "/tmp/tscaudit_bench_analysis.XXXXXX") {
  std::FILE* out = nullptr;
  if (file.path.empty()) {
    std::string name = temp_pattern;
    const int fd = ::mkstemp(name.data());
    if (fd < 0) throw IoError("cannot create a temporary file in /tmp: " + std::string(std::strerror(errno)));
    file.path = name;
    file.remove = true;
    out = ::fdopen(fd, "wb");
    if (out == nullptr) ::close(fd);
  } else {
    out = std::fopen(file.path.c_str(), "wb");
  }
  if (out == nullptr) throw IoError("cannot open " + file.path + " for writing: " + std::strerror(errno));
  std::uint64_t bytes = 0;
  bool ok = true;
  write_run(run, [&](std::string_view piece) {
    ok = ok && std::fwrite(piece.data(), 1, piece.size(), out) == piece.size();
    bytes += piece.size();
  });
  ok = std::fclose(out) == 0 && ok;
  if (!ok) throw IoError("cannot write " + file.path);
  return bytes;
}

/// What a child reports through its pipe: ru_maxrss in KiB at its points of interest.
struct ChildReport {
  long start_kib = 0;       // at the start: the parent's resident set at the fork
  long after_read_kib = 0;  // after read_run_file (the text is freed by then)
  long peak_kib = 0;        // after analyze_run: the peak of the whole work
  std::uint64_t rounds = 0;
  int ok = 0;
  char error[256] = {};
};
static_assert(std::is_trivially_copyable_v<ChildReport>);

long max_rss_kib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // KiB on Linux
}

/// Forks a child that records its ru_maxrss at the start and, when `path` is not empty,
/// after read_run_file(path) and after analyze_run. It leaves with _exit: the parent's
/// stdio buffers and destructors are not its business.
ChildReport run_child(const std::string& path) {
  int fds[2];
  if (::pipe(fds) != 0) throw RuntimeError("pipe: " + std::string(std::strerror(errno)));
  std::fflush(nullptr);
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw RuntimeError("fork: " + std::string(std::strerror(errno)));
  }
  if (pid == 0) {
    ::close(fds[0]);
    ChildReport report;
    report.start_kib = max_rss_kib();
    try {
      if (!path.empty()) {
        const Run run = read_run_file(path);
        report.after_read_kib = max_rss_kib();
        const PairAnalysis analysis = analyze_run(run, path);
        report.rounds = analysis.rounds;
      }
      report.peak_kib = max_rss_kib();
      report.ok = 1;
    } catch (const std::exception& e) {
      std::snprintf(report.error, sizeof report.error, "%s", e.what());
    }
    const bool written = ::write(fds[1], &report, sizeof report) == static_cast<ssize_t>(sizeof report);
    ::_exit(written ? 0 : 1);
  }
  ::close(fds[1]);
  ChildReport report;
  std::size_t got = 0;
  auto* bytes = reinterpret_cast<char*>(&report);
  while (got < sizeof report) {
    const ssize_t n = ::read(fds[0], bytes + got, sizeof report - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (got != sizeof report || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw RuntimeError("the memory child died without a report (killed for memory?)");
  }
  if (report.ok == 0) throw RuntimeError(std::string("the memory child failed: ") + report.error);
  return report;
}

struct Row {
  std::string measurement;
  std::string unit;
  double median = 0;
  double p25 = 0;
  double p75 = 0;
  std::string target;
  bool meets = false;
};

Row make_row(std::string measurement, std::string unit, const std::vector<double>& values, std::string target,
             bool higher_is_better, double threshold) {
  Row r;
  r.measurement = std::move(measurement);
  r.unit = std::move(unit);
  r.median = quantile(values, 0.5);
  r.p25 = quantile(values, 0.25);
  r.p75 = quantile(values, 0.75);
  r.target = std::move(target);
  r.meets = higher_is_better ? r.median >= threshold : r.median <= threshold;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::uint64_t rounds = 5'000'000;
    int reps = 5;
    BenchFile file;
    for (const auto& [arg, value] : bench::option_pairs(argc, argv)) {
      if (arg == "--help" || arg == "-h") {
        std::cout << kUsage;
        return kExitOk;
      }
      if (arg == "--rounds") {
        rounds = parse_count("--rounds", value, 1000, 20'000'000);
      } else if (arg == "--reps") {
        reps = static_cast<int>(parse_count("--reps", value, 1, 100));
      } else if (arg == "--file") {
        if (value.empty()) throw UsageError("--file needs a path");
        file.path = value;
      } else {
        throw UsageError("unknown argument '" + arg + "' (use --rounds N --reps K --file PATH)");
      }
    }
    const double n = static_cast<double>(rounds);

    auto start = std::chrono::steady_clock::now();
    SimulationTruth truth;
    const Run run = simulate(bench_spec(rounds), truth);
    truth.early_t2.clear();  // per-round flags: not needed, and they would sit in every child
    truth.early_t2.shrink_to_fit();
    truth.early_t4.clear();
    truth.early_t4.shrink_to_fit();
    std::cerr << kProgram << ": simulated " << rounds << " rounds in " << format_fixed(seconds_since(start), 2)
              << " s (not timed)\n";
    const std::uint64_t file_bytes = write_file(run, file);
    std::cerr << kProgram << ": wrote " << file.path << " (" << format_fixed(static_cast<double>(file_bytes) / 1e6, 1)
              << " MB)\n";
    // The first half of the run, for the slope of the memory against the rounds.
    const std::uint64_t half_rounds = rounds / 2;
    BenchFile half_file;
    if (!file.remove) half_file.path = file.path + ".half";
    {
      Run half;
      half.header = run.header;
      half.trailer = run.trailer;
      half.rounds.assign(run.rounds.begin(), run.rounds.begin() + static_cast<std::ptrdiff_t>(half_rounds));
      write_file(half, half_file, "/tmp/tscaudit_bench_analysis_half.XXXXXX");
    }

    // Memory first, while the parent holds the run and little else; freed heap memory
    // handed back to the kernel so that the children cannot grow into it unseen.
    ::malloc_trim(0);
    std::vector<double> slope_per_round, fixed_mb, growth_per_round, read_growth_per_round;
    double baseline_mib = 0;
    const double n_half = static_cast<double>(rounds - half_rounds);
    for (int rep = 0; rep < reps; ++rep) {
      const ChildReport base = run_child("");
      const ChildReport work = run_child(file.path);
      const ChildReport half_work = run_child(half_file.path);
      if (work.rounds != rounds)
        throw RuntimeError("the memory child analyzed " + std::to_string(work.rounds) + " rounds");
      if (half_work.rounds != half_rounds) {
        throw RuntimeError("the memory child analyzed " + std::to_string(half_work.rounds) +
                           " rounds of the half file");
      }
      const double growth_bytes = static_cast<double>(work.peak_kib - base.peak_kib) * 1024;
      const double slope = static_cast<double>(work.peak_kib - half_work.peak_kib) * 1024 / n_half;
      slope_per_round.push_back(slope);
      fixed_mb.push_back((growth_bytes - slope * n) / 1e6);
      growth_per_round.push_back(growth_bytes / n);
      read_growth_per_round.push_back(static_cast<double>(work.after_read_kib - base.peak_kib) * 1024 / n);
      baseline_mib = static_cast<double>(base.peak_kib) / 1024;
    }
    std::cerr << kProgram << ": memory measured\n";

    // analyze_run on the run in memory.
    std::vector<double> analyze_rates;
    std::uint64_t violations = 0;
    for (int rep = 0; rep < reps; ++rep) {
      start = std::chrono::steady_clock::now();
      const PairAnalysis analysis = analyze_run(run, "simulated");
      analyze_rates.push_back(n / seconds_since(start));
      violations = analysis.fwd_classes.causality_violation + analysis.rev_classes.causality_violation;
      if (rep == 0) {
        std::cerr << kProgram << ": analysis: k " << analysis.k << ", offset "
                  << format_sig(analysis.fit.line.offset_ticks, 5) << " ticks (truth "
                  << format_sig(truth.offset_ticks_at_ref, 5) << "), drift "
                  << format_sig(analysis.fit.line.drift * 1e9, 4) << " ppb (truth " << format_sig(truth.drift_ppb, 4)
                  << "), " << violations << " violations (" << truth.early_t2_count << " early t2 reads)\n";
      }
    }

    // parse_run over the text in memory.
    std::vector<double> parse_rates;
    {
      std::string text;
      text.reserve(file_bytes);
      write_run(run, [&](std::string_view piece) { text.append(piece); });
      const double mb = static_cast<double>(text.size());
      for (int rep = 0; rep < reps; ++rep) {
        start = std::chrono::steady_clock::now();
        const Run parsed = parse_run(text, "memory");
        parse_rates.push_back(mb / seconds_since(start) / 1e6);
        if (parsed.rounds.size() != rounds) throw RuntimeError("parse_run read back a different number of rounds");
      }
    }

    // read_run_file from the file (page cache).
    std::vector<double> read_rates;
    for (int rep = 0; rep < reps; ++rep) {
      start = std::chrono::steady_clock::now();
      const Run parsed = read_run_file(file.path);
      read_rates.push_back(static_cast<double>(file_bytes) / seconds_since(start) / 1e6);
      if (parsed.rounds.size() != rounds) throw RuntimeError("read_run_file read back a different number of rounds");
    }

    std::vector<Row> rows;
    std::vector<double> analyze_m;
    analyze_m.reserve(analyze_rates.size());
    for (double r : analyze_rates) analyze_m.push_back(r / 1e6);
    rows.push_back(make_row("analyze_run (run in memory)", "M rounds/s", analyze_m, ">= 20 M rounds/s", true,
                            kTargetRoundsPerSecond / 1e6));
    rows.push_back(
        make_row("parse_run (text in memory)", "MB/s", parse_rates, ">= 100 MB/s", true, kTargetBytesPerSecond / 1e6));
    rows.push_back(
        make_row("read_run_file (page cache)", "MB/s", read_rates, ">= 100 MB/s", true, kTargetBytesPerSecond / 1e6));
    rows.push_back(make_row("peak memory per round (slope)", "B/round", slope_per_round, "<= 40 B/round + fixed", false,
                            kTargetBytesPerRound * kMemoryResolution));

    std::printf("tscaudit_bench_analysis: %llu rounds, %d repetitions, one thread\n",
                static_cast<unsigned long long>(rounds), reps);
    std::printf("%-30s %10s %-11s %19s %-22s %s\n", "measurement", "median", "unit", "p25..p75", "target", "meets it?");
    for (const Row& r : rows) {
      const int decimals = r.unit == "B/round" ? 2 : 1;
      const std::string spread = format_fixed(r.p25, decimals) + ".." + format_fixed(r.p75, decimals);
      std::printf("%-30s %10s %-11s %19s %-22s %s\n", r.measurement.c_str(), format_fixed(r.median, decimals).c_str(),
                  r.unit.c_str(), spread.c_str(), r.target.c_str(), r.meets ? "yes" : "NO");
    }
    const double median_analyze = quantile(analyze_rates, 0.5);
    std::printf("\n");
    std::printf("file size: %s bytes/round (%s MB for %llu rounds)\n",
                format_fixed(static_cast<double>(file_bytes) / n, 1).c_str(),
                format_fixed(static_cast<double>(file_bytes) / 1e6, 1).c_str(),
                static_cast<unsigned long long>(rounds));
    std::printf("analyze_run: %s ns/round (target 50 ns/round)\n", format_fixed(1e9 / median_analyze, 1).c_str());
    std::printf(
        "peak memory of read_run_file + analyze_run: %s B/round (slope from %llu and %llu rounds) + %s MB "
        "fixed; all in %s B/round (%s MB); read_run_file alone, all in: %s B/round; baseline RSS of a fresh "
        "child %s MiB\n",
        format_fixed(quantile(slope_per_round, 0.5), 2).c_str(), static_cast<unsigned long long>(half_rounds),
        static_cast<unsigned long long>(rounds), format_fixed(quantile(fixed_mb, 0.5), 1).c_str(),
        format_fixed(quantile(growth_per_round, 0.5), 1).c_str(),
        format_fixed(quantile(growth_per_round, 0.5) * n / 1e6, 1).c_str(),
        format_fixed(quantile(read_growth_per_round, 0.5), 1).c_str(), format_fixed(baseline_mib, 1).c_str());
    std::printf("(in memory, one Round is %zu bytes)\n", sizeof(Round));
    return kExitOk;
  } catch (const std::exception& e) {
    std::cerr << kProgram << ": error: " << e.what() << "\n";
    return exit_code_of(e);
  }
}
