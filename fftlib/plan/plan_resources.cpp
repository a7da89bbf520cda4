// The runtime-independent part of running a compiled FFT plan (plan_resources.h).
#include "fftlib/plan/plan_resources.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "backends/common/device_error.h"
#include "compiler/exec/exec.h"

namespace fftc::fftlib {

using backends::UserError;

PlanLayout::PlanLayout(std::shared_ptr<const CompiledFft> plan) : plan_(std::move(plan)) {
  const auto& r = plan_->request;
  elements_ = static_cast<std::size_t>(r.size * r.batch);
  bytes_ = elements_ * static_cast<std::size_t>(complexBytes(r.precision));
  const auto& k = plan_->compiled;
  auto bound = compiler::exec::bindSizes(k, {});
  inputBytes_ = outputBytes_ = bytes_;
  for (const auto& b :
       k.buffers) {  // real plans: reals on one side, the half spectrum on the other
    const auto n = static_cast<std::size_t>(b.count.evaluate(bound) * b.elementBytes);
    if (b.name == plan_->inputBuffer) inputBytes_ = n;
    if (b.name == plan_->outputBuffer) outputBytes_ = n;
  }
  // real plans and advanced layouts: the larger of the two (the in-place scratch holds either)
  bytes_ = std::max(inputBytes_, outputBytes_);
  std::map<std::string, std::size_t, std::less<>> index;
  for (const auto& b : k.buffers) {
    if (b.role != "temp" && b.role != "table") continue;
    const int64_t count = b.count.evaluate(bound);
    Owned o;
    o.name = b.name;
    o.bytes = static_cast<std::size_t>(std::max<int64_t>(count * b.elementBytes, 16));
    if (b.role == "table") o.table = b.data;
    index[b.name] = owned_.size();
    owned_.push_back(std::move(o));
  }
  for (const auto& s : plan_->stages) {
    std::vector<Arg> args;
    for (const auto& a : s.args) {
      if (a == plan_->inputBuffer) {
        args.push_back({Arg::Kind::Input, 0});
      } else if (a == plan_->outputBuffer) {
        args.push_back({Arg::Kind::Output, 0});
      } else if (auto it = index.find(a); it != index.end()) {
        args.push_back({Arg::Kind::Owned, it->second});
      } else {
        throw std::logic_error(fmt::format("stage {}: unknown argument {}", s.kernel, a));
      }
    }
    args_.push_back(std::move(args));
  }
}

void PlanLayout::checkBuffer(std::size_t haveBytes, const char* what) const {
  const std::size_t need = std::string_view(what) == "input" ? inputBytes_ : outputBytes_;
  if (haveBytes < need)
    throw UserError(fmt::format("{} buffer of {} bytes: the plan {} needs {}", what, haveBytes,
                                plan_->compiled.name, need));
}

void PlanLayout::checkHost(std::size_t realBytes, std::size_t count) const {
  const auto& r = plan_->request;
  const auto want = static_cast<std::size_t>(complexBytes(r.precision) / 2);  // one scalar
  if (realBytes != want)
    throw UserError(fmt::format("plan {} is {}: run() needs std::complex<{}> data",
                                plan_->compiled.name, precisionName(r.precision),
                                want == 8 ? "double" : "float"));
  if (count * 2 * realBytes != inputBytes_)
    throw UserError(fmt::format("plan {}: {} input elements, expected {}", plan_->compiled.name,
                                count, inputBytes_ / (2 * realBytes)));
}

}  // namespace fftc::fftlib
