#include "backend.hpp"

namespace cohort_cli {

cohort::backend built_in_backend() { return cohort::this_backend; }

}  // namespace cohort_cli
