// fftc run --distributed: a distributed 2D/3D FFT over the MPI processes that started fftc
// (mpirun -np P fftc run ...), timed, and with --check compared with FFTW on the gathered result.
#pragma once

#include <cstdint>
#include <string>

#include "driver/fft_options.h"

namespace fftc::driver {

struct DistributedRunOptions {
  std::string decomposition;  // --distributed: slab | pencil
  std::string grid;           // --grid P0xP1 (pencil)
  std::string output = "transposed";  // --distributed-output: transposed | input
  std::string transport;              // --transport: mpi | nccl; empty: nccl where it loads on CUDA
  std::string device;
  bool check = false, json = false;
  int repeat = 20, warmup = 5;
  uint64_t seed = 1;
};

// Collective over MPI_COMM_WORLD (initializes and finalizes MPI). Every rank raises the same
// error (UserError, DeviceError, CheckFailed) when any rank fails; rank 0 prints the report.
// UserError without MPI in this build.
int runDistributed(const FftOptions& fft, const DistributedRunOptions& o);

}  // namespace fftc::driver
