#include "app/state_command.hpp"

#include <iostream>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "formats/state_file.hpp"
#include "platform/machine_now.hpp"
#include "render/state_text.hpp"

namespace tscaudit {

int run_state(const StateOptions& options) {
  const std::string& path = options.file;
  if (!exists(path)) {
    throw InputError("no state at " + printable_text(path) + ": nothing was published there (`tscaudit check " +
                     "--quick --publish " + printable_text(path) + "`, or the shipped tscaudit.timer, publish one)");
  }
  const std::string bytes = read_regular_file(path, kStateMaxBytes, "a state file");
  PublishedState state;
  std::string error;
  if (!decode_state({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}, state, error)) {
    throw InputError(printable_text(path) + ": " + error);
  }
  const MachineNow now = read_machine_now();
  const StateStanding standing = state_standing(state, now);
  std::cout << (options.format == OutputFormat::json
                    ? state_json(path, state, standing, now.have_counter, now.counter)
                    : state_text(path, state, standing, now.have_counter, now.counter));
  return 0;
}

}  // namespace tscaudit
