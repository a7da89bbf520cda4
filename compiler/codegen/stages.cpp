// The stages pass (stages.h).
#include "compiler/codegen/stages.h"

#include <algorithm>

#include "compiler/codegen/table_folding.h"

namespace fftc::compiler::codegen {

using ir::ArithExpr;

void recordAccesses(GeneratedKernel& g) {
  for (const auto& e : g.trace) {
    if (e.kind != TraceEvent::Kind::Access) continue;
    auto& lines = g.stages.at(static_cast<size_t>(e.stage)).accesses;
    std::string line =
        std::string(e.writing ? "write " : "read ") + e.memory->name + "[" + e.index.str() + "]";
    if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
  }
}

void stageGeometry(const StageDraft& st, const CodegenOptions& options, StageInfo& si,
                   const std::vector<int64_t>& shape) {
  const bool wg = std::any_of(std::begin(st.groups), std::end(st.groups),
                              [](const auto& g) { return g.has_value(); });
  for (int d = 0; d < st.dims; ++d) {
    if (!st.parallel) {
      si.global.emplace_back(1);
      continue;
    }
    if (wg) {
      int64_t l = st.barrierRows[d] > 0 ? st.barrierRows[d] : st.local[d] > 0 ? st.local[d] : 1;
      si.global.push_back(st.groups[d].value_or(1) * l);
      si.local.emplace_back(l);
    } else {
      ArithExpr n = st.global[d].value_or(1);
      if (options.defaultLocalSize > 0) {
        // Rounded up to a multiple of the work-group size: the loops stride over the rest.
        const ArithExpr l = options.defaultLocalSize;
        n = (n + l - 1) / l * l;
        si.local.push_back(l);
      }
      si.global.push_back(n);
    }
  }
  if (!st.parallel) si.local = {ArithExpr(1)};
  for (size_t d = 0; d < shape.size() && d < si.local.size(); ++d) {
    // A barrier's row loop runs once per work-item only at its own extent: another size would
    // leave work-items out of the barrier or run the loop twice across it.
    if (d < 3 && st.barrierRows[d] > 0 && shape[d] != st.barrierRows[d])
      throw ir::CompileError({}, "code generation: work-group size " + std::to_string(shape[d]) +
                                     " in dimension " + std::to_string(d) +
                                     " for a barrier in a mapLocal loop of " +
                                     std::to_string(st.barrierRows[d]) + " iterations");
    si.global[d] = si.global[d] / si.local[d] * shape[d];
    si.local[d] = shape[d];
  }
}

namespace {

bool live(const StageDraft& st) { return !st.body->body.empty() || !st.localDecls.empty(); }

}  // namespace

void stageShapes(std::vector<StageDraft>& stages, const CodegenOptions& options) {
  // The caller's shapes were chosen for a kernel of this many stages; another lowering (a
  // strategy of the user's, a fallback) keeps its own.
  if (options.stageLocal.empty() ||
      options.stageLocal.size() !=
          static_cast<size_t>(std::count_if(stages.begin(), stages.end(), live)))
    return;
  size_t i = 0;
  for (auto& st : stages)
    if (live(st)) st.shape = options.stageLocal[i++];
}

CompiledKernel assembleStages(GeneratedKernel& g, const CodegenOptions& options) {
  CompiledKernel ck;
  ck.name = g.name;
  ck.target = options.dialect ? options.dialect->name() : "opencl";
  ck.sizeVarNames = g.sizeVarNames;
  ck.sizeVars = g.sizeVars;
  ck.sizes = options.sizes;
  ck.module = g.module;
  for (auto& st : g.stages) {
    if (!live(st)) continue;
    backends::KernelFunc k;
    k.name = g.name + "_stage" + std::to_string(ck.stages.size());
    StageInfo si;
    si.kernel = k.name;
    for (const auto& b : g.buffers) {
      if (std::find(st.used.begin(), st.used.end(), b) == st.used.end()) continue;
      backends::KernelParam p;
      p.name = b->name;
      p.type = b->elemC;
      p.pointer = true;
      p.space = backends::MemSpace::Global;
      p.readOnly = !st.written.count(b.get());
      k.params.push_back(p);
      si.args.push_back(b->name);
    }
    for (const auto& n : g.sizeVarNames) {
      backends::KernelParam p;
      p.name = n;
      p.type = backends::CType::of(backends::CType::Kind::Int);
      k.params.push_back(p);
      si.args.push_back(n);
    }
    k.body = backends::sBlock();
    const int64_t staticLimit = options.dialect ? options.dialect->staticLocalLimit() : 0;
    if (staticLimit > 0 && st.localBytes > staticLimit) {
      // carved from dynamic local memory, each array aligned to 16 bytes
      for (size_t i = 0; i < st.localDecls.size(); ++i) {
        st.localDecls[i]->dynamicOffset = si.dynamicLocalBytes;
        si.dynamicLocalBytes += (st.localDeclBytes[i] + 15) / 16 * 16;
      }
    }
    for (const auto& d : st.localDecls) k.body->body.push_back(d);
    for (const auto& s : st.body->body) k.body->body.push_back(s);
    stageGeometry(st, options, si, st.shape);
    k.maxWorkItems = si.local.empty() ? 0 : 1;
    for (const auto& l : si.local) {
      const auto c = l.constant();
      k.maxWorkItems = c && k.maxWorkItems > 0 ? k.maxWorkItems * *c : 0;
    }
    if (k.maxWorkItems > 0) k.minBlocks = std::max<int64_t>(0, options.minBlocksPerMultiprocessor);
    k.clusterBlocks = st.cluster;
    si.clusterBlocks = st.cluster;
    ck.module.kernels.push_back(k);
    si.localMemoryBytes = st.localBytes;
    si.accesses = st.accesses;
    ck.stages.push_back(std::move(si));
  }
  for (const auto& b : g.buffers) {
    BufferInfo bi;
    bi.name = b->name;
    bi.role = roleName(b->role);
    bi.element = b->element;
    bi.elementC = options.dialect ? options.dialect->typeName(b->elemC) : "";
    bi.count = b->count;
    bi.elementBytes = deviceBytes(b->element);
    bi.type = b->type;
    bi.layout = b->layout;
    if (b->role == MemRole::Table) {
      bi.data = TableBytes(std::move(g.tableData.at(b.get())));  // g's last use of them
      bi.dataFile = g.name + "_" + b->name + ".bin";
    }
    ck.buffers.push_back(std::move(bi));
  }
  return ck;
}

}  // namespace fftc::compiler::codegen
