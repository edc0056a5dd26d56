# simulate --topology writes a whole machine as a run directory: manifest.json with the plan
# check would run (8 CPUs: every ordered pair, 4 visits), topology.xml, one rounds file per
# initiating CPU and truth.json; the same seed gives the same bytes, the manifest's times
# included; the exported topology read back gives the same rounds; another seed other
# rounds; matrix --from reads it back with the offsets simulated; a directory that holds
# something already is refused (exit 2). DIR is this test's own folder.
set(topology "synthetic:package:2 core:2 pu:2")  # 8 CPUs: 56 ordered pairs
set(options --rounds 300 --cpu-offset-ticks 3=400 --package-offset-ticks 1=150 --cpu-drift-ppb 2=1000
            --early-reads 5=0.01 --step 6=300@0.25)
file(REMOVE_RECURSE ${DIR})

function(simulate out)
  execute_process(COMMAND ${TSCAUDIT} simulate ${ARGN} --out ${out} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "simulate ${ARGN} --out ${out} failed (${rc}): ${err}")
  endif()
endfunction()

simulate(${DIR}/a --topology "${topology}" --seed 7 ${options})
simulate(${DIR}/b --topology "${topology}" --seed 7 ${options})

file(GLOB rounds RELATIVE ${DIR}/a ${DIR}/a/rounds/cpu-*.zst)
list(LENGTH rounds n)
if(NOT n EQUAL 8)
  message(FATAL_ERROR "${n} rounds files, expected 8 (one per initiating CPU): ${rounds}")
endif()
foreach(f manifest.json topology.xml truth.json rounds/cpu-0.zst rounds/cpu-7.zst)
  if(NOT EXISTS ${DIR}/a/${f})
    message(FATAL_ERROR "simulate wrote no ${f}")
  endif()
endforeach()
file(GLOB_RECURSE all RELATIVE ${DIR}/a ${DIR}/a/*)
list(LENGTH all n)
if(NOT n EQUAL 11)
  message(FATAL_ERROR "${n} files, expected 11: ${all}")
endif()
foreach(f ${all})
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/a/${f} ${DIR}/b/${f} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the same seed gave another ${f}")
  endif()
endforeach()

# The manifest records the plan as a live matrix does (its spec rebuilds it) and says complete.
file(READ ${DIR}/a/manifest.json manifest)
string(JSON schema GET "${manifest}" schema)
string(JSON status GET "${manifest}" status)
string(JSON design GET "${manifest}" plan spec design)
string(JSON visits GET "${manifest}" plan spec visits)
string(JSON per_visit GET "${manifest}" plan spec rounds_per_visit)
string(JSON ordered GET "${manifest}" plan ordered_pairs)
if(NOT schema STREQUAL "tscaudit-rundir/1" OR NOT status STREQUAL "complete" OR NOT design STREQUAL "all_pairs"
   OR NOT visits EQUAL 4 OR NOT per_visit EQUAL 300 OR NOT ordered EQUAL 56)
  message(FATAL_ERROR "manifest: ${schema} ${status}, ${design}, ${ordered} ordered pairs, ${visits} visits of "
                      "${per_visit} rounds")
endif()

file(READ ${DIR}/a/truth.json truth)
string(JSON schema GET "${truth}" schema)
string(JSON x3 GET "${truth}" cpus 3 offset_ticks)
string(JSON x5 GET "${truth}" cpus 5 offset_ticks)
string(JSON npairs LENGTH "${truth}" pairs)
if(NOT schema STREQUAL "tscaudit-machine-truth/1" OR NOT x3 EQUAL 400 OR NOT x5 EQUAL 150 OR NOT npairs EQUAL 224)
  message(FATAL_ERROR "truth.json: schema ${schema}, CPU 3 at ${x3}, CPU 5 at ${x5}, ${npairs} pair visits")
endif()
# Row by row, then by visit: 3 -> 4 (the 25th ordered pair) is cross-package, its visits in order.
string(JSON ta GET "${truth}" pairs 96 a)
string(JSON tb GET "${truth}" pairs 96 b)
string(JSON tv GET "${truth}" pairs 99 visit)
string(JSON td GET "${truth}" pairs 96 distance)
if(NOT ta EQUAL 3 OR NOT tb EQUAL 4 OR NOT tv EQUAL 3 OR NOT td STREQUAL "cross_package")
  message(FATAL_ERROR "truth.json pairs 96..99: ${ta} -> ${tb} (${td}), last visit ${tv}")
endif()

# The exported topology describes the same machine: the same plan and rounds, byte for byte.
simulate(${DIR}/c --topology ${DIR}/a/topology.xml --seed 7 ${options})
foreach(f ${rounds} manifest.json truth.json)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/a/${f} ${DIR}/c/${f} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the exported topology gave another ${f}")
  endif()
endforeach()

simulate(${DIR}/d --topology "${topology}" --seed 8 ${options})
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/a/rounds/cpu-0.zst ${DIR}/d/rounds/cpu-0.zst
                RESULT_VARIABLE rc)
if(rc EQUAL 0)
  message(FATAL_ERROR "another seed gave the same rounds/cpu-0.zst")
endif()

# matrix --from reads the machine back: 4 -> 3 is x_3 - x_4 = 400 - 150 ticks.
# Its CPUs are apart: the answer is not synchronized, exit 1, as check's.
execute_process(COMMAND ${TSCAUDIT} matrix --from ${DIR}/a --format json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "matrix --from: exit ${rc}, expected 1: ${err}")
endif()
string(JSON cpu4 GET "${out}" cpus 4 cpu)
string(JSON cpu3 GET "${out}" cpus 3 cpu)
string(JSON lo GET "${out}" offset_lo_ticks 4 3)
string(JSON hi GET "${out}" offset_hi_ticks 4 3)
string(JSON rounds43 GET "${out}" rounds 4 3)
if(NOT cpu4 EQUAL 4 OR NOT cpu3 EQUAL 3 OR lo GREATER 250 OR hi LESS 250 OR NOT rounds43 EQUAL 1200)
  message(FATAL_ERROR "matrix --from: 4 -> 3 has ${rounds43} rounds, band [${lo}, ${hi}] misses 250")
endif()

# An earlier machine is replaced whole; a directory that holds anything else is refused,
# and left as it was.
file(MD5 ${DIR}/a/rounds/cpu-0.zst before)
execute_process(COMMAND ${TSCAUDIT} simulate --topology "${topology}" --seed 99 --rounds 300 --out ${DIR}/a
                RESULT_VARIABLE rc ERROR_VARIABLE err)
file(MD5 ${DIR}/a/rounds/cpu-0.zst after)
file(GLOB aside ${DIR}/a.*)
if(NOT rc EQUAL 0 OR before STREQUAL after OR aside)
  message(FATAL_ERROR "simulate over an earlier machine: exit ${rc}, rounds ${before} -> ${after}, left ${aside}: ${err}")
endif()
file(WRITE ${DIR}/a/notes.txt "mine\n")
execute_process(COMMAND ${TSCAUDIT} simulate --topology "${topology}" --out ${DIR}/a
                RESULT_VARIABLE rc ERROR_VARIABLE err)
file(MD5 ${DIR}/a/rounds/cpu-0.zst again)
if(NOT rc EQUAL 3 OR NOT err MATCHES "it holds notes.txt, which tscaudit does not write there" OR NOT again STREQUAL after)
  message(FATAL_ERROR "simulate into a directory holding another file: exit ${rc}, ${err}")
endif()
message(STATUS "56 pairs x 4 visits, same bytes for the same seed; 4 -> 3 band [${lo}, ${hi}]")
