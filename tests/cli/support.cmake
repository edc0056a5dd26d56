# Helpers of this folder's test scripts (include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)):
# skipping visibly, and collecting what went wrong into a list to report at the end.

# Prints "SKIPPED: <reason>" and ends the script; the test gives
# SKIP_REGULAR_EXPRESSION "SKIPPED: ", so ctest counts it as skipped. A macro, so that
# return() ends the script that calls it.
macro(tscaudit_skip reason)
  message("SKIPPED: ${reason}")
  return()
endmacro()

# Skips where gnuplot is not installed; `why` says what needed it.
macro(tscaudit_skip_without_gnuplot why)
  find_program(gnuplot gnuplot)
  if(NOT gnuplot)
    tscaudit_skip("gnuplot is not installed: ${why}")
  endif()
endmacro()

# Skips where the stderr held in the variable named `err_var` says this machine has too
# few CPUs for a matrix.
macro(tscaudit_skip_on_one_cpu err_var)
  if(${err_var} MATCHES "matrix needs at least two CPUs")
    message("SKIPPED: ${${err_var}}")
    return()
  endif()
endmacro()

# Appends "exit code RC, expected WANT" to the list named `list_var` unless RC is WANT;
# an argument after WANT names the command ("matrix: exit code ...").
function(tscaudit_expect_exit list_var rc want)
  if(NOT rc EQUAL want)
    set(what "")
    if(ARGC GREATER 3)
      set(what "${ARGV3}: ")
    endif()
    list(APPEND ${list_var} "${what}exit code ${rc}, expected ${want}")
    set(${list_var} "${${list_var}}" PARENT_SCOPE)
  endif()
endfunction()

# Appends `what` to the list named `list_var` unless `text` matches `regex`
# (tscaudit_expect_match), or where it does (tscaudit_expect_no_match).
function(tscaudit_expect_match list_var text regex what)
  if(NOT text MATCHES "${regex}")
    list(APPEND ${list_var} "${what}")
    set(${list_var} "${${list_var}}" PARENT_SCOPE)
  endif()
endfunction()
function(tscaudit_expect_no_match list_var text regex what)
  if(text MATCHES "${regex}")
    list(APPEND ${list_var} "${what}")
    set(${list_var} "${${list_var}}" PARENT_SCOPE)
  endif()
endfunction()

# The text of `var` as it was before the 100-column wrapping of text output (render/
# text_wrap.hpp): every continuation line joined to the line it continues, so that a regex
# can match a sentence wherever the line broke. The details of check (lines "  finding: ",
# "  fail: ", "  warning: ") stay lines of their own.
function(tscaudit_unwrap var)
  string(REGEX REPLACE "\n  (finding|fail|warning): " "@@ITEM@@\\1: " text "${${var}}")
  string(REGEX REPLACE "\n +" " " text "${text}")
  string(REPLACE "@@ITEM@@" "\n  " text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()
