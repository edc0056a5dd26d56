// An output directory, whole (docs/formats.md, "Output directories"): built aside and put in
// place in one rename, locked from the start, never written through what it did not make;
// and the copy of a run directory that an --out keeps.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "error_messages.hpp"
#include "formats/run_dir.hpp"
#include "io/dir_lock.hpp"
#include "io/output_dir.hpp"
#include "io/run_dir_copy.hpp"
#include "temp_files.hpp"

using namespace tscaudit;
namespace fs = std::filesystem;

namespace {

using test::slurp;
using test::spit;
using test::TempDir;
using test::what_thrown;

/// The names in `dir`, sorted; "" for a directory that is not there.
std::vector<std::string> output_dir_names(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// The entries beside `dir` whose names start with its own and a dot (what an OutputDir makes
/// beside it).
std::vector<std::string> output_dir_beside(const fs::path& dir) {
  std::vector<std::string> left;
  const std::string prefix = dir.filename().string() + ".";
  for (const std::string& name : output_dir_names(dir.parent_path())) {
    if (name.starts_with(prefix)) left.push_back(name);
  }
  return left;
}

/// A small matrix --out: what a matrix writes, and its run directory.
void make_matrix_output(const fs::path& dir) {
  fs::create_directories(dir / "pairs");
  fs::create_directories(dir / "run" / "rounds");
  for (const char* name : {"matrix.json", "matrix.txt", "analysis.json", "offset_ticks.dat", "offset_ticks.png",
                           "cpu_offsets.svg", "pairs/pair_0_1.txt", "pairs/pair_1_0.csv", "run/manifest.json",
                           "run/topology.xml", "run/rounds/cpu-0.zst", "run/rounds/cpu-1.zst"}) {
    spit(dir / name, std::string("earlier ") + name + "\n");
  }
}

}  // namespace

TEST_CASE("output directory: what each kind holds, and the first entry that is not its own", "[output_dir]") {
  TempDir tmp;
  const fs::path m = tmp.at("m");
  make_matrix_output(m);
  CHECK(first_foreign_entry(m.string(), OutputKind::matrix).empty());
  // Leftovers of tscaudit's own writing count as its own.
  spit(m / ".lock", "pid: 1\n");
  spit(m / "matrix.json.tmp.Ab12Cd", "half");
  spit(m / "run" / ".lock", "pid: 1\n");
  CHECK(first_foreign_entry(m.string(), OutputKind::matrix).empty());
  // The same files are not a report's, nor a run directory's.
  CHECK(first_foreign_entry(m.string(), OutputKind::report) == "analysis.json");
  CHECK(first_foreign_entry(m.string(), OutputKind::run) == "analysis.json");
  // Anything else, at any depth, is named by its path.
  spit(m / "pairs" / "notes.txt", "mine");
  CHECK(first_foreign_entry(m.string(), OutputKind::matrix) == "pairs/notes.txt");
  fs::remove(m / "pairs" / "notes.txt");
  fs::create_directories(m / "run" / "extra");
  CHECK(first_foreign_entry(m.string(), OutputKind::matrix) == "run/extra/");
  fs::remove(m / "run" / "extra");
  spit(m / "run" / "rounds" / "cpu-x.zst", "");
  CHECK(first_foreign_entry(m.string(), OutputKind::matrix) == "run/rounds/cpu-x.zst");
  fs::remove(m / "run" / "rounds" / "cpu-x.zst");
  // A link is never its own, at a file's name or a directory's; nor a FIFO.
  fs::remove(m / "matrix.txt");
  fs::create_symlink("/etc/hostname", m / "matrix.txt");
  CHECK(first_foreign_entry(m.string(), OutputKind::matrix) == "matrix.txt");
  fs::remove(m / "matrix.txt");
  fs::rename(m / "run", tmp.at("elsewhere"));
  fs::create_directory_symlink(tmp.at("elsewhere"), m / "run");
  CHECK(first_foreign_entry(m.string(), OutputKind::matrix) == "run");
  fs::remove(m / "run");
  REQUIRE(::mkfifo((m / "matrix.txt").c_str(), 0600) == 0);
  CHECK(first_foreign_entry(m.string(), OutputKind::matrix) == "matrix.txt");

  // A report holds matrices (the ordering read's and the plain one's) and the variants.
  const fs::path r = tmp.at("r");
  make_matrix_output(r / "matrix");
  make_matrix_output(r / "matrix_plain_rdtsc");
  fs::create_directories(r / "variants" / "runs");
  for (const char* name :
       {"report.md", "report.html", "info.txt", "info.json", "pair_verdicts.txt", "variants/variants.json",
        "variants/variants_cost.png", "variants/runs/send-rdtsc_recv-rdtsc_0-1.csv"}) {
    spit(r / name, "earlier");
  }
  CHECK(first_foreign_entry(r.string(), OutputKind::report).empty());
  spit(r / "variants" / "cost.png", "");
  CHECK(first_foreign_entry(r.string(), OutputKind::report) == "variants/cost.png");
  CHECK(first_foreign_entry(r.string(), OutputKind::variants) == "info.json");
}

TEST_CASE("output directory: built aside, put in place whole, the earlier output until then", "[output_dir]") {
  TempDir tmp;
  const fs::path d = tmp.at("out");
  make_matrix_output(d);
  {
    OutputDir out = OutputDir::begin(d.string(), OutputKind::matrix);
    CHECK(out.path() == d.string());
    CHECK(out.aside().starts_with(d.string() + ".tmp."));
    CHECK(fs::is_directory(out.aside()));
    CHECK((fs::status(out.aside()).permissions() & fs::perms::all) == fs::perms::owner_all);  // private while written
    // Locked, naming where it is built; the earlier output is still whole.
    const DirWriterState state = dir_writer_state(d.string());
    CHECK(state.kind == DirWriterState::Kind::writing);
    CHECK(state.mine());
    CHECK(state.aside == out.aside());
    CHECK(slurp(d / "run" / "manifest.json") == "earlier run/manifest.json\n");
    // A second writer is refused at once, naming this one.
    CHECK_THAT(what_thrown<IoError>([&] { (void)OutputDir::begin(d.string(), OutputKind::matrix); }),
               Catch::StartsWith("cannot write " + d.string() + ": it is being written by pid " +
                                 std::to_string(::getpid()) + " ("));
    CHECK(out.placed("cannot write " + out.aside() + "/matrix.json: No space") ==
          "cannot write " + d.string() + "/matrix.json: No space");
    spit(fs::path(out.aside()) / "matrix.json", "new");
    out.commit();
  }
  // In place: only what was built, nothing beside it, no lock.
  CHECK(output_dir_names(d) == std::vector<std::string>{"matrix.json"});
  CHECK(slurp(d / "matrix.json") == "new");
  CHECK(output_dir_beside(d).empty());
  CHECK(dir_writer_state(d.string()).kind == DirWriterState::Kind::no_lock_file);
  // The directory keeps the permissions it had.
  fs::permissions(d, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
  {
    OutputDir out = OutputDir::begin(d.string(), OutputKind::matrix);
    spit(fs::path(out.aside()) / "matrix.txt", "newer");
    out.commit();
  }
  CHECK((fs::status(d).permissions() & fs::perms::all) ==
        (fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec));
  CHECK(output_dir_names(d) == std::vector<std::string>{"matrix.txt"});
}

TEST_CASE("output directory: one that does not finish leaves everything as it was", "[output_dir]") {
  TempDir tmp;
  // An earlier output stays whole.
  const fs::path d = tmp.at("out");
  make_matrix_output(d);
  const std::vector<std::string> before = output_dir_names(d);
  {
    OutputDir out = OutputDir::begin(d.string(), OutputKind::matrix);
    fs::create_directories(fs::path(out.aside()) / "run" / "rounds");
    spit(fs::path(out.aside()) / "matrix.json", "half");
  }
  CHECK(output_dir_names(d) == before);
  CHECK(slurp(d / "matrix.json") == "earlier matrix.json\n");
  CHECK(output_dir_beside(d).empty());
  // A directory it made is gone again, its parents stay.
  const fs::path n = tmp.at("a/b/new");
  {
    OutputDir out = OutputDir::begin(n.string(), OutputKind::report);
    CHECK(fs::is_directory(n));
    spit(fs::path(out.aside()) / "report.md", "half");
  }
  CHECK_FALSE(fs::exists(n));
  CHECK(fs::is_directory(tmp.at("a/b")));
  CHECK(output_dir_beside(n).empty());
}

TEST_CASE("output directory: what it does not own is refused, never replaced nor written through", "[output_dir]") {
  TempDir tmp;
  const fs::path d = tmp.at("out");
  make_matrix_output(d);
  spit(d / "notes.txt", "mine");
  CHECK(what_thrown<IoError>([&] { (void)OutputDir::begin(d.string(), OutputKind::matrix); }) ==
        "cannot write " + d.string() +
            ": it holds notes.txt, which tscaudit does not write there (tscaudit replaces a directory only when it "
            "holds its own output of that kind: give a new or an empty directory)");
  CHECK(slurp(d / "notes.txt") == "mine");
  CHECK_FALSE(fs::exists(d / ".lock"));  // the refused writer left no lock behind
  CHECK(output_dir_beside(d).empty());
  // A link planted at a directory inside: refused; the directory it leads to is untouched.
  fs::remove(d / "notes.txt");
  const fs::path other = tmp.at("other_run");
  fs::create_directories(other);
  spit(other / "manifest.json", "someone else's");
  fs::remove_all(d / "run");
  fs::create_directory_symlink(other, d / "run");
  CHECK_THAT(what_thrown<IoError>([&] { (void)OutputDir::begin(d.string(), OutputKind::matrix); }),
             Catch::Contains(": it holds run, which tscaudit does not write there"));
  CHECK(output_dir_names(other) == std::vector<std::string>{"manifest.json"});
  // Not a directory; '.' and '..' are refused by name (they cannot be renamed into place).
  spit(tmp.at("file"), "x");
  CHECK(what_thrown<IoError>([&] { (void)OutputDir::begin(tmp.at("file"), OutputKind::matrix); }) ==
        "cannot write " + tmp.at("file") + ": it exists and is not a directory");
  for (const std::string& name : std::vector<std::string>{".", "..", tmp.at("."), "/"}) {
    CHECK_THAT(what_thrown<UsageError>([&] { (void)OutputDir::begin(name, OutputKind::matrix); }),
               Catch::EndsWith(": name the directory itself (tscaudit builds it beside where it goes, then renames "
                               "it into place)"));
  }
  // A link of this user's own at the directory is followed: the output goes where it leads.
  const fs::path target = tmp.at("target");
  fs::create_directories(target);
  fs::create_directory_symlink(target, tmp.at("link"));
  {
    OutputDir out = OutputDir::begin(tmp.at("link"), OutputKind::matrix);
    spit(fs::path(out.aside()) / "matrix.txt", "via the link");
    out.commit();
  }
  CHECK(fs::is_symlink(tmp.at("link")));
  CHECK(slurp(target / "matrix.txt") == "via the link");
  // One that another user made is refused (root can make one to try).
  if (::geteuid() == 0) {
    fs::create_directory_symlink(target, tmp.at("planted"));
    REQUIRE(::lchown(tmp.at("planted").c_str(), 65534, 65534) == 0);
    CHECK_THAT(what_thrown<IoError>([&] { (void)OutputDir::begin(tmp.at("planted"), OutputKind::matrix); }),
               Catch::EndsWith(": it is a symbolic link that another user made (a directory is written through a "
                               "link only when the link is yours or root's)"));
    CHECK(output_dir_names(target) == std::vector<std::string>{"matrix.txt"});
  }
}

TEST_CASE("run directory copy: what a reader reads, byte for byte", "[output_dir]") {
  TempDir tmp;
  const fs::path from = tmp.at("from");
  fs::create_directories(from / "rounds");
  spit(from / "manifest.json", "{\"m\": 1}\n");
  spit(from / "topology.xml", "<topology/>\n");
  spit(from / "rounds" / "cpu-0.zst", std::string("\x28\xb5\x2f\xfd\0\x01", 6));
  spit(from / "rounds" / "cpu-3.zst", std::string(100000, 'x'));
  spit(from / ".lock", "pid: 1\n");
  copy_run_dir(from.string(), tmp.at("to"));
  CHECK(output_dir_names(tmp.at("to")) == std::vector<std::string>{"manifest.json", "rounds", "topology.xml"});
  for (const char* name : {"manifest.json", "topology.xml", "rounds/cpu-0.zst", "rounds/cpu-3.zst"}) {
    CHECK(slurp(fs::path(tmp.at("to")) / name) == slurp(from / name));
  }
  // A rounds file that is not a regular file is refused, naming it (a FIFO would block).
  REQUIRE(::mkfifo((from / "rounds" / "cpu-4.zst").c_str(), 0600) == 0);
  CHECK(what_thrown<InputError>([&] { copy_run_dir(from.string(), tmp.at("to2")); }) ==
        (from / "rounds" / "cpu-4.zst").string() + ": not a regular file");
  // A plain directory: its regular files that are not hidden, links followed.
  const fs::path plain = tmp.at("plain");
  fs::create_directories(plain / "sub");
  spit(plain / "pair_0_1.csv", "# a: 0\n# b: 1\n");
  spit(plain / ".hidden", "x");
  spit(plain / "sub" / "x.csv", "x");
  fs::create_symlink(plain / "pair_0_1.csv", plain / "pair_1_0.csv");
  copy_run_dir(plain.string(), tmp.at("plain_copy"));
  CHECK(output_dir_names(tmp.at("plain_copy")) == std::vector<std::string>{"pair_0_1.csv", "pair_1_0.csv"});
  CHECK_FALSE(fs::is_symlink(fs::path(tmp.at("plain_copy")) / "pair_1_0.csv"));
}
