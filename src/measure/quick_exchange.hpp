// The quick check's exchange (docs/machine.md §10.7): the ping-pong of ping_pong.hpp between
// the pairs of one slot at once, each pair in blocks of kQuickBlockRounds rounds until its
// band settles (BandSettling), its rounds run out or the slot's deadline passes.
//
// b's reply carries t2 as well as t3 (ReplySlot), so that a holds whole rounds and judges the
// drift-free band [max(t3 - t4), min(t2 - t1)] after every block without stopping. When a is
// done it sends one more request whose stamp is kQuickStopStamp; b answers it and ends, so
// that neither thread waits out a timeout.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/run.hpp"
#include "measure/ping_pong.hpp"
#include "measure/variant.hpp"

namespace tscaudit {

/// One ordered pair of a slot: a initiates, b responds.
struct QuickPairConfig : PairConfig {
  std::uint64_t warmup = 64;                         // rounds run first and discarded
  std::uint64_t max_rounds = 0;                      // measured rounds at most (> 0)
  std::uint64_t min_blocks = 4;                      // blocks before the band may be judged settled
  std::chrono::steady_clock::time_point deadline{};  // no block begins after it
};

struct QuickPairResult {
  int a = 0;
  int b = 0;
  std::vector<Round> rounds;        // the measured rounds, seq from 0
  std::uint64_t quantum_ticks = 1;  // the larger of the two sides' quanta
  bool settled = false;             // the band settled (else the rounds or the time ran out)
  std::string error;                // why the pair stopped early; empty when it did not
  bool pinning_refused = false;     // the error is that a thread could not be pinned
};

/// Measures every pair of `pairs` at once, on two new threads each, with `send` and `recv`,
/// and joins them. Never hangs: a partner that stops answering ends its pair after the
/// pair's timeout. \pre the pairs' CPUs are distinct, exist and may be used; the variants
/// are this machine's. \throws std::bad_alloc, std::system_error (thread creation).
std::vector<QuickPairResult> run_quick_slot(const std::vector<QuickPairConfig>& pairs, Variant send, Variant recv);

}  // namespace tscaudit
