// The backend this binary runs its kernels on. It is answered by a file that
// the backend's compiler builds (nvcc for cuda), so that main and the report
// writers, which any C++ compiler builds, need no backend headers.
#pragma once

#include <cohort/backend.hpp>

namespace cohort_cli {

cohort::backend built_in_backend();

// The program that runs kernels on the other backend, for messages.
inline const char* program_for(cohort::backend b) { return b == cohort::backend::cuda ? "cohort-cuda" : "cohort"; }

}  // namespace cohort_cli
