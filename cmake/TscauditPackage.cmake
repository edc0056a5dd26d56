# What `make install` puts where Debian expects it, and the .deb that `make package` builds
# with CPack (docs/development.md, "Installing and packaging"). The man page, the bash
# completion, the systemd units and the alert rules come from man/ and contrib/.
include(GNUInstallDirs)

set(TSCAUDIT_DEB_MAINTAINER "tscaudit maintainers <tscaudit@example.org>" CACHE STRING
    "Maintainer field of the .deb (give a real address when you distribute it)")
# Relative to the prefix: /usr/lib/systemd/system in the package (Debian 12 merges /lib into /usr/lib).
set(TSCAUDIT_SYSTEMD_UNIT_DIR "lib/systemd/system" CACHE STRING "Where the systemd units are installed")

install(TARGETS tscaudit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Debian wants manual pages and changelogs compressed with gzip -9n (no name, no time stamp:
# the same bytes on every build). Made at install time, so that `cmake --build --target
# tscaudit` stays all that `make package` builds.
set(tscaudit_gz_dir ${CMAKE_CURRENT_BINARY_DIR}/package)
foreach(pair "man/tscaudit.1|tscaudit.1.gz" "contrib/debian/changelog|changelog.gz")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 source)
  list(GET pair 1 target)
  install(CODE "file(MAKE_DIRECTORY \"${tscaudit_gz_dir}\")
    execute_process(COMMAND sh -c \"gzip -9n -c '${PROJECT_SOURCE_DIR}/${source}' > '${tscaudit_gz_dir}/${target}'\"
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR \"gzip of ${source} failed\")
    endif()")
endforeach()
install(FILES ${tscaudit_gz_dir}/tscaudit.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES contrib/bash-completion/tscaudit DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES contrib/systemd/tscaudit.service contrib/systemd/tscaudit.timer DESTINATION ${TSCAUDIT_SYSTEMD_UNIT_DIR})
install(PROGRAMS contrib/systemd/tscaudit-check-failed DESTINATION lib/tscaudit)
install(FILES contrib/prometheus/tscaudit.rules.yml DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
install(FILES contrib/debian/copyright ${tscaudit_gz_dir}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tscaudit)
set(CPACK_PACKAGE_VENDOR "tscaudit maintainers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # tscaudit_VERSION_ARCH.deb (tscaudit_0.2.0_amd64.deb)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${TSCAUDIT_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # Depends: from dpkg-shlibdeps (libhwloc15, libzstd1, libstdc++6, ...)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnuplot-nox")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "prometheus-node-exporter")
set(CPACK_DEBIAN_PACKAGE_GENERATE_MD5SUMS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "checks that the time stamp counters of all CPUs agree")
# The extended description; CPack puts the summary before it, indents each line by one
# space and writes an empty line as " ." (Debian policy §5.6.13). Lines under 80 columns.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Two pinned threads play ping-pong through one cache line, each stamping
every message with its own CPU's time stamp counter (TSC). From those stamps
the tool bounds the offset between every pair of CPUs with a hard band that
assumes only causality, finds drift, tells a negative latency caused by an
offset from one caused by a read that ran early, and draws matrices and
heatmaps.

A systemd timer runs the check every hour and leaves its verdict and figures
in the textfile directory of prometheus-node-exporter; alert rules for
Prometheus are in the examples.")
include(CPack)
