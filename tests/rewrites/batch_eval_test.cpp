// The batched evaluation of closed expressions (ir/batch_eval.h), which foldClosed tables come
// from: bit for bit the reference interpreter's values, in float and double, on the FFT
// library's own closed arrays (Bluestein's chirp spectrum through the matrix and the twiddle
// Stockham FFTs) and on layouts, reductions, tuples and scalar builtins; what it does not do
// (integer arrays) it declines, and the interpreter evaluates.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "compiler/frontend/frontend.h"
#include "ir/batch_eval.h"
#include "ir/interpreter.h"
#include "ir/printer.h"
#include "tests/rewrites/test_util.h"

namespace fftc::ir {
namespace {

namespace fe = compiler::frontend;

// The body of `kernel k(x: [complex]1) = EXPR` (x unused: EXPR is closed), with the FFT
// library's common.fdl imported.
ExprPtr closedExpr(const std::string& expr, ScalarKind precision) {
  const auto dir = rewrites::testing::fftlibDir();
  fe::ElaborateOptions opts;
  opts.precision = precision;
  auto prog = fe::compileSource("import \"common.fdl\"\nkernel k(x: [complex]1) = " + expr,
                                (dir / "batch_eval_test.fdl").string(), opts);
  return prog.kernels.at(0).lambda->body();
}

struct Row {
  const char* expr;
  bool batched;  // whether the batched evaluator does it (else it declines)
};

const Row kRows[] = {
    // Bluestein's chirp spectrum as fftlib writes it (RepOfB, complexMatVecMult, reduce)
    {"fftStockhamRange([4, 4, 2], 0, 3, -1) <<: chirpKernel(13, 32, -1)", true},
    {"fftStockhamRange([8, 3], 0, 2, 1) <<: chirpKernel(11, 24, 1)", true},
    // the twiddle-table Stockham FFT (RepOfTwiddle, elementwise products, factored DFTs)
    {"fftStockhamTwiddle([4, 2], -1) <<: chirpKernel(5, 8, 1)", true},
    // the language's fft of rows and of a whole array (the exact DFT: ir/fft_operation.h)
    {"map(fft) <<: split(8) <<: chirpKernel(13, 32, -1)", true},
    {"ifft(chirpKernel(11, 24, 1))", true},
    // layouts, a reduction over a whole row, tuples, real results, scalar builtins
    {"join <<: transpose <<: map(map(fun z => z * z + z)) <<: split(4) <<: chirpVector(16, 1)",
     true},
    {"map(fun r => reduce(add, {0.0, 0.0}) <<: r) <<: split(4) <<: chirpVector(16, -1)", true},
    {"map(fun z => re(z) * 2.0 - im(z) / 3.0) <<: chirpVector(8, 1)", true},
    {"map(fun (a, b) => conj(a) * b - a) <<: zip(chirpVector(6, 1), chirpVector(6, -1))", true},
    {"map(map(fun z => z * (1.0 / 7.0))) <<: dftMatrix(3, 1)", true},
    // pads (the repeated rows of fftlib's tables: wrap; clamp, mirror), of rows and of whole
    // arrays, and constant pads (the twiddle-table butterfly's 1 before each row)
    {"pad(1, 3, wrap) <<: chirpVector(5, 1)", true},
    {"pad(2, 2, clamp) <<: split(4) <<: chirpVector(8, -1)", true},
    {"map(pad(3, 4, mirror)) <<: split(3) <<: chirpVector(6, 1)", true},
    {"pad(0, 2, {0.0, 0.0}) <<: chirpVector(4, 1)", true},
    {"map(pad(1, 0, {1.0, 0.0})) <<: split(4) <<: chirpVector(8, -1)", true},
    // an integer array: declined
    {"map(fun k => cispi(k * 1.0 / 8)) <<: array(8, fun (k, n) => k)", false},
};

TEST(BatchEval, TheInterpretersBitsOrDeclined) {
  for (ScalarKind p : {ScalarKind::Float, ScalarKind::Double}) {
    for (const Row& row : kRows) {
      SCOPED_TRACE(std::string(row.expr) + (p == ScalarKind::Float ? " (float)" : " (double)"));
      ExprPtr e;
      try {
        e = closedExpr(row.expr, p);
      } catch (const std::exception& err) {
        if (!row.batched) continue;  // a row the language refuses proves nothing here
        FAIL() << err.what();
      }
      const Value v = interpret(e, {});
      Type elem = e->type();
      while (elem.isArray()) elem = elem.element();
      const auto want = elem.isComplex() ? v.toComplexVector() : [&] {
        auto r = v.toRealVector();
        return std::vector<std::complex<double>>(r.begin(), r.end());
      }();
      const auto got = evaluateBatched(e);
      if (!row.batched) {
        EXPECT_FALSE(got.has_value()) << print(e);
        continue;
      }
      ASSERT_TRUE(got.has_value()) << "declined: " << print(e);
      ASSERT_EQ(got->size(), want.size());
      for (size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ((*got)[i], want[i]) << "element " << i;  // the same bits (no NaN here)
    }
  }
}

}  // namespace
}  // namespace fftc::ir
