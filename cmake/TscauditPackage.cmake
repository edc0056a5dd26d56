# What `make install` puts where Debian expects it, and the .debs that `make package` builds
# with CPack (cmake/README.md; the commands: docs/development.md, "Installing and packaging").
# The man pages, the shells' completions, the systemd units and the alert rules come from
# man/ and contrib/.
#
# Three install components, one Debian package each, as Debian splits a tool with a library:
#   tool          tscaudit             the tool, tscaudit(1), completions, units, alert rules
#   library       libtscaudit0         libtscaudit.so.0 (cmake/TscauditLibrary.cmake)
#   development   libtscaudit-dev      tscaudit.h, tscaudit.pc, libtscaudit.so and .a,
#                                      tscaudit_quick_check(3), tscaudit_state_open(3),
#                                      tscaudit_stamp(3)
# `make install` (cmake --install) installs all three, without what only the packages need
# (EXCLUDE_FROM_ALL: installed only component by component, as CPack does).
include(GNUInstallDirs)

set(TSCAUDIT_DEB_MAINTAINER "tscaudit maintainers <tscaudit@example.org>" CACHE STRING
    "Maintainer field of the .deb (give a real address when you distribute it)")
# Relative to the prefix: /usr/lib/systemd/system in the package (Debian 12 merges /lib into /usr/lib).
set(TSCAUDIT_SYSTEMD_UNIT_DIR "lib/systemd/system" CACHE STRING "Where the systemd units are installed")

# Named after the SONAME, as Debian wants (policy 8.1): libtscaudit.so.0 is libtscaudit0. The
# SONAME's number is the library's ABI's (cmake/TscauditLibrary.cmake), not the tool's version.
get_target_property(tscaudit_library_soversion tscaudit_shared SOVERSION)
set(tscaudit_library_package libtscaudit${tscaudit_library_soversion})
set(tscaudit_development_package libtscaudit-dev)

# The binary alone: the plot scripts are compiled in.
install(TARGETS tscaudit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tool)

# Debian wants manual pages and changelogs compressed with gzip -9n (no name, no time stamp:
# the same bytes on every build). Made at install time, by the component that installs them,
# so that `cmake --build --target tscaudit` stays all that `make package` builds.
set(tscaudit_package_dir ${CMAKE_CURRENT_BINARY_DIR}/package)
file(MAKE_DIRECTORY ${tscaudit_package_dir})
foreach(entry "man/tscaudit.1|tscaudit.1.gz|COMPONENT;tool"
              "man/tscaudit_quick_check.3|tscaudit_quick_check.3.gz|COMPONENT;development"
              "man/tscaudit_state_open.3|tscaudit_state_open.3.gz|COMPONENT;development"
              "man/tscaudit_stamp.3|tscaudit_stamp.3.gz|COMPONENT;development"
              "contrib/debian/changelog|changelog.gz|ALL_COMPONENTS")
  string(REPLACE "|" ";" entry "${entry}")
  list(GET entry 0 source)
  list(GET entry 1 target)
  list(SUBLIST entry 2 -1 components)
  install(CODE "file(MAKE_DIRECTORY \"${tscaudit_package_dir}\")
    execute_process(COMMAND sh -c \"gzip -9n -c '${PROJECT_SOURCE_DIR}/${source}' > '${tscaudit_package_dir}/${target}'\"
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR \"gzip of ${source} failed\")
    endif()" ${components})
endforeach()
install(FILES ${tscaudit_package_dir}/tscaudit.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tool)
install(FILES contrib/bash-completion/tscaudit DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        COMPONENT tool)
# Where Debian's zsh and fish look for the completions of packages.
install(FILES contrib/zsh-completion/_tscaudit DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions
        COMPONENT tool)
install(FILES contrib/fish-completion/tscaudit.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d
        COMPONENT tool)
# The service names the tool and tscaudit-check-failed where this install puts them: /usr/bin
# and /usr/lib/tscaudit in the package, PREFIX/bin and PREFIX/lib/tscaudit for
# `make install PREFIX=P` (the prefix as the install is run, not as it was configured).
install(CODE "file(READ \"${PROJECT_SOURCE_DIR}/contrib/systemd/tscaudit.service\" unit)
  string(REPLACE \"ExecStart=/usr/bin/\" \"ExecStart=\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/\" unit \"\${unit}\")
  string(REPLACE \"=/usr/lib/tscaudit/\" \"=\${CMAKE_INSTALL_PREFIX}/lib/tscaudit/\" unit \"\${unit}\")
  file(WRITE \"${tscaudit_package_dir}/tscaudit.service\" \"\${unit}\")" COMPONENT tool)
install(FILES ${tscaudit_package_dir}/tscaudit.service contrib/systemd/tscaudit.timer
        DESTINATION ${TSCAUDIT_SYSTEMD_UNIT_DIR} COMPONENT tool)
install(PROGRAMS contrib/systemd/tscaudit-check-failed DESTINATION lib/tscaudit COMPONENT tool)
install(FILES contrib/prometheus/tscaudit.rules.yml DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples COMPONENT tool)
# The alert rules' runbook_url names this copy.
install(FILES docs/runbook.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT tool)

# tscaudit_quick_check(3) documents the quick check and the names every caller uses,
# tscaudit_state_open(3) the published state, tscaudit_stamp(3) the stamp; the other functions'
# names lead to their page by symbolic links, which Debian prefers to .so requests (policy
# 12.1). The links are made here and installed as links.
set(tscaudit_man3_links "")
foreach(name_page tscaudit_options_init|tscaudit_quick_check tscaudit_result_init|tscaudit_quick_check
                  tscaudit_result_init_size|tscaudit_quick_check tscaudit_version|tscaudit_quick_check
                  tscaudit_version_number|tscaudit_quick_check tscaudit_error_name|tscaudit_quick_check
                  tscaudit_verdict_name|tscaudit_quick_check tscaudit_state_close|tscaudit_state_open
                  tscaudit_state_info_init|tscaudit_state_open tscaudit_state_info_init_size|tscaudit_state_open
                  tscaudit_state_get_info|tscaudit_state_open tscaudit_state_offset|tscaudit_state_open
                  tscaudit_state_order|tscaudit_state_open)
  string(REPLACE "|" ";" name_page "${name_page}")
  list(GET name_page 0 name)
  list(GET name_page 1 page)
  file(CREATE_LINK ${page}.3.gz ${tscaudit_package_dir}/${name}.3.gz SYMBOLIC)
  list(APPEND tscaudit_man3_links ${tscaudit_package_dir}/${name}.3.gz)
endforeach()
install(FILES ${tscaudit_package_dir}/tscaudit_quick_check.3.gz ${tscaudit_package_dir}/tscaudit_state_open.3.gz
              ${tscaudit_package_dir}/tscaudit_stamp.3.gz ${tscaudit_man3_links}
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man3 COMPONENT development)

# Every package has its own copyright and changelog in /usr/share/doc/PACKAGE (policy 12.5,
# 12.7); `make install` installs the tool's only.
install(FILES contrib/debian/copyright ${tscaudit_package_dir}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT tool)
foreach(component_package "library|${tscaudit_library_package}" "development|${tscaudit_development_package}")
  string(REPLACE "|" ";" component_package "${component_package}")
  list(GET component_package 0 component)
  list(GET component_package 1 package)
  install(FILES contrib/debian/copyright ${tscaudit_package_dir}/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component} EXCLUDE_FROM_ALL)
endforeach()

# The library's package activates libc-bin's ldconfig trigger (its triggers file), so that
# dpkg runs ldconfig once at the end of a run. CPack (3.25) also writes ldconfig into its
# postinst and postrm, with no switch to leave them out: redundant, not wrong, and lintian's
# warning about them is overridden in the package, with this reason.
set(tscaudit_control_dir ${tscaudit_package_dir}/${tscaudit_library_package}-control)
file(CONFIGURE OUTPUT ${tscaudit_control_dir}/triggers CONTENT "activate-noawait ldconfig\n")
file(CONFIGURE OUTPUT ${tscaudit_package_dir}/${tscaudit_library_package}.lintian-overrides
     CONTENT "# CPack writes ldconfig into postinst and postrm and cannot be told not to; the package
# also activates the ldconfig trigger, which is what Debian asks for.
${tscaudit_library_package}: maintscript-calls-ldconfig [postinst]
${tscaudit_library_package}: maintscript-calls-ldconfig [postrm]
")
install(FILES ${tscaudit_package_dir}/${tscaudit_library_package}.lintian-overrides
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/lintian/overrides RENAME ${tscaudit_library_package}
        COMPONENT library EXCLUDE_FROM_ALL)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tscaudit)
set(CPACK_PACKAGE_VENDOR "tscaudit maintainers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tool library development)
# tscaudit_VERSION_ARCH.deb, libtscaudit0_VERSION_ARCH.deb, libtscaudit-dev_VERSION_ARCH.deb
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SOURCE ${PROJECT_NAME})  # the three come from one source, one changelog
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${TSCAUDIT_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # Depends: from dpkg-shlibdeps (libhwloc15, libzstd1, libstdc++6, ...)
set(CPACK_DEBIAN_PACKAGE_GENERATE_MD5SUMS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# A shlibs file in the library's package, so that dpkg-shlibdeps gives a program linked with
# libtscaudit.so.0 its Depends. ">=": a later 0.x keeps every symbol (the ABI only grows).
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# libtscaudit-dev: Depends libtscaudit0 (= VERSION), its libtscaudit.so pointing into it.
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_COMPONENT_DEVELOPMENT_DEPENDS library)

set(CPACK_DEBIAN_TOOL_PACKAGE_NAME ${PROJECT_NAME})
set(CPACK_DEBIAN_TOOL_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_TOOL_PACKAGE_RECOMMENDS "gnuplot-nox")
set(CPACK_DEBIAN_TOOL_PACKAGE_SUGGESTS "prometheus-node-exporter")
set(CPACK_DEBIAN_LIBRARY_PACKAGE_NAME ${tscaudit_library_package})
set(CPACK_DEBIAN_LIBRARY_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIBRARY_PACKAGE_CONTROL_EXTRA ${tscaudit_control_dir}/triggers)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME ${tscaudit_development_package})
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)

# The descriptions: the first line is the synopsis, the rest the extended description; CPack
# indents each line by one space and writes an empty line as " ." (Debian policy §5.6.13).
# Lines under 80 columns. CPACK_PACKAGE_DESCRIPTION_SUMMARY stays unset: CPack would put it
# before every package's description, and each package has its own.
set(CPACK_DEBIAN_TOOL_DESCRIPTION
    "checks that the time stamp counters of all CPUs agree
Two pinned threads play ping-pong through one cache line, each stamping
every message with its own CPU's time stamp counter (TSC). From those stamps
the tool bounds the offset between every pair of CPUs with a hard band that
assumes only causality, finds drift, tells a negative latency caused by an
offset from one caused by a read that ran early, and draws matrices and
heatmaps.

A systemd timer runs the check every hour and leaves its verdict and figures
in the textfile directory of prometheus-node-exporter; alert rules for
Prometheus are in the examples.")
set(tscaudit_library_description
    "libtscaudit answers, from inside a program and within milliseconds, whether
the time stamp counters (TSC) of the CPUs the program may use agree, and
within how many nanoseconds: threads of its own, pinned in pairs, exchange
counter readings through one cache line, and a hard band that assumes only
causality bounds each pair's offset. A program learns whether it may compare
counter readings taken on different CPUs, or should use clock_gettime.")
set(CPACK_DEBIAN_LIBRARY_DESCRIPTION
    "quick check that the time stamp counters of all CPUs agree
${tscaudit_library_description}

This package contains the shared library.")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION
    "quick check that the time stamp counters of all CPUs agree (development)
${tscaudit_library_description}

This package contains the header, the pkg-config file, the static library
and the manual page tscaudit_quick_check(3).")
include(CPack)
