// The OpenCL runtime of fftc in one include: discovery, selection, contexts, cached program
// builds, buffers, kernels, launches and timing (namespace fftc::backends::opencl).
#pragma once

#include "backends/common/device_error.h"
#include "backends/opencl/binary_cache.h"
#include "backends/opencl/buffer.h"
#include "backends/opencl/cl_error.h"
#include "backends/opencl/context.h"
#include "backends/opencl/device_info.h"
#include "backends/opencl/kernel.h"
#include "backends/opencl/launch.h"
#include "backends/opencl/program.h"
#include "backends/opencl/selector.h"
