#include "memory/shared_faults.hpp"

#include <algorithm>

#include "diagnostics/diagnostics.hpp"
#include "diagnostics/symbol_names.hpp"
#include "launch/launch_state.hpp"
#include "memory/shared_region.hpp"
#include "scheduling/runtime_tls.hpp"

namespace cohort::detail::host {

namespace {

const char* access_words(fault_access access) {
  switch (access) {
    case fault_access::read:
      return "a read";
    case fault_access::write:
      return "a write";
    default:
      return "an access";
  }
}

std::optional<std::string> describe_dynamic(const launch_state& launch, const block_record& block, std::uintptr_t a,
                                            fault_access access) {
  const auto start = reinterpret_cast<std::uintptr_t>(block.dynamic_shared);
  const std::size_t given = launch.config.dynamic_shared_bytes;
  // The block's memory spans at least 16 bytes, rounded up to 16; a page of
  // slack at most lies below it, then the guard.
  const std::size_t spans = (std::max<std::size_t>(given, 16) + shared_region::alignment - 1) /
                            shared_region::alignment * shared_region::alignment;
  const std::string gave = std::to_string(given) + " bytes of dynamic shared memory the launch gave";
  const std::string remedy = "; index within them, or launch with more (launch_config's dynamic_shared_bytes)";
  if (a >= start + given && a < start + spans + shared_region::guard_bytes)
    return std::string(access_words(access)) + " at offset " + std::to_string(a - start) +
           " of dynamic shared memory, past the " + gave + remedy;
  if (a < start && start - a <= shared_region::guard_bytes + 4096)
    return std::string(access_words(access)) + " " + std::to_string(start - a) + " bytes before the start of the " +
           gave + remedy;
  return std::nullopt;
}

// The program's thread-locals that are not the runtime's, by offset in its
// TLS block, and that block's address on the calling thread (found from the
// high spacer's own symbol).
struct program_thread_locals {
  std::vector<tls_symbol> symbols;
  std::uintptr_t base = 0;
  bool found = false;
};

program_thread_locals thread_locals_around_shared() {
  program_thread_locals p;
  std::vector<tls_symbol> all = executable_thread_locals();
  for (const tls_symbol& s : all)
    if (s.name == tls_high_spacer_symbol) {
      p.base = tls_high_spacer_address() - s.offset;
      p.found = true;
    }
  for (tls_symbol& s : all)
    if (s.size != 0 && s.name.find("6cohort6detail4host") == std::string::npos) p.symbols.push_back(std::move(s));
  return p;
}

// Past the last __shared__ variable: the program's thread-local that ends
// last before the high spacer (the runtime's own lie below: runtime_tls.hpp).
std::string past_last_shared(std::uintptr_t a, const char* access) {
  const program_thread_locals p = thread_locals_around_shared();
  const tls_symbol* last = nullptr;
  for (const tls_symbol& v : p.symbols)
    if (p.base + v.offset + v.size <= tls_high_spacer_address() && (!last || v.offset > last->offset)) last = &v;
  if (!p.found || last == nullptr)
    return std::string(access) + " in the guard zone after the block's __shared__ variables";
  const std::uintptr_t start = p.base + last->offset;
  return std::string(access) + " at offset " + std::to_string(a - start) + " of __shared__ `" + demangled(last->name) +
         "` (" + std::to_string(last->size) + " bytes; the last __shared__ variable, " + "followed by a guard zone), " +
         std::to_string(a - start - last->size) + " bytes past its end";
}

// Before the first __shared__ variable: the program's thread-local that
// starts first after the low spacer.
std::string before_first_shared(std::uintptr_t a, const char* access) {
  const program_thread_locals p = thread_locals_around_shared();
  const tls_symbol* first = nullptr;
  for (const tls_symbol& v : p.symbols)
    if (p.base + v.offset >= tls_low_spacer_end() && (!first || v.offset < first->offset)) first = &v;
  if (!p.found || first == nullptr)
    return std::string(access) + " in the guard zone before the block's __shared__ variables";
  const std::uintptr_t start = p.base + first->offset;
  return std::string(access) + " " + std::to_string(start - a) + " bytes before __shared__ `" + demangled(first->name) +
         "` (" + std::to_string(first->size) + " bytes; the first __shared__ variable, " + "preceded by a guard zone)";
}

// A fault in one of the calling thread's TLS guards.
std::optional<std::string> describe_static(std::uintptr_t a, fault_access access) {
  if (tls_high_guard_pages().contains(a)) return past_last_shared(a, access_words(access));
  if (tls_low_guard_pages().contains(a)) return before_first_shared(a, access_words(access));
  return std::nullopt;
}

}  // namespace

std::optional<std::string> static_shared_damage(const launch_state& launch, const block_record& block) {
  auto* const first = reinterpret_cast<unsigned char*>(tls_high_spacer_address());
  auto* const end = reinterpret_cast<unsigned char*>(tls_high_guard_pages().begin);
  unsigned char* hit = std::find_if(first, end, [](unsigned char b) { return b != 0; });
  if (hit == end) return std::nullopt;
  std::fill(hit, end, 0);
  return "in kernel `" + kernel_name(launch.entry->kernel) + "`, block " + index_text(block.block_index) + ": " +
         past_last_shared(reinterpret_cast<std::uintptr_t>(hit), "a write") +
         " (found when the block ended, COHORT_CHECK=memory)";
}

std::optional<std::string> describe_shared_fault(const launch_state& launch, const block_record& block,
                                                 std::uintptr_t address, fault_access access) {
  if (auto dynamic = block.dynamic_shared ? describe_dynamic(launch, block, address, access) : std::nullopt)
    return dynamic;
  return describe_static(address, access);
}

}  // namespace cohort::detail::host
