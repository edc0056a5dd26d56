# A simulated 256-CPU machine in two packages (the default plan there is a sparse design) with
# CPU 77 at +400 ticks, written as a run directory and judged offline: check --from exits 1
# and names CPU 77 off from the rest, in the text and in cpus_off. About 3 s to simulate and
# 1 s to check on the development VM. The run directory (about 50 MB) is removed at the end.
# DIR is this test's own folder.
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${TSCAUDIT} simulate --topology "synthetic:package:2 core:64 pu:2" --rounds 100 --seed 3
                        --cpu-offset-ticks 77=400 --out ${DIR}/run
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simulate failed (${rc}): ${err}")
endif()

set(problems "")
if(NOT "${out}${err}" MATCHES "256 CPUs, sparse design, 8800 ordered pairs")
  list(APPEND problems "simulate: not the sparse design expected: ${out}${err}")
endif()
execute_process(COMMAND ${TSCAUDIT} check --from ${DIR}/run RESULT_VARIABLE rc OUTPUT_VARIABLE text
                ERROR_VARIABLE err)
tscaudit_expect_exit(problems "${rc}" 1 "check --from")
if(NOT text MATCHES "^not synchronized: CPU 77 is off from the rest: pair ([0-9]+->77|77->[0-9]+): ")
  list(APPEND problems "check --from: the reason does not name CPU 77 off from the rest: ${text}")
endif()
execute_process(COMMAND ${TSCAUDIT} check --from ${DIR}/run --format json RESULT_VARIABLE rc OUTPUT_VARIABLE json
                ERROR_VARIABLE err)
tscaudit_expect_exit(problems "${rc}" 1 "check --from --format json")
string(JSON off ERROR_VARIABLE off_error GET "${json}" cpus_off)
if(NOT json MATCHES "\"cpus_off\": \\[\n    77\n  \\]")
  list(APPEND problems "cpus_off is not [77]: ${off} ${off_error}")
endif()
file(REMOVE_RECURSE ${DIR})
if(problems)
  string(REPLACE ";" "\n  " problems "${problems}")
  message(FATAL_ERROR "check --from a simulated 256-CPU machine:\n  ${problems}")
endif()
message(STATUS "check --from 256 CPUs: exit 1, CPU 77 named")
