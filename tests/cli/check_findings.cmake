# What check says of whole simulated machines with known truth, through the binary: the
# structure of what is wrong (findings, their CPU sets exact and their bands holding the
# truth), nothing on synchronized machines, the verdict's width, and --max-bound's
# inconclusive answer with exit 5. The machines:
#   - 2 packages x 8 cores x 2 threads: package 1 +600 ticks, CPU 5 drifting +400 ppb;
#   - 12 CPUs as import tables in a plain directory (no topology), CPUs 6-11 +400 ticks;
#   - 8 CPUs: CPU 5 drifting +300 ppb; CPU 5 +500 ticks;
#   - 16 CPUs synchronized, paths across packages 300 ticks slower one way, early reads on CPU 6.
# About 15 s on the development VM. DIR is this test's own folder, removed at the end.
include(${CMAKE_CURRENT_LIST_DIR}/support.cmake)
file(REMOVE_RECURSE ${DIR})
set(problems "")

function(simulate_machine name)
  execute_process(COMMAND ${TSCAUDIT} simulate --rounds 500 --out ${DIR}/${name} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "simulate ${name} failed (${rc}): ${err}")
  endif()
endfunction()

# Runs check --from DIR/name with the options after `rc_want`; sets text, json (with
# --format json) in the caller.
function(check_dir name rc_want)
  execute_process(COMMAND ${TSCAUDIT} check --from ${DIR}/${name} --details ${ARGN} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE text ERROR_VARIABLE err)
  tscaudit_expect_exit(problems "${rc}" ${rc_want} "check --from ${name} ${ARGN}")
  tscaudit_unwrap(text)
  execute_process(COMMAND ${TSCAUDIT} check --from ${DIR}/${name} --format json ${ARGN} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE json ERROR_VARIABLE err)
  tscaudit_expect_exit(problems "${rc}" ${rc_want} "check --from ${name} --format json ${ARGN}")
  set(text "${text}" PARENT_SCOPE)
  set(json "${json}" PARENT_SCOPE)
  set(problems "${problems}" PARENT_SCOPE)
endfunction()

# Appends a problem unless finding `index` of `json` has this kind, these CPUs (a JSON
# array as text, e.g. "[5]") and a band [lo, hi] holding `truth`.
function(expect_finding index kind cpus truth)
  string(JSON got_kind ERROR_VARIABLE e GET "${json}" findings ${index} kind)
  string(JSON got_cpus ERROR_VARIABLE e GET "${json}" findings ${index} cpus)
  string(JSON lo ERROR_VARIABLE e GET "${json}" findings ${index} lo)
  string(JSON hi ERROR_VARIABLE e GET "${json}" findings ${index} hi)
  string(REGEX REPLACE "[ \n]" "" got_cpus "${got_cpus}")
  if(NOT got_kind STREQUAL kind OR NOT got_cpus STREQUAL cpus)
    list(APPEND problems "finding ${index}: ${got_kind} on ${got_cpus}, expected ${kind} on ${cpus} ${e}")
  elseif(lo GREATER truth OR hi LESS truth)
    list(APPEND problems "finding ${index}: the band [${lo}, ${hi}] does not hold ${truth}")
  endif()
  set(problems "${problems}" PARENT_SCOPE)
endfunction()

function(expect_findings count)
  string(JSON n ERROR_VARIABLE e LENGTH "${json}" findings)
  if(NOT n EQUAL count)
    list(APPEND problems "${n} findings, expected ${count}: ${text}")
  endif()
  set(problems "${problems}" PARENT_SCOPE)
endfunction()

function(expect_text regex)
  if(NOT text MATCHES "${regex}")
    list(APPEND problems "the text does not match '${regex}': ${text}")
  endif()
  set(problems "${problems}" PARENT_SCOPE)
endfunction()

# A package off and a drifting CPU: two findings, the package named; the CPUs off are those
# of both findings (the package that is not the reference, and the drifting CPU).
simulate_machine(package --topology "synthetic:package:2 core:8 pu:2" --package-offset-ticks 1=600
                 --cpu-drift-ppb 5=400)
check_dir(package 1)
expect_text("^not synchronized: package 1 \\(CPUs 16-31\\) is ahead of package 0 \\(CPUs 0-4,6-15\\) by [0-9]+ to [0-9]+ ticks \\([0-9]+ to [0-9]+ ns\\); and 1 more finding \\(542 of 992 ordered pairs fail; those that pass are within ±")
expect_text("\n  finding: package 1 \\(CPUs 16-31\\)[^\n]*\n  finding: CPU 5 runs [0-9.]+ to [0-9.]+ ppb faster than the rest \\(CPUs 0-4,6-31\\)\n  fail: ")
expect_findings(2)
set(package1 "[16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31]")
expect_finding(0 offset "${package1}" 600)
expect_finding(1 drift "[5]" 400)
string(JSON name ERROR_VARIABLE e GET "${json}" findings 0 name)
if(NOT name STREQUAL "package 1")
  list(APPEND problems "the package is named '${name}'")
endif()
string(JSON cpus_off ERROR_VARIABLE e GET "${json}" cpus_off)
string(REGEX REPLACE "[ \n]" "" cpus_off "${cpus_off}")
if(NOT cpus_off STREQUAL "[5,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31]")
  list(APPEND problems "cpus_off is not CPU 5 and package 1: ${cpus_off}")
endif()
execute_process(COMMAND ${TSCAUDIT} check --from ${DIR}/package --format openmetrics RESULT_VARIABLE rc
                OUTPUT_VARIABLE metrics ERROR_VARIABLE err)
if(NOT metrics MATCHES "\ntscaudit_finding_lower_seconds{kind=\"offset\",name=\"package 1\",cpus=\"16-31\"} [0-9.e-]+\n"
   OR NOT metrics MATCHES "\ntscaudit_finding_drift_upper_ratio{kind=\"drift\",name=\"5\",cpus=\"5\"} [0-9.e-]+\n"
   OR NOT metrics MATCHES "\ntscaudit_check_findings 2\n"
   OR NOT metrics MATCHES "\ntscaudit_check_cpus_off 17\n"
   OR NOT metrics MATCHES "\ntscaudit_cpu_off{cpu=\"5\"} 1\n"
   OR NOT metrics MATCHES "\ntscaudit_cpu_off{cpu=\"16\"} 1\n"
   OR NOT metrics MATCHES "\ntscaudit_cpu_off{cpu=\"31\"} 1\n"
   OR metrics MATCHES "\ntscaudit_cpu_off{cpu=\"0\"}")
  list(APPEND problems "the metrics lack the findings: ${metrics}")
endif()
file(REMOVE_RECURSE ${DIR}/package)

# Import tables in a plain directory: no topology, so the group is a CPU list.
foreach(a RANGE 11)
  foreach(b RANGE 11)
    if(a EQUAL b)
      continue()
    endif()
    math(EXPR pa "${a} / 6")
    math(EXPR pb "${b} / 6")
    math(EXPR offset "(${pb} - ${pa}) * 400")
    set(base 180)
    if(NOT pa EQUAL pb)
      set(base 300)
    endif()
    math(EXPR seed "${a} * 12 + ${b} + 1")
    execute_process(COMMAND ${TSCAUDIT} simulate --rounds 2000 --seed ${seed} --offset-ticks ${offset}
                            --fwd-base-ticks ${base} --rev-base-ticks ${base} --out - --truth ${DIR}/truth.json
                    RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "simulate ${a}->${b} failed (${rc}): ${err}")
    endif()
    # An import table: no schema line, the pair named by its a and b lines.
    string(REGEX REPLACE "# schema: [^\n]*\n# a: 0\n# b: 1\n" "# a: ${a}\n# b: ${b}\n" table "${table}")
    file(WRITE ${DIR}/tables/pair_${a}_${b}.csv "${table}")
  endforeach()
endforeach()
check_dir(tables 1)
expect_text("^not synchronized: CPUs 6-11 are ahead of the rest \\(CPUs 0-5\\) by [0-9]+ to [0-9]+ ticks")
expect_findings(1)
expect_finding(0 offset "[6,7,8,9,10,11]" 400)
string(JSON name ERROR_VARIABLE e GET "${json}" findings 0 name)
if(NOT name STREQUAL "null" AND NOT name STREQUAL "")
  list(APPEND problems "a plain directory has no topology, yet the group is named '${name}'")
endif()
file(REMOVE_RECURSE ${DIR}/tables)

# One CPU drifting; one CPU off.
simulate_machine(drift --topology "synthetic:package:1 core:4 pu:2" --cpu-drift-ppb 5=300)
check_dir(drift 1)
expect_text("^not synchronized: CPU 5 runs [0-9.]+ to [0-9.]+ ppb faster than the rest \\(CPUs 0-4,6-7\\) \\(")
expect_findings(1)
expect_finding(0 drift "[5]" 300)
simulate_machine(offset --topology "synthetic:package:1 core:4 pu:2" --cpu-offset-ticks 5=500)
check_dir(offset 1)
expect_text("^not synchronized: CPU 5 is ahead of the rest \\(CPUs 0-4,6-7\\) by ")
expect_findings(1)
expect_finding(0 offset "[5]" 500)

# Synchronized, with paths slower one way across packages and early reads: no finding, the
# width at the front; a bound tighter than the bands prove is inconclusive, exit 5.
simulate_machine(synchronized --topology "synthetic:package:2 core:4 pu:2" --cross-package-skew-ticks 300
                 --early-reads 6=0.01:1500:1800)
check_dir(synchronized 0)
expect_text("^synchronized to within ±[0-9.]+ ns \\([0-9.]+ ticks\\): all 240 ordered pairs of 16 CPUs have offset bands that contain 0")
expect_findings(0)
check_dir(synchronized 5 --max-bound 10ns)
expect_text("^inconclusive: the offsets are proven only to within ±[0-9.]+ ns \\([0-9.]+ ticks\\), wider than the maximum bound of 10 ns \\(23 ticks\\); all 240 ordered pairs")
if(NOT json MATCHES "\"outcome\": \"inconclusive\"")
  list(APPEND problems "the JSON's outcome is not inconclusive")
endif()
execute_process(COMMAND ${TSCAUDIT} check --from ${DIR}/synchronized --max-bound 10ns --format openmetrics
                RESULT_VARIABLE rc OUTPUT_VARIABLE metrics ERROR_VARIABLE err)
tscaudit_expect_exit(problems "${rc}" 5 "check --max-bound 10ns --format openmetrics")
if(NOT metrics MATCHES "\ntscaudit_check_success{reason=\"inconclusive\"} 0\n"
   OR NOT metrics MATCHES "\ntscaudit_check_outcome{outcome=\"inconclusive\"} 1\n")
  list(APPEND problems "the metrics do not say inconclusive: ${metrics}")
endif()
check_dir(synchronized 0 --max-bound 100000)
# The report says the same, with the same exit code: its verdict inconclusive, exit 5.
execute_process(COMMAND ${TSCAUDIT} report --from ${DIR}/synchronized --max-bound 10ns --out ${DIR}/report
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
tscaudit_expect_exit(problems "${rc}" 5 "report --from --max-bound 10ns")
file(READ ${DIR}/report/report.md report)
if(NOT report MATCHES "
\\*\\*inconclusive: the offsets are proven only to within ±")
  list(APPEND problems "the report's verdict is not inconclusive")
endif()

file(REMOVE_RECURSE ${DIR})
if(problems)
  string(REPLACE ";" "\n  " problems "${problems}")
  message(FATAL_ERROR "check on simulated machines:\n  ${problems}")
endif()
message(STATUS "check: findings exact on 5 simulated machines, none where synchronized, inconclusive exit 5")
