# Builds CUDA sources (.cu) for cohort's host backend, the way cohort-cxx
# does: each .cu file is rewritten by cohort_rewrite.py (<<<>>> launches,
# extern __shared__, __global__ registrations; with the headers it includes
# with quotes from its own directory) into a C++ file that is
# compiled as C++20 against the CUDA compatibility headers and linked with
# cohort::cudart.
#
#   cohort_add_host_cuda_executable(<target> <sources>...)   # .cu and .cpp alike
#   cohort_cuda_sources_for_host(<target>)                    # an existing target's .cu sources
#   cohort_use_loops_engine(<target>)                         # the two above call it
#
# Kernels run on the loops engine (docs/loops-engine.md) where they were
# compiled by the clang that cohort's pass plugin was built for, with the
# plugin: cohort_use_loops_engine() adds it to a target where the project's
# C++ compiler is that clang (configure with -DCMAKE_CXX_COMPILER=clang++-19,
# say). With any other compiler, or COHORT_USE_LOOPS_ENGINE=OFF, kernels run
# on the fiber engine, as they always can.
#
# COHORT_REWRITER names the rewriter; COHORT_LOOPS_PLUGIN and
# COHORT_LOOPS_CLANG the plugin and its clang (empty where cohort has none);
# find_package(cohort) sets them.
include_guard(GLOBAL)
option(COHORT_USE_LOOPS_ENGINE "Compile kernels with cohort's loops pass where the C++ compiler is the clang it was built for" ON)

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

# Whether this project's C++ compiler is the clang the plugin was built for: LLVM
# loads a pass plugin into its own version only.
function(_cohort_compiler_takes_loops_plugin out)
  set(takes OFF)
  if(COHORT_LOOPS_PLUGIN AND COHORT_LOOPS_CLANG AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    file(REAL_PATH "${CMAKE_CXX_COMPILER}" compiler)
    file(REAL_PATH "${COHORT_LOOPS_CLANG}" plugin_clang)
    if(compiler STREQUAL plugin_clang)
      set(takes ON)
    endif()
  endif()
  set(${out} ${takes} PARENT_SCOPE)
endfunction()

function(cohort_use_loops_engine target)
  _cohort_compiler_takes_loops_plugin(takes)
  if(NOT COHORT_USE_LOOPS_ENGINE OR NOT takes)
    return()
  endif()
  target_compile_options(${target} PRIVATE -fpass-plugin=${COHORT_LOOPS_PLUGIN})
  if(TARGET cohort_loops_pass)
    add_dependencies(${target} cohort_loops_pass)  # built in this tree: before the sources that load it
  endif()
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
  cohort_use_loops_engine(${target})
endfunction()

function(cohort_add_host_cuda_executable target)
  add_executable(${target} ${ARGN})
  cohort_cuda_sources_for_host(${target})
endfunction()
