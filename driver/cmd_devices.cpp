// fftc devices: OpenCL platforms/devices and CUDA devices with their limits (CLI.md).
#include <boost/json.hpp>
#include <fmt/format.h>

#include "backends/opencl/device_info.h"
#include "driver/commands.h"
#include "driver/options.h"
#ifdef FFTC_HAVE_CUDA
#include "backends/cuda/device.h"
#endif

namespace fftc::driver {

int runDevices(const Args& args) {
  bool json = false;
  po::options_description desc("fftc devices options");
  desc.add_options()("json", po::bool_switch(&json), "print one JSON object");
  po::variables_map vm;
  if (!parseOptions(args, "fftc devices [--json]", desc, nullptr, vm)) return kSuccess;

  auto cl = backends::opencl::listDevices();
  boost::json::object out;
  out["opencl"] = backends::opencl::devicesToJson(cl);
  std::string text = "OpenCL:\n";
  text += cl.empty() ? "  no OpenCL platform found (is an ICD such as pocl-opencl-icd installed?)\n"
                     : backends::opencl::formatDevices(cl);
#ifdef FFTC_HAVE_CUDA
  auto cuda = backends::cuda::listDevices();
  out["cuda"] = backends::cuda::toJson(cuda);
  text += backends::cuda::toText(cuda);
#else
  out["cuda"] = boost::json::object{{"available", false},
                                    {"reason", "this fftc was built without the CUDA backend"}};
  text += "CUDA:\n  this fftc was built without the CUDA backend\n";
#endif
  if (json)
    fmt::print("{}\n", boost::json::serialize(out));
  else
    fmt::print("{}", text);
  return kSuccess;
}

}  // namespace fftc::driver
