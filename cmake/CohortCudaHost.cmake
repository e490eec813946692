# Builds CUDA sources (.cu) for cohort's host backend, the way cohort-cxx
# does: each .cu file is rewritten by cohort_rewrite.py (<<<>>> launches,
# extern __shared__, __global__ registrations; with the headers it includes
# with quotes from its own directory) into a C++ file that is
# compiled as C++20 against the CUDA compatibility headers and linked with
# cohort::cudart.
#
#   cohort_add_host_cuda_executable(<target> <sources>...)   # .cu and .cpp alike
#   cohort_cuda_sources_for_host(<target>)                    # an existing target's .cu sources
#
# COHORT_REWRITER names the rewriter; find_package(cohort) sets it.
include_guard(GLOBAL)

find_package(Python3 3.8 REQUIRED COMPONENTS Interpreter)
# Cached: the functions below also run in the scope of a project that embeds
# cohort (add_subdirectory, FetchContent), where find_package's variables are not set.
set(COHORT_PYTHON ${Python3_EXECUTABLE} CACHE INTERNAL "the Python that runs cohort's rewriter")

function(_cohort_host_source out source mode)
  get_filename_component(abs ${source} ABSOLUTE)
  get_filename_component(dir ${abs} DIRECTORY)
  get_filename_component(name ${abs} NAME)
  string(MD5 tag ${abs})
  string(SUBSTRING ${tag} 0 8 tag)
  set(generated ${CMAKE_CURRENT_BINARY_DIR}/cohort_host_cuda/${tag}/${name}.cpp)
  get_filename_component(rewriter_dir ${COHORT_REWRITER} DIRECTORY)
  add_custom_command(OUTPUT ${generated}
    COMMAND ${COHORT_PYTHON} -B ${COHORT_REWRITER} ${abs} -o ${generated} --depfile ${generated}.d ${mode}
    DEPENDS ${abs} ${COHORT_REWRITER} ${rewriter_dir}/cohort_ptx.py
    DEPFILE ${generated}.d
    COMMENT "Rewriting ${name} for cohort's host backend"
    VERBATIM)
  # Quoted includes are looked up beside the original file.
  set_source_files_properties(${generated} PROPERTIES INCLUDE_DIRECTORIES ${dir})
  set(${out} ${generated} PARENT_SCOPE)
endfunction()

function(cohort_cuda_sources_for_host target)
  get_target_property(sources ${target} SOURCES)
  set(kept "")
  foreach(source IN LISTS sources)
    get_filename_component(abs ${source} ABSOLUTE)
    if(source MATCHES "\\.cu$")
      _cohort_host_source(generated ${source} "")
      list(APPEND kept ${generated})
    elseif(source MATCHES "\\.(cpp|cc|cxx)$" AND EXISTS ${abs})
      # Host code with a launch or inline assembly is rewritten for those only
      # (no __CUDA_ARCH__, as nvcc compiles it).
      file(READ ${abs} text)
      if(text MATCHES "<<<|__shared__|__global__|asm")
        _cohort_host_source(generated ${source} --host)
        list(APPEND kept ${generated})
      else()
        list(APPEND kept ${source})
      endif()
    else()
      list(APPEND kept ${source})
    endif()
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES ${kept})
  target_link_libraries(${target} PRIVATE cohort::cudart)
  target_compile_features(${target} PRIVATE cxx_std_20)
endfunction()

function(cohort_add_host_cuda_executable target)
  add_executable(${target} ${ARGN})
  cohort_cuda_sources_for_host(${target})
endfunction()
