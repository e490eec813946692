// libcu++'s cuda::std is the C++ standard library on the host.
#pragma once

namespace cuda::std {
using namespace ::std;
}  // namespace cuda::std
