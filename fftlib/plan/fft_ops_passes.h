// The multi-pass form of a row map of fft operations (fft_ops.h): the planner's hierarchical
// (four-step) plan, a kernel per level and transform, the work around the transforms in them.
//
// A row map map(g) <<: X (B rows) whose row function is a chain of transforms and pointwise
// segments,
//   g(row) = post <<: op_k <<: mid_{k-1} <<: ... <<: op_1 <<: pre(row)
// (each segment maps and zips of the row's views, the previous transform's result and arrays
// of the row's size that do not depend on the row; post may end in a crop), whose transforms
// (all of one size n) the planner plans as hierarchical (hierarchicalLocal, n = n1·n2, or
// hierarchicalLocal3, n = n1·n2·n3), becomes those kernels per transform as hierarchical.fdl
// lays them out: `pre` is read in the first kernel's tile loads (the row's views and pads: a
// zero pad of whole columns is the columns' pad, neither stored nor read), each `mid` and
// `post` is computed in the last kernel of the transform before it, on its outputs, and post's
// crop is a view the last kernel writes through (what it drops is not stored). A transform after
// another takes its levels in the other order (n = n2·n1), so that its first kernel transforms
// the lines the other's last kernel does (n1 elements n/n1 apart): those two kernels are one
// (the other's last level, the segment between them, this one's first level and twiddles), and
// a two-level convolution is 3 kernels, not 4, a three-level one 5, not 6.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "compiler/frontend/frontend.h"
#include "fftlib/plan/fft_ops.h"
#include "ir/expr.h"

namespace fftc::fftlib::detail {

// An fft operation: the sign of its exponent, its size, its precision.
struct FftOp {
  int sign = -1;
  int64_t n = 1;
  ir::ScalarKind precision = ir::ScalarKind::Float;
};

// The operation of an fft call `c` of sign `sign`, read from its typed argument ([complex]n, n
// a constant). UserError otherwise.
FftOp opOf(const ir::FunCall& c, int sign);

// The library's FFT of op.n as a typed function [complex]n -> [complex]n: `call` is a
// common.fdl expression of a function, e.g. "fftStockhamTwiddle([4, 4], -1)" (fft_ops.cpp).
ir::FunPtr libraryFft(const FftOp& op, const std::string& call);

// The multi-pass form of `call` (above), or null when the call is not such a row map or the
// planner's plan of its transforms is not hierarchical. Appends a line per
// transform to out.operations and the kernels' work-group shapes to out.stageLocal.
ir::ExprPtr multiPassForm(const ir::FunCall& call, const FftRequest& limits, ExpandedFftOps& out);

}  // namespace fftc::fftlib::detail
