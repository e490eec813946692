// The failure side of the runtime's assertions (runtime_assert.hpp) and of a
// thread's transitions (run_state.hpp): reached only through a fault of the
// runtime's own.
#include "scheduling/run_state.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "diagnostics/diagnostics.hpp"

namespace cohort::detail::host {

void runtime_assertion_failed(std::string_view what, const char* condition, std::source_location where) {
  std::fprintf(stderr, "cohort: internal error at %s:%u: %.*s (%s is false); please report it\n", where.file_name(),
               static_cast<unsigned>(where.line()), static_cast<int>(what.size()), what.data(), condition);
  std::abort();
}

const char* wait_kind_name(wait_kind k) {
  switch (k) {
    case wait_kind::none:
      return "none";
    case wait_kind::runnable:
      return "runnable";
    case wait_kind::block_barrier:
      return "block_barrier";
    case wait_kind::grid_barrier:
      return "grid_barrier";
    case wait_kind::cluster_barrier:
      return "cluster_barrier";
    case wait_kind::multi_grid_barrier:
      return "multi_grid_barrier";
    case wait_kind::collective:
      return "collective";
    case wait_kind::converge:
      return "converge";
  }
  return "unknown";
}

void illegal_transition(const thread_record& t, wait_kind to, std::source_location where) {
  const std::string what = "thread " + index_text(t.index) + " moved from " + wait_kind_name(t.waiting) + " to " +
                           wait_kind_name(to) +
                           ", a transition src/host_runtime/scheduling/run_state.hpp's table does not allow";
  runtime_assertion_failed(what, "allowed_transition(t.waiting, to)", where);
}

}  // namespace cohort::detail::host
