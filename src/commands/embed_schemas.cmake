# Turns every schemas/commands/*.json into a C string in one generated file, so the
# binary needs no files next to it and the JSON files stay the source of truth.
# Run as: cmake -DSCHEMA_DIR=<dir> -DOUT=<file.c> -P embed_schemas.cmake
file(GLOB files "${SCHEMA_DIR}/*.json")
list(SORT files)
set(names "")
set(texts "")
set(count 0)
foreach(f ${files})
  get_filename_component(base "${f}" NAME)
  string(REGEX REPLACE "\\.json$" "" name "${base}")
  file(READ "${f}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
  string(APPEND texts "static const char schema_${count}[] = {${bytes} 0};\n")
  string(APPEND names "    \"${name}\",\n")
  math(EXPR count "${count} + 1")
endforeach()
set(list "")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(APPEND list "    schema_${i},\n")
endforeach()
file(WRITE "${OUT}.tmp"
"/* Generated from schemas/commands/*.json by embed_schemas.cmake: do not edit. */\n"
"#include <stddef.h>\n\n${texts}\n"
"extern const char *const ear__schema_names[];\n"
"extern const char *const ear__schema_texts[];\n"
"extern const size_t ear__schema_count;\n"
"const char *const ear__schema_names[] = {\n${names}};\n"
"const char *const ear__schema_texts[] = {\n${list}};\n"
"const size_t ear__schema_count = ${count};\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
