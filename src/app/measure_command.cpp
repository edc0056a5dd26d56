#include "app/measure_command.hpp"
#include "measure/pair_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>

#include "app/stop_signals.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "estimate/quantum.hpp"
#include "formats/run_format.hpp"
#include "io/output_file.hpp"
#include "pair/analyze.hpp"
#include "pair/summary.hpp"
#include "platform/affinity.hpp"
#include "platform/counter.hpp"
#include "platform/platform.hpp"
#include "render/text_wrap.hpp"
#include "render/verdict_text.hpp"
#include "version.hpp"

namespace tscaudit {
namespace {

std::string per_million(std::uint64_t n, std::uint64_t total) {
  return format_sig(static_cast<double>(n) * 1e6 / static_cast<double>(total), 3) + " per million";
}

}  // namespace

int run_measure(const MeasureOptions& options) {
  ExchangeConfig config = options.config;
  // SIGINT and SIGTERM end the measuring at the next chunk edge (any thread may take the
  // signal: the handler only records it); the rounds done are written, status interrupted.
  const StopSignals signals;
  config.stop = &StopSignals::flag();
  const CpuAvailability cpus = read_cpu_availability();
  for (int cpu : {config.cpu_a, config.cpu_b}) {
    if (auto problem = cpu_problem(cpu, cpus)) throw UsageError(*problem);
  }
  const PlatformFacts platform = probe_platform();
  require_supported_variants(options.choice, platform);
  if (platform.emulation) std::cerr << wrap_lines("tscaudit measure: warning: emulated: " + *platform.emulation + "\n");
  // Opened before measuring: an output that cannot be created fails in a moment, not
  // after the whole run.
  OutputFile out(options.out);

  Metadata header = run_header(platform, options.choice, config.cpu_a, config.cpu_b, options.command_line);
  header.set("rounds", std::to_string(config.rounds));
  header.set("warmup", std::to_string(config.warmup));
  header.set("chunk_rounds", std::to_string(kChunkRounds));
  header.set("timeout_ms", std::to_string(config.timeout.count()));
  header.set("start_utc", format_utc(std::chrono::system_clock::now()));

  const ExchangeResult result = run_exchange(options.choice, config);

  Run run = assemble_run(result, config);
  const QuantumEstimate qa = estimate_quantum(result.a.quantum_reads);
  const QuantumEstimate qb = estimate_quantum(result.b.quantum_reads);
  header.set("quantum_ticks", std::to_string(std::max(qa.quantum_ticks, qb.quantum_ticks)));
  header.set("quantum_ticks_a", std::to_string(qa.quantum_ticks));
  header.set("quantum_ticks_b", std::to_string(qb.quantum_ticks));
  header.set("flags", std::string(kFlagLegend));
  run.header = std::move(header);
  Metadata trailer;
  trailer.set("end_utc", format_utc(std::chrono::system_clock::now()));
  for (const auto& [k, v] : run.trailer.entries()) trailer.set(k, v);
  // A signal after the last round leaves the run complete; one that ended it, interrupted.
  const int signal = result.error == kInterruptedError ? StopSignals::caught() : 0;
  if (signal != 0) {
    trailer.set("error", "interrupted by " + signal_name(signal) + " after " + std::to_string(run.rounds.size()) +
                             " of " + std::to_string(config.rounds) + " rounds");
  }
  if (signal != 0 && run.rounds.empty()) {
    // A file without rounds would be refused by every reader: nothing is kept.
    std::cerr << "tscaudit measure: interrupted by " << signal_name(signal)
              << " before the first measured round: nothing written\n";
    return kExitRuntime;
  }
  const bool complete = !run.trailer.get("error").has_value();
  trailer.set("status", complete ? std::string(kStatusComplete) : signal != 0 ? "interrupted" : "aborted");
  run.trailer = std::move(trailer);

  write_run(run, [&](std::string_view text) { out.write(text); });
  out.commit();

  // The human summary, its answer first: what was measured and where it went. On standard
  // output when the rounds went to a file; on stderr when they went to standard output.
  const double hz = platform.tsc.hz;
  const std::string where = options.out == "-" ? std::string("standard output") : printable_text(options.out);
  const std::string status = signal != 0 ? "interrupted" : complete ? "complete" : "aborted";
  std::string text =
      "tscaudit measure: " +
      (complete ? std::to_string(run.rounds.size()) + (run.rounds.size() == 1 ? " round" : " rounds")
                : std::to_string(run.rounds.size()) + " of " + std::to_string(config.rounds) + " rounds") +
      " of CPU " + std::to_string(config.cpu_a) + " -> CPU " + std::to_string(config.cpu_b) + " (status: " + status +
      ") written to " + where + "\n";
  text += "  reads         send " + std::string(variant_name(options.choice.send)) + ", recv " +
          std::string(variant_name(options.choice.recv)) + ", " +
          std::string(transport_name(options.choice.transport)) + " transport\n";
  if (!run.rounds.empty()) {
    const RunSummary s = summarize(run.rounds);
    const double seconds = static_cast<double>(s.span_ticks) / hz;
    text += "  rounds        " + std::to_string(s.rounds) + " (" +
            format_sig(static_cast<double>(s.rounds) / seconds / 1e6, 3) + " M rounds/s)\n";
    text += "  rtt           min " + ticks_with_ns(static_cast<double>(s.rtt_min_ticks), hz) + ", median " +
            ticks_with_ns(static_cast<double>(s.rtt_p50_ticks), hz) + "\n";
    text += "  one-way < 0   fwd " + std::to_string(s.fwd_negative) + " (" + per_million(s.fwd_negative, s.rounds) +
            ", min " + std::to_string(s.fwd_min_ticks) + " ticks), rev " + std::to_string(s.rev_negative) + " (" +
            per_million(s.rev_negative, s.rounds) + ", min " + std::to_string(s.rev_min_ticks) + " ticks)\n";
    text += "  rtt < 0       " + std::to_string(s.rtt_negative) + (s.rtt_negative == 1 ? " round" : " rounds") +
            " (no offset explains these: a receive read ran early)\n";
    const auto trailer_value = [&](const char* key) { return std::string(run.trailer.get(key).value_or("?")); };
    text += "  interference  " + trailer_value("chunks_with_switches_a") + "+" +
            trailer_value("chunks_with_switches_b") + " of " + trailer_value("chunks") +
            " chunks with context switches (a+b), " + trailer_value("chunks_with_migration") + " with migration; " +
            std::to_string(s.stalls) + (s.stalls == 1 ? " stall" : " stalls") + " (rounds of rtt > " +
            std::to_string(kStallRttFactor) + " x the median)\n";
  }
  if (!run.rounds.empty()) {
    // The same analysis `analyze` runs on the saved file, here on the rounds in memory.
    const PairAnalysis analysis = analyze_run(run, options.out);
    const HardBand& band = analysis.fit.band;
    text += "  verdict       " + verdict_text(analysis.verdict) + "\n";
    text += "  offset        " + ticks_with_ns_if_coarse(analysis.fit.line.offset_ticks, hz);
    if (band.feasible) {
      text += ", band " + format_range(band.offset_lo_ticks, band.offset_hi_ticks) + " ticks" +
              band_ns_if_coarse(band.offset_lo_ticks, band.offset_hi_ticks, hz);
    }
    text += "\n";
  }
  text += "  quantum       " + ticks_with_ns_if_coarse(static_cast<double>(qa.quantum_ticks), hz) + " on CPU " +
          std::to_string(config.cpu_a) + ", " + ticks_with_ns_if_coarse(static_cast<double>(qb.quantum_ticks), hz) +
          " on CPU " + std::to_string(config.cpu_b) + "; " + std::string(counter_name(counter::kHostArch)) + " " +
          format_sig(hz / 1e6, 7) + " MHz (" + platform.tsc.source + ")\n";
  if (!complete)
    text +=
        std::string(signal != 0 ? "  INTERRUPTED: " : "  ABORTED: ") + std::string(*run.trailer.get("error")) + "\n";
  (options.out == "-" ? std::cerr : std::cout) << wrap_lines(text) << std::flush;
  return complete ? kExitOk : kExitRuntime;
}

}  // namespace tscaudit
