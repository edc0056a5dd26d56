#include "analyze_command.hpp"

#include <iostream>

#include "analysis_output.hpp"
#include "analyze.hpp"
#include "output_file.hpp"
#include "run_format.hpp"

namespace tscsync {

int run_analyze(const AnalyzeOptions& options) {
  OutputFile out(options.out);  // before the work: an unwritable output fails at once
  std::vector<PairAnalysis> pairs;
  for (const std::string& file : options.files) {
    const Run run = read_run_file(file);
    pairs.push_back(analyze_run(run, file == "-" ? "<stdin>" : file));
    if (pairs.back().incomplete) {
      std::cerr << "tscsync analyze: warning: " << pairs.back().source << " is not a complete run ("
                << *pairs.back().incomplete << "); analysing the rounds it holds\n";
    }
  }
  switch (options.format) {
    case OutputFormat::text: {
      std::string text;
      for (const PairAnalysis& p : pairs) text += analysis_text(p) + "\n";
      out.write(text);
      break;
    }
    case OutputFormat::json:
      // Strings from the input (send, recv, a file name) may hold bytes that are not
      // UTF-8: they become U+FFFD instead of an exception from the JSON writer.
      out.write(analysis_json(pairs).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
      break;
    case OutputFormat::csv: out.write(analysis_csv(pairs)); break;
  }
  out.commit();
  return 0;
}

}  // namespace tscsync
