# Warning flags shared by every fftc target; FFTC_WERROR turns them into errors (CI does).
add_library(fftc_warnings INTERFACE)
# (-Wnon-virtual-dtor is C++'s only: C sources, such as the C API's tests, take the rest.)
target_compile_options(fftc_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow
  $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>
  -Wno-missing-field-initializers $<$<BOOL:${FFTC_WERROR}>:-Werror>)
# GCC 12 reports false -Wrestrict positives from inlined std::string code at -O2/-O3
# (GCC bug 105329); they would fail optimized -Werror builds.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12)
  target_compile_options(fftc_warnings INTERFACE -Wno-restrict)
endif()
# GCC 12's SLP vectorizer drops double->float->double roundings at -O2: `d = (float)x` stored
# next to a sibling branch storing `d = x` becomes one unrounded store (Debian 12's gcc 12.2;
# tests/ir Values.HostArraysRoundTrip catches it). f32 semantics depend on those roundings.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  add_compile_options(-fno-tree-slp-vectorize)
endif()

if(FFTC_FUZZ)
  # Coverage and ASan for everything; only the fuzz executables link libFuzzer's main.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
if(FFTC_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  # GCC's -Wmaybe-uninitialized misfires on instrumented std::variant/std::vector moves.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
  add_link_options(-fsanitize=address,undefined)
endif()

# fftc_internal_library(NAME): NAME is one of the static libraries that libfftc.so and libfftc.a
# bundle (cmake/FftcInstall.cmake): compiled as position-independent code so that it can be
# linked into the shared library, and recorded in the global property FFTC_INTERNAL_LIBRARIES.
# Without semantic interposition, -fPIC costs the host code no inlining (GCC's default keeps
# every exported function interposable; clang's does not).
function(fftc_internal_library name)
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${name} PRIVATE -fno-semantic-interposition)
  endif()
  set_property(GLOBAL APPEND PROPERTY FFTC_INTERNAL_LIBRARIES ${name})
endfunction()

# fftc_add_library(NAME SOURCES globs DEPS libs): a static library from the sources matching the globs.
function(fftc_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${ARG_SOURCES})
  if(NOT srcs)
    # Headers only so far: dependents still link against the name.
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE ${PROJECT_SOURCE_DIR})
    target_link_libraries(${name} INTERFACE ${ARG_DEPS})
    return()
  endif()
  add_library(${name} STATIC ${srcs})
  fftc_internal_library(${name})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS} PRIVATE fftc_warnings)
endfunction()

# fftc_add_test(NAME SOURCES globs DEPS libs [LABELS l]): one GoogleTest executable,
# each test registered with ctest.
function(fftc_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;EXCLUDE;DEPS;LABELS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS ${ARG_SOURCES})
  if(ARG_EXCLUDE)
    list(REMOVE_ITEM srcs ${ARG_EXCLUDE})
  endif()
  if(NOT srcs)
    return()
  endif()
  add_executable(${name} ${srcs})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest_main fftc_warnings)
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  # The kernel and plan caches of tests live in the build tree, never in the user's home.
  # (ENVIRONMENT before LABELS: an empty label list would otherwise swallow it.)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT ${ARG_TIMEOUT}
    ENVIRONMENT "FFTC_CACHE_DIR=${PROJECT_BINARY_DIR}/test-cache" LABELS "${ARG_LABELS}"
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endfunction()
