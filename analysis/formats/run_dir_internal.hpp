// What the run directory's source files share, beside its interface (run_dir.hpp): the
// manifest's reader, the readers' words for CPUs and pairs. Not for use outside them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "formats/run_dir.hpp"

namespace tscaudit {

/// The largest manifest read: the plan and the platform facts of a 1024-CPU machine take
/// well under 1 MiB; anything this large is not a manifest. topology.xml is held to it too.
inline constexpr std::uint64_t kMaxManifestBytes = std::uint64_t{64} << 20;

/// The bytes of a file of at most `max_bytes`.
/// \throws InputError when it cannot be opened or is larger ("not a manifest"), IoError on a
///         read error.
std::string read_whole_file(const std::string& path, std::uint64_t max_bytes);

/// manifest.json at `path`, read and checked.
/// \throws InputError "PATH:LINE:COLUMN: what is wrong" (or "PATH: what"), as read_whole_file.
RunDirManifest read_manifest_file(const std::string& path);

/// A CPU number as a run file or a manifest writes it: decimal, 0 .. INT_MAX.
std::optional<int> cpu_number(std::string_view text);

/// "A -> B", as messages name a pair.
std::string pair_text(int a, int b);

}  // namespace tscaudit
