// CUB's DeviceReduce::Sum behind a plain C++ interface, compiled by nvcc on its own (the rest
// of kernels_bench is host C++): the reduction that issue 26's sum is compared with.
#include <cub/device/device_reduce.cuh>

#include <cstddef>
#include <cstdint>

// Sums n floats at `in` into `*out` (device pointers) on the default stream. With tmp null,
// only sets *tmpBytes to the scratch space needed. Returns the cudaError_t as an int.
int cubSumFloats(const float* in, float* out, std::int64_t n, void* tmp, std::size_t* tmpBytes) {
  return static_cast<int>(cub::DeviceReduce::Sum(tmp, *tmpBytes, in, out, n));
}
