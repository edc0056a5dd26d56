# Warnings and sanitizers, applied per target to our own code only: dependencies are
# left alone (their headers come in as SYSTEM includes through imported targets).
function(tscaudit_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
    -Wold-style-cast -Wfloat-equal -Wformat=2 -Wnon-virtual-dtor)
  if(TSCAUDIT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(TSCAUDIT_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${TSCAUDIT_SANITIZE} -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=${TSCAUDIT_SANITIZE})
    # GCC's manual (Instrumentation Options, -fsanitize=address) warns that sanitizers raise
    # the rate of false -Wmaybe-uninitialized reports; GCC 12 gives one inside libstdc++'s
    # <regex> at -O1, in every file that includes Catch. The plain build keeps the check.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
    endif()
  endif()
endfunction()
