#include "memory/mapping_limit.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace cohort::detail::host {

namespace {

long read_long(const char* path) {
  std::ifstream in(path);
  long v = -1;
  in >> v;
  return in ? v : -1;
}

}  // namespace

long max_map_count() {
  static const long limit = [] {
    const long v = read_long("/proc/sys/vm/max_map_count");
    return v > 0 ? v : 65530;
  }();
  return limit;
}

long mappings_in_use() {
  std::ifstream maps("/proc/self/maps");
  long lines = 0;
  for (std::string line; std::getline(maps, line);) ++lines;
  return maps.eof() ? lines : -1;
}

bool at_mapping_limit(int err) { return err == ENOMEM && mappings_in_use() >= max_map_count() - 64; }

std::string mapping_failure(int err) {
  const long in_use = mappings_in_use();
  if (err == ENOMEM && in_use >= max_map_count() - 64)
    return "the process has " + std::to_string(in_use) +
           " memory mappings, at its limit (vm.max_map_count = " + std::to_string(max_map_count()) + ")";
  return std::string(std::strerror(err)) + " (" + std::to_string(in_use) + " mappings in use, limit " +
         std::to_string(max_map_count()) + ")";
}

}  // namespace cohort::detail::host
