# A simulated 256-CPU machine in two packages (the default plan there is a sparse design) with
# package 1 +600 ticks and CPU 77 drifting +300 ppb, written as a run directory and judged
# offline: check --from exits 1, its reason is the package (named, against package 0 less the
# drifting CPU), the second finding the drift of CPU 77 alone, and cpus_off names CPU 77 and
# the CPUs of package 1 (128-255).
# About 5 s to simulate and 2 s to check on the development VM. The run directory (about 50 MB)
# is removed at the end. DIR is this test's own folder.
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${TSCAUDIT} simulate --topology "synthetic:package:2 core:64 pu:2" --rounds 100 --seed 3
                        --package-offset-ticks 1=600 --cpu-drift-ppb 77=300 --out ${DIR}/run
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simulate failed (${rc}): ${err}")
endif()

set(problems "")
tscaudit_unwrap(err)  # the summary wraps at 100 columns
if(NOT "${out}${err}" MATCHES "256 CPUs, sparse design, 8800 ordered pairs")
  list(APPEND problems "simulate: not the sparse design expected: ${out}${err}")
endif()
execute_process(COMMAND ${TSCAUDIT} check --from ${DIR}/run RESULT_VARIABLE rc OUTPUT_VARIABLE text
                ERROR_VARIABLE err)
tscaudit_unwrap(text)
tscaudit_expect_exit(problems "${rc}" 1 "check --from")
if(NOT text MATCHES "^not synchronized: package 1 \\(CPUs 128-255\\) is ahead of package 0 \\(CPUs 0-76,78-127\\) by [0-9]+ to [0-9]+ ticks \\([0-9]+ to [0-9]+ ns\\); and 1 more finding \\(")
  list(APPEND problems "check --from: the reason is not the package: ${text}")
endif()
execute_process(COMMAND ${TSCAUDIT} check --from ${DIR}/run --format json RESULT_VARIABLE rc OUTPUT_VARIABLE json
                ERROR_VARIABLE err)
tscaudit_expect_exit(problems "${rc}" 1 "check --from --format json")
string(JSON kind ERROR_VARIABLE e GET "${json}" findings 1 kind)
string(JSON cpus ERROR_VARIABLE e GET "${json}" findings 1 cpus)
string(JSON lo ERROR_VARIABLE e GET "${json}" findings 1 lo)
string(JSON hi ERROR_VARIABLE e GET "${json}" findings 1 hi)
string(REGEX REPLACE "[ \n]" "" cpus "${cpus}")
if(NOT kind STREQUAL "drift" OR NOT cpus STREQUAL "[77]" OR lo GREATER 300 OR hi LESS 300)
  list(APPEND problems "the second finding is not CPU 77's drift holding 300 ppb: ${kind} ${cpus} [${lo}, ${hi}]")
endif()
string(JSON lo ERROR_VARIABLE e GET "${json}" findings 0 lo)
string(JSON hi ERROR_VARIABLE e GET "${json}" findings 0 hi)
if(lo GREATER 600 OR hi LESS 600)
  list(APPEND problems "the package's band [${lo}, ${hi}] does not hold 600")
endif()
string(JSON off_count ERROR_VARIABLE e LENGTH "${json}" cpus_off)
string(JSON off_first ERROR_VARIABLE e GET "${json}" cpus_off 0)
string(JSON off_second ERROR_VARIABLE e GET "${json}" cpus_off 1)
string(JSON off_last ERROR_VARIABLE e GET "${json}" cpus_off 128)
if(NOT off_count EQUAL 129 OR NOT off_first EQUAL 77 OR NOT off_second EQUAL 128 OR NOT off_last EQUAL 255)
  list(APPEND problems "cpus_off is not CPU 77 and 128-255: ${off_count} CPUs, ${off_first}, ${off_second} ... ${off_last}")
endif()
file(REMOVE_RECURSE ${DIR})
if(problems)
  string(REPLACE ";" "\n  " problems "${problems}")
  message(FATAL_ERROR "check --from a simulated 256-CPU machine:\n  ${problems}")
endif()
message(STATUS "check --from 256 CPUs: exit 1, package 1 and CPU 77's drift found")
