# tileops_generate(<out-var> YAML <files...> OUT_DIR <dir> PREFIX <include prefix>)
# Runs tileops-opgen over the manifest files. Each file <stem>.yaml yields
# <dir>/<prefix>/<stem>.gen.hpp and <dir>/<stem>.gen.cpp; the .cpp paths go to <out-var>.
function(tileops_generate out_var)
  cmake_parse_arguments(ARG "" "OUT_DIR;PREFIX" "YAML" ${ARGN})
  set(outputs "")
  set(sources "")
  foreach(yaml IN LISTS ARG_YAML)
    get_filename_component(stem "${yaml}" NAME_WE)
    list(APPEND outputs "${ARG_OUT_DIR}/${ARG_PREFIX}/${stem}.gen.hpp" "${ARG_OUT_DIR}/${stem}.gen.cpp")
    list(APPEND sources "${ARG_OUT_DIR}/${stem}.gen.cpp")
  endforeach()
  # A stamp as the output and the files as byproducts: the generator rewrites only files whose
  # text changed, and Ninja's restat then recompiles only what depends on them.
  string(MAKE_C_IDENTIFIER "${ARG_PREFIX}" stamp_name)
  set(stamp "${ARG_OUT_DIR}/${stamp_name}.stamp")
  add_custom_command(
    OUTPUT ${stamp}
    BYPRODUCTS ${outputs}
    COMMAND tileops-opgen --out "${ARG_OUT_DIR}" --include-prefix "${ARG_PREFIX}" ${ARG_YAML}
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS tileops-opgen ${ARG_YAML}
    COMMENT "Generating op code from the manifest (${ARG_PREFIX})"
    VERBATIM)
  set(${out_var} ${sources} ${stamp} PARENT_SCOPE)
endfunction()
