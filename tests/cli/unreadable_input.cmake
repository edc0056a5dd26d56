# Input that exists but cannot be opened is an input error (exit 2) naming the path and
# why: a run file, a file in a plain run directory, the directory itself. Permissions do
# not stop root, so as root the commands run as user nobody (setpriv); without setpriv the
# test is skipped.
#   cmake -DTSCAUDIT=path -DDIR=scratch -DRUN=a readable import table -P unreadable_input.cmake
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR}/plain ${DIR}/closed)
file(COPY_FILE ${RUN} ${DIR}/noperm.csv)
file(WRITE ${DIR}/plain/pair_0_1.csv "# a: 0\n# b: 1\nt1,t2,t3,t4\n100,150,160,210\n")
execute_process(COMMAND chmod 000 ${DIR}/noperm.csv ${DIR}/plain/pair_0_1.csv ${DIR}/closed COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND chmod 755 ${DIR} ${DIR}/plain COMMAND_ERROR_IS_FATAL ANY)
set(as_user)
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
if(uid STREQUAL "0")
  find_program(SETPRIV setpriv)
  if(NOT SETPRIV)
    tscaudit_skip("running as root, where permissions stop no read, and setpriv is missing")
  endif()
  set(as_user ${SETPRIV} --reuid=65534 --regid=65534 --clear-groups)
endif()
set(failures)
foreach(case "analyze;${DIR}/noperm.csv;cannot open ${DIR}/noperm.csv for reading: Permission denied"
             "matrix;--from;${DIR}/plain;cannot open ${DIR}/plain/pair_0_1.csv for reading: Permission denied"
             "check;--from;${DIR}/closed;cannot read the directory ${DIR}/closed: Permission denied")
  list(POP_BACK case want)
  execute_process(COMMAND ${as_user} ${TSCAUDIT} ${case} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 60)
  tscaudit_expect_exit(failures "${rc}" 2 "${case}")
  string(FIND "${err}" "${want}" at)
  if(at LESS 0)
    list(APPEND failures "${case}: stderr lacks '${want}': ${err}")
  endif()
endforeach()
execute_process(COMMAND chmod 700 ${DIR}/closed)  # so that the next run can remove it
if(failures)
  string(REPLACE ";" "\n" text "${failures}")
  message(FATAL_ERROR "${text}")
endif()
message(STATUS "every unreadable input exits 2, naming the path")
