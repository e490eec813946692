// `extern __shared__ T name[];` at namespace scope, as cohort-cxx rewrites it:
// an empty object that is, wherever a kernel uses it, the calling block's
// dynamic shared memory. (At block scope cohort-cxx declares a pointer instead.)
#pragma once

#include <cstddef>

#include <cohort/cohort.hpp>

namespace cohort::compat {

template <class T>
struct dynamic_shared_array {
  operator T*() const { return cohort::dynamic_shared<T>(); }
  template <class U>
  explicit operator U*() const {
    return reinterpret_cast<U*>(cohort::dynamic_shared<T>());
  }
  T& operator[](std::ptrdiff_t i) const { return cohort::dynamic_shared<T>()[i]; }
};

}  // namespace cohort::compat
