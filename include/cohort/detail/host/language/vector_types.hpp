// CUDA's index types on the host: dim3 (defaults to 1) and uint3, as NVIDIA
// declares them: no comparison operators, so that a program may define its own.
#pragma once

namespace cohort::host {

struct uint3 {
  unsigned x, y, z;
};

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

}  // namespace cohort::host

using cohort::host::dim3;
using cohort::host::uint3;

namespace cohort::detail::host {
// dim3 has no operator== (above): cohort's own comparisons say so by name.
constexpr bool same_dim(const dim3& a, const dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
}  // namespace cohort::detail::host
