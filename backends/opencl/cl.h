// The one place that includes the OpenCL C API: pins the API level to OpenCL 1.2, which both
// PoCL 3 and NVIDIA's driver support; newer queries are made only where a device reports them.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
