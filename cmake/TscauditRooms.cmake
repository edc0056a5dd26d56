# One static library per room (docs/development.md, "Layout"): tscaudit_<room>, built from
# <root>/<room>/*.cpp as listed, with includes written relative to the root
# ("estimate/fit.hpp"). PUBLIC names what the room's headers expose, PRIVATE what only its
# sources use.
function(tscaudit_room room)
  cmake_parse_arguments(ROOM "" "" "SOURCES;PUBLIC;PRIVATE" ${ARGN})
  list(TRANSFORM ROOM_SOURCES PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/${room}/)
  add_library(tscaudit_${room} STATIC ${ROOM_SOURCES})
  target_include_directories(tscaudit_${room} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(tscaudit_${room} PUBLIC ${ROOM_PUBLIC} PRIVATE ${ROOM_PRIVATE})
  tscaudit_set_warnings(tscaudit_${room})
endfunction()
