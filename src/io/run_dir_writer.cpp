// Writing a run directory while a run measures: the manifest first, then each visit as
// one zstd frame appended to its initiator's rounds file, the manifest again at the end.
#include "io/run_dir_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/errors.hpp"
#include "core/files.hpp"
#include "formats/rounds_codec.hpp"
#include "io/output_file.hpp"

namespace tscaudit {

RunDirWriter::RunDirWriter(RunDirLock lock, RunDirManifest manifest)
    : lock_(std::move(lock)), dir_(lock_.dir()), manifest_(std::move(manifest)) {}

RunDirWriter::~RunDirWriter() {
  for (const auto& [cpu, fd] : files_) ::close(fd);
}

std::unique_ptr<RunDirWriter> RunDirWriter::create(const std::string& dir, RunDirManifest manifest,
                                                   std::optional<std::string_view> topology_xml) {
  return create(RunDirLock::acquire(dir, EarlierRun::refuse), std::move(manifest), topology_xml);
}

std::unique_ptr<RunDirWriter> RunDirWriter::create(RunDirLock lock, RunDirManifest manifest,
                                                   std::optional<std::string_view> topology_xml) {
  const std::string dir = lock.dir();
  lock.clear_earlier_run();
  make_directories(join_path(dir, kRoundsDirName));
  manifest.status = RunDirStatus::running;
  manifest.detail.clear();
  manifest.ended_utc.clear();
  manifest.has_topology = topology_xml.has_value();
  if (topology_xml) write_text_file(join_path(dir, kTopologyName), *topology_xml);
  std::unique_ptr<RunDirWriter> w(new RunDirWriter(std::move(lock), std::move(manifest)));
  w->write_manifest();
  return w;
}

void RunDirWriter::write_manifest() {
  write_text_file(join_path(dir_, kManifestName), manifest_json(manifest_).dump(2) + "\n");
}

void RunDirWriter::append_visit(int a, int b, std::uint64_t visit, std::uint64_t first_seq,
                                std::span<const Round> rounds, std::uint64_t quantum_ticks, std::string_view error) {
  for (int cpu : {a, b}) {
    if (std::find(manifest_.cpus.begin(), manifest_.cpus.end(), cpu) == manifest_.cpus.end()) {
      throw UsageError("run directory " + dir_ + ": CPU " + std::to_string(cpu) + " is not among the manifest's CPUs");
    }
  }
  VisitHeader h;
  h.a = a;
  h.b = b;
  h.visit = visit;
  h.quantum_ticks = std::max<std::uint64_t>(quantum_ticks, 1);
  h.first_seq = first_seq;
  h.error = std::string(error);
  const std::string frame = compress_visit(h, rounds, first_seq);

  const std::lock_guard<std::mutex> lock(mutex_);
  const std::string path = join_path(join_path(dir_, kRoundsDirName), "cpu-" + std::to_string(a) + ".zst");
  if (finished_) throw IoError("cannot write " + path + ": the run directory was finished already");
  auto it = files_.find(a);
  if (it == files_.end()) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) throw IoError("cannot create " + path + ": " + std::strerror(errno));
    it = files_.emplace(a, fd).first;
  }
  const int fd = it->second;
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw IoError("cannot write " + path + ": " + std::strerror(errno));
  std::string_view rest = frame;
  while (!rest.empty()) {
    const ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      // A frame written in part would read as a damaged file once the next one follows:
      // take it back, so that the file stays whole frames (best effort; the error stands).
      const bool taken_back = ::ftruncate(fd, st.st_size) == 0;
      throw IoError("cannot write " + path + ": " + std::strerror(err) +
                    (taken_back ? "" : " (and the part of the visit written could not be taken back)"));
    }
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
}

void RunDirWriter::amend_plan(const std::string& key, nlohmann::ordered_json value) {
  const std::lock_guard<std::mutex> lock(mutex_);
  manifest_.plan[key] = std::move(value);
}

void RunDirWriter::finish(RunDirStatus status, std::string detail, std::string ended_utc) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) throw IoError("cannot finish the run directory " + dir_ + ": it was finished already");
  for (const auto& [cpu, fd] : files_) {
    if (::fsync(fd) != 0) {
      throw IoError("cannot write " +
                    join_path(join_path(dir_, kRoundsDirName), "cpu-" + std::to_string(cpu) + ".zst") + ": " +
                    std::strerror(errno));
    }
  }
  manifest_.status = status;
  manifest_.detail = std::move(detail);
  manifest_.ended_utc = std::move(ended_utc);
  write_manifest();
  finished_ = true;
  lock_.release_and_remove();
}

}  // namespace tscaudit
