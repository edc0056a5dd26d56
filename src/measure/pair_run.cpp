#include "measure/pair_run.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "estimate/quantum.hpp"
#include "formats/run_format.hpp"
#include "pair/summary.hpp"
#include "version.hpp"

namespace tscaudit {
namespace {

/// The edge snapshot that closes chunk `c`: the next edge if the thread got there,
/// otherwise the final snapshot taken after its last round.
const ThreadSnapshot& closing_edge(const SideRecord& side, std::size_t c, std::size_t last_filled) {
  return c + 1 <= last_filled ? side.edges[c + 1] : side.edges.back();
}

}  // namespace

Run assemble_run(const ExchangeResult& result, const ExchangeConfig& config) {
  Run run;
  const std::uint64_t done = std::min(result.a.rounds_done, result.b.rounds_done);
  const std::uint64_t first = std::min(done, config.warmup);
  run.rounds.reserve(done - first);
  const SideRecord& a = result.a;
  const SideRecord& b = result.b;

  // Chunk flags. Edges 0..(done-1)/K were taken by both threads (a takes edge c before
  // round c*K, b inside round c*K); the last edge is the final snapshot.
  std::vector<std::uint32_t> chunk_flags;
  std::uint64_t chunks_switched_a = 0, chunks_switched_b = 0, chunks_migrated = 0;
  if (done > 0 && !a.edges.empty() && !b.edges.empty()) {
    const std::size_t chunks = static_cast<std::size_t>((done + kChunkRounds - 1) / kChunkRounds);
    const std::size_t last_filled = chunks - 1;
    chunk_flags.assign(chunks, 0);
    for (std::size_t c = 0; c < chunks; ++c) {
      const ThreadSnapshot& a0 = a.edges[c];
      const ThreadSnapshot& a1 = closing_edge(a, c, last_filled);
      const ThreadSnapshot& b0 = b.edges[c];
      const ThreadSnapshot& b1 = closing_edge(b, c, last_filled);
      std::uint32_t f = 0;
      if (a1.context_switches > a0.context_switches) f |= kFlagSwitchA;
      if (b1.context_switches > b0.context_switches) f |= kFlagSwitchB;
      if (a0.cpu != config.cpu_a || a1.cpu != config.cpu_a || b0.cpu != config.cpu_b || b1.cpu != config.cpu_b) {
        f |= kFlagMigrated;
      }
      chunk_flags[c] = f;
      chunks_switched_a += (f & kFlagSwitchA) != 0;
      chunks_switched_b += (f & kFlagSwitchB) != 0;
      chunks_migrated += (f & kFlagMigrated) != 0;
    }
  }

  std::uint64_t sum_t1 = 0, sum_t3 = 0;
  for (std::uint64_t i = 0; i < done; ++i) {
    sum_t1 += a.first[i];
    sum_t3 += b.second[i];
    if (i < first) continue;
    run.rounds.push_back(
        Round{i - first, a.first[i], b.first[i], b.second[i], a.second[i], chunk_flags[i / kChunkRounds]});
  }
  const std::uint64_t stalls = flag_stalls(run.rounds);

  // Every TSC value that crossed must have arrived intact: b received each t1 and a
  // each t3. Wrapping sums over the rounds both sides completed.
  const bool payload_ok = a.payload_sum == sum_t3 && b.payload_sum == sum_t1;

  run.trailer.set("rounds_written", std::to_string(run.rounds.size()));
  run.trailer.set("chunks", std::to_string(chunk_flags.size()));
  run.trailer.set("chunks_with_switches_a", std::to_string(chunks_switched_a));
  run.trailer.set("chunks_with_switches_b", std::to_string(chunks_switched_b));
  run.trailer.set("chunks_with_migration", std::to_string(chunks_migrated));
  run.trailer.set("stall_rounds", std::to_string(stalls));
  run.trailer.set("payload_check", payload_ok ? "ok" : "mismatch");
  std::string error = result.error;
  if (error.empty() && !payload_ok) error = "a TSC value arrived altered (payload checksum mismatch)";
  // A run ended at its deadline is complete, with the rounds it had time for.
  if (error.empty() && done < config.total_rounds() && !result.a.deadline_reached) error = "fewer rounds than asked for";
  if (result.a.deadline_reached) run.trailer.set("ended_at_deadline", "yes");
  if (!error.empty()) run.trailer.set("error", error);
  return run;
}

void require_supported_variants(const ExchangeChoice& choice, const PlatformFacts& platform) {
  for (Variant v : {choice.send, choice.recv}) {
    if (auto why = variant_unsupported(v, platform)) {
      throw UnsupportedError("variant " + std::string(variant_name(v)) + " cannot run here: " + *why);
    }
  }
}

Metadata run_header(const PlatformFacts& platform, const ExchangeChoice& choice, int cpu_a, int cpu_b,
                    const std::string& command_line) {
  Metadata header;
  header.set("schema", std::string(kRunSchema));
  header.set("tool_version", std::string(kToolVersion));
  header.set("command", command_line);
  add_platform_metadata(platform, header);
  header.set("a", std::to_string(cpu_a));
  header.set("b", std::to_string(cpu_b));
  header.set("send", std::string(variant_name(choice.send)));
  header.set("recv", std::string(variant_name(choice.recv)));
  header.set("transport", std::string(transport_name(choice.transport)));
  return header;
}

std::uint64_t visit_quantum_ticks(const ExchangeResult& result) {
  std::uint64_t quantum_ticks = 1;
  for (const SideRecord* side : {&result.a, &result.b}) {
    quantum_ticks = std::max(quantum_ticks, estimate_quantum(side->quantum_reads).quantum_ticks);
  }
  return quantum_ticks;
}

std::optional<std::string> append_visit(VisitsRun& d, const ExchangeResult& result, const ExchangeConfig& config) {
  Run visit = assemble_run(result, config);
  const std::uint64_t first_seq = d.run.rounds.size();
  // seq counts on across the visits (at most 1000 visits of 20 M rounds: far below kMaxSeq).
  for (const Round& r : visit.rounds) d.run.rounds.push_back(Round(first_seq + r.seq, r.t1, r.t2, r.t3, r.t4, r.flags));
  d.quantum_ticks = std::max(d.quantum_ticks, visit_quantum_ticks(result));
  if (auto error = visit.trailer.get("error")) return std::string(*error);
  return std::nullopt;
}

void finish_visits_run(VisitsRun& d, const PlatformFacts& platform, const ExchangeChoice& choice,
                       const std::string& command_line, std::uint64_t visits, std::uint64_t rounds_per_visit,
                       std::uint64_t warmup) {
  Metadata header = run_header(platform, choice, d.a, d.b, command_line);
  header.set("rounds", std::to_string(visits * rounds_per_visit));
  header.set("visits", std::to_string(visits));
  header.set("rounds_per_visit", std::to_string(rounds_per_visit));
  header.set("warmup", std::to_string(warmup));
  header.set("quantum_ticks", std::to_string(d.quantum_ticks));
  header.set("flags", std::string(kFlagLegend));
  d.run.header = std::move(header);
  d.run.trailer.set("rounds_written", std::to_string(d.run.rounds.size()));
  if (d.errors.empty()) {
    d.run.trailer.set("status", std::string(kStatusComplete));
  } else {
    std::string all;
    for (const std::string& e : d.errors) all += (all.empty() ? "" : "; ") + e;
    d.run.trailer.set("error", all);
    d.run.trailer.set("status", "aborted");
  }
}

}  // namespace tscaudit
