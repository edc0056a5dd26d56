# cntvctss under the emulator: where the CPU has FEAT_ECV (HWCAP2_ECV) the run completes;
# where it does not, measure exits 4 and says why, and writes nothing.
#   cmake "-DTSCAUDIT=emulator;args;binary" -DDIR=dir -P cntvctss.cmake
execute_process(COMMAND ${TSCAUDIT} info --format json RESULT_VARIABLE rc OUTPUT_VARIABLE info TIMEOUT 120)
if(NOT rc EQUAL 0 OR NOT info MATCHES "\"ecv\": (true|false)")
  message(FATAL_ERROR "info --format json: exit ${rc}, no \"ecv\":\n${info}")
endif()
set(ecv ${CMAKE_MATCH_1})
file(REMOVE ${DIR}/cntvctss.csv)
execute_process(COMMAND ${TSCAUDIT} measure --cpus 0,1 --variant cntvctss --rounds 1000 --out ${DIR}/cntvctss.csv
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 120)
if(ecv STREQUAL "true")
  if(NOT rc EQUAL 0 OR NOT err MATCHES "status: complete")
    message(FATAL_ERROR "FEAT_ECV reported, but measure --variant cntvctss: exit ${rc}\n${err}")
  endif()
else()
  if(NOT rc EQUAL 4 OR NOT err MATCHES "variant cntvctss cannot run here: it needs FEAT_ECV's self-synchronized counter CNTVCTSS_EL0, which this CPU does not report \\(HWCAP2_ECV is clear in AT_HWCAP2\\)")
    message(FATAL_ERROR "no FEAT_ECV, but measure --variant cntvctss did not exit 4 with the reason: exit ${rc}\n${err}")
  endif()
  if(EXISTS ${DIR}/cntvctss.csv)
    message(FATAL_ERROR "a refused run left ${DIR}/cntvctss.csv")
  endif()
endif()
message(STATUS "FEAT_ECV ${ecv}: measure --variant cntvctss exit ${rc} as expected")
