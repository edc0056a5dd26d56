# What report prints first is the answer: a simulated 2-CPU machine (one pair, counters
# equal), its report rebuilt from the run. Stdout and stderr together, in the order
# written: the verdict on line 1, the read on line 2 (simulated rounds record none), where
# the report is on line 3, each at most 100 columns; where the rounds came from after
# them. The report of two CPUs has "The pair" and no list of worst CPUs, and its HTML the
# verdict in a box coloured by the outcome and pre blocks that wrap. DIR is this test's own
# folder.
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${TSCAUDIT} simulate --topology "synthetic:package:1 core:2 pu:1" --rounds 2000 --seed 3
                        --out ${DIR}/s2
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simulate failed (${rc}): ${err}")
endif()

set(problems "")
# Relative names, run in DIR: the lines that name them wrap the same whatever the build
# directory's path.
execute_process(COMMAND ${TSCAUDIT} report --from s2 --out r2 WORKING_DIRECTORY ${DIR} RESULT_VARIABLE rc
                OUTPUT_VARIABLE all ERROR_VARIABLE all)
tscaudit_expect_exit(problems "${rc}" 0 "report --from")
# The verdict (wrapped: its continuation lines indented), the read, where the report is,
# then where the rounds came from.
if(NOT all MATCHES "^synchronized to within ±[0-9.]+ ns \\([0-9.]+ ticks\\): all 2 ordered pairs of 2 CPUs [^\n]*\n(  [^\n]+\n)*read: not named \\(the rounds record no read variant, and the read variants were not measured\\)\nreport: r2/report.html \\(report.md beside it\\)\ntscaudit report: rebuilt from s2")
  list(APPEND problems "the output does not start with the answer:\n${all}")
endif()
# Each line of the answer at most 100 columns (± counted as one).
string(FIND "${all}" "\ntscaudit report:" end)
string(SUBSTRING "${all}" 0 ${end} answer)
string(REPLACE "±" "+" answer "${answer}")
string(REPLACE ";" "," answer "${answer}")
string(REPLACE "\n" ";" lines "${answer}")
foreach(line IN LISTS lines)
  string(LENGTH "${line}" columns)
  if(columns GREATER 100)
    list(APPEND problems "an answer line of ${columns} columns: ${line}")
  endif()
endforeach()

file(READ ${DIR}/r2/report.md md)
if(NOT md MATCHES "\n## The pair\n")
  list(APPEND problems "report.md of 2 CPUs has no section 'The pair'")
endif()
if(md MATCHES "Worst CPUs" OR md MATCHES "median per-CPU offset")
  list(APPEND problems "report.md of 2 CPUs lists worst CPUs or a median of two")
endif()
file(READ ${DIR}/r2/report.html html)
if(NOT html MATCHES "<div class=\"verdict verdict-synchronized\">synchronized to within")
  list(APPEND problems "report.html has no verdict box of class verdict-synchronized")
endif()
if(NOT html MATCHES "pre{[^}]*white-space:pre-wrap")
  list(APPEND problems "report.html's pre blocks do not wrap")
endif()
if(html MATCHES "overflow-x:auto")
  list(APPEND problems "report.html has a block that scrolls sideways")
endif()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "report's answer first:\n  ${text}")
endif()
