#include "synchronization/async_copy.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "cohort/detail/host/memcpy_async.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "launch/launch_state.hpp"
#include "memory/copy_guard.hpp"

namespace cohort::detail::host {

namespace {

bool overlap(const void* a, std::size_t an, const void* b, std::size_t bn) {
  const auto* x = static_cast<const std::byte*>(a);
  const auto* y = static_cast<const std::byte*>(b);
  return an != 0 && bn != 0 && x < y + bn && y < x + an;
}

std::string copy_text(const pending_copy& c) {
  std::ostringstream s;
  s << "memcpy_async at " << site(c.site) << " (" << c.bytes << " bytes to " << static_cast<const void*>(c.dst) << ")";
  return s.str();
}

[[noreturn]] void fail_copy(const block_runtime& rt, const std::string& what) {
  fail_block(errc::copy_in_flight, what + ", " + position(*rt.launch, rt, *current_thread) +
                                       "; a copy's destination is the copy's alone until a wait(group) or "
                                       "wait_prior<N>(group) of the group that issued it has completed it");
}

// The first byte of [p, p + n) that differs from `expected` (n where none does).
std::size_t first_difference(const std::byte* p, const std::byte* expected, std::size_t n) {
  return static_cast<std::size_t>(std::mismatch(p, p + n, expected).first - p);
}

void perform(pending_copy& c) {
  open_pages(c.dst, c.bytes);
  std::memcpy(c.dst, c.source.data(), c.bytes);
  close_pages(c.dst, c.bytes);
}

// Every member has waited for `c`: check it was left alone, then copy.
void complete(block_runtime& rt, pending_copy& c, std::source_location where) {
  unguard(&rt, c.dst);
  const std::vector<std::byte> poison(c.bytes, std::byte{copy_poison});
  open_pages(c.dst, c.bytes);
  const std::size_t written = first_difference(c.dst, poison.data(), c.bytes);
  close_pages(c.dst, c.bytes);
  const std::size_t changed = first_difference(c.src, c.source.data(), c.bytes);
  if (written < c.bytes)
    fail_copy(rt, "the destination of " + copy_text(c) + " was written (byte " + std::to_string(written) +
                      ") before the wait that covers the copy (at " + site(where) + ")");
  if (changed < c.bytes)
    fail_copy(rt, "the source of " + copy_text(c) + " was written (byte " + std::to_string(changed) +
                      ") while the copy was in flight, before the wait that covers it (at " + site(where) + ")");
  perform(c);
  rt.copies.copies.remove_if([&](const pending_copy& p) { return &p == &c; });
}

}  // namespace

void issue_checked_copy(const member_set& members, unsigned rank, void* dst, const void* src, std::size_t bytes,
                        std::source_location where) {
  block_runtime& rt = current_runtime();
  copy_state& cs = rt.copies;
  if (cs.waiting.size() < rt.thread_count) cs.waiting.resize(rt.thread_count);
  cs.used = true;
  auto* d = static_cast<std::byte*>(dst);
  const auto* s = static_cast<const std::byte*>(src);
  auto it = std::find_if(cs.copies.begin(), cs.copies.end(), [&](const pending_copy& c) {
    return c.members == members && c.dst == d && c.src == s && c.bytes == bytes && !c.issued_by[rank];
  });
  if (it == cs.copies.end()) {
    for (const pending_copy& c : cs.copies) {
      if (overlap(d, bytes, c.dst, c.bytes))
        fail_copy(rt,
                  "memcpy_async at " + site(where) + " writes to bytes that " + copy_text(c) + " is still copying to");
      if (overlap(s, bytes, c.dst, c.bytes))
        fail_copy(rt, "memcpy_async at " + site(where) + " reads from the destination of " + copy_text(c) +
                          ", which is still in flight");
    }
    it = cs.copies.insert(cs.copies.end(),
                          pending_copy{members, d, s, bytes, where, std::vector<std::byte>(s, s + bytes),
                                       std::vector<bool>(members.count), 0});
    open_pages(d, bytes);
    std::memset(d, copy_poison, bytes);
    close_pages(d, bytes);
    if (rt.launch->copy_checks == copy_checking::guarded) guard(&rt, rt.block_index, where, d, bytes);
  }
  it->issued_by[rank] = true;
  cs.waiting[current_thread->rank].push_back(&*it);
}

void complete_checked_copies(unsigned keep, std::source_location where) {
  block_runtime& rt = current_runtime();
  if (!rt.copies.used) return;
  std::deque<pending_copy*>& mine = rt.copies.waiting[current_thread->rank];
  while (mine.size() > keep) {
    pending_copy* c = mine.front();
    mine.pop_front();
    if (++c->completed == c->members.count) complete(rt, *c, where);
  }
}

void copy_state::finish_block(block_runtime& rt) {
  if (!used) return;
  used = false;
  unguard_all(&rt);
  if (!rt.failed)
    for (pending_copy& c : copies) perform(c);
  copies.clear();
  for (auto& q : waiting) q.clear();
}

void fail_copy_alignment(std::size_t align, const void* dst, const void* src, std::size_t bytes,
                         std::source_location where) {
  std::ostringstream s;
  s << "memcpy_async with an alignment of " << align << " bytes (aligned_size_t<" << align << ">): ";
  if (reinterpret_cast<std::uintptr_t>(dst) % align != 0)
    s << "the destination " << dst << " is not aligned to " << align << " bytes";
  else if (reinterpret_cast<std::uintptr_t>(src) % align != 0)
    s << "the source " << src << " is not aligned to " << align << " bytes";
  else
    s << "the size, " << bytes << " bytes, is not a multiple of " << align;
  usage_error(errc::invalid_argument, s.str(), where);
}

[[noreturn]] void report_guarded_access(const guard_hit& hit) {
  block_runtime& rt = current_runtime();
  unguard_all(&rt);
  std::ostringstream s;
  s << "the destination of memcpy_async at " << site(hit.site) << " (" << hit.bytes << " bytes to " << hit.begin
    << ") was " << (hit.write ? "written" : "read") << " (byte "
    << hit.address - reinterpret_cast<std::uintptr_t>(hit.begin) << ") before the wait that covers the copy";
  const uint3 b = rt.block_index;
  if (hit.block.x != b.x || hit.block.y != b.y || hit.block.z != b.z)
    s << ", which block " << index_text(hit.block) << " issued";
  fail_copy(rt, s.str());
}

}  // namespace cohort::detail::host
