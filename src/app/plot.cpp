#include "app/plot.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "core/errors.hpp"
#include "core/format.hpp"
#include "core/lines.hpp"
#include "io/output_file.hpp"
#include "io/temporaries.hpp"

extern char** environ;

namespace tscaudit {

namespace {

using Clock = std::chrono::steady_clock;

// gnuplot stops at its first error, so its last words are the ones that matter.
constexpr std::size_t kKeptOutputBytes = 4096;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Owns the aside file until release(): removed on every failure path.
struct AsideFile {
  std::string path;
  bool keep = false;
  int slot = -1;  // io/temporaries.hpp: a signal while gnuplot draws removes it
  ~AsideFile() {
    if (!keep && !path.empty()) ::unlink(path.c_str());
    unregister_temporary(slot);
  }
};

/// Owns a file descriptor.
struct Fd {
  int fd = -1;
  ~Fd() { close(); }
  void close() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

/// What the child did, after it ended or was killed.
struct Outcome {
  bool timed_out = false;
  int status = 0;      // waitpid status, when !timed_out
  std::string output;  // its stdout and stderr, the last kKeptOutputBytes
};

/// A running child in the registry of io/temporaries.hpp, so that a signal that ends
/// the process kills its group first (else gnuplot, still drawing, writes the picture
/// written aside again after the handler removed it).
struct RegisteredChild {
  pid_t pid = -1;
  int slot = -1;
  RegisteredChild() = default;
  RegisteredChild(const RegisteredChild&) = delete;
  RegisteredChild& operator=(const RegisteredChild&) = delete;
  ~RegisteredChild() { unregister_child(slot); }

  enum class Reaped { yes, running, gone };

  /// Waits for the child to end (`block`: until it does), leaves the registry, then reaps it:
  /// a zombie's pid is given to no other process, so a signal meanwhile kills no stranger.
  /// \returns yes (its status in `status`), running (not blocking), or gone (not our child:
  /// nothing to reap).
  Reaped reap(int& status, bool block) {
    siginfo_t info{};
    while (true) {
      info.si_pid = 0;
      const int w = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT | (block ? 0 : WNOHANG));
      if (w == 0 && info.si_pid == pid) break;  // ended, not reaped yet
      if (w == 0) return Reaped::running;
      if (errno != EINTR) return Reaped::gone;
    }
    unregister_child(slot);
    slot = -1;
    while (::waitpid(pid, &status, 0) < 0) {
      if (errno != EINTR) return Reaped::gone;
    }
    return Reaped::yes;
  }
};

/// Reads the child's output until EOF, then waits for it; kills its process group at
/// the deadline. Preconditions: `child.pid` leads its own process group and `read_fd` is the
/// only parent-side end of its output pipe.
Outcome collect(RegisteredChild& child, int read_fd, Clock::time_point deadline) {
  Outcome o;
  bool eof = false;
  std::vector<char> buf(4096);
  while (!eof) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      o.timed_out = true;
      break;
    }
    pollfd p{read_fd, POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (r < 0 && errno != EINTR) break;  // cannot happen with a valid fd; stop reading
    if (r <= 0) continue;
    const ssize_t n = ::read(read_fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      eof = true;
      break;
    }
    o.output.append(buf.data(), static_cast<std::size_t>(n));
    if (o.output.size() > 2 * kKeptOutputBytes) o.output.erase(0, o.output.size() - kKeptOutputBytes);
  }
  // Output closed: gnuplot has exited or is about to. Wait, still bounded by the deadline.
  while (!o.timed_out) {
    if (child.reap(o.status, false) != RegisteredChild::Reaped::running) break;
    if (Clock::now() >= deadline) {
      o.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (o.timed_out) {
    ::kill(-child.pid, SIGKILL);  // the whole group: gnuplot and whatever it started
    static_cast<void>(child.reap(o.status, true));
  }
  if (o.output.size() > kKeptOutputBytes) o.output.erase(0, o.output.size() - kKeptOutputBytes);
  return o;
}

PlotResult fail(std::string problem) { return PlotResult{false, std::move(problem)}; }

/// The last `n` bytes of the file at `path` (fewer when it is shorter or unreadable).
std::string file_tail(const std::string& path, std::size_t n) {
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) return {};
  const off_t size = ::lseek(f.fd, 0, SEEK_END);
  if (size < 0) return {};
  const off_t from = std::max<off_t>(0, size - static_cast<off_t>(n));
  std::string tail(static_cast<std::size_t>(size - from), '\0');
  const ssize_t got = ::pread(f.fd, tail.data(), tail.size(), from);
  tail.resize(got < 0 ? 0 : static_cast<std::size_t>(got));
  return tail;
}

/// The mark that keeps an SVG's images crisp when a viewer scales them up: the SVG 1.1
/// presentation attribute for older viewers, and the CSS value that browsers honour (a
/// style outranks the attribute).
constexpr std::string_view kPixelatedImage =
    "<image image-rendering='optimizeSpeed' style='image-rendering:pixelated' ";

/// Marks every <image> of the SVG at `path` pixelated (kPixelatedImage), rewriting the file
/// in place; a file without images is left alone. gnuplot's svg terminal draws `with
/// image` as an embedded PNG of one pixel per cell, which browsers smooth when they scale
/// it. \returns "" or what went wrong (the file is then not to be used).
std::string mark_images_pixelated(const std::string& path) {
  std::string svg;
  {
    Fd f;
    f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (f.fd < 0) return "cannot read " + printable_text(path) + ": " + errno_text(errno);
    char buf[65536];
    while (true) {
      const ssize_t n = ::read(f.fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return "cannot read " + printable_text(path) + ": " + errno_text(errno);
      if (n == 0) break;
      svg.append(buf, static_cast<std::size_t>(n));
    }
  }
  static constexpr std::string_view kImage = "<image ";
  if (svg.find(kImage) == std::string::npos) return "";
  std::string marked;
  marked.reserve(svg.size() + 256);
  std::size_t from = 0;
  for (std::size_t at = svg.find(kImage); at != std::string::npos; at = svg.find(kImage, from)) {
    marked.append(svg, from, at - from);
    marked += kPixelatedImage;
    from = at + kImage.size();
  }
  marked.append(svg, from, std::string::npos);
  Fd f;
  f.fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
  if (f.fd < 0) return "cannot rewrite " + printable_text(path) + ": " + errno_text(errno);
  std::string_view left(marked);
  while (!left.empty()) {
    const ssize_t n = ::write(f.fd, left.data(), left.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return "cannot rewrite " + printable_text(path) + ": " + errno_text(errno);
    left.remove_prefix(static_cast<std::size_t>(n));
  }
  const int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) return "cannot rewrite " + printable_text(path) + ": " + errno_text(errno);
  return "";
}

PlotResult render(const std::string& script, const std::string& in, const std::string& out,
                  std::chrono::milliseconds timeout) {
  const std::string ext = ends_with(out, ".png") ? ".png" : ends_with(out, ".svg") ? ".svg" : "";
  if (ext.empty()) return fail("the picture " + out + " must end in .png or .svg");
  if (::access(script.c_str(), R_OK) != 0)
    return fail("cannot read the plot script " + script + ": " + errno_text(errno));
  if (::access(in.c_str(), R_OK) != 0) return fail("cannot read " + in + ": " + errno_text(errno));

  AsideFile aside;
  try {
    // A new file of a random name (never a link planted there), which gnuplot then fills.
    ::close(create_aside_file(out, ext, aside.path));
    aside.slot = register_temporary(aside.path);
  } catch (const IoError& e) {
    return fail(e.what());
  }

  Fd read_end, write_end;
  {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return fail("cannot start gnuplot: pipe: " + errno_text(errno));
    read_end.fd = fds[0];
    write_end.fd = fds[1];
  }
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, write_end.fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, write_end.fd, STDERR_FILENO);
  // Its own process group (so a timeout can kill what it started, e.g. the awk of the
  // scripts), no blocked signals, and SIGPIPE at its default whatever ours is.
  sigset_t none, pipe_only;
  sigemptyset(&none);
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &pipe_only);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::string arg0 = "gnuplot", arg1 = "-c", arg2 = script, arg3 = in, arg4 = aside.path;
  char* argv[] = {arg0.data(), arg1.data(), arg2.data(), arg3.data(), arg4.data(), nullptr};
  RegisteredChild child;
  const auto started = Clock::now();
  // The signals that end the process wait until the child is in the registry: a handler
  // that ran in between would not know the group to kill.
  sigset_t ending, previous;
  sigemptyset(&ending);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&ending, s);
  pthread_sigmask(SIG_BLOCK, &ending, &previous);
  const int rc = ::posix_spawnp(&child.pid, "gnuplot", &actions, &attr, argv, environ);
  if (rc == 0) child.slot = register_child(child.pid);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  write_end.close();  // the child holds its copies; EOF comes when it is done
  if (rc == ENOENT) {
    PlotResult missing = fail("gnuplot not found (install gnuplot-nox)");
    missing.gnuplot_missing = true;
    return missing;
  }
  if (rc != 0) return fail("cannot start gnuplot: " + errno_text(rc));

  const Outcome o = collect(child, read_end.fd, started + timeout);
  const std::string what = "gnuplot -c " + script + " " + printable_text(in);
  const std::string said = printable_text(trim_end(o.output, " \r\n"));  // one line, whatever gnuplot wrote
  if (o.timed_out) {
    return fail(what + ": no result after " + std::to_string(timeout.count()) + " ms, killed" +
                (said.empty() ? "" : ": " + said));
  }
  if (WIFSIGNALED(o.status)) {
    return fail(what + ": killed by signal " + std::to_string(WTERMSIG(o.status)) + (said.empty() ? "" : ": " + said));
  }
  if (!WIFEXITED(o.status) || WEXITSTATUS(o.status) != 0) {
    return fail(what + ": exit status " + std::to_string(WEXITSTATUS(o.status)) + (said.empty() ? "" : ": " + said));
  }
  struct stat st {};
  if (::stat(aside.path.c_str(), &st) != 0 || st.st_size == 0) {
    return fail(what + ": exited without writing a picture" + (said.empty() ? "" : ": " + said));
  }
  if (!picture_ends_whole(file_tail(aside.path, 64), ext)) {
    return fail(what + ": the picture is cut short (" + std::to_string(st.st_size) + " bytes, no end of " +
                ext.substr(1) + "): a full disk?" + (said.empty() ? "" : ": " + said));
  }
  if (ext == ".svg") {
    if (const std::string why = mark_images_pixelated(aside.path); !why.empty()) return fail(what + ": " + why);
  }
  if (::rename(aside.path.c_str(), out.c_str()) != 0) {
    return fail("cannot rename the finished picture to " + out + ": " + errno_text(errno));
  }
  aside.keep = true;
  return PlotResult{true, ""};
}

}  // namespace

bool picture_ends_whole(std::string_view tail, std::string_view ext) {
  if (ext == ".png") {
    // The IEND chunk: length 0, type, and the CRC of "IEND" (always AE 42 60 82).
    static constexpr std::string_view kIend("\0\0\0\0IEND\xAE\x42\x60\x82", 12);
    return tail.ends_with(kIend);
  }
  if (ext == ".svg") {
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r' || tail.back() == ' ' || tail.back() == '\t')) {
      tail.remove_suffix(1);
    }
    return tail.ends_with("</svg>");
  }
  return false;
}

PlotResult render_plot(const std::string& script, const std::string& in, const std::string& out,
                       std::chrono::milliseconds timeout) {
  try {
    return render(script, in, out, timeout);
  } catch (const std::exception& e) {  // only allocation can throw here
    return fail(std::string("cannot plot: ") + e.what());
  } catch (...) {
    return fail("cannot plot: unknown error");
  }
}

bool gnuplot_on_path() {
  const char* env = std::getenv("PATH");
  const std::string path = env != nullptr ? env : "/bin:/usr/bin";
  std::size_t from = 0;
  while (true) {
    const std::size_t to = path.find(':', from);
    std::string dir = path.substr(from, to == std::string::npos ? std::string::npos : to - from);
    if (dir.empty()) dir = ".";  // an empty entry is the current directory
    const std::string file = dir + "/gnuplot";
    struct stat st {};
    if (::stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(file.c_str(), X_OK) == 0) return true;
    if (to == std::string::npos) return false;
    from = to + 1;
  }
}

}  // namespace tscaudit
