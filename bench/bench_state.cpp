// Benchmark: libtscaudit's state functions (docs/library.md, "The state"; bench/README.md,
// "The state: tscaudit_bench_state"), through the C entry points a program calls:
//
//   tscaudit_state_order, tscaudit_state_offset, tscaudit_stamp   median and p99 per call, ns
//                                                                 (target: order <= 50 ns median)
//   tscaudit_state_open (+ close), tscaudit_state_get_info         median and p99 per call, µs
//
//   tscaudit_bench_state [--cpus N] [--calls M] [--opens K]        (defaults 64, 1000000, 1000)
//
// The state: a table of N CPUs (offsets of a few hundred ticks, drift ±50 ppb) written to a
// temporary file by the tool's own encoder, at this machine's moment (so get_info compares it
// with the machine as a program's call would). The hot-path calls are timed in batches of 100
// (steady_clock around the batch: a clock read per call would cost as much as the call), M
// calls in all; each batch's mean is one sample, and the table gives the samples' median and
// 99th percentile. Their arguments cycle through 4096 precomputed (CPU, counter) pairs, so
// that no call is the one before it. open and get_info are timed one call at a time.
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_stats.hpp"
#include "formats/state_file.hpp"
#include "io/output_file.hpp"
#include "platform/machine_now.hpp"
#include "tscaudit.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kBatch = 100;
constexpr std::size_t kInputs = 4096;

struct Input {
  int cpu_a, cpu_b;
  std::uint64_t t_a, t_b;
};

std::string write_state(int cpus) {
  const tscaudit::MachineNow now = tscaudit::read_machine_now();
  tscaudit::PublishedState s;
  s.verdict = tscaudit::PublishedVerdict::synchronized;
  s.bound_ns = 200;
  s.tolerance_ns = 1000;
  s.reason = "synchronized: a benchmark's table";
  s.boottime_ns = now.boottime_ns;
  s.realtime_ns = now.realtime_ns;
  s.monotonic_ns = now.monotonic_ns;
  s.boot_id = now.boot_id;
  s.clocksource = now.clocksource;
  s.online_cpus = now.online_cpus;
  tscaudit::CounterTable& t = s.table;
  t.reference_cpu = 0;
  t.counter_hz = 2e9;
  t.as_of_counter = now.counter;
  t.bands.resize(static_cast<std::size_t>(cpus));
  for (int c = 0; c < cpus; ++c) {
    tscaudit::CpuCounterBand& b = t.bands[static_cast<std::size_t>(c)];
    b.cpu = c;
    if (c == 0) continue;
    b.offset_lo_ticks = 3.0 * c - 20;
    b.offset_hi_ticks = 3.0 * c + 20;
    b.drift_lo_ppb = -50;
    b.drift_hi_ppb = 50;
  }
  s.valid_seconds = tscaudit::valid_seconds_of(t, 1000 * 2.0);
  // A directory of its own under $TMPDIR (or /tmp), removed at the end.
  std::string dir = (std::filesystem::temp_directory_path() / "tscaudit-bench-state-XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr) throw std::runtime_error("mkdtemp failed: " + dir);
  const std::string path = dir + "/state";
  const std::vector<std::uint8_t> bytes = tscaudit::encode_state(s);
  tscaudit::write_text_file(path, {reinterpret_cast<const char*>(bytes.data()), bytes.size()});
  return path;
}

/// Per-call ns of `calls` calls of f(input), in batches of kBatch: one sample per batch.
template <typename F>
std::vector<double> batches(const std::vector<Input>& in, long calls, F f) {
  std::vector<double> ns;
  ns.reserve(static_cast<std::size_t>(calls / kBatch));
  std::size_t k = 0;
  for (long done = 0; done < calls; done += kBatch) {
    const auto start = Clock::now();
    for (int i = 0; i < kBatch; ++i) f(in[k++ % kInputs]);
    ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - start).count() / kBatch);
  }
  return ns;
}

void row(const char* what, const std::vector<double>& v, const char* unit) {
  std::printf("%-34s %10.1f %10.1f %s  (%zu samples)\n", what, tscaudit::bench::median(v),
              tscaudit::bench::quantile(v, 0.99), unit, v.size());
}

}  // namespace

int main(int argc, char** argv) {
  int cpus = 64;
  long calls = 1'000'000;
  int opens = 1000;
  for (const auto& [name, value] : tscaudit::bench::option_pairs(argc, argv)) {
    if (name == "--cpus") cpus = std::atoi(value.c_str());
    else if (name == "--calls") calls = std::atol(value.c_str());
    else if (name == "--opens") opens = std::atoi(value.c_str());
    else {
      std::fprintf(stderr, "usage: %s [--cpus N] [--calls M] [--opens K]\n", argv[0]);
      return 2;
    }
  }
  if (cpus < 2 || calls < kBatch || opens < 1) {
    std::fprintf(stderr, "--cpus at least 2, --calls at least %d, --opens at least 1\n", kBatch);
    return 2;
  }
  const std::string path = write_state(cpus);
  tscaudit_state* state = nullptr;
  char reason[256];
  if (const int rc = tscaudit_state_open(path.c_str(), &state, reason); rc != TSCAUDIT_OK) {
    std::fprintf(stderr, "open %s: %s: %s\n", path.c_str(), tscaudit_error_name(rc), reason);
    return 1;
  }
  tscaudit_state_info info;
  tscaudit_state_info_init(&info);
  tscaudit_state_get_info(state, &info);

  // Stamps within a second of the table's moment, a few hundred ticks apart: half proven,
  // half not.
  std::vector<Input> in(kInputs);
  std::uint64_t x = 88172645463325252ULL;
  for (Input& i : in) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    i.cpu_a = static_cast<int>(x % static_cast<std::uint64_t>(cpus));
    i.cpu_b = static_cast<int>((x >> 16) % static_cast<std::uint64_t>(cpus));
    i.t_a = info.as_of_counter + (x >> 40) % 2'000'000'000ULL;
    i.t_b = i.t_a + (x >> 20) % 800 - 400;
  }
  long sink = 0;
  double dsink = 0;
  const auto order = batches(in, calls, [&](const Input& i) {
    int o = 0;
    tscaudit_state_order(state, i.cpu_a, i.t_a, i.cpu_b, i.t_b, &o);
    sink += o;
  });
  const auto offset = batches(in, calls, [&](const Input& i) {
    double lo = 0;
    double hi = 0;
    tscaudit_state_offset(state, i.cpu_a, i.t_a, &lo, &hi);
    dsink += hi - lo;
  });
  const auto stamp = batches(in, calls, [&](const Input&) {
    int cpu = 0;
    std::uint64_t t = 0;
    sink += tscaudit_stamp(&cpu, &t) + cpu + static_cast<long>(t & 1);
  });
  std::vector<double> open_us;
  std::vector<double> info_us;
  for (int k = 0; k < opens; ++k) {
    tscaudit_state* s = nullptr;
    const auto a = Clock::now();
    const int rc = tscaudit_state_open(path.c_str(), &s, nullptr);
    const auto b = Clock::now();
    tscaudit_state_info inf;
    tscaudit_state_info_init(&inf);
    const auto c = Clock::now();
    tscaudit_state_get_info(s, &inf);
    const auto d = Clock::now();
    tscaudit_state_close(s);
    sink += rc + inf.status;
    open_us.push_back(std::chrono::duration<double, std::micro>(b - a).count());
    info_us.push_back(std::chrono::duration<double, std::micro>(d - c).count());
  }
  std::printf("a table of %d CPUs, %ld calls each in batches of %d, %d opens (%s)\n", cpus, calls, kBatch, opens,
              info.reason);
  std::printf("%-34s %10s %10s\n", "", "median", "p99");
  row("tscaudit_state_order", order, "ns");
  row("tscaudit_state_offset", offset, "ns");
  int cpu = 0;
  std::uint64_t t = 0;
  if (tscaudit_stamp(&cpu, &t) == TSCAUDIT_OK) row("tscaudit_stamp", stamp, "ns");
  else std::printf("%-34s unsupported here\n", "tscaudit_stamp");
  row("tscaudit_state_open + close", open_us, "us");
  row("tscaudit_state_get_info", info_us, "us");
  std::printf("(checksums %ld %.3g)\n", sink, dsink);  // keeps the calls' results alive
  tscaudit_state_close(state);
  ::unlink(path.c_str());
  ::rmdir(path.substr(0, path.rfind('/')).c_str());
  return 0;
}
