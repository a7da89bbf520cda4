// The analyses on the IR traversal (ir/traversal.h, ir/substitute.h) against values counted by
// hand: nesting depth, free Params, the child order, and the typed mutation step.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "ir/builders.h"
#include "ir/substitute.h"
#include "ir/traversal.h"

namespace fftc::ir {
namespace {

const Type kInt = Type::intType();

// A Param or Literal is 1; a FunCall or FunDecl is one more than its deepest child.
TEST(NestingDepth, HandCountedPrograms) {
  auto xs = param("xs", Type::array(kInt, 8));
  NestingDepth depth;
  EXPECT_EQ(depth.of(xs), 1);
  EXPECT_EQ(depth.of(lit(3)), 1);
  EXPECT_EQ(depth.of(add()), 1);                // a builtin has no children
  EXPECT_EQ(depth.of(lit(1) + lit(2)), 2);      // add(1, 2)
  EXPECT_EQ(depth.of(map(neg())), 2);           // map -> neg
  EXPECT_EQ(depth.of(map(neg()) << xs), 3);     // call -> map -> neg
  // call -> map -> fun -> add(v, 1) -> v: body 2, fun 3, map 4, call 5
  EXPECT_EQ(depth.of(map(fun([](ExprPtr v) { return v + lit(1); })) << xs), 5);
  // reduce's init counts as a child: reduce -> init add(1, add(2, 3)) is 3 deep, so reduce 4
  EXPECT_EQ(depth.of(reduce(add(), lit(1) + (lit(2) + lit(3)))), 4);
  // a chain of n negations of x: n + 1
  ExprPtr chain = xs;
  for (int i = 0; i < 50; ++i) chain = call(neg(), chain);
  EXPECT_EQ(depth.of(chain), 51);
}

// Each distinct node is computed once: a DAG of 2^60 paths takes 60 steps, and a second query
// is answered from memory.
TEST(IRFold, EachDistinctNodeOnce) {
  class CountingDepth : public NestingDepth {
   public:
    int calls = 0;

   protected:
    int call(const FunCall& c, const std::vector<const int*>& cs) override {
      ++calls;
      return NestingDepth::call(c, cs);
    }
  } depth;
  ExprPtr e = param("x", kInt);
  for (int i = 0; i < 60; ++i) e = e + e;  // add(e, e): both arguments the same node
  EXPECT_EQ(depth.of(e), 61);
  EXPECT_EQ(depth.calls, 60);
  EXPECT_EQ(depth.of(e), 61);
  EXPECT_EQ(depth.calls, 60);
}

std::set<std::string> names(const std::set<const Param*>& ps) {
  std::set<std::string> out;
  for (const Param* p : ps) out.insert(p->name());
  return out;
}

TEST(FreeParams, ClosedAndOpenLambdas) {
  auto x = param("x");
  auto y = param("y");
  auto xs = param("xs");
  using Names = std::set<std::string>;
  FreeParams free;
  EXPECT_EQ(names(free.of(lit(1) + lit(2))), Names{});
  EXPECT_EQ(names(free.of(x + y)), (Names{"x", "y"}));
  // fun x => x + 1 is closed; fun x => x + y reads y
  EXPECT_EQ(names(free.of(FunPtr(lambda({x}, x + lit(1))))), Names{});
  EXPECT_EQ(names(free.of(FunPtr(lambda({x}, x + y)))), Names{"y"});
  EXPECT_EQ(names(free.of(map(lambda({x}, x + y)) << xs)), (Names{"xs", "y"}));
  // reduce's init and pad's constant are read where the pattern is
  EXPECT_EQ(names(free.of(reduce(add(), y) << xs)), (Names{"xs", "y"}));
  EXPECT_EQ(names(free.of(FunPtr(pad(1, 1, y)))), Names{"y"});
  // the inner fun binds y, but the y it is applied to is the outer, free one
  EXPECT_EQ(names(free.of(FunPtr(lambda({x}, call(lambda({y}, x + y), y))))), Names{"y"});
  // a generator's function binds its index and size
  EXPECT_EQ(names(free.of(array(4, fun([](ExprPtr i, ExprPtr n) { return i + n; })))), Names{});
  EXPECT_EQ(names(free.of(array(4, fun([&](ExprPtr i, ExprPtr) { return i + y; })))),
            Names{"y"});
}

TEST(ChildrenOf, TheTraversalOrder) {
  auto xs = param("xs");
  FunPtr f = add();
  ExprPtr init = lit(0);
  FunPtr r = reduce(f, init);
  Children rc = childrenOf(r);
  ASSERT_EQ(rc.funs.size(), 1u);
  ASSERT_EQ(rc.exprs.size(), 1u);
  EXPECT_EQ(rc.funs[0], f);
  EXPECT_EQ(rc.exprs[0], init);
  ExprPtr ys = param("ys");
  ExprPtr z = zip(xs, ys);
  Children zc = childrenOf(z);
  ASSERT_EQ(zc.funs.size(), 1u);
  EXPECT_EQ(zc.funs[0]->kind(), FunKind::Zip);
  EXPECT_EQ(zc.exprs, (std::vector<ExprPtr>{xs, ys}));
  EXPECT_TRUE(childrenOf(xs).funs.empty() && childrenOf(xs).exprs.empty());
}

// mutateChildrenTyped: arguments before the callee, which gives the call its type; a call
// already of that type comes back as itself.
TEST(IRMutator, TheTypedStepTypesArgumentsFirst) {
  class IntTyper : public IRMutator {
   public:
    std::vector<std::string> seen;
    using IRMutator::mutate;
    ExprPtr mutate(const ExprPtr& e) override {
      if (const auto* l = e->as<Literal>()) seen.push_back(l->valueStr());
      return mutateChildrenTyped(e);
    }

   protected:
    TypedFun mutateCallee(const FunCall& c, std::vector<ExprPtr>& args) override {
      seen.push_back(c.f()->name() + "/" + std::to_string(args.size()));
      return {c.f(), kInt};
    }
  } typer;
  ExprPtr e = lit(1) + (lit(2) + lit(3));
  ASSERT_FALSE(e->type());
  ExprPtr typed = typer.mutate(e);
  ASSERT_NE(typed, e);
  EXPECT_EQ(typed->type(), kInt);
  EXPECT_EQ(typed->as<FunCall>()->arg(1)->type(), kInt);
  EXPECT_EQ(typer.seen, (std::vector<std::string>{"1", "2", "3", "add/2", "add/2"}));
  EXPECT_EQ(typer.mutate(typed), typed);
}

}  // namespace
}  // namespace fftc::ir
