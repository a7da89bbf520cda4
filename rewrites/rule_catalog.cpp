// The rules by name, for the strategy language and exploration.
#include <algorithm>

#include "rewrites/rules.h"

namespace fftc::rewrites {

namespace {

RuleInfo plain(std::string name, std::string group, Rule (*make)()) {
  RuleInfo r;
  r.signature = name;
  r.name = std::move(name);
  r.group = std::move(group);
  r.make = [make](const std::vector<int64_t>&) { return make(); };
  return r;
}

RuleInfo withDim(std::string name, Rule (*make)(int)) {
  RuleInfo r;
  r.signature = name + "(d = 0)";
  r.name = std::move(name);
  r.group = "lowering";
  r.maxParams = 1;
  r.defaults = {0};
  r.make = [make](const std::vector<int64_t>& p) { return make(static_cast<int>(p.at(0))); };
  return r;
}

// An algorithmic rule with one chunk size k.
RuleInfo chunked(std::string name, Rule (*make)(ir::ArithExpr)) {
  RuleInfo r;
  r.signature = name + "(k)";
  r.name = std::move(name);
  r.group = "algorithmic";
  r.minParams = r.maxParams = 1;
  r.make = [make](const std::vector<int64_t>& p) { return make(p.at(0)); };
  return r;
}

// An algorithmic rule with a block of r x c (c = r when not given).
RuleInfo blocked(std::string name, Rule (*make)(ir::ArithExpr, ir::ArithExpr)) {
  RuleInfo r;
  r.signature = name + "(r, c = r)";
  r.name = std::move(name);
  r.group = "algorithmic";
  r.minParams = 1;
  r.maxParams = 2;
  r.defaults = {0};  // c = 0: square blocks, c = r
  r.make = [make](const std::vector<int64_t>& p) {
    return make(p.at(0), p.at(1) > 0 ? p.at(1) : p.at(0));
  };
  return r;
}

std::vector<RuleInfo> buildCatalog() {
  std::vector<RuleInfo> c;
  c.push_back(plain("mapFusion", "algorithmic", rules::mapFusion));
  c.push_back(plain("mapFission", "algorithmic", rules::mapFission));
  {
    RuleInfo r;
    r.name = "splitJoin";
    r.signature = "splitJoin(k)";
    r.group = "algorithmic";
    r.minParams = r.maxParams = 1;
    r.make = [](const std::vector<int64_t>& p) { return rules::splitJoin(p.at(0)); };
    c.push_back(r);
  }
  c.push_back(plain("joinSplit", "algorithmic", rules::joinSplit));
  c.push_back(plain("transposeTransposeId", "algorithmic", rules::transposeTransposeId));
  c.push_back(plain("joinSplitId", "algorithmic", rules::joinSplitId));
  c.push_back(plain("splitJoinId", "algorithmic", rules::splitJoinId));
  c.push_back(plain("mapMapInterchange", "algorithmic", rules::mapMapInterchange));
  c.push_back(plain("reduceMapFusion", "algorithmic", rules::reduceMapFusion));
  c.push_back(plain("mapZipFlatten", "algorithmic", rules::mapZipFlatten));
  c.push_back(plain("mapZipFlattenViews", "algorithmic", rules::mapZipFlattenViews));
  c.push_back(plain("mapIntoProducer", "algorithmic", rules::mapIntoProducer));
  c.push_back(plain("mapZipFusion", "algorithmic", rules::mapZipFusion));
  {
    RuleInfo r;
    r.name = "splitReduce";
    r.signature = "splitReduce(k)";
    r.group = "algorithmic";
    r.minParams = r.maxParams = 1;
    r.make = [](const std::vector<int64_t>& p) { return rules::splitReduce(p.at(0)); };
    c.push_back(r);
  }
  c.push_back(plain("splitMap", "algorithmic", rules::splitMap));
  c.push_back(chunked("splitStrideReduce", rules::splitStrideReduce));
  c.push_back(chunked("splitReduceMap", rules::splitReduceMap));
  c.push_back(chunked("splitStrideMap", rules::splitStrideMap));
  c.push_back(plain("dropZeroTerms", "algorithmic", rules::dropZeroTerms));
  c.push_back(plain("padThroughMap", "algorithmic", rules::padThroughMap));
  c.push_back(plain("transposePad", "algorithmic", rules::transposePad));
  c.push_back(plain("cropTranspose", "algorithmic", rules::cropTranspose));
  c.push_back(plain("padCropFusion", "algorithmic", rules::padCropFusion));
  {
    RuleInfo r;
    r.name = "tile2D";
    r.signature = "tile2D(r, c = r)";
    r.group = "algorithmic";
    r.minParams = 1;
    r.maxParams = 2;
    r.defaults = {0};  // c = 0: square tiles, c = r
    r.make = [](const std::vector<int64_t>& p) {
      return rules::tile2D(p.at(0), p.at(1) > 0 ? p.at(1) : p.at(0));
    };
    c.push_back(r);
  }
  c.push_back(plain("mapReduceInterchange", "algorithmic", rules::mapReduceInterchange));
  c.push_back(blocked("tile2DStride", rules::tile2DStride));
  c.push_back(blocked("registerBlock", rules::registerBlock));
  c.push_back(blocked("registerBlockVector", rules::registerBlockVector));
  {
    RuleInfo r;
    r.name = "registerBlockGroups";
    r.signature = "registerBlockGroups(r, c, w)";
    r.group = "algorithmic";
    r.minParams = r.maxParams = 3;
    r.make = [](const std::vector<int64_t>& p) {
      return rules::registerBlockGroups(p.at(0), p.at(1), p.at(2));
    };
    c.push_back(r);
  }
  {
    RuleInfo r = chunked("stageLocal", rules::stageLocal);
    r.group = "memory";
    c.push_back(r);
  }
  {
    RuleInfo r = chunked("stageLocalVector", rules::stageLocalVector);
    r.group = "memory";
    c.push_back(r);
  }
  {
    RuleInfo r = chunked("stageLocalPrefetch", rules::stageLocalPrefetch);
    r.group = "memory";
    c.push_back(r);
  }
  using Make = Rule (*)(ir::ArithExpr);
  for (auto [name, make] : {std::pair<std::string, Make>{"vectorize", rules::vectorize},
                            std::pair<std::string, Make>{"vectorizeOperand",
                                                         rules::vectorizeOperand}}) {
    RuleInfo r = chunked(name, make);
    r.signature = name + "(n)";
    r.group = "memory";
    c.push_back(r);
  }
  c.push_back(plain("prefetchChunks", "memory", rules::prefetchChunks));
  c.push_back(chunked("slideTile", rules::slideTile));
  c.push_back(blocked("slideTile2D", rules::slideTile2D));
  {
    RuleInfo r = blocked("slideTileRegisters", rules::slideTileRegisters);
    r.signature = "slideTileRegisters(r, c = 1)";
    r.group = "lowering";
    r.defaults = {1};  // a column of r outputs a work-item: the register sliding window
    r.make = [](const std::vector<int64_t>& p) { return rules::slideTileRegisters(p.at(0), p.at(1)); };
    c.push_back(r);
  }
  {
    RuleInfo r = blocked("slideTileLocal", rules::slideTileLocal);
    r.signature = "slideTileLocal(r, c = 32)";
    r.group = "memory";
    r.defaults = {32};  // r x 32 outputs a work-group: (r + 2) x 34 work-items for a 3 x 3 window
    r.make = [](const std::vector<int64_t>& p) { return rules::slideTileLocal(p.at(0), p.at(1)); };
    c.push_back(r);
  }
  c.push_back(withDim("mapGlobal", rules::mapGlobal));
  c.push_back(withDim("mapWorkgroup", rules::mapWorkgroup));
  c.push_back(withDim("mapLocal", rules::mapLocal));
  c.push_back(withDim("mapWorkgroupLocal", rules::mapWorkgroupLocal));
  c.push_back(plain("mapGlobal2D", "lowering", rules::mapGlobal2D));
  c.push_back(plain("mapWorkgroup2D", "lowering", rules::mapWorkgroup2D));
  c.push_back(plain("mapLocal2D", "lowering", rules::mapLocal2D));
  c.push_back(plain("mapSeq", "lowering", rules::mapSeq));
  c.push_back(plain("mapSeqUnroll", "lowering", rules::mapSeqUnroll));
  c.push_back(plain("reduceSeq", "lowering", rules::reduceSeq));
  c.push_back(plain("reduceSeqUnroll", "lowering", rules::reduceSeqUnroll));
  c.push_back(plain("toGlobal", "memory", rules::toGlobal));
  c.push_back(plain("toLocal", "memory", rules::toLocal));
  c.push_back(plain("toPrivate", "memory", rules::toPrivate));
  return c;
}

}  // namespace

const std::vector<RuleInfo>& ruleCatalog() {
  static const std::vector<RuleInfo> catalog = buildCatalog();
  return catalog;
}

const RuleInfo* findRule(std::string_view name) {
  for (const auto& r : ruleCatalog())
    if (r.name == name) return &r;
  return nullptr;
}

std::optional<Rule> makeRule(std::string_view name, const std::vector<int64_t>& params,
                             std::string* error) {
  const RuleInfo* info = findRule(name);
  auto fail = [&](std::string msg) -> std::optional<Rule> {
    if (error) *error = std::move(msg);
    return std::nullopt;
  };
  if (!info) return fail("unknown rule '" + std::string(name) + "'");
  if (params.size() < info->minParams || params.size() > info->maxParams)
    return fail("rule " + info->signature + " takes " +
                (info->minParams == info->maxParams
                     ? std::to_string(info->minParams)
                     : std::to_string(info->minParams) + " to " + std::to_string(info->maxParams)) +
                " integer parameter(s), got " + std::to_string(params.size()));
  std::vector<int64_t> full = params;
  for (size_t i = params.size(); i < info->maxParams; ++i)
    full.push_back(info->defaults.at(i - info->minParams));
  if ((info->name == "tile2D" || info->name == "tile2DStride" || info->name == "registerBlock" ||
       info->name == "registerBlockVector" || info->name == "registerBlockGroups" ||
       info->name == "slideTile2D") &&
      (full[0] <= 0 || full[1] < 0))
    return fail(info->name + "(r, c): r and c must be positive, got " + std::to_string(full[0]) +
                ", " + std::to_string(full[1]));
  if (info->name == "registerBlockGroups" && (full[1] <= 0 || full[2] <= 0))
    return fail("registerBlockGroups(r, c, w): c and w must be positive, got " +
                std::to_string(full[1]) + ", " + std::to_string(full[2]));
  if ((info->name == "slideTileRegisters" || info->name == "slideTileLocal") &&
      (full[0] <= 0 || full[1] <= 0))
    return fail(info->name + "(r, c): r and c must be positive, got " +
                std::to_string(full[0]) + ", " + std::to_string(full[1]));
  if ((info->name == "splitJoin" || info->name == "stageLocal" || info->name == "slideTile" ||
       info->name == "stageLocalVector" || info->name == "stageLocalPrefetch") &&
      full[0] <= 0)
    return fail(info->name + "(k): k must be positive, got " + std::to_string(full[0]));
  if ((info->name == "vectorize" || info->name == "vectorizeOperand") && full[0] != 2 &&
      full[0] != 4)
    return fail(info->name + "(n): the width n must be 2 or 4, got " + std::to_string(full[0]));
  if (info->group == "lowering" && info->maxParams == 1 && (full[0] < 0 || full[0] > 2))
    return fail(info->name + "(d): the dimension d must be 0, 1 or 2, got " +
                std::to_string(full[0]));
  return info->make(full);
}

std::vector<Rule> instantiateRules(const std::vector<std::string>& names,
                                   const std::vector<int64_t>& paramValues) {
  std::vector<Rule> out;
  for (const auto& n : names) {
    const RuleInfo* info = findRule(n);
    if (!info) throw std::invalid_argument("instantiateRules: unknown rule '" + n + "'");
    if (info->minParams == 0) {
      out.push_back(*makeRule(n, {}));
      continue;
    }
    for (int64_t v : paramValues)
      if (auto r = makeRule(n, {v})) out.push_back(*r);
  }
  return out;
}

}  // namespace fftc::rewrites
