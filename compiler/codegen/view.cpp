// View construction and resolution: the access path is walked from the accessed view down to
// memory with a stack of array indices (top = the index into the current view's outer
// dimension) and a stack of tuple components, as LIFT's ViewPrinter does.
#include "compiler/codegen/view.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "compiler/codegen/memory.h"
#include "ir/diagnostic.h"

namespace fftc::compiler::codegen {

using backends::CExpr;
using ir::ArithExpr;
using ir::Type;

int64_t BufferLayout::extent() const {
  int64_t n = 1;
  for (size_t d = 0; d < dims.size() && d < strides.size(); ++d) n += (dims[d] - 1) * strides[d];
  return n;
}

ArithExpr BufferLayout::address(const ArithExpr& e) const {
  ArithExpr index = 0;
  int64_t inner = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    ArithExpr digit = e / ArithExpr(inner);
    if (d > 0) digit = digit % ArithExpr(dims[d]);
    index = index + digit * ArithExpr(strides[d]);
    inner *= dims[d];
  }
  return index;
}

namespace {
std::shared_ptr<View> mk(ViewKind k, Type t) { return std::make_shared<View>(k, std::move(t)); }

[[noreturn]] void fail(const std::string& msg) {
  throw ir::CompileError({}, "code generation: " + msg);
}

const Type& arrayType(const ViewPtr& v, const char* what) {
  if (!v->type.isArray()) fail(std::string(what) + " of a non-array view " + v->type.str());
  return v->type;
}
}  // namespace

ViewPtr memView(std::shared_ptr<Memory> mem, Type type) {
  auto v = mk(ViewKind::Mem, std::move(type));
  v->mem = std::move(mem);
  return v;
}

ViewPtr accessView(const ViewPtr& parent, ArithExpr index) {
  auto v = mk(ViewKind::Access, arrayType(parent, "access").element());
  v->parent = parent;
  v->index = std::move(index);
  return v;
}

ViewPtr splitView(const ViewPtr& parent, ArithExpr chunk, bool vector) {
  const Type& t = arrayType(parent, "split");
  Type inner = vector ? Type::vector(t.element(), chunk) : Type::array(t.element(), chunk);
  auto v = mk(ViewKind::Split, Type::array(inner, t.size() / chunk));
  v->parent = parent;
  v->a = std::move(chunk);
  return v;
}

ViewPtr joinView(const ViewPtr& parent) {
  const Type& t = arrayType(parent, "join");
  if (!t.element().isArray()) fail("join of a one-dimensional view");
  auto v = mk(ViewKind::Join, Type::array(t.element().element(), t.size() * t.element().size()));
  v->parent = parent;
  v->a = t.element().size();
  return v;
}

ViewPtr transposeView(const ViewPtr& parent) {
  const Type& t = arrayType(parent, "transpose");
  if (!t.element().isArray()) fail("transpose of a one-dimensional view");
  auto v = mk(ViewKind::Transpose,
              Type::array(Type::array(t.element().element(), t.size()), t.element().size()));
  v->parent = parent;
  return v;
}

ViewPtr slideView(const ViewPtr& parent, ArithExpr size, ArithExpr step) {
  const Type& t = arrayType(parent, "slide");
  auto v = mk(ViewKind::Slide,
              Type::array(Type::array(t.element(), size), (t.size() - size + step) / step));
  v->parent = parent;
  v->a = std::move(size);
  v->b = std::move(step);
  return v;
}

ViewPtr padView(const ViewPtr& parent, ArithExpr left, ArithExpr right, ir::PadBoundary boundary,
                ViewPtr value) {
  const Type& t = arrayType(parent, "pad");
  auto v = mk(ViewKind::Pad, Type::array(t.element(), left + t.size() + right));
  v->parent = parent;
  v->a = std::move(left);
  v->b = std::move(right);
  v->boundary = boundary;
  v->padValue = std::move(value);
  return v;
}

ViewPtr cropView(const ViewPtr& parent, ArithExpr left, ArithExpr right) {
  const Type& t = arrayType(parent, "crop");
  auto v = mk(ViewKind::Crop, Type::array(t.element(), t.size() - left - right));
  v->parent = parent;
  v->a = std::move(left);
  v->b = std::move(right);
  return v;
}

ViewPtr uncropView(const ViewPtr& dest, ArithExpr left, ArithExpr right) {
  const Type& t = arrayType(dest, "crop's destination");
  auto v = mk(ViewKind::Uncrop, Type::array(t.element(), left + t.size() + right));
  v->parent = dest;
  v->a = std::move(left);
  v->b = std::move(right);
  return v;
}

ViewPtr zipView(std::vector<ViewPtr> children) {
  std::vector<Type> comps;
  for (const auto& c : children) comps.push_back(arrayType(c, "zip").element());
  auto v = mk(ViewKind::Zip, Type::array(Type::tuple(comps), children.at(0)->type.size()));
  v->children = std::move(children);
  return v;
}

ViewPtr getView(const ViewPtr& parent, size_t component) {
  Type t;
  if (parent->type.isTuple()) {
    t = parent->type.components().at(component);
  } else if (parent->type.isComplex()) {
    t = Type::real(parent->type.scalarKind());
  } else {
    fail("get of a view of type " + parent->type.str());
  }
  // get of a computed tuple is its component directly.
  if (parent->kind == ViewKind::Tuple) return parent->children.at(component);
  if (parent->kind == ViewKind::Zip) fail("get of a zipped array");
  auto v = mk(ViewKind::Get, t);
  v->parent = parent;
  v->component = component;
  return v;
}

ViewPtr gatherView(const ViewPtr& parent, std::shared_ptr<const std::vector<int64_t>> indices,
                   ViewPtr table) {
  auto v = mk(ViewKind::Gather, Type::array(arrayType(parent, "gather").element(),
                                            static_cast<int64_t>(indices->size())));
  v->parent = parent;
  v->indices = std::move(indices);
  v->table = std::move(table);
  return v;
}

ViewPtr mapView(const ViewPtr& parent, Type resultType, std::function<ViewPtr(const ViewPtr&)> fn) {
  auto v = mk(ViewKind::Map, std::move(resultType));
  v->parent = parent;
  v->fn = std::move(fn);
  return v;
}

ViewPtr generatorView(const ir::ArrayGen* gen, Type type) {
  auto v = mk(ViewKind::Generator, std::move(type));
  v->gen = gen;
  return v;
}

ViewPtr scalarView(CExpr expr, Type type) {
  auto v = mk(ViewKind::Scalar, std::move(type));
  v->expr = std::move(expr);
  return v;
}

ViewPtr tupleView(std::vector<ViewPtr> components, Type type) {
  auto v = mk(ViewKind::Tuple, std::move(type));
  v->children = std::move(components);
  return v;
}

namespace {

// Views can nest an index as deep as the program is long (iterate(4096, pad(1, 0, wrap)) is a
// % in a % 4096 deep), and the simplifier's analyses and the printer recurse once a level:
// past this budget it is an error at the pattern, not a stack overflow. FFT indices nest a
// few dozen levels at most.
constexpr size_t kMaxIndexNesting = 512;

// The nesting depth of an index, without recursion (the DAG's shared nodes counted once).
size_t nesting(const ArithExpr& root) {
  std::unordered_map<const void*, size_t> depth;
  std::vector<std::pair<ArithExpr, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [e, expanded] = stack.back();
    stack.pop_back();
    if (depth.count(e.node())) continue;
    if (!expanded) {
      stack.push_back({e, true});
      for (const ArithExpr& o : e.operands())
        if (!depth.count(o.node())) stack.push_back({o, false});
      continue;
    }
    size_t d = 0;
    for (const ArithExpr& o : e.operands()) d = std::max(d, depth[o.node()]);
    depth[e.node()] = d + 1;
  }
  return depth[root.node()];
}

struct Walker {
  const ViewResolver& r;
  std::vector<ArithExpr> arr;   // back = index into the current view's outer dimension
  std::vector<size_t> tup;      // back = component of the current view's tuple
  CExpr* storeGuard = nullptr;  // where an Uncrop's condition goes; null: a read

  ArithExpr pop() {
    if (arr.empty()) fail("a view of an array was read as a scalar");
    ArithExpr i = arr.back();
    arr.pop_back();
    return i;
  }

  // Applies the pending tuple components to a computed or stored scalar value.
  CExpr members(CExpr e, Type t) {
    while (!tup.empty()) {
      size_t c = tup.back();
      tup.pop_back();
      if (t.isComplex()) {
        Type rt = Type::real(t.scalarKind());
        e = backends::cMember(e, c == 0 ? "x" : "y",
                              backends::CType::of(rt.scalarKind() == ir::ScalarKind::Double
                                                      ? backends::CType::Kind::Double
                                                      : backends::CType::Kind::Float));
        t = rt;
      } else if (t.isTuple()) {
        t = t.components().at(c);
        e = backends::cMember(e, "_" + std::to_string(c), backends::CType{});
      } else {
        fail("component of a scalar");
      }
    }
    return e;
  }

  // A loop, not a recursion: every step but a constant pad's hands the walk on to one view,
  // and a chain of views is as long as the program made it (iterate(30000, map(id)) is 30000
  // maps deep: recursing overflowed the stack, issue 20).
  CExpr walk(ViewPtr v) {
    for (;;) {
      switch (v->kind) {
        case ViewKind::Access:
          arr.push_back(v->index);
          v = v->parent;
          continue;
        case ViewKind::Split: {
          ArithExpr i = pop(), j = pop();
          arr.push_back(i * v->a + j);
          v = v->parent;
          continue;
        }
        case ViewKind::Join: {
          ArithExpr k = pop();
          arr.push_back(k % v->a);
          arr.push_back(k / v->a);
          v = v->parent;
          continue;
        }
        case ViewKind::Transpose: {
          ArithExpr i = pop(), j = pop();
          arr.push_back(i);
          arr.push_back(j);
          v = v->parent;
          continue;
        }
        case ViewKind::Slide: {
          ArithExpr w = pop(), k = pop();
          arr.push_back(w * v->b + k);
          v = v->parent;
          continue;
        }
        case ViewKind::Pad:
          if (v->boundary == ir::PadBoundary::Constant) return padConstant(v);
          padIndex(v);
          v = v->parent;
          continue;
        case ViewKind::Crop:
          arr.push_back(pop() + v->a);
          v = v->parent;
          continue;
        case ViewKind::Uncrop:
          uncrop(v);
          v = v->parent;
          continue;
        case ViewKind::Gather:
          arr.push_back(gatherIndex(v, pop()));
          v = v->parent;
          continue;
        case ViewKind::Zip: {
          ArithExpr i = pop();
          if (tup.empty()) fail("a zipped array was read without choosing a component");
          size_t c = tup.back();
          tup.pop_back();
          arr.push_back(i);
          v = v->children.at(c);
          continue;
        }
        case ViewKind::Get:
          tup.push_back(v->component);
          v = v->parent;
          continue;
        case ViewKind::Map: {
          ArithExpr i = pop();
          v = v->fn(accessView(v->parent, i));
          continue;
        }
        case ViewKind::Generator: {
          std::vector<ArithExpr> idx;
          Type t = v->type;
          for (size_t d = 0; d < v->gen->sizes().size(); ++d) {
            idx.push_back(pop());
            t = t.element();
          }
          v = r.generator(*v->gen, idx, t);
          continue;
        }
        case ViewKind::Scalar:
          if (!arr.empty()) fail("indexing a scalar value");
          return members(v->expr, v->type);
        case ViewKind::Tuple: {
          if (tup.empty()) {
            if (!arr.empty()) fail("indexing a tuple");
            fail("a computed tuple was read as a whole");
          }
          size_t c = tup.back();
          tup.pop_back();
          v = v->children.at(c);
          continue;
        }
        case ViewKind::Mem: return memory(v);
      }
      fail("unknown view");
    }
  }

  // The index into the parent of a wrapping, clamping or mirroring pad.
  void padIndex(const ViewPtr& v) {
    ArithExpr j = pop();
    ArithExpr n = v->parent->type.size();
    ArithExpr i = j - v->a;
    switch (v->boundary) {
      case ir::PadBoundary::Wrap: arr.push_back(i % n); return;
      case ir::PadBoundary::Clamp: arr.push_back(min(max(i, ArithExpr(0)), n - 1)); return;
      case ir::PadBoundary::Mirror:
        if (ir::provablyLessEq(-n, i) && ir::provablyLess(i, n * 2)) {
          // One reflection at most: i < 0 ? -1-i : i >= n ? 2n-1-i : i.
          arr.push_back(min(max(i, -1 - i), n * 2 - 1 - i));
        } else {
          // m = i mod 2n; m < n ? m : 2n-1-m  ==  min(m, 2n-1-m)
          ArithExpr m = i % (n * 2);
          arr.push_back(min(m, n * 2 - 1 - m));
        }
        return;
      case ir::PadBoundary::Constant: break;
    }
    fail("unknown pad boundary");
  }

  // A store through crop's destination: the element i exists when l <= i < l + n, which the
  // range-aware simplifier often proves (then no guard is printed).
  void uncrop(const ViewPtr& v) {
    ArithExpr i = pop() - v->a;
    ArithExpr n = v->parent->type.size();
    CExpr cond;
    if (!ir::provablyNonNegative(i)) cond = backends::cCompare(i, ">=", 0);
    if (!ir::provablyLess(i, n)) cond = backends::cAnd(cond, backends::cCompare(i, "<", n));
    if (cond) {
      if (!storeGuard) fail("an element that crop drops was read back");
      *storeGuard = backends::cAnd(*storeGuard, cond);
    }
    arr.push_back(i);
  }

  // The parent's index of gather's element i: the list's entry when i is a constant, else the
  // entry read from the table at run time. That read is a C expression, not an ArithExpr: it
  // enters the index as a variable of the parent's range named by its text, an atom no
  // simplification sees into (so the barrier pass never proves two such accesses equal).
  ArithExpr gatherIndex(const ViewPtr& v, const ArithExpr& i) {
    if (auto c = i.constant()) return v->indices->at(static_cast<size_t>(*c));
    std::vector<ArithExpr> savedArr = std::move(arr);
    std::vector<size_t> savedTup = std::move(tup);
    CExpr* savedGuard = storeGuard;
    arr = {i};
    tup.clear();
    storeGuard = nullptr;
    CExpr e = walk(v->table);
    arr = std::move(savedArr);
    tup = std::move(savedTup);
    storeGuard = savedGuard;
    if (e->kind != backends::CExprKind::Subscript || e->args.empty() ||
        e->args[0]->kind != backends::CExprKind::Var)
      fail("gather: its index table is not an array in memory");
    return ArithExpr::var(e->args[0]->name + "[" + e->index.toC() + "]", 0,
                          v->parent->type.size());
  }

  // A constant pad reads two values (inside and outside): the one place the walk recurses,
  // once per constant pad on the path (the program's nesting, which its budgets bound). An
  // index provably outside reads the value alone, so that an unrolled read of the padding is
  // a literal the scalar operations fold (symDft's 0, a butterfly's twiddle 1).
  CExpr padConstant(const ViewPtr& v) {
    ArithExpr j = pop();
    ArithExpr n = v->parent->type.size();
    ArithExpr i = j - v->a;
    if (ir::provablyLess(i, 0) || ir::provablyLessEq(n, i)) return walk(v->padValue);
    CExpr cond;
    if (!ir::provablyNonNegative(i)) cond = backends::cCompare(i, ">=", 0);
    if (!ir::provablyLess(i, n)) cond = backends::cAnd(cond, backends::cCompare(i, "<", n));
    std::vector<ArithExpr> savedArr = arr;
    std::vector<size_t> savedTup = tup;
    arr.push_back(i);
    CExpr inside = walk(v->parent);
    if (!cond) return inside;
    arr = savedArr;
    tup = savedTup;
    CExpr outside = walk(v->padValue);
    return backends::cSelect(cond, inside, outside, inside->type);
  }

  CExpr memory(const ViewPtr& v) {
    const Memory& m = *v->mem;
    std::vector<ArithExpr> shape = v->type.shape();
    Type elem = v->type.innermost();
    ArithExpr index = 0;
    // A work-group reduction's accumulator spread over the work-items: the outer indices pick
    // the work-item, whose own private array holds the rest.
    const size_t spread = std::min(m.spreadDims.size(), shape.size());
    for (size_t d = 0; d < spread; ++d) {
      ArithExpr i = pop();
      if (r.onSpreadIndex) r.onSpreadIndex(m, d, i);
    }
    for (size_t d = spread; d < shape.size(); ++d) {
      ArithExpr stride = 1;
      for (size_t e = d + 1; e < shape.size(); ++e) stride = stride * shape[e];
      index = index + pop() * stride;
    }
    if (!arr.empty()) fail("too many indices for memory " + m.name);
    if (size_t depth = nesting(index); depth > kMaxIndexNesting)
      fail("an index into " + m.name + " nested " + std::to_string(depth) +
           " levels deep, more than the budget of " + std::to_string(kMaxIndexNesting) +
           " (printing and analysing it recurses once a level)");
    if (r.onAccess) r.onAccess(m, index);
    if (m.padEvery > 0) {
      const ArithExpr flat = index;
      index = index + flat / ArithExpr(m.padEvery);
      if (m.rowSkew > 0) index = index + flat / ArithExpr(m.rowSkew) * m.rowSkewElements;
    }
    if (m.layout) index = m.layout->address(index);
    CExpr base = backends::cVar(m.name);
    if (m.cluster > 1) {
      // distributed over a cluster's blocks: the block's share, through its shared memory
      const ArithExpr share = m.count / ArithExpr(m.cluster);
      const ArithExpr block = index / share;
      if (!r.isOwnBlock || !r.isOwnBlock(block))
        base = backends::cCall(backends::kClusterArray, {base, backends::cIndex(block)}, m.elemC);
      index = index % share;
    }
    CExpr e = backends::cSubscript(base, index, m.elemC);
    return members(e, elem);
  }
};

}  // namespace

CExpr resolveView(const ViewPtr& view, const ViewResolver& resolver, CExpr* storeGuard) {
  Walker w{resolver, {}, {}, storeGuard};
  return w.walk(view);
}

std::string describeView(const ViewPtr& v) {
  switch (v->kind) {
    case ViewKind::Mem: return "mem " + v->mem->name;
    case ViewKind::Access: return describeView(v->parent) + "[" + v->index.str() + "]";
    case ViewKind::Split: return "split(" + v->a.str() + ", " + describeView(v->parent) + ")";
    case ViewKind::Join: return "join(" + describeView(v->parent) + ")";
    case ViewKind::Transpose: return "transpose(" + describeView(v->parent) + ")";
    case ViewKind::Slide:
      return "slide(" + v->a.str() + ", " + v->b.str() + ", " + describeView(v->parent) + ")";
    case ViewKind::Pad:
      return "pad(" + v->a.str() + ", " + v->b.str() + ", " + ir::padBoundaryName(v->boundary) +
             ", " + describeView(v->parent) + ")";
    case ViewKind::Crop:
    case ViewKind::Uncrop:
      return std::string(v->kind == ViewKind::Crop ? "crop(" : "uncrop(") + v->a.str() + ", " +
             v->b.str() + ", " + describeView(v->parent) + ")";
    case ViewKind::Gather: return "gather(" + describeView(v->parent) + ")";
    case ViewKind::Zip: {
      std::string s = "zip(";
      for (size_t i = 0; i < v->children.size(); ++i)
        s += (i ? ", " : "") + describeView(v->children[i]);
      return s + ")";
    }
    case ViewKind::Get:
      return describeView(v->parent) + "._" + std::to_string(v->component);
    case ViewKind::Map: return "map(" + describeView(v->parent) + ")";
    case ViewKind::Generator: return v->gen->name() + "(...)";
    case ViewKind::Scalar: return "value";
    case ViewKind::Tuple: return "tuple";
  }
  return "?";
}

}  // namespace fftc::compiler::codegen
