// Generator element functions compiled to flat programs (scalar_program.h).
#include "ir/scalar_program.h"

#include <algorithm>
#include <utility>

namespace fftc::ir {

namespace {

// Nodes past this stop the compilation (a let-bound value used many times is copied at each
// use, so a small DAG can unfold into a large tree): the interpreter then evaluates f.
constexpr size_t kMaxNodes = 4096;

class Compiler {
 public:
  explicit Compiler(std::vector<ScalarNode>& nodes) : nodes_(nodes) {}

  void bind(const Param* p, uint32_t node) { scope_.emplace_back(p, node); }

  // The node computing e, or nullopt where e is outside the subset.
  std::optional<uint32_t> expr(const ExprPtr& e) {
    if (nodes_.size() >= kMaxNodes) return std::nullopt;
    if (const auto* p = e->as<Param>()) {
      for (size_t i = scope_.size(); i-- > 0;)
        if (scope_[i].first == p) return scope_[i].second;
      return std::nullopt;  // bound outside f
    }
    if (const auto* l = e->as<Literal>()) {
      if (l->litKind() == LiteralKind::Int && !l->intValue().constant()) return std::nullopt;
      ScalarNode n;
      n.kind = ScalarNode::Kind::Literal;
      n.literal = l;
      n.type = e->type();
      return push(std::move(n));
    }
    const auto* c = e->as<FunCall>();
    if (!c || !e->type()) return std::nullopt;
    if (const auto* b = c->f()->as<Builtin>()) {
      if (b->op() == BuiltinOp::MakeTuple || c->args().size() != b->arity() ||
          c->args().size() > 2)
        return std::nullopt;
      ScalarNode n;
      n.kind = ScalarNode::Kind::Op;
      n.op = b->op();
      n.arity = static_cast<uint8_t>(c->args().size());
      for (size_t i = 0; i < c->args().size(); ++i) {
        auto a = expr(c->arg(i));
        if (!a) return std::nullopt;
        n.in[i] = *a;
      }
      n.type = e->type();
      return push(std::move(n));
    }
    if (const auto* l = c->f()->as<Lambda>(); l && l->arity() == c->args().size()) {
      // the arguments in the caller's scope, then the body with the parameters bound
      std::vector<uint32_t> args;
      for (const auto& a : c->args()) {
        auto n = expr(a);
        if (!n) return std::nullopt;
        args.push_back(*n);
      }
      const size_t mark = scope_.size();
      for (size_t i = 0; i < args.size(); ++i) bind(l->params()[i].get(), args[i]);
      auto r = expr(l->body());
      scope_.resize(mark);
      return r;
    }
    return std::nullopt;
  }

 private:
  uint32_t push(ScalarNode n) {
    nodes_.push_back(std::move(n));
    return static_cast<uint32_t>(nodes_.size() - 1);
  }

  std::vector<ScalarNode>& nodes_;
  std::vector<std::pair<const Param*, uint32_t>> scope_;
};

Value literalValue(const Literal& l) {
  switch (l.litKind()) {
    case LiteralKind::Int: return Value::ofInt(*l.intValue().constant());
    case LiteralKind::Real: return Value::ofReal(l.realValue(), l.precision());
    case LiteralKind::Complex: return Value::ofComplex({l.re(), l.im()}, l.precision());
  }
  interp::error("unknown literal");
}

}  // namespace

std::optional<ScalarProgram> ScalarProgram::compile(const FunDecl& f, size_t arity) {
  const auto* l = f.as<Lambda>();
  if (!l || l->arity() != arity) return std::nullopt;
  ScalarProgram p;
  p.arity_ = arity;
  Compiler c(p.nodes_);
  for (size_t i = 0; i < arity; ++i) {
    ScalarNode n;
    n.kind = ScalarNode::Kind::Arg;
    n.arg = static_cast<uint32_t>(i);
    n.type = Type::intType();
    p.nodes_.push_back(std::move(n));
    c.bind(l->params()[i].get(), static_cast<uint32_t>(i));
  }
  auto result = c.expr(l->body());
  if (!result) return std::nullopt;
  if (*result + 1 != p.nodes_.size()) {  // the body is a parameter or an earlier node: copy it
    if (p.nodes_.size() >= kMaxNodes) return std::nullopt;
    ScalarNode n = p.nodes_[*result];
    p.nodes_.push_back(std::move(n));
  }
  return p;
}

bool ScalarProgram::hasOps() const {
  return std::any_of(nodes_.begin(), nodes_.end(),
                     [](const ScalarNode& n) { return n.kind == ScalarNode::Kind::Op; });
}

ScalarEvaluator::ScalarEvaluator(const ScalarProgram& program, interp::CisPiMemo& memo)
    : program_(program), memo_(memo), slots_(program.nodes().size()) {
  const auto& nodes = program_.nodes();
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].kind == ScalarNode::Kind::Literal) slots_[i] = literalValue(*nodes[i].literal);
}

Value ScalarEvaluator::run(std::span<const int64_t> args) {
  const auto& nodes = program_.nodes();
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ScalarNode& n = nodes[i];
    switch (n.kind) {
      case ScalarNode::Kind::Arg: slots_[i] = Value::ofInt(args[n.arg]); break;
      case ScalarNode::Kind::Literal: break;
      case ScalarNode::Kind::Op: {
        const std::array<Value, 2> buf{slots_[n.in[0]], n.arity > 1 ? slots_[n.in[1]] : Value()};
        slots_[i] = interp::scalarBuiltin(n.op, std::span<const Value>(buf.data(), n.arity),
                                          n.type, &memo_);
        break;
      }
    }
  }
  return slots_.back();
}

}  // namespace fftc::ir
