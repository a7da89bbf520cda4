# What `cmake --install` puts under the prefix (docs/install.md): the fftc program, the clang
# plugin, the public headers, libfftc.so and libfftc.a, the CMake package and fftc.pc.
# Included last by the top CMakeLists.txt, once every internal library exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(FFTC_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/fftc)
set(FFTC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/fftc)

install(TARGETS fftc RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET fftc_clang_plugin)
  # FFTC_INSTALL_PLUGINDIR (compiler/CMakeLists.txt) is where the loader looks, relative to an
  # installed fftc or libfftc.so. LLVM's libraries keep the paths the plugin was linked with.
  set_target_properties(fftc_clang_plugin PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS fftc_clang_plugin LIBRARY DESTINATION ${FFTC_INSTALL_PLUGINDIR})
endif()

if(NOT FFTC_LIBRARY)
  return()
endif()

# The public headers: every header of the libraries bundled below, with the paths they have in
# the source tree (include/fftc/fftlib/plan/fft_api.h), so that their own includes
# ("backends/opencl/context.h") resolve against include/fftc. The CUDA runtime's headers need
# cuda.h and are installed only where the CUDA backend is built.
set(fftc_header_dirs ir rewrites compiler/frontend compiler/codegen compiler/exec
  compiler/pipeline compiler/clang backends/common backends/opencl fftlib tuner)
if(FFTC_CUDA_FOUND)
  list(APPEND fftc_header_dirs backends/cuda)
endif()
foreach(dir IN LISTS fftc_header_dirs)
  get_filename_component(parent ${dir} DIRECTORY)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir} DESTINATION ${FFTC_INSTALL_INCLUDEDIR}/${parent}
    FILES_MATCHING PATTERN "*.h" PATTERN "capi/include" EXCLUDE
    # the clang plugin's own header: it includes clang's, which the package does not need
    PATTERN "clang_plugin_internal.h" EXCLUDE)
endforeach()
# The C API's header (docs/c-api.md) as <fftc/fftc.h>: include/ is on the include path too.
install(FILES ${PROJECT_SOURCE_DIR}/fftlib/capi/include/fftc/fftc.h
  DESTINATION ${FFTC_INSTALL_INCLUDEDIR})

# One library of the internal ones (fftc_add_library, the FFTC_INTERNAL_LIBRARIES property):
# their object files, compiled once as position-independent code, make both libfftc.so and
# libfftc.a, so a consumer links one library, not thirteen in the right order.
get_property(fftc_internal GLOBAL PROPERTY FFTC_INTERNAL_LIBRARIES)
set(fftc_objects "")
set(fftc_external "")
foreach(lib IN LISTS fftc_internal)
  list(APPEND fftc_objects $<TARGET_OBJECTS:${lib}>)
  get_target_property(deps ${lib} INTERFACE_LINK_LIBRARIES)
  foreach(dep IN LISTS deps)
    if(NOT dep IN_LIST fftc_internal AND NOT dep MATCHES "fftc_warnings")
      list(APPEND fftc_external ${dep})
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES fftc_external)

# The dependencies that the public headers use (Boost.JSON values in codegen.h and
# device_info.h, OpenCL's types and inline calls in backends/opencl) are public; FFTW, dl and
# threads only matter when linking libfftc.a. fmt is compiled in header-only: no dependency.
set(fftc_public_deps Boost::json OpenCL::OpenCL)
set(fftc_include_dirs $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/fftlib/capi/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}> $<INSTALL_INTERFACE:${FFTC_INSTALL_INCLUDEDIR}>)

# The ABI of a C++ API of this size is not stable: the SONAME changes with every minor version
# while the major is 0 (libfftc.so.0.1), and the package declares the same compatibility.
add_library(fftc_shared SHARED ${fftc_objects})
target_link_libraries(fftc_shared PUBLIC ${fftc_public_deps} PRIVATE ${fftc_external} Threads::Threads)
target_link_options(fftc_shared PRIVATE LINKER:--no-undefined)
set_target_properties(fftc_shared PROPERTIES OUTPUT_NAME fftc EXPORT_NAME fftc
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
  LINKER_LANGUAGE CXX LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})

add_library(fftc_static STATIC ${fftc_objects})
# PkgConfig::FFTW is the build's own; fftcConfig.cmake finds FFTW again as PkgConfig::fftc_FFTW.
target_link_libraries(fftc_static INTERFACE ${fftc_public_deps} ${CMAKE_DL_LIBS} Threads::Threads
  $<BUILD_INTERFACE:PkgConfig::FFTW> $<INSTALL_INTERFACE:PkgConfig::fftc_FFTW>)
set_target_properties(fftc_static PROPERTIES OUTPUT_NAME fftc EXPORT_NAME fftc_static
  LINKER_LANGUAGE CXX ARCHIVE_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})

foreach(lib fftc_shared fftc_static)
  target_include_directories(${lib} INTERFACE ${fftc_include_dirs})
  target_compile_features(${lib} INTERFACE cxx_std_20)
  if(FFTC_CUDA_FOUND)
    # cuda_plan.h and device_io.h declare the CUDA API under this macro, as in the build.
    target_compile_definitions(${lib} INTERFACE FFTC_HAVE_CUDA=1)
  endif()
endforeach()

install(TARGETS fftc_shared fftc_static EXPORT fftcTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT fftcTargets NAMESPACE fftc:: DESTINATION ${FFTC_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/fftcConfig.cmake.in
  ${PROJECT_BINARY_DIR}/fftcConfig.cmake INSTALL_DESTINATION ${FFTC_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/fftcConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/fftcConfig.cmake ${PROJECT_BINARY_DIR}/fftcConfigVersion.cmake
  DESTINATION ${FFTC_INSTALL_CMAKEDIR})

# fftc.pc: relocatable (${pcfiledir}), since `cmake --install --prefix` may choose the prefix
# after configuring. Boost has no .pc file: its library is named by its directory.
file(RELATIVE_PATH fftc_pc_to_prefix /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
string(REGEX REPLACE "/$" "" fftc_pc_to_prefix "${fftc_pc_to_prefix}")
set(fftc_pc_cflags "-I\${includedir} -I\${includedir}/fftc")
if(FFTC_CUDA_FOUND)
  string(APPEND fftc_pc_cflags " -DFFTC_HAVE_CUDA=1 -I${FFTC_CUDA_INCLUDE_DIR}")
endif()
set(fftc_pc_libs_private "-pthread")
foreach(lib IN LISTS CMAKE_DL_LIBS)
  string(PREPEND fftc_pc_libs_private "-l${lib} ")
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/fftc.pc.in ${PROJECT_BINARY_DIR}/fftc.pc.in @ONLY)
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/fftc.pc INPUT ${PROJECT_BINARY_DIR}/fftc.pc.in)
install(FILES ${PROJECT_BINARY_DIR}/fftc.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
