// cuRAND's Philox4x32-10 generator on the host backend (Salmon et al.,
// "Parallel random numbers: as easy as 1, 2, 3", SC 2011): a counter-based
// generator, four numbers per counter. curand_init, curand, curand4,
// skipahead and skipahead_sequence give the numbers a GPU gives, bit for bit.
#pragma once

#include "vector_types.h"

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;  // the next of output's four numbers
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

namespace cohort::compat {

inline uint4 philox_round(uint4 c, uint2 k) {
  const unsigned long long p0 = 0xD2511F53ull * c.x, p1 = 0xCD9E8D57ull * c.z;
  const auto hi = [](unsigned long long p) { return static_cast<unsigned int>(p >> 32); };
  const auto lo = [](unsigned long long p) { return static_cast<unsigned int>(p); };
  return {hi(p1) ^ c.y ^ k.x, lo(p1), hi(p0) ^ c.w ^ k.y, lo(p0)};
}

// Ten rounds, the key bumped by the Weyl constants between them.
inline uint4 philox4x32_10(uint4 counter, uint2 key) {
  for (int round = 0; round < 9; ++round) {
    counter = philox_round(counter, key);
    key.x += 0x9E3779B9u;
    key.y += 0xBB67AE85u;
  }
  return philox_round(counter, key);
}

inline void philox_next_counter(curandStatePhilox4_32_10_t* s) {
  if (++s->ctr.x) return;
  if (++s->ctr.y) return;
  if (++s->ctr.z) return;
  ++s->ctr.w;
}

// The counter's low 64 bits advanced by n; the carry into the high half as cuRAND propagates it.
inline void philox_advance_counter(curandStatePhilox4_32_10_t* s, unsigned long long n) {
  const unsigned int low = static_cast<unsigned int>(n);
  unsigned int high = static_cast<unsigned int>(n >> 32);
  s->ctr.x += low;
  if (s->ctr.x < low) ++high;
  s->ctr.y += high;
  if (high <= s->ctr.y) return;
  if (++s->ctr.z) return;
  ++s->ctr.w;
}

}  // namespace cohort::compat

inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  state->STATE += static_cast<unsigned int>(n & 3);
  n /= 4;
  if (state->STATE > 3) {
    n += 1;
    state->STATE -= 4;
  }
  cohort::compat::philox_advance_counter(state, n);
  state->output = cohort::compat::philox4x32_10(state->ctr, state->key);
}

// A subsequence is the counter's high 64 bits.
inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  const unsigned int low = static_cast<unsigned int>(n);
  unsigned int high = static_cast<unsigned int>(n >> 32);
  state->ctr.z += low;
  if (state->ctr.z < low) ++high;
  state->ctr.w += high;
  state->output = cohort::compat::philox4x32_10(state->ctr, state->key);
}

inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStatePhilox4_32_10_t* state) {
  state->ctr = {0, 0, 0, 0};
  state->key = {static_cast<unsigned int>(seed), static_cast<unsigned int>(seed >> 32)};
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

inline unsigned int curand(curandStatePhilox4_32_10_t* state) {
  const uint4& o = state->output;
  const unsigned int number = state->STATE == 0 ? o.x : state->STATE == 1 ? o.y : state->STATE == 2 ? o.z : o.w;
  if (++state->STATE == 4) {
    cohort::compat::philox_next_counter(state);
    state->output = cohort::compat::philox4x32_10(state->ctr, state->key);
    state->STATE = 0;
  }
  return number;
}

// The next four numbers, from STATE on.
inline uint4 curand4(curandStatePhilox4_32_10_t* state) {
  const uint4 current = state->output;
  cohort::compat::philox_next_counter(state);
  state->output = cohort::compat::philox4x32_10(state->ctr, state->key);
  const unsigned int both[8] = {current.x,       current.y,       current.z,       current.w,
                                state->output.x, state->output.y, state->output.z, state->output.w};
  const unsigned int* from = both + state->STATE;
  return {from[0], from[1], from[2], from[3]};
}
