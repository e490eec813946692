// Values of any trivially copyable type up to 32 bytes travel as 32-bit
// words: a shuffle of T is one shuffle per word with the same source, so one
// hardware SHFL moves an int or a float and two move a double. Padding bytes
// travel too, which is what "bit for bit" means for structs.
#pragma once

#include <cuda_runtime.h>

#include <cstring>
#include <type_traits>

namespace cohort::detail::gpu {

inline constexpr unsigned max_exchange_bytes = 32;

template <class T>
inline constexpr bool exchangeable = std::is_trivially_copyable_v<T> && sizeof(T) <= max_exchange_bytes;

template <class T>
inline constexpr unsigned word_count = (sizeof(T) + 3) / 4;

template <class T>
struct words_of {
  unsigned w[word_count<T>];
};

template <class T>
__device__ __forceinline__ words_of<T> to_words(const T& v) {
  words_of<T> r{};
  memcpy(r.w, &v, sizeof(T));
  return r;
}

template <class T>
__device__ __forceinline__ T from_words(const words_of<T>& words, T like) {
  memcpy(&like, words.w, sizeof(T));
  return like;
}

// T with every word replaced by move(word, index).
template <class T, class Move>
__device__ __forceinline__ T move_words(const T& v, Move&& move) {
  static_assert(exchangeable<T>, "shuffles move trivially copyable types of at most 32 bytes");
  words_of<T> words = to_words(v);
#pragma unroll
  for (unsigned i = 0; i < word_count<T>; ++i) words.w[i] = move(words.w[i], i);
  return from_words(words, v);
}

// The lanes of `lanes` whose value equals the caller's bit for bit: the
// lanes that match every word.
template <class T>
__device__ __forceinline__ unsigned match_any_lanes(unsigned lanes, const T& v) {
  static_assert(exchangeable<T>, "match_any compares trivially copyable types of at most 32 bytes");
  if constexpr (sizeof(T) == 8) {
    unsigned long long bits;
    memcpy(&bits, &v, 8);
    return __match_any_sync(lanes, bits);
  } else {
    const words_of<T> words = to_words(v);
    unsigned same = lanes;
#pragma unroll
    for (unsigned i = 0; i < word_count<T>; ++i) same &= __match_any_sync(lanes, words.w[i]);
    return same;
  }
}

// Whether every lane of `lanes` holds the same value, bit for bit.
template <class T>
__device__ __forceinline__ bool match_all_lanes(unsigned lanes, const T& v) {
  static_assert(exchangeable<T>, "match_all compares trivially copyable types of at most 32 bytes");
  int same = 1;
  if constexpr (sizeof(T) == 8) {
    unsigned long long bits;
    memcpy(&bits, &v, 8);
    __match_all_sync(lanes, bits, &same);
  } else {
    const words_of<T> words = to_words(v);
#pragma unroll
    for (unsigned i = 0; i < word_count<T>; ++i) {
      int pred;
      __match_all_sync(lanes, words.w[i], &pred);
      same &= pred;
    }
  }
  return same != 0;
}

}  // namespace cohort::detail::gpu
