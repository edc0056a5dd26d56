// The progress line's text, and tolerances in every unit of time: exact strings and values.
#include <catch2/catch.hpp>

#include "app/progress.hpp"
#include "app/tolerance.hpp"
#include "core/errors.hpp"
#include "core/format.hpp"
#include "float_bits.hpp"

using tscaudit::testing::bits;

using namespace tscaudit;

TEST_CASE("progress: m:ss and h:mm:ss, rounded to the second") {
  CHECK(minutes_seconds(0) == "0:00");
  CHECK(minutes_seconds(59.4) == "0:59");
  CHECK(minutes_seconds(59.6) == "1:00");
  CHECK(minutes_seconds(754) == "12:34");
  CHECK(minutes_seconds(3600) == "1:00:00");
  CHECK(minutes_seconds(3723) == "1:02:03");
  CHECK(minutes_seconds(-5) == "0:00");
  CHECK(minutes_seconds(std::numeric_limits<double>::quiet_NaN()) == "0:00");
}

TEST_CASE("progress: the line names the command, the phase and the step, cut to the terminal") {
  CHECK(progress_text("check", "reading and analysing the run", "412 of 992 ordered pairs", 5.2, 7.4, 100) ==
        "  check: reading and analysing the run: 412 of 992 ordered pairs, 0:05 elapsed, about 0:07 left");
  // The time left unknown: not said.
  CHECK(progress_text("report", "drawing the pictures", "", 3, -1, 100) ==
        "  report: drawing the pictures, 0:03 elapsed");
  // One column short of the terminal: a line that fills the last column wraps on some.
  const std::string cut = progress_text("matrix", "measuring", "12 of 400 pair visits", 65, 130, 40);
  CHECK(cut == "  matrix: measuring: 12 of 400 pair vis");
  CHECK(cut.size() == 39);
}

TEST_CASE("count_of: the noun in the number the count takes") {
  CHECK(count_of(0, "pair") == "0 pairs");
  CHECK(count_of(1, "pair") == "1 pair");
  CHECK(count_of(2, "CPU") == "2 CPUs");
  CHECK(count_of(1, "entry", "entries") == "1 entry");
  CHECK(count_of(3, "entry", "entries") == "3 entries");
}

TEST_CASE("tolerance: ticks, or a time in ns, us, ms or s, held in ns") {
  const auto ns = [](const std::string& text) {
    const Tolerance t = parse_tolerance("--tolerance", text);
    REQUIRE(t.ns);
    return t.value;
  };
  CHECK(bits(ns("15ns")) == bits(15));
  CHECK(ns("1.5us") == Approx(1500).epsilon(1e-15));
  CHECK(bits(ns("2ms")) == bits(2e6));
  CHECK(bits(ns("1s")) == bits(1e9));
  CHECK(bits(ns("0us")) == bits(0));
  const Tolerance ticks = parse_tolerance("--tolerance", "40ticks");
  CHECK_FALSE(ticks.ns);
  CHECK(bits(ticks.value) == bits(40));
  CHECK_FALSE(parse_tolerance("--tolerance", "40").ns);
  for (const char* bad : {"", "ns", "us", "s", "5h", "5 us", "-1ns", "1e999s", "nanus", "5ms-", "ticks"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_tolerance("--tolerance", bad), UsageError);
  }
  CHECK_THROWS_WITH(parse_tolerance("--max-bound", "5h"),
                    "--max-bound '5h' is not a number >= 0 of ticks or a time (e.g. 40, 40ticks, 15ns, 1.5us, 2ms, "
                    "1s)");
  // A time needs the frequency to become ticks: 1.5 us at 2 GHz are 3000 ticks.
  CHECK(tolerance_in_ticks("--tolerance", parse_tolerance("--tolerance", "1.5us"), 2e9) == Approx(3000));
}
