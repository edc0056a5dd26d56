#include "app/state_publish.hpp"
#include "app/report_error.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>

#include "core/files.hpp"
#include "core/format.hpp"
#include "formats/state_file.hpp"
#include "matrix/publish.hpp"
#include "platform/machine_now.hpp"
#include "render/verdict_text.hpp"

namespace tscaudit {
namespace {

/// The state FILE holds now, when it is one this tool reads; nullopt otherwise (none yet,
/// or one it cannot use: the fresh state replaces it either way).
std::optional<PublishedState> previous_state(const std::string& path) {
  try {
    const std::string bytes = read_regular_file(path, kStateMaxBytes, "a state file");
    PublishedState s;
    std::string error;
    const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
    if (decode_state({data, bytes.size()}, s, error)) return s;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::string seconds_words(double s) {
  if (std::isinf(s)) return "no limit the drift bands set";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g s", s);
  return buf;
}

}  // namespace

void publish_check_state(OutputFile& file, const MatrixResult& m, const CheckResult& result, PublishedFrom from,
                         bool live) {
  const std::string& path = file.path();
  const MachineNow now = live ? read_machine_now() : MachineNow{};
  std::optional<PublishedState> state = published_state_of(m, result, from, check_reason_text(result), live ? &now : nullptr);
  if (!state) {
    print_note("tscaudit check: not published: the check did not answer; " + printable_text(path) + " is as it was");
    return;
  }
  std::string carried;
  if (const std::optional<PublishedState> before = previous_state(path)) {
    const double age_s = static_cast<double>(state->boottime_ns - before->boottime_ns) * 1e-9;
    if (carry_forward(*state, *before)) carried = ", drift bounded over " + seconds_words(age_s) + " with the state before";
  }
  const std::vector<std::uint8_t> bytes = encode_state(*state);
  file.write({reinterpret_cast<const char*>(bytes.data()), bytes.size()});
  file.set_mode(0644);
  file.commit();
  std::cerr << "tscaudit check: published " << printable_text(path) << " (" << state->table.known()
            << " CPUs against CPU " << state->table.reference_cpu << ", valid for "
            << seconds_words(state->valid_seconds) << carried << ")\n";
}

}  // namespace tscaudit
