# libtscaudit (docs/library.md): the C entry points (src/quick/c_api.cpp: the quick check;
# src/quick/state_api.cpp: the published state) over
# the rooms, as
#   libtscaudit.so.0   SONAME libtscaudit.so.0 (the file libtscaudit.so.<ABI version>, below);
#                      exports tscaudit_* only (libtscaudit.map);
#                      needs nothing beyond libc, libm and the C++ runtime (--as-needed drops
#                      hwloc and zstd, which the quick check never calls)
#   libtscaudit.a      one relocatable object, every symbol but tscaudit_* made local, so that
#                      a program linked with it meets none of the rooms' names
#   tscaudit.pc        relocatable (prefix from ${pcfiledir})
# both in ${CMAKE_BINARY_DIR}/lib. The tool links the same objects (check --quick).
# Installed as two components, which the .debs follow (cmake/TscauditPackage.cmake):
#   library       libtscaudit.so.0 and the file it names: what programs need to run
#   development   tscaudit.h, tscaudit.pc, libtscaudit.so, libtscaudit.a: what builds them

# The libraries' directory. On Debian and its derivatives it is the multiarch one,
# lib/<triplet>, under every prefix: the package (prefix /usr) must have its libraries and
# tscaudit.pc there (for pkg-config when cross-compiling, and for Multi-Arch), and the
# loader and pkg-config search /usr/local/lib/<triplet> too, so `make install` works alike.
# GNUInstallDirs chooses it for the prefix /usr only, and from the prefix the tree was
# configured with, which `make package` does not use. -DCMAKE_INSTALL_LIBDIR= still decides;
# in a tree configured before this rule, "lib" is taken for GNUInstallDirs's choice and moved
# once (-DCMAKE_INSTALL_LIBDIR=lib again keeps it). When the prefix changes from /usr,
# GNUInstallDirs takes lib/<triplet> for its own default for /usr and resets it: it is put back.
set(tscaudit_multiarch_libdir "")
if(CMAKE_LIBRARY_ARCHITECTURE AND EXISTS /etc/debian_version)
  set(tscaudit_multiarch_libdir lib/${CMAKE_LIBRARY_ARCHITECTURE})
endif()
if(tscaudit_multiarch_libdir AND NOT TSCAUDIT_LIBDIR_CHOSEN)
  if(NOT DEFINED CMAKE_INSTALL_LIBDIR OR (CMAKE_INSTALL_LIBDIR STREQUAL "lib" AND
                                          DEFINED _GNUInstallDirs_LAST_CMAKE_INSTALL_PREFIX))
    set(CMAKE_INSTALL_LIBDIR ${tscaudit_multiarch_libdir} CACHE PATH "Object code libraries" FORCE)
  endif()
  set(TSCAUDIT_LIBDIR_CHOSEN ON CACHE INTERNAL "CMAKE_INSTALL_LIBDIR has had its Debian default")
endif()
set(tscaudit_libdir_before "${CMAKE_INSTALL_LIBDIR}")
include(GNUInstallDirs)
if(tscaudit_multiarch_libdir AND tscaudit_libdir_before STREQUAL tscaudit_multiarch_libdir AND
   NOT CMAKE_INSTALL_LIBDIR STREQUAL tscaudit_multiarch_libdir)
  set(CMAKE_INSTALL_LIBDIR ${tscaudit_multiarch_libdir} CACHE PATH "Object code libraries" FORCE)
  include(GNUInstallDirs)  # again, for CMAKE_INSTALL_FULL_LIBDIR
endif()
set(TSCAUDIT_LIB_DIR ${CMAKE_BINARY_DIR}/lib)

add_library(tscaudit_library_objects OBJECT quick/c_api.cpp quick/state_api.cpp)
target_include_directories(tscaudit_library_objects PUBLIC ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(tscaudit_library_objects PUBLIC tscaudit_quick PRIVATE tscaudit_version)
tscaudit_set_warnings(tscaudit_library_objects)
# The entry points with full debug information wherever the build has any (-g1 keeps line
# tables only): abidw reads the ABI's types, the structs of tscaudit.h, from their DWARF, and
# the test "lib: abi" compares them with src/quick/libtscaudit.abi.
target_compile_options(tscaudit_library_objects PRIVATE $<$<CONFIG:Debug,RelWithDebInfo>:-g>)

# The library's own version, its ABI's, not the tool's (docs/library.md, "Versions"): the
# file is libtscaudit.so.MAJOR.MINOR.PATCH, the SONAME libtscaudit.so.MAJOR.
#   MAJOR  only when a program built against the library could fail with the new one: a
#          function or field removed or changed, a meaning changed. Never while the ABI only
#          grows. The Debian package's name follows it (libtscaudit0).
#   MINOR  when a release adds to the ABI (a function; a field at the end of a struct).
#   PATCH  when a release changes the library without changing its ABI.
# The test "lib: abi" tells an addition from a change; the packages and tests/lib read the
# version from this target's properties.
set(TSCAUDIT_ABI_VERSION 0.2.0)
string(REGEX MATCH "^[0-9]+" tscaudit_abi_major ${TSCAUDIT_ABI_VERSION})
add_library(tscaudit_shared SHARED $<TARGET_OBJECTS:tscaudit_library_objects>)
target_link_libraries(tscaudit_shared PRIVATE tscaudit_quick)
target_link_options(tscaudit_shared PRIVATE
  LINKER:--version-script=${CMAKE_CURRENT_SOURCE_DIR}/quick/libtscaudit.map
  LINKER:--as-needed LINKER:--no-undefined LINKER:--gc-sections)
set_target_properties(tscaudit_shared PROPERTIES
  OUTPUT_NAME tscaudit VERSION ${TSCAUDIT_ABI_VERSION}
  SOVERSION ${tscaudit_abi_major}
  LIBRARY_OUTPUT_DIRECTORY ${TSCAUDIT_LIB_DIR}
  LINK_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/quick/libtscaudit.map)
tscaudit_set_warnings(tscaudit_shared)

# The static library: the entry points' objects and every member of the rooms they reach,
# linked into one object (ld -r pulls archive members as a final link would), then
# everything but tscaudit_* localized.
set(tscaudit_rooms tscaudit_quick tscaudit_measure tscaudit_platform tscaudit_render tscaudit_matrix
    tscaudit_monitor tscaudit_variants tscaudit_pair tscaudit_simulate tscaudit_io tscaudit_formats
    tscaudit_estimate tscaudit_order tscaudit_core)
set(tscaudit_room_files "")
foreach(room IN LISTS tscaudit_rooms)
  list(APPEND tscaudit_room_files $<TARGET_FILE:${room}>)
endforeach()
set(tscaudit_static_object ${CMAKE_CURRENT_BINARY_DIR}/libtscaudit_static.o)
set(tscaudit_static_archive ${TSCAUDIT_LIB_DIR}/libtscaudit.a)
add_custom_command(
  OUTPUT ${tscaudit_static_archive}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${TSCAUDIT_LIB_DIR}
  COMMAND ${CMAKE_CXX_COMPILER} -nostdlib -r -o ${tscaudit_static_object}
          $<TARGET_OBJECTS:tscaudit_library_objects> -Wl,--start-group ${tscaudit_room_files} -Wl,--end-group
  COMMAND ${CMAKE_OBJCOPY} --wildcard --keep-global-symbol=tscaudit_* ${tscaudit_static_object}
  COMMAND ${CMAKE_COMMAND} -E rm -f ${tscaudit_static_archive}
  COMMAND ${CMAKE_AR} qc ${tscaudit_static_archive} ${tscaudit_static_object}
  COMMAND ${CMAKE_RANLIB} ${tscaudit_static_archive}
  DEPENDS tscaudit_library_objects ${tscaudit_rooms} $<TARGET_OBJECTS:tscaudit_library_objects>
  COMMAND_EXPAND_LISTS
  COMMENT "libtscaudit.a: one object, tscaudit_* its only global symbols"
  VERBATIM)
add_custom_target(tscaudit_static ALL DEPENDS ${tscaudit_static_archive})

# The .pc's way from its own directory up to the prefix.
file(RELATIVE_PATH TSCAUDIT_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(quick/tscaudit.pc.in ${TSCAUDIT_LIB_DIR}/pkgconfig/tscaudit.pc @ONLY)

# libtscaudit.so (the name the linker looks for) belongs with the header, not with the
# library programs run with: two versions of libtscaudit.so.N can be installed side by side.
install(TARGETS tscaudit_shared LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        COMPONENT library NAMELINK_COMPONENT development)
install(FILES ${tscaudit_static_archive} DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
# A stripping install (`cmake --install --strip`, and CPack's, CPACK_STRIP_FILES) strips what
# install(TARGETS) installs, never an archive: its debug sections (most of its bytes) and the
# compiler's .comment go here, as Debian's dh_strip does. Its symbol table stays, which the
# linker needs.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(tscaudit_installed_archive "\$ENV{DESTDIR}${CMAKE_INSTALL_LIBDIR}/libtscaudit.a")
else()
  set(tscaudit_installed_archive "\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/libtscaudit.a")
endif()
install(CODE "if(CMAKE_INSTALL_DO_STRIP)
    execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug --remove-section=.comment
                            --enable-deterministic-archives
                            \"${tscaudit_installed_archive}\" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR \"strip --strip-debug of libtscaudit.a failed\")
    endif()
  endif()" COMPONENT development)
install(FILES ${TSCAUDIT_LIB_DIR}/pkgconfig/tscaudit.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT development)
install(FILES ${PROJECT_SOURCE_DIR}/include/tscaudit.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT development)
