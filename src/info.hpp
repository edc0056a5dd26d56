// `tscsync info`: the platform facts a measurement depends on.
#pragma once

#include "format.hpp"

namespace tscsync {

/// Prints the facts to stdout. \returns the exit code (0).
int run_info(OutputFormat format);

}  // namespace tscsync
