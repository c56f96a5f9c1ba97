# CMake toolchain for 64-bit Windows with Debian's mingw-w64 (gcc-mingw-w64-x86-64).
#   cmake -S . -B build-windows/cmake -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake
# The libraries come from the prefix that scripts/build-windows-deps builds from Debian's
# source packages (EARSHOT_WINDOWS_PREFIX, build-windows/deps/prefix by default); pkg-config
# looks only there, never at the build machine's own .pc files. Tests run through Wine
# (CMAKE_CROSSCOMPILING_EMULATOR), so `ctest` in a cross build runs them under wine64.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(EAR_MINGW x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${EAR_MINGW}-gcc)
set(CMAKE_CXX_COMPILER ${EAR_MINGW}-g++)
set(CMAKE_RC_COMPILER ${EAR_MINGW}-windres)
set(CMAKE_AR ${EAR_MINGW}-gcc-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${EAR_MINGW}-gcc-ranlib CACHE FILEPATH "")

if(NOT EARSHOT_WINDOWS_PREFIX)
  if(DEFINED ENV{EARSHOT_WINDOWS_PREFIX})
    set(EARSHOT_WINDOWS_PREFIX $ENV{EARSHOT_WINDOWS_PREFIX})
  else()
    get_filename_component(EARSHOT_WINDOWS_PREFIX
                           "${CMAKE_CURRENT_LIST_DIR}/../build-windows/deps/prefix" ABSOLUTE)
  endif()
endif()
set(EARSHOT_WINDOWS_PREFIX "${EARSHOT_WINDOWS_PREFIX}" CACHE PATH
    "The prefix of the Windows libraries (scripts/build-windows-deps)")
# try_compile projects see the same prefix.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EARSHOT_WINDOWS_PREFIX)

set(CMAKE_FIND_ROOT_PATH /usr/${EAR_MINGW} "${EARSHOT_WINDOWS_PREFIX}")
set(CMAKE_PREFIX_PATH "${EARSHOT_WINDOWS_PREFIX}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(ENV{PKG_CONFIG_LIBDIR} "${EARSHOT_WINDOWS_PREFIX}/lib/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")

# Tests and build-time tools (the demo's make_sounds) run under wine64 through
# scripts/wine-run (the Wine prefix under build-windows/, the DLLs of the prefix found).
set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/../scripts/wine-run")
