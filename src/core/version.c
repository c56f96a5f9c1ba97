/* SPDX-License-Identifier: Zlib */
/*
 * The library's version, the project's (CMakeLists.txt's project(... VERSION ...)),
 * compiled in, so a program built against an installed Earshot can say which it runs on.
 */
#include "earshot/core.h"

#ifndef EAR_VERSION
#error "EAR_VERSION is set by src/core/CMakeLists.txt"
#endif

const char *ear_version(void) {
    return EAR_VERSION;
}
