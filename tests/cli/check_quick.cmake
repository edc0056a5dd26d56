# check --quick through the binary, by invariants: an answer among the three with its exit
# code and the check's one-line wording; JSON and OpenMetrics that say the quick check ran;
# one CPU (taskset) inconclusive with exit 5; the options the quick check does not take
# refused with exit 2 before anything is measured. DIR is this test's own folder.
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
set(problems "")

execute_process(COMMAND ${TSCAUDIT} check --quick RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc MATCHES "^(0|1|5)$")
  list(APPEND problems "check --quick: exit ${rc}, expected 0, 1 or 5: ${err}")
endif()
set(first_word_of_0 "synchronized to within")
set(first_word_of_1 "not synchronized: ")
set(first_word_of_5 "inconclusive: ")
if(rc MATCHES "^(0|1|5)$")
  string(FIND "${out}" "${first_word_of_${rc}}" at)
  if(NOT at EQUAL 0)
    list(APPEND problems "check --quick: exit ${rc} but the answer reads: ${out}")
  endif()
endif()

execute_process(COMMAND ${TSCAUDIT} check --quick --format json RESULT_VARIABLE rc OUTPUT_VARIABLE json
                ERROR_VARIABLE err)
string(JSON check ERROR_VARIABLE e GET "${json}" check)
string(JSON outcome ERROR_VARIABLE e2 GET "${json}" outcome)
if(NOT check STREQUAL "quick" OR NOT outcome MATCHES "^(synchronized|not_synchronized|inconclusive)$")
  list(APPEND problems "check --quick --format json: check '${check}', outcome '${outcome}': ${json}")
endif()

execute_process(COMMAND ${TSCAUDIT} check --quick --openmetrics ${DIR}/quick.prom RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${DIR}/quick.prom metrics)
tscaudit_expect_match(problems "${metrics}" "tscaudit_info{[^}]*check=\"quick\"" "the metrics do not say check=\"quick\"")
tscaudit_expect_match(problems "${metrics}" "\ntscaudit_check_outcome{outcome=\"[a-z_]+\"} 1\n" "no tscaudit_check_outcome")
tscaudit_expect_match(problems "${metrics}" "# EOF\n$" "the metrics do not end with # EOF")

find_program(taskset taskset)
if(taskset)
  execute_process(COMMAND ${taskset} -c 0 ${TSCAUDIT} check --quick RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  tscaudit_expect_exit(problems "${rc}" 5 "taskset -c 0 check --quick")
  tscaudit_expect_match(problems "${out}" "^inconclusive: one CPU only \\(CPU 0\\)"
                        "taskset -c 0 check --quick: ${out}")
  execute_process(COMMAND ${taskset} -c 0 ${TSCAUDIT} check --quick --cpus 0-1 RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  tscaudit_expect_exit(problems "${rc}" 2 "taskset -c 0 check --quick --cpus 0-1")
  tscaudit_expect_match(problems "${err}" "CPU 1 (is outside this process.s affinity mask|may not be used)"
                        "taskset -c 0 check --quick --cpus 0-1: ${err}")
else()
  message("not checked: taskset is not installed (one CPU, a CPU the process may not use)")
endif()

foreach(refused "--out;${DIR}/out" "--rounds;1000" "--send;rdtsc" "--from;${DIR}" "--drift-tolerance-ppb;10")
  execute_process(COMMAND ${TSCAUDIT} check --quick ${refused} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  tscaudit_expect_exit(problems "${rc}" 2 "check --quick ${refused}")
  tscaudit_expect_match(problems "${err}" "does not go with --quick" "check --quick ${refused}: ${err}")
endforeach()
if(EXISTS ${DIR}/out)
  list(APPEND problems "check --quick --out made ${DIR}/out")
endif()
foreach(bad "--budget;-1" "--tolerance;abc" "--cpus;0-")
  execute_process(COMMAND ${TSCAUDIT} check --quick ${bad} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  tscaudit_expect_exit(problems "${rc}" 2 "check --quick ${bad}")
endforeach()

file(REMOVE_RECURSE ${DIR})
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "check --quick:\n  ${text}")
endif()
