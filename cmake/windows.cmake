# The Windows build's settings (mingw-w64; the toolchain is cmake/mingw-w64-x86_64.cmake,
# docs/windows.md says what runs there). Included by the top CMakeLists.txt when WIN32.
#
# - Every file is compiled with src/core/posix_win.h included first: the POSIX names the
#   modules use, mapped to Windows (platform_win.c in earshot_core implements them).
# - Programs link statically what is not a DLL of ours (-static: libgcc, winpthreads), so
#   the DLLs beside a program are SDL2, libsndfile and libmysofa only; the imported
#   libraries found by path (those DLLs' import libraries) are unaffected by -static.
# - binmode.o: the CRT opens files in binary mode (no \n -> \r\n), as on POSIX.
# - mingw-w64's C99 printf family (__USE_MINGW_ANSI_STDIO: %zu, %lld, the same digits as
#   glibc), not msvcrt's. GCC checks format(printf) attributes against msvcrt's rules on
#   this target, so format warnings are off here: the Linux build checks the same formats.
add_compile_options("SHELL:-include ${PROJECT_SOURCE_DIR}/src/core/posix_win.h"
                    -D__USE_MINGW_ANSI_STDIO=1 -D_POSIX_THREAD_SAFE_FUNCTIONS=200112L
                    -D_FILE_OFFSET_BITS=64)
# GCC at -O2 without LTO (make windows) sees a maybe-uninitialized in level.c that the
# Linux builds (-O0 tests, -O3 LTO Release) do not: not an error there.
list(APPEND EAR_WARNINGS -Wno-format -Wno-maybe-uninitialized)
# poll.h and dlfcn.h, which mingw-w64 lacks (src/core/win/).
include_directories(BEFORE SYSTEM ${PROJECT_SOURCE_DIR}/src/core/win)
add_link_options(-static)
# clock_gettime and nanosleep are winpthreads', for every program (not only threaded ones).
link_libraries(pthread)
find_file(EAR_BINMODE_O binmode.o PATHS /usr/x86_64-w64-mingw32/lib REQUIRED
          NO_CMAKE_FIND_ROOT_PATH)
set(CMAKE_C_STANDARD_LIBRARIES "${EAR_BINMODE_O} ${CMAKE_C_STANDARD_LIBRARIES}")
