# Installing Earshot as a C programmer expects (`make install PREFIX=...`, `cmake --install`):
#
#   include/earshot/*.h                      the public headers
#   lib/libearshot-audio.{so,a}              core and the audio modules (the stage alone)
#   lib/libearshot.{so,a}                    the engine on top (needs libearshot-audio)
#   bin/earshot                              the command tool
#   lib/pkgconfig/earshot-audio.pc, earshot.pc
#   lib/cmake/Earshot/                       find_package(Earshot): Earshot::audio, Earshot::earshot
#
# Both libraries are made from the objects of the module targets (every module stays its own
# static library inside the build, as scripts/check-architecture sees them), so nothing is
# compiled twice; that is why the whole build is position-independent. The shared libraries
# export only public `ear_` names (cmake/earshot.map); `ear__` internals stay inside.
#
# A module joins a library by being listed below (its target is earshot_<part>; parts whose
# target does not exist yet are skipped). Its external dependencies are found from its own
# target_link_libraries: PkgConfig::X targets become pkg-config Requires.private (Requires
# when the module links X PUBLIC, as commands does jansson, whose header it includes),
# Threads becomes -pthread, and a library found by path (libm, libbrlapi) its -l name.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

find_package(Threads REQUIRED)

set(EAR_AUDIO_PARTS core fft stage synth analysis io assets device hrtf)
set(EAR_ENGINE_PARTS lang storage speech runtime commands physics level world ui)
# The portable math's, the name index's (with the growing array) and the JSON words' `ear__`
# functions are internal to each shared library (the map exports `ear_` names only), and
# both use them (the stage and synth; physics and level; the assets; the commands): each
# library has its own copy of the small object.
list(APPEND EAR_AUDIO_PARTS math name_index json)
list(APPEND EAR_ENGINE_PARTS math name_index json)

# ear_collect_deps(<parts> <out prefix>): the external dependencies of the parts' targets.
# Sets <out>_TARGETS (all external link items, for linking the shared library), <out>_REQ
# and <out>_REQ_PUBLIC (pkg-config module names), <out>_LIBS (-lm, -pthread) and
# <out>_PUBLIC (the PkgConfig:: targets linked PUBLIC).
function(ear_collect_deps parts out)
  set(targets)
  set(req)
  set(req_public)
  set(libs)
  set(public)
  set(objects)
  set(existing)
  foreach(part IN LISTS parts)
    if(NOT TARGET earshot_${part})
      continue()
    endif()
    list(APPEND existing earshot_${part})
    list(APPEND objects $<TARGET_OBJECTS:earshot_${part}>)
    get_target_property(all earshot_${part} LINK_LIBRARIES)
    get_target_property(iface earshot_${part} INTERFACE_LINK_LIBRARIES)
    if(NOT all)
      set(all) # a part that links nothing (the name index)
    endif()
    foreach(item IN LISTS all)
      if(item MATCHES "^earshot_")
        continue()
      endif()
      list(APPEND targets ${item})
      if(item MATCHES "^PkgConfig::(.+)$")
        set(module ${${CMAKE_MATCH_1}_MODULE_NAME})
        if(NOT module)
          message(FATAL_ERROR "install: no pkg-config module name for ${item}")
        endif()
        # Imported targets are seen only in the folder that made them; make it here too
        # (pkg_check_modules answers from the cache).
        if(NOT TARGET ${item})
          pkg_check_modules(${CMAKE_MATCH_1} QUIET REQUIRED IMPORTED_TARGET ${module})
        endif()
        if(item IN_LIST iface)
          list(APPEND req_public ${module})
          list(APPEND public ${item})
        else()
          list(APPEND req ${module})
        endif()
      elseif(item STREQUAL "Threads::Threads")
        list(APPEND libs -pthread)
      elseif(item MATCHES "^/.*/lib([^/]+)\\.(so|a)(\\.[0-9.]+)?$")
        # A library found by find_library (libm, libbrlapi): its -l name.
        list(APPEND libs -l${CMAKE_MATCH_1})
      elseif(WIN32 AND item MATCHES "^(ole32|uuid|pthread)$")
        # SAPI's COM libraries and winpthreads, on Windows (docs/windows.md).
        list(APPEND libs -l${item})
      else()
        message(FATAL_ERROR "install: earshot_${part} links ${item}; say how it is installed")
      endif()
    endforeach()
  endforeach()
  foreach(v targets req req_public libs public)
    list(REMOVE_DUPLICATES ${v})
  endforeach()
  list(REMOVE_ITEM req ${req_public})
  set(${out}_TARGETS ${targets} PARENT_SCOPE)
  set(${out}_REQ ${req} PARENT_SCOPE)
  set(${out}_REQ_PUBLIC ${req_public} PARENT_SCOPE)
  set(${out}_LIBS ${libs} PARENT_SCOPE)
  set(${out}_PUBLIC ${public} PARENT_SCOPE)
  set(${out}_OBJECTS ${objects} PARENT_SCOPE)
  set(${out}_PARTS ${existing} PARENT_SCOPE)
endfunction()

ear_collect_deps("${EAR_AUDIO_PARTS}" EAR_AUDIO)
ear_collect_deps("${EAR_ENGINE_PARTS}" EAR_ENGINE)

set(EAR_MAP ${PROJECT_SOURCE_DIR}/cmake/earshot.map)

# ear_add_installed_library(<name> <output name> <export name> <prefix>)
function(ear_add_installed_library name output export prefix)
  add_library(${name}_shared SHARED ${${prefix}_OBJECTS})
  add_library(${name}_static STATIC ${${prefix}_OBJECTS})
  set_target_properties(${name}_shared PROPERTIES OUTPUT_NAME ${output} EXPORT_NAME ${export}
                        VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
                        LINK_DEPENDS ${EAR_MAP} INSTALL_RPATH "$ORIGIN")
  set_target_properties(${name}_static PROPERTIES OUTPUT_NAME ${output})
  target_link_options(${name}_shared PRIVATE -Wl,--version-script=${EAR_MAP})
  # Every symbol resolved at link time (sanitizer builds leave their runtime's to the program).
  if(NOT EARSHOT_SANITIZE AND NOT EARSHOT_TSAN AND NOT EARSHOT_FUZZ)
    target_link_options(${name}_shared PRIVATE -Wl,--no-undefined)
  endif()
  target_link_libraries(${name}_shared PRIVATE ${${prefix}_TARGETS})
  target_include_directories(${name}_shared INTERFACE
                             $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                             $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # A public dependency (its header is in ours) is found again by EarshotConfig.cmake
  # under an Earshot_ prefix, so that the user's own PkgConfig:: targets are left alone.
  foreach(dep IN LISTS ${prefix}_PUBLIC)
    string(REPLACE "PkgConfig::" "PkgConfig::Earshot_" installed ${dep})
    target_link_libraries(${name}_shared INTERFACE $<BUILD_INTERFACE:${dep}>
                          $<INSTALL_INTERFACE:${installed}>)
  endforeach()
endfunction()

ear_add_installed_library(earshot_audio earshot-audio audio EAR_AUDIO)
ear_add_installed_library(earshot_engine earshot earshot EAR_ENGINE)
target_link_libraries(earshot_engine_shared PUBLIC earshot_audio_shared)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/earshot TYPE INCLUDE)
install(TARGETS earshot_audio_shared earshot_engine_shared EXPORT EarshotTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS earshot_audio_static earshot_engine_static
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS earshot RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# earshot-lua (built when Lua 5.4 is found) beside the tool: `earshot play GAME.lua` runs the
# earshot-lua in its own folder.
if(TARGET earshot-lua)
  install(TARGETS earshot-lua RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# pkg-config files that find their prefix from where they lie, so that
# `cmake --install build --prefix <anywhere>` gives working files (except for /usr).
set(EAR_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH EAR_PC_UP /${EAR_PC_DIR} /)
string(REGEX REPLACE "/$" "" EAR_PC_UP "${EAR_PC_UP}")
set(EAR_PC_PREFIX "\${pcfiledir}/${EAR_PC_UP}")
# Installed for the system (/usr), the plain prefix lets pkg-config drop -I/usr/include.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(EAR_PC_PREFIX /usr)
endif()
function(ear_write_pc file name description libname prefix requires)
  set(req ${requires} ${${prefix}_REQ_PUBLIC})
  set(EAR_PC_REQUIRES "")
  set(EAR_PC_LIBS_PRIVATE "")
  if(req)
    list(JOIN req " " line)
    string(APPEND EAR_PC_REQUIRES "Requires: ${line}\n")
  endif()
  if(${prefix}_REQ)
    list(JOIN ${prefix}_REQ " " line)
    string(APPEND EAR_PC_REQUIRES "Requires.private: ${line}\n")
  endif()
  if(${prefix}_LIBS)
    list(JOIN ${prefix}_LIBS " " line)
    set(EAR_PC_LIBS_PRIVATE "Libs.private: ${line}\n")
  endif()
  set(EAR_PC_NAME ${name})
  set(EAR_PC_DESCRIPTION ${description})
  set(EAR_PC_LIB ${libname})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/earshot.pc.in ${file} @ONLY)
endfunction()
ear_write_pc(${PROJECT_BINARY_DIR}/earshot-audio.pc earshot-audio
             "Earshot's sound stage: mixer, 3D placement, synth, analysis, decoding, assets, device"
             earshot-audio EAR_AUDIO "")
ear_write_pc(${PROJECT_BINARY_DIR}/earshot.pc earshot
             "The Earshot audio-first game engine: runtime, speech, translations, saves, commands"
             earshot EAR_ENGINE earshot-audio)
install(FILES ${PROJECT_BINARY_DIR}/earshot-audio.pc ${PROJECT_BINARY_DIR}/earshot.pc
        DESTINATION ${EAR_PC_DIR})

# The CMake package.
set(EAR_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Earshot)
set(EAR_CONFIG_DEPS "")
foreach(dep IN LISTS EAR_AUDIO_PUBLIC EAR_ENGINE_PUBLIC)
  string(REPLACE "PkgConfig::" "" var ${dep})
  string(APPEND EAR_CONFIG_DEPS
         "pkg_check_modules(Earshot_${var} REQUIRED IMPORTED_TARGET ${${var}_MODULE_NAME})\n")
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/EarshotConfig.cmake.in
               ${PROJECT_BINARY_DIR}/EarshotConfig.cmake @ONLY)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/EarshotConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(EXPORT EarshotTargets NAMESPACE Earshot:: DESTINATION ${EAR_CMAKE_DIR})
install(FILES ${PROJECT_BINARY_DIR}/EarshotConfig.cmake
        ${PROJECT_BINARY_DIR}/EarshotConfigVersion.cmake DESTINATION ${EAR_CMAKE_DIR})
