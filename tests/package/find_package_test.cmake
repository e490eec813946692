# Installs cohort from COHORT_BUILD_DIR into SCRATCH_DIR/prefix, then configures,
# builds and runs the consumer project against that prefix.
file(REMOVE_RECURSE ${SCRATCH_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${COHORT_BUILD_DIR} --prefix ${SCRATCH_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${SCRATCH_DIR}/build -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${SCRATCH_DIR}/prefix -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CONSUMER_CXX})
run(${CMAKE_COMMAND} --build ${SCRATCH_DIR}/build)
run(${SCRATCH_DIR}/build/consumer)
run(${SCRATCH_DIR}/prefix/bin/cohort-cxx ${CONSUMER_SOURCE_DIR}/cuda_consumer.cu -o ${SCRATCH_DIR}/cuda_consumer_cxx)

# Each CUDA program's kernel on the engine expected, by the engine report.
function(run_on_engine program loops)
  set(expected "runs on fibers: not compiled by clang with cohort's loops pass")
  if(loops)
    set(expected "runs on loops")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env COHORT_ENGINE_REPORT=1 ${program}
                  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0 OR NOT err MATCHES "kernel `ranks\\(int\\*\\)` ${expected}")
    message(FATAL_ERROR "${program}: expected `ranks(int*)` ${expected} (exit ${result}):\n${out}\n${err}")
  endif()
endfunction()
run_on_engine(${SCRATCH_DIR}/build/cuda_consumer "${HELPER_LOOPS}")
run_on_engine(${SCRATCH_DIR}/cuda_consumer_cxx "${DRIVER_LOOPS}")
