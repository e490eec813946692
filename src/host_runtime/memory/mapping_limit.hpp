// The process's memory mappings against the kernel's limit on them
// (vm.max_map_count, 65530 by default). A host launch spends mappings
// quickly: every guarded fiber stack, every block's shared memory between its
// guard zones and every OS thread's stack is one or two of them, and a
// cooperative grid keeps all of its blocks, each with an OS thread, at once.
// Past the limit mmap fails with ENOMEM, and so does malloc for its larger
// blocks (std::bad_alloc), though memory is free: the messages say which.
#pragma once

#include <string>

namespace cohort::detail::host {

long max_map_count();
// The process's mappings now (-1 if /proc/self/maps cannot be read).
long mappings_in_use();
// Whether a failure with `err` (an errno) is most likely the mapping limit.
bool at_mapping_limit(int err);
// "the process has N memory mappings, at its limit (vm.max_map_count = M)"
// where at_mapping_limit(err), else strerror(err) with the same two numbers.
std::string mapping_failure(int err);
// What to do about it.
inline constexpr const char* mapping_limit_advice =
    "launch fewer blocks at once (a cooperative grid keeps all of its blocks, each with an OS thread, its fiber "
    "stacks and its shared memory), release mappings the program holds, or raise the limit (sysctl -w "
    "vm.max_map_count=262144)";

}  // namespace cohort::detail::host
