// What the tests of hostile run directories share (tests/core/test_files.cpp,
// tests/formats/test_json_bounds.cpp, tests/formats/test_run_dir_limits.cpp): a manifest with
// a plan spec, the rounds of a visit, JSON nested to a depth, a FIFO.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/run.hpp"
#include "formats/run_dir.hpp"

namespace tscaudit::test {

/// A manifest as check writes it, CPUs `cpus`, with the plan's spec (all pairs, 4 visits of
/// `rounds_per_visit` rounds).
inline RunDirManifest hostile_manifest(const std::vector<int>& cpus, std::uint64_t rounds_per_visit) {
  RunDirManifest m;
  m.status = RunDirStatus::complete;
  m.started_utc = "2026-12-02T04:01:47.462Z";
  m.cpus = cpus;
  m.send = "rdtsc";
  m.recv = "lfence_rdtsc";
  m.tsc_hz = 2596141815;
  m.pair_header.set("tool_version", "0.2.0");
  m.pair_header.set("send", "rdtsc");
  m.pair_header.set("recv", "lfence_rdtsc");
  m.plan = {{"spec",
             {{"cpus", cpus},
              {"visits", 4},
              {"rounds_per_visit", rounds_per_visit},
              {"warmup_per_visit", 0},
              {"parallel", false},
              {"design", "all_pairs"},
              {"pairs", nlohmann::ordered_json::array()},
              {"design_reason", ""},
              {"budget_seconds", 0}}}};
  return m;
}

/// `n` rounds, seq from 0, t1 from `start`, 700 ticks apart.
inline std::vector<Round> hostile_rounds(std::size_t n, std::uint64_t start) {
  std::vector<Round> r;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t t1 = start + i * 700;
    r.push_back(Round(i, t1, t1 + 300 + i % 7, t1 + 340 + i % 11, t1 + 600 - i % 5, 0));
  }
  return r;
}

/// `depth` arrays inside each other: "[[...]]".
inline std::string nested_arrays(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

/// Makes a FIFO at `path`. \returns false when the file system cannot hold one.
inline bool make_fifo(const std::string& path) { return ::mkfifo(path.c_str(), 0600) == 0; }

}  // namespace tscaudit::test
