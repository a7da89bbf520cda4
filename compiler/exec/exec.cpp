// Running compiled kernels on OpenCL and checking them against the interpreter (exec.h).
#include "compiler/exec/exec.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "backends/common/median.h"
#include "compiler/codegen/memory.h"
#include "compiler/codegen/userfun_interp.h"

namespace fftc::compiler::exec {

namespace cl = backends::opencl;
using ir::Type;
using ir::Value;

namespace {

void packInto(std::vector<uint8_t>& out, const Value& v, const Type& t) {
  auto put = [&](const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  };
  if (t.isArray()) {
    for (const auto& e : v.elems()) packInto(out, e, t.element());
    return;
  }
  if (t.isTuple()) {
    const size_t start = out.size();
    for (size_t c = 0; c < t.components().size(); ++c) {
      auto a = static_cast<size_t>(codegen::deviceAlign(t.components()[c]));
      while ((out.size() - start) % a) out.push_back(0);
      packInto(out, v.elems().at(c), t.components()[c]);
    }
    while (out.size() - start < static_cast<size_t>(codegen::deviceBytes(t))) out.push_back(0);
    return;
  }
  const bool dbl = t.scalarKind() == ir::ScalarKind::Double;
  if (t.isComplex()) {
    auto c = v.asComplex();
    if (dbl) {
      double re = c.real(), im = c.imag();
      put(&re, 8);
      put(&im, 8);
    } else {
      float re = static_cast<float>(c.real()), im = static_cast<float>(c.imag());
      put(&re, 4);
      put(&im, 4);
    }
  } else if (t.isInt()) {
    auto i = static_cast<int32_t>(v.asInt());
    put(&i, 4);
  } else if (dbl) {
    double d = v.asReal();
    put(&d, 8);
  } else {
    float f = static_cast<float>(v.asReal());
    put(&f, 4);
  }
}

Value unpackFrom(std::span<const uint8_t> bytes, size_t& pos, const Type& t) {
  auto get = [&](void* p, size_t n) {
    if (pos + n > bytes.size()) throw backends::DeviceError("output buffer too small");
    std::memcpy(p, bytes.data() + pos, n);
    pos += n;
  };
  if (t.isArray()) {
    auto n = t.size().constant();
    if (!n) throw backends::UserError("unpack: symbolic size " + t.str());
    std::vector<Value> es;
    es.reserve(static_cast<size_t>(*n));
    for (int64_t i = 0; i < *n; ++i) es.push_back(unpackFrom(bytes, pos, t.element()));
    return Value::array(std::move(es));
  }
  if (t.isTuple()) {
    const size_t start = pos;
    std::vector<Value> cs;
    for (const auto& c : t.components()) {
      auto a = static_cast<size_t>(codegen::deviceAlign(c));
      while ((pos - start) % a) ++pos;
      cs.push_back(unpackFrom(bytes, pos, c));
    }
    pos = start + static_cast<size_t>(codegen::deviceBytes(t));
    return Value::tuple(std::move(cs));
  }
  const bool dbl = t.scalarKind() == ir::ScalarKind::Double;
  if (t.isComplex()) {
    if (dbl) {
      double re, im;
      get(&re, 8);
      get(&im, 8);
      return Value::ofComplex({re, im}, ir::ScalarKind::Double);
    }
    float re, im;
    get(&re, 4);
    get(&im, 4);
    return Value::ofComplex({re, im}, ir::ScalarKind::Float);
  }
  if (t.isInt()) {
    int32_t i;
    get(&i, 4);
    return Value::ofInt(i);
  }
  if (dbl) {
    double d;
    get(&d, 8);
    return Value::ofDouble(d);
  }
  float f;
  get(&f, 4);
  return Value::ofFloat(f);
}

void flatten(const Value& v, std::vector<std::complex<double>>& out) {
  if (v.isArray() || v.isTuple()) {
    for (const auto& e : v.elems()) flatten(e, out);
    return;
  }
  out.push_back(v.asComplex());
}

}  // namespace

std::vector<uint8_t> packValue(const Value& v, const Type& t) {
  std::vector<uint8_t> out;
  packInto(out, v, t);
  return out;
}

Value unpackValue(std::span<const uint8_t> bytes, const Type& t) {
  size_t pos = 0;
  return unpackFrom(bytes, pos, t);
}

std::unordered_map<uint64_t, int64_t> bindSizes(const codegen::CompiledKernel& k,
                                                const std::map<std::string, int64_t>& sizes) {
  std::unordered_map<uint64_t, int64_t> out;
  for (size_t i = 0; i < k.sizeVars.size(); ++i) {
    auto it = sizes.find(k.sizeVarNames[i]);
    if (it == sizes.end())
      throw backends::UserError("no value for the size variable " + k.sizeVarNames[i] +
                                " (give -D " + k.sizeVarNames[i] + "=...)");
    out[k.sizeVars[i].varId()] = it->second;
  }
  return out;
}

Type concreteType(const Type& t, const std::unordered_map<uint64_t, int64_t>& sizes) {
  std::unordered_map<uint64_t, ir::ArithExpr> sub;
  for (const auto& [id, v] : sizes) sub.emplace(id, ir::ArithExpr(v));
  return t.substitute(sub);
}

void checkDevice(const cl::DeviceInfo& device, const codegen::CompiledKernel& k) {
  if (k.usesDouble) cl::requireDoubleSupport(device);
  // A work-group larger than the device's is the kernel's limit, not a device failure (an
  // explored variant with 128 x 128 work-items a group is recorded as not runnable).
  for (const auto& s : k.stages) {
    int64_t items = 1;
    bool known = true;
    for (size_t d = 0; d < s.local.size(); ++d) {
      const auto l = s.local[d].constant();
      known = known && l.has_value();
      if (!l) continue;
      items *= *l;
      if (d < device.maxWorkItemSizes.size() &&
          static_cast<size_t>(*l) > device.maxWorkItemSizes[d])
        throw backends::UserError(fmt::format(
            "stage {}: a work-group of {} work-items in dimension {} exceeds the {} of {}",
            s.kernel, *l, d, device.maxWorkItemSizes[d], device.name));
    }
    if (known && device.maxWorkGroupSize > 0 &&
        static_cast<size_t>(items) > device.maxWorkGroupSize)
      throw backends::UserError(
          fmt::format("stage {}: a work-group of {} work-items exceeds the {} of {}", s.kernel,
                      items, device.maxWorkGroupSize, device.name));
  }
}

namespace {
// Programs built in this process, by source (PoCL compiles every build with LLVM).
const cl::Program& cachedBuild(const cl::Context& context, const std::string& source) {
  static std::mutex mu;
  static std::map<std::pair<cl_context, std::string>, std::unique_ptr<cl::Program>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_pair(context.get(), source);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, std::make_unique<cl::Program>(context.build(source))).first;
  return *it->second;
}
}  // namespace

namespace {
// Calls f(dense index, strided index) for every element of the layout, row-major.
template <typename F>
void forEachStrided(const codegen::BufferLayout& l, F f) {
  const size_t d = l.dims.size();
  std::vector<int64_t> i(d, 0);
  int64_t total = 1;
  for (int64_t n : l.dims) total *= n;
  for (int64_t e = 0; e < total; ++e) {
    int64_t at = 0;
    for (size_t k = 0; k < d; ++k) at += i[k] * l.strides[k];
    f(static_cast<size_t>(e), static_cast<size_t>(at));
    for (size_t k = d; k-- > 0;) {
      if (++i[k] < l.dims[k]) break;
      i[k] = 0;
    }
  }
}
}  // namespace

std::vector<uint8_t> scatterToLayout(std::span<const uint8_t> dense, size_t elementBytes,
                                     const codegen::BufferLayout& layout) {
  std::vector<uint8_t> out(static_cast<size_t>(layout.extent()) * elementBytes, 0);
  forEachStrided(layout, [&](size_t e, size_t at) {
    if ((e + 1) * elementBytes <= dense.size())
      std::copy_n(dense.begin() + static_cast<std::ptrdiff_t>(e * elementBytes), elementBytes,
                  out.begin() + static_cast<std::ptrdiff_t>(at * elementBytes));
  });
  return out;
}

std::vector<uint8_t> gatherFromLayout(std::span<const uint8_t> strided, size_t elementBytes,
                                      const codegen::BufferLayout& layout) {
  int64_t total = 1;
  for (int64_t n : layout.dims) total *= n;
  std::vector<uint8_t> out(static_cast<size_t>(total) * elementBytes, 0);
  forEachStrided(layout, [&](size_t e, size_t at) {
    if ((at + 1) * elementBytes <= strided.size())
      std::copy_n(strided.begin() + static_cast<std::ptrdiff_t>(at * elementBytes), elementBytes,
                  out.begin() + static_cast<std::ptrdiff_t>(e * elementBytes));
  });
  return out;
}

Value unpackOutput(const PreparedRun& run, std::span<const uint8_t> bytes) {
  const auto& b = *run.output;
  if (!b.layout) return unpackValue(bytes, run.outputType);
  return unpackValue(gatherFromLayout(bytes, static_cast<size_t>(b.elementBytes), *b.layout),
                     run.outputType);
}

PreparedRun prepareRun(const codegen::CompiledKernel& k, const std::vector<Value>& inputs,
                       const std::map<std::string, int64_t>& sizes) {
  PreparedRun run;
  run.bound = bindSizes(k, sizes);
  size_t inputIndex = 0;
  for (const auto& b : k.buffers) {
    PreparedBuffer pb;
    pb.info = &b;
    int64_t count = b.count.evaluate(run.bound);
    pb.bytes = static_cast<size_t>(std::max<int64_t>(count * b.elementBytes, 16));
    if (b.role == "input") {
      if (inputIndex >= inputs.size()) throw backends::UserError("too few inputs for " + k.name);
      pb.initial = packValue(inputs[inputIndex++], concreteType(b.type, run.bound));
      if (b.layout)
        pb.initial = scatterToLayout(pb.initial, static_cast<size_t>(b.elementBytes), *b.layout);
      if (pb.initial.size() > pb.bytes) throw backends::UserError("input " + b.name + " is too large");
    } else if (b.role == "table") {
      pb.initial.assign(b.data.begin(), b.data.end());
    } else if (b.role == "output") {
      run.output = &b;
      run.outputType = concreteType(b.type, run.bound);
    }
    run.buffers.push_back(std::move(pb));
  }
  if (inputIndex != inputs.size()) throw backends::UserError("too many inputs for " + k.name);
  if (!run.output) throw backends::UserError(k.name + " has no output buffer");
  for (const auto& s : k.stages) {
    PreparedStage ps;
    ps.info = &s;
    for (const auto& a : s.args) {
      PreparedArg pa;
      if (k.buffer(a)) {
        pa.buffer = a;
      } else {
        auto it = sizes.find(a);
        if (it == sizes.end())
          throw backends::UserError(fmt::format("stage {}: no value for the size argument {}",
                                                s.kernel, a));
        pa.value = static_cast<int32_t>(it->second);
      }
      ps.args.push_back(std::move(pa));
    }
    for (const auto& e : s.global) ps.global.push_back(static_cast<size_t>(e.evaluate(run.bound)));
    for (const auto& e : s.local) ps.local.push_back(static_cast<size_t>(e.evaluate(run.bound)));
    run.stages.push_back(std::move(ps));
  }
  return run;
}

RunResult runCompiled(const cl::Context& context, const codegen::CompiledKernel& k,
                      const std::vector<Value>& inputs, const std::map<std::string, int64_t>& sizes,
                      const TimingOptions& timing) {
  checkDevice(context.device(), k);
  for (const auto& s : k.stages)
    if (static_cast<uint64_t>(s.localMemoryBytes) > context.device().localMemBytes)
      throw backends::UserError(fmt::format("stage {} needs {} bytes of local memory; {} has {}",
                                            s.kernel, s.localMemoryBytes, context.device().name,
                                            context.device().localMemBytes));
  PreparedRun prepared = prepareRun(k, inputs, sizes);
  const cl::Program& program = cachedBuild(context, k.source);

  std::map<std::string, std::unique_ptr<cl::Buffer>> buffers;
  for (const auto& b : prepared.buffers) {
    auto buf = std::make_unique<cl::Buffer>(context, b.bytes);
    if (!b.initial.empty()) buf->writeBytes(context, b.initial.data(), b.initial.size());
    buffers[b.info->name] = std::move(buf);
  }

  std::vector<std::unique_ptr<cl::Kernel>> kernels;
  std::vector<cl::Launch> launches;
  for (const auto& s : prepared.stages) {
    kernels.push_back(std::make_unique<cl::Kernel>(program, s.info->kernel));
    cl::Launch l;
    l.kernel = kernels.back().get();
    for (const auto& a : s.args) {
      if (!a.buffer.empty()) {
        l.args.emplace_back(static_cast<const cl::Buffer*>(buffers.at(a.buffer).get()));
      } else {
        l.args.emplace_back(a.value);
      }
    }
    l.global = cl::NDRange::fromSizes(s.global);
    if (!s.local.empty()) l.local = cl::NDRange::fromSizes(s.local);
    launches.push_back(std::move(l));
  }
  auto once = [&] {
    cl::SequenceTiming t = cl::timeSequence(context, launches);
    return StageTimes{std::move(t.stageMs), t.totalMs};
  };
  RunResult rr;
  const StageTimes cold = once();
  const auto& outBuf = *buffers.at(prepared.output->name);
  std::vector<uint8_t> bytes(outBuf.bytes());
  outBuf.readBytes(context, bytes.data(), bytes.size());
  rr.output = unpackOutput(prepared, bytes);
  timeRuns(rr, cold, timing, once);
  return rr;
}

void timeRuns(RunResult& r, const StageTimes& cold, const TimingOptions& timing,
              const std::function<StageTimes()>& once) {
  r.timing = timing;
  r.coldMs = cold.totalMs;
  r.stageMs = cold.stageMs;
  r.totalMs = cold.totalMs;
  if (!timing.repeated()) return;
  for (int i = 0; i < timing.warmup; ++i) (void)once();
  std::vector<std::vector<double>> perStage(cold.stageMs.size());
  std::vector<double> totals;
  for (int i = 0; i < timing.repeat; ++i) {
    StageTimes t = once();
    for (size_t s = 0; s < perStage.size() && s < t.stageMs.size(); ++s)
      perStage[s].push_back(t.stageMs[s]);
    totals.push_back(t.totalMs);
  }
  for (size_t s = 0; s < perStage.size(); ++s) r.stageMs[s] = backends::median(perStage[s]);
  r.totalMs = backends::median(totals);
}

Value randomValue(const Type& t, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> real(-0.5, 0.5);
  if (t.isArray()) {
    auto n = t.size().constant();
    if (!n) throw backends::UserError("random input of symbolic size " + t.str());
    std::vector<Value> es;
    for (int64_t i = 0; i < *n; ++i) es.push_back(randomValue(t.element(), rng));
    return Value::array(std::move(es));
  }
  if (t.isTuple()) {
    std::vector<Value> cs;
    for (const auto& c : t.components()) cs.push_back(randomValue(c, rng));
    return Value::tuple(std::move(cs));
  }
  if (t.isComplex()) return Value::ofComplex({real(rng), real(rng)}, t.scalarKind());
  if (t.isInt()) return Value::ofInt(std::uniform_int_distribution<int64_t>(-8, 8)(rng));
  return Value::ofReal(real(rng), t.scalarKind());
}

double defaultTolerance(bool f64) { return f64 ? 1e-9 : 1e-4; }

Comparison compareValues(const Value& got, const Value& want, double tolerance) {
  std::vector<std::complex<double>> g, w;
  flatten(got, g);
  flatten(want, w);
  Comparison c;
  c.elements = w.size();
  if (g.size() != w.size()) {
    c.ok = false;
    c.firstMismatch = fmt::format("got {} elements, want {}", g.size(), w.size());
    return c;
  }
  double scale = 0;
  for (const auto& x : w) scale = std::max(scale, std::abs(x));
  // An absolute floor for results that cancel to ~0: their rounding error is relative to the
  // intermediate terms (inputs are O(1)), not to the tiny result; fused multiply-adds (GPUs)
  // round differently from the interpreter's separate operations.
  const double floor = tolerance * 0.1;
  for (size_t i = 0; i < w.size(); ++i) {
    double denom = std::max({std::abs(w[i]), scale * 1e-3, 1e-30});
    double err = std::abs(g[i] - w[i]) / denom;
    if (std::abs(g[i] - w[i]) <= floor) err = std::min(err, tolerance);
    if (std::isnan(err)) {
      err = std::numeric_limits<double>::infinity();
      c.maxErrorNan = true;
    }
    c.maxError = std::max(c.maxError, err);
    if (err > tolerance && c.ok) {
      c.ok = false;
      c.firstMismatch = fmt::format("element {}: got ({}, {}), want ({}, {})", i, g[i].real(),
                                    g[i].imag(), w[i].real(), w[i].imag());
    }
  }
  return c;
}

CheckResult checkWithRunner(const Runner& run, const ir::LambdaPtr& kernel,
                            const codegen::CompiledKernel& compiled,
                            const std::map<std::string, int64_t>& sizes, uint64_t seed,
                            const ir::InterpreterOptions& interp, bool reference) {
  CheckResult r;
  r.compiled = compiled;
  auto bound = bindSizes(compiled, sizes);
  std::mt19937_64 rng(seed);
  for (const auto& p : kernel->params())
    r.inputs.push_back(randomValue(concreteType(p->type(), bound), rng));
  r.run = run(r.inputs);
  r.device = r.run.output;
  if (!reference) return r;
  ir::InterpreterOptions o = interp;
  for (const auto& [id, v] : bound) o.sizes[id] = v;
  // Userfuns the caller gave no C++ for run from their C bodies, parsed in the target's dialect.
  codegen::addUserFunBodies(kernel, o, compiled.target);
  r.reference = ir::interpretCall(kernel, r.inputs, o);
  r.comparison = compareValues(r.device, r.reference, defaultTolerance(compiled.usesDouble));
  return r;
}

CheckResult checkAgainstInterpreter(const cl::Context& context, const ir::LambdaPtr& kernel,
                                    const codegen::CompiledKernel& compiled,
                                    const std::map<std::string, int64_t>& sizes, uint64_t seed,
                                    const ir::InterpreterOptions& interp) {
  return checkWithRunner(
      [&](const std::vector<Value>& inputs) {
        return runCompiled(context, compiled, inputs, sizes);
      },
      kernel, compiled, sizes, seed, interp);
}

void setNumber(boost::json::object& o, const std::string& key, double v) {
  if (std::isfinite(v)) {
    o[key] = v;
    return;
  }
  o[key] = nullptr;
  o[key + (std::isnan(v) ? "_nan" : "_inf")] = true;
}

boost::json::object reportJson(const CheckResult& r, const std::map<std::string, int64_t>& sizes,
                               bool checked) {
  boost::json::object o;
  o["name"] = r.compiled.name;
  o["target"] = r.compiled.target;
  o["precision"] = r.compiled.precision;
  boost::json::object sz;
  for (const auto& [n, v] : sizes) sz[n] = v;
  o["sizes"] = std::move(sz);
  boost::json::array stages;
  auto bound = bindSizes(r.compiled, sizes);
  for (size_t i = 0; i < r.compiled.stages.size(); ++i) {
    const auto& s = r.compiled.stages[i];
    boost::json::object st;
    st["kernel"] = s.kernel;
    boost::json::array g, l;
    for (const auto& e : s.global) g.emplace_back(e.evaluate(bound));
    for (const auto& e : s.local) l.emplace_back(e.evaluate(bound));
    st["global"] = std::move(g);
    st["local"] = std::move(l);
    if (i < r.run.stageMs.size()) st["ms"] = r.run.stageMs[i];
    stages.push_back(std::move(st));
  }
  o["stages"] = std::move(stages);
  setNumber(o, "time_ms", r.run.totalMs);
  setNumber(o, "cold_ms", r.run.coldMs);
  o["warmup"] = r.run.timing.warmup;
  o["repeat"] = r.run.timing.repeat;
  if (checked) {
    o["elements"] = r.comparison.elements;
    setNumber(o, "max_error", r.comparison.maxErrorNan ? std::nan("") : r.comparison.maxError);
    o["tolerance"] = defaultTolerance(r.compiled.usesDouble);
    o["ok"] = r.comparison.ok;
    if (!r.comparison.ok) o["first_mismatch"] = r.comparison.firstMismatch;
  }
  return o;
}

}  // namespace fftc::compiler::exec
