#include "monitor/rtt_buckets.hpp"

#include <stdexcept>

namespace tscaudit {

RttBuckets::RttBuckets(double tsc_hz) : tsc_hz_(tsc_hz) {
  if (!(tsc_hz > 0)) throw std::invalid_argument("RttBuckets: the TSC frequency must be known");
}

std::uint64_t RttBuckets::cumulative(std::size_t i) const {
  std::uint64_t n = 0;
  for (std::size_t j = 0; j <= i && j < counts_.size(); ++j) n += counts_[j];
  return n;
}

}  // namespace tscaudit
