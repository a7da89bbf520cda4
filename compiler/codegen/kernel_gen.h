// The kernel-AST generator, the first pass of code generation: walks a typed low-level program in
// destination-passing style. Each expression yields a view of its value; map/reduce variants
// emit loops and write their elements through the output view their consumer gives them (LIFT's
// output views), or into memory allocated in the address space toX or inference chooses
// (address_space.h). Top-level mapGlobal / mapWorkgroup calls start stages (device kernels).
// Every memory access goes into the access trace, from which the later passes (codegen.cpp)
// reuse local memory and place barriers.
#pragma once

#include <complex>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backends/common/kernel_ast.h"
#include "compiler/codegen/codegen.h"
#include "compiler/codegen/generated_kernel.h"
#include "compiler/codegen/memory.h"
#include "compiler/codegen/scalar_ops.h"
#include "compiler/codegen/view.h"

namespace fftc::compiler::codegen {

class KernelGen {
 public:
  KernelGen(const CodegenOptions& options, std::string name);

  // Generates the kernel AST of every stage and the access trace; the passes of codegen.cpp
  // (local memory, barriers, stages, facts) finish it.
  GeneratedKernel run(const ir::LambdaPtr& kernel, const std::vector<std::string>& paramNames,
                      const std::vector<ir::ArithExpr>& sizeVars);

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

  // ---- expressions and functions (kernel_gen.cpp)
  Result gen(const ir::ExprPtr& e, const ViewPtr& dest);
  Result evalArg(const Arg& a, const ViewPtr& dest);
  Result apply(const ir::FunDecl& f, const std::vector<Arg>& args, const ir::Type& result,
               const ViewPtr& dest);
  Result applyLambda(const ir::Lambda& f, const std::vector<Arg>& args, const ViewPtr& dest);
  // A data-layout pattern (split, join, transpose, zip, get, slide, pad, layout-only map): a
  // view of its argument, or its argument generated into the inverse of `dest`.
  Result applyLayoutPattern(const ir::FunDecl& f, const std::vector<Arg>& args,
                            const ir::Type& result, const ViewPtr& dest);
  Result applyMap(const ir::AbstractMap& m, const Arg& arg, const ir::Type& result,
                  const ViewPtr& dest);
  Result applyReduce(const ir::AbstractReduce& r, const Arg& arg, const ir::Type& result,
                     const ViewPtr& dest);
  // A reduction at the work-group level whose accumulator is spread over the work-items
  // (its initial value a mapLocal over `dims`: rewrites' stageLocal).
  Result applySpreadReduce(const ir::AbstractReduce& r, const ViewPtr& in, const ir::Type& accT,
                           const std::vector<int>& dims);
  void onSpreadIndex(const Memory& m, size_t d, const ir::ArithExpr& index);
  // reduceSeqPrefetch's pieces: element `i`'s staged copies (ir::stagedElementCopies) loaded
  // into the work-items' registers; a copy's mapLocal loop as a counted loop over a
  // work-item's iterations (the work-group's size in `dim` fixed); the register of the element
  // copy being generated.
  void loadStagedCopies(const std::vector<const ir::FunCall*>& copies, const ir::Param* elem,
                        const ViewPtr& in, const ir::ArithExpr& i);
  ir::ArithExpr openCountedLocal(int dim, const ir::ArithExpr& extent, const std::string& base);
  ViewPtr prefetchRegister(const ir::Type& elem);
  Result applyScalar(const ir::FunDecl& f, const std::vector<Arg>& args, const ir::Type& result,
                     const ViewPtr& dest);
  Result applyTo(const ir::AbstractTo& t, const std::vector<Arg>& args, const ir::Type& result,
                 const ViewPtr& dest);
  ViewPtr layoutView(const ir::FunDecl& f, const std::vector<ViewPtr>& args, const ir::Type& result);
  // The producer's output view for a consumer `f` writing through `dest`. Only for the views
  // that ir::isWritableView accepts (split, join, transpose, id, a map or Lambda of those).
  ViewPtr inverseDest(const ir::FunDecl& f, const ir::Type& argType, const ViewPtr& dest);
  ViewPtr invertBody(const ir::ExprPtr& body, const ViewPtr& dest);

  void checkUserFun(const ir::UserFun& u, const backends::UserFunDef& d);

  // ---- values (kernel_gen.cpp)
  ScalarVal readScalar(const ViewPtr& v);
  ScalarVal readTuple(const ViewPtr& v);
  backends::CExpr lvalue(const ViewPtr& v, backends::CExpr* storeGuard = nullptr);
  // dest = value, guarded where dest passes crop's destination (an element crop drops).
  void store(const ViewPtr& dest, backends::CExpr value);
  void copy(const ViewPtr& dest, const ViewPtr& src, const ir::Type& t);
  // Vectors (asVector): one load or store of n elements where they are contiguous and aligned.
  backends::CExpr vectorAccess(const ViewPtr& v, const ir::Type& t, bool write);
  bool vectorArray(const std::string& name) const;
  bool copyVector(const ViewPtr& dest, const ViewPtr& src, const ir::Type& t);
  void copyTop(const ViewPtr& dest, const ViewPtr& src, const ir::Type& t);
  ViewPtr bindTemp(const ScalarVal& v, const std::string& base);

  // ---- table folding (table_folding.cpp)
  ViewPtr generatorElement(const ir::ArrayGen& g, const std::vector<ir::ArithExpr>& idx,
                           const ir::Type& elemType);
  std::optional<ViewPtr> makeTable(const ir::ArrayGen& g, const ir::Type& elem);
  // A table (ir::Table, folded by rewrites::foldClosed) as a memory view, one memory per node.
  ViewPtr tableView(const ir::Table& t);
  // gather(idx) of `parent`: its index list also as an int table (one per list and direction),
  // read where an element's index is not a constant.
  ViewPtr gatherOf(const ViewPtr& parent, const std::vector<int64_t>& idx);
  // Memory holding `values` (literals, row-major) of an array of `elem` with sizes `n`: a
  // __constant array in the source up to constantTableMaxBytes, else a table buffer.
  ViewPtr tableMemory(const ir::Type& elem, const std::vector<int64_t>& n,
                      std::vector<backends::CExpr> values);
  // The same for numbers (reals with im 0), made literals of type `ct` only for a __constant
  // array: a table buffer takes their bytes directly (a chirp spectrum of 2^21 elements was
  // 2^21 literal nodes, built and read back, about 0.4 s).
  ViewPtr tableMemory(const ir::Type& elem, const std::vector<int64_t>& n,
                      std::span<const std::complex<double>> values, const backends::CType& ct,
                      bool complex);
  // A table buffer (manifest role "table") of `bytes`, the device bytes of an array of `elem`
  // with sizes `n`.
  ViewPtr tableBuffer(const ir::Type& elem, const std::vector<int64_t>& n,
                      std::vector<uint8_t> bytes);

  // ---- memory (kernel_gen_state.cpp; the space from address_space.h)
  ViewPtr allocate(const ir::Type& t, std::optional<backends::MemSpace> space);
  backends::CType ctype(const ir::Type& t);
  MemoryPtr newBuffer(std::string name, MemRole role, const ir::Type& type);

  // ---- statements, loops, stages, the access trace (kernel_gen_state.cpp)
  void emit(const backends::StmtPtr& s);
  backends::StmtPtr openLoop(LoopKind kind, int dim, const ir::ArithExpr& extent,
                             const std::string& base, ir::ArithExpr& var);
  void closeLoop();
  void openStage(bool parallel);
  void closeStage();
  bool atTopLevel() const { return loops_.empty(); }
  int workgroupDepth() const;  // index in loops_ of the innermost Workgroup loop, -1 if none
  // The blocks of the enclosing mapCluster (1: none); pendingCluster_ is the mapCluster's
  // while its loop opens.
  int64_t clusterOf() const;
  int64_t pendingCluster_ = 1;
  int64_t pendingBlocks_ = 0;  // the cluster's blocks while a mapBlock's loop opens
  std::string fresh(const std::string& base);
  // Records a memory access in the trace (and the global memories a stage uses).
  void onAccess(const Memory& m, const ir::ArithExpr& index);
  void traceEvent(TraceEvent::Kind kind, backends::StmtPtr loop = nullptr);
  ir::ArithExpr canonicalLocal(const ir::ArithExpr& index);

  const CodegenOptions& opt_;
  std::string name_;
  backends::Module module_;
  std::vector<backends::StmtPtr> blocks_;
  std::vector<LoopFrame> loops_;
  std::vector<StageDraft> stages_;
  int cur_ = -1;
  std::unordered_map<const ir::Param*, ViewPtr> env_;
  std::vector<MemoryPtr> buffers_;  // global: inputs, output, temps, tables
  std::unordered_set<std::string> names_;
  std::map<std::string, int> counters_;
  bool writing_ = false;
  bool usesVectors_ = false;  // the kernel has an asVector: its local arrays are not padded
  int dryRun_ = 0;  // > 0 while folding a table: no memory accesses are recorded
  std::map<const ir::ArrayGen*, std::optional<ViewPtr>> tables_;
  std::map<const ir::Table*, ViewPtr> foldedTables_;
  struct GatherTable {
    std::shared_ptr<const std::vector<int64_t>> indices;
    ViewPtr table;
  };
  std::map<const std::vector<int64_t>*, GatherTable> gatherTables_;
  std::map<const Memory*, std::vector<uint8_t>> tableData_;  // table buffers' device bytes
  std::vector<MemoryPtr> locals_;      // by allocation order
  AccessTrace trace_;
  std::vector<ir::SourceLoc> callLocs_;  // the calls being generated that have a location
  int wgStatement_ = 0;                // counts loops opened directly inside a mapWorkgroup
  std::map<std::string, ir::ArithExpr> canon_;               // canonical local ids
  int tempCount_ = 0;
  int64_t iterateSteps_ = 0;    // against opt_.maxIterateSteps
  int64_t unrolledBodies_ = 0;  // against opt_.maxUnrolledBodies
  // The zero an unrolled reduction starts from, during its first step: an addition with this
  // view as an operand is the other operand (applyReduce, applyScalar).
  ViewPtr zeroInit_;
  // reduceSeqPrefetch (applySpreadReduce): while its copies are generated in two halves, Load
  // (global memory into registers) and Store (registers into local memory), each element copy
  // goes through the register prefetchRegister gives: one private array per copy site, in the
  // order the halves visit them, indexed by the phase's loops (a work-item's iterations).
  enum class PrefetchPhase : uint8_t { None, Load, Store };
  PrefetchPhase phase_ = PrefetchPhase::None;
  struct PhaseLoop {
    ir::ArithExpr var;
    int64_t extent;
  };
  std::vector<PhaseLoop> phaseLoops_;
  std::vector<ViewPtr> prefetchRegs_;
  size_t prefetchSite_ = 0;
  backends::StmtPtr prefetchDeclBlock_;  // where the registers are declared (before the loop)
  size_t prefetchDeclAt_ = 0;
  // the staged copies of the step being generated, already in local memory
  std::unordered_map<const ir::FunCall*, ViewPtr> prefetched_;
  void spend(int64_t& used, int64_t n, int64_t budget, const ir::SourceLoc& loc,
             const std::string& what);
  std::map<std::string, std::string> structNames_;
  ViewResolver resolver_;
};

}  // namespace fftc::compiler::codegen
