# simulate --topology writes a whole machine: one run per ordered pair, topology.xml and
# truth.json; the same seed gives the same bytes; the exported topology read back gives
# the same pairs; another seed other rounds; analyze reads a pair back; a directory that
# holds something already is refused (exit 2). DIR is this test's own folder.
set(topology "synthetic:package:2 core:2 pu:2")  # 8 CPUs: 56 ordered pairs
set(options --rounds 300 --cpu-offset-ticks 3=400 --package-offset-ticks 1=150 --cpu-drift-ppb 2=1000
            --early-reads 5=0.01 --step 6=300@0.25)
file(REMOVE_RECURSE ${DIR})

function(simulate out)
  execute_process(COMMAND ${TSCSYNC} simulate ${ARGN} --out ${out} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "simulate ${ARGN} --out ${out} failed (${rc}): ${err}")
  endif()
endfunction()

simulate(${DIR}/a --topology "${topology}" --seed 7 ${options})
simulate(${DIR}/b --topology "${topology}" --seed 7 ${options})

file(GLOB pairs RELATIVE ${DIR}/a ${DIR}/a/pair_*.csv)
list(LENGTH pairs n)
if(NOT n EQUAL 56)
  message(FATAL_ERROR "${n} pair files, expected 56: ${pairs}")
endif()
foreach(f pair_0_1.csv pair_7_6.csv pair_3_4.csv topology.xml truth.json)
  if(NOT EXISTS ${DIR}/a/${f})
    message(FATAL_ERROR "simulate wrote no ${f}")
  endif()
endforeach()
file(GLOB all RELATIVE ${DIR}/a ${DIR}/a/*)
foreach(f ${all})
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/a/${f} ${DIR}/b/${f} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the same seed gave another ${f}")
  endif()
endforeach()

file(STRINGS ${DIR}/a/pair_3_4.csv header REGEX "^# (a|b|distance): ")
if(NOT header STREQUAL "# a: 3;# b: 4;# distance: cross_package")
  message(FATAL_ERROR "pair_3_4.csv names its pair as: ${header}")
endif()
file(READ ${DIR}/a/truth.json truth)
string(JSON schema GET "${truth}" schema)
string(JSON x3 GET "${truth}" cpus 3 offset_ticks)
string(JSON x5 GET "${truth}" cpus 5 offset_ticks)
string(JSON npairs LENGTH "${truth}" pairs)
if(NOT schema STREQUAL "tscsync-machine-truth/1" OR NOT x3 EQUAL 400 OR NOT x5 EQUAL 150 OR NOT npairs EQUAL 56)
  message(FATAL_ERROR "truth.json: schema ${schema}, CPU 3 at ${x3}, CPU 5 at ${x5}, ${npairs} pairs")
endif()

# The exported topology describes the same machine: the same pairs, byte for byte.
simulate(${DIR}/c --topology ${DIR}/a/topology.xml --seed 7 ${options})
foreach(f ${pairs})
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/a/${f} ${DIR}/c/${f} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the exported topology gave another ${f}")
  endif()
endforeach()

simulate(${DIR}/d --topology "${topology}" --seed 8 ${options})
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/a/pair_0_1.csv ${DIR}/d/pair_0_1.csv
                RESULT_VARIABLE rc)
if(rc EQUAL 0)
  message(FATAL_ERROR "another seed gave the same pair_0_1.csv")
endif()

# The run reader takes a pair as it takes a measured run: 4 -> 3 is x_3 - x_4 = 400 - 150 ticks.
execute_process(COMMAND ${TSCSYNC} analyze --format json ${DIR}/a/pair_4_3.csv
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "analyze failed (${rc}): ${err}")
endif()
string(JSON a GET "${out}" pairs 0 a)
string(JSON lo GET "${out}" pairs 0 offset_ticks lo)
string(JSON hi GET "${out}" pairs 0 offset_ticks hi)
if(NOT a STREQUAL "4" OR lo GREATER 250 OR hi LESS 250)
  message(FATAL_ERROR "pair_4_3.csv: a ${a}, band [${lo}, ${hi}] misses 250")
endif()

# A directory that holds something already is refused, and left as it was.
execute_process(COMMAND ${TSCSYNC} simulate --topology "${topology}" --out ${DIR}/a
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "is not empty")
  message(FATAL_ERROR "simulate into a full directory: exit ${rc}, ${err}")
endif()
message(STATUS "56 pairs, same bytes for the same seed; pair_4_3 band [${lo}, ${hi}]")
