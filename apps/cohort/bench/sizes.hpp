// The --sizes argument: a comma-separated list of counts and ranges.
//   count  digits with an optional binary suffix: 4096, 64K, 16M, 1G
//   range  LO..HI, LO, 2 LO, 4 LO, ... up to HI; LO..HI:F multiplies by F instead
// e.g. "1K,64K" or "1K..16M:4". The result is sorted, without duplicates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cohort_cli {

// Throws std::invalid_argument with a message naming the bad term.
std::vector<std::uint64_t> parse_sizes(const std::string& text);

}  // namespace cohort_cli
