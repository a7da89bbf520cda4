// Running compiled kernels on CUDA (exec.h does OpenCL): NVRTC compiles a CompiledKernel of the
// CUDA target, every stage runs on a backends::cuda::Context, and the host-side work (packing,
// sizes, random inputs, the interpreter check) is exec.h's, shared with OpenCL.
//
// Work sizes: a stage's global size counts work-items as in OpenCL; the block is the stage's
// local size, or kDefaultBlockSize threads along x when it has none, and the grid is the global
// size divided by the block, rounded up. The CUDA dialect's kernels loop over their index
// ranges (`for (gid = global id; gid < n; gid += grid size)`, likewise for blocks and
// threads), so the extra threads of a rounded-up grid do nothing. Local memory is static
// `__shared__` in the source (no dynamic shared memory).
#pragma once

#ifdef FFTC_HAVE_CUDA

#include <map>
#include <string>
#include <vector>

#include "backends/cuda/context.h"
#include "backends/cuda/nvrtc_compiler.h"
#include "backends/cuda/work_sizes.h"
#include "compiler/exec/exec.h"

namespace fftc::compiler::exec {

inline constexpr unsigned kDefaultBlockSize = backends::cuda::kDefaultBlockSize;

// The grid and block of one stage (global and local sizes evaluated): work_sizes.h.
backends::cuda::LaunchConfig cudaLaunchConfig(const PreparedStage& stage);

// Compiles the kernel's source (it must be of the CUDA target) with NVRTC for `arch`, through
// the process-wide compiler and its cache. UserError when the kernel is not of the CUDA
// target; backends::cuda::CompileError (its log() has NVRTC's messages) when NVRTC rejects it.
backends::cuda::CompiledProgram compileCuda(const codegen::CompiledKernel& k,
                                            const std::string& arch = std::string(
                                                backends::cuda::kDefaultArch));

// The same for stage `stage`'s own source (StageInfo::source: that kernel alone), the program
// named after its kernel. UserError as above, and when the stage has no source of its own.
backends::cuda::CompiledProgram compileCudaStage(const codegen::CompiledKernel& k, size_t stage,
                                                 const std::string& arch = std::string(
                                                     backends::cuda::kDefaultArch));

// UserError when a stage needs more shared memory than a block may have: statically, or with
// the opt-in attribute when its arrays are dynamic (StageInfo::dynamicLocalBytes).
void checkDevice(const backends::cuda::DeviceInfo& device, const codegen::CompiledKernel& k);

// Compiles (modules cached per context and source in this process), allocates, uploads,
// launches every stage in order (each timed with events) and reads the output back; then the
// repeated runs of `timing` (exec.h).
RunResult runCompiled(const backends::cuda::Context& context, const codegen::CompiledKernel& k,
                      const std::vector<ir::Value>& inputs,
                      const std::map<std::string, int64_t>& sizes = {},
                      const TimingOptions& timing = {});

// exec.h's checkAgainstInterpreter on a CUDA device.
CheckResult checkAgainstInterpreter(const backends::cuda::Context& context,
                                    const ir::LambdaPtr& typedKernel,
                                    const codegen::CompiledKernel& compiled,
                                    const std::map<std::string, int64_t>& sizes, uint64_t seed,
                                    const ir::InterpreterOptions& interp = {});

}  // namespace fftc::compiler::exec

#endif  // FFTC_HAVE_CUDA
