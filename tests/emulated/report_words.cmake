# The report made under the emulator says so, and speaks of aarch64's plain read.
#   cmake -DREPORT=report.md -P report_words.cmake
file(READ ${REPORT} md)
set(problems "")
foreach(regex "emulated: this aarch64 binary runs on an x86-64 kernel" "## Plain cntvct: what speculation does here"
              "The same pairs with plain cntvct on both sides" "matrix_plain_cntvct/causality_violations.svg"
              "counter +cntvct_el0")
  if(NOT md MATCHES "${regex}")
    list(APPEND problems "no '${regex}'")
  endif()
endforeach()
if(md MATCHES "plain rdtsc|lfence_rdtsc")
  list(APPEND problems "an x86-64 read is named: '${CMAKE_MATCH_0}'")
endif()
if(problems)
  string(REPLACE ";" "\n" problems "${problems}")
  message(FATAL_ERROR "${REPORT}:\n${problems}")
endif()
