# Runs one tscaudit command line and checks its exit code and its stderr.
#   cmake -DCOMMAND="exe;arg;..." -DEXPECT_RC=2 -DEXPECT_STDERR=regex [-DEXPECT_STDOUT=regex]
#         [-DEXPECT_NO_FILE=path] [-DEXPECT_FILES=a|b|c] [-DINPUT=file] [-DSTDOUT_FILE=/dev/full]
#         [-DNEEDS_GNUPLOT=1] [-DUNWRAP_STDOUT=1] -P expect.cmake
# INPUT: a file for the command's standard input (none: the test's own).
# STDOUT_FILE sends the command's standard output to that file (stdout is then empty here).
# NEEDS_GNUPLOT: the files expected include pictures; where gnuplot is not installed the
# test prints "SKIPPED: ..." and stops (give the test SKIP_REGULAR_EXPRESSION "SKIPPED: ").
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
if(NEEDS_GNUPLOT)
  tscaudit_skip_without_gnuplot("the pictures this test expects cannot be drawn")
endif()
set(input_args)
if(DEFINED INPUT)
  set(input_args INPUT_FILE ${INPUT})
endif()
if(DEFINED STDOUT_FILE)
  execute_process(COMMAND ${COMMAND} ${input_args}
                  RESULT_VARIABLE rc OUTPUT_FILE ${STDOUT_FILE} ERROR_VARIABLE err TIMEOUT 120)
  set(out "")
else()
  execute_process(COMMAND ${COMMAND} ${input_args}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
endif()
if(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_RC}\nstdout:\n${out}\nstderr:\n${err}")
endif()
# Notes on standard error wrap at 100 columns where a space falls, which depends on the lengths
# of paths and numbers (docs/commands.md, "Conventions"): they are matched with their lines
# joined.
set(err_joined "${err}")
tscaudit_unwrap(err_joined)
if(DEFINED EXPECT_STDERR AND NOT err_joined MATCHES "${EXPECT_STDERR}")
  message(FATAL_ERROR "stderr does not match '${EXPECT_STDERR}':\n${err}")
endif()
if(UNWRAP_STDOUT)  # match the text as it was before its 100-column wrapping
  tscaudit_unwrap(out)
endif()
if(DEFINED EXPECT_STDOUT AND NOT out MATCHES "${EXPECT_STDOUT}")
  message(FATAL_ERROR "stdout does not match '${EXPECT_STDOUT}':\n${out}")
endif()
if(DEFINED EXPECT_NO_FILE AND EXISTS "${EXPECT_NO_FILE}")
  message(FATAL_ERROR "${EXPECT_NO_FILE} exists: a failed command left an output behind")
endif()
if(DEFINED EXPECT_FILES)
  string(REPLACE "|" ";" files "${EXPECT_FILES}")
  foreach(f IN LISTS files)
    if(NOT EXISTS "${f}")
      message(FATAL_ERROR "${f} is missing\nstderr:\n${err}")
    endif()
  endforeach()
endif()
message(STATUS "exit ${rc} as expected; stderr: ${err}")
