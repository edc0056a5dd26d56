// Writes the state files the library's tests open (tests/lib/lib_test.sh, modes state and
// state-hostile): the fixture of state_fixture.h for this machine now, through the tool's own
// encoder (formats/state_file.hpp) and writer (io/output_file.hpp: aside, then renamed), and
// from it each kind of file a reader may meet.
//   tscaudit_test_state_writer KIND FILE
// KIND: current, other-boot, no-boot, cpus (an online CPU more than the machine has),
// clocksource, aged, truncated, torn, major, garbage, empty; or
//   tscaudit_test_state_writer versions DIR N   DIR/v0 .. v(N-1): the fixture with bound_ns
//                                               FIXTURE_BOUND_NS + i (the republishing test)
// Prints the fixture's moment and CPUs ("as_of_counter N cpus C0 C1 ..."), from which a test
// makes stamps whose order it knows. Exit 0 written; 2 with a message otherwise.
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "formats/state_file.hpp"
#include "io/output_file.hpp"
#include "order/published_state.hpp"
#include "platform/machine_now.hpp"
#include "state_fixture.h"

namespace {

using tscaudit::PublishedState;

/// The fixture: this machine's facts now, the made-up table of state_fixture.h. CLOCK_
/// MONOTONIC_RAW is left unknown (0), so the rate test of the standing never runs: the
/// fixture's counter_hz is not this counter's.
PublishedState fixture() {
  const tscaudit::MachineNow now = tscaudit::read_machine_now();
  if (now.online_cpus.empty() || !now.have_clocks) throw std::runtime_error("the online CPUs or the clocks cannot be read");
  PublishedState s;
  s.verdict = tscaudit::PublishedVerdict::synchronized;
  s.from = tscaudit::PublishedFrom::quick;
  s.bound_ns = FIXTURE_BOUND_NS;
  s.tolerance_ns = FIXTURE_TOLERANCE_NS;
  s.reason = FIXTURE_REASON;
  s.boottime_ns = now.boottime_ns;
  s.realtime_ns = now.realtime_ns;
  s.monotonic_ns = now.monotonic_ns;
  s.monotonic_raw_ns = 0;
  s.boot_id = now.boot_id;
  s.clocksource = now.clocksource;
  s.online_cpus = now.online_cpus;
  tscaudit::CounterTable& t = s.table;
  t.reference_cpu = now.online_cpus.front();
  t.counter_hz = FIXTURE_COUNTER_HZ;
  t.quantum_ticks = FIXTURE_QUANTUM_TICKS;
  t.as_of_counter = now.counter;
  t.bands.resize(static_cast<std::size_t>(now.online_cpus.back()) + 1);
  for (std::size_t k = 0; k < now.online_cpus.size(); ++k) {
    const int cpu = now.online_cpus[k];
    tscaudit::CpuCounterBand& b = t.bands[static_cast<std::size_t>(cpu)];
    b.cpu = cpu;
    if (k == 0) continue;
    const double mid = static_cast<double>(k) * FIXTURE_STEP_TICKS;
    b.offset_lo_ticks = mid - FIXTURE_HALF_TICKS;
    b.offset_hi_ticks = mid + FIXTURE_HALF_TICKS;
    b.drift_lo_ppb = -FIXTURE_DRIFT_PPB;
    b.drift_hi_ppb = FIXTURE_DRIFT_PPB;
  }
  s.valid_seconds = tscaudit::valid_seconds_of(t, FIXTURE_TOLERANCE_NS * FIXTURE_COUNTER_HZ * 1e-9);
  return s;
}

void put_u16(std::vector<std::uint8_t>& b, std::size_t at, std::uint16_t v) {
  b[at] = static_cast<std::uint8_t>(v & 0xff);
  b[at + 1] = static_cast<std::uint8_t>(v >> 8);
}

void put_u64(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v) {
  for (std::size_t i = 0; i < 8; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

void write(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  tscaudit::write_text_file(path, {reinterpret_cast<const char*>(bytes.data()), bytes.size()});
}

std::vector<std::uint8_t> bytes_of(std::string_view kind) {
  PublishedState s = fixture();
  std::cout << "as_of_counter " << s.table.as_of_counter << " cpus";
  for (int c : s.online_cpus) std::cout << " " << c;
  std::cout << "\n";
  if (kind == "current") return tscaudit::encode_state(s);
  if (kind == "other-boot") {
    s.boot_id[0] ^= 0xff;  // another boot's id: any other 16 bytes
    return tscaudit::encode_state(s);
  }
  if (kind == "no-boot") {
    s.boot_id = {};
    return tscaudit::encode_state(s);
  }
  if (kind == "cpus") {
    s.online_cpus.push_back(s.online_cpus.back() + 1);  // a CPU online then that is not now
    return tscaudit::encode_state(s);
  }
  if (kind == "clocksource") {
    s.clocksource = "test-clock";
    return tscaudit::encode_state(s);
  }
  if (kind == "aged") {
    // An hour earlier on both clocks (no suspend between), valid for a minute.
    s.boottime_ns -= 3600'000'000'000;
    s.monotonic_ns -= 3600'000'000'000;
    s.valid_seconds = 60;
    return tscaudit::encode_state(s);
  }
  std::vector<std::uint8_t> b = tscaudit::encode_state(s);
  if (kind == "truncated") {
    b.resize(b.size() - 7);
  } else if (kind == "torn") {
    b[200] ^= 0x5a;  // within the reason: the size is right, the checksum is not
  } else if (kind == "major") {
    put_u16(b, 8, tscaudit::kStateMajor + 1);
    put_u64(b, 24, tscaudit::state_checksum(b));  // whole and sound, of a newer major
  } else if (kind == "garbage") {
    std::uint64_t x = 0x9e3779b97f4a7c15ULL;  // a fixed sequence: the same garbage every run
    for (std::uint8_t& byte : b) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      byte = static_cast<std::uint8_t>(x);
    }
  } else if (kind == "empty") {
    b.clear();
  } else {
    throw std::runtime_error("unknown kind '" + std::string(kind) + "'");
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc == 4 && std::string_view(argv[1]) == "versions") {
      const int n = std::atoi(argv[3]);
      PublishedState s = fixture();
      for (int i = 0; i < n; ++i) {
        s.bound_ns = FIXTURE_BOUND_NS + i;
        write(std::string(argv[2]) + "/v" + std::to_string(i), tscaudit::encode_state(s));
      }
      return 0;
    }
    if (argc != 3) {
      std::cerr << "usage: " << argv[0] << " KIND FILE | versions DIR N\n";
      return 2;
    }
    write(argv[2], bytes_of(argv[1]));
    return 0;
  } catch (const std::exception& e) {
    std::cerr << argv[0] << ": " << e.what() << "\n";
    return 2;
  }
}
