// A command's --out directory, whole (docs/formats.md, "Output directories").
#include "io/output_dir.hpp"

#include <fcntl.h>
#include <stdio.h>  // renameat2, RENAME_EXCHANGE (glibc 2.28)
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>
#include <system_error>
#include <vector>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "core/format.hpp"
#include "io/output_file.hpp"
#include "io/temporaries.hpp"

namespace tscaudit {
namespace {

namespace fs = std::filesystem;

/// What a directory of tscaudit's holds, level by level: the kinds of output and their
/// subdirectories.
enum class Holds { run, rounds, matrix, pairs, report, variants, runs };

Holds holds_of(OutputKind kind) {
  switch (kind) {
    case OutputKind::run: return Holds::run;
    case OutputKind::matrix: return Holds::matrix;
    case OutputKind::report: return Holds::report;
    case OutputKind::variants: return Holds::variants;
  }
  return Holds::run;
}

bool is_word(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

bool is_number(std::string_view s) {
  if (s.empty() || s.size() > 10) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

/// `name` is STEM + one of `extensions`, with STEM a word that starts with `prefix`.
bool word_with(std::string_view name, std::string_view prefix, std::initializer_list<std::string_view> extensions) {
  for (std::string_view ext : extensions) {
    if (name.size() > ext.size() && name.ends_with(ext)) {
      const std::string_view stem = name.substr(0, name.size() - ext.size());
      return stem.starts_with(prefix) && is_word(stem);
    }
  }
  return false;
}

/// What tscaudit's own writing leaves when it is cut off: a lock file, a file written aside
/// (NAME.tmp.XXXXXX, io/output_file.hpp).
bool is_leftover(std::string_view name) {
  if (name == kLockName) return true;
  const std::size_t at = name.find(".tmp.");
  return at != std::string_view::npos && at > 0 && name.size() >= at + 5 + 6;
}

/// The files each kind of directory holds (the commands that write them: io/run_dir_writer.hpp,
/// app/matrix_dir.cpp and matrix_pairs.cpp, app/report_command.cpp, app/variants_command.cpp).
bool file_ours(Holds h, std::string_view name) {
  switch (h) {
    case Holds::run: return name == "manifest.json" || name == "topology.xml" || name == "truth.json";
    case Holds::rounds:
      return name.starts_with("cpu-") && name.ends_with(".zst") && is_number(name.substr(4, name.size() - 8));
    case Holds::matrix:
      return name == "analysis.json" || name == "matrix.json" || name == "matrix.txt" ||
             word_with(name, "", {".dat", ".png", ".svg"});
    case Holds::pairs: {
      if (!name.starts_with("pair_") || !(name.ends_with(".txt") || name.ends_with(".csv"))) return false;
      const std::string_view middle = name.substr(5, name.size() - 9);
      const std::size_t bar = middle.find('_');
      return bar != std::string_view::npos && is_number(middle.substr(0, bar)) && is_number(middle.substr(bar + 1));
    }
    case Holds::report:
      return name == "info.json" || name == "info.txt" || name == "pair_verdicts.txt" || name == "report.md" ||
             name == "report.html";
    case Holds::variants:
      return name == "variants.json" || name == "variants.txt" ||
             word_with(name, "variants_", {".dat", ".png", ".svg"});
    case Holds::runs: {
      if (!name.ends_with(".csv") || name.size() <= 4) return false;
      for (char c : name) {
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.')) return false;
      }
      return true;
    }
  }
  return false;
}

/// What a subdirectory named `name` of a directory that holds `h` holds; nullopt when it holds none.
std::optional<Holds> dir_ours(Holds h, std::string_view name) {
  switch (h) {
    case Holds::run:
      if (name == "rounds") return Holds::rounds;
      break;
    case Holds::matrix:
      if (name == "pairs") return Holds::pairs;
      if (name == "run") return Holds::run;
      break;
    case Holds::report:
      if (name == "matrix" || (name.starts_with("matrix_plain_") && is_word(name))) return Holds::matrix;
      if (name == "variants") return Holds::variants;
      break;
    case Holds::variants:
      if (name == "runs") return Holds::runs;
      break;
    case Holds::rounds:
    case Holds::pairs:
    case Holds::runs: break;
  }
  return std::nullopt;
}

/// The first entry under `dir`, in name order, that a directory holding `h` does not hold
/// ("" when none), relative to the top (`prefix` + name). Links are never followed.
std::string foreign_in(const fs::path& dir, Holds h, const std::string& prefix) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) throw InputError("cannot read the directory " + printable_text(dir.string()) + ": " + ec.message());
  std::vector<fs::directory_entry> entries;
  for (const fs::directory_entry& e : it) entries.push_back(e);
  std::sort(entries.begin(), entries.end(),
            [](const fs::directory_entry& x, const fs::directory_entry& y) { return x.path() < y.path(); });
  for (const fs::directory_entry& e : entries) {
    const std::string name = e.path().filename().string();
    const fs::file_status st = e.symlink_status(ec);
    if (ec) throw InputError("cannot read " + printable_text(e.path().string()) + ": " + ec.message());
    const std::string relative = prefix + name;
    if (fs::is_regular_file(st)) {
      if (!file_ours(h, name) && !is_leftover(name)) return relative;
    } else if (fs::is_directory(st)) {
      const std::optional<Holds> sub = dir_ours(h, name);
      if (!sub) return relative + "/";
      if (std::string inner = foreign_in(e.path(), *sub, relative + "/"); !inner.empty()) return inner;
    } else {
      return relative;  // a link, a FIFO, a device, a socket: never what tscaudit writes
    }
  }
  return {};
}

/// fsync(2) of a directory, so that a rename in it survives a crash; best effort.
void sync_directory(const std::string& dir) noexcept {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

std::string parent_of(const std::string& dir) { return fs::path(dir).parent_path().string(); }

}  // namespace

std::string first_foreign_entry(const std::string& dir, OutputKind kind) { return foreign_in(dir, holds_of(kind), ""); }

OutputDir::OutputDir(OutputDir&& other) noexcept
    : named_(std::move(other.named_)),
      dir_(std::move(other.dir_)),
      lock_(std::move(other.lock_)),
      aside_(std::move(other.aside_)),
      created_(other.created_),
      mode_(other.mode_),
      aside_slot_(other.aside_slot_),
      lock_slot_(other.lock_slot_),
      dir_slot_(other.dir_slot_),
      committed_(other.committed_) {
  other.aside_slot_ = other.lock_slot_ = other.dir_slot_ = -1;
  other.aside_.clear();
  other.created_ = false;
  other.committed_ = true;  // nothing left to undo
}

void OutputDir::forget_temporaries() noexcept {
  unregister_temporary(aside_slot_);
  unregister_temporary(lock_slot_);
  unregister_temporary(dir_slot_);
  aside_slot_ = lock_slot_ = dir_slot_ = -1;
}

OutputDir::~OutputDir() {
  if (committed_) return;
  if (!aside_.empty()) {
    std::error_code ignored;
    fs::remove_all(aside_, ignored);
  }
  lock_.release_and_remove();
  if (created_) ::rmdir(dir_.c_str());  // only when empty: the directory this run made for its lock
  forget_temporaries();
}

OutputDir OutputDir::begin(const std::string& named, OutputKind kind) {
  const std::string refusal = "cannot write " + printable_text(named);
  std::string dir = named;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  const std::string base = fs::path(dir).filename().string();
  if (dir.empty() || base.empty() || base == "." || base == ".." || dir == "/") {
    throw UsageError(
        "--out " + printable_text(named) +
        ": name the directory itself (tscaudit builds it beside where it goes, then renames it into place)");
  }
  struct stat st {};
  bool created = false;
  if (::lstat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT) throw IoError(refusal + ": " + std::strerror(errno));
    if (const std::string parent = parent_of(dir); !parent.empty()) make_directories(parent);
    if (::mkdir(dir.c_str(), 0777) == 0) {
      created = true;
    } else if (errno != EEXIST) {
      throw IoError(refusal + ": cannot create it: " + std::strerror(errno));
    }
    if (::lstat(dir.c_str(), &st) != 0) throw IoError(refusal + ": " + std::strerror(errno));
  }
  if (S_ISLNK(st.st_mode)) {
    // A link is followed only when it is this user's own or root's (as OutputFile follows one
    // to a device): one that another user planted in a shared directory is refused.
    if (st.st_uid != 0 && st.st_uid != ::geteuid()) {
      throw IoError(refusal +
                    ": it is a symbolic link that another user made (a directory is written through a "
                    "link only when the link is yours or root's)");
    }
    char resolved[PATH_MAX];
    if (::realpath(dir.c_str(), resolved) == nullptr || ::lstat(resolved, &st) != 0 || !S_ISDIR(st.st_mode)) {
      throw IoError(refusal + ": it is a symbolic link that leads to no directory");
    }
    dir = resolved;
  }
  if (!S_ISDIR(st.st_mode)) throw IoError(refusal + ": it exists and is not a directory");

  OutputDir out(named, dir, DirLock::take(dir, refusal));
  out.created_ = created;
  out.mode_ = st.st_mode & 07777;
  // A signal that ends the process from here on leaves nothing of this run behind.
  out.lock_slot_ = register_temporary(join_path(dir, kLockName));
  if (created) out.dir_slot_ = register_temporary(dir, TemporaryKind::empty_dir);
  // Under the lock: what it holds is decided now, and nobody else's writing changes it.
  std::string foreign;
  try {
    foreign = first_foreign_entry(dir, kind);
  } catch (const InputError& e) {
    throw IoError(refusal + ": " + e.what());
  }
  if (!foreign.empty()) {
    throw IoError(refusal + ": it holds " + printable_text(foreign) +
                  ", which tscaudit does not write there (tscaudit replaces a directory only when it holds its "
                  "own output of that kind: give a new or an empty directory)");
  }
  std::string aside = dir + ".tmp.XXXXXX";
  if (::mkdtemp(aside.data()) == nullptr) {
    throw IoError(refusal + ": cannot create " + printable_text(aside) + " beside it, where the output is built: " +
                  std::strerror(errno) + " (the output is renamed into place, so its parent must be writable)");
  }
  out.aside_ = aside;
  out.aside_slot_ = register_temporary(aside, TemporaryKind::tree);
  out.lock_.add_line("aside", aside);
  return out;
}

std::string OutputDir::placed(std::string text) const {
  if (aside_.empty()) return text;
  const std::string shown = printable_text(named_);
  for (std::size_t at = text.find(aside_); at != std::string::npos; at = text.find(aside_, at + shown.size())) {
    text.replace(at, aside_.size(), shown);
  }
  return text;
}

void rethrow_placed(const OutputDir& out) {
  try {
    throw;
  } catch (const UsageError& e) {
    throw UsageError(out.placed(e.what()));
  } catch (const InputError& e) {
    throw InputError(out.placed(e.what()));
  } catch (const IoError& e) {
    throw IoError(out.placed(e.what()));
  } catch (const RuntimeError& e) {
    throw RuntimeError(out.placed(e.what()));
  } catch (const UnsupportedError& e) {
    throw UnsupportedError(out.placed(e.what()));
  }
}

void OutputDir::commit() {
  if (committed_) return;
  const std::string where = " (the output is in " + printable_text(aside_) + ")";
  // mkdtemp made it private while it was written: now the permissions of the directory it replaces.
  if (::chmod(aside_.c_str(), mode_) != 0)
    throw IoError("cannot put " + printable_text(named_) + " in place: " + std::strerror(errno) + where);
  sync_directory(aside_);
  std::string earlier = aside_;  // after the exchange, the earlier output is there
  if (::renameat2(AT_FDCWD, aside_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0) {
    const int err = errno;
    if (err != EINVAL && err != ENOSYS && err != ENOTSUP && err != EOPNOTSUPP) {
      throw IoError("cannot put " + printable_text(named_) + " in place: " + std::strerror(err) + where);
    }
    // A file system without the exchange: the earlier output moves out, the new one in.
    earlier = dir_ + ".old.XXXXXX";
    if (::mkdtemp(earlier.data()) == nullptr || ::rename(dir_.c_str(), earlier.c_str()) != 0) {
      const int e = errno;
      ::rmdir(earlier.c_str());
      throw IoError("cannot put " + printable_text(named_) + " in place: " + std::strerror(e) + where);
    }
    if (::rename(aside_.c_str(), dir_.c_str()) != 0) {
      const int e = errno;
      ::rename(earlier.c_str(), dir_.c_str());
      throw IoError("cannot put " + printable_text(named_) + " in place: " + std::strerror(e) + where);
    }
    unregister_temporary(aside_slot_);
    aside_slot_ = register_temporary(earlier, TemporaryKind::tree);
  }
  committed_ = true;
  sync_directory(parent_of(dir_));
  // The earlier output (and the lock file, which went with it) is removed; a signal meanwhile
  // removes the rest.
  std::error_code ignored;
  fs::remove_all(earlier, ignored);
  lock_.release();
  forget_temporaries();
}

}  // namespace tscaudit
