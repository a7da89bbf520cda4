// The manifest (CLI.md) and the views dump of a compiled kernel.
#include <boost/json.hpp>

#include "compiler/codegen/codegen.h"

namespace fftc::compiler::codegen {

namespace {

boost::json::array sizesArray(const std::vector<ir::ArithExpr>& v) {
  boost::json::array a;
  for (const auto& e : v) a.emplace_back(e.str());
  return a;
}

void pretty(std::string& out, const boost::json::value& v, int indent) {
  std::string pad(static_cast<size_t>(indent) * 2, ' ');
  if (v.is_object()) {
    const auto& o = v.as_object();
    if (o.empty()) {
      out += "{}";
      return;
    }
    out += "{\n";
    size_t k = 0;
    for (const auto& kv : o) {
      out += pad + "  " + boost::json::serialize(boost::json::value(kv.key())) + ": ";
      pretty(out, kv.value(), indent + 1);
      out += ++k < o.size() ? ",\n" : "\n";
    }
    out += pad + "}";
  } else if (v.is_array()) {
    const auto& a = v.as_array();
    // Arrays of scalars on one line, arrays of objects one per line.
    bool flat = std::all_of(a.begin(), a.end(), [](const auto& x) { return !x.is_structured(); });
    if (flat) {
      out += boost::json::serialize(v);
      return;
    }
    out += "[\n";
    for (size_t k = 0; k < a.size(); ++k) {
      out += pad + "  ";
      pretty(out, a[k], indent + 1);
      out += k + 1 < a.size() ? ",\n" : "\n";
    }
    out += pad + "]";
  } else {
    out += boost::json::serialize(v);
  }
}

}  // namespace

boost::json::object manifest(const CompiledKernel& k) {
  boost::json::object m;
  m["name"] = k.name;
  m["target"] = k.target;
  m["precision"] = k.precision;
  boost::json::object sizes;
  for (const auto& [n, v] : k.sizes) sizes[n] = v;
  m["sizes"] = std::move(sizes);
  boost::json::array sizeArgs;
  for (const auto& n : k.sizeVarNames) sizeArgs.emplace_back(n);
  m["size_args"] = std::move(sizeArgs);
  boost::json::array buffers;
  for (const auto& b : k.buffers) {
    boost::json::object o;
    o["name"] = b.name;
    o["role"] = b.role;
    o["element"] = b.elementC;
    o["count"] = b.count.str();
    o["element_bytes"] = b.elementBytes;
    if (!b.dataFile.empty()) o["data"] = b.dataFile;
    if (b.layout) {  // a strided input or output (CodegenOptions::inputLayouts/outputLayout)
      boost::json::object l;
      l["dims"] = boost::json::array(b.layout->dims.begin(), b.layout->dims.end());
      l["strides"] = boost::json::array(b.layout->strides.begin(), b.layout->strides.end());
      o["layout"] = std::move(l);
    }
    buffers.push_back(std::move(o));
  }
  m["buffers"] = std::move(buffers);
  boost::json::array stages;
  for (const auto& s : k.stages) {
    boost::json::object o;
    o["kernel"] = s.kernel;
    boost::json::array args;
    for (const auto& a : s.args) args.emplace_back(a);
    o["args"] = std::move(args);
    o["global"] = sizesArray(s.global);
    o["local"] = sizesArray(s.local);
    o["local_memory_bytes"] = s.localMemoryBytes;
    o["dynamic_local_memory_bytes"] = s.dynamicLocalBytes;
    if (s.clusterBlocks > 1) o["cluster_blocks"] = s.clusterBlocks;
    stages.push_back(std::move(o));
  }
  m["stages"] = std::move(stages);
  return m;
}

std::string manifestText(const CompiledKernel& k) {
  std::string out;
  pretty(out, manifest(k), 0);
  return out + "\n";
}

std::string viewsText(const CompiledKernel& k) {
  std::string out;
  for (const auto& s : k.stages) {
    out += s.kernel + ":\n";
    for (const auto& a : s.accesses) out += "  " + a + "\n";
  }
  return out;
}

}  // namespace fftc::compiler::codegen
