#include "bench/sizes.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace cohort_cli {

namespace {

// 2^40 elements is beyond any device's memory; the bound keeps the range
// arithmetic below from overflowing.
constexpr std::uint64_t max_size = std::uint64_t{1} << 40;

[[noreturn]] void bad(const std::string& term, const std::string& why) {
  throw std::invalid_argument("bad size `" + term + "`: " + why);
}

std::uint64_t parse_count(const std::string& text, const std::string& term) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0) bad(term, "expected a count such as 4096, 64K or 16M");
  if (digits > 13) bad(term, "sizes run from 1 to 2^40");
  std::uint64_t value = std::stoull(text.substr(0, digits));
  const std::string suffix = text.substr(digits);
  if (suffix == "K" || suffix == "k")
    value <<= 10;
  else if (suffix == "M" || suffix == "m")
    value <<= 20;
  else if (suffix == "G" || suffix == "g")
    value <<= 30;
  else if (!suffix.empty())
    bad(term, "unknown suffix `" + suffix + "` (use K, M or G)");
  if (value == 0 || value > max_size) bad(term, "sizes run from 1 to 2^40");
  return value;
}

void parse_term(const std::string& term, std::vector<std::uint64_t>& out) {
  const std::size_t dots = term.find("..");
  if (dots == std::string::npos) {
    out.push_back(parse_count(term, term));
    return;
  }
  const std::size_t colon = term.find(':', dots);
  const std::uint64_t lo = parse_count(term.substr(0, dots), term);
  const std::uint64_t hi =
      parse_count(term.substr(dots + 2, colon == std::string::npos ? colon : colon - dots - 2), term);
  std::uint64_t factor = 2;
  if (colon != std::string::npos) {
    const std::string f = term.substr(colon + 1);
    if (f.empty() || f.size() > 3 ||
        !std::all_of(f.begin(), f.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      bad(term, "expected a factor after `:`, e.g. 1K..16M:4");
    factor = std::stoull(f);
    if (factor < 2) bad(term, "the factor must be at least 2");
  }
  if (lo > hi) bad(term, "the range runs from its low end to its high end");
  for (std::uint64_t s = lo; s <= hi; s *= factor) out.push_back(s);
}

}  // namespace

std::vector<std::uint64_t> parse_sizes(const std::string& text) {
  std::vector<std::uint64_t> sizes;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string term = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (term.empty()) throw std::invalid_argument("empty size in `" + text + "`");
    parse_term(term, sizes);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

}  // namespace cohort_cli
