#include "managed_advice.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>

namespace cohort::compat::detail {

namespace {

struct piece {
  std::uintptr_t end;
  range_advice advice;
};

std::mutex advice_mutex;
// Disjoint pieces by their first byte: only bytes something was said about.
std::map<std::uintptr_t, piece>& pieces() {
  static auto* const advised = new std::map<std::uintptr_t, piece>;
  return *advised;
}

// Makes `at` the start of a piece where a piece spans it (advice_mutex held).
void split_at(std::uintptr_t at) {
  auto& all = pieces();
  auto it = all.upper_bound(at);
  if (it == all.begin()) return;
  --it;
  if (it->first < at && at < it->second.end) {
    all.emplace(at, piece{it->second.end, it->second.advice});
    it->second.end = at;
  }
}

std::uintptr_t start_of(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

void change_advice(const void* p, std::size_t bytes, const std::function<void(range_advice&)>& change) {
  const std::uintptr_t begin = start_of(p), end = begin + bytes;
  std::lock_guard lock(advice_mutex);
  split_at(begin);
  split_at(end);
  auto& all = pieces();
  // Every piece of the range, the gaps between them made pieces of default advice first.
  for (std::uintptr_t at = begin; at < end;) {
    auto it = all.lower_bound(at);
    if (it == all.end() || it->first > at)
      it = all.emplace_hint(it, at, piece{it == all.end() ? end : std::min(end, it->first), {}});
    change(it->second.advice);
    at = it->second.end;
  }
}

void visit_advice(const void* p, std::size_t bytes, const std::function<void(const range_advice&)>& visit) {
  const std::uintptr_t begin = start_of(p), end = begin + bytes;
  static const range_advice none;
  std::lock_guard lock(advice_mutex);
  auto& all = pieces();
  auto it = all.upper_bound(begin);
  if (it != all.begin() && std::prev(it)->second.end > begin) --it;
  std::uintptr_t at = begin;
  for (; at < end && it != all.end() && it->first < end; ++it) {
    if (it->first > at) visit(none);  // a gap never advised
    visit(it->second.advice);
    at = it->second.end;
  }
  if (at < end) visit(none);
}

void forget_advice(const void* p, std::size_t bytes) {
  const std::uintptr_t begin = start_of(p), end = begin + bytes;
  std::lock_guard lock(advice_mutex);
  split_at(begin);
  split_at(end);
  auto& all = pieces();
  all.erase(all.lower_bound(begin), all.lower_bound(end));
}

}  // namespace cohort::compat::detail
