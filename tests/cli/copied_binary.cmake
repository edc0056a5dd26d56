# The binary copied alone into an empty directory, run from there with TSCAUDIT_PLOTS unset,
# draws every heatmap with the plot scripts compiled into it, and leaves no copy of them
# behind in TMPDIR.
#   cmake -DTSCAUDIT=exe -DDIR=scratch -P copied_binary.cmake
# Prints "SKIPPED: reason" (SKIP_REGULAR_EXPRESSION) where gnuplot is not installed.
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
tscaudit_skip_without_gnuplot("nothing to draw with")
set(alone ${DIR}/copied_binary)
file(REMOVE_RECURSE ${alone})
file(MAKE_DIRECTORY ${alone} ${alone}/tmp)
file(COPY ${TSCAUDIT} DESTINATION ${alone})
get_filename_component(name ${TSCAUDIT} NAME)
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=TSCAUDIT_PLOTS TMPDIR=${alone}/tmp
                        ./${name} matrix --rounds 2000 --visits 1 --out m
                WORKING_DIRECTORY ${alone} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
tscaudit_skip_on_one_cpu(err)
set(problems "")
tscaudit_expect_exit(problems "${rc}" 0)
tscaudit_expect_match(problems "${err}" "wrote m/matrix.json and the heatmaps\n"
                     "stderr does not say 'wrote m/matrix.json and the heatmaps'")
foreach(stem proven_offset_ticks offset_ticks rtt_min_ticks rtt_p50_ticks causality_violations cpu_offsets)
  foreach(ext png svg)
    if(NOT EXISTS ${alone}/m/${stem}.${ext})
      list(APPEND problems "m/${stem}.${ext} is missing")
    endif()
  endforeach()
endforeach()
file(GLOB left ${alone}/tmp/*)
if(left)
  list(APPEND problems "left in TMPDIR: ${left}")
endif()
file(GLOB beside ${alone}/*)
list(SORT beside)
set(expected ${alone}/m ${alone}/${name} ${alone}/tmp)
list(SORT expected)
if(NOT beside STREQUAL expected)
  list(APPEND problems "beside the binary: ${beside}")
endif()
if(problems)
  string(REPLACE ";" "\n  " problems "${problems}")
  message(FATAL_ERROR "the binary copied alone:\n  ${problems}\nstderr:\n${err}")
endif()
message(STATUS "copied alone to ${alone}: every heatmap drawn, TMPDIR left empty: ${err}")
