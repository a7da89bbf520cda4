# Finds fftc's dependencies: all from Debian packages except CUDA (/usr/local/cuda).
# scripts/install-deps installs them.
if(FFTC_STATIC_DEPS)
  set(Boost_USE_STATIC_LIBS ON)
endif()
find_package(Boost 1.81.0 EXACT CONFIG REQUIRED COMPONENTS json program_options)
# fmt is used header-only so that no libfmt.so has to travel to the device machine.
find_package(fmt REQUIRED)
find_package(OpenCL REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(FFTW REQUIRED IMPORTED_TARGET fftw3 fftw3f fftw3l)
find_package(Threads REQUIRED)
if(FFTC_BUILD_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
endif()

# CUDA: headers only at build time; NVRTC and the driver are loaded with dlopen at run time,
# so fftc runs (and says why CUDA is unavailable) on machines without them.
set(FFTC_CUDA_FOUND OFF)
if(FFTC_WITH_CUDA)
  find_path(FFTC_CUDA_INCLUDE_DIR cuda.h nvrtc.h
    HINTS $ENV{CUDA_HOME}/include /usr/local/cuda/include)
  if(FFTC_CUDA_INCLUDE_DIR)
    set(FFTC_CUDA_FOUND ON)
    message(STATUS "fftc: CUDA headers in ${FFTC_CUDA_INCLUDE_DIR}")
  else()
    message(WARNING "fftc: the CUDA toolkit was not found (looked in $CUDA_HOME and "
      "/usr/local/cuda); the CUDA backend is left out, everything else builds.")
  endif()
endif()

set(FFTC_CLANG_FOUND OFF)
if(FFTC_WITH_CLANG)
  # Debian ships no version file for ClangConfig; the path pins LLVM 14.
  find_package(Clang CONFIG PATHS /usr/lib/llvm-14/lib/cmake/clang NO_DEFAULT_PATH)
  if(Clang_FOUND)
    set(FFTC_CLANG_FOUND ON)
  else()
    message(FATAL_ERROR "fftc: LLVM/Clang 14 development files not found; install them "
      "(scripts/install-deps) or configure with -DFFTC_WITH_CLANG=OFF")
  endif()
endif()

# MPI (Open MPI from Debian: libopenmpi-dev, openmpi-bin): the distributed FFT's transport
# (fftlib/distributed/mpi_transport.h), `fftc run --distributed` and the tests labelled mpi.
# Without it everything else builds; the distributed plan itself needs no MPI.
set(FFTC_MPI_FOUND OFF)
if(FFTC_WITH_MPI)
  find_package(MPI COMPONENTS C)
  find_program(FFTC_MPIEXEC NAMES mpirun mpiexec)
  if(MPI_C_FOUND AND FFTC_MPIEXEC)
    set(FFTC_MPI_FOUND ON)
    message(STATUS "fftc: MPI ${MPI_C_VERSION} (${FFTC_MPIEXEC}): distributed FFTs on MPI")
  else()
    message(STATUS "fftc: MPI not found (scripts/install-deps installs Open MPI): fftc run "
      "--distributed and the mpi tests are left out; everything else builds")
  endif()
endif()
