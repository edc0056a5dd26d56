#include "render/compare_output.hpp"

#include <cmath>
#include <vector>

#include "core/format.hpp"
#include "render/json_values.hpp"
#include "render/text_wrap.hpp"

namespace tscaudit {
namespace {

/// The CPUs listed by name in the answer; the rest are counted ("and 3 more").
constexpr std::size_t kNamedInAnswer = 3;

std::string signed_ticks(double v) {
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  std::string s = format_sig(v + 0.0, 4);
  return v > 0 ? "+" + s : s;
}

std::string bound_text(double v) {
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  return format_sig(v + 0.0, 4);
}

std::string band_text(double lo, double hi) { return "[" + bound_text(lo) + ", " + bound_text(hi) + "]"; }

/// "+99 to +701 ticks (+43 to +305 ns)"; "+99 ticks or more" where the other end is open.
std::string movement_text(const CpuOffsetChange& c, double tsc_hz) {
  const bool open = std::isinf(c.moved_at_most);
  std::string s = open ? signed_ticks(c.moved_at_least) + " ticks or more"
                       : signed_ticks(c.moved_at_least) + " to " + signed_ticks(c.moved_at_most) + " ticks";
  if (tsc_hz > 0) {
    const auto ns = [tsc_hz](double ticks) { return signed_ticks(std::round(ticks / tsc_hz * 1e9)); };
    s += open ? " (" + ns(c.moved_at_least) + " ns or more)"
              : " (" + ns(c.moved_at_least) + " to " + ns(c.moved_at_most) + " ns)";
  }
  return s;
}

std::vector<const CpuOffsetChange*> moved_cpus(const OffsetComparison& c) {
  std::vector<const CpuOffsetChange*> out;
  for (const CpuOffsetChange& x : c.cpus) {
    if (x.change == OffsetChange::moved) out.push_back(&x);
  }
  return out;
}

/// Every CPU compared but the reference moved, all the same way: the reference may be the
/// one that moved (offsets are against it).
bool all_others_moved_alike(const OffsetComparison& c, const std::vector<const CpuOffsetChange*>& moved) {
  if (moved.size() < 2 || moved.size() + 1 != c.compared) return false;
  const bool up = moved.front()->moved_at_least > 0;
  for (const CpuOffsetChange* m : moved) {
    if ((m->moved_at_least > 0) != up) return false;
  }
  return true;
}

nlohmann::ordered_json side_json(double estimate, double lo, double hi) {
  return {{"estimate", number_or_null(estimate)}, {"lo", number_or_null(lo)}, {"hi", number_or_null(hi)}};
}

}  // namespace

bool nothing_to_compare(const OffsetComparison& c) { return c.compared < 2; }

std::string comparison_answer(const OffsetComparison& c) {
  const std::string against = "CPU " + std::to_string(c.reference_cpu);
  if (nothing_to_compare(c)) {
    if (c.compared == 0) {
      return "nothing to compare: the second run does not hold " + against +
             ", the first's reference, so no offset of the one can be set against the other";
    }
    return "nothing to compare: the two runs hold no CPU in common besides " + against + ", the reference";
  }
  const std::vector<const CpuOffsetChange*> moved = moved_cpus(c);
  if (moved.empty()) {
    std::size_t unbounded = 0;
    for (const CpuOffsetChange& x : c.cpus) unbounded += x.change == OffsetChange::unbounded ? 1 : 0;
    std::string s = "no proven change: the offset bands of the " + count_of(c.compared, "CPU", "CPUs") +
                    " in both runs overlap (against " + against + ")";
    if (unbounded > 0) s += "; " + count_of(unbounded, "CPU has", "CPUs have") + " no bound in a run";
    return s;
  }
  std::string s = "changed: ";
  if (moved.size() == 1) {
    s += "CPU " + std::to_string(moved[0]->cpu) + " moved " + movement_text(*moved[0], c.tsc_hz) + " against " +
         against;
  } else {
    s += std::to_string(moved.size()) + " CPUs moved against " + against + ": ";
    for (std::size_t i = 0; i < moved.size() && i < kNamedInAnswer; ++i) {
      s += (i == 0 ? "" : ", ") + ("CPU " + std::to_string(moved[i]->cpu) + " ") +
           movement_text(*moved[i], c.tsc_hz);
    }
    if (moved.size() > kNamedInAnswer) s += ", and " + std::to_string(moved.size() - kNamedInAnswer) + " more";
  }
  if (all_others_moved_alike(c, moved)) {
    s += "; every other CPU moved the same way: " + against + " itself may be the one that moved";
  }
  return s;
}

std::string comparison_text(const OffsetComparison& c, const ComparedRun& first, const ComparedRun& second) {
  std::string out = comparison_answer(c) + "\n";
  out += "  first     " + first.name + ": " + (first.answer.empty() ? "no answer recorded" : first.answer) + "\n";
  out += "  second    " + second.name + ": " + (second.answer.empty() ? "no answer recorded" : second.answer) + "\n";
  out += "  rule      changed only where a CPU's hard offset bands in the two runs are disjoint, by at least "
         "the gap between them; ~ where they overlap (nothing proven either way)\n";
  if (c.rebased) {
    out += "  note      the second run's offsets were against another CPU: they are referred to CPU " +
           std::to_string(c.reference_cpu) + ", their bands widened by its band there\n";
  }
  out += "\nOffset of each CPU against CPU " + std::to_string(c.reference_cpu) + " (ticks; hard bands)\n";
  out += pad_right("   cpu", 8) + pad_right("first band", 22) + pad_right("second band", 22) + "change\n";
  for (const CpuOffsetChange& x : c.cpus) {
    std::string cpu = std::to_string(x.cpu);
    std::string line = pad_right(std::string(6 > cpu.size() ? 6 - cpu.size() : 0, ' ') + cpu, 8);
    line += pad_right(x.change == OffsetChange::only_second ? "-" : band_text(x.first_lo, x.first_hi), 22);
    line += pad_right(x.change == OffsetChange::only_first ? "-" : band_text(x.second_lo, x.second_hi), 22);
    line += x.change == OffsetChange::moved ? "moved " + movement_text(x, c.tsc_hz)
                                            : std::string(offset_change_name(x.change));
    out += line + "\n";
  }
  return wrap_lines(out);
}

nlohmann::ordered_json comparison_json(const OffsetComparison& c, const ComparedRun& first, const ComparedRun& second) {
  nlohmann::ordered_json j;
  j["schema"] = std::string(kCompareSchema);
  j["changed"] = c.changed();
  j["nothing_to_compare"] = nothing_to_compare(c);
  j["answer"] = comparison_answer(c);
  j["reference_cpu"] = c.reference_cpu;
  j["rebased"] = c.rebased;
  j["first"] = {{"source", first.name}, {"answer", first.answer}};
  j["second"] = {{"source", second.name}, {"answer", second.answer}};
  j["compared"] = c.compared;
  j["moved"] = c.moved;
  j["tsc_hz"] = c.tsc_hz > 0 ? nlohmann::ordered_json(c.tsc_hz) : nlohmann::ordered_json(nullptr);
  nlohmann::ordered_json cpus = nlohmann::ordered_json::array();
  for (const CpuOffsetChange& x : c.cpus) {
    nlohmann::ordered_json row;
    row["cpu"] = x.cpu;
    row["change"] = std::string(offset_change_name(x.change));
    row["first"] = x.change == OffsetChange::only_second ? nlohmann::ordered_json(nullptr)
                                                         : side_json(x.first_estimate, x.first_lo, x.first_hi);
    row["second"] = x.change == OffsetChange::only_first ? nlohmann::ordered_json(nullptr)
                                                         : side_json(x.second_estimate, x.second_lo, x.second_hi);
    const bool moved = x.change == OffsetChange::moved;
    row["moved_at_least_ticks"] = moved ? number_or_null(x.moved_at_least) : nlohmann::ordered_json(nullptr);
    row["moved_at_most_ticks"] = moved ? number_or_null(x.moved_at_most) : nlohmann::ordered_json(nullptr);
    cpus.push_back(std::move(row));
  }
  j["cpus"] = std::move(cpus);
  return j;
}

}  // namespace tscaudit
