// Local transforms on OpenCL and CUDA devices (local_fft.h).
#include "fftlib/distributed/local_fft.h"

#include "fftlib/plan/fft_api.h"
#ifdef FFTC_HAVE_CUDA
#include "fftlib/plan/cuda_plan.h"
#endif

namespace fftc::distributed {
namespace {

namespace cl = backends::opencl;

class OpenClLocalFft final : public LocalFft {
 public:
  OpenClLocalFft(const cl::Context& context, const fftlib::FftRequest& request)
      : context_(context),
        plan_(fftlib::Plan::create(context, request)),
        in_(context, plan_.inputBytes()),
        out_(context, plan_.outputBytes()) {}
  void execute(const void* in, void* out) override {
    in_.writeBytes(context_, in, plan_.inputBytes());
    plan_.execute(in_, out_);
    out_.readBytes(context_, out, plan_.outputBytes());
  }

 private:
  const cl::Context& context_;
  fftlib::Plan plan_;
  cl::Buffer in_, out_;
};

#ifdef FFTC_HAVE_CUDA
namespace cu = backends::cuda;

class CudaLocalFft final : public LocalFft {
 public:
  CudaLocalFft(const cu::Context& context, const fftlib::FftRequest& request)
      : plan_(fftlib::CudaPlan::create(context, request)),
        in_(context.allocate(plan_.inputBytes())),
        out_(context.allocate(plan_.outputBytes())) {}
  void execute(const void* in, void* out) override {
    in_.copyFromHost(in, plan_.inputBytes());
    plan_.execute(in_, out_);
    out_.copyToHost(out, plan_.outputBytes());
  }

 private:
  fftlib::CudaPlan plan_;
  cu::DeviceBuffer in_, out_;
};
#endif

}  // namespace

LocalFftFactory openClLocalFft(const cl::Context& context) {
  return [&context](const fftlib::FftRequest& request) -> std::unique_ptr<LocalFft> {
    fftlib::FftRequest r = request;
    r.target = compiler::pipeline::Target::OpenCL;
    return std::make_unique<OpenClLocalFft>(context, r);
  };
}

#ifdef FFTC_HAVE_CUDA
LocalFftFactory cudaLocalFft(const cu::Context& context) {
  return [&context](const fftlib::FftRequest& request) -> std::unique_ptr<LocalFft> {
    fftlib::FftRequest r = request;
    r.target = compiler::pipeline::Target::Cuda;
    return std::make_unique<CudaLocalFft>(context, r);
  };
}
#endif

}  // namespace fftc::distributed
