// Random well-typed low-level programs, in the spirit of LIFT's prog_gen: inputs of random
// sizes, chains of data-layout patterns (split, join, transpose, pad, slide, zip), parallel and
// sequential maps, sequential reductions and user-function-free scalar arithmetic, in one or
// two stages. Header-only so that other suites (rewrites) can include it.
//
//   RandomProgramGenerator gen(seed);
//   RandomProgram p = gen.next();   // p.kernel: an untyped ir::Lambda with typed parameters
//
// With `highLevel` the same programs use map / reduce instead of mapGlobal / mapSeq /
// reduceSeq: inputs for lowering strategies, whose results codegen then runs.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ir/builders.h"

namespace fftc::testing {

struct RandomProgram {
  ir::LambdaPtr kernel;      // parameters typed; body untyped (run ir::inferTypes)
  std::string description;   // the choices made, for failure messages
};

class RandomProgramGenerator {
 public:
  explicit RandomProgramGenerator(uint64_t seed, bool highLevel = false)
      : rng_(seed), high_(highLevel) {}

  RandomProgram next() {
    using namespace fftc::ir;
    desc_.clear();
    static const int64_t sizes[] = {12, 16, 18, 24, 32, 36, 48, 64};
    const int64_t n = sizes[pick(std::size(sizes))];
    auto x = param("x", Type::array(Type::floatType(), n));
    std::vector<ParamPtr> params{x};
    Shape s{{n}, false};
    ExprPtr v = x;
    if (coin()) {
      auto y = param("y", Type::array(Type::floatType(), n));
      params.push_back(y);
      v = zip(x, y);
      s.tuple = true;
      note("zip");
    }
    v = layoutChain(v, s, 3);
    v = compute(v, s);
    if (coin()) {  // a second stage reading the first one's result in another arrangement
      v = layoutChain(v, s, 2);
      v = compute(v, s);
    }
    v = outputLayout(v, s);
    return {lambda(params, v), desc_};
  }

 private:
  struct Shape {
    std::vector<int64_t> dims;  // 1 or 2 dimensions, outermost first
    bool tuple = false;         // elements are (float, float) pairs
  };

  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  bool coin() { return pick(2) == 0; }
  void note(const std::string& s) { desc_ += (desc_.empty() ? "" : " ; ") + s; }

  std::vector<int64_t> properDivisors(int64_t n) {
    std::vector<int64_t> d;
    for (int64_t k = 2; k < n; ++k)
      if (n % k == 0) d.push_back(k);
    return d;
  }

  ir::ExprPtr layoutChain(ir::ExprPtr v, Shape& s, int maxOps) {
    using namespace fftc::ir;
    int ops = static_cast<int>(pick(static_cast<size_t>(maxOps) + 1));
    for (int k = 0; k < ops; ++k) {
      if (s.dims.size() == 1) {
        int64_t n = s.dims[0];
        auto divs = properDivisors(n);
        size_t choice = pick(4);
        if (choice <= 1 && !divs.empty()) {
          int64_t d = divs[pick(divs.size())];
          v = split(d) << v;
          s.dims = {n / d, d};
          note("split(" + std::to_string(d) + ")");
        } else if (choice == 2) {
          int64_t l = static_cast<int64_t>(pick(3)), r = static_cast<int64_t>(pick(3));
          size_t b = pick(s.tuple ? 3 : 4);
          static const PadBoundary bs[] = {PadBoundary::Wrap, PadBoundary::Clamp,
                                           PadBoundary::Mirror};
          if (b == 3) {
            v = pad(l, r, litF(0.25)) << v;
            note("pad(" + std::to_string(l) + ", " + std::to_string(r) + ", 0.25f)");
          } else {
            v = pad(l, r, bs[b]) << v;
            note("pad(" + std::to_string(l) + ", " + std::to_string(r) + ", " +
                 padBoundaryName(bs[b]) + ")");
          }
          s.dims = {n + l + r};
        } else if (n >= 4) {
          int64_t size = 2 + static_cast<int64_t>(pick(2)), step = 1 + static_cast<int64_t>(pick(2));
          v = slide(size, step) << v;
          s.dims = {(n - size + step) / step, size};
          note("slide(" + std::to_string(size) + ", " + std::to_string(step) + ")");
        }
      } else {
        if (coin()) {
          v = join() << v;
          s.dims = {s.dims[0] * s.dims[1]};
          note("join");
        } else {
          v = transpose() << v;
          s.dims = {s.dims[1], s.dims[0]};
          note("transpose");
        }
      }
    }
    return v;
  }

  // Random arithmetic over the leaves, depth <= 2.
  ir::ExprPtr scalar(const std::vector<ir::ExprPtr>& leaves, int depth) {
    using namespace fftc::ir;
    static const double constants[] = {0.5, 1.5, -2.0, 3.0};
    if (depth == 0 || pick(3) == 0) {
      if (pick(4) == 0) return litF(constants[pick(4)]);
      return leaves[pick(leaves.size())];
    }
    ExprPtr a = scalar(leaves, depth - 1), b = scalar(leaves, depth - 1);
    switch (pick(3)) {
      case 0: return a + b;
      case 1: return a - b;
      default: return a * b;
    }
  }

  // f: element -> float
  ir::FunPtr elementFun(bool tuple) {
    using namespace fftc::ir;
    if (tuple) {
      return fun([this](ExprPtr p) {
        return scalar({get(0, p), get(1, p)}, 2) + get(0, p);
      });
    }
    return fun([this](ExprPtr a) { return scalar({a}, 2) + a; });
  }

  ir::ExprPtr compute(ir::ExprPtr v, Shape& s) {
    using namespace fftc::ir;
    FunPtr f = elementFun(s.tuple);
    auto par = [&](FunPtr g) { return high_ ? map(g) : mapGlobal(g); };
    auto seq = [&](FunPtr g) { return high_ ? map(g) : mapSeq(g); };
    if (s.dims.size() == 1) {
      v = par(f) << v;
      note("mapGlobal(f)");
    } else if (coin()) {
      v = par(seq(f)) << v;
      note("mapGlobal(mapSeq(f))");
    } else {
      FunPtr g = f;
      FunPtr step = fun([g](ExprPtr acc, ExprPtr e) { return acc + call(g, e); });
      const bool high = high_;
      v = par(fun([step, high](ExprPtr row) {
            return (high ? reduce(step, litF(0.0)) : reduceSeq(step, litF(0.0))) << row;
          })) << v;
      s.dims = {s.dims[0]};
      note("mapGlobal(reduceSeq(acc + f(e), 0))");
    }
    s.tuple = false;
    return v;
  }

  // Layout after the last computation: written through output views.
  ir::ExprPtr outputLayout(ir::ExprPtr v, Shape& s) {
    using namespace fftc::ir;
    if (s.dims.size() == 2) {
      size_t c = pick(3);
      if (c == 0) {
        v = join() << v;
        note("out: join");
      } else if (c == 1) {
        v = transpose() << v;
        note("out: transpose");
      } else if (c == 2 && coin()) {
        v = join() << transpose() << v;
        note("out: join o transpose");
      }
    } else if (auto divs = properDivisors(s.dims[0]); !divs.empty() && coin()) {
      int64_t d = divs[pick(divs.size())];
      v = transpose() << split(d) << v;
      note("out: transpose o split(" + std::to_string(d) + ")");
    }
    return v;
  }

  std::mt19937_64 rng_;
  bool high_ = false;
  std::string desc_;
};

}  // namespace fftc::testing
