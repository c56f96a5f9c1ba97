/* SPDX-License-Identifier: Zlib */
/*
 * dlopen() for the Windows build (posix_win.h's essay; platform_win.c): LoadLibraryW of
 * the UTF-8 name, GetProcAddress, FreeLibrary; dlerror names the last failure. On the
 * include path of the Windows build only.
 */
#ifndef EAR_WIN_DLFCN_H
#define EAR_WIN_DLFCN_H

#define RTLD_LAZY   0x1
#define RTLD_NOW    0x2
#define RTLD_LOCAL  0x0
#define RTLD_GLOBAL 0x100

void *ear__win_dlopen(const char *name, int flags);
void *ear__win_dlsym(void *lib, const char *symbol);
int ear__win_dlclose(void *lib);
char *ear__win_dlerror(void);
#define dlopen  ear__win_dlopen
#define dlsym   ear__win_dlsym
#define dlclose ear__win_dlclose
#define dlerror ear__win_dlerror

#endif
