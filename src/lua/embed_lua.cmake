# Turns a Lua file into a C string (the compat layer ships inside the binary, its .lua file
# the source of truth). Run as: cmake -DIN=<file.lua> -DNAME=<symbol> -DOUT=<file.c> -P embed_lua.cmake
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
file(WRITE "${OUT}.tmp"
"/* Generated from ${IN} by embed_lua.cmake: do not edit. */\n"
"extern const char ${NAME}[];\n"
"const char ${NAME}[] = {${bytes} 0};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
