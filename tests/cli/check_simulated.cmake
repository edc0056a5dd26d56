# A simulated 16-CPU machine in two packages with CPU 5 at +400 ticks, written as a run
# directory by simulate --topology and judged offline: check --from exits 1, its reason names
# CPU 5 ahead of the rest by a band holding the truth (and cpus_off in the JSON), and every
# failing pair is one of CPU 5's, in both roles. DIR is this test's own folder.
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${TSCAUDIT} simulate --topology "synthetic:package:2 core:4 pu:2" --rounds 500 --seed 3
                        --cpu-offset-ticks 5=400 --out ${DIR}/run
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simulate failed (${rc}): ${err}")
endif()

set(problems "")
execute_process(COMMAND ${TSCAUDIT} check --from ${DIR}/run RESULT_VARIABLE rc OUTPUT_VARIABLE text
                ERROR_VARIABLE err)
tscaudit_unwrap(text)
tscaudit_expect_exit(problems "${rc}" 1 "check --from")
if(NOT text MATCHES "^not synchronized: CPU 5 is ahead of the rest \\(CPUs 0-4,6-15\\) by ([0-9]+) to ([0-9]+) ticks")
  list(APPEND problems "check --from: the reason is not CPU 5's finding: ${text}")
elseif(CMAKE_MATCH_1 GREATER 400 OR CMAKE_MATCH_2 LESS 400)
  list(APPEND problems "check --from: CPU 5's band [${CMAKE_MATCH_1}, ${CMAKE_MATCH_2}] does not hold 400")
endif()

execute_process(COMMAND ${TSCAUDIT} check --from ${DIR}/run --format json RESULT_VARIABLE rc OUTPUT_VARIABLE json
                ERROR_VARIABLE err)
tscaudit_expect_exit(problems "${rc}" 1 "check --from --format json")
string(JSON checked GET "${json}" pairs_checked)
# Its pairs across the packages pass (bands about 1000 ticks wide); the failures are still
# CPU 5's alone, and it alone is named.
string(JSON off ERROR_VARIABLE off_error GET "${json}" cpus_off)
if(NOT json MATCHES "\"cpus_off\": \\[\n    5\n  \\]")
  list(APPEND problems "cpus_off is not [5]: ${off} ${off_error}")
endif()
string(JSON n LENGTH "${json}" failures)
set(as_a 0)
set(as_b 0)
if(n GREATER 0)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON a GET "${json}" failures ${i} a)
    string(JSON b GET "${json}" failures ${i} b)
    string(JSON kind GET "${json}" failures ${i} kind)
    if(a EQUAL 5)
      math(EXPR as_a "${as_a} + 1")
    elseif(b EQUAL 5)
      math(EXPR as_b "${as_b} + 1")
    else()
      list(APPEND problems "pair ${a}->${b} fails (${kind}) though neither CPU is 5")
    endif()
  endforeach()
endif()
if(NOT checked EQUAL 240 OR as_a EQUAL 0 OR NOT as_a EQUAL as_b)
  list(APPEND problems "${checked} pairs checked; CPU 5 fails in ${as_a} pairs as a and ${as_b} as b")
endif()
if(problems)
  string(REPLACE ";" "\n  " problems "${problems}")
  message(FATAL_ERROR "check --from a simulated machine:\n  ${problems}")
endif()
message(STATUS "check --from: exit 1, ${n} of ${checked} pairs fail, all CPU 5's (${as_a} as a, ${as_b} as b)")
