// Progress of a bench run on stderr, so that stdout keeps only the table. On
// a terminal one line is rewritten in place and erased at the end; otherwise
// (a log, CI) a line is printed as each size starts.
#pragma once

#include <cstddef>
#include <string>

namespace cohort_cli {

class progress {
 public:
  progress(std::string command, std::size_t steps);
  ~progress();
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;

  // Announces the next step: the size it measures and the variant.
  void step(const std::string& size, const std::string& variant);

 private:
  std::string command_;
  std::size_t steps_;
  std::size_t done_ = 0;
  std::string last_size_;
  bool terminal_;
};

}  // namespace cohort_cli
