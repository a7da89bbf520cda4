// Name resolution: scope lookup, the static unknown-name check of every body, and "did you
// mean" suggestions.
#include <algorithm>

#include <fmt/format.h>

#include "compiler/frontend/elaborator.h"

namespace fftc::compiler::frontend {

namespace {

// Edit distance with adjacent transpositions ("mpa" is one step from "map"), for "did you
// mean"; names are short, so the quadratic table is fine.
size_t editDistance(const std::string& a, const std::string& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::string suggestion(const std::string& name, const std::vector<std::string>& candidates) {
  // One- and two-letter names are one edit away from too many others to be useful.
  if (name.size() < 3 || name.size() > 64) return "";
  const size_t threshold = std::max<size_t>(1, name.size() / 3);
  std::string best;
  size_t bestD = threshold + 1;
  for (const auto& c : candidates) {  // sorted, so ties go to the first in order
    if (c == name) continue;
    size_t d = editDistance(name, c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best);
}

}  // namespace

namespace {
void collectSizeNames(const ast::Type& t, std::vector<std::string>& out);
void collectSizeNames(const ast::Expr& e, std::vector<std::string>& out) {
  if (e.kind == ast::ExprKind::Var) out.push_back(e.name);
  for (const auto& c : e.elems) collectSizeNames(*c, out);
}
void collectSizeNames(const ast::Type& t, std::vector<std::string>& out) {
  for (const auto& c : t.elems) collectSizeNames(*c, out);
  if (t.size) collectSizeNames(*t.size, out);
}
}  // namespace

void Elaborator::checkNames() {
  std::vector<std::string> sizeNames;
  for (const auto& d : module_.decls) {
    if (d->kind != ast::DeclKind::Kernel) continue;
    for (const auto& p : d->typedParams) collectSizeNames(*p.type, sizeNames);
  }
  for (const auto& d : module_.decls) {
    if (!d->body) continue;
    std::vector<std::string> scope;
    for (const auto& p : d->params) scope.push_back(p.name);
    for (const auto& p : d->typedParams) scope.push_back(p.name);
    checkNames(*d->body, scope, sizeNames);
  }
}

void Elaborator::checkNames(const ast::Expr& e, std::vector<std::string>& scope,
                            const std::vector<std::string>& sizeNames) {
  if (e.kind == ast::ExprKind::Var) {
    const std::string& n = e.name;
    Value dummy;
    if (std::find(scope.begin(), scope.end(), n) != scope.end() || defines_.count(n) ||
        defs_.count(n) || userFuns_.count(n) ||
        std::find(sizeNames.begin(), sizeNames.end(), n) != sizeNames.end() ||
        lookupBuiltin(n, dummy, e.loc, opts_.precision)) {
      return;
    }
    std::vector<std::string> candidates = visibleNames(nullptr);
    candidates.insert(candidates.end(), scope.begin(), scope.end());
    std::sort(candidates.begin(), candidates.end());
    fail(e.loc, fmt::format("unknown name '{}'{}", n, suggestion(n, candidates)));
  }
  size_t bound = 0;
  if (e.kind == ast::ExprKind::Lambda) {
    for (const auto& p : e.params) scope.push_back(p.name);
    bound = e.params.size();
  }
  for (size_t i = 0; i < e.elems.size(); ++i) {
    // A pipe's variable is bound in its body (elems[2]) only.
    if (e.kind == ast::ExprKind::Pipe && i == 2) {
      scope.push_back(e.params[0].name);
      bound = 1;
    }
    checkNames(*e.elems[i], scope, sizeNames);
  }
  scope.resize(scope.size() - bound);
}

// Scope order: lambda/def/pipe parameters, -D bindings, defs, userfuns, the kernel's size
// variables, built-ins.
Value Elaborator::lookup(const ast::Expr& var, const Env& env) {
  const std::string& name = var.name;
  for (const EnvNode* n = env.get(); n; n = n->next.get()) {
    if (n->name == name) return n->value;
  }
  if (auto it = defines_.find(name); it != defines_.end()) return it->second;
  if (auto it = defs_.find(name); it != defs_.end()) {
    const ast::Decl& d = *it->second;
    if (d.hasParams) {
      auto f = std::make_shared<FunValue>();
      f->kind = FunKind::Def;
      f->loc = var.loc;
      f->def = &d;
      return Value::ofFun(f);
    }
    return expandDef(d, {}, var.loc);
  }
  if (auto it = userFuns_.find(name); it != userFuns_.end()) {
    auto f = std::make_shared<FunValue>();
    f->kind = FunKind::IR;
    f->loc = var.loc;
    f->ir = it->second;
    return Value::ofFun(f);
  }
  if (auto it = sizeVars_.find(name); it != sizeVars_.end()) return Value::ofInt(it->second);
  Value v;
  if (lookupBuiltin(name, v, var.loc, opts_.precision)) return v;
  fail(var.loc, fmt::format("unknown name '{}'{}", name, suggestion(name, visibleNames(env))));
}

std::vector<std::string> Elaborator::visibleNames(const Env& env) const {
  std::vector<std::string> names = builtinNames();
  for (const EnvNode* n = env.get(); n; n = n->next.get()) names.push_back(n->name);
  for (const auto& [n, _] : defines_) names.push_back(n);
  for (const auto& [n, _] : defs_) names.push_back(n);
  for (const auto& [n, _] : userFuns_) names.push_back(n);
  for (const auto& [n, _] : sizeVars_) names.push_back(n);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace fftc::compiler::frontend
