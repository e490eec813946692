# Configures, builds and runs tests/package/fetch_consumer, which embeds the
# cohort source tree COHORT_SOURCE_DIR with FetchContent, in SCRATCH_DIR.
file(REMOVE_RECURSE ${SCRATCH_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${SCRATCH_DIR} -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
    -DCOHORT_SOURCE_DIR=${COHORT_SOURCE_DIR})
run(${CMAKE_COMMAND} --build ${SCRATCH_DIR})
run(${SCRATCH_DIR}/consumer)
run(${SCRATCH_DIR}/cuda_consumer)
