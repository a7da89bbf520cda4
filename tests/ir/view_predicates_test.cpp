// The view predicates (ir/view_predicates.h) on a table of patterns: which are data layout,
// which are views (no code), and which an output can be written through.
#include <gtest/gtest.h>

#include "ir/builders.h"
#include "ir/view_predicates.h"

namespace fftc::ir {
namespace {

struct Row {
  const char* what;
  FunPtr f;
  bool dataLayout, view, writable;
};

TEST(ViewPredicates, Table) {
  auto x = param("x");
  auto y = param("y");
  FunPtr gen = ArrayGen::make({4}, fun([](ExprPtr i, ExprPtr) { return i; }));
  FunPtr table = Table::make(Type::array(Type::floatType(), 2), {{1, 0}, {2, 0}});
  std::vector<Row> rows = {
      // the data-layout patterns
      {"split", split(2), true, true, true},
      {"join", join(), true, true, true},
      {"transpose", transpose(), true, true, true},
      {"id", id(), true, true, true},
      {"zip", zip(2), true, true, false},
      {"get", get(0), true, true, false},
      {"slide", slide(3, 1), true, true, false},
      {"pad wrap", pad(1, 1, PadBoundary::Wrap), true, true, false},
      {"pad constant: the constant is written", pad(1, 1, lit(0)), true, false, false},
      {"generator: elements computed", gen, true, false, false},
      {"table", table, true, false, false},
      // maps and lambdas of views
      {"map(split)", map(split(2)), false, true, true},
      {"map(zip)", map(zip(2)), false, true, false},
      {"map(map(transpose))", map(map(transpose())), false, true, true},
      {"map(neg): computes", map(neg()), false, false, false},
      {"fun x => join(split(x))", lambda({x}, join() << (split(2) << x)), false, true, true},
      {"fun x => transpose(map(split)(x))", lambda({x}, transpose() << (map(split(2)) << x)),
       false, true, true},
      {"fun x => slide(x)", lambda({x}, slide(2, 1) << x), false, true, false},
      {"fun x => split(y): not its own Param", lambda({x}, split(2) << y), false, true, false},
      {"fun (x, y) => zip(x, y)", lambda({x, y}, zip(x, y)), false, true, false},
      {"fun x => x", lambda({x}, x), false, true, true},
      {"fun x => neg(x)", lambda({x}, call(neg(), x)), false, false, false},
      {"fun x => (fun y => join(y))(x): an applied view",
       lambda({x}, call(lambda({y}, join() << y), x)), false, true, true},
      // loops and code
      {"mapSeq(split)", mapSeq(split(2)), false, false, false},
      {"reduce", reduce(add(), lit(0)), false, false, false},
      {"iterate", iterate(2, split(2)), false, false, false},
      {"toGlobal(mapSeq(id))", toGlobal(mapSeq(id())), false, false, false},
      {"builtin add", add(), false, false, false},
  };
  for (const auto& r : rows) {
    EXPECT_EQ(isDataLayout(*r.f), r.dataLayout) << r.what;
    EXPECT_EQ(isView(*r.f), r.view) << r.what;
    EXPECT_EQ(isWritableView(*r.f), r.writable) << r.what;
  }
}

TEST(ViewPredicates, Expressions) {
  auto xs = param("xs");
  EXPECT_TRUE(isViewExpr(xs));
  EXPECT_TRUE(isViewExpr(join() << (split(2) << xs)));
  EXPECT_TRUE(isViewExpr(zip(xs, transpose() << xs)));
  EXPECT_FALSE(isViewExpr(lit(1)));  // a literal is a value, not a view of anything
  EXPECT_FALSE(isViewExpr(map(neg()) << xs));
  EXPECT_FALSE(isViewExpr(split(2) << (map(neg()) << xs)));  // a view of computed values
  EXPECT_FALSE(isViewExpr(array(4, fun([](ExprPtr i, ExprPtr) { return i; }))));
}

}  // namespace
}  // namespace fftc::ir
