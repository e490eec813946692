# Every placeholder header in COMPAT_DIR (a CUDA toolkit header the host backend
# does not support, whose `#error "cohort: <name> (...) ..."` says what to do) is
# found by cohort-cxx before the toolkit's own header, so including it reports
# that message rather than the toolkit header's errors. One compilation includes
# them all (#error does not stop the compiler). Run in WORK, a scratch directory.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(refusal_of header out)
  file(STRINGS ${COMPAT_DIR}/${header} line REGEX "^#error \"cohort: ")
  string(REGEX REPLACE "^#error \"(.*)\"$" "\\1" message "${line}")
  set(${out} "${message}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE headers RELATIVE ${COMPAT_DIR} ${COMPAT_DIR}/*)
set(placeholders "")
set(includes "")
foreach(header IN LISTS headers)
  refusal_of(${header} message)
  if(message)
    list(APPEND placeholders ${header})
    string(APPEND includes "#include <${header}>\n")
  endif()
endforeach()
if(NOT placeholders)
  message(FATAL_ERROR "no placeholder headers (#error \"cohort: ...) found in ${COMPAT_DIR}")
endif()

file(WRITE ${WORK}/includes_all.cu "${includes}int main() {}\n")
execute_process(COMMAND ${COHORT_CXX} -c ${WORK}/includes_all.cu -o ${WORK}/includes_all.o
                RESULT_VARIABLE built OUTPUT_VARIABLE said ERROR_VARIABLE said)
if(built EQUAL 0)
  message(FATAL_ERROR "a file including every placeholder header compiled:\n${includes}")
endif()
foreach(header IN LISTS placeholders)
  refusal_of(${header} message)
  string(FIND "${said}" "${message}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "including <${header}>, cohort-cxx did not report \"${message}\"; it said:\n${said}")
  endif()
endforeach()
if(said MATCHES "redefinition")
  message(FATAL_ERROR "a CUDA toolkit header was compiled instead of a placeholder:\n${said}")
endif()

# The reference templates CUDA 12 removed, declared only to refuse them with what to use instead.
file(WRITE ${WORK}/references.cu "#include <cuda_texture_types.h>\n#include <cuda_surface_types.h>\n"
                                 "texture<float, 2> old_texture;\nsurface<void, 2> old_surface;\nint main() {}\n")
execute_process(COMMAND ${COHORT_CXX} -c ${WORK}/references.cu -o ${WORK}/references.o
                RESULT_VARIABLE built OUTPUT_VARIABLE said ERROR_VARIABLE said)
foreach(refusal "cohort: texture<T, dim, mode> (texture references) was removed in CUDA 12 and is not supported: create a cudaTextureObject_t"
                "cohort: surface<void, dim> (surface references) was removed in CUDA 12 and is not supported: create a cudaSurfaceObject_t")
  string(FIND "${said}" "${refusal}" at)
  if(built EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "a texture<> and a surface<> reference: exit ${built}, expected \"${refusal}\"; said:\n${said}")
  endif()
endforeach()
