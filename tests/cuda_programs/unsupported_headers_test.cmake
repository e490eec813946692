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
