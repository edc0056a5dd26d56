# A file system that fills up in the middle of a write: each command that writes files
# exits 3 naming the file and "No space left on device", a target that existed keeps its
# old content, and no temporary (*.tmp.*) is left behind; no picture cut short is kept.
#   cmake -DTSCAUDIT=exe -DDIR=scratch -DRUNS=recorded-runs-dir -P full_disk.cmake
# It mounts a 256 KiB tmpfs at DIR/full_disk, which takes root and a kernel that lets this
# process mount (a container may not): otherwise it prints "SKIPPED: reason" and the test
# is skipped (SKIP_REGULAR_EXPRESSION). Measuring commands use two CPUs (RUN_SERIAL).
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
set(mnt ${DIR}/full_disk)
file(MAKE_DIRECTORY ${mnt})
execute_process(COMMAND umount ${mnt} RESULT_VARIABLE ignored OUTPUT_QUIET ERROR_QUIET)  # a run killed midway
execute_process(COMMAND mount -t tmpfs -o size=256k tscaudit-full-disk ${mnt} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  string(STRIP "${err}" err)
  tscaudit_skip("cannot mount a 256 KiB tmpfs at ${mnt} (${rc}: ${err})")
endif()

set(failures "")
set(old "old content, complete\n")

# Fills the file system, then frees `kib` KiB: a write of more than that fails midway.
function(fill_leaving kib)
  file(REMOVE ${mnt}/filler)
  execute_process(COMMAND dd if=/dev/zero of=${mnt}/filler bs=4096 OUTPUT_QUIET ERROR_QUIET)
  execute_process(COMMAND truncate -s -${kib}K ${mnt}/filler)
endfunction()

# Sets `var` to whether the picture at `path` ends as a whole one does: a PNG with its IEND
# chunk, an SVG with </svg> (then white space only).
function(picture_is_whole path var)
  if(path MATCHES "\\.png$")
    set(bytes 12)
    set(as HEX)
    set(ending "^0000000049454e44ae426082$")
  else()
    set(bytes 16)
    set(as "")
    set(ending "</svg>[ \t\r\n]*$")
  endif()
  file(SIZE ${path} size)
  math(EXPR at "${size} - ${bytes}")
  if(at LESS 0)
    set(at 0)
  endif()
  file(READ ${path} tail OFFSET ${at} LIMIT ${bytes} ${as})
  if(tail MATCHES "${ending}")
    set(${var} TRUE PARENT_SCOPE)
  else()
    set(${var} FALSE PARENT_SCOPE)
  endif()
endfunction()

# Runs `args` (a list), which must write more than the free space into `target`, an
# existing file with the old content; records what went wrong in `failures`.
function(expect_full name target)
  # Room first: what an earlier case left (a run directory cut short by the full disk is
  # kept, as evidence) must not stop the old content from being written.
  file(REMOVE ${mnt}/filler)
  file(WRITE ${target} "${old}")
  fill_leaving(16)
  execute_process(COMMAND ${TSCAUDIT} ${ARGN} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 120)
  set(problems "")
  tscaudit_expect_exit(problems "${rc}" 3)
  tscaudit_expect_match(problems "${err}" "cannot write ${mnt}/[^:]+: No space left on device"
                       "stderr does not name a file of ${mnt} and 'No space left on device'")
  file(READ ${target} now)
  if(NOT now STREQUAL old)
    list(APPEND problems "${target} lost its old content")
  endif()
  file(GLOB_RECURSE leftovers ${mnt}/*.tmp.*)
  if(leftovers)
    list(APPEND problems "temporaries left behind: ${leftovers}")
  endif()
  if(problems)
    string(REPLACE ";" "; " problems "${problems}")
    set(failures "${failures}\n${name}: ${problems}\n  stderr: ${err}" PARENT_SCOPE)
  else()
    message(STATUS "${name}: exit 3 as expected, old content kept, no temporary: ${err}")
  endif()
endfunction()

expect_full("measure" ${mnt}/run.csv measure --cpus 0,0 --rounds 2000 --out ${mnt}/run.csv)
expect_full("simulate" ${mnt}/sim.csv simulate --rounds 2000 --out ${mnt}/sim.csv --truth ${mnt}/truth.json)
file(GLOB recorded ${RUNS}/*.csv)
list(SUBLIST recorded 0 5 five)  # five pairs: about 25 KB of JSON
expect_full("analyze" ${mnt}/analysis.json analyze --format json --out ${mnt}/analysis.json ${five})
file(MAKE_DIRECTORY ${mnt}/matrix ${mnt}/variants ${mnt}/report)
expect_full("matrix" ${mnt}/matrix/matrix.json matrix --rounds 2000 --visits 1 --out ${mnt}/matrix)
expect_full("variants" ${mnt}/variants/variants.json
            variants --rounds 4000 --passes 1 --control-rounds 0 --switch-rounds 0 --out ${mnt}/variants)
expect_full("report" ${mnt}/report/report.md
            report --rounds 2000 --visits 1 --variants-rounds 4000 --out ${mnt}/report)

# Room for some pictures but not all: gnuplot exits 0 even when its writes fail, so a
# picture cut short must be refused (a "problem", exit 0 or 3), never renamed into place.
foreach(kib 60 100 160)
  file(REMOVE_RECURSE ${mnt}/matrix)
  fill_leaving(${kib})
  execute_process(COMMAND ${TSCAUDIT} matrix --rounds 2000 --visits 1 --out ${mnt}/matrix
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 120)
  set(problems "")
  if(NOT rc EQUAL 0 AND NOT rc EQUAL 3)
    list(APPEND problems "exit code ${rc}")
  endif()
  file(GLOB pngs ${mnt}/matrix/*.png)
  file(GLOB svgs ${mnt}/matrix/*.svg)
  foreach(f IN LISTS pngs svgs)
    picture_is_whole(${f} whole)
    if(NOT whole)
      list(APPEND problems "${f} is cut short")
    endif()
  endforeach()
  file(GLOB_RECURSE leftovers ${mnt}/*.tmp.*)
  if(leftovers)
    list(APPEND problems "temporaries left behind: ${leftovers}")
  endif()
  list(LENGTH pngs n_png)
  list(LENGTH svgs n_svg)
  if(problems)
    string(REPLACE ";" "; " problems "${problems}")
    set(failures "${failures}\nmatrix with ${kib} KiB free: ${problems}\n  stderr: ${err}")
  else()
    message(STATUS "matrix with ${kib} KiB free: exit ${rc}, ${n_png} PNG and ${n_svg} SVG, all whole, no temporary")
  endif()
endforeach()

execute_process(COMMAND umount ${mnt} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  set(failures "${failures}\ncannot unmount ${mnt}: ${err}")
endif()
if(failures)
  message(FATAL_ERROR "on a full file system:${failures}")
endif()
