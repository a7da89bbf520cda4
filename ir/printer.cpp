// Readable text of (typed) programs, close to the language's syntax.
#include "ir/printer.h"

#include <unordered_map>

namespace fftc::ir {

namespace {

constexpr size_t kLineWidth = 90;

class Printer {
 public:
  explicit Printer(const PrintOptions& o) : opt_(o) {}

  std::string expr(const ExprPtr& e, int indent);
  std::string fun(const FunDecl& f, int indent);

 private:
  std::string pad(int indent) const { return std::string(static_cast<size_t>(indent), ' '); }
  std::string paramName(const Param& p);
  std::string chain(const FunCall& c, int indent);
  std::string args(const std::vector<ExprPtr>& as, int indent);

  PrintOptions opt_;
  std::unordered_map<const Param*, std::string> names_;
  std::unordered_map<std::string, int> used_;
};

std::string Printer::paramName(const Param& p) {
  auto it = names_.find(&p);
  if (it != names_.end()) return it->second;
  // distinct Params with one name get suffixes, so the text stays unambiguous
  int n = used_[p.name()]++;
  std::string s = n == 0 ? p.name() : p.name() + "_" + std::to_string(n);
  names_[&p] = s;
  return s;
}

std::string Printer::args(const std::vector<ExprPtr>& as, int indent) {
  std::string s;
  for (size_t i = 0; i < as.size(); ++i) s += (i ? ", " : "") + expr(as[i], indent);
  return s;
}

std::string binarySymbol(BuiltinOp op) {
  switch (op) {
    case BuiltinOp::Add: return " + ";
    case BuiltinOp::Sub: return " - ";
    case BuiltinOp::Mul: return " * ";
    case BuiltinOp::Div: return " / ";
    case BuiltinOp::Mod: return " % ";
    default: return "";
  }
}

// f <<: g <<: x, one application a line when it does not fit on one.
std::string Printer::chain(const FunCall& c, int indent) {
  std::vector<const FunCall*> calls;
  ExprPtr last;
  for (const FunCall* cur = &c;;) {
    calls.push_back(cur);
    const ExprPtr& a = cur->arg(0);
    const auto* next = a->as<FunCall>();
    if (next && next->args().size() == 1 && !next->f()->is<Builtin>() && !next->f()->is<Get>()) {
      cur = next;
      continue;
    }
    last = a;
    break;
  }
  std::vector<std::string> parts;
  size_t total = 0;
  for (const auto* k : calls) {
    std::string f = fun(*k->f(), indent + 2);
    parts.push_back(k->f()->is<Lambda>() ? "(" + f + ")" : f);  // a lambda body extends right
    total += parts.back().size() + 5;
  }
  parts.push_back(expr(last, indent + 2));
  total += parts.back().size();
  bool multiline = opt_.types || total > kLineWidth;
  for (const auto& p : parts)
    if (p.find('\n') != std::string::npos) multiline = true;
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) s += multiline ? "\n" + pad(indent + 2) + "<<: " : " <<: ";
    s += parts[i];
    if (multiline && opt_.types && i < calls.size() && calls[i]->type())
      s += "  // : " + calls[i]->type().str();
  }
  return s;
}

std::string Printer::expr(const ExprPtr& e, int indent) {
  switch (e->kind()) {
    case ExprKind::Param: return paramName(*e->as<Param>());
    case ExprKind::Literal: return e->as<Literal>()->valueStr();
    case ExprKind::FunCall: break;
  }
  const auto* c = e->as<FunCall>();
  const FunDecl& f = *c->f();
  if (const auto* b = f.as<Builtin>()) {
    std::string sym = binarySymbol(b->op());
    if (!sym.empty() && c->args().size() == 2)
      return "(" + expr(c->arg(0), indent) + sym + expr(c->arg(1), indent) + ")";
    if (b->op() == BuiltinOp::Neg && c->args().size() == 1) return "-" + expr(c->arg(0), indent);
    if (b->op() == BuiltinOp::MakeTuple) return "{" + args(c->args(), indent) + "}";
    return b->name() + "(" + args(c->args(), indent) + ")";
  }
  if (const auto* g = f.as<Get>(); g && c->args().size() == 1)
    return expr(c->arg(0), indent) + "._" + std::to_string(g->index());
  if (f.is<ArrayGen>() || f.is<Zip>() || f.is<UserFun>() || c->args().size() != 1)
    return fun(f, indent) + (c->args().empty() ? "" : "(" + args(c->args(), indent) + ")");
  return chain(*c, indent);
}

std::string Printer::fun(const FunDecl& f, int indent) {
  auto sub = [&](const FunPtr& g) { return fun(*g, indent); };
  if (const auto* l = f.as<Lambda>()) {
    std::string ps;
    for (size_t i = 0; i < l->params().size(); ++i) {
      const auto& p = *l->params()[i];
      ps += (i ? ", " : "") + paramName(p);
      if (opt_.types && p.type()) ps += ": " + p.type().str();
    }
    bool parens = l->params().size() > 1 || opt_.types;
    std::string head = "fun " + (parens ? "(" + ps + ")" : ps) + " => ";
    std::string body = expr(l->body(), indent);
    return head + body;
  }
  if (const auto* w = f.as<MapWorkgroup>(); w && w->cluster() > 1)
    return "mapCluster(" + std::to_string(w->cluster()) + ", " + sub(w->f()) + ")";
  if (const auto* w = f.as<MapWorkgroup>(); w && w->blocks()) return "mapBlock(" + sub(w->f()) + ")";
  if (const auto* m = f.as<AbstractMap>())
    return m->name() + "(" + (m->dim() >= 0 ? std::to_string(m->dim()) + ", " : "") +
           sub(m->f()) + ")";
  if (const auto* r = f.as<AbstractReduce>())
    return r->name() + "(" + sub(r->f()) + ", " + expr(r->init(), indent) + ")";
  if (const auto* t = f.as<AbstractTo>()) return t->name() + "(" + sub(t->f()) + ")";
  switch (f.kind()) {
    case FunKind::Split:
      return (f.as<Split>()->vector() ? "asVector(" : "split(") + f.as<Split>()->chunk().str() +
             ")";
    case FunKind::Join: return f.as<Join>()->scalar() ? "asScalar" : f.name();
    case FunKind::ArrayGen: {
      const auto* g = f.as<ArrayGen>();
      std::string s = g->name() + "(";
      for (const auto& n : g->sizes()) s += n.str() + ", ";
      return s + sub(g->f()) + ")";
    }
    case FunKind::Table: return "table(" + f.as<Table>()->type().str() + ")";
    case FunKind::Pad: {
      const auto* p = f.as<Pad>();
      return "pad(" + p->left().str() + ", " + p->right().str() + ", " +
             (p->value() ? expr(p->value(), indent) : padBoundaryName(p->boundary())) + ")";
    }
    case FunKind::Crop: {
      const auto* c = f.as<Crop>();
      return "crop(" + c->left().str() + ", " + c->right().str() + ")";
    }
    case FunKind::Slide: {
      const auto* s = f.as<Slide>();
      return "slide(" + s->size().str() + ", " + s->step().str() + ")";
    }
    case FunKind::Iterate: {
      const auto* it = f.as<Iterate>();
      return "iterate(" + std::to_string(it->count()) + ", " + sub(it->f()) + ")";
    }
    case FunKind::Get: return "get(" + std::to_string(f.as<Get>()->index()) + ")";
    case FunKind::Gather: {
      std::string s = "gather([";
      const auto& idx = f.as<Gather>()->indices();
      for (size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
      return s + "])";
    }
    default: return f.name();
  }
}

}  // namespace

std::string print(const ExprPtr& e, const PrintOptions& options) {
  Printer p(options);
  std::string s = p.expr(e, 0);
  if (options.types && e->type()) s += "\n// : " + e->type().str();
  return s;
}

std::string print(const FunPtr& f, const PrintOptions& options) {
  Printer p(options);
  return p.fun(*f, 0);
}

}  // namespace fftc::ir
