// The IR traversal (ir/traversal.h): a mutator that changes nothing hands back the very node
// it was given, one that changes a leaf rebuilds only the path to it, and a check that catches
// "new node, no change".
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ir/beta_reduce.h"
#include "ir/builders.h"
#include "ir/substitute.h"
#include "ir/traversal.h"

namespace fftc::ir {
namespace {

const Type kInt = Type::intType();

// A program with every kind of child: callee and arguments, a lambda's body, map's f, reduce's
// init, a constant pad, a generator's f, iterate's f, a toX wrapper.
ExprPtr everyChildKind(const ParamPtr& xs) {
  FunPtr scale = fun([](ExprPtr v) { return v * lit(3); }, {"v"});
  ExprPtr padded = pad(1, 1, lit(7)) << (map(scale) << xs);
  ExprPtr gen = array(10, fun([](ExprPtr i, ExprPtr n) { return i + n; }, {"i", "n"}));
  ExprPtr steps = iterate(2, map(fun([](ExprPtr v) { return v + lit(1); }))) << padded;
  ExprPtr total = reduce(add(), lit(0) + lit(1)) << gen;
  ExprPtr shifted = map(fun([&](ExprPtr g) { return g + total; })) << gen;
  return call(toPrivate(map(fun([](ExprPtr p) { return get(0, p) * get(1, p); }))),
              zip(steps, shifted));
}

// Every Expr and FunDecl reached from e, in traversal order.
class Collect : public IRVisitor {
 public:
  using IRVisitor::visit;
  void visit(const ExprPtr& e) override {
    out.push_back(e.get());
    visitChildren(e);
  }
  void visit(const FunPtr& f) override {
    out.push_back(f.get());
    visitChildren(f);
  }
  std::vector<const void*> out;
};
std::vector<const void*> nodes(const ExprPtr& e) {
  Collect c;
  c.visit(e);
  return c.out;
}

// The check every mutation test uses: mutating `e` with m changed nothing (the caller knows
// that it should not), so the result must be `e` itself and not an equal copy.
::testing::AssertionResult keepsIdentity(IRMutator& m, const ExprPtr& e) {
  ExprPtr r = m.mutate(e);
  if (r == e) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "a new node where nothing changed";
}

// Rebuilds every FunCall although nothing changes: what the identity contract forbids.
class CopyingMutator : public IRMutator {
 public:
  using IRMutator::mutate;
  ExprPtr mutate(const ExprPtr& e) override {
    ExprPtr r = mutateChildren(e);
    const auto* c = r->as<FunCall>();
    if (!c) return r;
    return FunCall::make(c->f(), c->args(), c->loc(), c->type());
  }
};

// Replaces the literal 7 by 8 and nothing else.
class SevenToEight : public IRMutator {
 public:
  using IRMutator::mutate;
  ExprPtr mutate(const ExprPtr& e) override {
    if (const auto* l = e->as<Literal>();
        l && l->litKind() == LiteralKind::Int && l->intValue().constant() == 7)
      return lit(8);
    return mutateChildren(e);
  }
};

TEST(IRMutator, NothingChangedGivesTheSameNode) {
  auto xs = param("xs", Type::array(kInt, 8));
  ExprPtr e = everyChildKind(xs);
  IRMutator base;
  EXPECT_TRUE(keepsIdentity(base, e));
  IRGraphMutator graph;
  EXPECT_TRUE(keepsIdentity(graph, e));
  SevenToEight noSeven;  // a mutator that would change something, on a program without 7
  EXPECT_TRUE(keepsIdentity(noSeven, map(neg()) << xs));
  // the library's mutations, where they have nothing to do
  EXPECT_EQ(substitute(e, {}), e);
  EXPECT_EQ(substitute(e, {{param("other").get(), lit(1)}}), e);
  ExprPtr normal = betaEta(e);
  EXPECT_EQ(betaEta(normal), normal);
}

TEST(IRMutator, TheCheckCatchesNewNodesWithoutChange) {
  auto xs = param("xs", Type::array(kInt, 8));
  CopyingMutator copying;
  EXPECT_FALSE(keepsIdentity(copying, everyChildKind(xs)));
  EXPECT_FALSE(keepsIdentity(copying, map(neg()) << xs));
}

TEST(IRMutator, AChangeRebuildsOnlyThePathToIt) {
  auto xs = param("xs", Type::array(kInt, 8));
  ExprPtr untouched = map(neg()) << xs;
  FunPtr withSeven = pad(1, 1, lit(7));
  ExprPtr e = zip(untouched, withSeven << xs);
  SevenToEight m;
  ExprPtr r = m.mutate(e);
  ASSERT_NE(r, e);
  const auto* c = r->as<FunCall>();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->f(), e->as<FunCall>()->f());  // zip itself unchanged
  EXPECT_EQ(c->arg(0), untouched);            // the sibling is the same node
  const auto* padCall = c->arg(1)->as<FunCall>();
  EXPECT_NE(padCall->f(), withSeven);
  EXPECT_EQ(padCall->arg(0), xs);
  const auto* value = padCall->f()->as<Pad>()->value()->as<Literal>();
  EXPECT_EQ(value->intValue().constant(), 8);
  EXPECT_EQ(m.mutate(r), r);  // nothing left to change
}

TEST(IRMutator, ChildOrderAndParentHooks) {
  // children: the callee's nested expressions (function children first), then the arguments
  auto xs = param("xs", Type::array(kInt, 8));
  FunPtr f = fun([](ExprPtr v) { return v + lit(1); }, {"v"});
  ExprPtr init = lit(5);
  ExprPtr e = reduce(f, init) << xs;
  std::vector<std::string> seen;
  class Recorder : public IRMutator {
   public:
    explicit Recorder(std::vector<std::string>& seen) : seen_(seen) {}
    using IRMutator::mutate;
    ExprPtr mutate(const ExprPtr& e) override {
      if (const auto* p = e->as<Param>()) seen_.push_back("param " + p->name());
      if (const auto* l = e->as<Literal>()) seen_.push_back("literal " + l->valueStr());
      return mutateChildren(e);
    }

   protected:
    FunPtr mutateFunChild(const FunDecl& parent, const FunPtr& child) override {
      seen_.push_back(parent.name() + " -> " + child->name());
      return mutate(child);
    }
    ExprPtr mutateExprChild(const FunDecl& parent, const ExprPtr& child) override {
      seen_.push_back(parent.name() + " -> expr");
      return mutate(child);
    }

   private:
    std::vector<std::string>& seen_;
  } rec(seen);
  EXPECT_EQ(rec.mutate(e), e);
  std::vector<std::string> want = {"reduce -> fun", "fun -> expr", "param v", "literal 1",
                                   "reduce -> expr", "literal 5", "param xs"};
  EXPECT_EQ(seen, want);
}

TEST(IRGraphMutator, SharedSubtreesAreMappedOnceAndStayShared) {
  auto xs = param("xs", Type::array(kInt, 8));
  ExprPtr shared = pad(1, 1, lit(7)) << xs;
  ExprPtr e = zip(shared, shared);
  int visits = 0;
  class Counting : public IRGraphMutator {
   public:
    explicit Counting(int& n) : n_(n) {}

   protected:
    ExprPtr mutateNew(const ExprPtr& e) override {
      if (const auto* l = e->as<Literal>(); l && l->intValue().constant() == 7) {
        ++n_;
        return lit(8);
      }
      return mutateChildren(e);
    }

   private:
    int& n_;
  } m(visits);
  ExprPtr r = m.mutate(e);
  EXPECT_EQ(visits, 1);
  const auto* c = r->as<FunCall>();
  EXPECT_NE(c->arg(0), shared);
  EXPECT_EQ(c->arg(0), c->arg(1));
}

TEST(IRVisitor, VisitsEveryNodeAndStops) {
  auto xs = param("xs", Type::array(kInt, 8));
  ExprPtr e = everyChildKind(xs);
  auto all = nodes(e);
  EXPECT_EQ(all.front(), e.get());
  EXPECT_NE(std::find(all.begin(), all.end(), xs.get()), all.end());
  EXPECT_TRUE(containsFun(e, [](const FunDecl& f) { return f.kind() == FunKind::Iterate; }));
  EXPECT_TRUE(containsFun(e, [](const FunDecl& f) { return f.kind() == FunKind::ArrayGen; }));
  EXPECT_FALSE(containsFun(e, [](const FunDecl& f) { return f.kind() == FunKind::Slide; }));
  // the pad's constant is reached (a Builtin inside an expression child)
  ExprPtr padded = pad(0, 1, lit(1) + lit(2)) << xs;
  EXPECT_TRUE(containsFun(padded, [](const FunDecl& f) { return f.kind() == FunKind::Builtin; }));
  int calls = 0;
  containsFun(e, [&](const FunDecl&) { return ++calls == 2; });
  EXPECT_EQ(calls, 2);  // stopped at the first match
}

}  // namespace
}  // namespace fftc::ir
