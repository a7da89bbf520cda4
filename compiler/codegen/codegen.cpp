// compileKernel: runs the generator, assembles the device kernels of the stages, prints them.
#include "compiler/codegen/codegen.h"

#include <algorithm>
#include <regex>
#include <set>

#include "compiler/clang/clang_helpers.h"
#include "compiler/codegen/kernel_gen.h"
#include "compiler/codegen/scalar_ops.h"
#include "ir/arith/arith_overflow.h"
#include "ir/diagnostic.h"


namespace fftc::compiler::codegen {

using backends::CExpr;
using ir::ArithExpr;
using ir::Type;

const BufferInfo* CompiledKernel::buffer(const std::string& n) const {
  for (const auto& b : buffers)
    if (b.name == n) return &b;
  return nullptr;
}

namespace {

// Device bytes of a table of literals.
std::vector<uint8_t> tableBytes(const std::vector<CExpr>& values, const Type& elem) {
  std::vector<uint8_t> out;
  auto put = [&](const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  };
  const bool dbl = elem.scalarKind() == ir::ScalarKind::Double;
  for (const auto& v : values) {
    auto l = literalOf(v).value_or(0);
    if (elem.isInt()) {
      auto i = static_cast<int32_t>(l.real());
      put(&i, 4);
    } else if (dbl) {
      double re = l.real(), im = l.imag();
      put(&re, 8);
      if (elem.isComplex()) put(&im, 8);
    } else {
      float re = static_cast<float>(l.real()), im = static_cast<float>(l.imag());
      put(&re, 4);
      if (elem.isComplex()) put(&im, 4);
    }
  }
  return out;
}

}  // namespace

void KernelGen::applyLayout(Memory& m, const BufferLayout& l) const {
  const auto count = m.count.constant();
  int64_t product = 1;
  bool ok = l.dims.size() == l.strides.size() && !l.dims.empty();
  for (size_t d = 0; ok && d < l.dims.size(); ++d) {
    ok = l.dims[d] >= 1 && l.strides[d] >= 1 && product <= (int64_t{1} << 40) / l.dims[d];
    if (ok) product *= l.dims[d];
  }
  if (!ok || !count || *count != product)
    throw ir::CompileError({}, "the layout of '" + m.name + "' (" + std::to_string(l.dims.size()) +
                                   " dims, product " + std::to_string(product) +
                                   ") does not fit its " + m.count.str() + " elements");
  m.layout = l;
  m.count = l.extent();
}

CompiledKernel KernelGen::run(const ir::LambdaPtr& kernel, const std::vector<std::string>& paramNames,
                              const std::vector<ArithExpr>& sizeVars) {
  std::vector<std::string> sizeNames;
  for (const auto& v : sizeVars) sizeNames.push_back(v.varName());
  for (const auto& n : paramNames) names_.insert(n);
  for (const auto& n : sizeNames) names_.insert(n);
  const auto& ps = kernel->params();
  std::set<std::string> laidOut;
  for (size_t i = 0; i < ps.size(); ++i) {
    std::string pn = i < paramNames.size() ? paramNames[i] : ps[i]->name();
    names_.insert(pn);
    laidOut.insert(pn);
    MemoryPtr m = newBuffer(pn, MemRole::Input, ps[i]->type());
    if (auto it = opt_.inputLayouts.find(pn); it != opt_.inputLayouts.end())
      applyLayout(*m, it->second);
    env_[ps[i].get()] = memView(m, ps[i]->type());
  }
  for (const auto& [n, l] : opt_.inputLayouts)
    if (!laidOut.count(n))
      throw ir::CompileError(kernel->loc(), "a layout for '" + n + "', which is not a parameter");
  const Type resultType = kernel->body()->type();
  MemoryPtr out = newBuffer(fresh("out"), MemRole::Output, resultType);
  if (opt_.outputLayout) applyLayout(*out, *opt_.outputLayout);
  ViewPtr dest = memView(out, resultType);
  Result r = gen(kernel->body(), dest);
  if (!r.written) copyTop(dest, r.view, resultType);
  if (cur_ >= 0) closeStage();

  CompiledKernel ck;
  ck.name = name_;
  ck.target = opt_.dialect ? opt_.dialect->name() : "opencl";
  ck.sizeVarNames = sizeNames;
  ck.sizeVars = sizeVars;
  ck.sizes = opt_.sizes;
  for (auto& st : stages_) {
    // A stage left with nothing to do (its only work folded into a constant table) is not
    // launched; the others are numbered in launch order.
    if (st.body->body.empty() && st.localDecls.empty()) continue;
    backends::KernelFunc k;
    k.name = name_ + "_stage" + std::to_string(ck.stages.size());
    StageInfo si;
    si.kernel = k.name;
    for (const auto& b : buffers_) {
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
    for (const auto& n : sizeNames) {
      backends::KernelParam p;
      p.name = n;
      p.type = backends::CType::of(backends::CType::Kind::Int);
      k.params.push_back(p);
      si.args.push_back(n);
    }
    k.body = backends::sBlock();
    const int64_t staticLimit = opt_.dialect ? opt_.dialect->staticLocalLimit() : 0;
    if (staticLimit > 0 && st.localBytes > staticLimit) {
      // carved from dynamic local memory, each array aligned to 16 bytes
      for (size_t i = 0; i < st.localDecls.size(); ++i) {
        st.localDecls[i]->dynamicOffset = si.dynamicLocalBytes;
        si.dynamicLocalBytes += (st.localDeclBytes[i] + 15) / 16 * 16;
      }
    }
    for (const auto& d : st.localDecls) k.body->body.push_back(d);
    for (const auto& s : st.body->body) k.body->body.push_back(s);
    module_.kernels.push_back(k);

    bool wg = std::any_of(std::begin(st.groups), std::end(st.groups),
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
        if (opt_.defaultLocalSize > 0) {
          // Rounded up to a multiple of the work-group size: the loops stride over the rest.
          const ArithExpr l = opt_.defaultLocalSize;
          n = (n + l - 1) / l * l;
          si.local.push_back(l);
        }
        si.global.push_back(n);
      }
    }
    if (!st.parallel) si.local = {ArithExpr(1)};
    si.localMemoryBytes = st.localBytes;
    si.accesses = st.accesses;
    ck.stages.push_back(std::move(si));
  }
  for (const auto& b : buffers_) {
    BufferInfo bi;
    bi.name = b->name;
    bi.role = roleName(b->role);
    bi.element = b->element;
    bi.elementC = opt_.dialect ? opt_.dialect->typeName(b->elemC) : "";
    bi.count = b->count;
    bi.elementBytes = byteSize(b->element);
    bi.type = b->type;
    bi.layout = b->layout;
    if (b->role == MemRole::Table) {
      bi.data = tableBytes(tableData_.at(b.get()), b->element);
      bi.dataFile = name_ + "_" + b->name + ".bin";
    }
    ck.buffers.push_back(std::move(bi));
  }
  ck.module = module_;
  return ck;
}

namespace {

CompiledKernel compileImpl(const ir::LambdaPtr& lambda, const std::string& name,
                           const std::vector<std::string>& paramNames,
                           const std::vector<ArithExpr>& sizeVars, const CodegenOptions& options) {
  if (!options.dialect) throw std::invalid_argument("CodegenOptions::dialect is not set");
  KernelGen gen(options, name);
  CompiledKernel ck = gen.run(lambda, paramNames, sizeVars);
  std::vector<int> plan = KernelGen::reusePlan(gen.localLives());
  if (std::any_of(plan.begin(), plan.end(), [](int o) { return o >= 0; })) {
    KernelGen again(options, name);  // the same kernel with local arrays sharing storage
    again.setReusePlan(std::move(plan));
    ck = again.run(lambda, paramNames, sizeVars);
  }
  backends::CPrinter printer(*options.dialect);
  ck.module.usesFloat = true;
  ck.module.usesDouble = false;
  std::string src = printer.module(ck.module);
  static const std::regex doubleWord("\\bdouble");
  if (std::regex_search(src, doubleWord)) {
    ck.module.usesDouble = true;
    src = printer.module(ck.module);
  }
  ck.usesDouble = ck.module.usesDouble;
  ck.precision = ck.usesDouble ? "f64" : "f32";
  if (options.format)
    src = clang_helpers::formatSource(src, options.dialect->name() == "cuda"
                                               ? clang_helpers::Dialect::Cuda
                                               : clang_helpers::Dialect::OpenCL);
  ck.source = std::move(src);
  return ck;
}

}  // namespace

CompiledKernel compileKernel(const frontend::Kernel& kernel, const CodegenOptions& options) {
  if (!kernel.lambda || !kernel.resultType)
    throw ir::CompileError(kernel.loc, "code generation needs a type-checked kernel");
  try {
    return compileImpl(kernel.lambda, options.name.empty() ? kernel.name : options.name,
                       kernel.paramNames, kernel.sizeVars, options);
  } catch (const ir::CompileError& e) {
    // Errors of the code generator's inner steps (views, buffers) carry no location: blame the
    // kernel, so the CLI prints FILE:LINE:COL like every other user error.
    if (e.loc().known()) throw;
    throw ir::CompileError(kernel.loc, "kernel " + kernel.name + ": " + e.message());
  } catch (const ir::ArithOverflow& e) {
    // Buffer sizes and indices folded from the program's sizes (a slide of 2^63 - 1 elements
    // on a symbolic N): too large for the kernel, a user error at the kernel.
    throw ir::CompileError(kernel.loc, "kernel " + kernel.name +
                                           ": a buffer size or index overflows 64-bit integers (" +
                                           e.what() + ")");
  }
}

CompiledKernel compileLambda(const ir::LambdaPtr& typedKernel, const std::string& name,
                             const std::vector<std::string>& paramNames,
                             const std::vector<ArithExpr>& sizeVars, const CodegenOptions& options) {
  return compileImpl(typedKernel, options.name.empty() ? name : options.name, paramNames,
                     sizeVars, options);
}

}  // namespace fftc::compiler::codegen
