# Installation and the CMake package: `find_package(tileops REQUIRED)` then link tileops::tileops.
# Installs the library, the `tileops` command, the public headers and the headers generated from
# the manifest (which the public op headers include), and tileopsConfig.cmake with its version file.
include(CMakePackageConfigHelpers)

set(TILEOPS_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/tileops" CACHE STRING
    "Where tileopsConfig.cmake is installed, relative to the prefix")

install(TARGETS tileops EXPORT tileopsTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The installed command finds the installed library next to it, wherever the prefix is.
file(RELATIVE_PATH _tileops_bin_to_lib "/${CMAKE_INSTALL_BINDIR}" "/${CMAKE_INSTALL_LIBDIR}")
set_target_properties(tileops_cli PROPERTIES INSTALL_RPATH "$ORIGIN/${_tileops_bin_to_lib}")
install(TARGETS tileops_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY include/tileops DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
install(DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/generated/tileops/generated
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tileops
  FILES_MATCHING PATTERN "*.hpp")

install(EXPORT tileopsTargets
  NAMESPACE tileops::
  DESTINATION ${TILEOPS_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/tileopsConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/tileopsConfig.cmake
  INSTALL_DESTINATION ${TILEOPS_INSTALL_CMAKEDIR})
# 0.x: minor versions may break the API.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tileopsConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/tileopsConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/tileopsConfigVersion.cmake
  DESTINATION ${TILEOPS_INSTALL_CMAKEDIR})
# The op reference and the README, for users of the installed package.
install(FILES docs/ops.md README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
