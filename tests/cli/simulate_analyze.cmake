# simulate writes rounds and truth; analyze reads the rounds back and must find the
# injected offset inside its band and report the injected early reads.
execute_process(COMMAND ${TSCAUDIT} simulate --rounds 50000 --offset-ticks 2500 --quantum-ticks 26
                        --early-t2-rate 0.002 --early-t2-min-ticks 800 --early-t2-max-ticks 1000
                        --gap-ticks 2000 --fwd-tail-fraction 0 --rev-tail-fraction 0
                        --out ${DIR}/sim.csv --truth ${DIR}/truth.json
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simulate failed (${rc}): ${err}")
endif()
file(READ ${DIR}/truth.json truth)
string(JSON injected GET "${truth}" truth early_t2_count)
execute_process(COMMAND ${TSCAUDIT} analyze --format json ${DIR}/sim.csv
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# 2500 ticks apart: not synchronized, exit 1, as check would answer.
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "analyze: exit ${rc}, expected 1: ${err}")
endif()
string(JSON outcome GET "${out}" pairs 0 outcome)
if(NOT outcome STREQUAL "not_synchronized")
  message(FATAL_ERROR "analyze: outcome ${outcome}, expected not_synchronized")
endif()
string(JSON lo GET "${out}" pairs 0 offset_ticks lo)
string(JSON hi GET "${out}" pairs 0 offset_ticks hi)
string(JSON flagged GET "${out}" pairs 0 classes fwd causality_violation)
string(JSON verdict GET "${out}" pairs 0 verdict)
if(lo GREATER 2500 OR hi LESS 2500)
  message(FATAL_ERROR "band [${lo}, ${hi}] misses the injected offset 2500")
endif()
if(NOT flagged EQUAL injected)
  message(FATAL_ERROR "${flagged} forward violations flagged, ${injected} early reads injected")
endif()
if(NOT verdict MATCHES "^unsafe reads")
  message(FATAL_ERROR "verdict: ${verdict}")
endif()
message(STATUS "band [${lo}, ${hi}], ${flagged} of ${injected} early reads flagged")
