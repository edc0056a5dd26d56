// A command's --out directory, whole (docs/formats.md, "Output directories"): built aside,
// beside it (DIR.tmp.XXXXXX, private to this user while it is written), and put in place in
// one rename when it is complete, so that DIR holds one run, whole, at every moment: the
// earlier output until the new one is complete, then the new one. A writer holds DIR/.lock
// (io/dir_lock.hpp) from the start to the rename: a second writer of DIR is refused at
// once, and a reader of a DIR that holds nothing yet is told who is writing it.
//
// A DIR that holds anything a tscaudit output of its kind does not hold is refused, never
// replaced; a link at DIR is followed only when it is this user's own or root's; nothing
// inside DIR is ever opened (its replacement is built in a new directory).
#pragma once

#include <string>

#include "io/dir_lock.hpp"

namespace tscaudit {

/// What a directory tscaudit writes holds (docs/formats.md, "Output directories").
enum class OutputKind {
  run,       // a run directory: `simulate --topology`'s machine
  matrix,    // `matrix --out`, `check --out`: matrix.json, matrix.txt, pairs/, run/, pictures
  report,    // `report --out`: report.md, report.html, info.*, matrix*/, variants/
  variants,  // `variants --out`: variants.json, variants.txt, runs/, pictures
};

/// The first entry under `dir`, as a path relative to it, that an output of `kind` does not
/// hold (a name it never writes, a symbolic link, a FIFO...); empty when there is none.
/// Leftovers of tscaudit's own writing (a lock file, a NAME.tmp.XXXXXX file) count as its own.
/// \throws InputError when `dir` cannot be read.
std::string first_foreign_entry(const std::string& dir, OutputKind kind);

class OutputDir {
 public:
  /// Takes the directory `dir` for this process' output of `kind`: creates it when it is not
  /// there (its parents too), locks it, checks what it holds, and makes the directory beside it
  /// where the output is built (aside()). A signal that ends the process removes what was
  /// built and the lock file (io/temporaries.hpp).
  /// \throws IoError "cannot write DIR: ..." when another process writes it (its pid and
  ///         command), it is not a directory, it holds what tscaudit does not write, it is '.',
  ///         a link another user made, or the directory beside it cannot be made.
  static OutputDir begin(const std::string& dir, OutputKind kind);

  OutputDir(OutputDir&& other) noexcept;
  OutputDir& operator=(OutputDir&&) = delete;
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  /// Without commit(): removes what was built aside and the lock file, and the directory when
  /// this object made it; an earlier output stays as it was. Never throws.
  ~OutputDir();

  /// The directory as the user named it: where the output will be.
  [[nodiscard]] const std::string& path() const { return named_; }
  /// Where the output is built until commit().
  [[nodiscard]] const std::string& aside() const { return aside_; }

  /// `text` with every mention of aside() as path(): what a message says of a file written
  /// aside, named where the user will look for it.
  [[nodiscard]] std::string placed(std::string text) const;

  /// Puts the output in place: the directory built aside takes the place of `path()` in one
  /// rename (renameat2 RENAME_EXCHANGE, or two renames where the file system has no exchange),
  /// then what was there before is removed and the lock released.
  /// \throws IoError when it cannot be renamed (the output then stays aside, and is named).
  void commit();

 private:
  OutputDir(std::string named, std::string dir, DirLock lock)
      : named_(std::move(named)), dir_(std::move(dir)), lock_(std::move(lock)) {}
  void forget_temporaries() noexcept;

  std::string named_;  // as given
  std::string dir_;    // where it is, a link this user made followed
  DirLock lock_;
  std::string aside_;
  bool created_ = false;                                  // this object made dir_
  unsigned mode_ = 0755;                                  // dir_'s permissions, given to the output at commit()
  int aside_slot_ = -1, lock_slot_ = -1, dir_slot_ = -1;  // io/temporaries.hpp
  bool committed_ = false;
};

/// Rethrows the exception being handled, of the same kind (core/errors.hpp), with its
/// message placed (OutputDir::placed); any other exception as it is.
/// \pre called inside a catch block.
[[noreturn]] void rethrow_placed(const OutputDir& out);

}  // namespace tscaudit
