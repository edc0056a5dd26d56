#include "matrix/findings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "estimate/network_offsets.hpp"

namespace tscaudit {
namespace {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();

/// How a CPU pair's direct band is judged: the band of v_b − v_a, from the ordered pair
/// a→b (either role of a pair is one such band).
struct PairBand {
  std::size_t a = 0, b = 0;  // indexes into the matrix
  double lo = 0, hi = 0;
  bool fails = false;  // the band misses [−tolerance, +tolerance] (and the pair counts as failing)
};

/// One quantity (offset or drift) over the matrix: its per-CPU estimates and its pairs'
/// bands. The CPUs left out take no part in it.
struct Quantity {
  FindingKind kind = FindingKind::offset;
  double tolerance = 0;
  std::vector<double> estimate;  // per CPU, NaN where none
  std::vector<PairBand> bands;
};

bool misses(double lo, double hi, double tol) { return lo > tol || hi < -tol; }

Quantity offset_quantity(const MatrixResult& m, double tolerance) {
  Quantity q;
  q.kind = FindingKind::offset;
  q.tolerance = tolerance;
  q.estimate = m.cpu.offset_ticks;
  const std::size_t n = m.size();
  q.estimate.resize(n, kNoValue);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      const PairCell& c = m.at(a, b);
      if (a == b || !c.measured || !c.band_feasible) continue;
      if (!std::isfinite(c.offset_lo_ticks) || !std::isfinite(c.offset_hi_ticks)) continue;
      q.bands.push_back({a, b, c.offset_lo_ticks, c.offset_hi_ticks, misses(c.offset_lo_ticks, c.offset_hi_ticks, tolerance)});
    }
  }
  return q;
}

/// The drift: per-CPU estimates by least squares over the pairs' drift estimates (as the
/// offsets', docs/machine.md §10.2); a pair fails as check judges it (detectable, and the
/// band misses the tolerance).
Quantity drift_quantity(const MatrixResult& m, double tolerance) {
  Quantity q;
  q.kind = FindingKind::drift;
  q.tolerance = tolerance;
  const std::size_t n = m.size();
  std::vector<OffsetEdge> edges;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      const PairCell& c = m.at(a, b);
      if (a == b || !c.measured) continue;
      if (std::isfinite(c.drift_ppb)) edges.push_back(OffsetEdge{a, b, c.drift_ppb});
      if (!std::isfinite(c.drift_lo_ppb) || !std::isfinite(c.drift_hi_ppb)) continue;
      q.bands.push_back({a, b, c.drift_lo_ppb, c.drift_hi_ppb,
                         c.drift_detectable && misses(c.drift_lo_ppb, c.drift_hi_ppb, tolerance)});
    }
  }
  q.estimate = solve_network_offsets(n, edges);
  return q;
}

/// The CPUs in segments: cut the CPUs, sorted by estimate, into the fewest runs that hold
/// no failing pair; among those cuttings, the one whose cuts lie at the largest gaps of
/// the estimates (their sum). Returns the runs, each in estimate order.
/// O(m² + bands), m the CPUs taking part.
std::vector<std::vector<std::size_t>> segments(const Quantity& q, const std::vector<bool>& part) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < part.size(); ++i) {
    if (part[i] && std::isfinite(q.estimate[i])) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return q.estimate[x] < q.estimate[y]; });
  const std::size_t count = order.size();
  if (count == 0) return {};
  std::vector<std::size_t> pos(part.size(), count);
  for (std::size_t k = 0; k < count; ++k) pos[order[k]] = k;
  // first[e]: the lowest start of a run that ends at e and holds no failing pair.
  std::vector<std::size_t> first(count, 0);
  for (const PairBand& p : q.bands) {
    if (!p.fails || pos[p.a] == count || pos[p.b] == count) continue;
    const std::size_t lo = std::min(pos[p.a], pos[p.b]), hi = std::max(pos[p.a], pos[p.b]);
    first[hi] = std::max(first[hi], lo + 1);
  }
  for (std::size_t e = 1; e < count; ++e) first[e] = std::max(first[e], first[e - 1]);
  // runs[k], gaps[k]: the best cutting of the first k CPUs; start[k]: where its last run starts.
  std::vector<std::size_t> runs(count + 1, 0), start(count + 1, 0);
  std::vector<double> gaps(count + 1, 0);
  for (std::size_t e = 0; e < count; ++e) {
    std::optional<std::size_t> best;
    for (std::size_t s = first[e]; s <= e; ++s) {
      const double gap = s > 0 ? q.estimate[order[s]] - q.estimate[order[s - 1]] : 0;
      const std::size_t r = runs[s] + 1;
      const double g = gaps[s] + gap;
      if (!best || r < runs[e + 1] || (r == runs[e + 1] && g > gaps[e + 1])) {
        best = s;
        runs[e + 1] = r;
        gaps[e + 1] = g;
      }
    }
    start[e + 1] = *best;
  }
  std::vector<std::vector<std::size_t>> out;
  for (std::size_t end = count; end > 0; end = start[end]) {
    out.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(start[end]),
                     order.begin() + static_cast<std::ptrdiff_t>(end));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

/// The band of (group − reference), each group's CPUs a list of indexes: for each CPU of
/// the group, the intersection of its pairs' bands with the reference's CPUs (the CPU
/// against a reference that shares one value; the hull of those bands where they do not
/// meet), then the hull over the group's CPUs. Also counts the pairs it rests on and
/// whether one of them fails. nullopt when no pair joins the two groups.
struct GroupBand {
  double lo = kUnbounded, hi = -kUnbounded;
  std::size_t pairs = 0;
  std::size_t failing_partners = 0;  // CPUs of the reference with a failing pair to the group
};

std::optional<GroupBand> group_band(const Quantity& q, const std::vector<int>& group_of, int group, int reference,
                                    std::size_t n) {
  struct Member {
    double lo = -kUnbounded, hi = kUnbounded;         // the intersection
    double hull_lo = kUnbounded, hull_hi = -kUnbounded;  // the hull
    bool any = false;
  };
  std::vector<Member> members(n);
  std::vector<bool> failing_partner(n, false);
  GroupBand out;
  for (const PairBand& p : q.bands) {
    double lo = 0, hi = 0;
    std::size_t member = 0, partner = 0;
    if (group_of[p.b] == group && group_of[p.a] == reference) {  // v_b − v_a: group − reference
      lo = p.lo;
      hi = p.hi;
      member = p.b;
      partner = p.a;
    } else if (group_of[p.a] == group && group_of[p.b] == reference) {
      lo = -p.hi;
      hi = -p.lo;
      member = p.a;
      partner = p.b;
    } else {
      continue;
    }
    Member& m = members[member];
    m.any = true;
    m.lo = std::max(m.lo, lo);
    m.hi = std::min(m.hi, hi);
    m.hull_lo = std::min(m.hull_lo, lo);
    m.hull_hi = std::max(m.hull_hi, hi);
    ++out.pairs;
    if (p.fails && !failing_partner[partner]) {
      failing_partner[partner] = true;
      ++out.failing_partners;
    }
  }
  for (const Member& m : members) {
    if (!m.any) continue;
    const bool meet = m.lo <= m.hi;
    out.lo = std::min(out.lo, meet ? m.lo : m.hull_lo);
    out.hi = std::max(out.hi, meet ? m.hi : m.hull_hi);
  }
  if (out.pairs == 0) return std::nullopt;
  return out;
}

/// How many CPUs of `m` share the smallest topology unit holding all of `cpus`.
std::size_t unit_size(const MatrixResult& m, const std::vector<int>& cpus) {
  std::size_t smallest = m.size();
  for (int CpuPlace::*field : {&CpuPlace::package, &CpuPlace::die, &CpuPlace::l3, &CpuPlace::core}) {
    std::optional<int> unit;
    bool same = true;
    for (std::size_t i = 0; i < m.size() && same; ++i) {
      if (std::find(cpus.begin(), cpus.end(), m.cpus[i]) == cpus.end()) continue;
      const int u = m.places[i].*field;
      if (u < 0 || (unit && *unit != u)) same = false;
      unit = u;
    }
    if (!same || !unit) continue;
    const auto count = static_cast<std::size_t>(
        std::count_if(m.places.begin(), m.places.end(), [&](const CpuPlace& p) { return p.*field == *unit; }));
    smallest = std::min(smallest, count);
  }
  return smallest;
}


std::vector<int> cpu_numbers(const MatrixResult& m, const std::vector<std::size_t>& indexes) {
  std::vector<int> cpus;
  cpus.reserve(indexes.size());
  for (const std::size_t i : indexes) cpus.push_back(m.cpus[i]);
  std::sort(cpus.begin(), cpus.end());
  return cpus;
}

double mean_estimate(const Quantity& q, const std::vector<std::size_t>& indexes) {
  double sum = 0;
  for (const std::size_t i : indexes) sum += q.estimate[i];
  return indexes.empty() ? 0 : sum / static_cast<double>(indexes.size());
}

/// The structure of one quantity: its segments, the reference (the largest; on a tie the
/// one holding the lowest matrix index), and a finding for each segment proven to differ
/// from the reference. `group_of` gets each CPU's segment (-1: not taking part).
std::vector<Finding> structure(const MatrixResult& m, const Quantity& q, const std::vector<bool>& part,
                               std::vector<int>& group_of, int& reference_out) {
  const std::size_t n = m.size();
  const std::vector<std::vector<std::size_t>> segs = segments(q, part);
  group_of.assign(n, -1);
  reference_out = -1;
  if (segs.empty()) return {};
  // The CPUs left out, and each segment's size with those of them its topology unit holds
  // (a package one of whose CPUs drifts is still a package's worth of CPUs).
  std::vector<int> left_out;
  for (std::size_t i = 0; i < n; ++i) {
    if (!part[i]) left_out.push_back(m.cpus[i]);
  }
  std::vector<std::size_t> size(segs.size());
  for (std::size_t g = 0; g < segs.size(); ++g) {
    const std::vector<int> cpus = cpu_numbers(m, segs[g]);
    size[g] = cpus.size();
    if (!topology_name(m, cpus, left_out).empty()) size[g] = unit_size(m, cpus);
  }
  std::size_t reference = 0;
  const auto lowest = [](const std::vector<std::size_t>& s) { return *std::min_element(s.begin(), s.end()); };
  for (std::size_t g = 0; g < segs.size(); ++g) {
    for (const std::size_t i : segs[g]) group_of[i] = static_cast<int>(g);
    if (size[g] > size[reference] || (size[g] == size[reference] && lowest(segs[g]) < lowest(segs[reference]))) {
      reference = g;
    }
  }
  reference_out = static_cast<int>(reference);
  std::vector<Finding> findings;
  for (std::size_t g = 0; g < segs.size(); ++g) {
    if (g == reference) continue;
    const std::optional<GroupBand> band =
        group_band(q, group_of, static_cast<int>(g), static_cast<int>(reference), n);
    // Never a finding without proof: the band misses the tolerance, and pairs between the
    // two groups fail (so that a check that passes has no finding) with 2 or more CPUs of
    // the reference, or with its only CPU: one failing pair alone cannot say which of its
    // two CPUs is off, and its band says nothing of the others.
    const std::size_t partners_needed = std::min<std::size_t>(2, segs[reference].size());
    if (!band || band->failing_partners < partners_needed || !misses(band->lo, band->hi, q.tolerance)) continue;
    Finding f;
    f.kind = q.kind;
    f.cpus = cpu_numbers(m, segs[g]);
    f.against = cpu_numbers(m, segs[reference]);
    f.lo = band->lo;
    f.hi = band->hi;
    f.estimate = mean_estimate(q, segs[g]) - mean_estimate(q, segs[reference]);
    f.pairs = band->pairs;
    f.name = topology_name(m, f.cpus, left_out);
    f.against_name = topology_name(m, f.against, left_out);
    f.against_rest = f.cpus.size() + f.against.size() == n;
    f.group_size = size[g];
    f.against_size = size[reference];
    findings.push_back(std::move(f));
  }
  return findings;
}

/// The steps: the pairs whose offset stepped form a graph; each CPU at the centre of 2 or
/// more of them (greedily, the most first, ties to the lower matrix index) is the one
/// that stepped, its band the intersection of its pairs' step bands (their hull where they
/// do not meet); a stepping pair no such CPU explains is a finding of its own (b against a).
std::vector<Finding> step_findings(const MatrixResult& m) {
  const std::size_t n = m.size();
  struct Step {
    std::size_t a, b;
    double lo, hi, size;
    std::uint64_t round;
  };
  std::vector<Step> steps;  // the largest step of each ordered pair that stepped
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      const PairCell& c = m.at(a, b);
      if (a == b || c.steps.empty()) continue;
      const auto largest = std::max_element(c.steps.begin(), c.steps.end(), [](const StepVerdict& x, const StepVerdict& y) {
        return std::fabs(x.size_ticks) < std::fabs(y.size_ticks);
      });
      steps.push_back({a, b, largest->size_lo_ticks, largest->size_hi_ticks, largest->size_ticks, largest->round});
    }
  }
  std::vector<bool> covered(steps.size(), false), named(n, false);
  std::vector<Finding> findings;
  for (;;) {
    // The CPU with the most partners among the steps not yet explained.
    std::vector<std::vector<std::size_t>> open_partners(n);
    for (std::size_t k = 0; k < steps.size(); ++k) {
      if (covered[k]) continue;
      open_partners[steps[k].a].push_back(steps[k].b);
      open_partners[steps[k].b].push_back(steps[k].a);
    }
    std::vector<std::size_t> open(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<std::size_t>& p = open_partners[i];
      std::sort(p.begin(), p.end());
      open[i] = static_cast<std::size_t>(std::unique(p.begin(), p.end()) - p.begin());
    }
    std::size_t best = n;
    for (std::size_t i = 0; i < n; ++i) {
      if (!named[i] && open[i] >= 2 && (best == n || open[i] > open[best])) best = i;
    }
    if (best == n) break;
    named[best] = true;
    Finding f;
    f.kind = FindingKind::step;
    double lo = -kUnbounded, hi = kUnbounded, hull_lo = kUnbounded, hull_hi = -kUnbounded, largest = 0;
    std::vector<std::size_t> against;
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const Step& s = steps[k];
      if (covered[k] || (s.a != best && s.b != best)) continue;
      covered[k] = true;
      // The jump of b's counter minus a's; the stepping CPU's own is that, or its negative.
      const double sign = s.b == best ? 1.0 : -1.0;
      const double slo = sign > 0 ? s.lo : -s.hi, shi = sign > 0 ? s.hi : -s.lo;
      lo = std::max(lo, slo);
      hi = std::min(hi, shi);
      hull_lo = std::min(hull_lo, slo);
      hull_hi = std::max(hull_hi, shi);
      against.push_back(s.a == best ? s.b : s.a);
      ++f.pairs;
      if (std::fabs(s.size) > std::fabs(largest)) {
        largest = sign * s.size;
        f.step_round = s.round;
      }
    }
    f.cpus = {m.cpus[best]};
    f.against = cpu_numbers(m, against);
    f.against.erase(std::unique(f.against.begin(), f.against.end()), f.against.end());
    f.lo = lo <= hi ? lo : hull_lo;
    f.hi = lo <= hi ? hi : hull_hi;
    f.estimate = largest;
    f.against_name = topology_name(m, f.against);
    f.against_rest = f.against.size() + 1 == n;
    f.group_size = 1;
    f.against_size = f.against.size();
    findings.push_back(std::move(f));
  }
  for (std::size_t k = 0; k < steps.size(); ++k) {
    if (covered[k]) continue;
    const Step& s = steps[k];
    covered[k] = true;
    Finding f;
    f.kind = FindingKind::step;
    f.cpus = {m.cpus[s.b]};
    f.against = {m.cpus[s.a]};
    f.lo = s.lo;
    f.hi = s.hi;
    f.estimate = s.size;
    f.pairs = 1;
    f.step_round = s.round;
    f.group_size = f.against_size = 1;
    // The other role of the same pair, when it stepped too, is this finding's.
    for (std::size_t j = k + 1; j < steps.size(); ++j) {
      if (!covered[j] && steps[j].a == s.b && steps[j].b == s.a) {
        covered[j] = true;
        ++f.pairs;
      }
    }
    findings.push_back(std::move(f));
  }
  return findings;
}

/// Most important first: larger groups, then offset, step, drift, then |estimate|.
bool more_important(const Finding& x, const Finding& y) {
  const auto rank = [](FindingKind k) { return k == FindingKind::offset ? 0 : k == FindingKind::step ? 1 : 2; };
  if (x.cpus.size() != y.cpus.size()) return x.cpus.size() > y.cpus.size();
  if (x.kind != y.kind) return rank(x.kind) < rank(y.kind);
  return std::fabs(x.estimate) > std::fabs(y.estimate);
}

}  // namespace

std::string_view finding_kind_name(FindingKind kind) {
  switch (kind) {
    case FindingKind::offset: return "offset";
    case FindingKind::drift: return "drift";
    case FindingKind::step: return "step";
  }
  return "?";
}

std::string_view finding_unit(FindingKind kind) { return kind == FindingKind::drift ? "ppb" : "ticks"; }

std::string topology_name(const MatrixResult& m, const std::vector<int>& cpus, const std::vector<int>& left_out) {
  // One CPU is named by its number.
  if (cpus.size() < 2 || m.places.size() != m.size()) return "";
  struct Level {
    int CpuPlace::*field;
    const char* word;
  };
  static constexpr Level kLevels[] = {
      {&CpuPlace::package, "package"}, {&CpuPlace::die, "die"}, {&CpuPlace::l3, "L3"}, {&CpuPlace::core, "core"}};
  std::vector<std::size_t> where;
  for (const int cpu : cpus) {
    where.push_back(m.index_of(cpu));
    if (where.back() == m.size()) return "";
  }
  for (const Level& level : kLevels) {
    const int unit = m.places[where[0]].*level.field;
    if (unit < 0) continue;
    const bool same = std::all_of(where.begin(), where.end(), [&](std::size_t i) { return m.places[i].*level.field == unit; });
    if (!same) continue;
    // Every CPU of the unit is in the set, or left out of the structure.
    const bool whole = std::all_of(m.places.begin(), m.places.end(), [&](const CpuPlace& p) {
      return p.*level.field != unit || std::find(cpus.begin(), cpus.end(), p.cpu) != cpus.end() ||
             std::find(left_out.begin(), left_out.end(), p.cpu) != left_out.end();
    });
    if (whole) return std::string(level.word) + " " + std::to_string(unit);
  }
  return "";
}

Diagnosis diagnose(const MatrixResult& m, const DiagnosisSettings& settings) {
  const std::size_t n = m.size();
  Diagnosis d;
  d.offset_group.assign(n, -1);
  if (n == 0) return d;
  std::vector<Finding> found = step_findings(m);
  std::vector<bool> part(n, true);
  std::vector<int> drift_group;
  int drift_reference = -1;
  for (Finding& f : structure(m, drift_quantity(m, settings.drift_tolerance_ppb), part, drift_group, drift_reference)) {
    found.push_back(std::move(f));
  }
  // A CPU that drifts or steps has no one offset over the run: it takes no part in the
  // offsets' structure.
  for (const Finding& f : found) {
    for (const int cpu : f.cpus) {
      if (const std::size_t i = m.index_of(cpu); i < n) part[i] = false;
    }
  }
  std::vector<int> offset_group;
  int offset_reference = -1;
  std::vector<Finding> offsets =
      structure(m, offset_quantity(m, settings.tolerance_ticks), part, offset_group, offset_reference);
  // Renumber: 0 the reference and every group not proven to differ from it, then the
  // groups of the findings in estimate order.
  std::vector<int> renumber;
  int next = 1;
  for (int g = 0; g <= *std::max_element(offset_group.begin(), offset_group.end()); ++g) {
    bool proven = false;
    for (const Finding& f : offsets) proven = proven || offset_group[m.index_of(f.cpus.front())] == g;
    renumber.push_back(g != offset_reference && proven ? next++ : 0);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (offset_group[i] >= 0) d.offset_group[i] = renumber[static_cast<std::size_t>(offset_group[i])];
  }
  d.offset_groups = offset_reference >= 0 ? next : 0;
  for (Finding& f : offsets) found.push_back(std::move(f));
  std::stable_sort(found.begin(), found.end(), more_important);
  d.findings = std::move(found);
  std::vector<bool> off(n, false);
  for (const Finding& f : d.findings) {
    // Every offset and drift finding names a group that is not the reference (on a tie in
    // size, the one without the matrix's first CPU): its CPUs are off. A step no one CPU
    // explains is one pair's, and names neither CPU.
    if (f.kind == FindingKind::step && f.group_size >= f.against_size) continue;
    for (const int cpu : f.cpus) off[m.index_of(cpu)] = true;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (off[i]) d.cpus_off.push_back(m.cpus[i]);
  }
  return d;
}

}  // namespace tscaudit
