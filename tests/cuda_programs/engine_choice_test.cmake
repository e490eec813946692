# cohort-cxx's choice of compiler, and the engine that then runs each kernel
# (engine_choice.cu: a barrier-only kernel the loops pass lowers and a shuffle
# over __activemask() it keeps on fibers). LOOPS_CLANG: the clang the build's pass plugin is for,
# empty where none was built. Run in WORK, a scratch directory.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# Builds SOURCE with `cohort-cxx -v` and the arguments given, in the environment
# `environment` (NAME=VALUE...), and runs it with the engine report: `command`
# and `report` get what cohort-cxx ran and said, and what the program reported.
function(build_and_run name environment command report)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${environment} ${COHORT_CXX} -v ${ARGN} ${SOURCE} -o ${WORK}/${name}
                  RESULT_VARIABLE built ERROR_VARIABLE said)
  if(NOT built EQUAL 0)
    message(FATAL_ERROR "${name}: cohort-cxx failed (${built}): ${said}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env COHORT_ENGINE_REPORT=1 ${WORK}/${name}
                  RESULT_VARIABLE ran OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT ran EQUAL 0 OR NOT out MATCHES "PASS")
    message(FATAL_ERROR "${name}: the program failed (${ran}): ${out}${err}")
  endif()
  set(${command} "${said}" PARENT_SCOPE)
  set(${report} "${err}" PARENT_SCOPE)
endfunction()

function(expect name text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${name}: expected /${regex}/ in:\n${text}")
  endif()
endfunction()
function(refuse name text regex)
  if(text MATCHES "${regex}")
    message(FATAL_ERROR "${name}: did not expect /${regex}/ in:\n${text}")
  endif()
endfunction()
function(expect_compiler name command compiler)
  string(FIND "${command}" "${compiler} " at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "${name}: expected the command to start with ${compiler}:\n${command}")
  endif()
endfunction()

set(tree "kernel `tree_sum\\(int const\\*, int\\*\\)` runs on")
set(shuffle "kernel `shuffle_sum\\(int const\\*, int\\*\\)` runs on fibers")
set(not_lowered "fibers: not compiled by clang with cohort's loops pass")
# The template launched with its argument deduced runs as compat's deduced_kernel of the launch's thunk,
# whose parameters are the arguments' types (named so by clang; g++'s name of it is left mangled).
set(deduced "kernel `[^`]*deduced_kernel[^`]*` runs on")

# The default: the plugin's clang with the plugin where one was built, else g++.
build_and_run(default "" command report)
if(LOOPS_CLANG)
  expect_compiler(default "${command}" ${LOOPS_CLANG})
  expect(default "${command}" "-fpass-plugin=[^ ]*cohort-loops-pass")
  expect(default "${report}" "${tree} loops\n")
  expect(default "${report}" "${deduced} loops\n")
  refuse(default "${report}" "${tree} fibers")  # the launch into a stream too
  expect(default "${report}" "${shuffle}: coalesced_threads\\(\\) or __activemask\\(\\)")
else()
  expect_compiler(default "${command}" g++)
  expect(default "${report}" "${tree} ${not_lowered}")
endif()
refuse(default "${command}" "remark:")  # remarks only when asked for

# g++, named by the option and by the environment: every kernel on fibers.
build_and_run(option_gxx "" command report --compiler=g++)
expect_compiler(option_gxx "${command}" g++)
refuse(option_gxx "${command}" "-fpass-plugin")
expect(option_gxx "${report}" "${tree} ${not_lowered}")
expect(option_gxx "${report}" "shuffle_sum[^\n]*${not_lowered}")
expect(option_gxx "${report}" "${deduced} ${not_lowered}")
build_and_run(environment_gxx "COHORT_CXX_COMPILER=g++" command report)
expect_compiler(environment_gxx "${command}" g++)
refuse(environment_gxx "${command}" "-fpass-plugin")
expect(environment_gxx "${report}" "${tree} ${not_lowered}")

if(LOOPS_CLANG)
  # The option over the environment; the pass's remarks on request.
  build_and_run(option_over_environment "COHORT_CXX_COMPILER=g++" command report
                --compiler ${LOOPS_CLANG} -Rpass-missed=cohort-loops)
  expect_compiler(option_over_environment "${command}" ${LOOPS_CLANG})
  expect(option_over_environment "${command}"
         "remark: kernel `shuffle_sum\\(int const\\*, int\\*\\)` stays on the fiber engine: coalesced_threads\\(\\) or __activemask\\(\\)")
  expect(option_over_environment "${report}" "${tree} loops\n")
  # -G (nvcc's device debug, -O0): the plugin leaves every kernel on fibers, whose threads a debugger sees.
  build_and_run(device_debug "" command report -G)
  expect(device_debug "${report}" "${tree} fibers: compiled without optimization")
endif()

execute_process(COMMAND ${COHORT_CXX} ${SOURCE} -o ${WORK}/unbuilt --compiler RESULT_VARIABLE refused ERROR_VARIABLE said)
if(NOT refused EQUAL 2 OR NOT said MATCHES "cohort-cxx: --compiler needs a value after it")
  message(FATAL_ERROR "a trailing --compiler: exit ${refused}, said: ${said}")
endif()
