// What running a compiled FFT plan needs on any runtime (the OpenCL Plan in fft_api.h, the
// CudaPlan in cuda_plan.h): the buffers the plan owns (temporaries; tables with their data),
// which buffer each stage argument names, the in-place scratch, and the checks of user buffers
// and host data. `Buffer` is the runtime's device buffer type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compiler/pipeline/phase_times.h"
#include "fftlib/plan/planner.h"

namespace fftc::fftlib {

// The runtime-independent part.
class PlanLayout {
 public:
  explicit PlanLayout(std::shared_ptr<const CompiledFft> plan);

  [[nodiscard]] const CompiledFft& info() const { return *plan_; }
  // batch x N complex elements, and their bytes: the size of an input or output buffer.
  [[nodiscard]] std::size_t elements() const { return elements_; }
  [[nodiscard]] std::size_t bytes() const { return bytes_; }
  // The bytes of the input and of the output buffer: bytes() for complex plans; for real ones
  // (FftRequest::real) the reals and the half spectrum, for advanced layouts (FftRequest::
  // inLayout, outLayout) the buffers' extents; bytes() is the larger.
  [[nodiscard]] std::size_t inputBytes() const { return inputBytes_; }
  [[nodiscard]] std::size_t outputBytes() const { return outputBytes_; }

  // A temporary or a table the plan allocates (at least 16 bytes); `table` holds a table's
  // contents and is empty for a temporary.
  struct Owned {
    std::string name;
    std::size_t bytes = 0;
    std::span<const std::uint8_t> table;
  };
  [[nodiscard]] const std::vector<Owned>& owned() const { return owned_; }

  // Where one argument of a stage comes from: the user's input or output, or owned()[index].
  struct Arg {
    enum class Kind : std::uint8_t { Input, Output, Owned } kind = Kind::Input;
    std::size_t index = 0;
  };
  [[nodiscard]] const std::vector<Arg>& stageArgs(std::size_t stage) const {
    return args_.at(stage);
  }

  // UserError when a device buffer of `haveBytes` is smaller than inputBytes() (`what` =
  // "input") or outputBytes() (otherwise); `what` names it.
  void checkBuffer(std::size_t haveBytes, const char* what) const;
  // UserError unless host data has `count` complex values of the plan's precision
  // (`realBytes` = sizeof(float) or sizeof(double)) filling inputBytes().
  void checkHost(std::size_t realBytes, std::size_t count) const;

 private:
  std::shared_ptr<const CompiledFft> plan_;
  std::size_t elements_ = 0;
  std::size_t bytes_ = 0;
  std::size_t inputBytes_ = 0, outputBytes_ = 0;
  std::vector<Owned> owned_;
  std::vector<std::vector<Arg>> args_;
};

// The plan's own device buffers on one runtime, and the binding of stage arguments to them.
template <typename Buffer>
class PlanBuffers {
 public:
  using Allocate = std::function<std::unique_ptr<Buffer>(std::size_t bytes)>;
  using Upload = std::function<void(Buffer&, std::span<const std::uint8_t>)>;

  // Allocates the temporaries and tables and uploads the tables (FFTC_TIMINGS: the phases
  // "device buffers: allocate" and "device buffers: upload tables", the part of a warm plan
  // that grows with the batch and the tables).
  PlanBuffers(const PlanLayout& layout, Allocate allocate, const Upload& upload)
      : layout_(&layout), allocate_(std::move(allocate)) {
    for (const auto& o : layout.owned()) {
      {
        compiler::pipeline::PhaseTimer timer("device buffers: allocate");
        owned_.push_back(allocate_(o.bytes));
      }
      if (o.table.empty()) continue;
      compiler::pipeline::PhaseTimer timer("device buffers: upload tables");
      upload(*owned_.back(), o.table);
    }
  }

  // The buffers of stage `stage`'s arguments, in order.
  [[nodiscard]] std::vector<const Buffer*> stageArgs(std::size_t stage, const Buffer& in,
                                                     const Buffer& out) const {
    std::vector<const Buffer*> out_;
    for (const auto& a : layout_->stageArgs(stage)) {
      switch (a.kind) {
        case PlanLayout::Arg::Kind::Input:
          out_.push_back(&in);
          break;
        case PlanLayout::Arg::Kind::Output:
          out_.push_back(&out);
          break;
        case PlanLayout::Arg::Kind::Owned:
          out_.push_back(owned_.at(a.index).get());
          break;
      }
    }
    return out_;
  }

  // In place: the copy of the input the plan reads when it is not inPlaceSafe (made on first
  // use, bytes(); the caller copies the input into it).
  [[nodiscard]] Buffer& scratch() {
    if (!scratch_) scratch_ = allocate_(layout_->bytes());
    return *scratch_;
  }

 private:
  const PlanLayout* layout_;
  Allocate allocate_;
  std::vector<std::unique_ptr<Buffer>> owned_;
  std::unique_ptr<Buffer> scratch_;
};

}  // namespace fftc::fftlib
