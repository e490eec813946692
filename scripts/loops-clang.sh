#!/usr/bin/env bash
# Prints the clang++ that cohort's loops engine pass plugin is built for: the
# newest LLVM 15-19 installed with its llvm-dev, as cmake/LoopsEngine.cmake
# picks it. Exits 1, printing nothing, where there is none.
for v in 19 18 17 16 15; do
  if [ -e "/usr/lib/llvm-$v/lib/cmake/llvm/LLVMConfig.cmake" ] && [ -x "/usr/lib/llvm-$v/bin/clang++" ]; then
    echo "/usr/lib/llvm-$v/bin/clang++"
    exit 0
  fi
done
exit 1
