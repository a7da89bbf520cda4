// The launch geometry of a generated kernel's stage: OpenCL-style work sizes (global work-items
// and an optional work-group size, as the manifest gives them) -> a CUDA grid and block.
// Shared by compiler/exec (fftc exec) and fftlib's CudaPlan; the standalone CUDA headers that
// `fftc fft` emits cannot link fftc and carry the same rule as text (header_prelude.cpp's
// `geometry`): a change here goes there too.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "backends/cuda/module.h"

namespace fftc::backends::cuda {

// Threads per block along x when a stage leaves the work-group size to the driver.
inline constexpr unsigned kDefaultBlockSize = 256;

// The block is the local size, or whole warps up to kDefaultBlockSize along x when there is
// none; the grid is the global size divided by the block, rounded up and clamped to the
// device limits. The generated kernels loop over their index ranges (grid-stride loops), so
// the extra threads of a rounded-up grid do nothing. `dynamicSharedBytes`: the stage's dynamic
// shared memory (the manifest's dynamic_local_memory_bytes). UserError for more than 3
// dimensions.
LaunchConfig launchConfigFromWorkSizes(std::span<const std::size_t> global,
                                       std::span<const std::size_t> local,
                                       std::string_view kernel = {},
                                       std::size_t dynamicSharedBytes = 0);

}  // namespace fftc::backends::cuda
