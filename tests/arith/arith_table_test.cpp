// Table-driven simplifier tests (TVM test_arith_rewrite_simplify style): rows of
// (expression, expected) over variables with ranges, rows that must NOT simplify, the LIFT
// arithexpr suite's cases ported as facts, and the LIFT FFT paper's listing 4 shapes.
// Every expected value is written by hand; a row prints input, output and expected on failure.
#include <gtest/gtest.h>

#include <functional>

#include "ir/arith/arith_expr.h"

namespace fftc::ir {
namespace {

using E = ArithExpr;

// The variables of the tables and their ranges.
struct Vars {
  E x = E::unboundedVar("x"), y = E::unboundedVar("y"), z = E::unboundedVar("z");
  E N = E::sizeVar("N"), M = E::sizeVar("M");
  E i = E::loopVar("i", N);            // [0, N)
  E j = E::loopVar("j", M + 2);        // [0, M+2)
  E n = E::loopVar("n", 2 * N);        // [0, 2N)
  E id = E::loopVar("id", E(int64_t{1} << 23));
  E k = E::loopVar("k", 2);
  E a = E::loopVar("a", 8), b = E::loopVar("b", 4), c = E::loopVar("c", 16);
  E s = E::var("s", -4, 4);
  E t = E::var("t", 1, 5);
  E w = E::var("w", 3, E::posInf());   // LIFT's w in [3, inf)
  E xw = E::loopVar("xw", w);          // [0, w)
  E i3 = E::loopVar("i3", 3);
  E g = E::var("g", 0, E::posInf()), p = E::var("p", 0, E::posInf()), q = E::var("q", 0, E::posInf());
  E r = E::var("r", 0, E::posInf());
  E w0 = E::var("w0", 0, E::posInf());
  E x0 = E::loopVar("x0", w0);         // [0, w0)
  E k0 = E::var("k0", 0, E::posInf());
  E n2 = E::var("n2", 2, E::posInf());
  E x2 = E::loopVar("x2", n2);         // [0, n2)
  E vO = E::var("vO", 1, E::posInf());
  E glSize = E::sizeVar("gl_size");
  E glId = E::loopVar("gl_id", glSize);
  E jj = E::loopVar("jj", N);          // [0, N)
  E ii = E::loopVar("ii", M + 2);      // [0, M+2)
  E jp = E::loopVar("jp", N + 2);      // [0, N+2)
  E u = E::loopVar("u", 32);
};

struct Row {
  const char* text;
  std::function<E()> in, expected;
};
#define ROW(in, expected) Row{#in "  ->  " #expected, [&] { return E(in); }, [&] { return E(expected); }}

std::vector<Row> simplifyRows(const Vars& v) {
  const auto& [x, y, z, N, M, i, j, n, id, k, a, b, c, s, t, w, xw, i3, g, p, q, r, w0, x0, k0, n2, x2,
               vO, glSize, glId, jj, ii, jp, u] = v;
  return {
      // --- canonical forms: constants folded, like terms collected, sums expanded
      ROW(x + x, 2 * x),
      ROW(x - x, 0),
      ROW(2 * x + 3 * x, 5 * x),
      ROW(x + 1 + 2, x + 3),
      ROW((x + 1) - 1, x),
      ROW(3 * (x + 2), 3 * x + 6),
      ROW((x + y) * 2 - 2 * y, 2 * x),
      ROW(x * 0, 0),
      ROW(x * 1, x),
      ROW(0 + x, x),
      ROW(E(6) * 7, 42),
      ROW((E(2) + 3) * 4, 20),
      ROW(-(-x), x),
      ROW(x - (x - y), y),
      ROW((x + y) * (x - y), x * x - y * y),
      ROW(2 * j + M * j + j, 3 * j + M * j),
      ROW(j + j, 2 * j),
      ROW(M * j - j * M, 0),
      ROW(x * y * 6 + x * y * 5, 11 * x * y),  // LIFT Regressions.expr7
      ROW((E(0) + 1) * (E(10) + 2) + E(10) / 2, 17),  // LIFT testSimplification
      ROW(y * (x + 1) - x * y, y),
      // --- constant division and modulo: floor semantics
      ROW(E(7) / 2, 3),
      ROW(E(-7) / 2, -4),
      ROW(E(7) / -2, -4),
      ROW(E(-7) / -2, 3),
      ROW(E(-7) % 2, 1),
      ROW(E(7) % -2, -1),
      ROW(E(-7) % -2, -1),
      ROW(E(0) / 5, 0),
      ROW((9 * (E(2) + 15) / 13) - 108, -97),  // LIFT Regressions.expr3
      // --- unit and negative divisors
      ROW(x / 1, x),
      ROW(x % 1, 0),
      ROW(x / -1, -x),
      ROW(x % -1, 0),
      ROW(x / -4, (-x) / 4),
      ROW(x % -4, -((-x) % 4)),
      // --- range rules
      ROW(a % 8, a),
      ROW(a / 8, 0),
      ROW(i % N, i),
      ROW(i / N, 0),
      ROW(b % 8, b),
      ROW(b / 4, 0),
      ROW((a + 8) / 8, 1),
      ROW((a + 8) % 8, a),
      ROW((s + 4) / 8, 0),
      // Floor, not truncation: s - 4 lies in [-8, 0), so the quotient is -1 (truncation: 0)
      // and the remainder s + 4 (truncation: s - 4). LIFT's truncating rules get this wrong.
      ROW((s - 4) / 8, -1),
      ROW((s - 4) % 8, s + 4),
      ROW(t / 5, 0),
      ROW((t - 1) % 4, t - 1),
      ROW(xw % w, xw),
      ROW(xw / w, 0),
      ROW((xw + w) / w, 1),
      ROW((xw + w) % w, xw),
      ROW(i % (N + 1), i),
      ROW((i + N) % N, i),
      ROW((N + i) / N, 1),
      ROW((2 * N - 1 - i) / N, 1),
      ROW((i - N) / N, -1),
      ROW((i - N) % N, i),
      ROW(min(s, 3), s),
      // --- (n*j + i) / n with symbolic n
      ROW((N * x + i) / N, x),
      ROW((N * x + i) % N, i),
      ROW((M * x + 2 * x + j) / (M + 2), x),
      ROW((M * x + 2 * x + j) % (M + 2), j),
      ROW((j + 2 * x + M * x) % (2 + M), j),  // LIFT modMultipleOfReverse
      ROW((N * x) / N, x),
      ROW((N * x) % N, 0),
      ROW((N * x + N) / N, x + 1),
      ROW((N * x + i + N) / N, x + 1),
      ROW((N * x + y) / N, x + y / N),
      ROW((N * x + y) % N, y % N),
      ROW((2 * N + M * N) / (2 + M), N),  // LIFT simpleFactorizationSimplification
      // --- LIFT TestDivisionSimplification (variables made non-negative: a possibly-zero
      //     divisor such as 42 + a with a unbounded keeps its division node here)
      ROW((42 * q + g * q) / (42 + g), q),
      ROW((g + 42 * q + p * q) / (42 + p), q + g / (42 + p)),
      ROW(((4 + 2 * vO) / (2 + vO) + 3 * glId) / 3, glId),  // issueNumber4
      // (1 + xw + w) / (2 + w) has no quotient-free form (it is 0 iff xw = 0); the multiple
      // of the divisor is still taken out.
      ROW((1 + xw + w) / (2 + w), 1 + (xw - 1) / (w + 2)),
      // --- LIFT TestExpr binomial filter and acoustic cases
      ROW((k0 + x0 + w0) % (k0 + w0), x0),
      ROW((4 + x0 + w0) % (2 + w0), 2 + x0),
      ROW((5 + 2 * g) % (2 + g), 1),
      ROW((2 + i3 + w) / (2 + w), 1),
      ROW((4 + xw + w) / (2 + w), 1),
      ROW((5 + 2 * g) / (2 + g), 2),
      ROW((2 * g + g * p) / (2 + p), g),
      ROW((2 * g + g * p) % (2 + p), 0),
      ROW(((g % (2 + p)) + 2 * q + q * p) % (2 + p), g % (2 + p)),
      ROW(((g % (2 + p)) + 2 * q + q * p) / (2 + p), q),
      ROW(((2 * g + g * p) / (2 + p)) % (2 + r), g % (2 + r)),
      ROW((4 + 2 * g + 2 * p + g * p) / (2 + p), 2 + g),
      // issue141: floor modulo is periodic, so the whole constant goes.
      ROW((3 + ((-3 + x) % 3)) % 3, x % 3),
      ROW((3 + (-2 * x)) % 3, x % 3),
      ROW((3 - x) % 3, (-x) % 3),
      ROW(((x * y * z) / 32) / 4096, (x * y * z) / 131072),  // issue01
      ROW((x / M) * M + x % M, x),                             // Division
      ROW((x / y) * y + x % y, x),                             // remainderAndModulo
      ROW(((x2 - 1) % n2 + n2) % n2, (x2 - 1) % n2),           // unnecessaryMod
      // LIFT modTransposeTwicePad*: j in [0, N), i in [0, M+2)
      ROW((((M * jj + 2 * jj + ii) % (2 + M)) + ((M * jj + 2 * jj + ii) / (2 + M)) * 2 +
           ((M * jj + 2 * jj + ii) / (2 + M)) * M) / (2 + M) % N,
          jj),
      ROW((((M * jj + 2 * jj + ii) % (2 + M)) + ((M * jj + 2 * jj + ii) / (2 + M)) * 2 +
           ((M * jj + 2 * jj + ii) / (2 + M)) * M) % (2 + M) +
              (((M * jj + 2 * jj + ii) % (2 + M)) + ((M * jj + 2 * jj + ii) / (2 + M)) * 2 +
               ((M * jj + 2 * jj + ii) / (2 + M)) * M) / (N * M + 2 * N),
          ii),
      // LIFT modTransposePadTransposePad*: j in [0, N+2), i in [0, M+2)
      ROW((((2 * ii + ii * N + jp) / (2 + N)) + (((2 * ii + ii * N + jp) % (2 + N)) * 2) +
           (((2 * ii + ii * N + jp) % (2 + N)) * M)) % (2 + M),
          ii),
      ROW((((2 * ii + ii * N + jp) / (2 + N)) + (((2 * ii + ii * N + jp) % (2 + N)) * 2) +
           (((2 * ii + ii * N + jp) % (2 + N)) * M)) / (2 + M),
          jp),
      ROW((((((-1 + jp) % N) + N) % N) * 2 + ((((-1 + jp) % N) + N) % N) * M + ii) % (2 + M), ii),
      ROW((((((-1 + jp) % N) + N) % N) + (ii * N)) % N, (jp - 1) % N),
      ROW(((((-1 + jp) % N) + N) % N) / N, 0),
      ROW(((x * 4) + y) / 8 * 8 + ((x * 4) + y) % 8, 4 * x + y),  // Regressions.expr11
      ROW(8 * ((4 * (x + y)) / 16) * 16 + 8 * ((4 * (x + y)) % 16), 32 * x + 32 * y),
      ROW((899 + 4 * u) % 128, 3 + 4 * u),  // Regressions.expr16
      ROW((899 + 4 * u) / 128, 7),          // Regressions.expr17
      ROW((x * -1) / 2, (-x) / 2),          // Regressions.expr1 (evaluated below too)
      // --- LIFT FFT paper, listing 4: id in [0, 2^23), k in [0, 2)
      ROW((id / 2048) * 2048 + id % 2048, id),
      ROW((2 * (id % 2048) + k) / 2, id % 2048),
      ROW((id / 2048 + 4096 * k + 8192 * (id % 2048)) / 4096, k + 2 * (id % 2048)),
      ROW((2 * (id % 2048) + k) % 2, k),
      ROW((id / 2048 + 4096 * k + 8192 * (id % 2048)) % 4096, id / 2048),
      // --- Halide-style division rules
      ROW((x / 4) / 2, x / 8),
      ROW((x / N) / M, x / (N * M)),
      ROW((x % 32) / 4, (x / 4) % 8),
      ROW((x % (8 * N)) / 8, (x / 8) % N),
      ROW((x / 4) * 4 + x % 4, x),
      ROW(x - (x / 4) * 4, x % 4),
      ROW((x / 8) * 8 + ((x / 2) % 4) * 2 + x % 2, x),
      ROW((x / 2) * 2 + x % 2 + 1, x + 1),
      ROW(3 * ((x / 4) * 4 + x % 4), 3 * x),
      ROW((n / N) * N + n % N, n),
      ROW((i / N) * N + i % N, i),
      ROW(y * (x / 4) * 4 + y * (x % 4), x * y),
      ROW((4 * x) / 2, 2 * x),
      ROW((4 * x + 2) / 4, x),
      ROW((6 * x) / (3 * y), (2 * x) / y),
      ROW((6 * x + 3) / 3, 2 * x + 1),
      ROW((x + 17) / 8, (x + 1) / 8 + 2),
      ROW((x - 1) / 4, (x + 3) / 4 - 1),
      ROW((4 * x + 2) / 8, x / 2),
      ROW((8 * x + a) / 16, x / 2),
      ROW((a * 4 + b) / 4, a),
      ROW((c * 16 + a * 2 + k) / 2, 8 * c + a),
      ROW((x + y) / 1, x + y),
      // --- modulo rules
      ROW((x * 8) % 8, 0),
      ROW((x + 8 * y) % 8, x % 8),
      ROW((x + 17) % 8, (x + 1) % 8),
      ROW((4 * x) % 8, 4 * (x % 2)),
      ROW((4 * x + 2) % 8, 4 * (x % 2) + 2),
      ROW((8 * x + a) % 16, 8 * (x % 2) + a),
      ROW((x % 16) % 4, x % 4),
      ROW((x % 4) % 16, x % 4),
      ROW((x % (4 * N)) % N, x % N),
      ROW((a * 4 + b) % 4, b),
      ROW((5 * x) % 4, x % 4),
      ROW((-7 * x) % 4, x % 4),
      ROW((x - 8) % 8, x % 8),
      // --- min and max
      ROW(min(a, a + 1), a),
      ROW(max(a, a + 1), a + 1),
      ROW(min(i, N), i),
      ROW(max(i, N), N),
      ROW(max(i, N - 1), N - 1),
      ROW(min(x, x), x),
      ROW(min(E(3), E(5)), 3),
      ROW(max(E(-2), E(7)), 7),
      ROW(min(a, 8), a),
      ROW(max(a, 8), 8),
      ROW(max(a, -1), a),
      ROW(min(x, min(x, y)), min(x, y)),
      ROW(max(x, min(x, y)), x),
      ROW(min(x + 1, x - 1), x - 1),
      ROW(max(2 * N, N), 2 * N),
      ROW(min(i, M) - min(M, i), 0),
  };
}

// Rows that must not simplify: the result is the node `kind(lhs, rhs)` with the operands as
// given (already canonical), e.g. because the range does not allow it.
struct NoRow {
  const char* text;
  ArithKind kind;
  std::function<E()> lhs, rhs;
};
#define KEEP(kind, lhs, rhs) NoRow{#kind "(" #lhs ", " #rhs ")", ArithKind::kind, [&] { return E(lhs); }, [&] { return E(rhs); }}

std::vector<NoRow> keepRows(const Vars& v) {
  const auto& [x, y, z, N, M, i, j, n, id, k, a, b, c, s, t, w, xw, i3, g, p, q, r, w0, x0, k0, n2, x2,
               vO, glSize, glId, jj, ii, jp, u] = v;
  return {
      KEEP(FloorMod, 2 - x, 3),         // nothing to drop (x unbounded)
      KEEP(FloorMod, 3 - i, 4),
      KEEP(FloorDiv, n, N),             // n in [0, 2N): quotient 0 or 1
      KEEP(FloorMod, n, N),
      KEEP(FloorDiv, x, 4),
      KEEP(FloorMod, x, 4),
      KEEP(FloorMod, x2 - 1, n2),       // LIFT modVarSubtract: wrong under floor (x2 = 0)
      KEEP(FloorDiv, s, 8),             // s in [-4, 4): quotient -1 or 0
      KEEP(FloorMod, s, 8),
      KEEP(FloorDiv, x + 1, 4),
      KEEP(FloorDiv, M * x + j, M + 2), // not a multiple: M*x + j = (M+2)*x + (j - 2*x)
      KEEP(FloorDiv, x, y),             // y may be zero or negative
      KEEP(FloorMod, x, y),
      KEEP(FloorDiv, 0, y),             // possibly-zero divisor: the division stays
      KEEP(FloorDiv, y, y),
      KEEP(FloorMod, y, y),
      KEEP(Min, x, y),
      KEEP(Min, i, M),
      KEEP(Max, s, 0),
      KEEP(FloorDiv, a + b, 8),         // a + b in [0, 10]
      KEEP(FloorDiv, i, N - 1),         // N - 1 may be 0
      KEEP(FloorMod, xw - 1, w),        // xw = 0 gives w - 1
      KEEP(FloorMod, 2 * a, 3),
      KEEP(FloorMod, -x, 4),            // 3*x % 4 would be no simpler
      KEEP(FloorDiv, x / 4, -x),        // divisor of unknown sign
      KEEP(FloorDiv, id, 3),
  };
}

TEST(ArithTable, SimplifyRows) {
  Vars v;
  std::vector<Row> rows = simplifyRows(v);
  EXPECT_GE(rows.size(), 120u);
  for (const Row& row : rows) {
    SCOPED_TRACE(row.text);
    try {
      E got = row.in(), want = row.expected();
      EXPECT_EQ(got, want) << "input:    " << row.text << "\n  output:   " << got.str()
                           << "\n  expected: " << want.str();
    } catch (const ArithError& e) {
      ADD_FAILURE() << "threw " << e.what();
    }
  }
}

TEST(ArithTable, RowsThatMustNotSimplify) {
  Vars v;
  std::vector<NoRow> rows = keepRows(v);
  EXPECT_GE(rows.size(), 20u);
  for (const NoRow& row : rows) {
    SCOPED_TRACE(row.text);
    E l = row.lhs(), r = row.rhs(), got;
    switch (row.kind) {
      case ArithKind::FloorDiv: got = l / r; break;
      case ArithKind::FloorMod: got = l % r; break;
      case ArithKind::Min: got = min(l, r); break;
      default: got = max(l, r); break;
    }
    bool same = got.kind() == row.kind && got.operands().size() == 2 &&
                ((got.operands()[0] == l && got.operands()[1] == r) ||
                 (row.kind >= ArithKind::Min && got.operands()[0] == r && got.operands()[1] == l));
    EXPECT_TRUE(same) << "input: " << row.text << "\n  output: " << got.str() << "\n  expected no change";
  }
  // A sum that stays a sum: 2*j + M*j is not a product (j*(M+2)) in canonical form.
  E s = 2 * v.j + v.M * v.j;
  EXPECT_EQ(s.kind(), ArithKind::Sum) << s.str();
  EXPECT_EQ(s.operands().size(), 2u);
  // (3 - x) % 3 may drop the multiple 3 (floor is periodic) but never becomes x % 3 or -(x % 3).
  E m = (3 - v.x) % 3;
  EXPECT_NE(m, v.x % 3);
  EXPECT_NE(m, -(v.x % 3));
  EXPECT_EQ(m.evaluate({{v.x.varId(), 1}}), 2);
}

// The values of some LIFT regressions, checked by evaluation (LIFT Regressions expr1..3).
TEST(ArithTable, LiftRegressionValues) {
  Vars v;
  std::unordered_map<uint64_t, int64_t> env{{v.x.varId(), 12}, {v.y.varId(), 57}, {v.z.varId(), 2}};
  EXPECT_EQ(((v.x * -1) / v.z).evaluate(env), -6);
  EXPECT_EQ((((1 + (-1 * v.y)) % v.z) - 1).evaluate(env), -1);  // floor: -56 % 2 = 0
  EXPECT_EQ(((v.x * v.y * v.z) / 32 / 4096).substitute({{v.x.varId(), 512}, {v.y.varId(), 2048}, {v.z.varId(), 2048}}),
            E(16384));
  // Floor versus truncation: (x - 1) % n2 at x = 0 is n2 - 1, not -1.
  EXPECT_EQ(((v.x2 - 1) % v.n2).evaluate({{v.x2.varId(), 0}, {v.n2.varId(), 5}}), 4);
  EXPECT_EQ((E(-7) / 2).constant(), -4);
}

}  // namespace
}  // namespace fftc::ir
