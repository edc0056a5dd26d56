// Fuzz harness of the state file's reader (analysis/formats/state_file.hpp). Findings:
//  - a crash, a sanitizer report, any exception (decode_state throws nothing but bad_alloc,
//    and a state file is at most 16 MiB of counts it checks against its size);
//  - a refusal whose message is empty, or not one line of printable ASCII;
//  - a state read that encode_state does not write back to bytes that read as the same
//    values (and then to the same bytes again);
//  - on a state read, the table's answers out of their contract (order/order.hpp): a band
//    with NaN or lo > hi, an order that does not turn when its stamps are given the other
//    way round, `known` for a CPU without a band; or a standing (published_state.hpp) whose
//    reason is empty for a status other than current, or not empty for current.
// Each input is read as it is, and again with its size and checksum fields made right.
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/state_file.hpp"
#include "fuzz_support.hpp"
#include "order/order.hpp"
#include "order/published_state.hpp"

namespace {

using tscaudit::fuzz::finding;

constexpr std::string_view kTarget = "state_file";

std::uint64_t bits(double v) { return std::bit_cast<std::uint64_t>(v); }

bool same(const tscaudit::PublishedState& a, const tscaudit::PublishedState& b) {
  if (a.verdict != b.verdict || a.from != b.from || bits(a.bound_ns) != bits(b.bound_ns) ||
      bits(a.tolerance_ns) != bits(b.tolerance_ns) || bits(a.valid_seconds) != bits(b.valid_seconds) ||
      a.reason != b.reason || a.boottime_ns != b.boottime_ns || a.realtime_ns != b.realtime_ns ||
      a.monotonic_ns != b.monotonic_ns || a.monotonic_raw_ns != b.monotonic_raw_ns || a.boot_id != b.boot_id ||
      a.clocksource != b.clocksource || a.online_cpus != b.online_cpus) {
    return false;
  }
  const tscaudit::CounterTable& x = a.table;
  const tscaudit::CounterTable& y = b.table;
  if (x.reference_cpu != y.reference_cpu || bits(x.counter_hz) != bits(y.counter_hz) ||
      x.quantum_ticks != y.quantum_ticks || x.as_of_counter != y.as_of_counter || x.known() != y.known() ||
      x.bands.size() != y.bands.size()) {
    return false;
  }
  for (std::size_t i = 0; i < x.bands.size(); ++i) {
    const tscaudit::CpuCounterBand& p = x.bands[i];
    const tscaudit::CpuCounterBand& q = y.bands[i];
    if (p.cpu != q.cpu) return false;
    if (p.cpu < 0) continue;
    if (bits(p.offset_lo_ticks) != bits(q.offset_lo_ticks) || bits(p.offset_hi_ticks) != bits(q.offset_hi_ticks) ||
        bits(p.drift_lo_ppb) != bits(q.drift_lo_ppb) || bits(p.drift_hi_ppb) != bits(q.drift_hi_ppb)) {
      return false;
    }
  }
  return true;
}

/// The table's answers at counters around its moment, at the ends of the counter and at
/// `salt` (bytes of the input), for its first CPUs and one it has no band for.
void check_answers(const tscaudit::PublishedState& state, std::uint64_t salt) {
  const tscaudit::CounterTable& t = state.table;
  const std::uint64_t at = t.as_of_counter;
  const std::uint64_t counters[] = {at, at + 1, at - 1, at + (1ULL << 40), at - (1ULL << 40),
                                    0,  ~0ULL,  salt,   at + salt % 100000};
  std::vector<int> cpus = {-1, static_cast<int>(t.bands.size())};
  for (const tscaudit::CpuCounterBand& b : t.bands) {
    if (b.cpu >= 0 && cpus.size() < 8) cpus.push_back(b.cpu);
  }
  for (const int cpu : cpus) {
    for (const std::uint64_t c : counters) {
      tscaudit::TickBand band{};
      const bool has = tscaudit::offset_at(t, cpu, c, band);
      if (has && t.band_of(cpu) == nullptr) finding(kTarget, "a band for a CPU the table does not know");
      if (has && !(band.lo_ticks <= band.hi_ticks)) finding(kTarget, "a band with NaN or lo > hi");
    }
  }
  for (const int a : cpus) {
    for (const int b : cpus) {
      for (const std::uint64_t x : counters) {
        const std::uint64_t y = x + salt % 4096 - 2048;
        bool known_ab = false;
        bool known_ba = false;
        const int ab = tscaudit::order_of(t, a, x, b, y, known_ab);
        const int ba = tscaudit::order_of(t, b, y, a, x, known_ba);
        if (ab != -ba || known_ab != known_ba) finding(kTarget, "an order that does not turn with its stamps");
        if (known_ab && (t.band_of(a) == nullptr || t.band_of(b) == nullptr)) {
          finding(kTarget, "an order known for a CPU without a band");
        }
        if (!known_ab && ab != 0) finding(kTarget, "an order not known but not 0");
      }
    }
  }
  tscaudit::MachineNow now;
  now.boot_id = state.boot_id;
  now.clocksource = state.clocksource;
  now.online_cpus = state.online_cpus;
  now.have_clocks = true;
  // The clocks some time on (wrapping where the state's are near the ends of int64: the
  // harness itself must not overflow).
  const auto on = [](std::int64_t v, std::uint64_t by) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(v) + by);
  };
  now.boottime_ns = on(state.boottime_ns, salt % 1'000'000'000'000);
  now.monotonic_ns = on(state.monotonic_ns, salt % 999'999'999'999);
  now.monotonic_raw_ns = on(state.monotonic_raw_ns, salt % 1'000'000'000'001);
  now.have_counter = true;
  now.counter = t.as_of_counter + salt;
  const tscaudit::StateStanding standing = tscaudit::state_standing(state, now);
  if ((standing.status == tscaudit::StateStatus::current) != standing.reason.empty()) {
    finding(kTarget, "a standing whose reason does not match its status: '" + standing.reason + "'");
  }
}

/// Reads `bytes` and holds the reader to its contract (see the top of this file).
void check(std::span<const std::uint8_t> bytes) {
  tscaudit::PublishedState state;
  std::string error;
  if (!tscaudit::decode_state(bytes, state, error)) {
    if (error.empty()) finding(kTarget, "a refusal without a message");
    for (const char c : error) {
      if (c < 0x20 || c > 0x7e) finding(kTarget, "a refusal that is not one line of printable ASCII: " + error);
    }
    return;
  }
  const std::vector<std::uint8_t> again = tscaudit::encode_state(state);
  tscaudit::PublishedState back;
  if (!tscaudit::decode_state(again, back, error)) {
    finding(kTarget, "encode_state wrote a state that decode_state refuses: " + error);
  }
  if (!same(state, back)) finding(kTarget, "a state read, written and read again has other values");
  if (tscaudit::encode_state(back) != again) finding(kTarget, "a state written twice gives other bytes");
  std::uint64_t salt = 0;
  for (int i = 0; i < 8; ++i) salt |= static_cast<std::uint64_t>(bytes[24 + static_cast<std::size_t>(i)]) << (8 * i);
  check_answers(state, salt);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  check(bytes);
  // The same bytes with their size and checksum made right, as a writer would have made
  // them: a mutation of any field then reaches the field's own check, past the checksum
  // that refuses almost every mutated file.
  if (size >= 32) {
    std::vector<std::uint8_t> sealed(bytes.begin(), bytes.end());
    for (int i = 0; i < 8; ++i) sealed[16 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(size >> (8 * i));
    const std::uint64_t sum = tscaudit::state_checksum(sealed);
    for (int i = 0; i < 8; ++i) sealed[24 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(sum >> (8 * i));
    check(sealed);
  }
  return 0;
}
