// The PTX instructions that cohort-cxx translates from inline assembly
// (tools/cohort-cxx/cohort_ptx.py), one function each, with PTX's semantics
// (PTX ISA 8.x). A CPU cannot run PTX, and g++ would read it as x86 assembly:
// the translator replaces each `asm("...")` it knows with calls to these, and
// any other instruction with a compile error naming it.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cfenv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <cohort/cohort.hpp>

#include "cohort_compat/half_rounding.hpp"

namespace cohort::compat::ptx {

// An operand's value as the instruction's type: a conversion between integers,
// the bits of a float of the same size ("=f" with .b32), as PTX moves registers;
// a pointer ("l"(p)) is its address.
template <class To, class From>
To as(From value) {
  if constexpr (std::is_pointer_v<From>)
    return static_cast<To>(reinterpret_cast<std::uintptr_t>(value));
  else if constexpr (std::is_floating_point_v<To> != std::is_floating_point_v<From> && sizeof(To) == sizeof(From))
    return std::bit_cast<To>(value);
  else
    return static_cast<To>(value);
}

// An address operand ("l" or "r" constraint): a pointer or an integer holding one.
template <class T>
std::uintptr_t address(T value) {
  if constexpr (std::is_pointer_v<T>)
    return reinterpret_cast<std::uintptr_t>(value);
  else
    return static_cast<std::uintptr_t>(value);
}

template <class T>
T load(std::uintptr_t at) {
  T value;
  std::memcpy(&value, reinterpret_cast<const void*>(at), sizeof value);
  return value;
}
template <class T>
void store(std::uintptr_t at, T value) {
  std::memcpy(reinterpret_cast<void*>(at), &value, sizeof value);
}

// Loads and stores with a memory order (ld.acquire, st.release, .relaxed,
// .volatile): atomic on the host, as they are on the GPU, and a load is a
// spin's poll, as cohort's other atomics are (a thread waiting in a loop of
// them lets the others run).
template <class T>
T load_ordered(std::uintptr_t at, std::memory_order order) {
  return cohort::atomic_ref<T>(*reinterpret_cast<T*>(at)).load(order);
}
template <class T>
void store_ordered(std::uintptr_t at, T value, std::memory_order order) {
  cohort::atomic_ref<T>(*reinterpret_cast<T*>(at)).store(value, order);
}

// Special registers.
inline unsigned laneid() { return cohort::this_thread_block().thread_rank() % static_cast<unsigned>(warpSize); }
inline unsigned warpid() { return cohort::this_thread_block().thread_rank() / static_cast<unsigned>(warpSize); }
inline unsigned lanemask(int relation) {  // -2 lt, -1 le, 0 eq, 1 ge, 2 gt
  const unsigned lane = laneid();
  const unsigned below = lane == 0 ? 0u : (~0u >> (32 - lane));
  switch (relation) {
    case -2:
      return below;
    case -1:
      return below | (1u << lane);
    case 0:
      return 1u << lane;
    case 1:
      return ~below;
    default:
      return ~below & ~(1u << lane);
  }
}
inline unsigned long long globaltimer() {
  return static_cast<unsigned long long>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

// Bit fields: bfe extracts len bits from pos (sign-extended for signed types),
// bfi inserts a's low len bits into b at pos; both clamp at the type's width.
template <class T>
T bfe(T a, unsigned pos, unsigned len) {
  using U = std::make_unsigned_t<T>;
  constexpr unsigned bits = sizeof(T) * 8;
  pos &= 0xff;
  len &= 0xff;
  if (len == 0) return 0;
  const unsigned msb = bits - 1;
  const unsigned top = pos + len - 1 > msb ? msb : pos + len - 1;
  const bool sign = std::is_signed_v<T> && ((static_cast<U>(a) >> (pos > msb ? msb : top)) & 1u);
  U result = 0;
  for (unsigned i = 0; i < bits; ++i) {
    const bool bit = (i < len && pos + i <= msb) ? ((static_cast<U>(a) >> (pos + i)) & 1u) : sign;
    result |= static_cast<U>(bit) << i;
  }
  return static_cast<T>(result);
}
template <class T>
T bfi(T a, T b, unsigned pos, unsigned len) {
  constexpr unsigned bits = sizeof(T) * 8;
  pos &= 0xff;
  len &= 0xff;
  T result = b;
  for (unsigned i = 0; i < len && pos + i < bits; ++i) {
    const T bit = static_cast<T>((a >> i) & 1u);
    result = static_cast<T>((result & ~(T{1} << (pos + i))) | (bit << (pos + i)));
  }
  return result;
}

// prmt.b32 (the default mode): each selector nibble picks a byte of {b, a}
// (a is bytes 0-3); its bit 3 replicates that byte's sign bit instead.
inline unsigned prmt(unsigned a, unsigned b, unsigned selector) {
  const unsigned long long bytes = (static_cast<unsigned long long>(b) << 32) | a;
  unsigned result = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned nibble = (selector >> (4 * i)) & 0xfu;
    unsigned byte = static_cast<unsigned>(bytes >> (8 * (nibble & 7u))) & 0xffu;
    if (nibble & 8u) byte = (byte & 0x80u) ? 0xffu : 0u;
    result |= byte << (8 * i);
  }
  return result;
}

// vabsdiff4: the absolute differences of the four byte pairs, summed onto c
// (.add) or each into its byte.
inline unsigned vabsdiff4_add(unsigned a, unsigned b, unsigned c) {
  for (unsigned i = 0; i < 4; ++i) {
    const int x = static_cast<int>((a >> (8 * i)) & 0xffu), y = static_cast<int>((b >> (8 * i)) & 0xffu);
    c += static_cast<unsigned>(x > y ? x - y : y - x);
  }
  return c;
}
inline unsigned vabsdiff4(unsigned a, unsigned b) {
  unsigned result = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const int x = static_cast<int>((a >> (8 * i)) & 0xffu), y = static_cast<int>((b >> (8 * i)) & 0xffu);
    result |= static_cast<unsigned>(x > y ? x - y : y - x) << (8 * i);
  }
  return result;
}

// lop3.b32: any function of three inputs, given as its truth table.
inline unsigned lop3(unsigned a, unsigned b, unsigned c, unsigned table) {
  unsigned result = 0;
  for (unsigned row = 0; row < 8; ++row)
    if ((table >> row) & 1u) result |= ((row & 4u) ? a : ~a) & ((row & 2u) ? b : ~b) & ((row & 1u) ? c : ~c);
  return result;
}

// bfind: the position of the most significant bit that is not a sign bit, or ~0u.
template <class T>
unsigned bfind(T a) {
  using U = std::make_unsigned_t<T>;
  U bits = static_cast<U>(a);
  if constexpr (std::is_signed_v<T>)
    if (a < 0) bits = static_cast<U>(~bits);
  return bits == 0 ? ~0u : static_cast<unsigned>(sizeof(T) * 8 - 1 - std::countl_zero(bits));
}

template <class T>
T brev(T a) {
  using U = std::make_unsigned_t<T>;
  U x = static_cast<U>(a), r = 0;
  for (unsigned i = 0; i < sizeof(T) * 8; ++i, x >>= 1) r = static_cast<U>((r << 1) | (x & 1u));
  return static_cast<T>(r);
}

template <class T>
T mul_hi(T a, T b) {
  if constexpr (sizeof(T) == 4)
    return static_cast<T>(
        (static_cast<std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>>(a) * b) >> 32);
  else
    return static_cast<T>((static_cast<std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>>(a) * b) >>
                          64);
}

// Extended-precision arithmetic: the carry flag of an asm statement's
// add.cc/addc/sub.cc/subc chain lives in a local of the translation.
template <class T>
T add_carry(T a, T b, unsigned& carry, bool carry_in, bool carry_out) {
  const unsigned __int128 sum = static_cast<unsigned __int128>(a) + b + (carry_in ? carry : 0u);
  if (carry_out) carry = static_cast<unsigned>(sum >> (sizeof(T) * 8)) & 1u;
  return static_cast<T>(sum);
}
template <class T>
T sub_borrow(T a, T b, unsigned& carry, bool borrow_in, bool borrow_out) {
  const unsigned in = borrow_in ? carry : 0u;
  const T difference = static_cast<T>(a - b - in);
  if (borrow_out) carry = (static_cast<unsigned __int128>(b) + in > a) ? 1u : 0u;
  return difference;
}

inline void fence() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// abs and neg of the most negative integer give it back, as on the GPU
// (no overflow: the arithmetic is done unsigned).
template <class T>
T wrapping_neg(T a) {
  return static_cast<T>(std::make_unsigned_t<T>{0} - static_cast<std::make_unsigned_t<T>>(a));
}
template <class T>
T wrapping_abs(T a) {
  if constexpr (std::is_signed_v<T>)
    return a < 0 ? wrapping_neg(a) : a;
  else
    return a;
}

// shl and shr clamp the shift amount to the register's width: a shift by the
// width or more gives 0, or the sign for shr of a signed value.
template <class T>
T shift_left(T a, unsigned n) {
  return n >= sizeof(T) * 8 ? T{0} : static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) << n);
}
template <class T>
T shift_right(T a, unsigned n) {
  if (n >= sizeof(T) * 8) return std::is_signed_v<T> && a < 0 ? static_cast<T>(-1) : T{0};
  return static_cast<T>(a >> n);
}

// cvt's rounding modifiers: .rn/.rni nearest even, .rz/.rzi toward zero,
// .rm/.rmi down, .rp/.rpi up.
enum class rounding { nearest, zero, down, up };

template <class F>
F round_integral(F value, rounding mode) {
  switch (mode) {
    case rounding::nearest:
      return std::nearbyint(value);
    case rounding::zero:
      return std::trunc(value);
    case rounding::down:
      return std::floor(value);
    case rounding::up:
      return std::ceil(value);
  }
  return value;
}

// cvt.rni/.rzi/.rmi/.rpi: rounds to an integral value, then converts; a float
// becomes an integer saturated to its range, NaN becoming 0, as PTX defines it.
template <class To, class From>
To convert_integral(From value, rounding mode) {
  const From r = round_integral(value, mode);
  if constexpr (std::is_integral_v<To>) {
    if (std::isnan(r)) return 0;
    if (r <= static_cast<From>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (r >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
  }
  return static_cast<To>(r);
}

// cvt.rn/.rz/.rm/.rp, and cvt without a modifier between integers (which
// truncates or extends, as a C++ conversion does): a result that is a float
// is rounded in the mode the modifier names.
template <class To, class From>
To convert(From value, rounding mode) {
  if constexpr (std::is_floating_point_v<To>) {
    if (mode != rounding::nearest) {
      const int saved = std::fegetround();
      std::fesetround(mode == rounding::zero ? FE_TOWARDZERO : mode == rounding::down ? FE_DOWNWARD : FE_UPWARD);
      const volatile To result = static_cast<To>(value);  // volatile: converted under the mode just set
      std::fesetround(saved);
      return result;
    }
  }
  return static_cast<To>(value);
}

// cvt to and from the 16-bit floats (.f16, .bf16), whose registers hold their
// bits; .f16x2/.bf16x2 pack two, the first operand's in the upper half.
template <class F>
std::uint16_t to_half(const fp16::format& f, F value, rounding mode) {
  constexpr fp16::rounding modes[] = {fp16::rounding::nearest_even, fp16::rounding::toward_zero, fp16::rounding::down,
                                      fp16::rounding::up};
  return fp16::round_to(f, static_cast<double>(value), modes[static_cast<int>(mode)]);
}
template <class F>
std::uint32_t to_half_pair(const fp16::format& f, F upper, F lower, rounding mode) {
  return (std::uint32_t{to_half(f, upper, mode)} << 16) | to_half(f, lower, mode);
}
template <class F>
F from_half(const fp16::format& f, std::uint16_t bits) {
  return static_cast<F>(fp16::value_of(f, bits));
}

// atom and red: read-modify-write operations on memory, atomic as on the GPU.
enum class atomic_op { add, min, max, bit_and, bit_or, bit_xor, exch, inc, dec };

template <class T>
T atomic_update(std::uintptr_t at, T value, atomic_op op, std::memory_order order) {
  cohort::atomic_ref<T> a(*reinterpret_cast<T*>(at));
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case atomic_op::bit_and:
        return a.fetch_and(value, order);
      case atomic_op::bit_or:
        return a.fetch_or(value, order);
      case atomic_op::bit_xor:
        return a.fetch_xor(value, order);
      default:
        break;
    }
  }
  switch (op) {
    case atomic_op::add:
      return a.fetch_add(value, order);
    case atomic_op::min:
      return a.fetch_min(value, order);
    case atomic_op::max:
      return a.fetch_max(value, order);
    case atomic_op::exch:
      return a.exchange(value, order);
    default:
      break;
  }
  // inc and dec wrap at `value`, as CUDA's atomicInc and atomicDec do.
  T old = a.load(std::memory_order_relaxed);
  for (;;) {
    const T next = op == atomic_op::inc ? (old >= value ? T{0} : static_cast<T>(old + 1))
                                        : (old == 0 || old > value ? value : static_cast<T>(old - 1));
    if (a.compare_exchange_weak(old, next, order, std::memory_order_relaxed)) return old;
  }
}

template <class T>
T atomic_cas(std::uintptr_t at, T compare, T value, std::memory_order order) {
  cohort::atomic_ref<T>(*reinterpret_cast<T*>(at))
      .compare_exchange_strong(compare, value, order, std::memory_order_relaxed);
  return compare;  // the old value, whether or not it was replaced
}

}  // namespace cohort::compat::ptx
