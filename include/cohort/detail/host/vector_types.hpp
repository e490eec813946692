// CUDA's index types on the host: dim3 (defaults to 1) and uint3.
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
  friend constexpr bool operator==(const dim3&, const dim3&) = default;
};

}  // namespace cohort::host

using cohort::host::dim3;
using cohort::host::uint3;
