# report --from an earlier report whose info.json holds kernel TSC events: the report's
# section "The kernel's word" comes right after the diagnosis and compares each event that
# names CPUs with the measurement. The machine is simulated: 16 CPUs in two packages, CPU 5
# at +400 ticks. The events: a warp of 300 cycles between CPUs 0 and 5 (the tool agrees),
# one of 100000 (it agrees they differ, by less), one between CPUs 0 and 3 (it measured
# them agreeing: it disagrees), CPU 5 found behind CPU 0 (the other way round), a warp
# with CPU 40 (not measured). An info.json whose kernel log was unreadable gives no such
# section. DIR is this test's own folder.
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${TSCAUDIT} simulate --topology "synthetic:package:2 core:4 pu:2" --rounds 200 --seed 5
                        --cpu-offset-ticks 5=400 --out ${DIR}/run
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simulate failed (${rc}): ${err}")
endif()

# An earlier report: its matrix's run directory and its platform facts, as info writes them.
set(events "[
  {\"kind\": \"warp\", \"cpu\": 0, \"other_cpu\": 5, \"cpus\": \"\", \"value\": 300, \"value2\": null,
   \"reason\": null, \"timestamp_s\": 0.51235,
   \"lines\": [\"[0.512345] TSC synchronization [CPU#0 -> CPU#5]:\",
             \"[0.512350] Measured 300 cycles TSC warp between CPUs, turning off TSC clock.\"]},
  {\"kind\": \"warp\", \"cpu\": 0, \"other_cpu\": 5, \"value\": 100000, \"lines\": []},
  {\"kind\": \"warp\", \"cpu\": 0, \"other_cpu\": 3, \"value\": 1482, \"lines\": []},
  {\"kind\": \"cpus_behind\", \"cpu\": 0, \"cpus\": \"5\", \"lines\": []},
  {\"kind\": \"warp\", \"cpu\": 0, \"other_cpu\": 40, \"value\": 10, \"lines\": []}]")
foreach(case events unreadable)
  file(COPY ${DIR}/run/ DESTINATION ${DIR}/old_${case}/matrix/run)
  file(WRITE ${DIR}/old_${case}/info.txt "host                simulated\n")
endforeach()
file(WRITE ${DIR}/old_events/info.json
     "{\"schema\": \"tscaudit-info/1\", \"kernel_facts\": {\"log\": {\"lines\": 900, \"tsc_events\": ${events},
       \"tsc_events_left_out\": 0}}}\n")
file(WRITE ${DIR}/old_unreadable/info.json
     "{\"schema\": \"tscaudit-info/1\", \"kernel_facts\": {\"log\": {\"state\": \"unreadable\",
       \"reason\": \"klogctl: Operation not permitted\"}}}\n")

set(problems "")
foreach(case events unreadable)
  execute_process(COMMAND ${TSCAUDIT} report --from ${DIR}/old_${case} --out ${DIR}/report_${case}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  tscaudit_expect_exit(problems "${rc}" 1 "report --from old_${case}")  # CPU 5 is off: not synchronized
  if(NOT EXISTS ${DIR}/report_${case}/report.md)
    message(FATAL_ERROR "report --from old_${case} wrote no report.md: ${err}")
  endif()
endforeach()

file(READ ${DIR}/report_events/report.md md)
if(NOT md MATCHES "\n## Verdict\n.*\n## Diagnosis\n.*\n## The kernel's word\n.*\n## Pairs by topology distance\n")
  list(APPEND problems "the kernel's word is not between the diagnosis and the pairs by distance")
endif()
set(band "\\[\\+[0-9.]+, \\+[0-9.]+\\] ticks")
set(expected
    "\n- the kernel measured 300 cycles of TSC warp between CPU 0 and CPU 5 when it brought CPU 5 up, and turned the TSC clocksource off: \"\\[0\\.512345\\] TSC synchronization \\[CPU#0 -> CPU#5\\]:\" \"\\[0\\.512350\\] Measured 300 cycles TSC warp between CPUs, turning off TSC clock\\.\"\n"
    "\n- The kernel measured 300 cycles of TSC warp between CPU 0 and CPU 5 when it brought CPU 5 up; the tool agrees: CPU 5's counter minus CPU 0's is ${band} now \\(CPU 5 against the rest, ${band}\\)\\.\n"
    "\n- The kernel measured 100000 cycles of TSC warp between CPU 0 and CPU 5 when it brought CPU 5 up; the tool agrees that their counters differ, but by less: CPU 5's counter minus CPU 0's is ${band} now \\(CPU 5 against the rest, ${band}\\), under the kernel's 100000 cycles: they were moved closer since"
    "\n- The kernel measured 1482 cycles of TSC warp between CPU 0 and CPU 3 when it brought CPU 3 up, but the tool measured their counters agreeing now \\(CPU 3 minus CPU 0 within \\[-[0-9.]+, \\+[0-9.]+\\] ticks\\): the counters were corrected since"
    "\n- The kernel found the TSC of CPU 5 behind CPU 0's; the tool finds them the other way round: CPU 5's counter minus CPU 0's is ${band} now"
    "\n- The kernel measured 10 cycles of TSC warp between CPU 0 and CPU 40 when it brought CPU 40 up; not compared: CPU 40 was not measured\\.\n")
foreach(line IN LISTS expected)
  if(NOT md MATCHES "${line}")
    list(APPEND problems "report.md lacks: ${line}")
  endif()
endforeach()
file(READ ${DIR}/report_events/report.html html)
if(NOT html MATCHES "The kernel&#39;s word|The kernel's word")
  list(APPEND problems "report.html has no section \"The kernel's word\"")
endif()

file(READ ${DIR}/report_unreadable/report.md md)
if(md MATCHES "The kernel's word")
  list(APPEND problems "a report whose kernel log was unreadable has a section \"The kernel's word\"")
endif()

if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "report --from an earlier report with kernel TSC events:\n  ${text}\n${md}")
endif()
