# Where gnuplot is not installed (a PATH without it), every command that draws still
# writes everything else and exits as it would with the pictures; one message names the
# pictures left out and why; no message claims a picture; the report says which pictures
# are missing instead of linking them.
#   cmake -DTSCAUDIT=exe -DDIR=scratch -DLOGS=interval-logs-dir -P no_gnuplot.cmake
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
set(out ${DIR}/no_gnuplot)
file(REMOVE_RECURSE ${out})
file(MAKE_DIRECTORY ${out})
set(failures "")  # a list: what went wrong, a line each

# Runs the tool with PATH=/nonexistent; sets rc and err in the caller, err with each line
# that a note's 100-column wrapping continued joined to its line (a "line" below is a note).
macro(run_without_gnuplot)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PATH=/nonexistent ${TSCAUDIT} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE err TIMEOUT 120)
  string(REGEX REPLACE "\n +" " " err "${err}")
endmacro()

# matrix: the data and the .dat files, no picture, exit 0.
run_without_gnuplot(matrix --rounds 2000 --visits 1 --out ${out}/m)
tscaudit_skip_on_one_cpu(err)
set(not_drawn "gnuplot not found: install gnuplot-nox; not drawn in ${out}/m: proven_offset_ticks.png, proven_offset_ticks.svg, offset_ticks.png, offset_ticks.svg, rtt_min_ticks.png, rtt_min_ticks.svg, rtt_p50_ticks.png, rtt_p50_ticks.svg, causality_violations.png, causality_violations.svg, cpu_offsets.png, cpu_offsets.svg \\(the .dat files beside them are their input\\)")
tscaudit_expect_exit(failures "${rc}" 0 matrix)
tscaudit_expect_match(failures "${err}" "${not_drawn}"
                     "matrix: no 'gnuplot not found' line naming the 12 pictures")
tscaudit_expect_match(failures "${err}" "wrote ${out}/m/matrix.json, no heatmap\n"
                     "matrix: no 'wrote ... matrix.json, no heatmap'")
tscaudit_expect_no_match(failures "${err}" "problem:" "matrix: a missing gnuplot reported as a problem")
foreach(f matrix.json matrix.txt analysis.json offset_ticks.dat causality_violations.dat pairs/pair_0_1.txt)
  if(NOT EXISTS ${out}/m/${f})
    list(APPEND failures "matrix: ${f} missing")
  endif()
endforeach()
file(GLOB pictures ${out}/m/*.png ${out}/m/*.svg)
if(pictures)
  list(APPEND failures "matrix: pictures without gnuplot: ${pictures}")
endif()
set(matrix_err "${err}")

# report: complete, exit 0, the missing pictures named in report.md and report.html.
run_without_gnuplot(report --rounds 2000 --visits 1 --variants-rounds 4000 --out ${out}/r)
tscaudit_expect_exit(failures "${rc}" 0 report)
string(REGEX MATCHALL "gnuplot not found" said "${err}")
list(LENGTH said n)
if(NOT n EQUAL 1)
  list(APPEND failures "report: ${n} 'gnuplot not found' lines, expected 1")
endif()
tscaudit_expect_match(failures "${err}" "not drawn in ${out}/r/matrix: proven_offset_ticks.png, .*; in ${out}/r/matrix_plain_rdtsc: .*; in ${out}/r/variants: variants_cost.png, "
                     "report: the line does not name the pictures of each directory")
tscaudit_expect_no_match(failures "${err}" "problem:" "report: a missing gnuplot reported as a problem")
file(READ ${out}/r/report.md md)
tscaudit_expect_match(failures "${md}" "\\(not drawn: gnuplot not found; its input is matrix/offset_ticks.dat\\)"
                     "report.md does not say the offset heatmap is not drawn")
tscaudit_expect_no_match(failures "${md}" "\\.png\\)" "report.md links a picture")
file(READ ${out}/r/report.html html)
tscaudit_expect_match(failures "${html}" "<p>\\(not drawn: gnuplot not found; its input is variants/variants_cost.dat\\)</p>"
                     "report.html does not say the read cost plot is not drawn")
tscaudit_expect_no_match(failures "${html}" "picture missing" "report.html looked for a picture not drawn")
foreach(f info.txt matrix/matrix.json matrix_plain_rdtsc/matrix.json variants/variants.json variants/variants_cost.dat)
  if(NOT EXISTS ${out}/r/${f})
    list(APPEND failures "report: ${f} missing")
  endif()
endforeach()
set(report_err "${err}")

# analyze --plot: the .dat file, the one line, exit 0.
run_without_gnuplot(analyze --plot ${out}/a ${LOGS}/step.log)
tscaudit_expect_exit(failures "${rc}" 0 "analyze --plot")
tscaudit_expect_match(failures "${err}" "wrote ${out}/a/monitor_timeseries.dat\ntscaudit analyze: warning: gnuplot not found: install gnuplot-nox; not drawn in ${out}/a: monitor_timeseries.png, monitor_timeseries.svg"
                     "analyze --plot: not 'wrote X.dat' then the one line")
if(NOT EXISTS ${out}/a/monitor_timeseries.dat OR EXISTS ${out}/a/monitor_timeseries.png)
  list(APPEND failures "analyze --plot: the .dat file missing, or a picture drawn")
endif()

if(failures)
  list(JOIN failures "\n" failures)
  message(FATAL_ERROR "without gnuplot:\n${failures}\nmatrix stderr:\n${matrix_err}\nreport stderr:\n${report_err}\nanalyze stderr:\n${err}")
endif()
message(STATUS "without gnuplot: matrix, report and analyze --plot complete, exit 0, one line each:\n${matrix_err}\n${report_err}\n${err}")
