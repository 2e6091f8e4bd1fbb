# Turns every ${DIR}/*.${EXT} into a C table of {stem, text} entries so the
# binary needs no data files at run time (architecture descriptions, the
# checks' documentation pages). Invoked as a script:
#   cmake -DOUT=<file.c> -DDIR=<dir> -DEXT=<ext> -DHEADER=<include>
#         -DTYPE=<struct name> -DTABLE=<array name> -P embed_files.cmake
file(GLOB files "${DIR}/*.${EXT}")
list(SORT files)
set(body "/* Generated from the *.${EXT} files of ${DIR} by cmake/embed_files.cmake. */\n")
string(APPEND body "#include \"${HEADER}\"\n\n")
set(table "")
set(n 0)
foreach(f ${files})
  get_filename_component(stem ${f} NAME_WE)
  file(READ ${f} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  string(APPEND body "static const char text_${n}[] = {${hex}0x00};\n")
  string(APPEND table "    {\"${stem}\", text_${n}},\n")
  math(EXPR n "${n} + 1")
endforeach()
string(APPEND body "\nconst struct ${TYPE} ${TABLE}[] = {\n${table}    {0, 0}\n};\n")
file(WRITE ${OUT} "${body}")
