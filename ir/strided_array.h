// Strided views of flat arrays of scalars, the loops over them, and a pool of large arrays:
// the storage of the batched evaluation of closed expressions (batch_eval.h).
#pragma once

#include <algorithm>
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "ir/value.h"

namespace fftc::ir::batch {

using Cx = std::complex<double>;

// Scalars of one kind (Float, Double, ComplexFloat, ComplexDouble; reals with im = 0, float
// kinds holding float values, as Value does) as a strided view of shared data.
struct Arr {
  std::shared_ptr<const std::vector<Cx>> data;
  int64_t offset = 0;
  std::vector<int64_t> shape, strides;
  ValueKind kind = ValueKind::Double;

  int64_t count() const {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    return n;
  }
  bool dense() const {
    int64_t s = 1;
    for (size_t d = shape.size(); d-- > 0;) {
      if (shape[d] != 1 && strides[d] != s) return false;
      s *= shape[d];
    }
    return offset == 0 && static_cast<int64_t>(data->size()) == s;
  }
};

inline Arr denseArr(std::vector<Cx> values, std::vector<int64_t> shape, ValueKind kind) {
  Arr a;
  a.data = std::make_shared<const std::vector<Cx>>(std::move(values));
  a.strides.assign(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) a.strides[d - 1] = a.strides[d] * shape[d];
  a.shape = std::move(shape);
  a.kind = kind;
  return a;
}

// Large arrays an evaluation step no longer holds serve the next step (the passes of an FFT
// make arrays of the same sizes again and again): memory reused is not mapped and faulted in
// anew, which for arrays of tens of megabytes cost as much as computing them.
class ArrayPool {
 public:
  // n elements, their values unspecified.
  std::vector<Cx> take(size_t n) const {
    auto& list = *free_;
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].capacity() >= n) {
        std::vector<Cx> v = std::move(list[i]);
        list.erase(list.begin() + static_cast<ptrdiff_t>(i));
        v.resize(n);
        return v;
      }
    }
    return std::vector<Cx>(n);
  }
  // A view's data that goes back to the pool when its last view does (the pool may be gone).
  Arr share(std::vector<Cx> values, std::vector<int64_t> shape, ValueKind kind) const {
    if (values.size() < kMinPooled) return denseArr(std::move(values), std::move(shape), kind);
    std::weak_ptr<std::vector<std::vector<Cx>>> list = free_;
    auto* raw = new std::vector<Cx>(std::move(values));
    Arr a = denseArr({}, std::move(shape), kind);
    a.data = std::shared_ptr<const std::vector<Cx>>(raw, [list](const std::vector<Cx>* v) {
      auto* mine = const_cast<std::vector<Cx>*>(v);
      if (auto l = list.lock(); l && l->size() < kMaxPooled) l->push_back(std::move(*mine));
      delete mine;
    });
    return a;
  }

 private:
  static constexpr size_t kMinPooled = size_t{1} << 16, kMaxPooled = 8;
  std::shared_ptr<std::vector<std::vector<Cx>>> free_ =
      std::make_shared<std::vector<std::vector<Cx>>>();
};

// Calls f(i, offsets) for element i of `shape` (row-major) and the offsets of that element in
// each operand (views of that shape); the innermost dimension is one tight loop.
template <size_t K, class F>
void strided(const std::vector<int64_t>& shapeIn, const std::array<const Arr*, K>& ops, F f) {
  int64_t n = 1;
  for (int64_t s : shapeIn) n *= s;
  if (n == 0) return;
  std::array<int64_t, K> off;
  for (size_t k = 0; k < K; ++k) off[k] = ops[k]->offset;
  // Dimensions merged where every operand steps over the inner one whole (longer inner loops).
  std::vector<int64_t> shape;
  std::array<std::vector<int64_t>, K> strides;
  for (size_t e = 0; e < shapeIn.size(); ++e) {
    if (shapeIn[e] == 1) continue;
    bool merge = !shape.empty();
    for (size_t k = 0; k < K && merge; ++k)
      merge = strides[k].back() == shapeIn[e] * ops[k]->strides[e];
    if (merge) {
      shape.back() *= shapeIn[e];
      for (size_t k = 0; k < K; ++k) strides[k].back() = ops[k]->strides[e];
    } else {
      shape.push_back(shapeIn[e]);
      for (size_t k = 0; k < K; ++k) strides[k].push_back(ops[k]->strides[e]);
    }
  }
  const size_t d = shape.size();
  if (d == 0) {
    f(int64_t{0}, off);
    return;
  }
  std::array<int64_t, K> step;
  for (size_t k = 0; k < K; ++k) step[k] = strides[k][d - 1];
  const int64_t inner = shape[d - 1];
  std::vector<int64_t> idx(d, 0);
  for (int64_t i = 0; i < n; i += inner) {
    std::array<int64_t, K> o = off;
    for (int64_t j = 0; j < inner; ++j) {
      f(i + j, o);
      for (size_t k = 0; k < K; ++k) o[k] += step[k];
    }
    for (size_t e = d - 1; e-- > 0;) {
      if (++idx[e] < shape[e]) {
        for (size_t k = 0; k < K; ++k) off[k] += strides[k][e];
        break;
      }
      for (size_t k = 0; k < K; ++k) off[k] -= strides[k][e] * (shape[e] - 1);
      idx[e] = 0;
    }
  }
}

// The elements of a, row-major.
inline std::shared_ptr<const std::vector<Cx>> gather(const Arr& a) {
  if (a.dense()) return a.data;
  auto out = std::make_shared<std::vector<Cx>>(static_cast<size_t>(a.count()));
  const std::vector<Cx>& src = *a.data;
  strided<1>(a.shape, {&a}, [&](int64_t i, const std::array<int64_t, 1>& o) {
    (*out)[static_cast<size_t>(i)] = src[static_cast<size_t>(o[0])];
  });
  return out;
}

// `a` with dimension d padded to l + n + r elements, element j of it element source(j - l) of
// a's (source: interp::padSource for the pad's boundary), dense.
template <typename Source>
Arr padded(const Arr& a, size_t d, int64_t l, int64_t r, Source source) {
  const std::shared_ptr<const std::vector<Cx>> src = gather(a);
  int64_t outer = 1, inner = 1;
  for (size_t k = 0; k < d; ++k) outer *= a.shape[k];
  for (size_t k = d + 1; k < a.shape.size(); ++k) inner *= a.shape[k];
  const int64_t n = a.shape[d], len = l + n + r;
  std::vector<Cx> out(static_cast<size_t>(outer * len * inner));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < len; ++j) {
      const auto from = src->begin() + (o * n + source(j - l)) * inner;
      std::copy(from, from + inner, out.begin() + (o * len + j) * inner);
    }
  std::vector<int64_t> shape = a.shape;
  shape[d] = len;
  return denseArr(std::move(out), std::move(shape), a.kind);
}

// `a` with its last dimension padded by l and r copies of `fill` (a constant pad), dense.
inline Arr paddedConstant(const Arr& a, int64_t l, int64_t r, Cx fill) {
  const std::shared_ptr<const std::vector<Cx>> src = gather(a);
  const int64_t n = a.shape.back(), len = l + n + r, rows = n > 0 ? a.count() / n : 0;
  std::vector<Cx> out(static_cast<size_t>(rows * len), fill);
  for (int64_t o = 0; o < rows; ++o)
    std::copy(src->begin() + o * n, src->begin() + (o + 1) * n, out.begin() + o * len + l);
  std::vector<int64_t> shape = a.shape;
  shape.back() = len;
  return denseArr(std::move(out), std::move(shape), a.kind);
}

}  // namespace fftc::ir::batch
