// ELEVATE-style strategies: combinators that decide where and in which order rules apply, run
// under a step budget so that no strategy runs forever.
//
//   RewriteResult r = rewrite(program, seq(normalize(rules::mapFusion()), lowerDefault()));
//   if (r.budgetHit) std::cerr << r.report();
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ir/infer.h"
#include "rewrites/rule.h"

namespace fftc::rewrites {

struct RewriteOptions {
  // Successful rule applications and repeat iterations, together; past it every rule and
  // every repeat iteration fails, so strategies unwind with the program rewritten so far.
  int64_t maxSteps = 20000;
  ir::InferOptions infer;
};

// The state of one strategy run over one program.
class Engine {
 public:
  Engine(ExprPtr typedRoot, RewriteOptions options);

  const ExprPtr& root() const { return root_; }
  void setRoot(ExprPtr r) { root_ = std::move(r); }
  const RewriteOptions& options() const { return options_; }

  // Consumes one step; false (and budgetHit()) when the budget is spent.
  bool tick();
  bool budgetHit() const { return budgetHit_; }
  int64_t steps() const { return steps_; }

  // Applies a rule at a position (re-typing the program); logs "name @ path" on success.
  bool applyRule(const Rule& rule, const Path& at);

  std::vector<std::string>& log() { return log_; }

  // Undo support for combinators that fail after a partial success.
  struct Mark {
    ExprPtr root;
    size_t logSize;
  };
  Mark mark() const { return {root_, log_.size()}; }
  void restore(const Mark& m) {
    root_ = m.root;
    log_.resize(m.logSize);
  }

 private:
  ExprPtr root_;
  RewriteOptions options_;
  int64_t steps_ = 0;
  bool budgetHit_ = false;
  std::vector<std::string> log_;
};

// A strategy applied at a position of the engine's program: true on success; on failure the
// program is left as it was.
class Strategy {
 public:
  using Fn = std::function<bool(Engine&, const Path&)>;
  Strategy(std::string text, Fn fn);
  Strategy(const Rule& rule);  // NOLINT(google-explicit-constructor): a rule is a strategy

  const std::string& str() const { return text_; }
  bool operator()(Engine& e, const Path& at) const { return (*fn_)(e, at); }

 private:
  std::string text_;
  std::shared_ptr<const Fn> fn_;
};

// ---- combinators (ELEVATE's names; `try` is tryStrategy in C++)
Strategy identity();                   // id: succeeds, changes nothing
Strategy failure();                    // fail
Strategy seq(Strategy a, Strategy b);  // a ; b: both, or nothing
Strategy seq(std::vector<Strategy> ss);
Strategy lChoice(Strategy a, Strategy b);  // a <+ b: a, else b
Strategy tryStrategy(Strategy s);          // try(s) = s <+ id
Strategy repeat(Strategy s);               // s until it fails (always succeeds)
Strategy topDown(Strategy s);              // s at the first position, pre-order, where it succeeds
Strategy bottomUp(Strategy s);             // s at the first position, post-order
Strategy normalize(Strategy s);            // repeat(topDown(s)): until s applies nowhere
Strategy allChildren(Strategy s);          // all(s): s at every child
Strategy oneChild(Strategy s);             // one(s): s at the first child where it succeeds
Strategy someChild(Strategy s);            // some(s): s at every child where it succeeds, >= 1
Strategy atPath(Path p, Strategy s);       // at([i, j, ..], s): s at a position below
// allTopDown(s) (Stratego's alltd): s at every outermost position where it succeeds: pre-order,
// not descending into a position where s succeeded; succeeds if s succeeded somewhere.
Strategy allTopDown(Strategy s);
// outer(s): s, only where the position is not inside a loop body (map/reduce/iterate/generator
// function): the top level of a kernel, where its stages are.
Strategy outer(Strategy s);
// A strategy written in C++ that transforms the whole program at once (the named strategies'
// analyses); it must return its input pointer when it changes nothing and keep the program
// typed. Succeeds iff it changed something.
Strategy programPass(std::string name, std::function<ExprPtr(const ExprPtr&, Engine&)> pass);

// ---- running
struct RewriteResult {
  ExprPtr program;  // typed
  bool success = false;
  bool budgetHit = false;
  int64_t steps = 0;
  int64_t maxSteps = 0;
  std::vector<std::string> log;  // "rule @ path", in order
  std::string strategy;
  std::string report() const;  // one paragraph for humans (and `fftc compile -v`)
};

// Types `program` (untyped parts are inferred; free Params need types), runs `s` at the root,
// and checks that the result types to the same type.
RewriteResult rewrite(const ExprPtr& program, const Strategy& s,
                      const RewriteOptions& options = {});
// The same for a kernel: the body is rewritten, the parameters stay.
ir::LambdaPtr rewriteKernel(const ir::LambdaPtr& kernel, const Strategy& s,
                            const RewriteOptions& options = {}, RewriteResult* info = nullptr);

}  // namespace fftc::rewrites
