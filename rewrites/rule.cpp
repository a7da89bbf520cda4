// Applying rules: match, side condition, result; then the whole program is re-typed and the
// rewritten expression must keep its type.
#include "rewrites/rule.h"

#include "ir/printer.h"

namespace fftc::rewrites {

using ir::FunKind;

bool RuleContext::inside(FunKind k) const {
  for (const auto& f : enclosing())
    if (f->kind() == k) return true;
  return false;
}

bool RuleContext::inside(FunKind k, int dim) const {
  for (const auto& f : enclosing())
    if (f->kind() == k && f->as<ir::AbstractMap>()->dim() == dim) return true;
  return false;
}

bool RuleContext::insideLoop() const {
  for (const auto& f : enclosing())
    if (f->is<ir::AbstractMap>() || f->is<ir::AbstractReduce>() || f->kind() == FunKind::Iterate ||
        f->kind() == FunKind::ArrayGen)
      return true;
  return false;
}

Rule::Rule(Def def) : def_(std::make_shared<const Def>(std::move(def))) {}

ExprPtr Rule::rewriteHere(const ExprPtr& typed, const RuleContext& ctx) const {
  std::optional<Match> m = def_->pattern(typed);
  if (!m) return nullptr;
  m->root = typed;
  if (def_->sideCondition && !def_->sideCondition(*m, ctx)) return nullptr;
  ExprPtr r = def_->result(*m);
  if (!r || r == typed) return nullptr;
  return r;
}

Applied applyAt(const Rule& rule, const ExprPtr& root, const Path& path,
                const ApplyOptions& options) {
  ExprPtr e = exprAt(root, path);
  if (!e) return {root, false};
  RuleContext ctx(root, path);
  ExprPtr r = rule.rewriteHere(e, ctx);
  if (!r) return {root, false};
  ExprPtr next = replaceAt(root, path, r);
  ExprPtr typed;
  try {
    typed = ir::inferTypes(next, options.infer);
  } catch (const ir::CompileError& err) {
    throw RewriteError("rule " + rule.name() + " at " + pathStr(path) +
                       " produced a program that does not type: " + err.message() +
                       "\nbefore: " + ir::print(e) + "\nafter:  " + ir::print(r));
  }
  ExprPtr here = exprAt(typed, path);
  if (!here || here->type() != e->type() || typed->type() != root->type())
    throw RewriteError("rule " + rule.name() + " at " + pathStr(path) + " changed the type " +
                       e->type().str() + " to " + (here ? here->type().str() : "?") +
                       "\nbefore: " + ir::print(e) + "\nafter:  " + ir::print(r));
  return {typed, true};
}

std::vector<Path> matchPositions(const Rule& rule, const ExprPtr& root) {
  std::vector<Path> out;
  for (const Path& p : allPaths(root)) {
    ExprPtr e = exprAt(root, p);
    RuleContext ctx(root, p);
    if (rule.rewriteHere(e, ctx)) out.push_back(p);
  }
  return out;
}

}  // namespace fftc::rewrites
