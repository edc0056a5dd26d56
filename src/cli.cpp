#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <iostream>

#include "cpu_list.hpp"
#include "errors.hpp"
#include "version.hpp"

namespace tscsync::cli {
namespace {

/// Rounds are kept in memory until the run ends (32 bytes recorded, 48 assembled).
constexpr std::uint64_t kMaxRounds = 20'000'000;
constexpr std::uint64_t kMaxTimeoutMs = 3'600'000;

Variant variant_option(const std::string& option, const std::string& text) {
  if (auto v = parse_variant(text)) return *v;
  throw UsageError("unknown variant '" + text + "' for " + option + " (choose from " + variant_list() + ")");
}

}  // namespace

std::uint64_t parse_count(const std::string& option, const std::string& text, std::uint64_t min,
                          std::uint64_t max) {
  std::uint64_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(first, last, value);
  const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (text.empty() || ec == std::errc::invalid_argument || ptr != last) {
    throw UsageError(option + " '" + text + "' is not an unsigned decimal number (expected one in " + range + ")");
  }
  if (ec == std::errc::result_out_of_range || value < min || value > max) {
    throw UsageError(option + " " + text + " is out of range " + range);
  }
  return value;
}

std::string quote_command_line(const std::vector<std::string>& args) {
  std::string out;
  for (const std::string& a : args) {
    if (!out.empty()) out += ' ';
    const bool plain = !a.empty() && a.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,=:+") ==
                                         std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) {
      if (c == '\'') {
        out += "'\\''";
      } else {
        out += c;
      }
    }
    out += '\'';
  }
  return out;
}

Command parse(const std::vector<std::string>& args) {
  CLI::App app{"tscsync: are the time stamp counters of all CPUs in this machine synchronized?"};
  app.set_version_flag("--version", std::string(kToolVersion));
  app.require_subcommand(1);

  std::string info_format = "text";
  CLI::App* info = app.add_subcommand("info", "Platform facts: CPU, TSC features, hypervisor, clocksource, "
                                              "TSC frequency and its source, quantum per CPU");
  info->add_option("--format", info_format, "text or json")->capture_default_str();

  std::string cpus, variant, send, recv, transport = "slot", out;
  std::string rounds = "1000000", warmup = "10000", timeout_ms = "2000";
  CLI::App* measure = app.add_subcommand(
      "measure", "Measure one ordered pair of CPUs: A initiates, B responds; every round is saved");
  measure->add_option("--cpus", cpus, "A,B: the initiator and the responder (A,A: same-CPU control)")->required();
  measure->add_option("--variant", variant, "read variant for both sides (" + variant_list() + ")");
  measure->add_option("--send", send, "read variant for the send stamps t1, t3 (default rdtsc)");
  measure->add_option("--recv", recv, "read variant for the receive stamps t2, t4 (default lfence_rdtsc)");
  measure->add_option("--rounds", rounds, "measured rounds, at most 20000000")->capture_default_str();
  measure->add_option("--warmup", warmup, "rounds run first and discarded")->capture_default_str();
  measure->add_option("--transport", transport, "slot (one cache line) or queue (boost::lockfree::spsc_queue)")
      ->capture_default_str();
  measure->add_option("--timeout-ms", timeout_ms, "longest wait for the partner's message before the run is aborted")
      ->capture_default_str();
  measure->add_option("--out", out, "output file, or - for standard output")->required();

  // CLI11 would call an unknown first word "not expected" or ask for a subcommand.
  if (args.size() > 1 && !args[1].empty() && args[1][0] != '-') {
    try {
      app.get_subcommand(args[1]);
    } catch (const CLI::OptionNotFound&) {
      throw UsageError("unknown command '" + args[1] + "' (commands: info, measure)");
    }
  }
  std::vector<std::string> argv_rest(args.begin() + 1, args.end());
  std::reverse(argv_rest.begin(), argv_rest.end());  // CLI11 takes the arguments reversed
  try {
    app.parse(argv_rest);
  } catch (const CLI::CallForHelp& e) {
    std::cout << (app.get_subcommands().empty() ? app.help() : app.get_subcommands().front()->help());
    return Printed{};
  } catch (const CLI::CallForVersion&) {
    std::cout << "tscsync " << kToolVersion << "\n";
    return Printed{};
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }

  if (info->parsed()) {
    InfoCommand cmd;
    if (info_format == "json") {
      cmd.format = OutputFormat::json;
    } else if (info_format != "text") {
      throw UsageError("--format '" + info_format + "' is not text or json");
    }
    return cmd;
  }

  MeasureOptions m;
  m.command_line = quote_command_line(args);
  const std::vector<int> pair = parse_cpu_list(cpus);
  if (pair.size() != 2) {
    throw UsageError("--cpus '" + cpus + "' names " + std::to_string(pair.size()) +
                     " CPUs; measure takes exactly two, A,B (A initiates)");
  }
  m.config.cpu_a = pair[0];
  m.config.cpu_b = pair[1];
  if (!variant.empty() && (!send.empty() || !recv.empty())) {
    throw UsageError("give --variant (both sides) or --send/--recv, not both");
  }
  if (!variant.empty()) {
    m.choice.send = m.choice.recv = variant_option("--variant", variant);
  }
  if (!send.empty()) m.choice.send = variant_option("--send", send);
  if (!recv.empty()) m.choice.recv = variant_option("--recv", recv);
  if (auto t = parse_transport(transport)) {
    m.choice.transport = *t;
  } else {
    throw UsageError("unknown transport '" + transport + "' (choose slot or queue)");
  }
  m.config.rounds = parse_count("--rounds", rounds, 1, kMaxRounds);
  m.config.warmup = parse_count("--warmup", warmup, 0, kMaxRounds);
  m.config.timeout = std::chrono::milliseconds(parse_count("--timeout-ms", timeout_ms, 1, kMaxTimeoutMs));
  m.out = out;
  return m;
}

}  // namespace tscsync::cli
