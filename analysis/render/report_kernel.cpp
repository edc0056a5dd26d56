#include "render/report_kernel.hpp"

#include "render/kernel_agreement.hpp"
#include "render/kernel_tsc_text.hpp"

namespace tscaudit {

std::optional<ReportSection> kernel_word_section(const ReportInputs& in) {
  if (!in.kernel_tsc || (in.kernel_tsc->events.empty() && in.kernel_tsc->left_out == 0)) return std::nullopt;
  const KernelTscLog& log = *in.kernel_tsc;
  ReportSection s;
  s.title = "The kernel's word";
  s.blocks.push_back({ReportBlock::Kind::paragraph,
                      "What Linux's log on the machine measured says about the TSCs' synchronization, and what the "
                      "kernel did to TSC_ADJUST:",
                      {}, "", ""});
  std::vector<std::string> events;
  for (const KernelTscEvent& e : log.events) events.push_back(kernel_tsc_event_line(e));
  if (log.left_out > 0) {
    events.push_back(std::to_string(log.left_out) + " more TSC line" + (log.left_out == 1 ? " was" : "s were") +
                     " left out (the first " + std::to_string(KernelTscLog::kMaxEvents) +
                     " are kept, verdicts before notes)");
  }
  s.blocks.push_back({ReportBlock::Kind::bullets, "", std::move(events), "", ""});
  const std::vector<KernelComparison> comparisons =
      compare_with_kernel(log, in.ordered.matrix, in.check.diagnosis, in.check.settings.tolerance_ticks);
  if (comparisons.empty()) {
    s.blocks.push_back({ReportBlock::Kind::paragraph,
                        "None of these names CPUs whose counters differ: nothing to compare with this measurement.",
                        {}, "", ""});
    return s;
  }
  std::vector<std::string> sentences;
  for (const KernelComparison& c : comparisons) sentences.push_back(c.sentence);
  s.blocks.push_back({ReportBlock::Kind::paragraph, "Against this measurement:", {}, "", ""});
  s.blocks.push_back({ReportBlock::Kind::bullets, "", std::move(sentences), "", ""});
  return s;
}

}  // namespace tscaudit
