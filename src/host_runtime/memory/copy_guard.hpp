// The guard of memcpy_async's checking mode: the pages of a destination in
// flight are made inaccessible, and an access to one of its bytes before the
// wait that completes the copy becomes an error of the launch, raised on the
// fiber of the thread that made it. Accesses to other bytes of a guarded page
// (a page holds more than one variable) go through one instruction at a time:
// the page is opened, the instruction single-stepped, the page closed again.
//
// Available on x86-64 Linux (single-stepping needs the trap flag); elsewhere
// guard() protects nothing and the poison pattern alone gives premature reads
// away. Never guarded: the page of the thread pointer (the stack canary and
// the TCB, which the kernel writes) and the rseq area's, and the guard's own
// bookkeeping, so that the signal handlers never fault.
#pragma once

#include <cstddef>
#include <cstdint>
#include <source_location>

#include "cohort/detail/host/language/vector_types.hpp"

namespace cohort::detail::host {

// What an access to a guarded byte reports.
struct guard_hit {
  std::source_location site;  // the memcpy_async whose destination it is
  uint3 block;                // the block that issued it
  const void* begin;          // the destination
  std::size_t bytes;
  std::uintptr_t address;  // the byte accessed
  bool write;
};

// Guards [begin, begin + bytes), issued at `site` by `owner` (a block runtime) of block `block`.
void guard(const void* owner, uint3 block, std::source_location site, const void* begin, std::size_t bytes);
void unguard(const void* owner, const void* begin);
void unguard_all(const void* owner);
// Opens the pages of [begin, begin + bytes) for cohort's own accesses (the
// poison, the copy) until close_pages; guards that share them stay.
void open_pages(const void* begin, std::size_t bytes);
void close_pages(const void* begin, std::size_t bytes);
// The SIGSEGV handler's first question: was the fault the guard's? If so it
// has been dealt with and the faulting thread may resume.
bool handle_guard_fault(void* address, int code, void* ucontext);
// Defined by async_copy.cpp: ends the launch with the error of `hit`, on the
// fiber of the thread that made the access.
[[noreturn]] void report_guarded_access(const guard_hit& hit);

}  // namespace cohort::detail::host
