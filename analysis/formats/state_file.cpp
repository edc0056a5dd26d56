#include "formats/state_file.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace tscaudit {
namespace {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big);

constexpr char kMagic[8] = {'T', 'S', 'C', 'S', 'T', 'A', 'T', 'E'};
constexpr std::size_t kChecksumAt = 24;

class Writer {
 public:
  explicit Writer(std::vector<std::uint8_t>& out) : out_(out) {}
  void u16(std::size_t at, std::uint16_t v) { put(at, v, 2); }
  void u32(std::size_t at, std::uint32_t v) { put(at, v, 4); }
  void u64(std::size_t at, std::uint64_t v) { put(at, v, 8); }
  void i64(std::size_t at, std::int64_t v) { u64(at, static_cast<std::uint64_t>(v)); }
  void f64(std::size_t at, double v) { u64(at, std::bit_cast<std::uint64_t>(v)); }
  void text(std::size_t at, std::size_t field, const std::string& s) {
    std::size_t n = std::min(s.size(), field - 1);
    // Cut at a character's start: never leave half a UTF-8 sequence.
    while (n > 0 && n < s.size() && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    std::memcpy(out_.data() + at, s.data(), n);
  }

 private:
  void put(std::size_t at, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out_[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
  }
  std::vector<std::uint8_t>& out_;
};

std::uint64_t get(std::span<const std::uint8_t> b, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(b[at + static_cast<std::size_t>(i)]) << (8 * i);
  return v;
}
std::uint32_t u32(std::span<const std::uint8_t> b, std::size_t at) { return static_cast<std::uint32_t>(get(b, at, 4)); }
std::int64_t i64(std::span<const std::uint8_t> b, std::size_t at) { return static_cast<std::int64_t>(get(b, at, 8)); }
double f64(std::span<const std::uint8_t> b, std::size_t at) { return std::bit_cast<double>(get(b, at, 8)); }

/// A NUL-terminated field; false when it has no NUL.
bool text(std::span<const std::uint8_t> b, std::size_t at, std::size_t field, std::string& out) {
  const auto* p = reinterpret_cast<const char*>(b.data() + at);
  const void* nul = std::memchr(p, 0, field);
  if (nul == nullptr) return false;
  out.assign(p, static_cast<const char*>(nul));
  return true;
}

std::string at_text(std::size_t at) { return " (byte " + std::to_string(at) + ")"; }

}  // namespace

std::uint64_t state_checksum(std::span<const std::uint8_t> bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const std::uint8_t byte = i >= kChecksumAt && i < kChecksumAt + 8 ? 0 : bytes[i];
    h = (h ^ byte) * 0x100000001b3ULL;
  }
  return h;
}

std::vector<std::uint8_t> encode_state(const PublishedState& s) {
  const CounterTable& t = s.table;
  const std::size_t records = t.known();
  const std::size_t size = kStateHeaderBytes + records * kStateRecordBytes + s.online_cpus.size() * 4;
  std::vector<std::uint8_t> out(size, 0);
  Writer w(out);
  std::memcpy(out.data(), kMagic, sizeof kMagic);
  w.u16(8, kStateMajor);
  w.u16(10, kStateMinor);
  w.u32(12, static_cast<std::uint32_t>(kStateHeaderBytes));
  w.u64(16, size);
  w.u32(32, static_cast<std::uint32_t>(s.verdict));
  w.u32(36, static_cast<std::uint32_t>(s.from));
  w.f64(40, s.bound_ns);
  w.f64(48, s.tolerance_ns);
  w.f64(56, s.valid_seconds);
  w.i64(64, s.boottime_ns);
  w.i64(72, s.realtime_ns);
  w.i64(80, s.monotonic_ns);
  w.i64(88, s.monotonic_raw_ns);
  std::memcpy(out.data() + 96, s.boot_id.data(), 16);
  w.text(112, kStateClocksourceBytes, s.clocksource);
  w.text(144, kStateReasonBytes, s.reason);
  w.u32(400, static_cast<std::uint32_t>(t.reference_cpu));
  w.i64(408, t.quantum_ticks);
  w.f64(416, t.counter_hz);
  w.u64(424, t.as_of_counter);
  w.u32(432, static_cast<std::uint32_t>(records));
  w.u32(436, static_cast<std::uint32_t>(kStateRecordBytes));
  w.u32(440, static_cast<std::uint32_t>(s.online_cpus.size()));
  std::size_t at = kStateHeaderBytes;
  for (const CpuCounterBand& b : t.bands) {
    if (b.cpu < 0) continue;
    w.u32(at, static_cast<std::uint32_t>(b.cpu));
    w.f64(at + 8, b.offset_lo_ticks);
    w.f64(at + 16, b.offset_hi_ticks);
    w.f64(at + 24, b.drift_lo_ppb);
    w.f64(at + 32, b.drift_hi_ppb);
    at += kStateRecordBytes;
  }
  for (int c : s.online_cpus) {
    w.u32(at, static_cast<std::uint32_t>(c));
    at += 4;
  }
  w.u64(kChecksumAt, state_checksum(out));
  return out;
}

bool decode_state(std::span<const std::uint8_t> b, PublishedState& out, std::string& error) {
  const auto fail = [&](std::string why) {
    error = std::move(why);
    return false;
  };
  const auto cut_short = [&](std::size_t size) {
    return fail("cut short: " + std::to_string(size) + " bytes, less than the " + std::to_string(kStateHeaderBytes) +
                "-byte header");
  };
  if (b.empty()) return fail("empty: not a tscaudit state file");
  if (std::memcmp(b.data(), kMagic, std::min(b.size(), sizeof kMagic)) != 0) {
    return fail("not a tscaudit state file (no \"TSCSTATE\" at its start)");
  }
  // A start of the magic, or the magic without its version: a state file cut short.
  if (b.size() < 16) return cut_short(b.size());
  const auto major = static_cast<std::uint16_t>(get(b, 8, 2));
  const auto minor = static_cast<std::uint16_t>(get(b, 10, 2));
  if (major != kStateMajor) {
    return fail("state file version " + std::to_string(major) + "." + std::to_string(minor) + ": this reader reads " +
                std::to_string(kStateMajor) + ".x only" +
                (major > kStateMajor ? " (written by a newer tscaudit)" : ""));
  }
  if (b.size() < kStateHeaderBytes) return cut_short(b.size());
  const std::uint32_t header_bytes = u32(b, 12);
  const std::uint64_t file_bytes = get(b, 16, 8);
  if (file_bytes != b.size()) {
    return fail("cut short or torn: " + std::to_string(b.size()) + " bytes where its header says " +
                std::to_string(file_bytes));
  }
  if (get(b, kChecksumAt, 8) != state_checksum(b)) return fail("damaged or torn: its checksum does not match");
  if (header_bytes < kStateHeaderBytes || header_bytes > b.size()) {
    return fail("header_bytes " + std::to_string(header_bytes) + " out of range" + at_text(12));
  }
  PublishedState s;
  const std::uint32_t verdict = u32(b, 32);
  if (verdict > 2) return fail("verdict " + std::to_string(verdict) + " unknown" + at_text(32));
  s.verdict = static_cast<PublishedVerdict>(verdict);
  const std::uint32_t from = u32(b, 36);
  if (from > 2) return fail("from " + std::to_string(from) + " unknown" + at_text(36));
  s.from = static_cast<PublishedFrom>(from);
  s.bound_ns = f64(b, 40);
  s.tolerance_ns = f64(b, 48);
  s.valid_seconds = f64(b, 56);
  if (!std::isfinite(s.bound_ns) || s.bound_ns < 0) return fail("bound_ns out of range" + at_text(40));
  if (!std::isfinite(s.tolerance_ns) || s.tolerance_ns < 0) return fail("tolerance_ns out of range" + at_text(48));
  if (std::isnan(s.valid_seconds) || s.valid_seconds < 0) return fail("valid_seconds out of range" + at_text(56));
  s.boottime_ns = i64(b, 64);
  s.realtime_ns = i64(b, 72);
  s.monotonic_ns = i64(b, 80);
  s.monotonic_raw_ns = i64(b, 88);
  std::memcpy(s.boot_id.data(), b.data() + 96, 16);
  if (!text(b, 112, kStateClocksourceBytes, s.clocksource)) return fail("clocksource has no end" + at_text(112));
  if (!text(b, 144, kStateReasonBytes, s.reason)) return fail("reason has no end" + at_text(144));
  CounterTable& t = s.table;
  t.reference_cpu = static_cast<std::int32_t>(u32(b, 400));
  t.quantum_ticks = i64(b, 408);
  t.counter_hz = f64(b, 416);
  t.as_of_counter = get(b, 424, 8);
  if (t.quantum_ticks < 1 || t.quantum_ticks > 1'000'000'000) return fail("quantum_ticks out of range" + at_text(408));
  if (!std::isfinite(t.counter_hz) || t.counter_hz < 0 || t.counter_hz > 1e12) {
    return fail("counter_hz out of range" + at_text(416));
  }
  const std::uint32_t records = u32(b, 432);
  const std::uint32_t record_bytes = u32(b, 436);
  const std::uint32_t online = u32(b, 440);
  if (record_bytes < kStateRecordBytes || record_bytes > 4096) {
    return fail("record_bytes " + std::to_string(record_bytes) + " out of range" + at_text(436));
  }
  if (records > static_cast<std::uint32_t>(kStateMaxCpus) || online > static_cast<std::uint32_t>(kStateMaxCpus)) {
    return fail("more CPUs than " + std::to_string(kStateMaxCpus) + at_text(432));
  }
  const std::uint64_t need = std::uint64_t{header_bytes} + std::uint64_t{records} * record_bytes + std::uint64_t{online} * 4;
  if (need != b.size()) {
    return fail(std::to_string(records) + " records and " + std::to_string(online) + " online CPUs need " +
                std::to_string(need) + " bytes, the file has " + std::to_string(b.size()));
  }
  std::size_t at = header_bytes;
  int last = -1;
  for (std::uint32_t i = 0; i < records; ++i, at += record_bytes) {
    const auto cpu = static_cast<std::int32_t>(u32(b, at));
    if (cpu < 0 || cpu >= kStateMaxCpus || cpu <= last) {
      return fail("record " + std::to_string(i) + ": CPU " + std::to_string(cpu) +
                  (cpu <= last && cpu >= 0 ? " not after the one before" : " out of range") + at_text(at));
    }
    CpuCounterBand band;
    band.cpu = cpu;
    band.offset_lo_ticks = f64(b, at + 8);
    band.offset_hi_ticks = f64(b, at + 16);
    band.drift_lo_ppb = f64(b, at + 24);
    band.drift_hi_ppb = f64(b, at + 32);
    if (!std::isfinite(band.offset_lo_ticks) || !std::isfinite(band.offset_hi_ticks) ||
        band.offset_lo_ticks > band.offset_hi_ticks) {
      return fail("record " + std::to_string(i) + " (CPU " + std::to_string(cpu) + "): offset band not finite or not ordered" +
                  at_text(at + 8));
    }
    if (!std::isfinite(band.drift_lo_ppb) || !std::isfinite(band.drift_hi_ppb) || band.drift_lo_ppb > band.drift_hi_ppb) {
      return fail("record " + std::to_string(i) + " (CPU " + std::to_string(cpu) + "): drift band not finite or not ordered" +
                  at_text(at + 24));
    }
    if (t.bands.size() <= static_cast<std::size_t>(cpu)) t.bands.resize(static_cast<std::size_t>(cpu) + 1);
    t.bands[static_cast<std::size_t>(cpu)] = band;
    last = cpu;
  }
  if (t.band_of(t.reference_cpu) == nullptr) {
    return fail("the reference CPU " + std::to_string(t.reference_cpu) + " has no record" + at_text(400));
  }
  s.online_cpus.reserve(online);
  last = -1;
  for (std::uint32_t i = 0; i < online; ++i, at += 4) {
    const auto cpu = static_cast<std::int32_t>(u32(b, at));
    if (cpu < 0 || cpu >= kStateMaxCpus || cpu <= last) {
      return fail("online CPU " + std::to_string(i) + ": " + std::to_string(cpu) + " out of range or order" + at_text(at));
    }
    s.online_cpus.push_back(cpu);
    last = cpu;
  }
  out = std::move(s);
  return true;
}

}  // namespace tscaudit
