// The plugin's translation of a userfun body from clang's AST to a CProgram (c_program.h): clang
// parses and types the body, so implicit conversions, overloads and operand types come resolved.
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>

#include "compiler/clang/clang_plugin_internal.h"

namespace fftc::compiler::clang_helpers {
namespace {

// A construct the evaluator does not run, at its place in the source.
struct Unsupported {
  clang::SourceLocation loc;
  std::string what;
};

class Translator {
 public:
  Translator(clang::ASTContext& ctx, CProgram& out) : ctx_(ctx), out_(out) {}

  void translate(const clang::FunctionDecl* userFun) { function(userFun); }

 private:
  [[noreturn]] static void unsupported(clang::SourceLocation loc, std::string what) {
    throw Unsupported{loc, std::move(what)};
  }

  size_t function(const clang::FunctionDecl* fd) {
    fd = fd->getDefinition() ? fd->getDefinition() : fd;
    if (auto it = index_.find(fd); it != index_.end()) return it->second;
    const size_t idx = out_.functions.size();
    index_[fd] = idx;
    out_.functions.emplace_back();
    CFunction f;
    f.name = fd->getNameAsString();
    f.result = type(fd->getReturnType(), fd->getLocation());
    Frame frame;
    Frame* saved = frame_;
    frame_ = &frame;
    for (const clang::ParmVarDecl* p : fd->parameters()) {
      f.paramTypes.push_back(type(p->getType(), p->getLocation()));  // pointers are refused
      frame.slots[p] = frame.next++;
    }
    f.params = frame.next;
    f.body = stmt(fd->getBody());
    f.slots = frame.next;
    frame_ = saved;
    out_.functions[idx] = std::move(f);
    return idx;
  }

  CTy type(clang::QualType q, clang::SourceLocation loc) {
    const clang::Type* t = q.getCanonicalType().getTypePtr();
    CTy out;
    if (t->isVoidType()) return out;
    if (const auto* b = llvm::dyn_cast<clang::BuiltinType>(t)) {
      out.kind = CTy::Kind::Scalar;
      out.scalar = scalar(*b, loc);
      return out;
    }
    if (const auto* v = llvm::dyn_cast<clang::VectorType>(t)) {
      const auto* e = llvm::dyn_cast<clang::BuiltinType>(v->getElementType().getCanonicalType());
      if (!e) unsupported(loc, "a vector of " + v->getElementType().getAsString());
      out.kind = CTy::Kind::Vector;
      out.scalar = scalar(*e, loc);
      out.lanes = static_cast<int>(v->getNumElements());
      return out;
    }
    if (const auto* r = llvm::dyn_cast<clang::RecordType>(t)) {
      if (r->getDecl()->isUnion()) unsupported(loc, "a union");
      out.kind = CTy::Kind::Struct;
      for (const clang::FieldDecl* fd : r->getDecl()->fields())
        out.fields.push_back(type(fd->getType(), loc));
      return out;
    }
    if (t->isEnumeralType()) {
      out.kind = CTy::Kind::Scalar;
      return out;
    }
    if (t->isPointerType()) unsupported(loc, "a pointer");
    if (t->isArrayType()) unsupported(loc, "an array");
    unsupported(loc, "the type " + q.getAsString());
  }

  static CScalar scalar(const clang::BuiltinType& b, clang::SourceLocation loc) {
    using K = clang::BuiltinType::Kind;
    switch (b.getKind()) {
      case K::Bool: return CScalar::Bool;
      case K::Char_S: case K::SChar: return CScalar::Char;
      case K::Char_U: case K::UChar: return CScalar::UChar;
      case K::Short: return CScalar::Short;
      case K::UShort: return CScalar::UShort;
      case K::Int: return CScalar::Int;
      case K::UInt: return CScalar::UInt;
      case K::Long: case K::LongLong: return CScalar::Long;
      case K::ULong: case K::ULongLong: return CScalar::ULong;
      case K::Float: return CScalar::Float;
      case K::Double: return CScalar::Double;
      default: unsupported(loc, "the scalar type " + std::string(b.getName(clang::PrintingPolicy({}))));
    }
  }

  CNode node(COp op, const clang::Expr* e) {
    CNode n;
    n.op = op;
    n.type = type(e->getType(), e->getExprLoc());
    return n;
  }

  static CNode nop() { return CNode{}; }

  // ---- statements

  CNode stmt(const clang::Stmt* s) {
    if (s == nullptr) return nop();
    CNode n;
    if (const auto* c = llvm::dyn_cast<clang::CompoundStmt>(s)) {
      n.op = COp::Block;
      for (const clang::Stmt* k : c->body()) n.kids.push_back(stmt(k));
      return n;
    }
    if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(s)) {
      n.op = COp::Block;
      for (const clang::Decl* decl : d->decls()) n.kids.push_back(declaration(decl));
      return n;
    }
    if (const auto* r = llvm::dyn_cast<clang::ReturnStmt>(s)) {
      n.op = COp::Return;
      if (r->getRetValue()) n.kids.push_back(expr(r->getRetValue()));
      return n;
    }
    if (const auto* i = llvm::dyn_cast<clang::IfStmt>(s)) {
      if (i->getInit() || i->getConditionVariable())
        unsupported(s->getBeginLoc(), "an if with a declaration");
      n.op = COp::If;
      n.kids = {expr(i->getCond()), stmt(i->getThen()), stmt(i->getElse())};
      return n;
    }
    if (const auto* f = llvm::dyn_cast<clang::ForStmt>(s)) {
      if (f->getConditionVariable()) unsupported(s->getBeginLoc(), "a for with a declared condition");
      n.op = COp::For;
      n.kids.push_back(stmt(f->getInit()));
      n.kids.push_back(f->getCond() ? expr(f->getCond()) : nop());
      n.kids.push_back(f->getInc() ? expr(f->getInc()) : nop());
      n.kids.push_back(stmt(f->getBody()));
      return n;
    }
    if (const auto* w = llvm::dyn_cast<clang::WhileStmt>(s)) {
      if (w->getConditionVariable()) unsupported(s->getBeginLoc(), "a while with a declaration");
      n.op = COp::While;
      n.kids = {expr(w->getCond()), stmt(w->getBody())};
      return n;
    }
    if (const auto* d = llvm::dyn_cast<clang::DoStmt>(s)) {
      n.op = COp::Do;
      n.kids = {stmt(d->getBody()), expr(d->getCond())};
      return n;
    }
    if (llvm::isa<clang::BreakStmt>(s)) return CNode{COp::Break};
    if (llvm::isa<clang::ContinueStmt>(s)) return CNode{COp::Continue};
    if (llvm::isa<clang::NullStmt>(s)) return nop();
    if (const auto* e = llvm::dyn_cast<clang::Expr>(s)) {
      n.op = COp::ExprStmt;
      n.kids.push_back(expr(e));
      return n;
    }
    unsupported(s->getBeginLoc(), std::string("the statement ") + s->getStmtClassName());
  }

  CNode declaration(const clang::Decl* decl) {
    const auto* v = llvm::dyn_cast<clang::VarDecl>(decl);
    if (v == nullptr) return nop();  // typedefs, records: nothing to run
    if (v->isStaticLocal()) unsupported(v->getLocation(), "a static local variable");
    CNode n;
    n.op = COp::Decl;
    n.type = type(v->getType(), v->getLocation());
    if (v->hasInit()) n.kids.push_back(expr(v->getInit()));
    n.i = frame_->next++;
    frame_->slots[v] = static_cast<int>(n.i);
    return n;
  }

  // ---- expressions

  CNode expr(const clang::Expr* e) {
    if (const auto* p = llvm::dyn_cast<clang::ParenExpr>(e)) return expr(p->getSubExpr());
    if (const auto* c = llvm::dyn_cast<clang::ConstantExpr>(e)) return expr(c->getSubExpr());
    if (const auto* c = llvm::dyn_cast<clang::ExprWithCleanups>(e)) return expr(c->getSubExpr());
    if (const auto* m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e))
      return expr(m->getSubExpr());
    if (const auto* b = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e)) return expr(b->getSubExpr());
    if (const auto* l = llvm::dyn_cast<clang::IntegerLiteral>(e)) {
      CNode n = node(COp::IntLit, e);
      n.i = e->getType()->isUnsignedIntegerType()
                ? static_cast<int64_t>(l->getValue().getZExtValue())
                : l->getValue().getSExtValue();
      return n;
    }
    if (const auto* l = llvm::dyn_cast<clang::FloatingLiteral>(e)) {
      CNode n = node(COp::FloatLit, e);
      n.f = l->getValueAsApproximateDouble();
      return n;
    }
    if (const auto* l = llvm::dyn_cast<clang::CXXBoolLiteralExpr>(e)) {
      CNode n = node(COp::IntLit, e);
      n.i = l->getValue();
      return n;
    }
    if (const auto* l = llvm::dyn_cast<clang::CharacterLiteral>(e)) {
      CNode n = node(COp::IntLit, e);
      n.i = l->getValue();
      return n;
    }
    if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(e)) return reference(d);
    if (const auto* c = llvm::dyn_cast<clang::CastExpr>(e)) return cast(c);
    if (const auto* c = llvm::dyn_cast<clang::CompoundLiteralExpr>(e)) return expr(c->getInitializer());
    if (const auto* l = llvm::dyn_cast<clang::InitListExpr>(e)) {
      CNode n = node(COp::Build, e);
      for (const clang::Expr* k : l->inits()) n.kids.push_back(expr(k));
      return n;
    }
    if (llvm::isa<clang::ImplicitValueInitExpr>(e)) return node(COp::Zero, e);
    if (const auto* m = llvm::dyn_cast<clang::MemberExpr>(e)) {
      const auto* field = llvm::dyn_cast<clang::FieldDecl>(m->getMemberDecl());
      if (m->isArrow() || field == nullptr) unsupported(e->getExprLoc(), "a member access through a pointer");
      CNode n = node(COp::Field, e);
      n.i = field->getFieldIndex();
      n.kids.push_back(expr(m->getBase()));
      return n;
    }
    if (const auto* v = llvm::dyn_cast<clang::ExtVectorElementExpr>(e)) {
      if (v->isArrow()) unsupported(e->getExprLoc(), "a vector access through a pointer");
      llvm::SmallVector<uint32_t, 4> lanes;
      v->getEncodedElementAccess(lanes);
      CNode n = node(COp::Swizzle, e);
      n.lanes.assign(lanes.begin(), lanes.end());
      n.kids.push_back(expr(v->getBase()));
      return n;
    }
    if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e)) return unary(u);
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) return binary(b);
    if (const auto* c = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
      CNode n = node(COp::Cond, e);
      n.kids = {expr(c->getCond()), expr(c->getTrueExpr()), expr(c->getFalseExpr())};
      return n;
    }
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(e)) return call(c);
    if (const auto* c = llvm::dyn_cast<clang::CXXConstructExpr>(e)) {
      if (c->getNumArgs() == 0) return node(COp::Zero, e);
      if (c->getNumArgs() == 1 && c->getConstructor()->isCopyOrMoveConstructor())
        return expr(c->getArg(0));
      unsupported(e->getExprLoc(), "a constructor call");
    }
    // sizeof, alignof and other integer constants clang can evaluate
    clang::Expr::EvalResult r;
    if (e->getType()->isIntegerType() && e->EvaluateAsInt(r, ctx_)) {
      CNode n = node(COp::IntLit, e);
      n.i = r.Val.getInt().getExtValue();
      return n;
    }
    unsupported(e->getExprLoc(), std::string("the expression ") + e->getStmtClassName());
  }

  CNode reference(const clang::DeclRefExpr* d) {
    if (const auto* ec = llvm::dyn_cast<clang::EnumConstantDecl>(d->getDecl())) {
      CNode n = node(COp::IntLit, d);
      n.i = ec->getInitVal().getExtValue();
      return n;
    }
    const auto* v = llvm::dyn_cast<clang::VarDecl>(d->getDecl());
    auto it = v ? frame_->slots.find(v) : frame_->slots.end();
    if (it == frame_->slots.end()) {
      // a constant of the prelude (a file-scope const with an initializer clang can evaluate)
      clang::Expr::EvalResult r;
      if (d->getType()->isIntegerType() && d->EvaluateAsInt(r, ctx_)) {
        CNode n = node(COp::IntLit, d);
        n.i = r.Val.getInt().getExtValue();
        return n;
      }
      unsupported(d->getExprLoc(), "the name " + d->getNameInfo().getAsString() +
                                       " (only parameters and local variables are run)");
    }
    CNode n = node(COp::Var, d);
    n.i = it->second;
    return n;
  }

  CNode cast(const clang::CastExpr* c) {
    switch (c->getCastKind()) {
      case clang::CK_LValueToRValue:
      case clang::CK_NoOp:
      case clang::CK_ConstructorConversion:
      case clang::CK_ToVoid: return expr(c->getSubExpr());
      case clang::CK_IntegralCast:
      case clang::CK_FloatingCast:
      case clang::CK_IntegralToFloating:
      case clang::CK_FloatingToIntegral:
      case clang::CK_IntegralToBoolean:
      case clang::CK_FloatingToBoolean:
      case clang::CK_BooleanToSignedIntegral:
      case clang::CK_VectorSplat: {
        CNode n = node(COp::Cast, c);
        n.kids.push_back(expr(c->getSubExpr()));
        return n;
      }
      default:
        unsupported(c->getExprLoc(), std::string("the conversion ") + c->getCastKindName());
    }
  }

  CNode unary(const clang::UnaryOperator* u) {
    const char* op = nullptr;
    switch (u->getOpcode()) {
      case clang::UO_Minus: op = "-"; break;
      case clang::UO_Plus: op = "+"; break;
      case clang::UO_Not: op = "~"; break;
      case clang::UO_LNot: op = "!"; break;
      case clang::UO_PreInc: op = "++pre"; break;
      case clang::UO_PreDec: op = "--pre"; break;
      case clang::UO_PostInc: op = "post++"; break;
      case clang::UO_PostDec: op = "post--"; break;
      case clang::UO_Extension: return expr(u->getSubExpr());
      default:
        unsupported(u->getExprLoc(), "the operator " +
                                         clang::UnaryOperator::getOpcodeStr(u->getOpcode()).str() +
                                         " (pointers are not run)");
    }
    CNode n = node(COp::Unary, u);
    n.text = op;
    n.kids.push_back(expr(u->getSubExpr()));
    return n;
  }

  CNode binary(const clang::BinaryOperator* b) {
    if (b->isPtrMemOp()) unsupported(b->getExprLoc(), "a pointer-to-member");
    CNode n = node(b->isAssignmentOp() ? COp::Assign : COp::Binary, b);
    if (const auto* ca = llvm::dyn_cast<clang::CompoundAssignOperator>(b)) {
      n.text = clang::BinaryOperator::getOpcodeStr(
                   clang::BinaryOperator::getOpForCompoundAssignment(ca->getOpcode()))
                   .str();
      n.aux = type(ca->getComputationResultType(), b->getExprLoc());
    } else {
      n.text = b->getOpcodeStr().str();
    }
    n.kids = {expr(b->getLHS()), expr(b->getRHS())};
    return n;
  }

  CNode call(const clang::CallExpr* c) {
    const clang::FunctionDecl* callee = c->getDirectCallee();
    if (callee == nullptr || llvm::isa<clang::CXXMemberCallExpr>(c) ||
        llvm::isa<clang::CXXOperatorCallExpr>(c))
      unsupported(c->getExprLoc(), "a call that is not of a named function");
    CNode n;
    const clang::FunctionDecl* def = callee->getDefinition();
    if (def != nullptr && def->hasBody()) {
      n = node(COp::Call, c);
      n.i = static_cast<int64_t>(function(def));
    } else {
      n = node(COp::Builtin, c);
      n.text = callee->getNameAsString();
    }
    for (const clang::Expr* a : c->arguments()) n.kids.push_back(expr(a));
    return n;
  }

  struct Frame {
    std::map<const clang::VarDecl*, int> slots;
    int next = 0;
  };

  clang::ASTContext& ctx_;
  CProgram& out_;
  std::map<const clang::FunctionDecl*, size_t> index_;
  Frame* frame_ = nullptr;
};

class LowerConsumer : public clang::ASTConsumer {
 public:
  LowerConsumer(const Layout& layout, CProgram& out) : layout_(layout), out_(out) {}

  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;  // the collector has the errors
    const clang::SourceManager& sm = ctx.getSourceManager();
    // The userfun: the function defined at the signature (after the prelude).
    const clang::FunctionDecl* userFun = nullptr;
    for (const clang::Decl* d : ctx.getTranslationUnitDecl()->decls()) {
      const auto* fd = llvm::dyn_cast<clang::FunctionDecl>(d);
      if (fd == nullptr || !fd->doesThisDeclarationHaveABody()) continue;
      const auto [file, offset] = sm.getDecomposedLoc(sm.getFileLoc(fd->getLocation()));
      if (file == sm.getMainFileID() && offset >= layout_.signatureBegin) userFun = fd;
    }
    if (userFun == nullptr) {
      out_.error = "no userfun definition in the translation unit";
      return;
    }
    try {
      Translator(ctx, out_).translate(userFun);
    } catch (const Unsupported& u) {
      const BodyDiagnostic where = locateInBody(
          layout_, sm, u.loc, "the interpreter does not run " + u.what);
      out_.functions.clear();
      out_.error = where.message;
      out_.errorLine = where.line;
      out_.errorCol = where.col;
    }
  }

 private:
  const Layout& layout_;
  CProgram& out_;
};

class LowerAction : public clang::ASTFrontendAction {
 public:
  LowerAction(const Layout& layout, CProgram& out) : layout_(layout), out_(out) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef) override {
    return std::make_unique<LowerConsumer>(layout_, out_);
  }

 private:
  const Layout& layout_;
  CProgram& out_;
};

}  // namespace

CProgram lowerUserFunBodyImpl(std::string_view prelude, std::string_view signature,
                              std::string_view body, Dialect dialect) {
  const Layout layout = buildTranslationUnit(prelude, signature, body, dialect);
  CProgram out;
  LowerAction action(layout, out);
  bool ok = false;
  const std::vector<BodyDiagnostic> errors = parseWithClang(layout, dialect, action, &ok);
  if (!ok) {
    out.functions.clear();
    out.error = "clang could not be set up to parse the body";
  } else if (!errors.empty()) {
    out.functions.clear();
    out.error = errors.front().message;
    out.errorLine = errors.front().line;
    out.errorCol = errors.front().col;
  } else if (out.error.empty() && out.functions.empty()) {
    out.error = "clang produced no userfun";
  }
  return out;
}

}  // namespace fftc::compiler::clang_helpers
