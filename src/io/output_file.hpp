// Output that is either complete or absent: a regular file is written aside (a
// temporary in the same directory) and renamed over the target only by commit().
// "-" is standard output; an existing non-regular target (a device such as /dev/null
// or /dev/full, a FIFO) is written in place. Every write error becomes IoError naming
// the path ("standard output" for "-") and the reason, so no partial file is ever
// passed off as complete.
//
// Every file the tool writes is created here (create_aside_file), never by following a
// link: the aside file is new (O_EXCL | O_NOFOLLOW, a random name), and rename(2) replaces
// a symbolic link at the target instead of writing through it. A link at the target is
// followed only to a device or a FIFO, and only when the link is the user's own or root's
// (/dev/stdout): a link that another user planted in a shared directory is replaced.
#pragma once

#include <string>
#include <string_view>

namespace tscaudit {

class OutputFile {
 public:
  /// Opens the output. \throws IoError (path and reason) when it cannot be created.
  explicit OutputFile(std::string path);
  /// The same, but a regular file is written aside under the fixed name path + suffix
  /// (e.g. ".partial"), which a user can find and read while it grows or after a crash.
  /// \throws IoError when that name exists already (a run cut short left it: analyze it
  /// or remove it) or cannot be created.
  OutputFile(std::string path, const std::string& visible_suffix);
  ~OutputFile();  // without commit(): removes the temporary, leaves the target untouched
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// \throws IoError on a short or failed write (no space, /dev/full, a vanished disk).
  void write(std::string_view text);

  /// Flushes to stable storage and renames into place. \throws IoError.
  void commit();

  /// Gives the file written aside these permission bits, whatever the umask (a file other
  /// users' programs read: the published state, 0644). Nothing for output written in place.
  /// \throws IoError.
  void set_mode(unsigned mode);

  /// Flushes what was written so far to stable storage (for output that grows for hours),
  /// and checks that the file written aside still has a name: a directory removed under it
  /// would otherwise swallow every later write without an error. \throws IoError.
  void sync();

  /// Closes without renaming and without removing the file written aside: what it holds
  /// stays readable under temp_path() (an output that failed midway but is worth keeping,
  /// marked incomplete by its own content). Best effort; never throws.
  void keep_partial() noexcept;

  /// Where the output is written until commit(); empty when written in place.
  [[nodiscard]] const std::string& temp_path() const { return temp_path_; }

  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(std::string_view what, int err) const;
  /// Standard output, or an existing non-regular target (a device, a FIFO): opens it to be
  /// written in place and \returns true. A regular or missing target: \returns false.
  /// \throws IoError for an empty path, a directory, or a target that cannot be opened.
  bool open_in_place();

  std::string path_;       // what the user named
  std::string temp_path_;  // the aside file; empty when writing in place
  int temp_slot_ = -1;     // its entry in io/temporaries.hpp (a signal removes it); -1 none
  int fd_ = -1;
  bool owns_fd_ = true;
  bool committed_ = false;
};

/// Creates a new file beside `target` (in its directory) to be written and renamed over it:
/// its name is the target's (at most its first 200 bytes) + ".tmp." + 6 random characters +
/// `suffix`, opened O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC with mode 0666 less
/// the umask, so that nothing already there under that name (a file, a symbolic link) is ever
/// opened. \returns the descriptor, and the name in `temp_path`.
/// \throws IoError "cannot create TARGET: REASON".
int create_aside_file(const std::string& target, std::string_view suffix, std::string& temp_path);

/// Creates the directory `dir` and its parents (nothing to do when it exists).
/// \throws IoError naming the directory and the reason.
void make_directories(const std::string& dir);

/// Writes `text` to `path` whole, through an OutputFile. \throws IoError.
void write_text_file(const std::string& path, std::string_view text);

}  // namespace tscaudit
