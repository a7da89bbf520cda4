// The kernel-AST generator: walks a typed low-level program in destination-passing style.
// Each expression yields a view of its value; map/reduce variants emit loops and write their
// elements through the output view their consumer gives them (LIFT's output views), or into
// memory allocated in the address space toX or inference chooses. Top-level mapGlobal /
// mapWorkgroup calls start stages (device kernels); barriers follow local-memory exchanges.
#pragma once

#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backends/common/kernel_ast.h"
#include "compiler/codegen/codegen.h"
#include "compiler/codegen/memory.h"
#include "compiler/codegen/scalar_ops.h"
#include "compiler/codegen/view.h"

namespace fftc::compiler::codegen {

class KernelGen {
 public:
  KernelGen(const CodegenOptions& options, std::string name);

  // Generates the whole kernel; fills the CompiledKernel except source and formatting.
  CompiledKernel run(const ir::LambdaPtr& kernel, const std::vector<std::string>& paramNames,
                     const std::vector<ir::ArithExpr>& sizeVars);

  // Local memory reuse. A first run records, for each local array (by allocation order), the
  // work-group-level statements (the loops directly inside the mapWorkgroup, or inside its
  // mapLocal loops over rows) that first write and last read it. reusePlan() assigns an array the storage of an earlier one of the same
  // stage, type and size whose readers all come before its first writer (a Stockham FFT's
  // passes ping-pong between two arrays however many passes it has). A second KernelGen given
  // that plan generates the kernel with the shared storage, and a barrier before the first
  // write of storage another array was read from since the last barrier.
  struct LocalLife {
    int stage = -1;
    std::string type;  // element C type and count
    int firstWrite = std::numeric_limits<int>::max();
    int lastRead = -1;
  };
  const std::vector<LocalLife>& localLives() const { return localLives_; }
  static std::vector<int> reusePlan(const std::vector<LocalLife>& lives);  // -1: own storage
  void setReusePlan(std::vector<int> plan) { reuse_ = std::move(plan); }

 private:
  struct Result {
    ViewPtr view;
    bool written = false;  // the value was stored into the destination that was asked for
  };
  // An argument: an expression still to generate (so a destination can be pushed into it) or
  // a value already at hand.
  struct Arg {
    ir::ExprPtr expr;
    ViewPtr view;
  };
  enum class LoopKind : uint8_t { Global, Workgroup, Local, Seq };
  struct Loop {
    LoopKind kind;
    ir::ArithExpr var;
    ir::ArithExpr extent;
    int dim = 0;
    backends::StmtPtr stmt;    // the for statement
    backends::StmtPtr parent;  // the block holding it
  };
  struct Stage {
    std::string name;
    backends::StmtPtr body;
    std::vector<backends::StmtPtr> localDecls;  // hoisted to kernel scope
    std::vector<int64_t> localDeclBytes;        // the bytes of each
    std::vector<MemoryPtr> used;                // global memories, in first-use order
    std::unordered_set<const Memory*> written;
    std::optional<ir::ArithExpr> global[3];
    std::optional<ir::ArithExpr> groups[3];
    int64_t local[3] = {0, 0, 0};
    // The extent of a mapLocal(d) loop that encloses a barrier: every work-item must run it
    // exactly once, so local[d] is that extent (0: no such loop).
    int64_t barrierRows[3] = {0, 0, 0};
    int dims = 1;
    bool parallel = false;
    int64_t localBytes = 0;
    std::vector<std::string> accesses;
  };

  // ---- expressions and functions
  Result gen(const ir::ExprPtr& e, const ViewPtr& dest);
  Result evalArg(const Arg& a, const ViewPtr& dest);
  Result apply(const ir::FunDecl& f, const std::vector<Arg>& args, const ir::Type& result,
               const ViewPtr& dest);
  Result applyLambda(const ir::Lambda& f, const std::vector<Arg>& args, const ViewPtr& dest);
  Result applyLayout(const ir::FunDecl& f, const std::vector<Arg>& args, const ir::Type& result,
                     const ViewPtr& dest);
  Result applyMap(const ir::AbstractMap& m, const Arg& arg, const ir::Type& result,
                  const ViewPtr& dest);
  Result applyReduce(const ir::AbstractReduce& r, const Arg& arg, const ir::Type& result,
                     const ViewPtr& dest);
  Result applyScalar(const ir::FunDecl& f, const std::vector<Arg>& args, const ir::Type& result,
                     const ViewPtr& dest);
  Result applyTo(const ir::AbstractTo& t, const std::vector<Arg>& args, const ir::Type& result,
                 const ViewPtr& dest);
  ViewPtr layoutView(const ir::FunDecl& f, const std::vector<ViewPtr>& args, const ir::Type& result);
  // The producer's output view for a consumer `f` (split/join/transpose/map of those) writing
  // through `dest`; null when f has no inverse.
  ViewPtr inverseDest(const ir::FunDecl& f, const ir::Type& argType, const ViewPtr& dest);
  ViewPtr invertBody(const ir::ExprPtr& body, const ir::Param* p, const ViewPtr& dest);
  bool isLayoutOnly(const ir::FunDecl& f) const;
  bool isLayoutExpr(const ir::ExprPtr& e) const;

  void checkUserFun(const ir::UserFun& u, const backends::UserFunDef& d);

  // ---- values
  ScalarVal readScalar(const ViewPtr& v);
  ScalarVal readTuple(const ViewPtr& v);
  backends::CExpr lvalue(const ViewPtr& v);
  void copy(const ViewPtr& dest, const ViewPtr& src, const ir::Type& t);
  void copyTop(const ViewPtr& dest, const ViewPtr& src, const ir::Type& t);
  ViewPtr bindTemp(const ScalarVal& v, const std::string& base);
  ViewPtr generatorElement(const ir::ArrayGen& g, const std::vector<ir::ArithExpr>& idx,
                           const ir::Type& elemType);
  std::optional<ViewPtr> makeTable(const ir::ArrayGen& g, const ir::Type& elem);
  // A table (ir::Table, folded by rewrites::foldClosed) as a memory view, one memory per node.
  ViewPtr tableView(const ir::Table& t);
  // Memory holding `values` (literals, row-major) of an array of `elem` with sizes `n`: a
  // __constant array in the source up to constantTableMaxBytes, else a table buffer.
  ViewPtr tableMemory(const ir::Type& elem, const std::vector<int64_t>& n,
                      std::vector<backends::CExpr> values);

  // ---- memory
  ViewPtr allocate(const ir::Type& t, std::optional<backends::MemSpace> space);
  backends::MemSpace inferSpace(const ir::Type& t) const;
  backends::CType ctype(const ir::Type& t);
  int64_t byteSize(const ir::Type& t) const;
  MemoryPtr newBuffer(std::string name, MemRole role, const ir::Type& type);
  // Gives an input or the output a strided layout (CodegenOptions); CompileError when it
  // does not fit.
  void applyLayout(Memory& m, const BufferLayout& layout) const;

  // ---- statements, loops, stages
  void emit(const backends::StmtPtr& s);
  backends::StmtPtr openLoop(LoopKind kind, int dim, const ir::ArithExpr& extent,
                             const std::string& base, ir::ArithExpr& var);
  void closeLoop();
  void openStage(bool parallel);
  void closeStage();
  bool atTopLevel() const { return loops_.empty(); }
  int workgroupDepth() const;  // index in loops_ of the innermost Workgroup loop, -1 if none
  std::string fresh(const std::string& base);
  void onAccess(const Memory& m, const ir::ArithExpr& index);
  // A barrier between the current access and an earlier one made inside the loops `other`
  // (their for statements, outermost first): before the first loop enclosing the current
  // access that did not enclose the earlier one, in the innermost loop they share (a loop
  // over the rows of a work-group each work-item runs the same number of times).
  void placeBarrier(bool globalFence, const std::vector<const backends::Stmt*>& other);
  std::vector<const backends::Stmt*> loopStack() const;
  ir::ArithExpr canonicalLocal(const ir::ArithExpr& index);

  const CodegenOptions& opt_;
  std::string name_;
  backends::Module module_;
  std::vector<backends::StmtPtr> blocks_;
  std::vector<Loop> loops_;
  std::vector<Stage> stages_;
  int cur_ = -1;
  std::unordered_map<const ir::Param*, ViewPtr> env_;
  std::vector<MemoryPtr> buffers_;  // global: inputs, output, temps, tables
  std::unordered_set<std::string> names_;
  std::map<std::string, int> counters_;
  bool writing_ = false;
  int dryRun_ = 0;  // > 0 while folding a table: no memory accesses are recorded
  std::map<const ir::ArrayGen*, std::optional<ViewPtr>> tables_;
  std::map<const ir::Table*, ViewPtr> foldedTables_;
  std::vector<MemoryPtr> constTables_;                       // __constant tables in the source
  std::map<const Memory*, std::vector<backends::CExpr>> tableData_;  // table buffers
  std::vector<MemoryPtr> locals_;
  std::vector<LocalLife> localLives_;  // by allocation order
  std::vector<int> reuse_;             // the reuse plan, by allocation order
  // storage (by owner's order) read since the last barrier, and the loops of that read
  std::vector<std::optional<std::vector<const backends::Stmt*>>> readPending_;
  int wgStatement_ = 0;                // counts loops opened directly inside a mapWorkgroup
  int barriers_ = 0;                   // barriers placed so far
  bool wgTrailing_ = false;            // a work-group loop inside ended with a barrier
  std::vector<Memory*> groupShared_;  // global temps written inside a work-group
  std::map<std::string, ir::ArithExpr> canon_;               // canonical local ids
  int tempCount_ = 0;
  int64_t iterateSteps_ = 0;    // against opt_.maxIterateSteps
  int64_t unrolledBodies_ = 0;  // against opt_.maxUnrolledBodies
  void spend(int64_t& used, int64_t n, int64_t budget, const ir::SourceLoc& loc,
             const std::string& what);
  std::map<std::string, std::string> structNames_;
  ViewResolver resolver_;
};

}  // namespace fftc::compiler::codegen
