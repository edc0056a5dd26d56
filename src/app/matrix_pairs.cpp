#include "app/matrix_pairs.hpp"

#include <filesystem>
#include <optional>

#include "app/progress.hpp"
#include "core/format.hpp"
#include "formats/run_format.hpp"
#include "io/output_file.hpp"
#include "render/matrix_output.hpp"
#include "render/pair_output.hpp"

namespace tscaudit {
namespace {

std::string pair_file_stem(int a, int b) { return "pair_" + std::to_string(a) + "_" + std::to_string(b); }

}  // namespace

PairOutputs pair_outputs(const MatrixOptions& options) { return {options.out_dir, options.save_runs}; }

void analyze_matrix(MatrixOutcome& o, const ExchangeChoice& choice, const PairRunSource& source,
                    const PairOutputs& outputs) {
  namespace fs = std::filesystem;
  std::optional<OutputFile> json_file;
  std::optional<AnalysisJsonStream> stream;
  const fs::path pairs_dir = fs::path(outputs.dir) / "pairs";
  if (!outputs.dir.empty()) {
    make_directories(pairs_dir.string());
    json_file.emplace((fs::path(outputs.dir) / "analysis.json").string());
    stream.emplace([&](std::string_view text) { json_file->write(text); });
  }
  PairAnalyzed write_pair;
  if (stream) {
    write_pair = [&](int a, int b, const Run& run, const PairAnalysis& analysis) {
      stream->add(analysis);
      write_text_file((pairs_dir / (pair_file_stem(a, b) + ".txt")).string(), analysis_text(analysis));
      if (outputs.save_runs) {
        OutputFile out((pairs_dir / (pair_file_stem(a, b) + ".csv")).string());
        write_run(run, [&](std::string_view text) { out.write(text); });
        out.commit();
      }
    };
  }
  // Each ordered pair is read, then analysed: the progress counts the reads.
  const std::size_t pairs = o.planned.plan.ordered_pairs;
  Progress progress(o.offline ? "reading and analysing the run" : "analysing", pairs);
  std::size_t read = 0;
  const PairRunSource counted = [&](int a, int b) {
    progress.update(read, std::to_string(read) + " of " + count_of(pairs, "ordered pair"));
    std::optional<Run> run = source(a, b);
    ++read;
    return run;
  };
  MatrixAnalysis analysis = analyze_matrix_pairs(o.planned.plan, o.planned.order,
                                                 {choice.send, choice.recv, o.platform.tsc.hz}, counted, write_pair);
  if (stream) {
    stream->finish();
    json_file->commit();
  }
  if (!analysis.unmeasured.empty()) {
    // Measured now, a pair without rounds is a failure; read from a directory, it is what
    // the directory holds (pairs may be missing).
    (o.offline ? o.incomplete : o.problems).push_back(unmeasured_pairs_note(analysis.unmeasured));
  }
  if (!analysis.incomplete.empty()) {
    o.incomplete.push_back(incomplete_pairs_note(analysis.incomplete, analysis.analyzed));
  }
  o.matrix = std::move(analysis.matrix);
}

}  // namespace tscaudit
