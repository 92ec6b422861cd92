# diamond_add_qtest(<name> [SOURCES <extra sources>] LIBS <libs...> LABELS <unit|integration|gui|bench>
#                   [TIMEOUT <seconds>] [ENVIRONMENT <VAR=value...>])
#
# One QtTest executable per tested class: <name>.cpp in the current directory plus SOURCES.
# Labels: unit (fast, no processes), integration (real sshd/Slurm/engine processes),
# gui (widgets, offscreen), bench (never part of the default run).
function(diamond_add_qtest name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS;ENVIRONMENT" ${ARGN})
  if(NOT ARG_LABELS)
    message(FATAL_ERROR "diamond_add_qtest(${name}): LABELS is required")
  endif()
  add_executable(${name} ${name}.cpp ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE Qt6::Test ${ARG_LIBS})
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  diamond_qt_strict(${name})
  target_compile_definitions(${name} PRIVATE
    DIAMOND_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
    DIAMOND_BINARY_DIR="${CMAKE_BINARY_DIR}")
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  add_test(NAME ${name} COMMAND ${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  set(env QT_QPA_PLATFORM=offscreen "DIAMOND_BIN_DIR=${CMAKE_BINARY_DIR}/bin" ${ARG_ENVIRONMENT})
  set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT}
                       ENVIRONMENT "${env}")
endfunction()
