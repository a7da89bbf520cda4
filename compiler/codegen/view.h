// Views (LIFT, Steuwer et al. CGO'17 section 5): how a value is laid out, built by the data-layout
// patterns without code; reading a view with a stack of loop indices yields a memory access whose
// index is an ArithExpr simplified with the loop variables' ranges. Output views use the same
// nodes: a producer writes through the inverse of the layout its consumer applies.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "backends/common/kernel_ast.h"
#include "ir/expr.h"

namespace fftc::compiler::codegen {

struct Memory;  // memory.h
class View;
using ViewPtr = std::shared_ptr<const View>;

enum class ViewKind : uint8_t {
  Mem,        // an array (or scalar) stored row-major in a Memory
  Access,     // element `index` of the parent array
  Split,      // split(chunk) of the parent
  Join,       // join of the parent
  Transpose,  // transpose of the parent
  Slide,      // slide(size, step) of the parent
  Pad,        // pad(l, r, boundary) of the parent
  Crop,       // crop(l, r) of the parent: element i is the parent's i + l
  Gather,     // gather(idx) of the parent: element i is the parent's idx[i] (`indices`; `table`
              // holds idx in device memory, read where i is not a constant)
  Uncrop,     // the destination of crop(l, r)'s argument: element i is the parent's i - l, and
              // only l <= i < l + n is stored (a guarded store); never read
  Zip,        // zip of the children
  Get,        // tuple component `component` of the parent
  Map,        // map(f) with f layout-only: element i is fn(parent[i])
  Generator,  // array(n, f) and friends: the element is computed (or looked up) from indices
  Scalar,     // a computed scalar/complex/struct value (a C expression, e.g. a variable)
  Tuple,      // a tuple of computed values
};

class View {
 public:
  ViewKind kind;
  ir::Type type;                          // the type of the value this view shows
  ViewPtr parent;                         // Access .. Map
  std::vector<ViewPtr> children;          // Zip, Tuple
  ir::ArithExpr index;                    // Access
  ir::ArithExpr a, b;                     // Split chunk | Slide size, step | Pad, Crop, Uncrop l, r
  size_t component = 0;                   // Get
  ir::PadBoundary boundary = ir::PadBoundary::Wrap;
  ViewPtr padValue;                       // Pad with a constant
  std::function<ViewPtr(const ViewPtr&)> fn;  // Map
  const ir::ArrayGen* gen = nullptr;      // Generator
  std::shared_ptr<Memory> mem;            // Mem
  std::shared_ptr<const std::vector<int64_t>> indices;  // Gather
  ViewPtr table;                          // Gather: an int table view of the indices
  backends::CExpr expr;                   // Scalar

  View(ViewKind k, ir::Type t) : kind(k), type(std::move(t)) {}
};

ViewPtr memView(std::shared_ptr<Memory> mem, ir::Type type);
ViewPtr accessView(const ViewPtr& parent, ir::ArithExpr index);
// vector: the chunks are vectors (asVector, ir::Type::vector)
ViewPtr splitView(const ViewPtr& parent, ir::ArithExpr chunk, bool vector = false);
ViewPtr joinView(const ViewPtr& parent);
ViewPtr transposeView(const ViewPtr& parent);
ViewPtr slideView(const ViewPtr& parent, ir::ArithExpr size, ir::ArithExpr step);
ViewPtr padView(const ViewPtr& parent, ir::ArithExpr left, ir::ArithExpr right,
                ir::PadBoundary boundary, ViewPtr value);
ViewPtr cropView(const ViewPtr& parent, ir::ArithExpr left, ir::ArithExpr right);
// The destination of an array that crop(l, r) makes `dest`: l + n + r elements, the first l
// and the last r of them not stored.
ViewPtr uncropView(const ViewPtr& dest, ir::ArithExpr left, ir::ArithExpr right);
// gather(idx): element i of the result is the parent's indices[i]; `table` is the same list as
// an int array in memory, read for an index that is not a constant.
ViewPtr gatherView(const ViewPtr& parent, std::shared_ptr<const std::vector<int64_t>> indices,
                   ViewPtr table);
ViewPtr zipView(std::vector<ViewPtr> children);
ViewPtr getView(const ViewPtr& parent, size_t component);
ViewPtr mapView(const ViewPtr& parent, ir::Type resultType,
                std::function<ViewPtr(const ViewPtr&)> fn);
ViewPtr generatorView(const ir::ArrayGen* gen, ir::Type type);
ViewPtr scalarView(backends::CExpr expr, ir::Type type);
ViewPtr tupleView(std::vector<ViewPtr> components, ir::Type type);

// The element at the end of an access path: a readable/writable C expression, or a computed
// value. Generators are resolved by the callback (the code generator evaluates or tables them).
struct ViewResolver {
  // Called with a generator and its indices (outermost first); returns the element's view.
  std::function<ViewPtr(const ir::ArrayGen&, const std::vector<ir::ArithExpr>&,
                        const ir::Type& elemType)>
      generator;
  // Called for every memory access: the memory and the simplified linear index.
  std::function<void(const Memory&, const ir::ArithExpr&)> onAccess;
  // Called with the index into each spread dimension of a memory (Memory::spreadDims), which
  // takes no room in the address; it must be the mapLocal loop's own variable.
  std::function<void(const Memory&, size_t dim, const ir::ArithExpr&)> onSpreadIndex;
  // Whether a block index of a distributed local array (Memory::cluster) is the executing
  // block's own rank (a mapBlock's variable): then the access is a plain local one.
  std::function<bool(const ir::ArithExpr&)> isOwnBlock;
};

// Resolves a view of a scalar, complex or tuple value to a C expression (an lvalue when the view
// ends in memory or a variable). Throws CompileError when the view still denotes an array.
// With `storeGuard`, the view may pass an Uncrop (a destination): the condition under which the
// element exists is returned there (null: always), and the caller guards the store with it.
backends::CExpr resolveView(const ViewPtr& view, const ViewResolver& resolver,
                            backends::CExpr* storeGuard = nullptr);

// One line describing a view, for --emit views and debugging ("split(4, mem x)").
std::string describeView(const ViewPtr& view);

}  // namespace fftc::compiler::codegen
