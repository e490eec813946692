// cuRAND's default generator on the host backend: XORWOW (Marsaglia's
// xorshift with a Weyl sequence), as curandState. curand_init, curand,
// skipahead and skipahead_sequence give the numbers a GPU gives for the same
// seed, subsequence and offset, bit for bit.
#pragma once

#include <cstdint>

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef curandStateXORWOW curandStateXORWOW_t;
typedef curandStateXORWOW curandState_t;
typedef curandStateXORWOW curandState;

namespace cohort::compat {

// The xorshift state's jump matrices, M^(2^k) for k = 0..63, then
// M^(2^(67+k)) for k = 0..63, each as the images of the state's 160 bits in
// three words (v[0] | v[1] << 32, v[2] | v[3] << 32, v[4]), generated at build
// time by src/compat/curand/xorwow_jumps.py.
extern const std::uint64_t xorwow_jumps[128][160][3];

// v = M v, M given by its columns: the columns of v's set bits summed, without
// a branch per bit (half of them are set, unpredictably).
inline void xorwow_jump(const std::uint64_t (&columns)[160][3], unsigned int (&v)[5]) {
  std::uint64_t out[3] = {};
  for (int word = 0; word < 5; ++word)
    for (int bit = 0; bit < 32; ++bit) {
      const std::uint64_t take = 0 - static_cast<std::uint64_t>((v[word] >> bit) & 1u);
      for (int part = 0; part < 3; ++part) out[part] ^= columns[word * 32 + bit][part] & take;
    }
  v[0] = static_cast<unsigned int>(out[0]);
  v[1] = static_cast<unsigned int>(out[0] >> 32);
  v[2] = static_cast<unsigned int>(out[1]);
  v[3] = static_cast<unsigned int>(out[1] >> 32);
  v[4] = static_cast<unsigned int>(out[2]);
}

// Applies M^(n * 2^first_power): one matrix per bit of n.
inline void xorwow_jump_by(unsigned long long n, int first_table, unsigned int (&v)[5]) {
  for (int k = 0; n != 0; ++k, n >>= 1)
    if (n & 1u) xorwow_jump(xorwow_jumps[first_table + k], v);
}

}  // namespace cohort::compat

inline void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
  cohort::compat::xorwow_jump_by(n, 0, state->v);
  state->d += 362437u * static_cast<unsigned int>(n);  // the Weyl sequence's step, modulo 2^32
}

// Subsequences are 2^67 numbers apart; the Weyl sequence moves by a multiple of 2^32, so not at all.
inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
  cohort::compat::xorwow_jump_by(n, 64, state->v);
}

// The seed's two halves, salted and mixed, as cuRAND seeds XORWOW (seed 0 gives Marsaglia's published state).
inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStateXORWOW_t* state) {
  const unsigned int s0 = static_cast<unsigned int>(seed) ^ 0xaad26b49u;
  const unsigned int s1 = static_cast<unsigned int>(seed >> 32) ^ 0xf7dcefddu;
  const unsigned int t0 = 1099087573u * s0;
  const unsigned int t1 = 2591861531u * s1;
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
}

inline unsigned int curand(curandStateXORWOW_t* state) {
  const unsigned int t = state->v[0] ^ (state->v[0] >> 2);
  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437u;
  return state->v[4] + state->d;
}
