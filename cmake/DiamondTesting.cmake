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

# diamond_add_engine_test(<name> LABELS <labels...> [TIMEOUT <seconds>])
#
# A QtTest executable that links diamond_engine (libtorch). It lives in engine/train/tests,
# the only place besides engine/train where torch headers may be included, and reuses the
# engine's precompiled torch header: it is compiled with -fPIC like the library (a PCH is only
# valid for the same code model) and linked as a normal PIE executable.
function(diamond_add_engine_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "LABELS;ENVIRONMENT" ${ARGN})
  add_executable(${name} ${name}.cpp)
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE OFF AUTOMOC ON
                        RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  target_compile_options(${name} PRIVATE -fPIC)
  target_precompile_headers(${name} REUSE_FROM diamond_engine)
  target_link_libraries(${name} PRIVATE diamond_engine Qt6::Test)
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  diamond_qt_strict(${name})
  target_compile_definitions(${name} PRIVATE
    DIAMOND_SOURCE_DIR="${CMAKE_SOURCE_DIR}"
    DIAMOND_BINARY_DIR="${CMAKE_BINARY_DIR}")
  add_test(NAME ${name} COMMAND ${name})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT}
                       ENVIRONMENT "DIAMOND_BIN_DIR=${CMAKE_BINARY_DIR}/bin;OMP_NUM_THREADS=1;${ARG_ENVIRONMENT}")
endfunction()

# diamond_add_qtests_in_directory(LIBS <libs...> LABEL <label> [DEPENDS <targets...>])
#
# Every tst_*.cpp in the current directory becomes one diamond_add_qtest(); files named
# tst_it_*.cpp are labelled integration, the others get LABEL. Targets in DEPENDS that exist
# (e.g. diamond-train, diamondctl) are built before the tests.
function(diamond_add_qtests_in_directory)
  cmake_parse_arguments(ARG "" "LABEL;TIMEOUT" "LIBS;DEPENDS" ${ARGN})
  file(GLOB test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tst_*.cpp)
  foreach(src ${test_sources})
    get_filename_component(name ${src} NAME_WE)
    set(label ${ARG_LABEL})
    if(name MATCHES "^tst_it_")
      set(label integration)
    endif()
    set(timeout_args "")
    if(ARG_TIMEOUT)
      set(timeout_args TIMEOUT ${ARG_TIMEOUT})
    endif()
    diamond_add_qtest(${name} LIBS ${ARG_LIBS} LABELS ${label} ${timeout_args})
    foreach(dep ${ARG_DEPENDS})
      if(TARGET ${dep})
        add_dependencies(${name} ${dep})
      endif()
    endforeach()
  endforeach()
endfunction()
