// The advanced layouts of a request (planner.h: DataLayout, bufferLayout): FFTW's plan_many
// embed/stride/dist -> the strided buffer layout the code generator addresses through
// (compiler/codegen/codegen.h: BufferLayout).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>

#include "backends/common/device_error.h"
#include "fftlib/plan/planner.h"

namespace fftc::fftlib {

using backends::UserError;

std::vector<int64_t> sideDims(const FftRequest& r, bool input) {
  auto dims = requestDims(r);
  const bool halfSide = r.real && (input == (r.direction == Direction::Inverse));
  if (halfSide) dims.back() = dims.back() / 2 + 1;
  return dims;
}

namespace {

const char* sideName(bool input) { return input ? "input" : "output"; }

// embed with the default filled in, validated.
std::vector<int64_t> embedOf(const FftRequest& r, bool input) {
  const DataLayout& l = input ? r.inLayout : r.outLayout;
  const auto dims = sideDims(r, input);
  if (l.embed.empty()) return dims;
  if (l.embed.size() != dims.size())
    throw UserError(fmt::format("{} embed [{}]: {} entries for {} dimensions", sideName(input),
                                fmt::join(l.embed, ", "), l.embed.size(), dims.size()));
  for (size_t k = 0; k < dims.size(); ++k)
    if (l.embed[k] < 1 || (k > 0 && l.embed[k] < dims[k]))
      throw UserError(fmt::format(
          "{} embed [{}]: entry {} is {}, below the dimension {} it holds", sideName(input),
          fmt::join(l.embed, ", "), k, l.embed[k], k == 0 ? 1 : dims[k]));
  return l.embed;
}

constexpr int64_t kMaxExtent = (int64_t{1} << 31) - 1;

int64_t checkedProduct(const std::vector<int64_t>& v, const char* what) {
  int64_t p = 1;
  for (int64_t x : v) {
    if (p > kMaxExtent / x) throw UserError(fmt::format("{}: more than 2^31 - 1 elements", what));
    p *= x;
  }
  return p;
}

// A view (DataLayout::viewDims): the BufferLayout itself, checked like plan_many's below.
compiler::codegen::BufferLayout viewLayout(const FftRequest& r, bool input) {
  const DataLayout& l = input ? r.inLayout : r.outLayout;
  const char* side = sideName(input);
  if (!l.embed.empty() || l.stride != 1 || l.dist != 0)
    throw UserError(fmt::format("{} layout: a view goes without embed, stride and dist", side));
  int64_t elements = r.batch;
  for (int64_t d : sideDims(r, input)) elements *= d;
  if (l.viewStrides.size() != l.viewDims.size() ||
      checkedProduct(l.viewDims, "the view") != elements)
    throw UserError(fmt::format("{} view [{}]: {} dims of product other than the {} elements",
                                side, fmt::join(l.viewDims, ", "), l.viewDims.size(), elements));
  for (size_t d = 0; d < l.viewDims.size(); ++d)
    if (l.viewDims[d] < 1 || l.viewStrides[d] < 1 || l.viewStrides[d] > kMaxExtent)
      throw UserError(fmt::format("{} view: dim {} of {} with stride {}", side, d,
                                  l.viewDims[d], l.viewStrides[d]));
  return {l.viewDims, l.viewStrides};
}

// plan_many's embed/stride/dist: the batch, then the transform's dims.
compiler::codegen::BufferLayout manyLayout(const FftRequest& r, bool input) {
  const DataLayout& l = input ? r.inLayout : r.outLayout;
  const char* side = sideName(input);
  if (l.stride < 1) throw UserError(fmt::format("{} stride {}: must be at least 1", side, l.stride));
  if (l.dist < 0) throw UserError(fmt::format("{} dist {}: must be at least 0", side, l.dist));
  if (l.stride > kMaxExtent || l.dist > kMaxExtent)
    throw UserError(fmt::format("{} stride {} or dist {}: above 2^31 - 1", side, l.stride, l.dist));
  const auto dims = sideDims(r, input);
  const auto embed = embedOf(r, input);
  const int64_t embedded = checkedProduct(embed, "the embedded array");
  compiler::codegen::BufferLayout b;
  b.dims.push_back(r.batch);
  b.strides.push_back(l.dist > 0 ? l.dist : embedded * l.stride);
  int64_t inner = 1;
  std::vector<int64_t> strides(dims.size());
  for (size_t k = dims.size(); k-- > 0;) {
    strides[k] = l.stride * inner;
    inner *= embed[k];
  }
  b.dims.insert(b.dims.end(), dims.begin(), dims.end());
  b.strides.insert(b.strides.begin() + 1, strides.begin(), strides.end());
  return b;
}

}  // namespace

std::optional<compiler::codegen::BufferLayout> bufferLayout(const FftRequest& r, bool input) {
  const DataLayout& l = input ? r.inLayout : r.outLayout;
  if (l.isDefault()) return std::nullopt;
  const char* side = sideName(input);
  const compiler::codegen::BufferLayout b = l.isView() ? viewLayout(r, input) : manyLayout(r, input);
  // The extent, without overflow: every term below 2^31.
  int64_t extent = 1;
  for (size_t d = 0; d < b.dims.size(); ++d) {
    const int64_t n = b.dims[d] - 1;
    if (n > 0 && b.strides[d] > (kMaxExtent - extent) / n)
      throw UserError(fmt::format("{} layout ({}): more than 2^31 - 1 elements in the buffer",
                                  side, layoutText(r, input)));
    extent += n * b.strides[d];
  }
  if (!input) {
    // No two elements at one address: in the order of the strides (dimensions of one element
    // left out), each stride reaches past everything the smaller ones span.
    std::vector<size_t> order(b.dims.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(),
              [&](size_t x, size_t y) { return b.strides[x] < b.strides[y]; });
    int64_t span = 0;  // the largest offset of the dimensions so far
    for (size_t d : order) {
      if (b.dims[d] == 1) continue;
      if (b.strides[d] <= span)
        throw UserError(fmt::format(
            "output layout ({}): two elements of the output would share an address", layoutText(r, input)));
      span += (b.dims[d] - 1) * b.strides[d];
    }
  }
  return b;
}

std::string layoutText(const FftRequest& r, bool input) {
  const DataLayout& l = input ? r.inLayout : r.outLayout;
  if (l.isView())
    return fmt::format("view [{}] strides [{}]", fmt::join(l.viewDims, ", "),
                       fmt::join(l.viewStrides, ", "));
  std::vector<int64_t> embed = l.embed.empty() ? sideDims(r, input) : l.embed;
  int64_t dist = l.dist;
  if (dist == 0) {
    dist = l.stride;
    for (int64_t e : embed) dist *= e;
  }
  return fmt::format("embed [{}], stride {}, dist {}", fmt::join(embed, ", "), l.stride, dist);
}

}  // namespace fftc::fftlib
