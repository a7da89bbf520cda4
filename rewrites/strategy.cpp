// Strategy combinators and the engine that runs them.
#include "rewrites/strategy.h"

#include "ir/printer.h"

namespace fftc::rewrites {

Engine::Engine(ExprPtr typedRoot, RewriteOptions options)
    : root_(std::move(typedRoot)), options_(std::move(options)) {}

bool Engine::tick() {
  if (steps_ >= options_.maxSteps) {
    budgetHit_ = true;
    return false;
  }
  ++steps_;
  return true;
}

bool Engine::applyRule(const Rule& rule, const Path& at) {
  if (budgetHit_) return false;
  Applied a = applyAt(rule, root_, at, {options_.infer});
  if (!a.changed) return false;
  if (!tick()) return false;  // not committed: the budget is spent
  root_ = a.program;
  log_.push_back(rule.name() + " @ " + pathStr(at));
  return true;
}

Strategy::Strategy(std::string text, Fn fn)
    : text_(std::move(text)), fn_(std::make_shared<const Fn>(std::move(fn))) {}

Strategy::Strategy(const Rule& rule)
    : Strategy(rule.name(), [rule](Engine& e, const Path& p) { return e.applyRule(rule, p); }) {}

namespace {
Path child(const Path& p, uint32_t i) {
  Path q = p;
  q.push_back(i);
  return q;
}
size_t childCount(Engine& e, const Path& p) {
  ExprPtr x = exprAt(e.root(), p);
  return x ? rewrites::childCount(x) : 0;
}
}  // namespace

Strategy identity() {
  return Strategy("id", [](Engine&, const Path&) { return true; });
}

Strategy failure() {
  return Strategy("fail", [](Engine&, const Path&) { return false; });
}

Strategy seq(Strategy a, Strategy b) {
  std::string text = a.str() + "; " + b.str();
  return Strategy(text, [a, b](Engine& e, const Path& p) {
    auto m = e.mark();
    if (!a(e, p)) return false;
    if (b(e, p)) return true;
    e.restore(m);
    return false;
  });
}

Strategy seq(std::vector<Strategy> ss) {
  if (ss.empty()) return identity();
  Strategy s = ss[0];
  for (size_t i = 1; i < ss.size(); ++i) s = seq(s, ss[i]);
  return s;
}

Strategy lChoice(Strategy a, Strategy b) {
  return Strategy("lChoice(" + a.str() + ", " + b.str() + ")",
                  [a, b](Engine& e, const Path& p) { return a(e, p) || b(e, p); });
}

Strategy tryStrategy(Strategy s) {
  return Strategy("try(" + s.str() + ")", [s](Engine& e, const Path& p) {
    s(e, p);
    return true;
  });
}

Strategy repeat(Strategy s) {
  return Strategy("repeat(" + s.str() + ")", [s](Engine& e, const Path& p) {
    while (e.tick()) {
      if (!s(e, p)) break;
    }
    return true;
  });
}

namespace {
// The walks below share one path buffer (TrackedPath) instead of copying the path for every
// child: both the copy and a lookup of a new path cost O(depth), which made a normalize over a
// pipe of n steps cubic in n (issue 20).
bool preOrderFirst(Engine& e, const Strategy& s, TrackedPath& at) {
  if (e.budgetHit()) return false;
  if (s(e, at.path())) return true;
  for (uint32_t i = 0; i < childCount(e, at.path()); ++i) {
    at.push(i);
    bool ok = preOrderFirst(e, s, at);
    at.pop();
    if (ok) return true;
  }
  return false;
}

bool postOrderFirst(Engine& e, const Strategy& s, TrackedPath& at) {
  if (e.budgetHit()) return false;
  for (uint32_t i = 0; i < childCount(e, at.path()); ++i) {
    at.push(i);
    bool ok = postOrderFirst(e, s, at);
    at.pop();
    if (ok) return true;
  }
  return s(e, at.path());
}

bool preOrderOutermost(Engine& e, const Strategy& s, TrackedPath& at) {
  if (e.budgetHit()) return false;
  if (s(e, at.path())) return true;
  bool any = false;
  for (uint32_t i = 0; i < childCount(e, at.path()); ++i) {
    at.push(i);
    any = preOrderOutermost(e, s, at) || any;
    at.pop();
  }
  return any;
}
}  // namespace

Strategy topDown(Strategy s) {
  return Strategy("topDown(" + s.str() + ")", [s](Engine& e, const Path& p) {
    TrackedPath at(p);
    return preOrderFirst(e, s, at);
  });
}

Strategy bottomUp(Strategy s) {
  return Strategy("bottomUp(" + s.str() + ")", [s](Engine& e, const Path& p) {
    TrackedPath at(p);
    return postOrderFirst(e, s, at);
  });
}

Strategy normalize(Strategy s) {
  Strategy r = repeat(topDown(s));
  return Strategy("normalize(" + s.str() + ")", [r](Engine& e, const Path& p) { return r(e, p); });
}

Strategy allChildren(Strategy s) {
  return Strategy("all(" + s.str() + ")", [s](Engine& e, const Path& p) {
    auto m = e.mark();
    for (uint32_t i = 0; i < childCount(e, p); ++i) {
      if (!s(e, child(p, i))) {
        e.restore(m);
        return false;
      }
    }
    return true;
  });
}

Strategy oneChild(Strategy s) {
  return Strategy("one(" + s.str() + ")", [s](Engine& e, const Path& p) {
    for (uint32_t i = 0; i < childCount(e, p); ++i)
      if (s(e, child(p, i))) return true;
    return false;
  });
}

Strategy someChild(Strategy s) {
  return Strategy("some(" + s.str() + ")", [s](Engine& e, const Path& p) {
    bool any = false;
    for (uint32_t i = 0; i < childCount(e, p); ++i) any = s(e, child(p, i)) || any;
    return any;
  });
}

Strategy atPath(Path at, Strategy s) {
  return Strategy("at([" + pathStr(at) + "], " + s.str() + ")", [at, s](Engine& e, const Path& p) {
    Path q = p;
    q.insert(q.end(), at.begin(), at.end());
    if (!exprAt(e.root(), q)) return false;
    return s(e, q);
  });
}

Strategy allTopDown(Strategy s) {
  return Strategy("allTopDown(" + s.str() + ")", [s](Engine& e, const Path& p) {
    TrackedPath at(p);
    return preOrderOutermost(e, s, at);
  });
}

Strategy outer(Strategy s) {
  return Strategy("outer(" + s.str() + ")", [s](Engine& e, const Path& p) {
    RuleContext ctx(e.root(), p);
    if (ctx.insideLoop()) return false;
    return s(e, p);
  });
}

Strategy programPass(std::string name, std::function<ExprPtr(const ExprPtr&, Engine&)> pass) {
  return Strategy(name, [name, pass](Engine& e, const Path& p) {
    if (e.budgetHit()) return false;
    ExprPtr sub = exprAt(e.root(), p);
    if (!sub) return false;
    ExprPtr r = pass(sub, e);
    if (!r || r == sub) return false;
    ExprPtr next = replaceAt(e.root(), p, r);
    ExprPtr typed;
    try {
      typed = ir::inferTypes(next, e.options().infer);
    } catch (const ir::CompileError& err) {
      throw RewriteError(name + " produced a program that does not type: " + err.message() + "\n" +
                         ir::print(r));
    }
    if (typed->type() != e.root()->type()) throw RewriteError(name + " changed the program's type");
    if (!e.tick()) return false;
    e.setRoot(typed);
    e.log().push_back(name + " @ " + pathStr(p));
    return true;
  });
}

std::string RewriteResult::report() const {
  std::string s = "strategy " + strategy + ": " + (success ? "succeeded" : "failed") + " after " +
                  std::to_string(steps) + " step(s)";
  if (budgetHit)
    s += "; the budget of " + std::to_string(maxSteps) +
         " steps was exhausted, so it stopped early (the program is the one rewritten so far)";
  s += "; " + std::to_string(log.size()) + " rewrite(s)";
  if (!log.empty()) {
    s += ":";
    size_t shown = std::min<size_t>(log.size(), 40);
    for (size_t i = 0; i < shown; ++i) s += (i ? ", " : " ") + log[i];
    if (shown < log.size()) s += ", ... (" + std::to_string(log.size() - shown) + " more)";
  }
  return s;
}

RewriteResult rewrite(const ExprPtr& program, const Strategy& s, const RewriteOptions& given) {
  // One memo for the run: re-typing after each rule re-types only what changed (infer.h).
  RewriteOptions options = given;
  if (!options.infer.memo) options.infer.memo = ir::makeInferMemo();
  ExprPtr typed = ir::inferTypes(program, options.infer);
  Engine e(typed, options);
  RewriteResult r;
  r.strategy = s.str();
  r.maxSteps = options.maxSteps;
  r.success = s(e, {});
  ExprPtr out = ir::inferTypes(e.root(), options.infer);
  if (out->type() != typed->type())
    throw RewriteError("strategy " + s.str() + " changed the program's type from " +
                       typed->type().str() + " to " + out->type().str());
  r.program = out;
  r.budgetHit = e.budgetHit();
  r.steps = e.steps();
  r.log = e.log();
  return r;
}

ir::LambdaPtr rewriteKernel(const ir::LambdaPtr& kernel, const Strategy& s,
                            const RewriteOptions& options, RewriteResult* info) {
  RewriteResult r = rewrite(kernel->body(), s, options);
  ir::LambdaPtr out = kernel;
  if (r.program != kernel->body())
    out =
        ir::inferTypes(ir::Lambda::make(kernel->params(), r.program, kernel->loc()), options.infer);
  if (info) *info = std::move(r);
  return out;
}

}  // namespace fftc::rewrites
