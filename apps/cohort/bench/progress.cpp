#include "bench/progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <utility>

namespace cohort_cli {

progress::progress(std::string command, std::size_t steps)
    : command_(std::move(command)), steps_(steps), terminal_(isatty(fileno(stderr)) != 0) {}

progress::~progress() {
  if (terminal_ && done_) std::fprintf(stderr, "\r\033[K");
}

void progress::step(const std::string& size, const std::string& variant) {
  ++done_;
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K[%zu/%zu] %s %s %s", done_, steps_, command_.c_str(), size.c_str(), variant.c_str());
  } else if (size != last_size_) {
    std::fprintf(stderr, "[%zu/%zu] %s %s\n", done_, steps_, command_.c_str(), size.c_str());
  }
  last_size_ = size;
  std::fflush(stderr);
}

}  // namespace cohort_cli
