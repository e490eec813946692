# cohort-cxx takes nvcc's command lines: options with their value as the next
# argument, -c over several sources (one object each, named after it), a
# value missing at the end as a usage error, and separate compilation (-dc, -dlink). Run in WORK, a scratch directory.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

execute_process(COMMAND ${COHORT_CXX} --std c++17 --gpu-architecture sm_90 -Xptxas -v -x cu ${SOURCE_DIR}/launch_api.cu
                        --output-file ${WORK}/launch_api -O1
                RESULT_VARIABLE built ERROR_VARIABLE said)
if(NOT built EQUAL 0)
  message(FATAL_ERROR "nvcc-style options: cohort-cxx failed (${built}): ${said}")
endif()
if(said MATCHES "-std=c\\+\\+20")
  message(FATAL_ERROR "-Xptxas -v made cohort-cxx verbose: ${said}")
endif()
execute_process(COMMAND ${WORK}/launch_api RESULT_VARIABLE ran)
if(NOT ran EQUAL 0)
  message(FATAL_ERROR "launch_api built with nvcc-style options failed (${ran})")
endif()

execute_process(COMMAND ${COHORT_CXX} -c ${SOURCE_DIR}/stencil_1d.cu ${SOURCE_DIR}/warp_scan.cu -O1
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE compiled ERROR_VARIABLE said)
if(NOT compiled EQUAL 0 OR NOT EXISTS ${WORK}/stencil_1d.o OR NOT EXISTS ${WORK}/warp_scan.o)
  file(GLOB made ${WORK}/*)
  message(FATAL_ERROR "-c over two sources (${compiled}) made: ${made}; ${said}")
endif()

execute_process(COMMAND ${COHORT_CXX} ${SOURCE_DIR}/launch_api.cu -o
                RESULT_VARIABLE refused ERROR_VARIABLE said)
if(NOT refused EQUAL 2 OR NOT said MATCHES "cohort-cxx: -o needs a value after it")
  message(FATAL_ERROR "a trailing -o: exit ${refused}, said: ${said}")
endif()

# Separate compilation as a Makefile does it with nvcc: -dc per file, -dlink over the objects
# (an object of its own), then the link of all three.
foreach(part device main)
  execute_process(COMMAND ${COHORT_CXX} -rdc=true -dc ${SOURCE_DIR}/separate_compilation_${part}.cu -o ${WORK}/${part}.o
                  RESULT_VARIABLE compiled ERROR_VARIABLE said)
  if(NOT compiled EQUAL 0 OR NOT EXISTS ${WORK}/${part}.o)
    message(FATAL_ERROR "-dc separate_compilation_${part}.cu (${compiled}): ${said}")
  endif()
endforeach()
execute_process(COMMAND ${COHORT_CXX} -dlink ${WORK}/device.o ${WORK}/main.o -o ${WORK}/device_link.o
                RESULT_VARIABLE linked ERROR_VARIABLE said)
if(NOT linked EQUAL 0 OR NOT EXISTS ${WORK}/device_link.o)
  message(FATAL_ERROR "-dlink (${linked}): ${said}")
endif()
execute_process(COMMAND ${COHORT_CXX} ${WORK}/device.o ${WORK}/main.o ${WORK}/device_link.o -o ${WORK}/separate
                RESULT_VARIABLE linked ERROR_VARIABLE said)
execute_process(COMMAND ${WORK}/separate RESULT_VARIABLE ran OUTPUT_VARIABLE printed)
if(NOT linked EQUAL 0 OR NOT ran EQUAL 0 OR NOT printed MATCHES "PASS: 100 calls")
  message(FATAL_ERROR "separately compiled program: link ${linked}, run ${ran}: ${printed} ${said}")
endif()
