// Durations and sizes for people: exact strings at the unit boundaries.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/human_units.hpp"

using namespace tscaudit;

TEST_CASE("human_duration: two units at most, rounded", "[plan]") {
  CHECK(human_duration(0) == "0.0 s");
  CHECK(human_duration(0.34) == "0.3 s");
  CHECK(human_duration(9.94) == "9.9 s");
  CHECK(human_duration(9.96) == "10 s");
  CHECK(human_duration(59.4) == "59 s");
  CHECK(human_duration(59.6) == "1 min 0 s");
  CHECK(human_duration(134) == "2 min 14 s");
  CHECK(human_duration(3599.4) == "59 min 59 s");
  CHECK(human_duration(3600) == "1 h 0 min");
  CHECK(human_duration(11100) == "3 h 5 min");
  CHECK(human_duration(86400 * 2 + 3 * 3600 + 59) == "2 d 3 h");
  CHECK(human_duration(-1) == "?");
  CHECK(human_duration(std::nan("")) == "?");
}

TEST_CASE("human_bytes: decimal units, one decimal", "[plan]") {
  CHECK(human_bytes(0) == "0 B");
  CHECK(human_bytes(999) == "999 B");
  CHECK(human_bytes(1000) == "1.0 kB");
  CHECK(human_bytes(4096) == "4.1 kB");
  CHECK(human_bytes(999'949) == "999.9 kB");
  CHECK(human_bytes(999'950) == "1.0 MB");
  CHECK(human_bytes(261'120'000) == "261.1 MB");
  CHECK(human_bytes(1'610'935'552) == "1.6 GB");
  CHECK(human_bytes(10'449'305'600) == "10.4 GB");
  CHECK(human_bytes(1'200'000'000'000) == "1.2 TB");
  CHECK(human_bytes(5'000'000'000'000'000) == "5000.0 TB");
}
