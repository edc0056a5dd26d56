# report --from one run: a simulated 16-CPU machine in two packages with CPU 5 at +400
# ticks, written by simulate --topology as a run directory, and that run directory under
# the run/ of a matrix's --out. The report is built from that one run: exit 1 as check's, the check's
# reason naming CPU 5 on stdout, its matrix/ byte for byte what check --from --out writes,
# no plain-rdtsc and no read-variants section, and a platform section that says the facts
# are not recorded and shows what the manifest records (the host). A plain directory of run
# files gives a report titled by the run. An earlier report's directory without its
# platform facts is still refused (exit 2). DIR is this test's own folder.
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${TSCAUDIT} simulate --topology "synthetic:package:2 core:4 pu:2" --rounds 200 --seed 5
                        --cpu-offset-ticks 5=400 --out ${DIR}/run
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simulate failed (${rc}): ${err}")
endif()

set(problems "")
execute_process(COMMAND ${TSCAUDIT} check --from ${DIR}/run --out ${DIR}/check RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_QUIET)
tscaudit_expect_exit(problems "${rc}" 1 "check --from --out")

# A run directory, then a matrix's --out holding one in run/.
file(COPY ${DIR}/run/ DESTINATION ${DIR}/matrix_out/run)
foreach(from run matrix_out)
  set(report ${DIR}/report_${from})
  execute_process(COMMAND ${TSCAUDIT} report --from ${DIR}/${from} --out ${report} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE text ERROR_VARIABLE err)
  tscaudit_expect_exit(problems "${rc}" 1 "report --from ${from}")
  if(NOT text MATCHES "^not synchronized: CPU 5 is ahead of the rest \\(CPUs 0-4,6-15\\) by ")
    list(APPEND problems "report --from ${from}: stdout does not name CPU 5: ${text}")
  endif()
  string(REGEX REPLACE "\n +" " " err "${err}")  # the note's wrapped lines joined
  if(NOT err MATCHES "not complete: rebuilt from one run \\([^\n]*\\): no plain-rdtsc matrix to compare with, no read variants")
    list(APPEND problems "report --from ${from}: stderr does not say it is built from one run: ${err}")
  endif()
  foreach(f matrix.json matrix.txt analysis.json offset_ticks.dat)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/check/${f} ${report}/matrix/${f}
                    RESULT_VARIABLE same)
    if(NOT same EQUAL 0)
      list(APPEND problems "report --from ${from}: matrix/${f} is not what check --from --out wrote")
    endif()
  endforeach()
  foreach(absent info.txt info.json matrix_plain_rdtsc variants)
    if(EXISTS ${report}/${absent})
      list(APPEND problems "report --from ${from} wrote ${absent}")
    endif()
  endforeach()
  if(NOT EXISTS ${report}/report.md OR NOT EXISTS ${report}/report.html)
    list(APPEND problems "report --from ${from}: no report.md or report.html")
  else()
    file(READ ${report}/report.md md)
    if(md MATCHES "\n## Plain rdtsc" OR md MATCHES "\n## Read variants")
      list(APPEND problems "report --from ${from}: a plain-rdtsc or read-variants section from one run")
    endif()
    if(NOT md MATCHES "\n## Platform\n\n```\nRebuilt from one run \\([^\n]*\\): the platform facts of `tscaudit info` are not recorded in a run directory, so they are not here.\nWhat the run's manifest records of the machine:\n  host      simulated\n  TSC       2300 MHz\n  warnings  none recorded\n```")
      list(APPEND problems "report --from ${from}: the platform section does not say what one run records")
    endif()
  endif()
endforeach()

# A plain directory of run files (no manifest, no host): both roles of one pair, the
# second written by simulate as 0 -> 1 and renamed 1 -> 0. The title names the run.
foreach(seed 1 2)
  execute_process(COMMAND ${TSCAUDIT} simulate --rounds 2000 --seed ${seed} --out ${DIR}/p${seed}.csv
                          --truth ${DIR}/t${seed}.json RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "simulate of one pair failed (${rc}): ${err}")
  endif()
endforeach()
file(READ ${DIR}/p1.csv p01)
file(READ ${DIR}/p2.csv p10)
string(REPLACE "# a: 0\n# b: 1\n" "# a: 1\n# b: 0\n" p10 "${p10}")
file(WRITE ${DIR}/plain/p01.csv "${p01}")
file(WRITE ${DIR}/plain/p10.csv "${p10}")
execute_process(COMMAND ${TSCAUDIT} report --from ${DIR}/plain --out ${DIR}/report_plain RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_VARIABLE err)
tscaudit_expect_exit(problems "${rc}" 0 "report --from a plain directory")
if(EXISTS ${DIR}/report_plain/report.md)
  file(READ ${DIR}/report_plain/report.md md)
  if(NOT md MATCHES "^# tscaudit report of the run in [^\n]*plain\n" OR NOT md MATCHES "\n  host      not recorded\n")
    list(APPEND problems "report --from a plain directory: its title or platform section: ${md}")
  endif()
else()
  list(APPEND problems "report --from a plain directory wrote no report.md: ${err}")
endif()

# A report rebuilt from one run records no platform facts: read again, it is that run.
file(MAKE_DIRECTORY ${DIR}/old_report/matrix)
file(COPY ${DIR}/run/ DESTINATION ${DIR}/old_report/matrix/run)
execute_process(COMMAND ${TSCAUDIT} report --from ${DIR}/old_report --out ${DIR}/again RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_VARIABLE err)
string(REGEX REPLACE "\n +" " " err_unwrapped "${err}")
if(rc EQUAL 2 OR rc GREATER 5 OR NOT err_unwrapped MATCHES "rebuilt from [^ ]*old_report/matrix/run \\(the ordering-read matrix of the report in [^ ]*old_report\\)")
  list(APPEND problems "report --from a report without info.txt: exit ${rc}: ${err}")
endif()
# One with facts but without its run names the missing run.
file(MAKE_DIRECTORY ${DIR}/facts_only)
file(WRITE ${DIR}/facts_only/info.txt "facts\n")
file(WRITE ${DIR}/facts_only/info.json "{}\n")
execute_process(COMMAND ${TSCAUDIT} report --from ${DIR}/facts_only --out ${DIR}/again2 RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_VARIABLE err)
tscaudit_expect_exit(problems "${rc}" 2 "report --from a report without its run")
if(NOT err MATCHES "--from [^ ]*facts_only/matrix: no such directory" OR EXISTS ${DIR}/again2)
  list(APPEND problems "report --from a report without its run: ${err}")
endif()

if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "report --from one run:\n  ${text}")
endif()
