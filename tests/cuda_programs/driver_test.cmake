# Builds SOURCE with the cohort-cxx driver into OUTPUT and runs it.
execute_process(COMMAND ${COHORT_CXX} ${SOURCE} -o ${OUTPUT} -O1 -arch=sm_90 RESULT_VARIABLE built)
if(NOT built EQUAL 0)
  message(FATAL_ERROR "cohort-cxx ${SOURCE} failed (${built})")
endif()
execute_process(COMMAND ${OUTPUT} RESULT_VARIABLE ran)
if(NOT ran EQUAL 0)
  message(FATAL_ERROR "${OUTPUT} failed (${ran})")
endif()
