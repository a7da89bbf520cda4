// The devices of distributed FFTs on OpenCL and CUDA (local_fft.h).
#include "fftlib/distributed/local_fft.h"

#include "backends/opencl/cl_error.h"
#include "fftlib/plan/fft_api.h"
#ifdef FFTC_HAVE_CUDA
#include "backends/cuda/context_state.h"
#include "fftlib/plan/cuda_plan.h"
#endif

namespace fftc::distributed {
namespace {

namespace cl = backends::opencl;

class OpenClArray final : public DeviceArray {
 public:
  OpenClArray(const cl::Context& context, std::size_t bytes)
      : buffer(context, std::max<std::size_t>(bytes, 1)), bytes_(bytes) {}
  [[nodiscard]] std::size_t bytes() const override { return bytes_; }
  [[nodiscard]] void* address() const override { return nullptr; }
  cl::Buffer buffer;

 private:
  std::size_t bytes_;
};

const cl::Buffer& clBuffer(const DeviceArray& a) {
  return dynamic_cast<const OpenClArray&>(a).buffer;
}
cl::Buffer& clBuffer(DeviceArray& a) { return dynamic_cast<OpenClArray&>(a).buffer; }

class OpenClLocalFft final : public LocalFft {
 public:
  OpenClLocalFft(const cl::Context& context, const fftlib::FftRequest& request)
      : plan_(fftlib::Plan::create(context, request)) {}
  void execute(const DeviceArray& in, DeviceArray& out) override {
    plan_.execute(clBuffer(in), clBuffer(out));
  }

 private:
  fftlib::Plan plan_;
};

class OpenClDevice final : public LocalDevice {
 public:
  explicit OpenClDevice(const cl::Context& context) : context_(context) {}
  std::unique_ptr<DeviceArray> allocate(std::size_t bytes) override {
    return std::make_unique<OpenClArray>(context_, bytes);
  }
  void upload(DeviceArray& to, const void* from, std::size_t bytes) override {
    clBuffer(to).writeBytes(context_, from, bytes);
  }
  void download(const DeviceArray& from, void* to, std::size_t bytes) override {
    clBuffer(from).readBytes(context_, to, bytes);
  }
  void copy(const DeviceArray& from, DeviceArray& to, const RectCopy& r) override {
    // The offsets go into the byte origins: OpenCL adds slice, row and byte origins up.
    auto src = r.srcOrigin, dst = r.dstOrigin;
    src[0] += r.srcOffset;
    dst[0] += r.dstOffset;
    cl::check(clEnqueueCopyBufferRect(context_.queue(), clBuffer(from).get(), clBuffer(to).get(),
                                      src.data(), dst.data(), r.region.data(),
                                      r.srcRowPitch, r.srcSlicePitch, r.dstRowPitch,
                                      r.dstSlicePitch, 0, nullptr, nullptr),
              "clEnqueueCopyBufferRect");
  }
  void synchronize() override { context_.finish(); }
  std::unique_ptr<LocalFft> plan(const fftlib::FftRequest& request) override {
    fftlib::FftRequest r = request;
    r.target = compiler::pipeline::Target::OpenCL;
    return std::make_unique<OpenClLocalFft>(context_, r);
  }

 private:
  const cl::Context& context_;
};

#ifdef FFTC_HAVE_CUDA
namespace cu = backends::cuda;

class CudaArray final : public DeviceArray {
 public:
  CudaArray(const cu::Context& context, std::size_t bytes)
      : buffer(context.allocate(bytes)), bytes_(bytes) {}
  [[nodiscard]] std::size_t bytes() const override { return bytes_; }
  [[nodiscard]] void* address() const override {
    return reinterpret_cast<void*>(static_cast<std::uintptr_t>(buffer.pointer()));
  }
  cu::DeviceBuffer buffer;

 private:
  std::size_t bytes_;
};

const cu::DeviceBuffer& cuBuffer(const DeviceArray& a) {
  return dynamic_cast<const CudaArray&>(a).buffer;
}
cu::DeviceBuffer& cuBuffer(DeviceArray& a) { return dynamic_cast<CudaArray&>(a).buffer; }

class CudaLocalFft final : public LocalFft {
 public:
  CudaLocalFft(const cu::Context& context, const fftlib::FftRequest& request)
      : plan_(fftlib::CudaPlan::create(context, request)) {}
  // Enqueued on the default stream: the copies and the transport's calls that follow are
  // ordered after it; the plan synchronizes where it times or exchanges.
  void execute(const DeviceArray& in, DeviceArray& out) override {
    plan_.enqueue(cuBuffer(in), cuBuffer(out));
  }

 private:
  fftlib::CudaPlan plan_;
};

class CudaDevice final : public LocalDevice {
 public:
  explicit CudaDevice(const cu::Context& context) : context_(context) {}
  std::unique_ptr<DeviceArray> allocate(std::size_t bytes) override {
    return std::make_unique<CudaArray>(context_, bytes);
  }
  void upload(DeviceArray& to, const void* from, std::size_t bytes) override {
    cuBuffer(to).copyFromHost(from, bytes);
  }
  void download(const DeviceArray& from, void* to, std::size_t bytes) override {
    context_.synchronize();
    cuBuffer(from).copyToHost(to, bytes);
  }
  void copy(const DeviceArray& from, DeviceArray& to, const RectCopy& r) override {
    CUDA_MEMCPY3D m{};
    m.srcXInBytes = r.srcOrigin[0];
    m.srcY = r.srcOrigin[1];
    m.srcZ = r.srcOrigin[2];
    m.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    m.srcDevice = cuBuffer(from).pointer() + r.srcOffset;
    m.srcPitch = r.srcRowPitch;
    m.srcHeight = r.srcRowPitch ? r.srcSlicePitch / r.srcRowPitch : 0;
    m.dstXInBytes = r.dstOrigin[0];
    m.dstY = r.dstOrigin[1];
    m.dstZ = r.dstOrigin[2];
    m.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    m.dstDevice = cuBuffer(to).pointer() + r.dstOffset;
    m.dstPitch = r.dstRowPitch;
    m.dstHeight = r.dstRowPitch ? r.dstSlicePitch / r.dstRowPitch : 0;
    m.WidthInBytes = r.region[0];
    m.Height = r.region[1];
    m.Depth = r.region[2];
    const auto& state = *context_.state();
    state.makeCurrent();
    state.api.check(state.api.cuMemcpy3DAsync(&m, nullptr), "cuMemcpy3DAsync");
  }
  void synchronize() override { context_.synchronize(); }
  std::unique_ptr<LocalFft> plan(const fftlib::FftRequest& request) override {
    fftlib::FftRequest r = request;
    r.target = compiler::pipeline::Target::Cuda;
    return std::make_unique<CudaLocalFft>(context_, r);
  }

 private:
  const cu::Context& context_;
};
#endif

}  // namespace

std::unique_ptr<LocalDevice> openClDevice(const cl::Context& context) {
  return std::make_unique<OpenClDevice>(context);
}

#ifdef FFTC_HAVE_CUDA
std::unique_ptr<LocalDevice> cudaDevice(const cu::Context& context) {
  return std::make_unique<CudaDevice>(context);
}
#endif

}  // namespace fftc::distributed
