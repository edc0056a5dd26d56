// A fabricated machine the kernel's word is weighed against (tests of
// matrix/kernel_agreement.hpp, the decision, and render/kernel_agreement.hpp, its sentences):
// four CPUs, CPU 3 1500 ticks ahead, and the diagnosis that names it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/kernel_tsc.hpp"
#include "matrix/findings.hpp"
#include "matrix/matrix.hpp"

namespace tscaudit::test {

inline KernelTscEvent kernel_event(KernelTscEventKind kind, int cpu = -1, int other = -1, std::vector<int> cpus = {},
                     std::optional<std::int64_t> value = std::nullopt,
                     std::optional<std::int64_t> value2 = std::nullopt) {
  KernelTscEvent e;
  e.kind = kind;
  e.cpu = cpu;
  e.other_cpu = other;
  e.cpus = std::move(cpus);
  e.value = value;
  e.value2 = value2;
  return e;
}

/// CPUs 0-3; CPU 3's counter 1500 ticks ahead of the others'. Bands of TSC_b - TSC_a:
/// 0->3 [1490, 1520] (width 30), 3->0 [-1525, -1485] (width 40), 0->1 [-30, 28]; 1->0, 2->3
/// and the others not measured.
inline MatrixResult four_cpus() {
  MatrixResult m;
  m.cpus = {0, 1, 2, 3};
  m.labels = {"0", "1", "2", "3"};
  m.cells.resize(16);
  auto set = [&](std::size_t a, std::size_t b, double lo, double hi) {
    PairCell& c = m.cells[a * 4 + b];
    c.measured = true;
    c.band_feasible = true;
    c.offset_lo_ticks = lo;
    c.offset_hi_ticks = hi;
    c.offset_ticks = (lo + hi) / 2;
  };
  set(0, 3, 1490, 1520);
  set(3, 0, -1525, -1485);
  set(0, 1, -30, 28);
  return m;
}

/// Two offset groups: CPUs 0-2 (the reference) and CPU 3, "package 1" against "package 0".
inline Diagnosis package_off() {
  Diagnosis d;
  d.offset_group = {0, 0, 0, 1};
  d.offset_groups = 2;
  Finding f;
  f.kind = FindingKind::offset;
  f.cpus = {3};
  f.against = {0, 1, 2};
  f.lo = 1480;
  f.hi = 1530;
  f.estimate = 1505;
  f.name = "package 1";
  f.against_name = "package 0";
  d.findings = {f};
  d.cpus_off = {3};
  return d;
}

}  // namespace tscaudit::test
