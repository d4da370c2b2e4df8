# The installed package: one shared library holding every layer's objects
# (and, with -DMATCHBLAS_STATIC_LIBRARY=ON, a static one), the tool
# (bin/matchblas, with eval's picture script in share/matchblas), the public
# headers, a relocatable CMake package and a pkg-config file. Included by the
# top CMakeLists.txt after the layers and the tool. The installed library and tool find
# what they link through their RUNPATH ($ORIGIN/../lib, and the folders of
# non-system libraries such as the CUDA runtime), so no environment variable
# is needed; `cmake --install build --strip` leaves out the symbol tables.
#
#   find_package(matchblas 0.2 CONFIG REQUIRED)           # matchblas::matchblas (shared)
#   find_package(matchblas CONFIG REQUIRED COMPONENTS static)  # + matchblas::matchblas_static
#   find_package(matchblas CONFIG REQUIRED COMPONENTS cuda)    # + matchblas::cuda (only when built with CUDA)
#
# The shared library carries its dependencies privately (a user links only
# it); the static one needs them at link time, so the `static` component
# finds them again (OpenMP, zlib, and GraphBLAS, LEMON, the CUDA Toolkit,
# MPI and NCCL when the build used them). `cuda` says the library was built with the
# CUDA backend: matchblas::cuda adds the CUDA runtime for a caller that
# passes device pointers and streams. No CUDA or GraphBLAS header is
# installed or needed: the public headers are include/matchblas's.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(matchblas_objects)
foreach(layer matchblas_lib matchblas_ops matchblas_datasets matchblas_matchers matchblas_api)
  list(APPEND matchblas_objects $<TARGET_OBJECTS:${layer}>)
endforeach()
if(TARGET matchblas_lemon)
  list(APPEND matchblas_objects $<TARGET_OBJECTS:matchblas_lemon>)
endif()

# What the objects need, as the layers link it.
set(matchblas_dependencies OpenMP::OpenMP_CXX ZLIB::ZLIB)
if(MATCHBLAS_HAVE_GRAPHBLAS)
  list(APPEND matchblas_dependencies GraphBLAS::GraphBLAS)
endif()
if(MATCHBLAS_HAVE_LEMON)
  list(APPEND matchblas_dependencies LEMON::LEMON)
endif()
if(MATCHBLAS_HAVE_CUDA)
  list(APPEND matchblas_dependencies CUDA::cudart CUDA::cusparse)
endif()
if(MATCHBLAS_HAVE_MPI)
  list(APPEND matchblas_dependencies MPI::MPI_C)
endif()
if(MATCHBLAS_HAVE_NCCL)
  list(APPEND matchblas_dependencies ${MATCHBLAS_NCCL_LIBRARY})
  get_filename_component(MATCHBLAS_NCCL_LIBRARY_DIR ${MATCHBLAS_NCCL_LIBRARY} DIRECTORY)  # the config's hint
endif()

set(matchblas_public_include
  $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

# Semantic versioning: before 1.0 a minor release may change the ABI, so
# the soname carries major.minor.
set(matchblas_rpath "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
add_library(matchblas_shared SHARED ${matchblas_objects})
set_target_properties(matchblas_shared PROPERTIES OUTPUT_NAME matchblas EXPORT_NAME matchblas
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
  LINKER_LANGUAGE CXX LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib
  INSTALL_RPATH "$ORIGIN" INSTALL_RPATH_USE_LINK_PATH ON)
target_link_libraries(matchblas_shared PRIVATE ${matchblas_dependencies})
target_include_directories(matchblas_shared INTERFACE ${matchblas_public_include})
target_compile_features(matchblas_shared INTERFACE cxx_std_20)
if(MATCHBLAS_STATIC_LIBRARY)
  add_library(matchblas_static STATIC ${matchblas_objects})
  set_target_properties(matchblas_static PROPERTIES OUTPUT_NAME matchblas EXPORT_NAME matchblas_static
    LINKER_LANGUAGE CXX POSITION_INDEPENDENT_CODE ON ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
  # NCCL has no CMake package: the installed config imports it as
  # matchblas::nccl from its own search (as GraphBLAS and LEMON).
  set(matchblas_static_dependencies ${matchblas_dependencies})
  if(MATCHBLAS_HAVE_NCCL)
    list(REMOVE_ITEM matchblas_static_dependencies ${MATCHBLAS_NCCL_LIBRARY})
    list(APPEND matchblas_static_dependencies
         "$<BUILD_INTERFACE:${MATCHBLAS_NCCL_LIBRARY}>" "$<INSTALL_INTERFACE:matchblas::nccl>")
  endif()
  target_link_libraries(matchblas_static INTERFACE ${matchblas_static_dependencies})
  target_include_directories(matchblas_static INTERFACE ${matchblas_public_include})
  target_compile_features(matchblas_static INTERFACE cxx_std_20)
endif()
# Nothing but the C interface is exported from the shared library (the C++
# headers are header-only over it): a version script keeps the rest local.
# --no-undefined: a dependency missing from matchblas_dependencies fails this
# link, not the first program that links the installed library (not in a
# sanitizer build: clang leaves the sanitizer runtimes out of shared libraries).
target_link_options(matchblas_shared PRIVATE "LINKER:--version-script=${CMAKE_CURRENT_SOURCE_DIR}/cmake/exports.map")
if(NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize" AND NOT CMAKE_SHARED_LINKER_FLAGS MATCHES "-fsanitize")
  target_link_options(matchblas_shared PRIVATE "LINKER:--no-undefined")
endif()
set_property(TARGET matchblas_shared APPEND PROPERTY LINK_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cmake/exports.map)

set(matchblas_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/matchblas)
install(TARGETS matchblas_shared EXPORT matchblas-targets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(MATCHBLAS_STATIC_LIBRARY)
  install(TARGETS matchblas_static EXPORT matchblas-static-targets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT matchblas-static-targets NAMESPACE matchblas:: DESTINATION ${matchblas_cmake_dir})
endif()
# The tool links the layers statically; its RUNPATH finds the non-system
# libraries it needs (GraphBLAS, the CUDA runtime) without LD_LIBRARY_PATH.
set_target_properties(matchblas_cli PROPERTIES INSTALL_RPATH "${matchblas_rpath}" INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS matchblas_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/apps/eval/eval_plots.py DESTINATION ${CMAKE_INSTALL_DATADIR}/matchblas)
file(GLOB matchblas_public_headers ${CMAKE_CURRENT_SOURCE_DIR}/include/matchblas/*.h
     ${CMAKE_CURRENT_SOURCE_DIR}/include/matchblas/*.hpp)
install(FILES ${matchblas_public_headers} ${CMAKE_BINARY_DIR}/include/matchblas/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/matchblas)
install(EXPORT matchblas-targets NAMESPACE matchblas:: DESTINATION ${matchblas_cmake_dir})
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/matchblasConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/matchblasConfig.cmake INSTALL_DESTINATION ${matchblas_cmake_dir})
# 0.x: a 0.2 request takes 0.2.y only.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/matchblasConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/matchblasConfig.cmake ${CMAKE_BINARY_DIR}/cmake/matchblasConfigVersion.cmake
        DESTINATION ${matchblas_cmake_dir})

# pkg-config: the prefix is found from the .pc file's own place, so the
# installed tree can be moved. `Libs` carries an rpath to that place, so a
# program built with `pkg-config --libs matchblas` starts without
# LD_LIBRARY_PATH, and libm (the pre-pass's scalings are logarithms: a C
# caller applies them with exp()); `Libs.private` (for --static) lists what
# the C++ inside needs: the C++ runtime, OpenMP, zlib and the optional libraries.
set(matchblas_pc_private "-lstdc++ -lz")
if(OpenMP_CXX_FLAGS)
  string(PREPEND matchblas_pc_private "${OpenMP_CXX_FLAGS} ")
endif()
foreach(dep IN ITEMS GraphBLAS::GraphBLAS LEMON::LEMON)
  if(${dep} IN_LIST matchblas_dependencies)
    get_target_property(location ${dep} IMPORTED_LOCATION)
    if(location)
      string(APPEND matchblas_pc_private " ${location}")
    endif()
  endif()
endforeach()
if(MATCHBLAS_HAVE_CUDA)
  string(APPEND matchblas_pc_private " -L${CUDAToolkit_LIBRARY_DIR} -lcusparse -lcudart")
endif()
if(MATCHBLAS_HAVE_MPI)
  foreach(location IN LISTS MPI_C_LIBRARIES)
    string(APPEND matchblas_pc_private " ${location}")
  endforeach()
endif()
if(MATCHBLAS_HAVE_NCCL)
  string(APPEND matchblas_pc_private " ${MATCHBLAS_NCCL_LIBRARY}")
endif()
file(RELATIVE_PATH matchblas_pc_prefix ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" matchblas_pc_prefix "${matchblas_pc_prefix}")
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/matchblas.pc.in ${CMAKE_BINARY_DIR}/cmake/matchblas.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/cmake/matchblas.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
