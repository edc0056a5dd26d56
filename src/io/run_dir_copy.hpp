// A copy of a run directory (docs/formats.md, "Output directories"): what `matrix --from X
// --out D` keeps in D/run, so that D reads back exactly as X does.
#pragma once

#include <string>

namespace tscaudit {

/// Copies what a reader of the run directory `from` reads into the new directory `to`
/// (created; its parent must exist): with a manifest, manifest.json, topology.xml, truth.json
/// and every file of rounds/; without, every regular file whose name does not start with '.'
/// (links followed, as the reader follows them). Files are copied byte for byte
/// (copy_file_range), never linked: `from` may still be growing.
/// \throws InputError when `from` cannot be read or a file it holds is not a regular file
///         (naming it); IoError when `to` cannot be written.
void copy_run_dir(const std::string& from, const std::string& to);

}  // namespace tscaudit
