// What the run directory's source files share, beside its interface (run_dir.hpp): the
// manifest's reader, the readers' words for CPUs and pairs. Not for use outside them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "formats/run_dir.hpp"

namespace tscaudit {

/// manifest.json at `path`, read (read_regular_file, at most kMaxManifestBytes) and checked.
/// \throws InputError "PATH:LINE:COLUMN: what is wrong" (or "PATH: what"), as read_regular_file.
RunDirManifest read_manifest_file(const std::string& path);

/// A CPU number as a run file or a manifest writes it: decimal, 0 .. INT_MAX.
std::optional<int> cpu_number(std::string_view text);

/// "A -> B", as messages name a pair.
std::string pair_text(int a, int b);

}  // namespace tscaudit
