# Included by tests/cuda and bench/cuda before their CUDA targets. CMake
# releases before 3.26 do not know nvcc's C++20 flag and refuse C++20 on a
# CUDA target at generate time (CUDA_STANDARD 20, or the cxx_std_20 feature
# that cohort::headers carries); nvcc 12 and newer take -std=c++20, so tell
# them, for the including directory only.
if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
