// Work sizes -> grid and block (work_sizes.h).
#include "backends/cuda/work_sizes.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

#include "backends/common/device_error.h"

namespace fftc::backends::cuda {

LaunchConfig launchConfigFromWorkSizes(std::span<const std::size_t> global,
                                       std::span<const std::size_t> local,
                                       std::string_view kernel,
                                       std::size_t dynamicSharedBytes) {
  if (global.size() > 3 || local.size() > 3)
    throw UserError(fmt::format("stage {}: more than 3 dimensions", kernel));
  std::array<std::size_t, 3> g{1, 1, 1};
  std::array<std::size_t, 3> b{1, 1, 1};
  std::copy(global.begin(), global.end(), g.begin());
  if (!local.empty()) {
    for (std::size_t d = 0; d < local.size(); ++d) b[d] = std::max<std::size_t>(local[d], 1);
  } else {
    b[0] = std::min<std::size_t>(kDefaultBlockSize, (g[0] + 31) / 32 * 32);
  }
  // Grid-stride loops in the kernels cover whatever the grid does not: clamp to the limits.
  constexpr std::array<std::size_t, 3> gridMax{std::numeric_limits<int>::max(), 65535, 65535};
  std::array<unsigned, 3> grid{};
  std::array<unsigned, 3> block{};
  for (std::size_t d = 0; d < 3; ++d) {
    block[d] = static_cast<unsigned>(std::min<std::size_t>(b[d], 1024));
    grid[d] = static_cast<unsigned>(
        std::min(std::max<std::size_t>((g[d] + b[d] - 1) / b[d], 1), gridMax[d]));
  }
  LaunchConfig c;
  c.grid = Dim3{grid[0], grid[1], grid[2]};
  c.block = Dim3{block[0], block[1], block[2]};
  if (dynamicSharedBytes > std::numeric_limits<unsigned>::max())
    throw UserError(fmt::format("stage {}: {} bytes of dynamic shared memory", kernel,
                                dynamicSharedBytes));
  c.sharedMemoryBytes = static_cast<unsigned>(dynamicSharedBytes);
  return c;
}

}  // namespace fftc::backends::cuda
