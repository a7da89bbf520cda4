#include "tuner/wisdom.h"

#include "tuner/configuration.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace fftc::tuner {

namespace json = boost::json;

static constexpr int kWisdomVersion = 1;

static std::string nowUtc() {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
}

json::value Wisdom::toJson() const {
  json::array list;
  for (const auto& [k, e] : entries_) {
    json::object o;
    o["device"] = k.device;
    o["driver"] = k.driver;
    o["build"] = k.build;
    o["problem"] = k.problem;
    o["config"] = e.config;
    o["cost"] = e.cost;
    if (!e.extra.is_null()) o["extra"] = e.extra;
    o["recorded"] = e.recorded;
    list.push_back(std::move(o));
  }
  return json::object{{"fftc_wisdom", kWisdomVersion}, {"entries", std::move(list)}};
}

Wisdom Wisdom::fromJson(const json::value& j, const std::string& where) {
  auto bad = [&](const std::string& why) { return TunerError(where + ": " + why); };
  const auto* top = j.if_object();
  if (!top || !top->contains("fftc_wisdom") || !top->contains("entries") ||
      !top->at("entries").is_array())
    throw bad("not an fftc wisdom file (expected {\"fftc_wisdom\": 1, \"entries\": [...]})");
  if (top->at("fftc_wisdom") != json::value(kWisdomVersion))
    throw bad("wisdom format version " + json::serialize(top->at("fftc_wisdom")) +
              " is not the supported version 1");
  Wisdom w;
  std::size_t i = 0;
  for (const auto& item : top->at("entries").get_array()) {
    const auto* o = item.if_object();
    auto str = [&](std::string_view f) {
      const auto* v = o ? o->if_contains(f) : nullptr;
      if (!v || !v->is_string()) throw bad(fmt::format("entry {} has no string \"{}\"", i, f));
      return std::string(v->get_string());
    };
    WisdomKey k{str("device"), str("driver"), str("build"), str("problem")};
    WisdomEntry e;
    if (!o->contains("config") || !o->at("config").is_object() || !o->contains("cost") ||
        !o->at("cost").is_number())
      throw bad(fmt::format("entry {} needs a \"config\" object and a numeric \"cost\"", i));
    e.config = o->at("config").get_object();
    e.cost = o->at("cost").to_number<double>();
    if (o->contains("extra")) e.extra = o->at("extra");
    if (o->contains("recorded") && o->at("recorded").is_string())
      e.recorded = std::string(o->at("recorded").get_string());
    w.entries_.emplace_back(std::move(k), std::move(e));
    ++i;
  }
  return w;
}

Wisdom Wisdom::load(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (!std::filesystem::exists(path)) return {};
    throw TunerError(path.string() + ": cannot read the wisdom file");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  json::value j;
  try {
    j = json::parse(ss.str());
  } catch (const std::exception& e) {
    throw TunerError(fmt::format("{}: not valid JSON ({})", path.string(), e.what()));
  }
  return fromJson(j, path.string());
}

void Wisdom::save(const std::filesystem::path& path) const {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  auto tmp = path;
  tmp += fmt::format(".tmp.{}", ::getpid());
  std::string text = json::serialize(toJson()) + "\n";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw TunerError(tmp.string() + ": cannot write the wisdom file");
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0 &&
            ::fsync(fileno(f)) == 0;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) {
    std::filesystem::remove(tmp);
    throw TunerError(tmp.string() + ": writing the wisdom file failed");
  }
  std::filesystem::rename(tmp, path);  // atomic on POSIX within one file system
}

bool Wisdom::update(const std::filesystem::path& path, const WisdomKey& key, WisdomEntry entry,
                    bool onlyIfBetter) {
  Wisdom w = load(path);
  if (!w.record(key, std::move(entry), onlyIfBetter)) return false;
  w.save(path);
  return true;
}

bool Wisdom::record(const WisdomKey& key, WisdomEntry entry, bool onlyIfBetter) {
  if (entry.recorded.empty()) entry.recorded = nowUtc();
  for (auto& [k, e] : entries_)
    if (k == key) {
      if (onlyIfBetter && !(entry.cost < e.cost)) return false;
      e = std::move(entry);
      return true;
    }
  entries_.emplace_back(key, std::move(entry));
  return true;
}

bool Wisdom::contains(std::string_view problem) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const auto& kv) { return kv.first.problem == problem; });
}

WisdomLookup Wisdom::lookup(const WisdomKey& key) const {
  // Among the entries for this problem, explain the mismatch of the closest one.
  const std::pair<WisdomKey, WisdomEntry>* closest = nullptr;
  int closestMatches = -1;
  for (const auto& kv : entries_) {
    const auto& k = kv.first;
    if (k.problem != key.problem) continue;
    if (k == key) return {kv.second, ""};
    int matches =
        (k.device == key.device) * 4 + (k.driver == key.driver) * 2 + (k.build == key.build);
    if (matches > closestMatches) closest = &kv, closestMatches = matches;
  }
  if (!closest) return {std::nullopt, fmt::format("no wisdom for '{}'", key.problem)};
  const auto& k = closest->first;
  std::vector<std::string> diffs;
  if (k.device != key.device)
    diffs.push_back(fmt::format("on device '{}' (this is '{}')", k.device, key.device));
  if (k.driver != key.driver)
    diffs.push_back(fmt::format("with driver '{}' (this is '{}')", k.driver, key.driver));
  if (k.build != key.build)
    diffs.push_back(fmt::format("by build '{}' (this is '{}')", k.build, key.build));
  return {std::nullopt, fmt::format("wisdom for '{}' was recorded {}; not used (tune again here)",
                                    key.problem, fmt::join(diffs, ", "))};
}

}  // namespace fftc::tuner
