// The PTX instructions that cohort-cxx translates from inline assembly
// (tools/cohort-cxx/cohort_ptx.py), one function each, with PTX's semantics
// (PTX ISA 8.x). A CPU cannot run PTX, and g++ would read it as x86 assembly:
// the translator replaces each `asm("...")` it knows with calls to these, and
// any other instruction with a compile error naming it.
#pragma once

#include <atomic>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cohort/cohort.hpp>

namespace cohort::compat::ptx {

// An operand's value as the instruction's type: a conversion between integers,
// the bits of a float of the same size ("=f" with .b32), as PTX moves registers.
template <class To, class From>
To as(From value) {
  if constexpr (std::is_floating_point_v<To> != std::is_floating_point_v<From> && sizeof(To) == sizeof(From))
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
    case -2: return below;
    case -1: return below | (1u << lane);
    case 0: return 1u << lane;
    case 1: return ~below;
    default: return ~below & ~(1u << lane);
  }
}
inline unsigned long long globaltimer() {
  return static_cast<unsigned long long>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
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
    return static_cast<T>((static_cast<std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>>(a) * b) >>
                          32);
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

}  // namespace cohort::compat::ptx
