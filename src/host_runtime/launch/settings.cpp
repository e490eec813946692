// The settings table: every COHORT_* variable the host backend reads, its
// syntax and bounds, read from the environment at the first use of any into
// one set of values that every later use shares (reads of it take no lock).
// A reload (tests only) reads a new set; the ones it replaces stay, since a
// thread may still be reading one.
#include "launch/settings.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "cohort/errors.hpp"
#include "cohort/host/settings.hpp"
#include "cohort/launch/device.hpp"

namespace cohort::detail::host {

namespace {

using cohort::host::engine_mode;

enum class syntax : unsigned char { integer, bytes, choice, list };

// One variable: what docs/settings.md lists of it, and the bounds its parse checks.
struct variable {
  const char* name;
  syntax type;
  unsigned long long min, max;  // integer and bytes
  // Written as the variable takes it, and parsed as its value when it is
  // unset; or, when `worked_out`, what the default is worked out from.
  const char* default_value;
  bool worked_out;
  // Choices and lists: the values taken. Integers and byte counts: a
  // condition beyond the bounds, or nothing.
  const char* allowed;
  const char* meaning;
};

// The largest byte count a variable takes (1 PiB): far past any memory, and
// small enough that rounding it up to pages cannot wrap.
constexpr unsigned long long max_bytes = 1ull << 50;

// The table's rows, in its order.
enum class var : std::size_t {
  workers,
  stack_size,
  schedule,
  check,
  watchdog,
  engine,
  engine_report,
  device_count,
  device_memory,
  sm_count,
  warp_size,
  max_threads_per_block,
  max_threads_per_sm,
  max_blocks_per_sm,
  shared_per_sm,
  shared_per_block,
  count
};
constexpr std::size_t variable_count = static_cast<std::size_t>(var::count);
constexpr std::size_t index(var v) { return static_cast<std::size_t>(v); }

constexpr std::array<variable, variable_count> table{{
    {"COHORT_WORKERS", syntax::integer, 1, 4096, "the hardware threads", true, nullptr,
     "OS threads that run ordinary launches and the whole-array algorithms; the cores co-resident blocks share"},
    {"COHORT_STACK_SIZE", syntax::bytes, 16 * 1024, max_bytes, "128K", false, nullptr,
     "each kernel thread's (fiber's) stack, rounded up to whole pages"},
    {"COHORT_SCHEDULE", syntax::choice, 0, 0, "ordered", false,
     "`ordered`, `shuffle` or `shuffle:SEED`, where SEED is decimal digits from 0 to 18446744073709551615 "
     "(2^64 - 1)",
     "the order threads released from a barrier resume in: deterministic, or shuffled by the seed (`shuffle` is "
     "seed 1) to flush out code that relies on lock-step execution"},
    {"COHORT_CHECK", syntax::list, 0, 0, "none", false,
     "a comma-separated list of `memory`, `races`, `memcpy`, `memcpy-poison` or `none`",
     "checking modes: `memory` maps each device allocation between guard zones, fills it with 0xCD and checks "
     "its redzones after each launch; `races` reports data races on shared and device memory in kernels built for it "
     "(docs/host-backend.md, \"Data races\"); `memcpy` (`memcpy-poison`: without page protection) defers "
     "memcpy_async's copies to their wait and poisons their destinations"},
    {"COHORT_WATCHDOG", syntax::integer, 0, 1 << 30, "10", false, nullptr,
     "seconds a thread may spin on an unchanging value before the launch fails naming the spin (0: never)"},
    {"COHORT_ENGINE", syntax::choice, 0, 0, "auto", false, "`auto`, `loops` or `fibers`",
     "the engine that runs a kernel: the loops engine where the loops pass lowered it (`auto`), only the loops "
     "engine (a launch of a kernel not lowered fails, saying why), or fibers for every kernel"},
    {"COHORT_ENGINE_REPORT", syntax::integer, 0, 1, "0", false, nullptr,
     "1: each launch prints the engine that runs it and, on fibers, why not loops"},
    {"COHORT_DEVICE_COUNT", syntax::integer, 1, 64, "1", false, nullptr,
     "how many virtual devices the backend offers, each with its own memory, every one a peer of the others"},
    {"COHORT_DEVICE_MEMORY", syntax::bytes, 1, max_bytes, "the machine's memory divided among the devices", true,
     nullptr, "each virtual device's own memory: what malloc_device, memory_usage and cudaMemGetInfo count against"},
    {"COHORT_SM_COUNT", syntax::integer, 1, 1 << 16, "the hardware threads", true, nullptr,
     "the virtual device's SMs (multiprocessor_count)"},
    {"COHORT_WARP_SIZE", syntax::choice, 0, 0, "32", false, "32 or 64",
     "the virtual device's warp size (64 emulates wave64 hardware)"},
    {"COHORT_MAX_THREADS_PER_BLOCK", syntax::integer, 1, 1024, "1024", false, "a multiple of the warp size",
     "the most threads a block may have"},
    {"COHORT_MAX_THREADS_PER_SM", syntax::integer, 1, 1 << 16, "2048", false, "at least COHORT_MAX_THREADS_PER_BLOCK",
     "the most threads resident on an SM, for occupancy"},
    {"COHORT_MAX_BLOCKS_PER_SM", syntax::integer, 1, 1024, "32", false, nullptr,
     "the most blocks resident on an SM, for occupancy"},
    {"COHORT_SHARED_PER_SM", syntax::bytes, 1024, max_bytes, "228K", false, nullptr,
     "shared memory per SM; a block may opt in to this less the 1K reserved per block"},
    {"COHORT_SHARED_PER_BLOCK", syntax::bytes, 0, max_bytes, "48K, or what a block may opt in to where less", true,
     "at most what a block may opt in to", "the shared memory a block has without opting in to more"},
}};

const variable& row(var v) { return table[index(v)]; }

std::string allowed_values(const variable& row) {
  switch (row.type) {
    case syntax::integer:
      return "an integer from " + std::to_string(row.min) + " to " + std::to_string(row.max);
    case syntax::bytes:
      return "a byte count such as 65536, 64K or 1M, from " + std::to_string(row.min) + " to " +
             std::to_string(row.max) + " (2^50)";
    case syntax::choice:
    case syntax::list:
      return row.allowed;
  }
  return {};
}

[[noreturn]] void refuse(const variable& row, const std::string& text, const std::string& expected) {
  throw error(errc::invalid_argument, std::string(row.name) + "=" + text + " is not valid: expected " + expected);
}
[[noreturn]] void refuse(const variable& row, const std::string& text) { refuse(row, text, allowed_values(row)); }

// The decimal digits at the start of `text` as a number; nothing when there
// is no digit there or the number does not fit in 64 bits. No sign, no space:
// strtoull would read "-1" as 2^64 - 1 and saturate on overflow. `end`
// receives the index after the digits.
std::optional<unsigned long long> decimal_digits(const std::string& text, std::size_t& end) {
  unsigned long long n = 0;
  end = 0;
  for (; end < text.size() && text[end] >= '0' && text[end] <= '9'; ++end) {
    const auto digit = static_cast<unsigned>(text[end] - '0');
    if (n > (ULLONG_MAX - digit) / 10) return std::nullopt;
    n = n * 10 + digit;
  }
  if (end == 0) return std::nullopt;
  return n;
}

// `text` as a number when it is decimal digits only that fit in 64 bits: the
// syntax of every number a variable holds.
std::optional<unsigned long long> decimal_number(const std::string& text) {
  std::size_t end = 0;
  const auto n = decimal_digits(text, end);
  if (end != text.size()) return std::nullopt;
  return n;
}

unsigned long long integer(const variable& row, const std::string& text) {
  const auto n = decimal_number(text);
  if (!n || *n < row.min || *n > row.max) refuse(row, text);
  return *n;
}

// A byte count with an optional K/M/G/T suffix (either case).
std::size_t bytes(const variable& row, const std::string& text) {
  std::size_t end = 0;
  const auto n = decimal_digits(text, end);
  constexpr std::string_view suffixes = "KMGT";
  std::size_t scale = 1;
  if (end + 1 == text.size()) {
    const auto at = suffixes.find(static_cast<char>(std::toupper(static_cast<unsigned char>(text[end]))));
    if (at == std::string_view::npos) refuse(row, text);
    scale = std::size_t{1} << (10 * (at + 1));
  } else if (end != text.size()) {
    refuse(row, text);
  }
  if (!n || *n > row.max / scale || *n * scale < row.min) refuse(row, text);
  return *n * scale;
}

std::optional<std::uint64_t> schedule(const variable& row, const std::string& text) {
  if (text == "ordered") return std::nullopt;
  if (text == "shuffle") return 1;
  constexpr std::string_view seeded = "shuffle:";
  if (text.starts_with(seeded))
    if (const auto seed = decimal_number(text.substr(seeded.size()))) return *seed;
  refuse(row, text);
}

check_modes checks(const variable& row, const std::string& text) {
  check_modes mode;
  std::size_t from = 0;
  for (;;) {
    const std::size_t comma = text.find(',', from);
    const std::string item = text.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    if (item == "memcpy")
      mode.copies = copy_checking::guarded;
    else if (item == "memcpy-poison")
      mode.copies = copy_checking::poisoned;
    else if (item == "memory")
      mode.memory = true;
    else if (item == "races")
      mode.races = true;
    else if (item != "none" && !item.empty())
      refuse(row, text);
    if (comma == std::string::npos) return mode;
    from = comma + 1;
  }
}

engine_mode engine(const variable& row, const std::string& text) {
  if (text == "auto") return engine_mode::automatic;
  if (text == "loops") return engine_mode::loops;
  if (text == "fibers") return engine_mode::fibers;
  refuse(row, text);
}

int warp_size(const variable& row, const std::string& text) {
  const auto n = decimal_number(text);
  if (!n || (*n != 32 && *n != 64)) refuse(row, text);
  return static_cast<int>(*n);
}

// Each value as the variable writes it: what setting_value reports.
std::string written(unsigned long long n) { return std::to_string(n); }
std::string written(const std::optional<std::uint64_t>& seed) {
  return seed ? "shuffle:" + std::to_string(*seed) : "ordered";
}
std::string written(check_modes mode) {
  std::string items = mode.memory ? "memory" : "";
  if (mode.races) items += items.empty() ? "races" : ",races";
  if (mode.copies != copy_checking::off) {
    if (!items.empty()) items += ",";
    items += mode.copies == copy_checking::guarded ? "memcpy" : "memcpy-poison";
  }
  return items.empty() ? "none" : items;
}
std::string written(engine_mode mode) {
  return mode == engine_mode::loops ? "loops" : mode == engine_mode::fibers ? "fibers" : "auto";
}
std::string written(std::chrono::seconds s) { return std::to_string(s.count()); }

// The settings as one reading of the environment found them.
struct values {
  std::array<std::optional<std::string>, variable_count> given;  // unset or empty: none
  std::array<std::optional<error>, variable_count> problem;      // the error a bad value is
  std::array<std::string, variable_count> in_effect;             // as written()

  unsigned workers = 0;
  std::size_t stack_size = 0;
  std::optional<std::uint64_t> shuffle_seed;
  check_modes checks;
  std::chrono::seconds watchdog{0};
  engine_mode engine = engine_mode::automatic;
  bool engine_report = false;
  int device_count = 0;
  std::size_t device_memory = 0;
  int sm_count = 0, warp_size = 0, max_threads_per_block = 0, max_threads_per_sm = 0, max_blocks_per_sm = 0;
  std::size_t shared_per_sm = 0, shared_per_block = 0;

  // Throws v's error, or the error of one of the variables its value is
  // worked out from or checked against.
  void require(var v) const {
    if (const auto& p = problem[index(v)]) throw *p;
  }

  // Reads v into `field` through `parse` (text -> value, throwing v's error),
  // with `fallback` as the value where the default is worked out; or records
  // the error.
  template <class T, class Parse, class Fallback>
  void read(var v, T& field, Parse parse, Fallback fallback) {
    const variable& r = row(v);
    const std::optional<std::string>& text = given[index(v)];
    try {
      field = text || !r.worked_out ? static_cast<T>(parse(r, text ? *text : std::string(r.default_value)))
                                    : static_cast<T>(fallback());
      in_effect[index(v)] = written(field);
    } catch (const error& e) {
      problem[index(v)] = e;
    }
  }
  template <class T, class Parse>
  void read(var v, T& field, Parse parse) {
    read(v, field, parse, []() -> T { return T{}; });
  }
};

unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

std::optional<std::string> environment(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

values read_environment() {
  values s;
  for (std::size_t i = 0; i < variable_count; ++i) s.given[i] = environment(table[i].name);
  s.read(var::workers, s.workers, integer, hardware_threads);
  s.read(var::stack_size, s.stack_size, bytes);
  s.read(var::schedule, s.shuffle_seed, schedule);
  s.read(var::check, s.checks, checks);
  s.read(var::watchdog, s.watchdog,
         [](const variable& r, const std::string& text) { return std::chrono::seconds(integer(r, text)); });
  s.read(var::engine, s.engine, engine);
  s.read(var::engine_report, s.engine_report, integer);
  s.read(var::device_count, s.device_count, integer);
  s.read(var::device_memory, s.device_memory, bytes, [&s] {
    s.require(var::device_count);
    const auto machine =
        static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return machine / static_cast<std::size_t>(s.device_count);
  });
  s.read(var::sm_count, s.sm_count, integer, hardware_threads);
  s.read(var::warp_size, s.warp_size, warp_size);
  s.read(var::max_threads_per_block, s.max_threads_per_block, [&s](const variable& r, const std::string& text) {
    const auto n = integer(r, text);
    s.require(var::warp_size);
    if (n % static_cast<unsigned>(s.warp_size) != 0)
      refuse(r, text, "a multiple of the warp size (" + std::to_string(s.warp_size) + ")");
    return n;
  });
  s.read(var::max_threads_per_sm, s.max_threads_per_sm, [&s](const variable& r, const std::string& text) {
    const auto n = integer(r, text);
    s.require(var::max_threads_per_block);
    if (n < static_cast<unsigned>(s.max_threads_per_block))
      refuse(r, text,
             "at least the threads a block may have (" + std::to_string(s.max_threads_per_block) +
                 ", COHORT_MAX_THREADS_PER_BLOCK)");
    return n;
  });
  s.read(var::max_blocks_per_sm, s.max_blocks_per_sm, integer);
  s.read(var::shared_per_sm, s.shared_per_sm, bytes);
  // What a block may opt in to: the SM's shared memory less the runtime's reservation.
  const auto opt_in = [&s] {
    s.require(var::shared_per_sm);
    return s.shared_per_sm - device_properties{}.reserved_shared_memory_per_block;
  };
  s.read(
      var::shared_per_block, s.shared_per_block,
      [&](const variable& r, const std::string& text) {
        const std::size_t n = bytes(r, text);
        if (n > opt_in())
          refuse(r, text,
                 "at most " + std::to_string(opt_in()) +
                     " bytes, the most a block may opt in to (COHORT_SHARED_PER_SM, " +
                     std::to_string(s.shared_per_sm) + " bytes, less the " +
                     std::to_string(device_properties{}.reserved_shared_memory_per_block) + " reserved per block)");
        return n;
      },
      [&] { return std::min(opt_in(), std::size_t{48 * 1024}); });
  return s;
}

std::mutex reading_mutex;  // one reading at a time
std::atomic<const values*> in_effect{nullptr};

// Every reading made, to the end of the process: a thread may still be using
// one a reload replaced. Reachable from here, so that no leak checker counts it.
std::vector<std::unique_ptr<const values>>& readings() {
  static auto* all = new std::vector<std::unique_ptr<const values>>;
  return *all;
}

// With reading_mutex held.
const values& read_again() {
  auto& all = readings();
  all.push_back(std::make_unique<const values>(read_environment()));
  in_effect.store(all.back().get(), std::memory_order_release);
  return *all.back();
}

const values& current() {
  if (const values* s = in_effect.load(std::memory_order_acquire)) return *s;
  std::lock_guard lock(reading_mutex);
  if (const values* s = in_effect.load(std::memory_order_relaxed)) return *s;
  return read_again();
}

template <class T>
const T& get(var v, T values::* field) {
  const values& s = current();
  s.require(v);
  return s.*field;
}

}  // namespace

namespace settings {

unsigned workers() { return get(var::workers, &values::workers); }
std::size_t stack_size() { return get(var::stack_size, &values::stack_size); }
std::optional<std::uint64_t> shuffle_seed() { return get(var::schedule, &values::shuffle_seed); }
check_modes checks() { return get(var::check, &values::checks); }
std::chrono::seconds watchdog() { return get(var::watchdog, &values::watchdog); }
engine_mode engine() { return get(var::engine, &values::engine); }
bool engine_report() { return get(var::engine_report, &values::engine_report); }
int device_count() { return get(var::device_count, &values::device_count); }
std::size_t device_memory() { return get(var::device_memory, &values::device_memory); }
int sm_count() { return get(var::sm_count, &values::sm_count); }
int warp_size() { return get(var::warp_size, &values::warp_size); }
int max_threads_per_block() { return get(var::max_threads_per_block, &values::max_threads_per_block); }
int max_threads_per_sm() { return get(var::max_threads_per_sm, &values::max_threads_per_sm); }
int max_blocks_per_sm() { return get(var::max_blocks_per_sm, &values::max_blocks_per_sm); }
std::size_t shared_per_sm() { return get(var::shared_per_sm, &values::shared_per_sm); }
std::size_t shared_per_block() { return get(var::shared_per_block, &values::shared_per_block); }

}  // namespace settings

}  // namespace cohort::detail::host

namespace cohort::host {

using cohort::detail::host::table;

const std::vector<setting>& settings_table() {
  static const std::vector<setting> rows = [] {
    using cohort::detail::host::syntax;
    std::vector<setting> all;
    for (const auto& r : table) {
      const char* type = r.type == syntax::integer  ? "integer"
                         : r.type == syntax::bytes  ? "byte count"
                         : r.type == syntax::choice ? "choice"
                                                    : "list";
      std::string allowed = cohort::detail::host::allowed_values(r);
      if ((r.type == syntax::integer || r.type == syntax::bytes) && r.allowed) allowed += "; " + std::string(r.allowed);
      all.push_back({r.name, type, r.default_value, allowed, r.meaning});
    }
    return all;
  }();
  return rows;
}

std::string setting_value(std::string_view name) {
  namespace h = cohort::detail::host;
  const auto at = std::find_if(table.begin(), table.end(), [&](const auto& r) { return r.name == name; });
  if (at == table.end())
    throw error(errc::invalid_argument, "setting_value: " + std::string(name) + " is not a setting (docs/settings.md)");
  const auto v = static_cast<h::var>(at - table.begin());
  const h::values& s = h::current();
  s.require(v);
  return s.in_effect[h::index(v)];
}

void reload_settings() {
  namespace h = cohort::detail::host;
  std::lock_guard lock(h::reading_mutex);
  h::read_again();
}

}  // namespace cohort::host
