# Script mode (cmake -P), the ctest install.consumer (tests/install/CMakeLists.txt): installs the
# build into a fresh prefix under WORK and uses it as an outside project would, each step
# failing the test with its output:
#  1. the installed headers include only headers that are installed too;
#  2. the installed fftc runs (--version, `fft --size 64 -o DIR`) and finds its clang plugin;
#  3. consumer/ builds with find_package(fftc) against libfftc.so and libfftc.a, and with
#     pkg-config (shared and static), and each of the four programs' FFT matches its own DFT;
#     the C API's example (tests/capi/example.c, <fftc/fftc.h>) builds as C the same ways
#     (pkg-config: libfftc.so) and checks its FFT.
# Variables: BUILD_DIR, SOURCE_DIR (this folder), WORK, CXX, CC, GENERATOR, VERSION, HAS_CLANG,
# HAS_CUDA.
cmake_policy(SET CMP0057 NEW)
set(prefix ${WORK}/prefix)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# run(NAME cmd...): runs cmd in WORK, fails the test when it fails; its output in ${NAME}_out.
function(run name)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "install test: ${name} failed (${rc}): ${cmd}\n${out}")
  endif()
  set(${name}_out "${out}" PARENT_SCOPE)
endfunction()

string(TIMESTAMP t0 "%s")
run(install ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# 1. Headers: every "quoted" include of an installed header names an installed header (the
# include path is include/fftc); nothing of the source tree, the build tree or the tests.
file(GLOB_RECURSE headers RELATIVE ${prefix}/include/fftc ${prefix}/include/fftc/*.h)
list(LENGTH headers header_count)
if(header_count LESS 20 OR NOT "fftlib/plan/fft_api.h" IN_LIST headers)
  message(FATAL_ERROR "install test: ${header_count} headers installed, fft_api.h among them?")
endif()
foreach(h IN LISTS headers)
  file(STRINGS ${prefix}/include/fftc/${h} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  foreach(line IN LISTS includes)
    # Without the CUDA backend backends/cuda/ is not installed; its includes sit under
    # #ifdef FFTC_HAVE_CUDA, which such a package does not define.
    if(line MATCHES "\"(backends/cuda/[^\"]+)\"" AND NOT HAS_CUDA)
      continue()
    endif()
    if(line MATCHES "\"([^\"]+)\"" AND NOT EXISTS ${prefix}/include/fftc/${CMAKE_MATCH_1})
      message(FATAL_ERROR "install test: ${h} includes \"${CMAKE_MATCH_1}\", not installed")
    endif()
    if(line MATCHES "<(gtest|gmock|llvm|clang)/")
      message(FATAL_ERROR "install test: ${h} includes ${line}: not a dependency of the package")
    endif()
  endforeach()
endforeach()

# Nothing installed looks into the build tree for libraries.
file(GLOB elf_files ${prefix}/bin/fftc ${prefix}/lib/libfftc.so* ${prefix}/lib/fftc/*.so)
foreach(f IN LISTS elf_files)
  run(readelf readelf -d ${f})
  if(readelf_out MATCHES "R(UN)?PATH[^\n]*${BUILD_DIR}")
    message(FATAL_ERROR "install test: ${f} has a run path into the build tree:\n${readelf_out}")
  endif()
endforeach()
run(soname readelf -d ${prefix}/lib/libfftc.so)
if(NOT soname_out MATCHES "SONAME[^\n]*libfftc\\.so\\.[0-9]+\\.[0-9]+\\]")
  message(FATAL_ERROR "install test: libfftc.so has no versioned SONAME:\n${soname_out}")
endif()

# 2. The installed fftc.
run(version ${prefix}/bin/fftc --version)
if(NOT version_out STREQUAL "fftc ${VERSION}\n")
  message(FATAL_ERROR "install test: fftc --version printed '${version_out}'")
endif()
run(fft ${CMAKE_COMMAND} -E env FFTC_CACHE_DIR=${WORK}/cache
  ${prefix}/bin/fftc fft --size 64 -o ${WORK}/fft64)
file(GLOB emitted ${WORK}/fft64/*)
if(NOT emitted)
  message(FATAL_ERROR "install test: fftc fft --size 64 wrote nothing:\n${fft_out}")
endif()
if(HAS_CLANG)
  # A user function is checked by the clang plugin; without it fftc warns. The installed fftc
  # can only find the installed plugin (the loader searches relative to the binary).
  file(WRITE ${WORK}/uf.fdl "userfun twice(a: float): float = \"return a * 2.0f;\"\n"
                            "kernel k(x: [float]8) = mapGlobal(twice) <<: x\n")
  run(plugin ${prefix}/bin/fftc compile ${WORK}/uf.fdl -o ${WORK}/uf)
  if(plugin_out MATCHES "warning")
    message(FATAL_ERROR "install test: the installed fftc did not load its plugin:\n${plugin_out}")
  endif()
  set(expect_plugin ${prefix})
endif()
string(TIMESTAMP t1 "%s")

# 3a. find_package(fftc): shared and static.
set(ENV{FFTC_CACHE_DIR} ${WORK}/cache)
run(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR}/consumer -B ${WORK}/cmake-consumer -G ${GENERATOR}
  -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_C_COMPILER=${CC} -DCMAKE_PREFIX_PATH=${prefix})
run(build ${CMAKE_COMMAND} --build ${WORK}/cmake-consumer)
run(cmake_shared ${WORK}/cmake-consumer/consumer_shared opencl ${expect_plugin})
run(cmake_static ${WORK}/cmake-consumer/consumer_static)
run(cmake_c_shared ${WORK}/cmake-consumer/consumer_c_shared)
run(cmake_c_static ${WORK}/cmake-consumer/consumer_c_static)
string(TIMESTAMP t2 "%s")

# 3b. pkg-config, the commands of docs/install.md (compiled once, linked twice).
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
set(src ${SOURCE_DIR}/consumer/main.cpp)
run(pc_compile sh -c "${CXX} -std=c++20 -c ${src} $(pkg-config --cflags fftc) -o pc_main.o")
run(pc_shared sh -c "${CXX} pc_main.o $(pkg-config --libs fftc) -o pc_shared")
run(pc_static sh -c "${CXX} pc_main.o -Wl,--as-needed -l:libfftc.a \
$(pkg-config --static --libs fftc) -o pc_static")
run(pc_static_needed readelf -d ${WORK}/pc_static)
if(pc_static_needed_out MATCHES "libfftc")
  message(FATAL_ERROR "install test: pc_static needs libfftc.so:\n${pc_static_needed_out}")
endif()
run(pc_shared_run ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${prefix}/lib ${WORK}/pc_shared opencl ${expect_plugin})
run(pc_static_run ${WORK}/pc_static)
# The C example, as docs/c-api.md builds it: cc -std=c99 ... $(pkg-config --cflags --libs fftc).
set(c_src ${SOURCE_DIR}/../capi/example.c)
run(pc_c_shared sh -c "${CC} -std=c99 ${c_src} $(pkg-config --cflags --libs fftc) -lm -o pc_c_shared")
run(pc_c_shared_run ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${prefix}/lib ${WORK}/pc_c_shared)
if(NOT pc_c_shared_run_out MATCHES "y\\[5\\] = 128")
  message(FATAL_ERROR "install test: the C example printed '${pc_c_shared_run_out}'")
endif()
string(TIMESTAMP t3 "%s")

math(EXPR s_install "${t1} - ${t0}")
math(EXPR s_cmake "${t2} - ${t1}")
math(EXPR s_pc "${t3} - ${t2}")
message(STATUS "install test: ${header_count} headers; ${cmake_shared_out}"
  "install and fftc ${s_install} s, find_package consumers ${s_cmake} s, pkg-config ${s_pc} s")
