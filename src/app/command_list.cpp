#include "app/command_list.hpp"

#include <algorithm>
#include <utility>
#include <variant>

namespace tscaudit::cli {
namespace {

/// The index of Options among Command's alternatives.
template <class Options, std::size_t I = 0>
constexpr std::size_t alternative_of() {
  static_assert(I < std::variant_size_v<Command>, "not an alternative of Command");
  if constexpr (std::is_same_v<std::variant_alternative_t<I, Command>, Options>) {
    return I;
  } else {
    return alternative_of<Options, I + 1>();
  }
}

template <class Options, int (*Run)(const Options&)>
int run_as(const Command& command) {
  return Run(std::get<Options>(command));
}

int run_info_command(const InfoCommand& info) { return run_info(info.format, info.ntp_seconds); }

template <class Options, int (*Run)(const Options&)>
constexpr CommandEntry listed_entry(std::string_view name, std::string_view summary) {
  return {name, summary, alternative_of<Options>(), &run_as<Options, Run>};
}

}  // namespace

const std::array<CommandEntry, 11>& command_list() {
  static const std::array<CommandEntry, 11> kCommands = {
      listed_entry<ReportOptions, run_report>(
          "report", "The main job: facts, every pair, read variants, verdict, heatmaps, report.html"),
      listed_entry<CheckOptions, run_check>(
          "check", "An answer for scripts: exit 0 synchronized, 1 not, 5 inconclusive; the reason"),
      listed_entry<CompareOptions, run_compare>(
          "compare", "Two runs of one machine: which CPU's offset moved, proven by disjoint bands"),
      listed_entry<StateOptions, run_state>(
          "state", "What programs see of the published table: its status now, each CPU's band"),
      listed_entry<InfoCommand, run_info_command>("info",
                                                  "Platform facts a measurement depends on, and warnings with advice"),
      listed_entry<VariantsOptions, run_variants>("variants",
                                                  "Which way of reading the TSC to trust here, and what each costs"),
      listed_entry<MatrixOptions, run_matrix>(
          "matrix", "Every ordered pair of the CPUs: offset, drift and latency matrices, heatmaps"),
      listed_entry<MonitorOptions, run_monitor>(
          "monitor", "One pair for hours, a line per interval, in memory that does not grow"),
      listed_entry<MeasureOptions, run_measure>("measure", "One ordered pair of CPUs, every round saved for analyze"),
      listed_entry<AnalyzeOptions, run_analyze>(
          "analyze", "Saved runs, imported rounds or monitor logs: offset, drift, bounds, a verdict per pair"),
      listed_entry<SimulateOptions, run_simulate>(
          "simulate", "Synthetic rounds of a pair or a whole machine, with the truth to compare"),
  };
  return kCommands;
}

const CommandEntry* find_command(std::string_view name) {
  const auto& list = command_list();
  const auto it = std::find_if(list.begin(), list.end(), [&](const CommandEntry& e) { return e.name == name; });
  return it != list.end() ? &*it : nullptr;
}

const CommandEntry* command_entry_of(const Command& command) {
  const auto& list = command_list();
  const auto it =
      std::find_if(list.begin(), list.end(), [&](const CommandEntry& e) { return e.alternative == command.index(); });
  return it != list.end() ? &*it : nullptr;
}

}  // namespace tscaudit::cli
