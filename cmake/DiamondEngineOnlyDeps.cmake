# Dependencies of engine-only builds (DIAMOND_ENGINE_ONLY=ON): diamond-train alone, also on machines that have a
# compiler, CMake and a PyTorch installation but not the development packages the full build needs (a GPU machine
# without apt). What is missing there falls back to:
#  - nlohmann-json, stb_image.h, zlib.h/zconf.h: copies in DIAMOND_THIRD_PARTY_INCLUDE (made by
#    tools/gpu_check/prepare.sh: DIR/nlohmann/, DIR/stb/stb_image.h, DIR/zlib/), zlib itself linked from the
#    runtime library libz.so.1;
#  - HDF5: left out (the hdf5 data source then says the engine was built without HDF5).
# The full build (DIAMOND_ENGINE_ONLY=OFF) never includes this file: it requires every package as before.

set(DIAMOND_THIRD_PARTY_INCLUDE "" CACHE PATH
    "Engine-only builds: folder with header-only dependencies used when the packages are not found (nlohmann/, stb/, zlib/)")
option(DIAMOND_WITH_HDF5 "Engine-only builds: read HDF5 data when libhdf5's development files are found" ON)

# nlohmann-json 3.11: the package's CMake config, else DIAMOND_THIRD_PARTY_INCLUDE/nlohmann/json.hpp.
function(diamond_find_nlohmann_json)
  find_package(nlohmann_json 3.11 QUIET)
  if(nlohmann_json_FOUND)
    return()
  endif()
  set(dir "${DIAMOND_THIRD_PARTY_INCLUDE}")
  if(NOT dir OR NOT EXISTS "${dir}/nlohmann/json.hpp")
    message(FATAL_ERROR "nlohmann-json 3.11 was not found: install it (Debian: nlohmann-json3-dev) or pass "
                        "-DDIAMOND_THIRD_PARTY_INCLUDE=<folder holding nlohmann/json.hpp> (tools/gpu_check/prepare.sh "
                        "makes one).")
  endif()
  set(major 0)
  set(minor 0)
  foreach(header "${dir}/nlohmann/detail/abi_macros.hpp" "${dir}/nlohmann/json.hpp")
    if(EXISTS "${header}")
      file(STRINGS "${header}" lines REGEX "#define NLOHMANN_JSON_VERSION_(MAJOR|MINOR) +[0-9]+")
      foreach(line IN LISTS lines)
        if(line MATCHES "MAJOR +([0-9]+)")
          set(major ${CMAKE_MATCH_1})
        elseif(line MATCHES "MINOR +([0-9]+)")
          set(minor ${CMAKE_MATCH_1})
        endif()
      endforeach()
    endif()
  endforeach()
  if("${major}.${minor}" VERSION_LESS 3.11)
    message(FATAL_ERROR "${dir}/nlohmann is nlohmann-json ${major}.${minor}; Diamond needs 3.11 or newer.")
  endif()
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${dir}")
  message(STATUS "nlohmann-json ${major}.${minor}: the copy in ${dir}")
endfunction()

# libtorch's libstdc++ ABI (-D_GLIBCXX_USE_CXX11_ABI=0 in PyTorch wheels before 2.7) for every target of the build:
# diamond_spec and diamond_run_config pass std::string to the engine, so they must be compiled with it too.
function(diamond_use_torch_abi)
  separate_arguments(flags UNIX_COMMAND "${TORCH_CXX_FLAGS}")
  foreach(flag IN LISTS flags)
    if(flag MATCHES "^-D_GLIBCXX_USE_CXX11_ABI=")
      add_compile_options(${flag})
      message(STATUS "libtorch's ABI for every target: ${flag}")
    endif()
  endforeach()
endfunction()

# For engine/train. Sets DIAMOND_ENGINE_HDF5 (ON/OFF), DIAMOND_ENGINE_PRIVATE_DEPS (link libraries) and
# DIAMOND_STB_INCLUDE_DIR (the folder holding stb_image.h).
macro(diamond_engine_only_dependencies)
  set(DIAMOND_ENGINE_HDF5 OFF)
  set(DIAMOND_ENGINE_PRIVATE_DEPS)
  if(DIAMOND_WITH_HDF5)
    find_package(PkgConfig QUIET)
    if(PKG_CONFIG_FOUND)
      pkg_check_modules(HDF5 QUIET IMPORTED_TARGET hdf5)
      if(HDF5_FOUND AND TARGET PkgConfig::HDF5)
        set(DIAMOND_ENGINE_HDF5 ON)
        list(APPEND DIAMOND_ENGINE_PRIVATE_DEPS PkgConfig::HDF5)
      endif()
    endif()
    if(NOT DIAMOND_ENGINE_HDF5)
      message(WARNING "HDF5 (pkg-config hdf5) not found: this diamond-train is built without the hdf5 data source")
    endif()
  else()
    message(STATUS "DIAMOND_WITH_HDF5=OFF: diamond-train without the hdf5 data source")
  endif()

  find_package(ZLIB QUIET)
  if(NOT ZLIB_FOUND AND NOT TARGET ZLIB::ZLIB)
    find_library(DIAMOND_ZLIB_LIBRARY NAMES z libz.so.1)
    find_path(DIAMOND_ZLIB_INCLUDE_DIR zlib.h PATHS "${DIAMOND_THIRD_PARTY_INCLUDE}/zlib")
    if(NOT DIAMOND_ZLIB_LIBRARY OR NOT DIAMOND_ZLIB_INCLUDE_DIR)
      message(FATAL_ERROR "zlib was not found (library: ${DIAMOND_ZLIB_LIBRARY}, zlib.h: ${DIAMOND_ZLIB_INCLUDE_DIR}): "
                          "install its development files or pass -DDIAMOND_THIRD_PARTY_INCLUDE=<folder with zlib/zlib.h>.")
    endif()
    add_library(ZLIB::ZLIB UNKNOWN IMPORTED)
    set_target_properties(ZLIB::ZLIB PROPERTIES IMPORTED_LOCATION "${DIAMOND_ZLIB_LIBRARY}"
                                                INTERFACE_INCLUDE_DIRECTORIES "${DIAMOND_ZLIB_INCLUDE_DIR}")
    message(STATUS "zlib: ${DIAMOND_ZLIB_LIBRARY} with the headers in ${DIAMOND_ZLIB_INCLUDE_DIR}")
  endif()
  list(APPEND DIAMOND_ENGINE_PRIVATE_DEPS ZLIB::ZLIB)

  find_path(DIAMOND_STB_INCLUDE_DIR stb_image.h PATHS /usr/include/stb "${DIAMOND_THIRD_PARTY_INCLUDE}/stb"
            NO_DEFAULT_PATH)
  if(NOT DIAMOND_STB_INCLUDE_DIR)
    message(FATAL_ERROR "stb_image.h was not found in /usr/include/stb (Debian: libstb-dev) nor in "
                        "DIAMOND_THIRD_PARTY_INCLUDE/stb (tools/gpu_check/prepare.sh).")
  endif()
endmacro()
