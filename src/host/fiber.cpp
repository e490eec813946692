#include "fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "cohort/errors.hpp"
#include "env.hpp"

namespace cohort::detail::host {

std::size_t stack_pool::stack_size() {
  static const std::size_t size = [] {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t requested = env_bytes("COHORT_STACK_SIZE", 128 * 1024, 16 * 1024);
    return (requested + page - 1) / page * page;
  }();
  return size;
}

stack_area stack_pool::acquire() {
  if (!free_.empty()) {
    stack_area s = free_.back();
    free_.pop_back();
    return s;
  }
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  stack_area s;
  s.guard = page;
  s.usable = stack_size();
  void* p = mmap(nullptr, s.guard + s.usable, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (p == MAP_FAILED)
    throw error(errc::out_of_memory, "cannot map a fiber stack of " + std::to_string(s.usable) +
                                         " bytes; lower COHORT_STACK_SIZE or use smaller blocks");
  s.base = static_cast<char*>(p);
  s.color = (made_++ * 448) % page;  // 7 cache lines apart, cycling through the page
  mprotect(s.base, s.guard, PROT_NONE);
  return s;
}

stack_pool::~stack_pool() {
  for (const stack_area& s : free_) munmap(s.base, s.guard + s.usable);
}


}  // namespace cohort::detail::host
