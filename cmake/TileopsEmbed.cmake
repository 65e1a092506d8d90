# tileops_embed_sources(<out-var> BASE <dir> FILES <files...> OUT <file.cpp>)
# Writes a C++ file that registers each file's text under its path relative to BASE, so CUDA
# sources travel inside libtileops and are compiled by NVRTC at first launch.
function(tileops_embed_sources out_var)
  cmake_parse_arguments(ARG "" "BASE;OUT" "FILES" ${ARGN})
  add_custom_command(
    OUTPUT ${ARG_OUT}
    COMMAND ${CMAKE_COMMAND} -DBASE=${ARG_BASE} -DOUT=${ARG_OUT} "-DFILES=${ARG_FILES}"
            -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/TileopsEmbedScript.cmake
    DEPENDS ${ARG_FILES} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/TileopsEmbedScript.cmake
    COMMENT "Embedding CUDA kernel sources"
    VERBATIM)
  set(${out_var} ${ARG_OUT} PARENT_SCOPE)
endfunction()
