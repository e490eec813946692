// Checking an example's results element by element: every comparison counts,
// the first few that fail are printed with what the element is and what was
// expected, and the summary says how many of how many were wrong, so a failed
// test explains itself in its log without flooding it.
#pragma once

#include <algorithm>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace cohort_kernels {

class result_check {
 public:
  explicit result_check(std::string what, std::size_t shown = 5) : what_(std::move(what)), shown_(shown) {}

  // Records one comparison; a failure is described by the printf-style rest.
  bool expect(bool ok, const char* format, ...) __attribute__((format(printf, 3, 4))) {
    ++checks_;
    if (!ok && failures_++ < shown_) {
      std::printf("  wrong: ");
      va_list args;
      va_start(args, format);
      std::vprintf(format, args);
      va_end(args);
      std::printf("\n");
    }
    return ok;
  }

  bool passed() const { return failures_ == 0; }

  // Prints the summary line; returns passed().
  bool report() const {
    if (passed())
      std::printf("%-28s %zu checked, all right\n", what_.c_str(), checks_);
    else
      std::printf("%-28s %zu of %zu wrong\n", what_.c_str(), failures_, checks_);
    return passed();
  }

 private:
  std::string what_;
  std::size_t shown_;
  std::size_t checks_ = 0;
  std::size_t failures_ = 0;
};

// A run [begin, end) of an input.
struct index_range {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Whether got[0, kept) is a filter's output over the given parts of input:
// the elements that pass keep(x), part after part, but in any order within a
// part — the seed's stream compaction reorders a thread's part as it filters
// in place, and warp-aggregated slots go out in whatever order warps arrive.
template <class Keep>
bool kept_in_part_order(const std::vector<int>& input, const std::vector<index_range>& parts, Keep keep, const int* got,
                        std::size_t kept) {
  std::size_t at = 0;
  for (const index_range& part : parts) {
    std::vector<int> expected;
    for (std::size_t i = part.begin; i < part.end; ++i)
      if (keep(input[i])) expected.push_back(input[i]);
    if (at + expected.size() > kept) return false;
    std::vector<int> found(got + at, got + at + expected.size());
    std::sort(expected.begin(), expected.end());
    std::sort(found.begin(), found.end());
    if (found != expected) return false;
    at += expected.size();
  }
  return at == kept;
}

}  // namespace cohort_kernels
