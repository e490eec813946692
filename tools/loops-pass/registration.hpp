// Tells cohort's runtime, before main, what the pass decided for each kernel
// of the translation unit: its block function, or why it stays on fibers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "uniformity.hpp"

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace cohort_loops {

struct kernel_outcome {
  llvm::Function* kernel;
  llvm::Function* block;  // null: stays on fibers
  std::string name;       // demangled
  std::string reason;     // why it stays on fibers
  // Bit 1 << resume_level for each level above the block (grid, cluster) at
  // whose barriers its block function may return (grid_resume.hpp).
  std::uint32_t levels = 0;
  // Its regions run per warp (step_function.hpp), proven under this layout
  // (never with levels: the pass keeps such a kernel on fibers).
  std::optional<warp_layout> per_warp = std::nullopt;
  // It has memcpy_async's checking calls: fibers under COHORT_CHECK=memcpy.
  bool copy_checks = false;
};

void emit_registrations(llvm::Module& module, const std::vector<kernel_outcome>& outcomes);

}  // namespace cohort_loops
