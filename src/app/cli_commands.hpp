// The option table of each command (docs/commands.md): the options registered on the
// command's CLI11 subcommand as the text the user typed, and build(), which validates that
// text into the command's options struct. Private to cli.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "app/cli_values.hpp"
#include "app/command.hpp"

namespace tscaudit::cli {

/// The arguments as given (args[0] the program), for provenance and messages.
using Args = std::vector<std::string>;

struct InfoCli {
  static constexpr std::string_view kName = "info";
  CLI::App* sub = nullptr;
  std::string format = "text", ntp_seconds = "0";
  void add(CLI::App& app);
  [[nodiscard]] Command build(const Args& args) const;
};

struct CompareCli {
  static constexpr std::string_view kName = "compare";
  CLI::App* sub = nullptr;
  std::string first, second, format = "text";
  void add(CLI::App& app);
  [[nodiscard]] Command build(const Args& args) const;
};

struct StateCli {
  static constexpr std::string_view kName = "state";
  CLI::App* sub = nullptr;
  std::string file, format = "text";
  void add(CLI::App& app);
  [[nodiscard]] Command build(const Args& args) const;
};

struct MeasureCli {
  static constexpr std::string_view kName = "measure";
  CLI::App* sub = nullptr;
  std::string cpus, variant, send, recv, transport = "slot", out;
  std::string rounds = "1000000", warmup = "10000", timeout_ms = "2000";
  void add(CLI::App& app);
  [[nodiscard]] Command build(const Args& args) const;
};

struct MonitorCli {
  static constexpr std::string_view kName = "monitor";
  CLI::App* sub = nullptr;
  std::string cpus, variant, send, recv, out;
  std::string interval = "1", duration, timeout_ms = "2000", openmetrics, duty = "1";
  std::string queue_rounds = std::to_string(kDefaultMonitorQueueRounds);
  bool openmetrics_histogram = false;
  void add(CLI::App& app);
  [[nodiscard]] Command build(const Args& args) const;
};

struct AnalyzeCli {
  static constexpr std::string_view kName = "analyze";
  CLI::App* sub = nullptr;
  std::vector<std::string> files;
  std::string format = "text", out = "-", plot;
  void add(CLI::App& app);
  [[nodiscard]] Command build(const Args& args) const;
};

struct SimulateCli {
  static constexpr std::string_view kName = "simulate";
  CLI::App* sub = nullptr;
  SimulateOptions sim;
  std::string rounds, seed, quantum;
  bool no_quantum_metadata = false;
  std::map<std::string, std::string> reals;  // option name -> text, for every real parameter
  std::string step_ticks = "0", step_at = "0.5", steps;  // one offset step, or several
  // A whole machine (--topology): per-CPU and per-package values as KEY=VALUE texts.
  std::string topology, step, cross_package_skew = "0", role_slowdown = "1";
  std::vector<std::string> cpu_offsets, package_offsets, cpu_drifts, early_reads;
  void add(CLI::App& app);
  [[nodiscard]] Command build(const Args& args) const;
};

/// The options that choose the CPUs and the plan, shared by matrix, check and report.
struct PlanCli {
  std::string cpus, variant, send, recv, visits, rounds, budget, warmup = std::to_string(kMatrixWarmup),
                                         timeout_ms = "2000", topology, format = "text", out, from;
  bool parallel = false, sequential = false, all_pairs = false, dry_run = false, save_runs = false;
  bool over_budget = false;
  CLI::Option* cpus_option = nullptr;  // given (even as --cpus ''), or not
  bool budgeted = false;               // report and check: a default time budget
  /// \param variants  the command takes --variant, --send and --recv
  /// \param budgeted  report and check: plan for kDefaultBudgetSeconds by default (matrix
  ///                  measures every ordered pair unless given --budget)
  void add(CLI::App& cmd, bool variants, bool budgeted);
  [[nodiscard]] MatrixOptions build(const Args& args) const;
};

struct MatrixCli {
  static constexpr std::string_view kName = "matrix";
  CLI::App* sub = nullptr;
  PlanCli plan;
  void add(CLI::App& app);
  [[nodiscard]] Command build(const Args& args) const;
};

struct CheckCli {
  static constexpr std::string_view kName = "check";
  CLI::App* sub = nullptr;
  PlanCli plan;
  std::string tolerance = "0", drift_tolerance = "0", max_bound = "0", openmetrics, export_cpus, publish, history;
  bool details = false, export_pairs = false, quick = false;
  void add(CLI::App& app);
  [[nodiscard]] Command build(const Args& args) const;
};

struct VariantsCli {
  static constexpr std::string_view kName = "variants";
  CLI::App* sub = nullptr;
  std::string cpus, rounds = "200000", passes = "4", warmup = std::to_string(kVariantsWarmup), control_rounds = "20000",
                    switch_rounds = "50000", timeout_ms = "2000", format = "text", out;
  bool all = false, save_runs = false;
  void add(CLI::App& app);
  [[nodiscard]] Command build(const Args& args) const;
};

struct ReportCli {
  static constexpr std::string_view kName = "report";
  CLI::App* sub = nullptr;
  PlanCli plan;
  bool no_plain = false, no_variants = false;
  std::string variants_rounds = "100000", max_bound = "0";
  void add(CLI::App& app);
  [[nodiscard]] Command build(const Args& args) const;
};

/// Every command's table; the command list (command_list.hpp) says their order. Each binds
/// CLI11 to its own members: construct in place, never move or copy after add().
using CommandTables = std::tuple<ReportCli, CheckCli, CompareCli, StateCli, InfoCli, VariantsCli, MatrixCli, MonitorCli,
                                 MeasureCli, AnalyzeCli, SimulateCli>;

}  // namespace tscaudit::cli
