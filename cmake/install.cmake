# cmake/install.cmake — `cmake --install`: the headers, the static library, a CMake package
# (find_package(locus CONFIG) -> locus::locus) and a pkg-config file (locus.pc).
# Included from the top-level CMakeLists.txt when LOCUS_INSTALL is ON.

include(CMakePackageConfigHelpers)

set(LOCUS_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/locus"
    CACHE STRING "Where locusConfig.cmake goes, relative to the install prefix")
mark_as_advanced(LOCUS_INSTALL_CMAKEDIR)

install(TARGETS locus EXPORT locusTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/locus
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.hpp")

# locus is static, so its PRIVATE hwloc link reaches the export as
# $<LINK_ONLY:PkgConfig::HWLOC> (and Threads::Threads is PUBLIC): an imported target is not
# part of this export; locusConfig.cmake finds both again before it loads locusTargets.cmake.
install(EXPORT locusTargets
  NAMESPACE locus::
  DESTINATION ${LOCUS_INSTALL_CMAKEDIR})

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/locusConfig.cmake.in
  ${PROJECT_BINARY_DIR}/locusConfig.cmake
  INSTALL_DESTINATION ${LOCUS_INSTALL_CMAKEDIR}
  NO_SET_AND_CHECK_MACRO)
# Before 1.0 a minor release may break the API: 0.1.x satisfies find_package(locus 0.1) only.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/locusConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/locusConfig.cmake
  ${PROJECT_BINARY_DIR}/locusConfigVersion.cmake
  DESTINATION ${LOCUS_INSTALL_CMAKEDIR})

# locus.pc. The prefix is written at install time, so `cmake --install DIR --prefix P`
# gives a locus.pc that points at P (DESTDIR is not part of it, as usual).
if(LOCUS_WITH_HWLOC)
  set(LOCUS_PC_REQUIRES "hwloc")
else()
  set(LOCUS_PC_REQUIRES "")
endif()
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(LOCUS_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(LOCUS_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(LOCUS_PC_PREFIX "@LOCUS_PC_PREFIX@")  # kept for the install-time pass below
configure_file(${CMAKE_CURRENT_LIST_DIR}/locus.pc.in ${PROJECT_BINARY_DIR}/locus.pc.in @ONLY)
install(CODE "
  set(LOCUS_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${PROJECT_BINARY_DIR}/locus.pc.in\" \"${PROJECT_BINARY_DIR}/locus.pc\" @ONLY)
")
install(FILES ${PROJECT_BINARY_DIR}/locus.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The optional mpi component (built when LOCUS_HAVE_MPI): its own export set, loaded by
# locusConfig.cmake only for find_package(locus COMPONENTS mpi), and locus-mpi.pc.
if(TARGET locus_mpi)
  install(TARGETS locus_mpi EXPORT locusMpiTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT locusMpiTargets
    NAMESPACE locus::
    FILE locus-mpiTargets.cmake
    DESTINATION ${LOCUS_INSTALL_CMAKEDIR})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/locus-mpi.pc.in ${PROJECT_BINARY_DIR}/locus-mpi.pc.in
                 @ONLY)
  install(CODE "
    set(LOCUS_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    configure_file(\"${PROJECT_BINARY_DIR}/locus-mpi.pc.in\" \"${PROJECT_BINARY_DIR}/locus-mpi.pc\" @ONLY)
  ")
  install(FILES ${PROJECT_BINARY_DIR}/locus-mpi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
