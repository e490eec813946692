# cohort-cxx takes every nvcc option a build written for nvcc passes
# (tools/cohort-cxx/nvcc_options.py): device-code options ignored, host ones
# carried out, device-code outputs refused. Run in WORK, a scratch directory;
# the sources are in SOURCE_DIR (tests/cuda_programs/nvcc_options).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/objects)

function(cohort_cxx what)
  execute_process(COMMAND ${COHORT_CXX} ${ARGN} WORKING_DIRECTORY ${WORK}
                  RESULT_VARIABLE status OUTPUT_VARIABLE printed ERROR_VARIABLE said)
  set(status ${status} PARENT_SCOPE)
  set(printed "${printed}" PARENT_SCOPE)
  set(said "${said}" PARENT_SCOPE)
  if(NOT status EQUAL 0 AND NOT what STREQUAL "refused")
    message(FATAL_ERROR "${what}: cohort-cxx ${ARGN} failed (${status}):\n${printed}${said}")
  endif()
endfunction()

function(expect_run program expected)
  execute_process(COMMAND ${program} RESULT_VARIABLE ran OUTPUT_VARIABLE printed ERROR_VARIABLE said)
  if(NOT ran EQUAL 0 OR NOT printed MATCHES "${expected}")
    message(FATAL_ERROR "${program}: exit ${ran}, expected \"${expected}\":\n${printed}${said}")
  endif()
endfunction()

set(program ${SOURCE_DIR}/option_macros.cu)
# Device-code, ptxas, nvlink, fatbinary and front-end options, in both spellings and both value forms,
# with the host ones among them.
cohort_cxx("a Makefile's nvcc line" ${program} -o ${WORK}/macros
  --extended-lambda -extended-lambda --expt-extended-lambda -expt-relaxed-constexpr --default-stream per-thread
  -ftz=true --prec-div=false -prec-sqrt false --fmad=false -use_fast_math --use_fast_math -Xcudafe --diag_suppress=177
  --diag-suppress 550,177 -diag-warn=20012 --display-error-number -Xnvlink -v -Xfatbin -compress-all --threads 0 -t 4
  --split-compile 0 --Werror cross-execution-space-call,reorder -Wno-deprecated-gpu-targets
  --Wno-deprecated-gpu-targets -res-usage --resource-usage --keep --keep-dir ${WORK} --source-in-ptx -lineinfo
  --generate-line-info -restrict -ewp -forward-unknown-to-host-compiler --allow-unsupported-compiler -noeh
  -arch=native -gencode arch=compute_80,code=sm_80 --generate-code=arch=compute_90,code=[compute_90,sm_90]
  -rdc true -maxrregcount 32 -Xptxas -O3,-v --dopt on -Ofc=max -ccbin g++ -cudart shared -lcudart -l cudadevrt
  -m64 --machine 64 --optimize 3 -D FOO=1 --define-macro=BAR=2 -DBAZ=3 -w --Wreorder
  --pre-include ${SOURCE_DIR}/pre_included.h -I ${SOURCE_DIR},${WORK} -Xlinker --as-needed -std c++17)
expect_run(${WORK}/macros "per-thread default stream\noption_macros: PASS")

# OpenMP host code through -Xcompiler, as multi-stream codes build it (scripts/install-deps.sh installs
# the OpenMP of the loops engine's clang).
cohort_cxx("-Xcompiler -fopenmp" ${SOURCE_DIR}/openmp_streams.cu -Xcompiler -fopenmp -o ${WORK}/openmp_streams)
expect_run(${WORK}/openmp_streams "openmp_streams: PASS")

# --options-file, as CMake passes include paths and definitions.
file(WRITE ${WORK}/options.txt "-DFOO=1 --define-macro BAR=2,BAZ=3\n-include \"${SOURCE_DIR}/pre_included.h\"\n")
cohort_cxx("--options-file" --options-file ${WORK}/options.txt ${program} -o ${WORK}/from_file)
expect_run(${WORK}/from_file "option_macros: PASS")

# Dependency files, with -c: they name the source and the header, not cohort-cxx's rewritten copies.
cohort_cxx("-MD -MF -MT" -c ${program} -o ${WORK}/objects/macros.o -D FOO=1 -DBAR=2 -DBAZ=3
           -include ${SOURCE_DIR}/pre_included.h -MD -MF ${WORK}/macros.d -MP)
file(READ ${WORK}/macros.d listed)
foreach(part "^${WORK}/objects/macros.o:" "${SOURCE_DIR}/option_macros.cu" "${SOURCE_DIR}/scaled_kernel.cuh"
             "\n${SOURCE_DIR}/scaled_kernel.cuh:")
  string(REGEX MATCH "${part}" found "${listed}")
  if(NOT found)
    message(FATAL_ERROR "-MD -MF -MP: \"${part}\" not in the dependency list:\n${listed}")
  endif()
endforeach()
if(listed MATCHES "cohort-cxx-")
  message(FATAL_ERROR "the dependency list names cohort-cxx's scratch copies:\n${listed}")
endif()
# -M: the list alone, on standard output, for the object nvcc would make (-odir's directory).
cohort_cxx("-M" -M ${program} -odir objects -DFOO=1 -DBAR=2 -DBAZ=3 -include ${SOURCE_DIR}/pre_included.h)
if(NOT printed MATCHES "^objects/option_macros.o: ${SOURCE_DIR}/option_macros.cu" OR printed MATCHES "cohort-cxx-"
   OR EXISTS ${WORK}/objects/option_macros.o)
  message(FATAL_ERROR "-M -odir printed:\n${printed}")
endif()

# -odir, -lib, -run and --run-args.
cohort_cxx("-c -odir" -c ${SOURCE_DIR}/../stencil_1d.cu ${SOURCE_DIR}/../warp_scan.cu -odir objects)
if(NOT EXISTS ${WORK}/objects/stencil_1d.o OR NOT EXISTS ${WORK}/objects/warp_scan.o)
  message(FATAL_ERROR "-c -odir objects made no objects/stencil_1d.o and objects/warp_scan.o")
endif()
cohort_cxx("-lib" -lib ${SOURCE_DIR}/../stencil_1d.cu ${WORK}/objects/warp_scan.o -o ${WORK}/libkernels.a)
execute_process(COMMAND ar t ${WORK}/libkernels.a OUTPUT_VARIABLE members)
if(NOT members MATCHES "stencil_1d.cu.o\n" OR NOT members MATCHES "warp_scan.o")
  message(FATAL_ERROR "-lib: the archive holds:\n${members}")
endif()
cohort_cxx("-run" -run ${program} -o ${WORK}/ran -DFOO=1 -DBAR=2 -DBAZ=3 -include ${SOURCE_DIR}/pre_included.h
           --run-args first,second)
if(NOT printed MATCHES "option_macros: PASS")
  message(FATAL_ERROR "-run printed:\n${printed}")
endif()

# --dryrun prints the commands and makes nothing; -clean removes what the command makes.
cohort_cxx("--dryrun" --dryrun ${program} -o ${WORK}/not_made -DFOO=1)
if(EXISTS ${WORK}/not_made OR NOT said MATCHES "-std=c\\+\\+20")
  message(FATAL_ERROR "--dryrun made ${WORK}/not_made or printed no command:\n${said}")
endif()
cohort_cxx("-clean" -clean ${program} -o ${WORK}/ran)
if(EXISTS ${WORK}/ran)
  message(FATAL_ERROR "-clean left ${WORK}/ran")
endif()

# What only prints: --version, --list-gpu-arch.
cohort_cxx("--version" --version)
if(NOT printed MATCHES "release 12.0, V12.0.0")
  message(FATAL_ERROR "--version printed:\n${printed}")
endif()
cohort_cxx("--list-gpu-arch" --list-gpu-arch)
if(NOT printed STREQUAL "compute_90\n")
  message(FATAL_ERROR "--list-gpu-arch printed:\n${printed}")
endif()

# Refused: device-code outputs, a value nvcc would not take, an option without its value.
foreach(case "-ptx;-ptx: the host backend builds no device code (PTX, cubin, fatbinary)"
             "--cubin;--cubin: the host backend builds no device code"
             "--machine=32;--machine 32: only 64-bit code is built"
             "--default-stream=private;--default-stream private: nvcc takes legacy, null or per-thread"
             "-Xcompiler;-Xcompiler needs a value after it")
  list(GET case 0 option)
  list(GET case 1 expected)
  cohort_cxx(refused ${program} ${option})
  string(FIND "${said}" "cohort-cxx: ${expected}" at)
  if(NOT status EQUAL 2 OR at EQUAL -1)
    message(FATAL_ERROR "${option}: exit ${status}, expected \"cohort-cxx: ${expected}\", said:\n${said}")
  endif()
endforeach()
