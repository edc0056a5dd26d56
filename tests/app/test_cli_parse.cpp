#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <sstream>

#include "app/cli.hpp"
#include "core/errors.hpp"
#include "error_messages.hpp"

using namespace tscaudit;

namespace {

MeasureOptions measure(std::vector<std::string> args) {
  args.insert(args.begin(), {"tscaudit", "measure"});
  const cli::Command c = cli::parse(args);
  REQUIRE(std::holds_alternative<MeasureOptions>(c));
  return std::get<MeasureOptions>(c);
}

std::string error(std::vector<std::string> args) {
  args.insert(args.begin(), "tscaudit");
  return test::what_thrown<UsageError>([&] { cli::parse(args); });
}

/// What `measure` makes of its exchange and run options.
struct Settings {
  Variant send;
  Variant recv;
  TransportKind transport;
  std::uint64_t rounds;
  std::uint64_t warmup;
  std::chrono::milliseconds::rep timeout_ms;
};

void check_settings(const MeasureOptions& m, const Settings& want) {
  CHECK(m.choice.send == want.send);
  CHECK(m.choice.recv == want.recv);
  CHECK(m.choice.transport == want.transport);
  CHECK(m.config.rounds == want.rounds);
  CHECK(m.config.warmup == want.warmup);
  CHECK(m.config.timeout.count() == want.timeout_ms);
}

}  // namespace

TEST_CASE("measure options and their defaults") {
  const MeasureOptions m = measure({"--cpus", "1,0", "--out", "run.csv"});
  CHECK(m.config.cpu_a == 1);
  CHECK(m.config.cpu_b == 0);
  check_settings(m, {Variant::rdtsc, Variant::lfence_rdtsc, TransportKind::slot, 1000000, 10000, 2000});
  CHECK(m.out == "run.csv");
  CHECK(m.command_line == "tscaudit measure --cpus 1,0 --out run.csv");

  const MeasureOptions v = measure({"--cpus", "0,1", "--variant", "rdtscp", "--rounds", "5", "--warmup", "0",
                                    "--transport", "queue", "--timeout-ms", "10", "--out", "-"});
  check_settings(v, {Variant::rdtscp, Variant::rdtscp, TransportKind::queue, 5, 0, 10});

  const MeasureOptions sr =
      measure({"--cpus", "0,1", "--send", "cpuid_rdtsc", "--recv", "rdtscp_lfence", "--out", "x"});
  CHECK(sr.choice.send == Variant::cpuid_rdtsc);
  CHECK(sr.choice.recv == Variant::rdtscp_lfence);
}

TEST_CASE("every variant name parses back to itself") {
  for (Variant v : kHostVariants) {
    CHECK(parse_variant(variant_name(v)) == v);
    CHECK(measure({"--cpus", "0,1", "--variant", std::string(variant_name(v)), "--out", "x"}).choice.send == v);
  }
  CHECK(variant_list(kHostVariants) ==
        "rdtsc, rdtsc_lfence, lfence_rdtsc, lfence_rdtsc_lfence, rdtscp, rdtscp_lfence, mfence_rdtsc, cpuid_rdtsc");
}

TEST_CASE("a variant of the other architecture is refused, naming it and the valid ones") {
  // This binary is x86-64 (the app tests are built natively): every aarch64 name is refused.
  for (Variant v : kAarch64Variants) {
    const std::string name(variant_name(v));
    CHECK_THROWS_WITH(measure({"--cpus", "0,1", "--recv", name, "--out", "x"}),
                      "variant '" + name +
                          "' for --recv reads the counter of aarch64; this is x86-64: choose from rdtsc, rdtsc_lfence, "
                          "lfence_rdtsc, lfence_rdtsc_lfence, rdtscp, rdtscp_lfence, mfence_rdtsc, cpuid_rdtsc");
  }
}

TEST_CASE("monitor --duty: a fraction of every interval, at least a millisecond of it") {
  const cli::Command c = cli::parse({"tscaudit", "monitor", "--cpus", "0,1", "--duty", "0.1", "--out", "m"});
  CHECK(std::get<MonitorOptions>(c).duty == Approx(0.1).margin(0));
  const cli::Command d = cli::parse({"tscaudit", "monitor", "--cpus", "0,1", "--out", "m"});
  CHECK(std::get<MonitorOptions>(d).duty == Approx(1.0).margin(0));
  CHECK(error({"monitor", "--cpus", "0,1", "--duty", "0", "--out", "m"}) == "--duty 0 must be between 0.001 and 1");
  CHECK(error({"monitor", "--cpus", "0,1", "--duty", "1.5", "--out", "m"}) == "--duty 1.5 must be between 0.001 and 1");
  CHECK(error({"monitor", "--cpus", "0,1", "--duty", "0.05", "--interval", "0.01", "--out", "m"}) ==
        "--duty 0.05 of --interval 0.01 measures less than 1 ms per interval: a longer interval or a larger duty");
}

TEST_CASE("bad measure options say what is wrong") {
  // The arguments after the program's name, and the whole message.
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"measure", "--cpus", "0", "--out", "x"},
       "--cpus '0' names 1 CPU; measure takes exactly two, A,B (A initiates)"},
      {{"measure", "--cpus", "0-2", "--out", "x"},
       "--cpus '0-2' names 3 CPUs; measure takes exactly two, A,B (A initiates)"},
      {{"measure", "--cpus", "x,1", "--out", "x"}, "--cpus: bad CPU list 'x,1' at character 1: expected a CPU number"},
      {{"measure", "--cpus", "", "--out", "x"}, "--cpus: empty CPU list"},
      {{"measure", "--cpus", "0,\x01", "--out", "x"},
       "--cpus: bad CPU list '0,\\x01' at character 3: expected a CPU number"},
      {{"measure", "--cpus", "0,1", "--variant", "rdtscx", "--out", "x"},
       "unknown variant 'rdtscx' for --variant (choose from rdtsc, rdtsc_lfence, lfence_rdtsc, lfence_rdtsc_lfence, "
       "rdtscp, rdtscp_lfence, mfence_rdtsc, cpuid_rdtsc)"},
      {{"measure", "--cpus", "0,1", "--variant", "rdtsc", "--send", "rdtsc", "--out", "x"},
       "give --variant (both sides) or --send/--recv, not both"},
      {{"measure", "--cpus", "0,1", "--rounds", "0", "--out", "x"}, "--rounds 0 is out of range [1, 20000000]"},
      {{"measure", "--cpus", "0,1", "--rounds", "-5", "--out", "x"},
       "--rounds '-5' is not an unsigned decimal number (expected one in [1, 20000000])"},
      {{"measure", "--cpus", "0,1", "--rounds", "1e6", "--out", "x"},
       "--rounds '1e6' is not an unsigned decimal number (expected one in [1, 20000000])"},
      {{"measure", "--cpus", "0,1", "--rounds", "99999999999999999999999", "--out", "x"},
       "--rounds 99999999999999999999999 is out of range [1, 20000000]"},
      {{"measure", "--cpus", "0,1", "--warmup", "", "--out", "x"},
       "--warmup '' is not an unsigned decimal number (expected one in [0, 20000000])"},
      {{"measure", "--cpus", "0,1", "--timeout-ms", "0", "--out", "x"},
       "--timeout-ms '0' is not a duration > 0 (milliseconds, or a number with ms, s, m or h: 500ms, 90s, 2m, 1h)"},
      {{"measure", "--cpus", "0,1", "--timeout-ms", "0.4", "--out", "x"},
       "--timeout-ms 0.4 is out of range [1 ms, 1 h]"},
      {{"measure", "--cpus", "0,1", "--timeout-ms", "61m", "--out", "x"},
       "--timeout-ms 61m is out of range [1 ms, 1 h]"},
      {{"measure", "--cpus", "0,1", "--transport", "pipe", "--out", "x"},
       "unknown transport 'pipe' (choose slot or queue)"},
      {{"measure", "--cpus", "0,1"}, "measure needs --out FILE"},
      {{"measure", "--out", "x"}, "measure needs --cpus A,B"},
      {{"measure", "--cpus", "0,1", "--out", "x", "--bogus"}, "unknown option --bogus for measure"},
      {{"measure", "--cpus", "0,1", "--out", "x", "--round=5"},
       "unknown option --round for measure (did you mean --rounds?)"},
      {{"measure", "--cpus", "0,1", "--out", "x", "--out", "y"}, "--out is given more than once: give it once"},
      {{"measure", "--out", "x", "--cpus"}, "--cpus needs a value: --cpus A,B"},
      {{"analyze"}, "analyze needs at least one FILE"},
      {{"check", "soon"}, "unexpected argument 'soon' for check (it takes options only)"},
      {{"frobnicate"},
       "unknown command 'frobnicate' (commands: report, check, compare, state, info, variants, matrix, monitor, measure, analyze, "
       "simulate)"},
      {{"repot"},
       "unknown command 'repot' (did you mean report?) (commands: report, check, compare, state, info, variants, matrix, monitor, "
       "measure, analyze, simulate)"},
      {{}, "which command? give one of report, check, compare, state, info, variants, matrix, monitor, measure, analyze or simulate"},
      {{"info", "--format", "xml"}, "--format 'xml' is not text or json"},
      {{"info", "--ntp-seconds", "3601"}, "--ntp-seconds 3601 is out of range [0, 3600] (seconds)"},
      {{"info", "--ntp-seconds", "61m"}, "--ntp-seconds 61m is out of range [0, 3600] (seconds)"},
      {{"info", "--ntp-seconds", "1.5"}, "--ntp-seconds 1.5 is not a whole number of seconds"},
      {{"info", "--ntp-seconds", "-1"},
       "--ntp-seconds '-1' is not a duration > 0 (seconds, or a number with ms, s, m or h: 500ms, 90s, 2m, 1h)"},
  };
  for (const auto& [args, message] : cases) {
    INFO(cli::quote_command_line(args));
    CHECK(error(args) == message);
  }
  CHECK(error({"measure", "--cpus", "0,1", "--recv", "RDTSC", "--out", "x"})
            .rfind("unknown variant 'RDTSC' for --recv", 0) == 0);
}

TEST_CASE("the queue and the same-CPU control send plainly or with the receive read") {
  const std::string plain(variant_name(kHostVariants[0]));
  const std::string second(variant_name(kHostVariants[1]));
  const std::string third(variant_name(kHostVariants[2]));
  const std::string tail = " or with the receive read (--variant V), not --send " + second + " --recv " + third +
                           ": every send x receive pair runs on the slot between two CPUs";
  CHECK(error({"measure", "--cpus", "0,1", "--transport", "queue", "--send", second, "--recv", third, "--out", "x"}) ==
        "--transport queue sends with " + plain + tail);
  CHECK(error({"measure", "--cpus", "1,1", "--send", second, "--recv", third, "--out", "x"}) ==
        "the same-CPU control (--cpus A,A) sends with " + plain + tail);
  CHECK(error({"measure", "--cpus", "1,1", "--transport", "queue", "--send", second, "--recv", third, "--out", "x"}) ==
        "the same-CPU control (--cpus A,A) sends with " + plain + tail);
  // What they do take: the plain send with any receive read, one variant on both sides, and
  // every pair on the slot between two CPUs.
  for (const char* cpus : {"0,1", "1,1"}) {
    for (const char* transport : {"slot", "queue"}) {
      for (Variant v : kHostVariants) {
        const std::string name(variant_name(v));
        const MeasureOptions recv_only = measure({"--cpus", cpus, "--transport", transport, "--recv", name, "--out", "x"});
        CHECK(recv_only.choice.send == kHostVariants[0]);
        CHECK(recv_only.choice.recv == v);
        CHECK(measure({"--cpus", cpus, "--transport", transport, "--variant", name, "--out", "x"}).choice.send == v);
      }
    }
  }
  CHECK(measure({"--cpus", "0,1", "--send", second, "--recv", third, "--out", "x"}).choice.send == kHostVariants[1]);
}

TEST_CASE("info options and their defaults") {
  const cli::Command plain = cli::parse({"tscaudit", "info"});
  REQUIRE(std::holds_alternative<cli::InfoCommand>(plain));
  CHECK(std::get<cli::InfoCommand>(plain).format == OutputFormat::text);
  CHECK(std::get<cli::InfoCommand>(plain).ntp_seconds == 0);
  const cli::Command ntp = cli::parse({"tscaudit", "info", "--format", "json", "--ntp-seconds", "30"});
  REQUIRE(std::holds_alternative<cli::InfoCommand>(ntp));
  CHECK(std::get<cli::InfoCommand>(ntp).format == OutputFormat::json);
  CHECK(std::get<cli::InfoCommand>(ntp).ntp_seconds == 30);
  CHECK(std::get<cli::InfoCommand>(cli::parse({"tscaudit", "info", "--ntp-seconds", "2m"})).ntp_seconds == 120);
}

TEST_CASE("the command line is quoted for provenance") {
  CHECK(cli::quote_command_line({"tscaudit", "measure", "--out", "a b.csv", "--x", "it's", ""}) ==
        "tscaudit measure --out 'a b.csv' --x 'it'\\''s' ''");
  // One printable line whatever the arguments hold (a run file's `# command:` line, the
  // report's provenance), still a command a shell runs as given.
  CHECK(cli::quote_command_line({"tscaudit", "check", "--out", "evil\n\x1b[31m\xff it's\\"}) ==
        "tscaudit check --out $'evil\\n\\x1b[31m\\xff it\\'s\\\\'");
}

TEST_CASE("variants options and their defaults") {
  const cli::Command plain = cli::parse({"tscaudit", "variants"});
  REQUIRE(std::holds_alternative<VariantsOptions>(plain));
  const VariantsOptions& d = std::get<VariantsOptions>(plain);
  CHECK(d.cpus.empty());
  CHECK(d.rounds == 200000);
  CHECK(d.passes == 4);
  CHECK(d.warmup == kVariantsWarmup);
  CHECK_FALSE(d.all);
  CHECK(d.control_rounds == 20000);
  CHECK(d.switch_rounds == 50000);
  CHECK(d.timeout == std::chrono::milliseconds(2000));
  CHECK(d.format == OutputFormat::text);
  CHECK(d.out_dir.empty());
  CHECK(d.command_line == "tscaudit variants");

  const cli::Command given = cli::parse({"tscaudit",  "variants",
                                         "--cpus",   "1,0",
                                         "--rounds", "1000",
                                         "--passes", "2",
                                         "--all",    "--control-rounds",
                                         "0",        "--switch-rounds",
                                         "10",       "--format",
                                         "json",     "--out",
                                         "v",        "--timeout-ms",
                                         "500",      "--warmup",
                                         "5"});
  const VariantsOptions& g = std::get<VariantsOptions>(given);
  CHECK(g.cpus == "1,0");
  CHECK(g.rounds == 1000);
  CHECK(g.passes == 2);
  CHECK(g.all);
  CHECK(g.control_rounds == 0);
  CHECK(g.switch_rounds == 10);
  CHECK(g.format == OutputFormat::json);
  CHECK(g.out_dir == "v");
  CHECK(g.timeout == std::chrono::milliseconds(500));
  CHECK(g.warmup == 5);

  CHECK(error({"variants", "--cpus", "0,y"}) == "--cpus: bad CPU list '0,y' at character 3: expected a CPU number");
  CHECK(error({"variants", "--cpus", ""}) == "--cpus: empty CPU list");
  // An unset variable in a script ($CPUS) is an error in every command, in the same words.
  for (const char* command : {"check", "matrix", "report"}) {
    CHECK(error({command, "--cpus", ""}) ==
          "--cpus: empty CPU list (leave --cpus out to measure every CPU this process may use)");
  }
  CHECK(error({"monitor", "--cpus", "", "--out", "x"}) == "--cpus: empty CPU list");
  CHECK(error({"variants", "--rounds", "1"}) == "--rounds 1 is out of range [2, 20000000]");

  const cli::Command report = cli::parse({"tscaudit", "report", "--variants-rounds", "5000", "--timeout-ms", "700"});
  const ReportOptions& r = std::get<ReportOptions>(report);
  CHECK(r.variants);
  CHECK(r.variants_options.rounds == 5000);
  CHECK(r.variants_options.timeout == std::chrono::milliseconds(700));
  CHECK_FALSE(std::get<ReportOptions>(cli::parse({"tscaudit", "report", "--no-variants"})).variants);
}

TEST_CASE("durations: a plain number in the option's unit or a number with ms s m or h, anything else refused") {
  CHECK(cli::parse_duration_s("--duration", "90") == Approx(90));
  CHECK(cli::parse_duration_s("--duration", "90s") == Approx(90));
  CHECK(cli::parse_duration_s("--duration", "0.5") == Approx(0.5));
  CHECK(cli::parse_duration_s("--duration", "250ms") == Approx(0.25));
  CHECK(cli::parse_duration_s("--duration", "10m") == Approx(600));
  CHECK(cli::parse_duration_s("--duration", "1.5h") == Approx(5400));
  const cli::Seconds ms{0.001, "milliseconds"};
  CHECK(cli::parse_duration("--timeout-ms", "2000", ms) == Approx(2));
  CHECK(cli::parse_duration("--timeout-ms", "2s", ms) == Approx(2));
  CHECK(cli::parse_duration("--timeout-ms", "20ms", ms) == Approx(0.02));
  for (const char* bad :
       {"", "m", "ms", "-1", "0", "0s", "1d", "1 m", "1sm", "1mss", "nan", "inf", "1e999", "1e306h"}) {
    INFO(bad);
    CHECK_THROWS_WITH(cli::parse_duration_s("--duration", bad),
                      "--duration '" + std::string(bad) +
                          "' is not a duration > 0 (seconds, or a number with ms, s, m or h: 500ms, 90s, 2m, 1h)");
  }
  CHECK_THROWS_WITH(cli::parse_duration("--timeout-ms", "soon", ms),
                    "--timeout-ms 'soon' is not a duration > 0 (milliseconds, or a number with ms, s, m or h: 500ms, "
                    "90s, 2m, 1h)");
}

TEST_CASE("every duration option takes the same units") {
  CHECK(
      std::get<MeasureOptions>(cli::parse({"tscaudit", "measure", "--cpus", "0,1", "--timeout-ms", "2s", "--out", "x"}))
          .config.timeout == std::chrono::milliseconds(2000));
  CHECK(std::get<MeasureOptions>(
            cli::parse({"tscaudit", "measure", "--cpus", "0,1", "--timeout-ms", "750", "--out", "x"}))
            .config.timeout == std::chrono::milliseconds(750));
  CHECK(std::get<VariantsOptions>(cli::parse({"tscaudit", "variants", "--timeout-ms", "1.5s"})).timeout ==
        std::chrono::milliseconds(1500));
  for (const char* budget : {"90", "90s", "1.5m", "90000ms"}) {
    INFO(budget);
    CHECK(std::get<MatrixOptions>(cli::parse({"tscaudit", "matrix", "--budget", budget})).budget_seconds == Approx(90));
    CHECK(std::get<CheckOptions>(cli::parse({"tscaudit", "check", "--budget", budget})).matrix.budget_seconds ==
          Approx(90));
    CHECK(std::get<ReportOptions>(cli::parse({"tscaudit", "report", "--budget", budget})).matrix.budget_seconds ==
          Approx(90));
  }
  CHECK(
      std::get<CheckOptions>(cli::parse({"tscaudit", "check", "--quick", "--budget", "20ms"})).matrix.budget_seconds ==
      Approx(0.02));
  for (const char* command : {"matrix", "check", "report"}) {
    CHECK(error({command, "--budget", "-1"}) ==
          "--budget '-1' is not a duration > 0 (seconds, or a number with ms, s, m or h: 500ms, 90s, 2m, 1h)");
  }
  CHECK(std::get<MonitorOptions>(cli::parse({"tscaudit", "monitor", "--cpus", "0,1", "--interval", "500ms",
                                             "--duration", "1h", "--out", "-"}))
            .interval_s == Approx(0.5));
}

TEST_CASE("the same plan options have the same defaults in matrix, check and report") {
  const MatrixOptions m = std::get<MatrixOptions>(cli::parse({"tscaudit", "matrix"}));
  const MatrixOptions c = std::get<CheckOptions>(cli::parse({"tscaudit", "check"})).matrix;
  const MatrixOptions r = std::get<ReportOptions>(cli::parse({"tscaudit", "report"})).matrix;
  for (const MatrixOptions* o : {&m, &c, &r}) {
    CHECK(o->parallel);
    CHECK(o->visits == 0);  // by the plan: kDefaultVisits, more with a larger budget
    CHECK(o->timeout == std::chrono::milliseconds(2000));
    CHECK(o->warmup == m.warmup);
  }
  // matrix measures every ordered pair unless given a budget (its help says so); check and
  // report plan for 90 s.
  CHECK(m.budget_seconds == Approx(0));
  CHECK(c.budget_seconds == Approx(90));
  CHECK(r.budget_seconds == Approx(90));
  CHECK_FALSE(std::get<MatrixOptions>(cli::parse({"tscaudit", "matrix", "--sequential"})).parallel);
  CHECK(std::get<MatrixOptions>(cli::parse({"tscaudit", "matrix", "--parallel"})).parallel);
  CHECK(error({"matrix", "--parallel", "--sequential"}) == "give --parallel or --sequential, not both");
}

TEST_CASE("help COMMAND is COMMAND --help") {
  CHECK(std::holds_alternative<cli::Printed>(cli::parse({"tscaudit", "help"})));
  CHECK(std::holds_alternative<cli::Printed>(cli::parse({"tscaudit", "help", "check"})));
  CHECK(error({"help", "chek"}) ==
        "unknown command 'chek' (did you mean check?) (commands: report, check, compare, state, info, variants, matrix, monitor, "
        "measure, analyze, simulate)");
}

TEST_CASE("the hint after an error names the command's help") {
  CHECK(cli::command_of({"tscaudit", "check", "--out", "x"}) == "check");
  CHECK(cli::command_of({"tscaudit", "--out", "check"}).empty());
  CHECK(cli::command_of({"tscaudit", "chek"}).empty());
  CHECK(cli::command_of({"tscaudit"}).empty());
}

namespace {

/// The help's words in order: the same at any width if the wrapping splits none.
std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

}  // namespace

TEST_CASE("every help fits 100 columns, splits no word, names what each option takes, ends with examples") {
  const std::vector<std::string> commands = {"",       "report",  "check",   "info",    "variants",
                                             "matrix", "monitor", "measure", "analyze", "simulate"};
  for (const std::string& command : commands) {
    INFO("tscaudit " + command + " --help");
    const std::string help = cli::help_text(command);
    std::istringstream lines(help);
    int n = 0;
    for (std::string line; std::getline(lines, line);) {
      ++n;
      INFO("line " << n << ": " << line);
      CHECK(line.size() <= kTextColumns);
      CHECK(line.find(" TEXT") == std::string::npos);
      CHECK(line.find("REQUIRED") == std::string::npos);
    }
    CHECK(words_of(help) == words_of(cli::help_text(command, 100000)));
    const std::size_t examples = help.find("\nExamples:\n  ");
    REQUIRE(examples != std::string::npos);
    CHECK(help.find("\n  tscaudit ", examples) != std::string::npos);
  }
  // The placeholders and defaults as they read.
  const std::string check = cli::help_text("check");
  CHECK_THAT(check, Catch::Matchers::Contains("  --budget SECONDS"));
  CHECK_THAT(check, Catch::Matchers::Contains("[default: 90s]"));
  CHECK_THAT(check, Catch::Matchers::Contains("  --cpus CPUS"));
  CHECK_THAT(check, Catch::Matchers::Contains("  --visits N "));
  CHECK_THAT(check, Catch::Matchers::Contains("  --out DIR "));
  CHECK_THAT(check, Catch::Matchers::Contains("  --timeout-ms MS "));
  CHECK_THAT(cli::help_text("measure"), Catch::Matchers::Contains("  --cpus A,B (required)"));
  CHECK_THAT(cli::help_text("measure"), Catch::Matchers::Contains("  --rounds N "));
  CHECK_THAT(cli::help_text("analyze"), Catch::Matchers::Contains("Usage: tscaudit analyze [OPTIONS] FILE..."));
  // The top level lists the commands in the order people use them, one line each.
  const std::string top = cli::help_text("");
  std::size_t at = 0;
  for (std::size_t i = 1; i < commands.size(); ++i) {
    INFO(commands[i]);
    const std::size_t found = top.find("\n  " + commands[i] + " ", at);
    REQUIRE(found != std::string::npos);
    at = found + 1;
  }
}

TEST_CASE("monitor options: parsed into MonitorOptions, defaults documented") {
  const cli::Command c = cli::parse({"tscaudit", "monitor", "--cpus", "0,1", "--duration", "10m", "--out", "m.log"});
  const auto* m = std::get_if<MonitorOptions>(&c);
  REQUIRE(m != nullptr);
  CHECK(m->cpu_a == 0);
  CHECK(m->cpu_b == 1);
  CHECK(m->interval_s == Approx(1.0));
  CHECK(m->duration_s == Approx(600));
  CHECK(m->queue_rounds == kDefaultMonitorQueueRounds);
  CHECK(m->timeout == std::chrono::milliseconds(2000));
  CHECK(m->choice.send == Variant::rdtsc);
  CHECK(m->choice.recv == Variant::lfence_rdtsc);
  CHECK(m->out == "m.log");
  const cli::Command u =
      cli::parse({"tscaudit", "monitor", "--cpus", "1,0", "--variant", "rdtscp", "--interval", "0.25", "--out", "-"});
  const auto* v = std::get_if<MonitorOptions>(&u);
  REQUIRE(v != nullptr);
  CHECK(v->cpu_a == 1);
  CHECK(v->interval_s == Approx(0.25));
  CHECK(v->duration_s == Approx(0));  // until a signal
  CHECK(v->choice.send == Variant::rdtscp);
  CHECK(v->choice.recv == Variant::rdtscp);
  CHECK_THROWS_WITH(cli::parse({"tscaudit", "monitor", "--cpus", "0,1", "--interval", "250us", "--out", "-"}),
                    "--interval '250us' is not a duration > 0 (seconds, or a number with ms, s, m or h: 500ms, 90s, "
                    "2m, 1h)");
}
