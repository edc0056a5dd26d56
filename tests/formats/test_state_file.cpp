// The state file (formats/state_file.hpp): a full state read back field by field, the exact
// bytes of a small one (the layout the header documents, worked out byte by byte apart from
// the encoder: a change of the layout fails here), every refusal with its message, and a
// later minor version with a larger header and larger records read as this one.
#include <catch2/catch.hpp>

#include "float_bits.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "formats/state_file.hpp"

using namespace tscaudit;

namespace {

using tscaudit::testing::bits;

/// Every field set, none at its default; bands for CPUs 0, 1, 3 and 5 (holes at 2 and 4).
PublishedState full_state() {
  PublishedState s;
  s.verdict = PublishedVerdict::not_synchronized;
  s.from = PublishedFrom::quick;
  s.bound_ns = 123.5;
  s.tolerance_ns = 100;
  s.valid_seconds = std::numeric_limits<double>::infinity();
  s.reason = "CPU 5 is 4200 ns ahead of the rest (±250 ns)";
  s.boottime_ns = 5'000'000'001;
  s.realtime_ns = 1'700'000'000'123'456'789;
  s.monotonic_ns = 4'000'000'002;
  s.monotonic_raw_ns = -3;
  for (std::uint8_t i = 0; i < 16; ++i) s.boot_id[i] = static_cast<std::uint8_t>(0xf0 + i);
  s.clocksource = "tsc";
  s.online_cpus = {0, 1, 3, 5, 65535};
  CounterTable& t = s.table;
  t.reference_cpu = 0;
  t.counter_hz = 2.3e9;
  t.quantum_ticks = 26;
  t.as_of_counter = 0x8000'0000'0000'0005ULL;
  t.bands.resize(6);
  t.bands[0] = {0, 0, 0, 0, 0};
  t.bands[1] = {1, -120.5, 130.25, -10, 12.5};
  t.bands[3] = {3, 9000.125, 10100.75, 266.5, 333.75};
  t.bands[5] = {5, -1e-300, 1e300, -4.5e8, 4.5e8};
  return s;
}

/// The small state of the golden bytes below.
PublishedState small_state() {
  PublishedState s;
  s.verdict = PublishedVerdict::synchronized;
  s.from = PublishedFrom::live;
  s.bound_ns = 250;
  s.tolerance_ns = 1000;
  s.valid_seconds = 3600;
  s.reason = "synchronized to within ±250 ns";
  s.boottime_ns = 5'000'000'000;
  s.realtime_ns = 1'700'000'000'000'000'000;
  s.monotonic_ns = 4'000'000'000;
  s.monotonic_raw_ns = 3'999'000'000;
  for (std::uint8_t i = 0; i < 16; ++i) s.boot_id[i] = static_cast<std::uint8_t>(0x10 + i);
  s.clocksource = "tsc";
  s.online_cpus = {0, 1};
  s.table.reference_cpu = 0;
  s.table.quantum_ticks = 1;
  s.table.counter_hz = 2.3e9;
  s.table.as_of_counter = 1'000'000'000'000;
  s.table.bands = {{0, 0, 0, 0, 0}, {1, -120.5, 130.25, -10, 12.5}};
  return s;
}

std::string hex(const std::vector<std::uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

void put(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}
void put_f64(std::vector<std::uint8_t>& b, std::size_t at, double v) { put(b, at, std::bit_cast<std::uint64_t>(v), 8); }
/// The checksum written again, as a writer of the changed bytes would: the refusal tested is
/// then the field's, not the checksum's.
void reseal(std::vector<std::uint8_t>& b) { put(b, 24, state_checksum(b), 8); }

std::string refusal(const std::vector<std::uint8_t>& bytes) {
  PublishedState out;
  std::string error;
  CHECK_FALSE(decode_state(bytes, out, error));
  return error;
}

PublishedState decoded(const std::vector<std::uint8_t>& bytes) {
  PublishedState out;
  std::string error;
  INFO(error);
  const bool ok = decode_state(bytes, out, error);
  INFO(error);
  REQUIRE(ok);
  return out;
}

void check_same(const PublishedState& a, const PublishedState& b) {
  CHECK(a.verdict == b.verdict);
  CHECK(a.from == b.from);
  CHECK(bits(a.bound_ns) == bits(b.bound_ns));
  CHECK(bits(a.tolerance_ns) == bits(b.tolerance_ns));
  CHECK(bits(a.valid_seconds) == bits(b.valid_seconds));
  CHECK(a.reason == b.reason);
  CHECK(a.boottime_ns == b.boottime_ns);
  CHECK(a.realtime_ns == b.realtime_ns);
  CHECK(a.monotonic_ns == b.monotonic_ns);
  CHECK(a.monotonic_raw_ns == b.monotonic_raw_ns);
  CHECK(a.boot_id == b.boot_id);
  CHECK(a.clocksource == b.clocksource);
  CHECK(a.online_cpus == b.online_cpus);
  CHECK(a.table.reference_cpu == b.table.reference_cpu);
  CHECK(bits(a.table.counter_hz) == bits(b.table.counter_hz));
  CHECK(a.table.quantum_ticks == b.table.quantum_ticks);
  CHECK(a.table.as_of_counter == b.table.as_of_counter);
  CHECK(a.table.known() == b.table.known());
  for (int cpu = 0; cpu < 70000; ++cpu) {
    const CpuCounterBand* x = a.table.band_of(cpu);
    const CpuCounterBand* y = b.table.band_of(cpu);
    REQUIRE((x == nullptr) == (y == nullptr));
    if (x == nullptr) continue;
    INFO("CPU " << cpu);
    CHECK(bits(x->offset_lo_ticks) == bits(y->offset_lo_ticks));
    CHECK(bits(x->offset_hi_ticks) == bits(y->offset_hi_ticks));
    CHECK(bits(x->drift_lo_ppb) == bits(y->drift_lo_ppb));
    CHECK(bits(x->drift_hi_ppb) == bits(y->drift_hi_ppb));
  }
}

}  // namespace

TEST_CASE("state file: a full state reads back field by field, bit for bit") {
  const PublishedState s = full_state();
  const std::vector<std::uint8_t> bytes = encode_state(s);
  CHECK(bytes.size() == kStateHeaderBytes + 4 * kStateRecordBytes + 5 * 4);
  check_same(decoded(bytes), s);
  // Written again, the same bytes.
  CHECK(encode_state(decoded(bytes)) == bytes);
}

TEST_CASE("state file: the exact bytes of a small state") {
  // Worked out from the layout in state_file.hpp, field by field, with the FNV-1a 64
  // checksum over the file with its own 8 bytes as 0.
  const std::string golden =
      "545343535441544501000000c00100001802000000000000810b2b1cf683b1a7"
      "00000000000000000000000000406f400000000000408f40000000000020ac40"
      "00f2052a0100000000002a36fe9c971700286bee00000000c0e55bee00000000"
      "101112131415161718191a1b1c1d1e1f74736300000000000000000000000000"
      "0000000000000000000000000000000073796e6368726f6e697a656420746f20"
      "77697468696e20c2b1323530206e730000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000100000000000000"
      "000000e0e622e1410010a5d4e800000002000000280000000200000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "000000000000000001000000000000000000000000205ec00000000000486040"
      "00000000000024c000000000000029400000000001000000";
  const std::vector<std::uint8_t> bytes = encode_state(small_state());
  CHECK(bytes.size() == 536);
  CHECK(hex(bytes) == golden);
  CHECK(state_checksum(bytes) == 0xa7b183f61c2b0b81ULL);
  check_same(decoded(bytes), small_state());
}

TEST_CASE("state file: strings longer than their fields are cut at a character's start") {
  PublishedState s = small_state();
  // The 2-byte ± would end at byte 32, the NUL's. (Appended, not concatenated: GCC 12 warns
  // of a temporary's bounds otherwise.)
  s.clocksource.assign(30, 'x');
  s.clocksource.append("±");
  s.reason = std::string(300, 'r');
  const PublishedState back = decoded(encode_state(s));
  CHECK(back.clocksource == std::string(30, 'x'));
  CHECK(back.reason == std::string(255, 'r'));
}

TEST_CASE("state file: what is not a state file this reader can use is refused, saying why") {
  const std::vector<std::uint8_t> good = encode_state(small_state());
  CHECK(refusal({}) == "empty: not a tscaudit state file");
  CHECK(refusal({'P', 'K', 3, 4}) == "not a tscaudit state file (no \"TSCSTATE\" at its start)");
  std::vector<std::uint8_t> other = good;
  other[0] = 't';
  CHECK(refusal(other) == "not a tscaudit state file (no \"TSCSTATE\" at its start)");

  // Another major version, newer and older, whatever else the file holds.
  std::vector<std::uint8_t> newer = good;
  put(newer, 8, 2, 2);
  put(newer, 10, 3, 2);
  CHECK(refusal(newer) == "state file version 2.3: this reader reads 1.x only (written by a newer tscaudit)");
  std::vector<std::uint8_t> older = good;
  put(older, 8, 0, 2);
  older.resize(20);
  CHECK(refusal(older) == "state file version 0.0: this reader reads 1.x only");

  // Cut short: inside the magic, the version, the header, the records, the online CPUs.
  for (const std::size_t cut : {std::size_t{3}, std::size_t{8}, std::size_t{12}, std::size_t{100}, std::size_t{447}}) {
    INFO("cut at " << cut);
    CHECK(refusal(std::vector<std::uint8_t>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut))) ==
          "cut short: " + std::to_string(cut) + " bytes, less than the 448-byte header");
  }
  for (const std::size_t cut : {std::size_t{448}, std::size_t{470}, std::size_t{532}}) {
    INFO("cut at " << cut);
    CHECK(refusal(std::vector<std::uint8_t>(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut))) ==
          "cut short or torn: " + std::to_string(cut) + " bytes where its header says 536");
  }
  // Longer than it says: a file_bytes that does not match.
  std::vector<std::uint8_t> longer = good;
  longer.push_back(0);
  CHECK(refusal(longer) == "cut short or torn: 537 bytes where its header says 536");
  std::vector<std::uint8_t> says = good;
  put(says, 16, 540, 8);
  reseal(says);
  CHECK(refusal(says) == "cut short or torn: 536 bytes where its header says 540");

  // Torn or damaged: any byte flipped, the checksum's own included.
  for (const std::size_t at :
       {std::size_t{24}, std::size_t{40}, std::size_t{200}, std::size_t{500}, std::size_t{535}}) {
    INFO("byte " << at);
    std::vector<std::uint8_t> torn = good;
    torn[at] ^= 0x20;
    CHECK(refusal(torn) == "damaged or torn: its checksum does not match");
  }
}

TEST_CASE("state file: fields out of range are refused, naming the field and its byte") {
  const std::vector<std::uint8_t> good = encode_state(small_state());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const auto changed = [&](auto change) {
    std::vector<std::uint8_t> b = good;
    change(b);
    reseal(b);
    return refusal(b);
  };
  using Bytes = std::vector<std::uint8_t>;
  CHECK(changed([](Bytes& b) { put(b, 12, 400, 4); }) == "header_bytes 400 out of range (byte 12)");
  CHECK(changed([](Bytes& b) { put(b, 32, 3, 4); }) == "verdict 3 unknown (byte 32)");
  CHECK(changed([](Bytes& b) { put(b, 36, 7, 4); }) == "from 7 unknown (byte 36)");
  CHECK(changed([&](Bytes& b) { put_f64(b, 40, nan); }) == "bound_ns out of range (byte 40)");
  CHECK(changed([&](Bytes& b) { put_f64(b, 48, -1); }) == "tolerance_ns out of range (byte 48)");
  CHECK(changed([&](Bytes& b) { put_f64(b, 56, nan); }) == "valid_seconds out of range (byte 56)");
  CHECK(changed([&](Bytes& b) { put_f64(b, 56, -inf); }) == "valid_seconds out of range (byte 56)");
  CHECK(changed([](Bytes& b) { std::memset(b.data() + 112, 'x', 32); }) == "clocksource has no end (byte 112)");
  CHECK(changed([](Bytes& b) { std::memset(b.data() + 144, 'x', 256); }) == "reason has no end (byte 144)");
  CHECK(changed([](Bytes& b) { put(b, 408, 0, 8); }) == "quantum_ticks out of range (byte 408)");
  CHECK(changed([&](Bytes& b) { put_f64(b, 416, inf); }) == "counter_hz out of range (byte 416)");
  CHECK(changed([](Bytes& b) { put(b, 436, 39, 4); }) == "record_bytes 39 out of range (byte 436)");
  CHECK(changed([](Bytes& b) { put(b, 432, 65537, 4); }) == "more CPUs than 65536 (byte 432)");
  // Counts that do not add up to the file's size.
  CHECK(changed([](Bytes& b) { put(b, 432, 1, 4); }) == "1 records and 2 online CPUs need 496 bytes, the file has 536");
  CHECK(changed([](Bytes& b) { put(b, 440, 3, 4); }) == "2 records and 3 online CPUs need 540 bytes, the file has 536");
  // CPUs out of order, twice, out of range.
  CHECK(changed([](Bytes& b) { put(b, 488, 0, 4); }) == "record 1: CPU 0 not after the one before (byte 488)");
  CHECK(changed([](Bytes& b) {
          put(b, 448, 1, 4);
          put(b, 488, 0, 4);
        }) == "record 1: CPU 0 not after the one before (byte 488)");
  CHECK(changed([](Bytes& b) { put(b, 488, 65536, 4); }) == "record 1: CPU 65536 out of range (byte 488)");
  CHECK(changed([](Bytes& b) { put(b, 488, 0xffffffff, 4); }) == "record 1: CPU -1 out of range (byte 488)");
  // Bands of NaN or infinity, or not ordered.
  const std::string offset_band = "record 1 (CPU 1): offset band not finite or not ordered (byte 496)";
  const std::string drift_band = "record 1 (CPU 1): drift band not finite or not ordered (byte 512)";
  CHECK(changed([&](Bytes& b) { put_f64(b, 496, nan); }) == offset_band);
  CHECK(changed([&](Bytes& b) { put_f64(b, 504, inf); }) == offset_band);
  CHECK(changed([&](Bytes& b) { put_f64(b, 496, 131); }) == offset_band);  // lo > hi
  CHECK(changed([&](Bytes& b) { put_f64(b, 512, -inf); }) == drift_band);
  CHECK(changed([&](Bytes& b) { put_f64(b, 520, nan); }) == drift_band);
  CHECK(changed([&](Bytes& b) { put_f64(b, 512, 13); }) == drift_band);
  // A reference CPU without a record.
  CHECK(changed([](Bytes& b) { put(b, 400, 2, 4); }) == "the reference CPU 2 has no record (byte 400)");
  CHECK(changed([](Bytes& b) { put(b, 400, 0xffffffff, 4); }) == "the reference CPU -1 has no record (byte 400)");
  // Online CPUs out of order or range.
  CHECK(changed([](Bytes& b) { put(b, 532, 0, 4); }) == "online CPU 1: 0 out of range or order (byte 532)");
  CHECK(changed([](Bytes& b) { put(b, 532, 70000, 4); }) == "online CPU 1: 70000 out of range or order (byte 532)");
}

TEST_CASE("state file: a later minor version with a larger header and larger records is read") {
  // What a 1.1 writer might add: 64 bytes at the end of the header, 8 at the end of each
  // record, all of which this reader skips.
  const std::vector<std::uint8_t> v10 = encode_state(full_state());
  const std::size_t header = kStateHeaderBytes + 64;
  const std::size_t record = kStateRecordBytes + 8;
  const std::size_t records = 4, online = 5;
  std::vector<std::uint8_t> v11(v10.begin(), v10.begin() + kStateHeaderBytes);
  v11.resize(header, 0xa5);
  for (std::size_t i = 0; i < records; ++i) {
    const auto at = v10.begin() + static_cast<std::ptrdiff_t>(kStateHeaderBytes + i * kStateRecordBytes);
    v11.insert(v11.end(), at, at + kStateRecordBytes);
    v11.insert(v11.end(), 8, 0x5a);
  }
  v11.insert(v11.end(), v10.end() - static_cast<std::ptrdiff_t>(online * 4), v10.end());
  put(v11, 10, 1, 2);
  put(v11, 12, header, 4);
  put(v11, 16, v11.size(), 8);
  put(v11, 436, record, 4);
  reseal(v11);
  CHECK(v11.size() == header + records * record + online * 4);
  check_same(decoded(v11), full_state());
}
